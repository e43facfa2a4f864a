//! The facade as the page uses it, run as wasm (`wasm-pack test --node web`): loading, the
//! Figure 3 walk-through states, seeking, run_until, series and bad input.
#![cfg(target_arch = "wasm32")]

use js_sys::{Uint16Array, Uint8Array};
use serde_json::Value;
use warpscope_core::trace::event_names;
use warpscope_web::Session;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

const SINGLE_LOOP: &str = include_str!("../../examples/single_loop.sass");

fn json(v: JsValue) -> Value {
    serde_wasm_bindgen::from_value(v).expect("a plain view")
}

fn opts(n: i64) -> JsValue {
    let o = serde_json::json!({ "params": { "n": n } });
    o.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).unwrap()
}
use serde::Serialize;

fn loaded(n: i64) -> Session {
    let mut s = Session::new();
    let r = json(s.load(SINGLE_LOOP, opts(n)).unwrap());
    assert_eq!(r["ok"], true, "{r}");
    s
}

#[wasm_bindgen_test]
fn load_runs_the_whole_kernel_and_rewinds() {
    let s = loaded(2);
    // 32 - n lanes loop 32 times, the last n lanes fewer; the run length follows the CLI's.
    assert!(s.total_steps() > 100.0);
    assert_eq!(s.current(), 0.0);
    let m = json(s.metrics().unwrap());
    assert_eq!(m["total"]["pushes"], 3.0, "single loop: n + 1 pushes");
    assert_eq!(m["total"]["max_stack_depth"], 3.0);
    assert_eq!(m["now"]["steps"], 0.0);
}

#[wasm_bindgen_test]
fn figure_3_divergence_pushes_a_div_token_for_lane_31() {
    let mut s = loaded(2);
    let stop = json(s.run_until("divergence", None).unwrap());
    assert_eq!(stop["kind"], "event");
    let st = json(s.state(31).unwrap());
    let stack = st["stack"].as_array().unwrap();
    assert_eq!(stack.len(), 2, "{st}");
    assert_eq!(stack[0]["kind"], "SYNC");
    assert_eq!(stack[1]["kind"], "DIV");
    assert_eq!(stack[1]["lanes"], serde_json::json!([31]));
    assert_eq!(st["lanes"][31]["state"], "waiting");
    assert_eq!(st["lanes"][0]["state"], "active");
    // The waiting lane is shown at the block where it resumes.
    assert_eq!(st["waiting"][0]["lanes"], serde_json::json!([31]));
}

#[wasm_bindgen_test]
fn seek_step_and_series_agree() {
    let mut s = loaded(3);
    let total = s.total_steps();
    assert_eq!(s.seek(total + 50.0), total, "seek clamps to the run");
    assert_eq!(s.step(), total, "no step past the end");
    assert_eq!(s.step_back(), total - 1.0);
    let (depth, active, events) = series(&s);
    let (depth, active) = (Uint8Array::from(depth).to_vec(), active.to_vec());
    assert_eq!(events.length() as f64, total);
    assert_eq!(depth.len() as f64, total);
    assert_eq!(active.len() as f64, total);
    assert_eq!(*depth.iter().max().unwrap(), 4, "n + 1 at n = 3");
    let lanes = s.lane_states(0.0, 10.0).to_vec();
    assert_eq!(lanes.len(), 10 * 32);
    assert!(lanes.iter().all(|c| *c <= 3));
}

/// `Session.series()`: (depth, active, events).
fn series(s: &Session) -> (JsValue, Uint8Array, Uint8Array) {
    let o = s.series().unwrap();
    let get = |name: &str| js_sys::Reflect::get(&o, &name.into()).unwrap();
    (get("depth"), get("active").unchecked_into(), get("events").unchecked_into())
}

/// Lanes leave a loop one by one around step 131,072 (a DIV token each), so the depth changes
/// within and across the second and third pieces the series are written in.
const LANES_LEAVE_ACROSS_PIECES: &str = "//@ warp 32\n//@ reg R5 = 43000 + 100 * t\n//@ reg R4 = 0\n\
    SSY X\nL: IADD R4, R4, 0x1\nISETP.LT.AND P0, PT, R4, R5, PT\n@P0 BRA L\nNOP.S\nX: EXIT\n";

