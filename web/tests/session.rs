//! The facade as the page uses it, run as wasm (`wasm-pack test --node web`): loading, the
//! Figure 3 walk-through states, seeking, run_until, series and bad input.
#![cfg(target_arch = "wasm32")]

use serde_json::Value;
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
fn seek_step_and_series_agree() {
    let mut s = loaded(3);
    let total = s.total_steps();
    assert_eq!(s.seek(total + 50.0), total, "seek clamps to the run");
    assert_eq!(s.step(), total, "no step past the end");
    assert_eq!(s.step_back(), total - 1.0);
    let depth = s.depth_series().to_vec();
    let active = s.active_series().to_vec();
    assert_eq!(depth.len() as f64, total);
    assert_eq!(active.len() as f64, total);
    assert_eq!(*depth.iter().max().unwrap(), 4, "n + 1 at n = 3");
    let lanes = s.lane_states(0.0, 10.0).to_vec();
    assert_eq!(lanes.len(), 10 * 32);
    assert!(lanes.iter().all(|c| *c <= 3));
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
    // An endless loop ends at the step limit with a message, not a hang.
    let r = json(s.load("L: BRA L\n", serde_wasm_bindgen::to_value(&serde_json::json!({"step_limit": 1000})).unwrap()).unwrap());
    assert_eq!(r["end"]["kind"], "step_limit", "{r}");
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
        (serde_json::json!({ "preset": "fermi" }), 1, "unknown cost preset `fermi` chosen (known: kepler, maxwell)"),
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
