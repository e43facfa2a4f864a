//! Long runs and links from strangers, as the page meets them (`bash scripts/test-wasm.sh`):
//! a run loaded in chunks and stopped, a stopped run loaded again (`stop_at`), the step limit's
//! range, a spin lock ended as a deadlock that names the loop, and permalinks read and written by
//! the core.
#![cfg(target_arch = "wasm32")]

use serde::Serialize;
use serde_json::{json, Value};
use warpscope_web::{decode_link, encode_link, Session, StepLimit};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

const COUNTER: &str = "//@ warp 4\nNOP\nL: IADD R1, R1, 0x1\nBRA L\nEXIT\n";

fn js(v: Value) -> JsValue {
    v.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).unwrap()
}

fn value(v: JsValue) -> Value {
    serde_wasm_bindgen::from_value(v).expect("a plain view")
}

#[wasm_bindgen_test]
fn a_chunked_run_resumes_and_stop_keeps_the_steps_run() {
    let mut s = Session::new();
    let r = value(s.load(COUNTER, js(json!({ "chunk": 1000 }))).unwrap());
    assert_eq!((r["ok"].clone(), r["running"].clone(), r["end"].clone()), (json!(true), json!(true), Value::Null));
    assert!(s.running());
    let p = value(s.resume(500.0).unwrap());
    assert_eq!((p["running"].clone(), p["steps"].clone()), (json!(true), json!(1500)));
    let p = value(s.stop_run().unwrap());
    assert_eq!(p["end"]["kind"], "stopped", "{p}");
    assert_eq!(p["end"]["line"], 3, "the loop's head: {p}");
    assert!(!s.running());
    assert_eq!(s.total_steps(), 1500.0, "the views show the steps run");
}

#[wasm_bindgen_test]
fn a_chunked_run_that_ends_reports_where() {
    let mut s = Session::new();
    value(s.load(COUNTER, js(json!({ "chunk": 1000, "step_limit": 5000 }))).unwrap());
    let mut p = value(s.resume(1000.0).unwrap());
    while p["running"] == true {
        p = value(s.resume(1000.0).unwrap());
    }
    assert_eq!(p["end"]["kind"], "step_limit");
    assert_eq!(p["end"]["line"], 3);
    let message = p["end"]["message"].as_str().unwrap();
    assert!(message.contains("lanes 0-3 run the loop at 0x0008-0x0010 (lines 3-4)"), "{message}");
    assert_eq!(s.total_steps(), 5000.0);
}

#[wasm_bindgen_test]
fn stop_at_loads_a_stopped_run_again_stopped_at_the_same_step() {
    // The run as the user stopped it ...
    let mut first = Session::new();
    value(first.load(COUNTER, js(json!({ "chunk": 1000 }))).unwrap());
    value(first.resume(500.0).unwrap());
    let stopped = value(first.stop_run().unwrap())["end"].clone();
    assert_eq!(stopped["kind"], "stopped", "{stopped}");
    // ... loaded again whole: the same end at the same step, for the views and the report.
    let mut again = Session::new();
    let r = value(again.load(COUNTER, js(json!({ "stop_at": 1500 }))).unwrap());
    assert_eq!(r["end"], stopped, "{r}");
    assert_eq!(r["last_step"], 1500);
    assert_eq!(again.total_steps(), 1500.0);
    assert_eq!(value(again.run_until("end", None).unwrap()), stopped, "the run's end, not the recording's");
    assert_eq!(value(again.report().unwrap())["stop"], stopped);
    // ... and in chunks: `resume` runs no step past it.
    let r = value(again.load(COUNTER, js(json!({ "stop_at": 1500, "chunk": 1000 }))).unwrap());
    assert_eq!(r["running"], true, "{r}");
    let p = value(again.resume(1000.0).unwrap());
    assert_eq!((p["running"].clone(), p["steps"].clone(), p["end"].clone()), (json!(false), json!(1500), stopped));
    assert_eq!(again.total_steps(), 1500.0);
    // A run that ends sooner ends as it would: at its step limit, or when the warp exits.
    let r = value(again.load(COUNTER, js(json!({ "stop_at": 1500, "step_limit": 1000 }))).unwrap());
    assert_eq!((r["end"]["kind"].clone(), r["last_step"].clone()), (json!("step_limit"), json!(1000)), "{r}");
    let r = value(again.load("EXIT\n", js(json!({ "stop_at": 1500 }))).unwrap());
    assert_eq!(r["end"]["kind"], "exited", "{r}");
    let r = value(again.load(COUNTER, js(json!({ "stop_at": -3 }))).unwrap());
    assert_eq!(r["ok"], false, "{r}");
    assert!(r["diagnostics"][0]["message"].as_str().unwrap().contains("stop_at = -3 is not a whole number of steps"), "{r}");
}

#[wasm_bindgen_test]
fn a_step_limit_outside_the_range_is_refused_and_the_last_run_stays() {
    let mut s = Session::new();
    let r = value(s.load(COUNTER, js(json!({ "chunk": 10 }))).unwrap());
    assert_eq!(r["last_step"], StepLimit::Default as u64, "no limit given: the default");
    let r = value(s.load(COUNTER, js(json!({ "chunk": 10, "step_limit": StepLimit::Max as u64 }))).unwrap());
    assert_eq!((r["ok"].clone(), r["last_step"].clone()), (json!(true), json!(50_000_000)), "{r}");
    value(s.load(COUNTER, js(json!({ "step_limit": StepLimit::Min as u64 }))).unwrap());
    assert_eq!(s.total_steps(), 1000.0);
    for bad in [json!(999), json!(50_000_001), json!(1500.5), json!(-1)] {
        let r = value(s.load(COUNTER, js(json!({ "step_limit": bad }))).unwrap());
        assert_eq!(r["ok"], false, "{r}");
        let message = r["diagnostics"][0]["message"].as_str().unwrap();
        assert!(message.contains(&format!("the step limit {bad} is not a whole number from 1000 to 50000000")), "{message}");
        assert_eq!(s.total_steps(), 1000.0, "the last good run stays");
    }
}

#[wasm_bindgen_test]
fn a_spin_lock_ends_as_a_deadlock_naming_the_waiting_lane() {
    let mut s = Session::new();
    let r = value(s.load(include_str!("../../examples/spin_lock.cu"), js(json!({ "model": "pdom" }))).unwrap());
    assert_eq!(r["end"]["kind"], "deadlock", "{r}");
    let message = r["end"]["message"].as_str().unwrap();
    assert!(message.contains("lane 0 waits") && message.contains("RECONV"), "{message}");
}

#[wasm_bindgen_test]
fn links_round_trip_and_broken_ones_say_why() {
    let link = json!({ "text": "<script>x</script>", "params": { "n": 3 }, "model": null, "preset": null, "ifConvert": null,
        "pathOrder": null, "schedule": null, "warpScheduler": null, "oneWarp": null, "launch": 1, "kernelOnly": null, "block": [2, 1, 0], "compare": null, "compareText": "__global__ void k() {}", "step": 7, "lane": 2, "warp": 3, "embed": null, "sweep": null, "figure": null,
        "cuda": null, "ptx": null });
    let fragment = encode_link(js(link.clone())).unwrap();
    let back = value(decode_link(&fragment).unwrap());
    assert_eq!(back["kind"], "ok");
    assert_eq!(back["link"], link);
    let bad = value(decode_link("#v1.AAAA").unwrap());
    assert_eq!(bad["kind"], "error");
    assert!(bad["message"].as_str().unwrap().contains("corrupted"), "{bad}");
    assert_eq!(value(decode_link("").unwrap())["kind"], "none");
}
