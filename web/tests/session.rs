//! The facade as the page uses it, run as wasm (`bash scripts/test-wasm.sh`): loading, the
//! Figure 3 walk-through states, seeking, run_until, series and bad input.
#![cfg(target_arch = "wasm32")]

use serde_json::Value;
use warpscope_core::trace::event_names;
use warpscope_web::Session;
use wasm_bindgen::JsValue;
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
fn seek_and_step_clamp_to_the_run() {
    let mut s = loaded(3);
    let total = s.total_steps();
    assert_eq!(s.seek(total + 50.0), total, "seek clamps to the run");
    assert_eq!(s.step(), total, "no step past the end");
    assert_eq!(s.step_back(), total - 1.0);
    assert_eq!(s.max_depth(), 4.0, "n + 1 at n = 3");
    let lanes = s.lane_states(0.0, 10.0).to_vec();
    assert_eq!(lanes.len(), 10 * 32);
    assert!(lanes.iter().all(|c| *c <= 3));
}

#[wasm_bindgen_test]
fn seek_with_lanes_forwards_one_seek_and_the_lane_window() {
    let (mut both, mut apart) = (loaded(3), loaded(3));
    let t = (both.total_steps() / 2.0).floor();
    let lanes = both.seek_with_lanes(t, t - 20.0, t + 30.0).to_vec();
    assert_eq!((both.current(), apart.seek(t)), (t, t));
    assert_eq!(lanes, apart.lane_states(t - 20.0, t + 30.0).to_vec());
    assert_eq!(lanes.len(), 50 * 32);
}

/// Each step's (lanes issued, depth after it, event bits), read from the trace.
fn steps_of(s: &mut Session) -> Vec<(u8, u32, u16)> {
    let bits_of: std::collections::HashMap<String, u16> = (0..128u16).map(|b| (event_names(b).to_string(), b)).collect();
    s.trace_csv()
        .lines()
        .skip(1)
        .map(|line| {
            // step,pc,line,"instruction",mask,active_lanes,depth,events,stack
            let fields: Vec<&str> = line.rsplit_once("\",").unwrap().1.split(',').collect();
            (fields[1].parse().unwrap(), fields[2].parse().unwrap(), bits_of[fields[3]])
        })
        .collect()
}

/// The depth path's columns as the plot reduced a whole depth series (the reference).
fn columns_of(depth: &[u32], columns: usize) -> Vec<u32> {
    let n = depth.len();
    if n <= columns * 2 {
        return depth.to_vec();
    }
    let per = n as f64 / columns as f64;
    let mut out = vec![];
    for c in 0..columns {
        let (a, b) = ((c as f64 * per).floor() as usize + 1, n.min(((c + 1) as f64 * per).floor() as usize));
        let part = &depth[a - 1..b];
        out.extend([b as u32, *part.iter().max().unwrap(), *part.iter().min().unwrap(), depth[b - 1]]);
    }
    out
}

/// Marks of `bits` in `events` at least `gap` apart on `x` (the reference): the steps chosen.
fn spaced(events: &[u16], bits: u16, gap: f64, x: impl Fn(usize) -> f64, mut last: f64) -> Vec<usize> {
    let mut out = vec![];
    for (k, ev) in events.iter().enumerate() {
        if ev & bits != 0 && x(k + 1) - last >= gap {
            last = x(k + 1);
            out.push(k + 1);
        }
    }
    out
}

/// Lanes leave a loop one by one around step 131,072 (a DIV token each).
const LANES_LEAVE_ONE_BY_ONE: &str = "//@ warp 32\n//@ reg R5 = 43000 + 100 * t\n//@ reg R4 = 0\n\
    SSY X\nL: IADD R4, R4, 0x1\nISETP.LT.AND P0, PT, R4, R5, PT\n@P0 BRA L\nNOP.S\nX: EXIT\n";

