//! The run's Nsight Compute counters as the page reads them (`Session.counters`), run as wasm
//! (`bash scripts/test-wasm.sh`): a program's launch counted as the CLI's `counters` counts it,
//! every block; a warp run alone counted from its recording; counted once per load.
#![cfg(target_arch = "wasm32")]

use serde::Serialize;
use serde_json::Value;
use warpscope_core::session::counters::counters;
use warpscope_core::session::RunRequest;
use warpscope_web::{counter_names, Session};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

fn json(v: JsValue) -> Value {
    serde_wasm_bindgen::from_value(v).expect("a plain view")
}

fn options(v: Value) -> JsValue {
    v.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).unwrap()
}

/// Two launches; the second is of 3 blocks of 40 threads (two warps each, the second of 8
/// lanes), whose first 12 threads of a block take a branch.
const PROGRAM: &str = "__global__ void fill(int *a) { a[threadIdx.x] = 1; }\n\
__global__ void split(int *a) {\n    int t = blockIdx.x * blockDim.x + threadIdx.x;\n    if (threadIdx.x < 12) a[t] = t;\n    else a[t] = -t;\n}\n\
int main() {\n    int *d;\n    cudaMalloc(&d, 120 * sizeof(int));\n    fill<<<1, 40>>>(d);\n    split<<<3, 40>>>(d);\n    return 0;\n}\n";

#[wasm_bindgen_test]
fn a_programs_launch_counts_every_block_as_the_cli_does() {
    let mut s = Session::new();
    let r = json(s.load(PROGRAM, options(serde_json::json!({ "launch": 1 }))).unwrap());
    assert_eq!((r["ok"].clone(), r["kernel"].clone()), (true.into(), "split".into()), "{r}");
    let page = json(s.counters().unwrap());
    assert_eq!(page["whole_launch"], true);
    // The CLI's `counters FILE --launch 2` of the same text and choices.
    let resolved = RunRequest::of_text(PROGRAM).resolve();
    let cli = counters(&resolved, Some(1)).unwrap().remove(0);
    assert_eq!(cli.kernel, "split");
    let by_pc = page["by_pc"].as_array().unwrap();
    assert_eq!(by_pc.len(), cli.instructions.len(), "a C kernel has no SASS sequences");
    for (row, i) in by_pc.iter().zip(&cli.instructions) {
        assert_eq!(row["inst_executed"], i.counts.inst_executed, "{}", i.text);
        assert_eq!(row["thread_inst_executed"], i.counts.thread_inst_executed, "{}", i.text);
        assert_eq!(row["thread_inst_executed_pred_on"], i.counts.thread_inst_executed_pred_on, "{}", i.text);
        assert_eq!(row["branch_targets"], i.counts.branch_targets, "{}", i.text);
        assert_eq!(row["branch_targets_divergent"], i.counts.branch_targets_divergent, "{}", i.text);
    }
    assert_eq!(page["total"]["inst_executed"], cli.total.inst_executed);
    // Every one of the six warps issues the first instruction: 3 x 40 threads.
    assert_eq!((by_pc[0]["inst_executed"].as_u64(), by_pc[0]["thread_inst_executed"].as_u64()), (Some(6), Some(120)));
    // Seeking does not count again: the same counts come back.
    s.seek(5.0);
    assert_eq!(json(s.counters().unwrap()), page);
}

#[wasm_bindgen_test]
fn a_warp_run_alone_counts_its_own_steps() {
    let mut s = Session::new();
    assert!(s.counters().unwrap().is_null(), "no run, no counters");
    let r = json(s.load(include_str!("../../examples/single_loop.sass"), options(serde_json::json!({ "params": { "n": 2 } }))).unwrap());
    assert_eq!(r["ok"], true, "{r}");
    let counts = json(s.counters().unwrap());
    assert_eq!(counts["whole_launch"], false);
    let cfg = json(s.cfg().unwrap());
    assert_eq!(counts["by_pc"].as_array().map(Vec::len), cfg["instrs"].as_array().map(Vec::len), "one per instruction shown");
    // Each step issues one instruction of this listing (no SASS sequences, no idle steps).
    assert_eq!(counts["total"]["inst_executed"].as_f64(), Some(s.total_steps()));
    assert_eq!(s.current(), 0.0, "the replay leaves the step where it was");
}

#[wasm_bindgen_test]
fn the_counters_are_named_as_ncu_names_them() {
    let names = json(counter_names().unwrap());
    let fields: Vec<&str> = names.as_array().unwrap().iter().map(|n| n["field"].as_str().unwrap()).collect();
    assert_eq!(
        fields,
        ["inst_executed", "thread_inst_executed", "thread_inst_executed_pred_on", "branch_targets", "branch_targets_divergent"]
    );
    assert_eq!(names[0]["title"], "Instructions Executed");
    assert_eq!(names[4]["metric"], "smsp__sass_branch_targets_threads_divergent");
}
