//! End-to-end tests of the `warpscope` binary: JSON/CSV shapes, the paper's numbers through the
//! command line, the Figure 3 trace, and located, non-zero-exit errors for bad input.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

fn example(name: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples").join(name);
    p.to_str().expect("utf-8 path").to_string()
}

fn warpscope(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warpscope")).args(args).output().expect("run warpscope")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("utf-8 stdout")
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("utf-8 stderr")
}

/// Runs and parses stdout as JSON, requiring exit code `code`.
fn json(args: &[&str], code: i32) -> Value {
    let o = warpscope(args);
    assert_eq!(o.status.code(), Some(code), "{args:?}: stderr {}", stderr(&o));
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}: {}", stdout(&o)))
}

/// A kernel file in the temp dir, unique per test and process; removed on drop.
struct TempKernel(PathBuf);

impl TempKernel {
    fn new(tag: &str, text: &str) -> TempKernel {
        let p = std::env::temp_dir().join(format!("warpscope-cli-{}-{tag}.sass", std::process::id()));
        std::fs::write(&p, text).expect("write temp kernel");
        TempKernel(p)
    }
    fn path(&self) -> &str {
        self.0.to_str().expect("utf-8 path")
    }
}

impl Drop for TempKernel {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Runs, requiring a failing exit, and returns stderr.
fn fails(args: &[&str]) -> String {
    let o = warpscope(args);
    assert!(!o.status.success(), "{args:?} should fail; stdout {}", stdout(&o));
    stderr(&o)
}

const KEYS: [&str; 25] = [
    "steps",
    "warp_instructions",
    "thread_instructions",
    "simd_efficiency",
    "pushes",
    "pops",
    "max_stack_depth",
    "spills",
    "fills",
    "divergent_branches",
    "cycles",
    "clock_window",
    "stop_reason",
    "block_counts",
    "idle_instructions",
    "memory_instructions",
    "memory_transactions",
    "transactions_per_memory_instruction",
    "mimd_block_counts",
    "mimd_warp_instructions",
    "code_expansion",
    "transforms",
    "buffers",
    "params",
    "output",
];

#[test]
fn run_json_has_exactly_the_metric_and_result_keys() {
    let single = example("single_loop.sass");
    let v = json(&["run", "--json", &single], 0);
    let mut keys: Vec<&str> = v.as_object().expect("object").keys().map(String::as_str).collect();
    keys.sort_unstable();
    let mut want = KEYS.to_vec();
    want.sort_unstable();
    assert_eq!(keys, want);
    assert_eq!(v["stop_reason"]["kind"], "exited");
    // Listing 3 at the default n = 2: one SYNC token plus one DIV per leaving lane.
    assert_eq!(v["pushes"], 3);
    assert_eq!(v["steps"], 137);
    assert_eq!(json(&["run", "--json", &single, "--set", "n=5"], 0)["pushes"], 6);
}

#[test]
fn presets_costs_and_stack_options_take_effect() {
    let single = example("single_loop.sass");
    let cycles = |extra: &[&str]| {
        let mut args = vec!["run", "--json", single.as_str()];
        args.extend_from_slice(extra);
        json(&args, 0)["cycles"].as_u64().expect("cycles")
    };
    let kepler = cycles(&["--preset", "kepler"]);
    assert_ne!(cycles(&["--preset", "maxwell"]), kepler);
    assert_ne!(cycles(&["--cost", "divergence=0"]), kepler);
    // Depth n + 1 = 11 on a 4-entry stack must spill.
    let v = json(&["run", "--json", &single, "--stack-capacity", "4", "--stack-chunk", "2", "--set", "n=10"], 0);
    assert!(v["spills"].as_u64().unwrap() > 0, "{v}");
    assert!(v["fills"].as_u64().unwrap() > 0, "{v}");
}

#[test]
fn sweep_json_rows_match_single_runs() {
    let double = example("double_loop.sass");
    let rows = json(&["sweep", &double, "--param", "n=0..31", "--json"], 0);
    let rows = rows.as_array().expect("array");
    assert_eq!(rows.len(), 32);
    for (n, row) in rows.iter().enumerate() {
        let n = n as u64;
        assert_eq!(row["n"], n);
        // Listing 4: pushes = n(65 - n)/2 + 33.
        assert_eq!(row["pushes"], n * (65 - n) / 2 + 33, "n = {n}");
    }
    for n in [0usize, 1, 16, 31] {
        let set = format!("n={n}");
        let run = json(&["run", "--json", &double, "--set", &set], 0);
        for key in KEYS[..11].iter().filter(|k| **k != "simd_efficiency") {
            assert_eq!(rows[n][*key], run[*key], "{key} at n = {n}");
        }
        assert!((rows[n]["simd_efficiency"].as_f64().unwrap() - run["simd_efficiency"].as_f64().unwrap()).abs() < 1e-6);
        assert_eq!(rows[n]["stop_reason"]["kind"], "exited");
    }
}

#[test]
fn sweep_csv_has_a_header_and_one_row_per_value() {
    let o = warpscope(&["sweep", &example("double_loop.sass"), "--param", "n=0..31", "--csv"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("n,model,preset,cycles,"), "{}", lines[0]);
    assert_eq!(lines.len(), 33);
    let cols = lines[0].split(',').count();
    for (n, l) in lines[1..].iter().enumerate() {
        assert!(l.starts_with(&format!("{n},kepler,kepler,")), "{l}");
        assert_eq!(l.split(',').count(), cols, "{l}");
    }
}

/// A figure's CSV rows as (x, preset or split column, column) -> value.
fn figure_rows(id: &str) -> Vec<std::collections::HashMap<String, String>> {
    let figures = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples/figures.json");
    let o = warpscope(&["figure", id, "--csv", "--figures", figures.to_str().unwrap()]);
    assert!(o.status.success(), "{id}: {}", stderr(&o));
    let out = stdout(&o);
    let mut lines = out.lines();
    let header: Vec<String> = lines.next().unwrap().split(',').map(String::from).collect();
    lines.map(|l| header.iter().cloned().zip(l.split(',').map(String::from)).collect()).collect()
}

fn column(rows: &[std::collections::HashMap<String, String>], filter: (&str, &str), col: &str) -> Vec<i64> {
    rows.iter().filter(|r| r[filter.0] == filter.1).map(|r| r[col].parse::<f64>().unwrap() as i64).collect()
}

#[test]
fn every_figure_runs_and_says_what_to_look_at() {
    let text = std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples/figures.json")).unwrap();
    let figures: Value = serde_json::from_str(&text).unwrap();
    for f in figures.as_array().unwrap() {
        let id = f["id"].as_str().unwrap();
        assert!(f["look"].as_str().is_some_and(|l| l.len() > 40), "{id} says what to look at");
        let rows = figure_rows(id);
        assert!(!rows.is_empty(), "{id}");
        assert!(rows.iter().all(|r| r.get("stop_reason").is_none_or(|s| s == "exited")), "{id}: every run exits");
    }
}

#[test]
fn figure_1_and_2_kepler_and_maxwell_slopes_and_spill_jumps() {
    let rows = figure_rows("bs-fig1");
    for (preset, slope, spill) in [("kepler", 32, 84), ("maxwell", 26, 176)] {
        let c = column(&rows, ("preset", preset), "cycles");
        for n in 1..=15 {
            assert_eq!(c[n] - c[n - 1], slope, "{preset}: one divergent lane costs {slope} cycles (n = {n})");
        }
        for n in 16..=31 {
            let jump = if n % 4 == 0 { slope + spill } else { slope };
            assert_eq!(c[n] - c[n - 1], jump, "{preset}: n = {n}");
        }
    }
    let rows = figure_rows("bs-fig2");
    let events = column(&rows, ("preset", "kepler"), "divergent_branches");
    let pushes = column(&rows, ("preset", "kepler"), "pushes");
    for n in 0..32i64 {
        assert_eq!(events[n as usize], n * (65 - n) / 2, "divergent events at n = {n}");
        assert_eq!(pushes[n as usize], n * (65 - n) / 2 + 33, "pushes at n = {n}");
    }
    let spills = column(&figure_rows("bs-fig6"), ("preset", "kepler"), "spills");
    assert!(spills[..15].iter().all(|&s| s == 0) && spills[15] > 0, "{spills:?}");
}

#[test]
fn h100_rolled_loops_fit_the_volta_model_with_no_residual() {
    for (id, per_event) in [("h100-single", 13), ("h100-double", 13)] {
        let rows = figure_rows(id);
        assert_eq!(rows.len(), 32);
        for r in &rows {
            assert_eq!(r["residual"], "0", "{id} at n = {}", r["n"]);
        }
        let cycles = column(&rows, ("model", "volta"), "cycles");
        let events = column(&rows, ("model", "volta"), "divergent_branches");
        for n in 1..32 {
            assert_eq!(cycles[n] - cycles[0], per_event * events[n], "{id}: 13 cycles per divergent event (n = {n})");
        }
    }
}

#[test]
fn hovland_figures_serialize_paths_whatever_the_lanes() {
    let rows = figure_rows("hovland-fig3");
    let tesla = column(&rows, ("preset", "tesla"), "cycles");
    let step = tesla[1] - tesla[0];
    assert!(step > 0 && tesla.windows(2).all(|w| w[1] - w[0] == step), "one more path, one more case body: {tesla:?}");
    let lone = column(&figure_rows("hovland-fig4"), ("preset", "tesla"), "cycles");
    assert!(lone.iter().all(|&c| c == lone[0]), "which lane takes it does not matter: {lone:?}");
    let rows = figure_rows("hovland-fig5");
    assert_eq!(column(&rows, ("layout", "1"), "cycles"), column(&rows, ("layout", "2"), "cycles"), "grouped = scattered");
    let size = column(&figure_rows("hovland-fig6"), ("preset", "tesla"), "cycles");
    assert!(size[1..32].iter().all(|&c| c == size[1]) && size[0] < size[1] && size[32] < size[1], "{size:?}");
}

#[test]
fn sweep_measured_and_split_options() {
    let single = example("single_loop.cu");
    let data = example("data/h100_loops.csv");
    let rows = json(
        &[
            "sweep",
            &single,
            "--param",
            "n=0..3",
            "--model",
            "volta",
            "--preset",
            "h100",
            "--measured",
            &data,
            "--measured-series",
            "single_nounroll",
            "--json",
        ],
        0,
    );
    assert_eq!(rows[3]["measured"], 988);
    assert_eq!(rows[3]["residual"], 0);
    let err = fails(&["sweep", &single, "--param", "n=0..3", "--measured", &data, "--measured-series", "quadruple"]);
    assert!(err.contains("no series O3/quadruple/table1"), "{err}");
    let paths = example("hovland_paths.cu");
    let rows = json(&["sweep", &paths, "--param", "paths=1..2", "--split", "layout=1..2", "--presets", "tesla,kepler", "--json"], 0);
    assert_eq!(rows.as_array().unwrap().len(), 8);
    assert_eq!(rows[1]["series"], "kepler · tesla · layout=2");
    let err = fails(&["sweep", &paths, "--param", "paths=1..2", "--split", "colour=1"]);
    assert!(err.contains("no param `colour`"), "{err}");
}

#[test]
fn trace_shows_the_figure_3_stack_states_in_order() {
    let o = warpscope(&["trace", &example("single_loop.sass")]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    const S: &str = "SYNC 0xFFFFFFFF 0x0128";
    const D31: &str = " | DIV 0x80000000 0x0120";
    const D30: &str = " | DIV 0x40000000 0x0120";
    // SSY pushes; lanes 31 then 30 leave the loop (a DIV push each); NOP.S pops them one by one,
    // then the SYNC token: (instruction, stack after the step), in order.
    let states = [
        ("SSY 0x128", S.to_string()),
        ("@P0 BRA 0x100", format!("{S}{D31}")),
        ("@P0 BRA 0x100", format!("{S}{D31}{D30}")),
        ("NOP.S", format!("{S}{D31}")),
        ("NOP.S", S.to_string()),
        ("NOP.S", "  -".to_string()),
        ("S2R R5, SR_CLOCKHI", "  -".to_string()),
    ];
    let mut at = 0;
    for (instr, stack) in &states {
        let found = lines[at..].iter().position(|l| l.contains(instr) && l.ends_with(stack.as_str()));
        at += 1 + found.unwrap_or_else(|| panic!("no `{instr}` line ending in {stack:?} after line {at}:\n{out}"));
    }
    assert_eq!(*lines.last().unwrap(), "# exited after 137 steps");
}

#[test]
fn trace_into_a_closed_pipe_does_not_panic() {
    // A long trace (megabytes) so the writer surely hits the closed pipe.
    let mut child = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(["trace", &example("double_loop.sass"), "--set", "n=31"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).expect("read");
    assert!(first.starts_with("# mask"), "{first}");
    // The reader (and the pipe) is dropped here, like `| head -1`.
    let o = child.wait_with_output().expect("wait");
    let err = stderr(&o);
    assert!(!err.contains("panicked"), "{err}");
    assert!(o.status.success(), "{:?}: {err}", o.status);
}

#[test]
fn cfg_names_reconvergence_points() {
    let if_else = example("if_else.sass");
    let o = warpscope(&["cfg", &if_else]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("reconverges at"), "{}", stdout(&o));

    let v = json(&["cfg", "--json", &if_else], 0);
    for k in ["blocks", "edges", "exits"] {
        assert!(v[k].is_array(), "{k} in {v}");
    }
    // The block starting at the first instruction after `.L_x_0:` (the SSY target).
    let text = std::fs::read_to_string(&if_else).unwrap();
    let label_line = text.lines().position(|l| l.trim() == ".L_x_0:").expect("label") as u64 + 1;
    let blocks = v["blocks"].as_array().unwrap();
    let first_line = |b: &Value| b["instructions"][0]["line"].as_u64().unwrap();
    let target = blocks.iter().filter(|b| first_line(b) > label_line).min_by_key(|b| first_line(b)).expect("target block");
    let branch: Vec<&Value> = blocks.iter().filter(|b| b["branch"] == true).collect();
    assert_eq!(branch.len(), 1, "{v}");
    assert_eq!(branch[0]["ipdom"], target["id"], "{v}");
}

#[test]
fn assembly_errors_are_located_with_a_caret() {
    let f = TempKernel::new("bad-opcode", "NOP\n  FOO R1\n");
    let err = fails(&["run", f.path()]);
    assert!(err.contains(":2:3: error:") && err.contains("FOO"), "{err}");
    // The caret line: two spaces of indent, then col - 1 = 2 spaces, then one `^` per character.
    assert!(err.lines().any(|l| l == "    ^^^"), "{err}");
}

#[test]
fn header_errors_are_located() {
    let f = TempKernel::new("bad-header", "//@ reg R5 = t +\nNOP\n");
    let err = fails(&["run", f.path()]);
    assert!(err.contains(":1:17: error:"), "{err}");
    assert!(err.lines().any(|l| l.trim() == "^"), "{err}");
}

#[test]
fn a_float_kernel_parameter_is_set_with_a_float() {
    let saxpy = TempKernel::new(
        "saxpy",
        "__global__ void saxpy(int n, float a, float* x, float* y) {\n    \
        int i = threadIdx.x;\n    if (i < n) y[i] = a * x[i] + y[i];\n}\n",
    );
    let v = json(&["run", "--json", saxpy.path(), "--input", "c", "--set", "a=2.5", "--set", "n=3"], 0);
    assert_eq!(v["params"]["a"], 2.5);
    let y: Vec<f64> = v["buffers"]["y"].as_array().unwrap().iter().take(4).map(|x| x.as_f64().unwrap()).collect();
    assert_eq!(y, [0.0, 3.5, 7.0, 3.0]);
    let err = fails(&["run", saxpy.path(), "--input", "c", "--set", "a=two"]);
    assert!(err.contains("`two` is not a number"), "{err}");
}

#[test]
fn nvccs_ptx_runs_and_its_errors_name_the_ptx() {
    // nvcc (scripts/nvcc.sh installs it under .tools/nvcc, which --nvcc finds) compiles the file;
    // its PTX computes what warpscope's own compile does, whatever the file's name ends in.
    let scale = TempKernel::new("scale", "__global__ void scale(int* a, int k) {\n    a[threadIdx.x] = threadIdx.x * k;\n}\n");
    let own = json(&["run", "--json", scale.path(), "--set", "k=3"], 0);
    let by_nvcc = json(&["run", "--json", scale.path(), "--nvcc", "--set", "k=3"], 0);
    assert_eq!(by_nvcc["buffers"]["arg0"], own["buffers"]["a"]);
    assert_eq!(by_nvcc["buffers"]["arg0"][5], 15);
    // An error is at a line of the PTX, which is not the file's: so it says.
    let timer = TempKernel::new(
        "timer",
        "__global__ void timer(int* a) {\n    int s;\n    asm volatile(\"mov.u32 %0, %%globaltimer_lo;\" : \"=r\"(s));\n    a[threadIdx.x] = s;\n}\n",
    );
    let err = fails(&["run", timer.path(), "--nvcc"]);
    let first = err.lines().next().unwrap_or("");
    assert!(first.starts_with(&format!("<nvcc's PTX of {}>:", timer.path())), "{err}");
    assert!(first.contains("`%globaltimer_lo` is not declared"), "{err}");
    assert!(err.contains("mov.u32"), "the PTX line under it: {err}");
    // Cooperative groups compile with the CCCL headers scripts/nvcc.sh installs beside nvcc: a
    // tile's shuffle-down sum leaves lane 0 with 0 + 1 + ... + 31.
    let groups = TempKernel::new(
        "groups",
        "#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n__global__ void k(int* out) {\n    \
        cg::thread_block block = cg::this_thread_block();\n    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);\n    \
        int v = tile.thread_rank();\n    for (int d = 16; d > 0; d /= 2) v += tile.shfl_down(v, d);\n    block.sync();\n    \
        out[threadIdx.x] = v;\n}\n",
    );
    let sum = json(&["run", "--json", groups.path(), "--nvcc"], 0);
    assert_eq!(sum["buffers"]["arg0"][0], 496, "{sum}");
    // warpscope's own C reads cooperative groups too, and computes what nvcc's code does, under
    // a stack model and under volta: a block, tiles of 8 passed to a device function, ballot,
    // any and all, a coalesced group in a branch; a `thread_group` parameter given the block.
    let fixture = |f: &str| format!("{}/tests/fixtures/{f}", env!("CARGO_MANIFEST_DIR"));
    // groups_more.cu: a `thread_group` parameter passed a block and a run-time tile (one
    // function per kind), `cg::reduce` over tiles of 32, 8 and 16 (ints, floats), and a
    // coalesced group's shuffles by rank (nvcc's PTX: `fns.b32`).
    let more = &["sums", "reds", "fsum", "coal"][..];
    for (file, buffers) in [("groups.cu", &["out", "tiles", "coal"][..]), ("groups_reduce.cu", &["out"][..]), ("groups_more.cu", more)] {
        for model in ["pdom", "volta"] {
            let own = json(&["run", "--json", &fixture(file), "--model", model], 0);
            let theirs = json(&["run", "--json", &fixture(file), "--model", model, "--nvcc"], 0);
            for (k, b) in buffers.iter().enumerate() {
                assert_eq!(own["buffers"][b], theirs["buffers"][format!("arg{k}")], "{file} {model}: {b}");
            }
        }
    }
    // A fixed `__shared__ float As[16][16]` overrun because the launch's block is 32 x 32: both
    // compiles name `As` (nvcc's `_ZZ14MatrixMulTiledPfS_S_iE2As` by its C name, its elements
    // the floats its accesses are) and say the declaration fixes its length.
    let tiled = TempKernel::new(
        "tiled",
        "//@ launch block=(32, 32)\n__global__ void MatrixMulTiled(float* A, float* B, float* C, int N) {\n    \
        __shared__ float As[16][16];\n    As[threadIdx.y][threadIdx.x] = A[threadIdx.x];\n    __syncthreads();\n    \
        C[threadIdx.x] = As[threadIdx.x % 16][threadIdx.y % 16];\n}\n",
    );
    for nvcc in [&[][..], &["--nvcc"][..]] {
        let v = json(&[&["run", "--json", tiled.path()][..], nvcc].concat(), 3);
        let message = v["stop"]["message"].as_str().unwrap_or_default();
        assert!(
            message.contains("past the end of shared `As`: element 256, and `As` holds 256 (its declaration fixes that length"),
            "{nvcc:?}: {message}"
        );
    }
}

#[test]
fn bad_options_fail_with_a_message() {
    let single = example("single_loop.sass");
    let err = fails(&["run", &single, "--model", "nope"]);
    assert!(err.contains("nope") && err.contains("kepler"), "{err}");
    let err = fails(&["run", &single, "--set", "m=3"]);
    assert!(err.contains("`m`"), "{err}");
    let err = fails(&["run", &single, "--preset", "fermi"]);
    assert!(err.contains("maxwell"), "{err}");
    let err = fails(&["run", &single, "--cost", "bogus=1"]);
    assert!(err.contains("bogus"), "{err}");
    let err = fails(&["run", &single, "--stack-capacity", "2", "--stack-chunk", "4"]);
    assert!(err.contains("chunk"), "{err}");
    let err = fails(&["sweep", &single, "--param", "n=5..1"]);
    assert!(err.contains("n=5..1"), "{err}");
    let err = fails(&["figure", "nope"]);
    assert!(err.contains("no figure `nope`") || err.contains("cannot read"), "{err}");
    let err = fails(&["run", "/nonexistent/warpscope/kernel.sass"]);
    assert!(err.contains("cannot read"), "{err}");
}

#[test]
fn endless_loop_stops_at_the_step_limit_with_exit_3() {
    let f = TempKernel::new("endless", "L: BRA L\n");
    let v = json(&["run", "--json", "--step-limit", "1000", f.path()], 3);
    assert_eq!(v["stop_reason"]["kind"], "step_limit");
    assert_eq!(v["steps"], 1000);
}

#[test]
fn barrier_in_divergent_code_is_a_deadlock() {
    let src = "//@ warp 4\n//@ reg R0 = t\nISETP.LT.AND P0, PT, R0, 0x2, PT\nSSY X\n@P0 BRA A\nNOP\nSYNC\nA: BAR.SYNC\nSYNC\nX: EXIT\n";
    let f = TempKernel::new("deadlock", src);
    let v = json(&["run", "--json", f.path()], 3);
    let stop = &v["stop_reason"];
    assert_eq!(stop["kind"], "deadlock", "{v}");
    assert_eq!(stop["pc"], "0x0028", "{v}");
    assert_eq!(stop["line"], 8, "{v}");
    assert!(stop["message"].as_str().unwrap().contains("lanes 2-3"), "{v}");
}

#[test]
fn every_command_tolerates_a_reader_that_stops_early() {
    // `warpscope run f | head -1` and friends: no panic when stdout closes.
    let double = example("double_loop.sass");
    for args in [vec!["run", double.as_str()], vec!["cfg", double.as_str()], vec!["sweep", double.as_str(), "--param", "n=0..31", "--csv"]]
    {
        let mut child =
            Command::new(env!("CARGO_BIN_EXE_warpscope")).args(&args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("spawn");
        drop(child.stdout.take());
        let o = child.wait_with_output().expect("wait");
        let err = stderr(&o);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn compile_prints_each_target_and_c_kernels_run_like_assembly() {
    let f = example("if_else.cu");
    let kepler = warpscope(&["compile", &f]);
    assert!(kepler.status.success(), "{}", stderr(&kepler));
    assert!(stdout(&kepler).contains("SSY `(") && stdout(&kepler).contains("SYNC;"));
    let volta = stdout(&warpscope(&["compile", &f, "--target", "volta"]));
    assert!(volta.contains("BSSY B0") && volta.contains("BSYNC B0"), "{volta}");
    let plain = stdout(&warpscope(&["compile", &f, "--target", "plain"]));
    assert!(!plain.contains("SSY") && !plain.contains("SYNC"), "{plain}");
    let predicated = stdout(&warpscope(&["compile", &f, "--if-convert", "on"]));
    assert!(predicated.contains("@P0 ST.E") && !predicated.contains("BRA"), "{predicated}");
    let m = json(&["run", &example("double_loop.cu"), "--set", "n=5", "--json"], 0);
    assert_eq!(m["pushes"], 183);
}

#[test]
fn compile_errors_are_located_and_fail() {
    let o = warpscope(&["compile", &example("if_else.sass")]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("not a C or PTX kernel"), "{}", stderr(&o));
    let o = warpscope(&["compile", &example("if_else.cu"), "--target", "fermi"]);
    assert!(stderr(&o).contains("unknown target `fermi` (known: kepler, volta, plain)"), "{}", stderr(&o));
    let bad = TempKernel::new("bad-c", "//@ buffer a: i32[4]\n__global__ void k(int* a) {\n  a[0] = a[1] ~ a[2];\n}\n");
    let o = warpscope(&["run", bad.0.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains(":3:15: error:") && err.contains("expected `;`"), "{err}");
    // Parameters without header lines get inputs made for them: the kernel runs as pasted.
    let unbound = TempKernel::new("unbound-c", "__global__ void k(int* a, int n) {\n  a[threadIdx.x] = n + threadIdx.x;\n}\n");
    let o = warpscope(&["run", unbound.0.to_str().unwrap(), "--dump", "a"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let want: String = (0..32).map(|t| format!("{}\n", 32 + t)).collect();
    assert_eq!(stdout(&o), want);
}

#[test]
fn compare_prints_the_paper_metrics_per_model() {
    let fig1 = example("tf_figure1.sass");
    let out = warpscope(&["compare", &fig1, "--models", "pdom,tf-stack"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let row = |name: &str| text.lines().find(|l| l.starts_with(name)).unwrap_or_else(|| panic!("no {name} row in\n{text}")).to_string();
    // PDOM runs BB3-BB5 twice (26 warp instructions against a minimum of 19); TF-STACK reaches it.
    assert!(row("warp_instructions").split_whitespace().eq(["warp_instructions", "26", "19"]), "{text}");
    assert!(row("code_expansion").contains("+36.8%") && row("code_expansion").contains("+0.0%"), "{text}");
    assert!(row("  BB3").split_whitespace().eq(["BB3", "2", "[1]", "1", "[1]"]), "{text}");
    // A model that deadlocks makes the exit code non-zero, and its stop line says why.
    let barrier = example("tf_barrier.cu");
    let out = warpscope(&["compare", &barrier, "--models", "pdom,tf-stack"]);
    assert_eq!(out.status.code(), Some(3));
    assert!(stdout(&out).contains("deadlock at"));
    let bad = warpscope(&["compare", &fig1, "--models", "pdom,nope"]);
    assert!(stderr(&bad).contains("unknown model `nope`"));
    // Cycles in every column under one preset: the first model's (kepler), not volta's own h100,
    // unless --preset names one; the header says which.
    let if_else = example("if_else.cu");
    let cycles = |args: &[&str]| {
        let out = warpscope(&[&["compare", &if_else, "--models", "kepler,volta"], args].concat());
        let text = stdout(&out);
        let head = text.lines().next().unwrap_or_default().to_string();
        let row = text
            .lines()
            .find(|l| l.starts_with("cycles"))
            .unwrap_or_default()
            .split_whitespace()
            .skip(1)
            .map(String::from)
            .collect::<Vec<_>>();
        (head, row)
    };
    let solo = |model: &str, preset: &str| {
        let text = stdout(&warpscope(&["run", &if_else, "--model", model, "--preset", preset]));
        text.lines().find(|l| l.starts_with("cycles")).unwrap_or_default().split_whitespace().nth(1).unwrap_or_default().to_string()
    };
    let (head, row) = cycles(&[]);
    assert!(head.contains("under the kepler cost preset"), "{head}");
    assert_eq!(row, [solo("kepler", "kepler"), solo("volta", "kepler")]);
    let (head, row) = cycles(&["--preset", "h100"]);
    assert!(head.contains("under the h100 cost preset"), "{head}");
    assert_eq!(row, [solo("kepler", "h100"), solo("volta", "h100")]);
}

#[test]
fn schedule_and_path_order_options_are_checked() {
    let fig1 = example("tf_figure1.sass");
    let out = warpscope(&["run", &fig1, "--model", "volta", "--schedule", "sideways"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("--schedule `sideways`"));
    let v = json(&["run", "--json", &fig1, "--model", "pdom", "--path-order", "fall-through"], 0);
    assert_eq!(v["warp_instructions"], 26);
}

#[test]
fn a_permalink_runs_in_place_of_a_file_with_its_choices_and_a_broken_one_says_why() {
    use warpscope_core::link::{encode, Link};
    let mut link = Link::of_text(&std::fs::read_to_string(example("single_loop.sass")).unwrap());
    link.choices.model = Some("pdom".into());
    link.params.insert("n".into(), 5.0);
    let url = format!("https://example.org/warpscope/{}", encode(&link));
    let from_link = json(&["run", &url, "--json"], 0);
    let from_file = json(&["run", &example("single_loop.sass"), "--model", "pdom", "--set", "n=5", "--json"], 0);
    assert_eq!(from_link, from_file);
    // The command line still wins over the link.
    let pinned = json(&["run", &example("single_loop.sass"), "--model", "pdom", "--set", "n=0", "--json"], 0);
    assert_eq!(json(&["run", &url, "--set", "n=0", "--json"], 0), pinned);
    // So does a choice given explicitly, even the default one (`--path-order taken`).
    let mut link = Link::of_text(&std::fs::read_to_string(example("nested_if.cu")).unwrap());
    link.choices.model = Some("pdom".into());
    link.choices.path_order = Some("fall-through".into());
    let url2 = format!("https://example.org/warpscope/{}", encode(&link));
    let file = example("nested_if.cu");
    let trace = |args: &[&str]| stdout(&warpscope(&[&["trace"], args].concat()));
    let taken = trace(&[&file, "--model", "pdom", "--path-order", "taken"]);
    let fall = trace(&[&file, "--model", "pdom", "--path-order", "fall-through"]);
    assert_ne!(taken, fall, "the example must show the path order");
    assert_eq!(trace(&[&url2]), fall);
    assert_eq!(trace(&[&url2, "--path-order", "taken"]), taken);
    let broken = warpscope(&["run", &url[..url.len() - 9]]);
    assert_eq!(broken.status.code(), Some(1));
    assert!(stderr(&broken).contains("This link is corrupted"), "{}", stderr(&broken));
}

#[test]
fn trace_ends_every_run_where_and_why_run_does() {
    // The spin lock never finishes: `run` finds the repeating state; `trace` must stop at the
    // same step for the same reason, not run on to the step limit.
    let spin = example("spin_lock.cu");
    let run = json(&["run", "--json", &spin], 3);
    assert_eq!(run["stop_reason"]["kind"], "deadlock", "{run}");
    let o = warpscope(&["trace", &spin]);
    assert_eq!(o.status.code(), Some(3));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    let last_step = lines[lines.len() - 2].split_whitespace().next().unwrap().parse::<u64>().unwrap();
    assert_eq!(last_step, run["steps"].as_u64().unwrap(), "trace and run end at the same step");
    assert!(lines.last().unwrap().starts_with("# deadlock at"), "{}", lines.last().unwrap());
    for (file, args) in [("single_loop.sass", &["--set", "n=5"][..]), ("loop_break.cu", &["--model", "volta"][..])] {
        let run = json(&[&["run", "--json", &example(file)][..], args].concat(), 0);
        let trace = stdout(&warpscope(&[&["trace", &example(file)][..], args].concat()));
        let last = trace.lines().last().unwrap();
        assert_eq!(last, format!("# exited after {} steps", run["steps"]), "{file}");
    }
}

#[test]
fn input_language_is_told_by_content_or_named() {
    let listing = example("single_loop.sass");
    // Named explicitly, the same run; named wrongly, the text is read as that language.
    assert_eq!(json(&["run", "--json", &listing, "--input", "listing"], 0), json(&["run", "--json", &listing], 0));
    let err = fails(&["run", &listing, "--input", "c"]);
    assert!(err.contains("error"), "{err}");
    // PTX from nvcc is told by its directives; `--entry` picks its kernel by the demangled name.
    let ptx = corpus_ptx("vector_add.ptx");
    let by_name = json(&["run", "--json", &ptx, "--entry", "vecAdd"], 0);
    assert_eq!(by_name, json(&["run", "--json", &ptx, "--input", "ptx"], 0));
    assert_eq!(by_name["simd_efficiency"], 1.0);
    let err = fails(&["run", &ptx, "--entry", "nope"]);
    assert!(err.contains("no `.entry` named `nope` in this PTX (entries: vecAdd)"), "{err}");
    // With `.loc` (the gallery's PTX, made with -lineinfo) and the .cu one folder up, trace and
    // cfg name each instruction's CUDA line.
    let gallery = format!("{}/../examples/ptx/single_loop.ptx", env!("CARGO_MANIFEST_DIR"));
    let trace = stdout(&warpscope(&["trace", &gallery]));
    assert!(trace.lines().any(|l| l.contains("SSY") && l.ends_with("cuda 16: for (int i = 0; i < M; i++) {")), "{trace}");
    let cfg = stdout(&warpscope(&["cfg", &gallery]));
    assert!(cfg.lines().next().is_some_and(|l| l.ends_with("cuda lines 12-16")), "{cfg}");
    let err = fails(&["run", &listing, "--input", "fortran"]);
    assert!(err.contains("--input `fortran`: unknown input language `fortran` chosen (known: listing, c, ptx, sass)"), "{err}");
}

/// A file of nvcc's PTX of the teaching corpus.
fn corpus_ptx(name: &str) -> String {
    format!("{}/../examples/corpus/ptx/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// `out[t] = t * k` as a listing, with `k` a param.
const TIMES_K_LISTING: &str = "//@ warp 8\n//@ param k = 3\n//@ buffer out: i32[8]\n//@ reg R10 = out\n//@ reg R2 = k\n\
    S2R R0, SR_TID.X;\nIMAD R1, R0, R2, RZ;\nISCADD R3, R0, R10, 0x2;\nST [R3], R1;\nEXIT;\n";

/// In C: even lanes store `t * k`, odd lanes `-t` (a divergent branch and negative i32s), and
/// every lane `t - 1` as unsigned (lane 0 wraps to 2^32 - 1).
const TIMES_K_C: &str = "//@ warp 8\n//@ param k = 3\n//@ buffer out: i32[8]\n//@ buffer wrap: u32[8]\n\
    __global__ void times(int* out, unsigned* wrap, int k) {\n    int t = threadIdx.x;\n\
    if (t % 2 == 0) {\n        out[t] = t * k;\n    } else {\n        out[t] = -t;\n    }\n\
    unsigned u = t;\n    wrap[t] = u - 1;\n}\n";

fn ints(v: &Value) -> Vec<i64> {
    v.as_array().unwrap_or_else(|| panic!("array: {v}")).iter().map(|x| x.as_i64().unwrap_or_else(|| panic!("integer: {x}"))).collect()
}

#[test]
fn run_json_has_each_buffers_final_contents_and_each_params_value() {
    let listing = TempKernel::new("times-k-listing", TIMES_K_LISTING);
    let v = json(&["run", "--json", listing.path()], 0);
    assert_eq!(ints(&v["buffers"]["out"]), (0..8).map(|t| t * 3).collect::<Vec<_>>());
    assert_eq!(v["params"], serde_json::json!({ "k": 3 }));
    let v = json(&["run", "--json", listing.path(), "--set", "k=7"], 0);
    assert_eq!(ints(&v["buffers"]["out"]), (0..8).map(|t| t * 7).collect::<Vec<_>>());
    assert_eq!(v["params"], serde_json::json!({ "k": 7 }));

    let c = TempKernel::new("times-k-c", TIMES_K_C);
    for model in ["kepler", "volta"] {
        let v = json(&["run", "--json", c.path(), "--set", "k=5", "--model", model], 0);
        let out: Vec<i64> = (0..8).map(|t| if t % 2 == 0 { t * 5 } else { -t }).collect();
        assert_eq!(ints(&v["buffers"]["out"]), out, "{model}");
        let wrap: Vec<i64> = (0..8u32).map(|t| i64::from(t.wrapping_sub(1))).collect();
        assert_eq!(ints(&v["buffers"]["wrap"]), wrap, "{model}: u32 elements are unsigned");
        assert_eq!(v["params"], serde_json::json!({ "k": 5 }));
    }

    // The course notes' if/else, as a listing and in C: a[t] = 1 for t < 5, a[t + 6] = 5
    // otherwise, then a[6] = 99; b and c alike with 2, 7 and 3, 9.
    let expect = |then: i64, other: i64, last: Option<i64>| {
        let mut want = vec![0; 40];
        for t in 0..32 {
            if t < 5 {
                want[t] = then;
            } else {
                want[t + 6] = other;
            }
        }
        if let Some(x) = last {
            want[6] = x;
        }
        want
    };
    for file in ["if_else.sass", "if_else.cu"] {
        let v = json(&["run", "--json", &example(file)], 0);
        assert_eq!(ints(&v["buffers"]["a"]), expect(1, 5, Some(99)), "{file}");
        assert_eq!(ints(&v["buffers"]["b"]), expect(2, 7, None), "{file}");
        assert_eq!(ints(&v["buffers"]["c"]), expect(3, 9, None), "{file}");
        assert_eq!(v["params"], serde_json::json!({}), "{file}");
    }
}

#[test]
fn float_buffers_are_numbers_written_as_their_shortest_decimal() {
    // Lanes 0-2 store t * 0.5; lane 3 keeps the initialiser's 0.1 (an f32: 0.10000000149...).
    let src = "//@ warp 4\n//@ buffer f: f32[4] = 0.1\n\
        __global__ void halves(float* f) {\n    int t = threadIdx.x;\n    float x = t;\n    if (t < 3) f[t] = x * 0.5f;\n}\n";
    let f = TempKernel::new("halves", src);
    let v = json(&["run", "--json", f.path()], 0);
    let got: Vec<f64> = v["buffers"]["f"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
    assert_eq!(got, [0.0, 0.5, 1.0, 0.1]);
    let o = warpscope(&["run", f.path(), "--dump", "f"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "0\n0.5\n1\n0.1\n");
}

#[test]
fn dump_prints_one_buffer_one_value_a_line_with_the_run_options() {
    let c = TempKernel::new("times-k-dump", TIMES_K_C);
    let lines = |args: &[&str]| {
        let o = warpscope(&[&["run", c.path(), "--dump"], args].concat());
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        stdout(&o).lines().map(|l| l.parse::<i64>().unwrap_or_else(|_| panic!("{args:?}: `{l}` is not a value"))).collect::<Vec<_>>()
    };
    let out = |k: i64| (0..8).map(|t| if t % 2 == 0 { t * k } else { -t }).collect::<Vec<_>>();
    assert_eq!(lines(&["out"]), out(3));
    assert_eq!(lines(&["out", "--set", "k=4", "--model", "pdom"]), out(4));
    assert_eq!(lines(&["wrap"])[0], i64::from(u32::MAX));
    // A permalink's params apply to the dump as to any run.
    use warpscope_core::link::{encode, Link};
    let mut link = Link::of_text(TIMES_K_C);
    link.params.insert("k".into(), 6.0);
    let url = format!("https://example.org/warpscope/{}", encode(&link));
    let o = warpscope(&["run", &url, "--dump", "out"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().map(|l| l.parse::<i64>().unwrap()).collect::<Vec<_>>(), out(6));
}

#[test]
fn dump_of_an_unknown_buffer_names_the_known_ones() {
    let c = TempKernel::new("times-k-unknown", TIMES_K_C);
    let o = warpscope(&["run", c.path(), "--dump", "outt"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "");
    assert!(stderr(&o).contains("--dump `outt`: no buffer `outt` (known: out, wrap)"), "{}", stderr(&o));
    let none = TempKernel::new("no-buffers", "EXIT\n");
    assert!(fails(&["run", none.path(), "--dump", "out"]).contains("the kernel declares none"));
    assert!(fails(&["run", c.path(), "--dump", "out", "--json"]).contains("cannot be used with"));
}

#[test]
fn a_run_that_ends_early_dumps_the_contents_at_the_stop() {
    // Lane 0's atomicCAS takes the lock and the other 31 lanes spin first on a token stack, so
    // the run deadlocks before lane 0 adds to the counter: lock 1, counter 0.
    let spin = example("spin_lock.cu");
    let o = warpscope(&["run", &spin, "--dump", "lock"]);
    assert_eq!(o.status.code(), Some(3));
    assert_eq!(stdout(&o), "1\n");
    let err = stderr(&o);
    assert!(err.starts_with("deadlock at") && err.contains("`lock` is shown as it was then"), "{err}");
    let v = json(&["run", "--json", &spin], 3);
    assert_eq!(v["buffers"], serde_json::json!({ "lock": [1], "counter": [0] }));
    // Under volta the loop yields, so lane 0 releases the lock and every lane adds one.
    let o = warpscope(&["run", &spin, "--dump", "counter", "--model", "volta"]);
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(0), "32\n"), "{}", stderr(&o));
}

#[test]
fn printf_output_in_run_json_printed_and_trace() {
    let f = example("printf_divergent.cu");
    // Text: the lines follow the summary, tagged with step and lane, in the order printed.
    let o = warpscope(&["run", &f, "--model", "kepler"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    let (_, tail) = text.split_once("printf output (8 lines").expect("an output section");
    let tagged: Vec<&str> = tail.lines().skip(1).collect();
    assert_eq!(tagged.len(), 8, "{tail}");
    assert!(tagged.iter().all(|l| l.starts_with("[step ") && l.contains(", lane ")), "{tagged:?}");
    assert!(tagged.iter().any(|l| l.ends_with(", lane 1] thread 1 (odd): sum = 0.50")), "{tagged:?}");
    // JSON: one entry per line, with the step, the lane and the text as printed.
    let v = json(&["run", &f, "--json"], 0);
    let out = v["output"].as_array().expect("output");
    assert_eq!(out.len(), 8);
    let mut by_lane: Vec<(u64, String)> =
        out.iter().map(|l| (l["lane"].as_u64().unwrap(), l["text"].as_str().unwrap().to_string())).collect();
    by_lane.sort();
    assert_eq!(by_lane[0], (0, "thread 0: sum = 0.000000\n".to_string()));
    assert_eq!(by_lane[7], (7, "thread 7 (odd): sum = 14.00\n".to_string()));
    assert!(out.iter().all(|l| l["step"].as_u64().is_some_and(|s| s > 0)));
    // --printed: only what the kernel printed, as its stdout would show it.
    let o = warpscope(&["run", &f, "--model", "mimd", "--printed"]);
    assert_eq!(o.status.code(), Some(0));
    let printed = stdout(&o);
    assert_eq!(printed.lines().count(), 8);
    assert!(printed.starts_with("thread 0: sum = 0.000000\n"), "{printed}");
    // Trace: a step that printed is followed by its lines; the steps agree with run's.
    let t = stdout(&warpscope(&["trace", &f, "--model", "kepler"]));
    let lines: Vec<&str> = t.lines().collect();
    let first = lines.iter().position(|l| l.starts_with("#   printf ")).expect("printed lines in the trace");
    assert!(lines[first - 1].contains("PRINTF \""), "{}", lines[first - 1]);
    let step: u64 = lines[first - 1].split_whitespace().next().unwrap().parse().unwrap();
    assert!(lines[first].starts_with(&format!("#   printf [step {step}, lane ")), "{}", lines[first]);
    assert_eq!(lines.iter().filter(|l| l.starts_with("#   printf ")).count(), 8);
    let json_steps: std::collections::BTreeSet<u64> = json(&["run", &f, "--model", "kepler", "--json"], 0)["output"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["step"].as_u64().unwrap())
        .collect();
    assert!(json_steps.contains(&step));
}

/// STRUCT from the command line: the run reports its transforms and is measured against the
/// original's MIMD minimum; `cfg --model struct` names the copies; compare lines it up with
/// pdom and tf-stack per original block.
#[test]
fn struct_reports_its_transforms_and_names_its_copies() {
    let fig1 = example("tf_figure1.sass");
    let v = json(&["run", "--json", &fig1, "--model", "struct"], 0);
    assert!(v["transforms"]["forward_copies"].as_u64().unwrap() > 0, "{v}");
    assert_eq!(v["mimd_warp_instructions"], 19);
    assert!(v["warp_instructions"].as_u64().unwrap() >= 26);
    assert!(json(&["run", "--json", &fig1, "--model", "pdom"], 0)["transforms"].is_null());

    let cfg = json(&["cfg", &fig1, "--model", "struct", "--json"], 0);
    let names: Vec<&str> = cfg["blocks"].as_array().unwrap().iter().map(|b| b["name"].as_str().unwrap()).collect();
    assert!(names.contains(&"BB5'") && names.contains(&"BB3'"), "{names:?}");
    assert!(cfg["transforms"]["instructions_after"].as_u64().unwrap() > 19);
    let plain = json(&["cfg", &fig1, "--json"], 0);
    assert!(plain["transforms"].is_null());

    let o = warpscope(&["compare", &fig1, "--models", "pdom,struct,tf-stack"]);
    let text = stdout(&o);
    assert!(text.contains("copies_fwd/bwd/cuts") && text.contains("static_expansion"), "{text}");
    let bb3 = text.lines().find(|l| l.trim_start().starts_with("BB3 ")).unwrap_or_default();
    assert_eq!(bb3.split_whitespace().collect::<Vec<_>>(), ["BB3", "2", "[1]", "2", "[1]", "1", "[1]"], "{text}");

    let bad = warpscope(&["cfg", &fig1, "--model", "strukt"]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(stderr(&bad).contains("struct"), "{}", stderr(&bad));
}

/// A launch of several warps runs whole: every block's buffer, the launch's and each block's
/// counts, each warp's.
#[test]
fn a_launch_of_several_warps_runs_whole() {
    let v = json(&["run", &example("grid/reduce_shared.cu"), "--json"], 0);
    assert_eq!(v["stop"]["kind"], "exited");
    assert_eq!(v["launch"]["threads"], 1024);
    assert_eq!(v["launch"]["warp_scheduler"], "gto");
    let sums: Vec<i64> = (0..4).map(|b| (b * 256..(b + 1) * 256).map(|i| i % 7 + 1).sum()).collect();
    assert_eq!(v["buffers"]["g_odata"], serde_json::json!(sums));
    assert_eq!(v["blocks"].as_array().unwrap().len(), 4);
    assert_eq!(v["warps"].as_array().unwrap().len(), 32);
    // 8 warps wait at each of the block's 9 barriers.
    assert!(v["blocks"].as_array().unwrap().iter().all(|b| b["barriers"] == 9 && b["barrier_waits"] == 72));
    assert_eq!(v["metrics"]["barrier_waits"], 288);
    let warp_sum: u64 = v["warps"].as_array().unwrap().iter().map(|w| w["warp_instructions"].as_u64().unwrap()).sum();
    assert_eq!(v["metrics"]["warp_instructions"].as_u64(), Some(warp_sum));
    // The warp the launch names, alone: its own report, as before.
    let alone = json(&["run", &example("grid/reduce_shared.cu"), "--json", "--one-warp"], 0);
    assert!(alone.get("block_counts").is_some() && alone.get("blocks").is_none());
    let text = stdout(&warpscope(&["run", &example("grid/reduce_shared.cu"), "--warp-scheduler", "lrr"]));
    assert!(text.contains("1024 threads in 32 warps of 4 blocks; warps picked lrr"), "{text}");
    assert!(fails(&["run", &example("grid/reduce_shared.cu"), "--warp-scheduler", "fifo"])
        .contains("--warp-scheduler `fifo`: unknown warp scheduler `fifo` chosen (known: gto, lrr, random)"));
    // A permalink carries the warp scheduler; a flag still wins over it.
    use warpscope_core::link::{encode, Link};
    let mut link = Link::of_text(&std::fs::read_to_string(example("grid/reduce_shared.cu")).unwrap());
    link.choices.warp_scheduler = Some("lrr".into());
    let url = format!("https://example.org/warpscope/{}", encode(&link));
    assert!(stdout(&warpscope(&["run", &url])).contains("warps picked lrr"));
    assert!(stdout(&warpscope(&["run", &url, "--warp-scheduler", "random"])).contains("warps picked random"));
}

/// What threads of a launch print comes in the order the launch ran them, tagged with the block
/// and the thread; a fault names its block and warp.
#[test]
fn a_launch_prints_in_order_and_a_fault_names_its_block_and_warp() {
    let k = TempKernel::new(
        "launch-printf",
        "//@ launch grid=2 block=64\n//@ buffer out: i32[128]\n__global__ void k(int* out) {\n    if (threadIdx.x % 32 == 0) printf(\"b%d t%d\\n\", blockIdx.x, threadIdx.x);\n    __syncthreads();\n    if (threadIdx.x == 0) printf(\"b%d after\\n\", blockIdx.x);\n    out[blockIdx.x * 64 + threadIdx.x] = 1;\n}\n",
    );
    let o = warpscope(&["run", k.path(), "--printed"]);
    assert_eq!(stdout(&o), "b0 t0\nb0 t32\nb0 after\nb1 t0\nb1 t32\nb1 after\n", "{}", stderr(&o));
    let text = stdout(&warpscope(&["run", k.path()]));
    assert!(text.contains("block (1, 0, 0), thread (32, 0, 0)] b1 t32"), "{text}");
    let bad = TempKernel::new(
        "launch-fault",
        "//@ launch grid=4 block=64\n//@ buffer out: i32[64]\n__global__ void k(int* out) {\n    if (blockIdx.x == 2 && threadIdx.x == 40) out[1000] = 1;\n}\n",
    );
    let o = warpscope(&["run", bad.path()]);
    assert_eq!(o.status.code(), Some(3));
    let text = stdout(&o);
    assert!(text.contains("fault at") && text.contains("block (2, 0, 0), warp 1: store by lane 8"), "{text}");
}

/// A kernel that reads shared memory before another warp writes it: the launch warns, and the
/// two warp schedulers give different results.
#[test]
fn a_shared_memory_race_warns_and_depends_on_the_scheduler() {
    let k = TempKernel::new(
        "launch-race",
        "//@ launch grid=1 block=64\n//@ buffer out: i32[64]\n__global__ void k(int* out) {\n    __shared__ int s[64];\n    s[threadIdx.x] = threadIdx.x + 1;\n    out[threadIdx.x] = s[63 - threadIdx.x];\n}\n",
    );
    let gto = warpscope(&["run", k.path(), "--dump", "out"]);
    let lrr = warpscope(&["run", k.path(), "--dump", "out", "--warp-scheduler", "lrr"]);
    assert_eq!(stdout(&gto).lines().next(), Some("0"));
    assert_eq!(stdout(&lrr).lines().next(), Some("64"));
    let warned = stderr(&warpscope(&["run", k.path()]));
    assert!(warned.contains("thread (0, 0, 0) of block (0, 0, 0) read shared `s[63]` before any thread of its block wrote it"), "{warned}");
}

/// `trace` of a launch of several warps: a line per warp instruction with its block and warp,
/// ending where `run` ends.
#[test]
fn a_launch_trace_has_block_and_warp_columns() {
    let o = warpscope(&["trace", &example("grid/reduce_shared.cu"), "--warp-scheduler", "lrr"]);
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[1].contains("step  block") && lines[1].contains("warp  pc"), "{}", lines[1]);
    assert!(lines[2].contains("(0, 0, 0)           0  0x0000") && lines[3].contains("(0, 0, 0)           1  0x0000"), "{text}");
    let run = stdout(&warpscope(&["run", &example("grid/reduce_shared.cu"), "--warp-scheduler", "lrr"]));
    let end = run.lines().find(|l| l.starts_with("stop")).unwrap().trim_start_matches("stop").trim();
    assert_eq!(lines.last().unwrap().trim_start_matches("# "), end);
    assert_eq!(lines.len() - 3, end.split(' ').nth(2).unwrap().parse::<usize>().unwrap());
}

/// `sweep` and `compare` of a launch of several warps run it whole: each sweep row is the
/// launch's counts as `run --json` gives them, and compare has a column per model.
#[test]
fn sweep_and_compare_run_a_launch_whole() {
    let votes = example("grid/block_vote.cu");
    let rows = json(&["sweep", &votes, "--param", "threshold=500..502", "--json"], 0);
    let rows = rows.as_array().expect("array");
    assert_eq!(rows.len(), 3);
    for (k, row) in rows.iter().enumerate() {
        let set = format!("threshold={}", 500 + k);
        let run = json(&["run", "--json", &votes, "--set", &set], 0);
        for key in ["warp_instructions", "thread_instructions", "divergent_branches", "steps", "cycles"] {
            assert_eq!(row[key], run["metrics"][key], "{key} at {set}");
        }
        assert_eq!(row["stop_reason"]["kind"], "exited");
    }
    let o = warpscope(&["compare", &example("grid/reduce_interleaved.cu"), "--models", "kepler,volta"]);
    let text = stdout(&o);
    assert!(
        text.contains("(the whole launch;") && text.lines().any(|l| l.starts_with("barrier_waits") && l.matches("288").count() == 2),
        "{text}"
    );
    // Two kernels under one model (Harris's reductions #1 and #2): a column each, its counts
    // the kernel's own whole launch's.
    let [one, two] = ["grid/reduce_interleaved.cu", "grid/reduce_strided.cu"].map(example);
    let text = stdout(&warpscope(&["compare", &one, "--with", &two, "--model", "pdom"]));
    let row = |key: &str| -> Vec<String> {
        let line = text.lines().find(|l| l.starts_with(key)).unwrap_or_else(|| panic!("{key}: {text}"));
        line.split_whitespace().skip(1).map(String::from).collect()
    };
    assert!(text.contains("A: reduce_interleaved") && text.contains("B: reduce_strided"), "{text}");
    for (k, file) in [&one, &two].into_iter().enumerate() {
        let run = json(&["run", "--json", file, "--model", "pdom"], 0);
        for key in ["warp_instructions", "divergent_branches", "barrier_waits"] {
            assert_eq!(row(key)[k], run["metrics"][key].to_string(), "{key} of {file}: {text}");
        }
    }
    let usage = warpscope(&["compare", &one, "--with", &two, "--models", "kepler,volta"]);
    assert!(!usage.status.success() && stderr(&usage).contains("cannot be used with"), "{}", stderr(&usage));
}

#[test]
fn a_file_with_main_runs_whole_unless_kernel_only() {
    let file = example("programs/matmul.cu");
    // What the program prints, its stderr apart, its exit status as ours.
    let o = warpscope(&["run", &file, "--printed"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), std::fs::read_to_string(example("programs/gpu/matmul.stdout")).unwrap());
    assert!(stderr(&o).starts_with("kernel time: "), "{}", stderr(&o));
    let j = json(&["run", &file, "--json"], 0);
    let launch = &j["launches"][0];
    assert_eq!(
        (launch["kernel"].as_str(), launch["grid"].clone(), launch["params"]["n"].as_i64()),
        (Some("matMul"), serde_json::json!([3, 3, 1]), Some(40))
    );
    assert_eq!(j["exit"], 0);
    // The kernel alone, with made-up inputs, as before.
    let alone = json(&["run", &example("programs/vector_add.cu"), "--kernel-only", "--json"], 0);
    assert!(alone.get("warp_instructions").is_some() && alone.get("launches").is_none(), "{alone}");
    // `trace` and `compare` run the launch as main made it, its memory and arguments: the
    // reduction reads main's 512 inputs (made-up ones, 32 a pointer, faulted at the first load).
    let reduce = example("sanitizer/reduce_missing_barrier.cu");
    let t = stdout(&warpscope(&["trace", &reduce]));
    assert!(t.lines().last().is_some_and(|l| l.starts_with("# exited after")), "{}", t.lines().last().unwrap_or(""));
    let c = warpscope(&["compare", &reduce, "--models", "volta,pdom"]);
    assert_eq!(c.status.code(), Some(0), "{}", stdout(&c));
    // A buffer dump belongs to one kernel: said so.
    let why = fails(&["run", &file, "--dump", "C"]);
    assert!(why.contains("--kernel-only"), "{why}");
}

#[test]
fn check_prints_what_it_finds_as_compute_sanitizer_does_and_exits_1() {
    // The tree reduction without its barrier: the race at line 12, with both sides.
    let j = json(&["check", &example("sanitizer/reduce_missing_barrier.cu"), "--json"], 1);
    let race = j["findings"].as_array().unwrap().iter().find(|f| f["tool"] == "racecheck" && f["severity"] == "error").expect("a race");
    assert_eq!((race["first"]["line"].as_u64(), race["second"]["line"].as_u64()), (Some(12), Some(12)), "{race}");
    assert_eq!((race["first"]["element"].as_str().map(|e| e.starts_with("s[")), j["model"].as_str()), (Some(true), Some("volta")));
    // The plain text: compute-sanitizer's frame and a summary per tool.
    let o = warpscope(&["check", &example("sanitizer/off_by_one.cu")]);
    assert_eq!(o.status.code(), Some(1));
    let text = stdout(&o);
    assert!(text.contains("Error (memcheck): Invalid __global__ write of size 4 bytes"), "{text}");
    assert!(text.contains("off_by_one.cu:11") && text.contains("by thread (104, 0, 0) in block (7, 0, 0)"), "{text}");
    assert!(text.contains("RACECHECK SUMMARY: 0 finding(s)"), "{text}");
    // Nothing found: exit 0.
    let clean = warpscope(&["check", &example("grid/reduce_shared.cu")]);
    assert_eq!(clean.status.code(), Some(0), "{}", stdout(&clean));
}

#[test]
fn counters_list_every_instruction_by_address_and_line_and_sum_to_the_launch() {
    // CSV, as ncu's source page: one row per instruction of the launch, ncu's column names.
    let o = warpscope(&["counters", &example("ncu/probe_early_exit.cu"), "--csv", "--launch", "1"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let text = stdout(&o);
    let mut rows = text.lines();
    let head = rows.next().unwrap();
    assert!(head.starts_with("\"Launch\",\"Kernel\",\"Address\",\"Line\",\"Source\",\"Instructions Executed\","), "{head}");
    let rows: Vec<&str> = rows.collect();
    assert!(rows.len() > 5 && rows.iter().all(|r| r.starts_with("1,")), "{text}");
    // Each row's Instructions Executed summed: the run's warp instructions.
    let executed: u64 = rows.iter().map(|r| r.rsplit(',').nth(4).unwrap().parse::<u64>().unwrap()).sum();
    let run = json(&["run", &example("ncu/probe_early_exit.cu"), "--json"], 0);
    let launch = &run["launches"][0];
    assert_eq!(Some(executed), launch["warp_instructions"].as_u64(), "{launch}");
    // JSON: the totals; a launch the program did not make is an error.
    let j = json(&["counters", &example("ncu/probe_early_exit.cu"), "--json"], 0);
    let launches = run["launches"].as_array().unwrap();
    assert_eq!(j.as_array().map(Vec::len), Some(launches.len()), "every launch by default");
    assert_eq!(j[0]["total"]["inst_executed"].as_u64(), Some(executed));
    let why = fails(&["counters", &example("ncu/probe_early_exit.cu"), "--launch", "99"]);
    assert!(why.contains("no launch 99"), "{why}");
}

#[test]
fn a_program_given_its_sass_runs_nvccs_kernels_and_counts_what_ncu_counted() {
    let (prog, sass) = (example("ncu/vector_add_tail.cu"), example("ncu/gpu/vector_add_tail.sass"));
    // It prints what it printed on the H100.
    let o = warpscope(&["run", &prog, "--sass", &sass, "--printed"]);
    let gpu = std::fs::read_to_string(example("ncu/gpu/vector_add_tail.stdout")).unwrap();
    assert_eq!(stdout(&o), gpu);
    // Its warp instructions are ncu's `smsp__inst_executed.sum` (thousands with commas).
    let raw = std::fs::read_to_string(example("ncu/gpu/vector_add_tail.raw.csv")).unwrap();
    let cells = |l: &str| l.trim_matches('"').split("\",\"").map(String::from).collect::<Vec<_>>();
    let mut lines = raw.lines();
    let header = cells(lines.next().unwrap());
    let row = cells(lines.nth(1).unwrap());
    let col = header.iter().position(|h| h == "smsp__inst_executed.sum").unwrap();
    let ncu: u64 = row[col].replace(',', "").parse().unwrap();
    let j = json(&["counters", &prog, "--sass", &sass, "--json"], 0);
    assert_eq!(j[0]["total"]["inst_executed"].as_u64(), Some(ncu));
    // A file that is no dump says so.
    let why = fails(&["counters", &prog, "--sass", &prog]);
    assert!(why.contains("is no SASS dump") && why.contains("cuobjdump -sass"), "{why}");
}