#[wasm_bindgen_test]
fn summaries_are_the_trace_reduced() {
    let mut s = Session::new();
    assert_eq!(json(s.load(LANES_LEAVE_ONE_BY_ONE, JsValue::UNDEFINED).unwrap())["ok"], true);
    let steps = steps_of(&mut s);
    let n = steps.len();
    assert_eq!(n as f64, s.total_steps());
    let depth: Vec<u32> = steps.iter().map(|t| t.1).collect();
    let events: Vec<u16> = steps.iter().map(|t| t.2).collect();
    assert_eq!(s.max_depth(), 32.0, "the SYNC token and a DIV token for each of the 31 lanes that left before the last");
    assert_eq!(s.idle_steps(), steps.iter().filter(|t| t.0 == 0).count() as f64);
    assert_eq!(s.depth_after(0.0), 0.0);
    for k in [1, 2, n / 2, n - 1, n] {
        assert_eq!(s.depth_after(k as f64), depth[k - 1] as f64, "step {k}");
    }
    let from = 131_000;
    let issued: Vec<u8> = steps[from..from + 300].iter().map(|t| t.0).collect();
    assert_eq!(s.issued_lanes(from as f64, (from + 300) as f64), issued);
    for columns in [1, 7, 100, 1000, n / 2, n] {
        assert_eq!(s.depth_columns(columns as u32), columns_of(&depth, columns), "{columns} columns");
    }
    for step in [0, 1, 1000, 131_000, n - 1, n] {
        let next = events.iter().enumerate().skip(step).find(|(_, e)| *e & 1 != 0).map(|(k, _)| k as f64 + 1.0);
        assert_eq!(s.next_event(step as f64, 1), next, "after {step}");
        let prev = events[..step.saturating_sub(1)].iter().rposition(|e| e & 1 != 0).map(|k| k as f64 + 1.0);
        assert_eq!(s.prev_event(step as f64, 1), prev, "before {step}");
    }
    assert!(s.next_event(0.0, 1).is_some() && s.prev_event(n as f64, 1).is_some());
    // The strip: each row's marks a pixel apart, over this run alone and merged with a shorter run.
    let mut other = loaded(3);
    let others: Vec<u16> = steps_of(&mut other).iter().map(|t| t.2).collect();
    let merged: Vec<u16> = (0..n).map(|k| events[k] | others.get(k).copied().unwrap_or(0)).collect();
    for (events, marks) in [(&events, s.strip_marks(n as f64, 8.0, 613.5)), (&merged, s.strip_marks_with(&other, n as f64, 8.0, 613.5))] {
        let x = |k: usize| 8.0 + (k as f64 / n as f64) * (613.5 - 16.0);
        for (row, bits) in [1u16, 2, 16 | 32].into_iter().enumerate() {
            let want: Vec<u32> = spaced(events, bits, 1.0, x, -2.0).into_iter().map(|k| k as u32).collect();
            let got: Vec<u32> = marks.chunks(2).filter(|m| m[0] == row as u32).map(|m| m[1]).collect();
            assert_eq!(got, want, "row {row}");
        }
    }
    assert_ne!(s.strip_marks(n as f64, 8.0, 613.5), s.strip_marks_with(&other, n as f64, 8.0, 613.5), "the other run's events show");
}