#[wasm_bindgen_test]
fn series_written_in_pieces_are_every_step_of_the_trace() {
    let mut s = Session::new();
    assert_eq!(json(s.load(LANES_LEAVE_ACROSS_PIECES, JsValue::UNDEFINED).unwrap())["ok"], true);
    let total = s.total_steps() as usize;
    assert!(total > 2 * 65_536, "{total} steps: more than two pieces");
    let (depth, active, events) = series(&s);
    assert!(depth.is_instance_of::<Uint8Array>(), "a stack of 33 entries at most fits a byte");
    let (depth, active, events) = (Uint8Array::from(depth).to_vec(), active.to_vec(), events.to_vec());
    let csv = s.trace_csv();
    let mut rows = 0;
    for (k, line) in csv.lines().skip(1).enumerate() {
        // step,pc,line,"instruction",mask,active_lanes,depth,events,stack
        let fields: Vec<&str> = line.rsplit_once("\",").unwrap().1.split(',').collect();
        let want = (fields[1].parse::<u8>().unwrap(), fields[2].parse::<u8>().unwrap(), fields[3]);
        assert_eq!((active[k], depth[k], &*event_names(events[k] as u16)), want, "step {}", k + 1);
        rows += 1;
    }
    assert_eq!((rows, depth.len(), active.len(), events.len()), (total, total, total, total));
    assert_eq!(depth.iter().max(), Some(&32), "the SYNC token and a DIV token for each of the 31 lanes that left before the last");
}

#[wasm_bindgen_test]
fn a_stack_deeper_than_a_byte_gives_a_wider_depth_series() {
    let mut s = Session::new();
    // Each trip pushes a token until the stack's hard limit (1,024 entries) faults the run.
    let r = json(s.load("//@ warp 4\nL: SSY X\nBRA L\nX: EXIT\n", JsValue::UNDEFINED).unwrap());
    assert_eq!(r["end"]["kind"], "fault", "{r}");
    let depth = series(&s).0;
    assert!(depth.is_instance_of::<Uint16Array>());
    let depth = Uint16Array::from(depth).to_vec();
    assert_eq!(depth.len() as f64, s.total_steps());
    assert_eq!(depth.iter().max().copied(), Some(json(s.metrics().unwrap())["total"]["max_stack_depth"].as_u64().unwrap() as u16));
    assert!(depth.iter().max() > Some(&255));
}

#[wasm_bindgen_test]
fn breakpoints_stop_run_until() {
    let mut s = loaded(2);
    s.set_breakpoints(vec![4]);
    let stop = json(s.run_until("breakpoint", None).unwrap());
    assert_eq!(stop["kind"], "breakpoint", "{stop}");
    assert_eq!(json(s.state(0).unwrap())["pc"], 4);
    let end = json(s.run_until("end", None).unwrap());
    assert_eq!(end["kind"], "exited", "the run's own end");
    assert_eq!(s.current(), s.total_steps());
}

#[wasm_bindgen_test]
fn bad_input_keeps_the_last_good_run() {
    let mut s = loaded(2);
    let total = s.total_steps();
    let r = json(s.load("//@ param n = (1\nFOO R1\n", JsValue::UNDEFINED).unwrap());
    assert_eq!(r["ok"], false);
    let d = r["diagnostics"].as_array().unwrap();
    assert_eq!(d.len(), 2, "{r}");
    assert_eq!((d[0]["line"].as_u64(), d[0]["col"].as_u64()), (Some(1), Some(15)));
    assert!(d[1]["message"].as_str().unwrap().contains("FOO"));
    assert_eq!(s.total_steps(), total);
    // An endless loop ends at the step limit with a message, not a hang ...
    let limited = serde_json::json!({"step_limit": 1000}).serialize(&serde_wasm_bindgen::Serializer::json_compatible()).unwrap();
    let r = json(s.load("L: BRA L\n", limited).unwrap());
    assert_eq!(r["end"]["kind"], "step_limit", "{r}");
    assert_eq!(r["end"]["line"], 1, "the loop's line: {r}");
    // ... and one that repeats its state ends sooner, as a deadlock.
    let r = json(s.load("L: BRA L\n", JsValue::UNDEFINED).unwrap());
    assert_eq!(r["end"]["kind"], "deadlock", "{r}");
    assert!(r["end"]["message"].as_str().unwrap().contains("repeats forever"), "{r}");
}

fn load_with(s: &mut Session, options: serde_json::Value) -> Value {
    json(s.load(SINGLE_LOOP, options.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).unwrap()).unwrap())
}

#[wasm_bindgen_test]
fn bad_options_are_located_errors_and_keep_the_last_good_run() {
    let mut s = loaded(2);
    let total = s.total_steps();
    let param_line = SINGLE_LOOP.lines().position(|l| l.starts_with("//@ param n")).unwrap() as u64 + 1;
    for (options, line, says) in [
        (serde_json::json!({ "params": { "n": 1e30 } }), param_line, "param n = 1000000000000000000000000000000 is not an integer"),
        (serde_json::json!({ "params": { "n": 2.5 } }), param_line, "param n = 2.5 is not an integer"),
        (serde_json::json!({ "preset": "fermi" }), 1, "unknown cost preset `fermi` chosen (known: kepler, maxwell, h100, tesla)"),
        (serde_json::json!({ "schedule": "sideways" }), 1, "unknown schedule `sideways` chosen"),
        (serde_json::json!({ "path_order": "both" }), 1, "unknown path order `both` chosen"),
        (serde_json::json!({ "model": "gt200" }), 1, "unknown model `gt200` chosen"),
    ] {
        let r = load_with(&mut s, options);
        assert_eq!(r["ok"], false, "{r}");
        let d = &r["diagnostics"][0];
        assert_eq!(d["line"].as_u64(), Some(line), "{r}");
        assert!(d["message"].as_str().unwrap().starts_with(says), "{r}");
        assert_eq!(s.total_steps(), total, "the last good run stays");
    }
    // A default beyond 2^53 still comes back as a number, not a serialization failure.
    let r = json(s.load("//@ param big = 1 << 62\nEXIT;\n", JsValue::UNDEFINED).unwrap());
    assert_eq!(r["ok"], true, "{r}");
    assert_eq!(r["params"][0]["default"].as_f64(), Some(4.611686018427388e18));
}

#[wasm_bindgen_test]
fn the_lane_window_cap_comes_from_the_core() {
    let s = loaded(2);
    let cap = warpscope_web::lane_window_max();
    assert_eq!(cap, 4096.0);
    let all = s.lane_states(0.0, s.total_steps());
    assert_eq!(all.length() as f64, s.total_steps().min(cap) * 32.0);
}

const DOUBLE_LOOP_C: &str = include_str!("../../examples/double_loop.cu");
const IF_ELSE_C: &str =
    "//@ buffer a: i32[32]\n__global__ void k(int* a) {\n    int t = threadIdx.x;\n    if (t < 5) a[t] = 1; else a[t] = 2;\n}\n";

fn opts_json(v: serde_json::Value) -> JsValue {
    v.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).unwrap()
}

#[wasm_bindgen_test]
fn a_c_kernel_loads_with_its_listing_and_line_maps() {
    let mut s = Session::new();
    let r = json(s.load(DOUBLE_LOOP_C, JsValue::UNDEFINED).unwrap());
    assert_eq!(r["ok"], true, "{r}");
    let c = json(s.compiled().unwrap());
    assert_eq!(c["target"], "kepler");
    assert_eq!(c["if_convert"], false);
    let listing: Vec<&str> = c["listing"].as_str().unwrap().lines().collect();
    let cfg = json(s.cfg().unwrap());
    let instrs = cfg["instrs"].as_array().unwrap();
    let (ll, sl) = (c["listing_lines"].as_array().unwrap(), c["source_lines"].as_array().unwrap());
    assert_eq!((ll.len(), sl.len()), (instrs.len(), instrs.len()));
    let source: Vec<&str> = DOUBLE_LOOP_C.lines().collect();
    for (pc, i) in instrs.iter().enumerate() {
        // Each pc's listing line holds its instruction; its source line is the one the CFG shows.
        let text = listing[ll[pc].as_u64().unwrap() as usize - 1].trim();
        assert_eq!(text.trim_end_matches(';'), i["text"].as_str().unwrap(), "pc {pc}");
        assert_eq!(sl[pc], i["line"]);
    }
    let fadd = instrs.iter().position(|i| i["text"] == "FADD R6, R6, 1.3333").unwrap();
    assert_eq!(source[sl[fadd].as_u64().unwrap() as usize - 1].trim(), "sum += 1.3333f;");
    // Blocks carry the range of source lines of their instructions.
    let loop_body = &cfg["blocks"][instrs[fadd]["block"].as_u64().unwrap() as usize];
    let (first, last) = (loop_body["source_lines"]["first"].as_u64().unwrap(), loop_body["source_lines"]["last"].as_u64().unwrap());
    assert!(first <= sl[fadd].as_u64().unwrap() && sl[fadd].as_u64().unwrap() <= last, "{loop_body}");
    // An assembly kernel has no generated code.
    let r = json(s.load(SINGLE_LOOP, JsValue::UNDEFINED).unwrap());
    assert_eq!(r["ok"], true);
    assert!(s.compiled().unwrap().is_null());
}

#[wasm_bindgen_test]
fn if_convert_turns_a_short_branch_into_predicated_code() {
    let ssy = |s: &Session| {
        json(s.cfg().unwrap())["instrs"].as_array().unwrap().iter().filter(|i| i["text"].as_str().unwrap().starts_with("SSY")).count()
    };
    let mut s = Session::new();
    let plain = json(s.load(IF_ELSE_C, opts_json(serde_json::json!({ "if_convert": false }))).unwrap());
    assert_eq!(plain["ok"], true, "{plain}");
    assert_eq!(ssy(&s), 1);
    let pushes = json(s.metrics().unwrap())["total"]["pushes"].as_f64().unwrap();
    assert!(pushes >= 1.0);
    let conv = json(s.load(IF_ELSE_C, opts_json(serde_json::json!({ "if_convert": true, "model": "kepler" }))).unwrap());
    assert_eq!(conv["ok"], true, "{conv}");
    assert_eq!(json(s.compiled().unwrap())["if_convert"], true);
    assert_eq!(ssy(&s), 0, "no reconvergence point: both sides are predicated");
    assert_eq!(json(s.metrics().unwrap())["total"]["pushes"], 0.0);
}