#[wasm_bindgen_test]
fn stack_marks_are_the_spills_and_fills_a_few_units_apart() {
    let mut s = Session::new();
    // Each trip pushes a token until the stack's hard limit (1,024 entries) faults the run.
    let r = json(s.load("//@ warp 4\nL: SSY X\nBRA L\nX: EXIT\n", JsValue::UNDEFINED).unwrap());
    assert_eq!(r["end"]["kind"], "fault", "{r}");
    let steps = steps_of(&mut s);
    let n = steps.len();
    let events: Vec<u16> = steps.iter().map(|t| t.2).collect();
    assert!(s.max_depth() > 255.0);
    assert_eq!(s.max_depth(), steps.iter().map(|t| t.1).max().unwrap() as f64);
    let x = |k: usize| 44.0 + (k as f64 / n as f64) * 700.25;
    let want: Vec<u32> = spaced(&events, 16 | 32, 3.0, x, f64::NEG_INFINITY)
        .into_iter()
        .flat_map(|k| [k as u32, (events[k - 1] & 16 != 0) as u32, steps[k - 1].1])
        .collect();
    assert!(!want.is_empty(), "the stack spills");
    assert_eq!(s.stack_marks(44.0, 700.25, 3.0), want);
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
        (
            serde_json::json!({ "preset": "fermi" }),
            1,
            "unknown cost preset `fermi` chosen (known: kepler, maxwell, h100, h100-timed, tesla)",
        ),
        (serde_json::json!({ "schedule": "sideways" }), 1, "unknown schedule `sideways` chosen"),
        (serde_json::json!({ "pathOrder": "both" }), 1, "unknown path order `both` chosen"),
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
    let mut s = loaded(2);
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
    let plain = json(s.load(IF_ELSE_C, opts_json(serde_json::json!({ "ifConvert": false }))).unwrap());
    assert_eq!(plain["ok"], true, "{plain}");
    assert_eq!(ssy(&s), 1);
    let pushes = json(s.metrics().unwrap())["total"]["pushes"].as_f64().unwrap();
    assert!(pushes >= 1.0);
    let conv = json(s.load(IF_ELSE_C, opts_json(serde_json::json!({ "ifConvert": true, "model": "kepler" }))).unwrap());
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

const REDUCE: &str = include_str!("../../examples/grid/reduce_shared.cu");

/// A whole launch in the page's session: its block on screen recorded, the step the block's,
/// each warp's doing at a step, the warps x steps summary, the views of the warp in focus, and
/// a breakpoint that any warp reaches bringing that warp into focus.
#[wasm_bindgen_test]
fn a_launch_shows_every_warp_of_its_block_and_the_one_in_focus() {
    let mut s = Session::new();
    let r = json(s.load(REDUCE, JsValue::UNDEFINED).unwrap());
    assert_eq!(r["ok"], true, "{r}");
    let launch = &r["launch"];
    assert_eq!((launch["warps"].as_u64(), launch["focus"].as_u64()), (Some(8), Some(0)), "{r}");
    assert_eq!(r["end"]["kind"], "exited");
    assert_eq!(launch["totals"]["barrier_waits"], 288);
    let steps = launch["steps"].as_u64().unwrap();
    assert_eq!(s.total_steps() as u64, steps);
    let summary = s.warps_summary().to_vec();
    assert_eq!(summary.len() as u64, 2 * steps);
    let issued: std::collections::BTreeSet<u16> = summary.chunks(2).map(|p| p[0]).collect();
    assert_eq!(issued.len(), 8, "every warp issues");
    // Under gto warp 0 goes first, with all its lanes.
    assert_eq!(s.seek(1.0), 1.0);
    let warps = json(s.warps_now().unwrap());
    assert_eq!((warps[0]["doing"].as_str(), warps[0]["issued"].as_u64()), (Some("issuing"), Some(32)), "{warps}");
    assert!(warps.as_array().unwrap()[1..].iter().all(|w| w["doing"] == "ready"));
    // Warp 0 reaches the first barrier before the others run: its lanes all wait there.
    let at_barrier = (1..steps).find(|&t| {
        s.seek(t as f64);
        json(s.warps_now().unwrap())[0]["doing"] == "at_barrier"
    });
    assert!(at_barrier.is_some(), "warp 0 waits at a barrier at some step");
    let codes = s.warps_window(0.0, 4.0).to_vec();
    assert_eq!(codes.len(), 4 * 8);
    assert_eq!((codes[0], &codes[1..8]), (64 + 32, &[0u8; 7][..]), "step 1: warp 0 issued all 32 lanes, the others were ready");
    let t = at_barrier.unwrap() as f64;
    assert_eq!(s.warps_window(t - 1.0, t).to_vec()[0], 64 + 32, "warp 0 issued its barrier");
    assert_eq!(s.warps_window(t, t + 1.0).to_vec()[0], 1, "then waits there while warp 1 issues");
    assert_eq!(s.current(), t, "the window leaves the step where it was");
    let state = json(s.state(3).unwrap());
    assert!(state["lanes"].as_array().unwrap().iter().all(|l| l["state"] == "waiting"), "{state}");
    let tid = state["variables"].as_array().unwrap().iter().find(|v| v["name"] == "tid").cloned();
    assert_eq!(tid.map(|v| v["value"].clone()), Some(serde_json::json!("3")), "{state}");
    // Warp 5 in focus: its lane 3 is thread 163; it issues nothing before warp 0 waits.
    assert_eq!(s.focus(5), 5);
    assert!(s.issued_lanes(0.0, at_barrier.unwrap() as f64).iter().all(|&n| n == 0));
    let next = s.next_issue_of(5);
    assert!(next > at_barrier.unwrap() as f64, "{next}");
    assert_eq!(s.lane_states(next - 1.0, next).to_vec(), vec![0u8; 32], "all 32 lanes active at its first issue");
    for _ in 0..8 {
        let t = s.next_issue_of(5);
        s.seek(t);
    }
    let tid = json(s.state(3).unwrap())["variables"].as_array().unwrap().iter().find(|v| v["name"] == "tid").cloned();
    assert_eq!(tid.map(|v| v["value"].clone()), Some(serde_json::json!("163")));
    assert_eq!(s.focus(8), 5, "a warp the block does not have leaves the focus");
    // A breakpoint at the instruction after the first barrier: the first warp to reach it
    // comes into focus there.
    let cfg = json(s.cfg().unwrap());
    let bar = cfg["instrs"].as_array().unwrap().iter().position(|i| i["text"].as_str().unwrap().starts_with("BAR")).unwrap();
    s.seek(0.0);
    s.set_breakpoints(vec![bar as u32 + 1]);
    let stop = json(s.run_until("breakpoint", None).unwrap());
    assert_eq!(stop["kind"], "breakpoint", "{stop}");
    // The warp that issues next is the one in focus, standing at the breakpoint.
    let next = s.warps_summary().to_vec()[2 * stop["step"].as_u64().unwrap() as usize] as u32;
    assert!(stop["message"].as_str().unwrap().starts_with(&format!("warp {next} at a breakpoint")), "{stop}");
    assert_eq!((s.focus(next), json(s.state(0).unwrap())["pc"].as_u64()), (next, Some(bar as u64 + 1)));
    s.seek(steps as f64);
    assert!(json(s.warps_now().unwrap()).as_array().unwrap().iter().all(|w| w["doing"] == "exited"));
    // The memory view says what the step did: warp 0 filling its part of the shared array.
    let wrote = (1..80).find_map(|t| {
        s.seek(t as f64);
        json(s.memory().unwrap())["access"]["summary"].as_str().filter(|t| t.contains("sdata")).map(String::from)
    });
    assert!(wrote.as_deref().is_some_and(|w| w.contains(", warp 0: STS by lanes 0-31 wrote sdata[0..31]")), "{wrote:?}");
    // Who wrote the shared array: at the step after that store, warp 0's lanes wrote sdata[0..31]
    // (element i by lane i), and no lane has written sdata[32..].
    let memory = json(s.memory().unwrap());
    assert_eq!(memory["writers"], true);
    let sdata = memory["buffers"].as_array().unwrap().iter().position(|b| b["name"] == "sdata").unwrap() as u32;
    let at = s.current();
    let who = s.shared_writers(sdata, 0, 40).to_vec();
    assert_eq!(who.len(), 3 * 40);
    assert!((0..32).all(|i| who[3 * i] == 0 && who[3 * i + 1] == i as i32 && who[3 * i + 2] == at as i32), "{who:?}");
    assert!((32..40).all(|i| who[3 * i] == -1), "{who:?}");
    assert_eq!(s.shared_writers(0, 0, 4).length(), 0, "a global buffer has none");
    // The barrier releases: 9 per block (one before the loop, one per round); the CSV export
    // is the block's steps, each with the warp that issued it.
    assert_eq!(s.barrier_releases().len(), 9);
    let csv = s.trace_csv();
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(rows.len() as u64, steps);
    let issuers = s.warps_summary().to_vec();
    assert!(rows.iter().enumerate().all(|(i, r)| r.split(',').nth(1) == Some(&issuers[2 * i].to_string()[..])));
    assert_eq!(s.current(), at, "the export leaves the step where it was");
    // A launch's notes: a step note at the block's step, an event note at the focused warp's event.
    let mut h = Session::new();
    assert_eq!(json(h.load(include_str!("../../examples/grid/reduce_interleaved.cu"), JsValue::UNDEFINED).unwrap())["ok"], true);
    let notes = json(h.notes().unwrap());
    let div = notes.as_array().unwrap().iter().find(|n| n["target"] == "div 1").unwrap()["step"].as_f64().unwrap();
    h.seek(div);
    assert!(json(h.state(0).unwrap())["caption"].as_str().unwrap().starts_with("The first round splits warp 0"));
    assert_eq!(json(h.state(0).unwrap())["last"]["events"].as_u64().unwrap() & 1, 1, "warp 0 diverged at that step");
    // The same kernel, one warp alone when chosen so.
    let alone = json(s.load(REDUCE, opts_json(serde_json::json!({ "oneWarp": true }))).unwrap());
    assert!(alone["launch"].is_null() && json(s.warps_now().unwrap()).as_array().unwrap().is_empty(), "{alone}");
}

/// A whole program: `main()` prints a sum its two launches computed.
const PROGRAM: &str = "#include <stdio.h>\n__global__ void fill(int *a) { a[threadIdx.x] = threadIdx.x; }\n__global__ void twice(int *a) { a[threadIdx.x] *= 2; }\nint main() {\n    int *d, h[40], sum = 0;\n    cudaMalloc(&d, sizeof(h));\n    fill<<<1, 40>>>(d);\n    twice<<<1, 40>>>(d);\n    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);\n    for (int i = 0; i < 40; i++) sum += h[i];\n    printf(\"sum %d\\n\", sum);\n    return 0;\n}\n";

#[wasm_bindgen_test]
fn a_program_runs_main_and_shows_the_launch_chosen_with_what_main_gave_it() {
    let mut s = Session::new();
    let r = json(s.load(PROGRAM, opts_json(serde_json::json!({}))).unwrap());
    assert_eq!(r["ok"], true, "{r}");
    assert_eq!(r["program"]["stdout"], "sum 1560\n", "2 (0 + 1 + ... + 39)");
    assert_eq!(r["program"]["exit"], 0);
    assert_eq!(r["program"]["launches"].as_array().map(Vec::len), Some(2));
    assert_eq!((r["program"]["shown"].clone(), r["kernel"].clone(), r["model"].clone()), (0.into(), "fill".into(), "volta".into()));
    assert_eq!(r["params"], serde_json::json!([]), "main() sets them");
    let inputs = json(s.inputs().unwrap());
    assert_eq!(inputs["set_by_main"], 7);
    assert_eq!(inputs["device"][0]["name"], "d");
    assert_eq!(inputs["arguments"][0]["name"], "a");
    // The second launch: it found the first one's values.
    let r = json(s.load(PROGRAM, opts_json(serde_json::json!({ "launch": 1 }))).unwrap());
    assert_eq!((r["program"]["shown"].clone(), r["kernel"].clone()), (1.into(), "twice".into()));
    assert_eq!(json(s.inputs().unwrap())["device"][0]["first"][3], "3");
    // The kernel alone: no program.
    let r = json(s.load(PROGRAM, opts_json(serde_json::json!({ "kernelOnly": true }))).unwrap());
    assert!(r["program"].is_null(), "{r}");
    assert_eq!(r["kernel"], "fill");
}