/// Loads a C kernel whose body is `body`: whether it ran, and its first diagnostic.
fn load_c_body(body: &str) -> Value {
    let text = format!("//@ warp 4\n//@ buffer out: i32[4]\n__global__ void k(int* out) {{ int t = threadIdx.x; {body} }}\n");
    json(Session::new().load(&text, JsValue::UNDEFINED).unwrap())
}
fn parens(n: usize) -> String {
    format!("out[t] = {}1{};", "(".repeat(n), ")".repeat(n))
}
fn blocks(n: usize) -> String {
    format!("int x = 0; {}x = x + 1;{} out[t] = x;", "if (t > 0) {".repeat(n), "}".repeat(n))
}

// The compiler's nesting budget was sized on native stacks; wasm's is smaller. Just under the
// limit must compile and run; just over must be a located error, never a trap.
#[wasm_bindgen_test]
fn expressions_nested_to_the_parsers_limit_load_in_wasm() {
    let r = load_c_body(&parens(160));
    assert_eq!(r["ok"], true, "{}", r["diagnostics"]);
}
#[wasm_bindgen_test]
fn expressions_nested_past_the_parsers_limit_are_located_errors_in_wasm() {
    let r = load_c_body(&parens(400));
    assert_eq!((r["ok"].clone(), r["diagnostics"][0]["line"].clone()), (Value::Bool(false), Value::from(3)), "{r}");
}
#[wasm_bindgen_test]
fn blocks_nested_to_the_parsers_limit_load_in_wasm() {
    let r = load_c_body(&blocks(30));
    assert_eq!(r["ok"], true, "{}", r["diagnostics"]);
}
#[wasm_bindgen_test]
fn blocks_nested_past_the_parsers_limit_are_located_errors_in_wasm() {
    let r = load_c_body(&blocks(200));
    assert_eq!((r["ok"].clone(), r["diagnostics"][0]["line"].clone()), (Value::Bool(false), Value::from(3)), "{r}");
}

const FIGURE_1: &str = include_str!("../../examples/tf_figure1.sass");

/// STRUCT through the facade: the CFG names copies after their block, the original graph is
/// there beside it, the listing is the transformed code (each pc on its own line), the metrics
/// and the report carry the transforms; other models have none of it.
#[wasm_bindgen_test]
fn struct_names_its_copies_and_keeps_the_original_graph() {
    let mut s = Session::new();
    let r = json(s.load(FIGURE_1, opts_json(serde_json::json!({ "model": "struct" }))).unwrap());
    assert_eq!(r["ok"], true, "{r}");
    let cfg = json(s.cfg().unwrap());
    let blocks = cfg["blocks"].as_array().unwrap();
    let bb5 = blocks.iter().find(|b| b["name"] == "BB5'").expect("a copy of BB5");
    assert_eq!((bb5["original"].as_u64(), bb5["copy"].as_u64(), bb5["made"].as_bool()), (Some(5), Some(1), Some(false)));
    let original = json(s.original_cfg().unwrap());
    let names: Vec<&str> = original["blocks"].as_array().unwrap().iter().map(|b| b["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["BB0", "BB1", "BB2", "BB3", "BB4", "BB5", "BB6"]);
    let c = json(s.compiled().unwrap());
    let listing: Vec<&str> = c["listing"].as_str().unwrap().lines().collect();
    for (pc, i) in cfg["instrs"].as_array().unwrap().iter().enumerate() {
        let line = listing[c["listing_lines"][pc].as_u64().unwrap() as usize - 1];
        assert!(line.contains(i["text"].as_str().unwrap()), "pc {pc}: {line}");
    }
    let m = json(s.metrics().unwrap());
    assert_eq!(m["transforms"]["forward_copies"], 2, "{m}");
    let report = json(s.report().unwrap());
    assert_eq!((report["warp_instructions"].as_u64(), report["mimd_warp_instructions"].as_u64()), (Some(28), Some(19)));
    assert_eq!(report["block_counts"].as_array().unwrap().len(), 7, "per block of the kernel as written");

    let r = json(s.load(FIGURE_1, opts_json(serde_json::json!({ "model": "pdom" }))).unwrap());
    assert_eq!(r["ok"], true);
    assert!(s.original_cfg().unwrap().is_null());
    assert!(json(s.metrics().unwrap())["transforms"].is_null());
}
