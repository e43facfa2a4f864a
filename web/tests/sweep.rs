//! The sweep facade as the sweep worker uses it, run as wasm (`bash scripts/test-wasm.sh`):
//! prepare, run point by point, the CSV the CLI prints, the measured fit, and bad requests.
#![cfg(target_arch = "wasm32")]

use serde::Serialize;
use serde_json::{json, Value};
use warpscope_web::{measured_sets, metric_infos, SweepRun};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

const SINGLE_SASS: &str = include_str!("../../examples/single_loop.sass");
const SINGLE_CU: &str = include_str!("../../examples/single_loop.cu");
const H100: &str = include_str!("../../examples/data/h100_loops.csv");

fn js(v: &Value) -> JsValue {
    v.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).unwrap()
}
fn val(v: JsValue) -> Value {
    serde_wasm_bindgen::from_value(v).expect("a plain view")
}

#[wasm_bindgen_test]
fn prepares_runs_and_writes_the_clis_csv() {
    let mut s = SweepRun::new();
    let p = val(s
        .prepare(SINGLE_SASS, js(&json!({ "param": "n", "from": 0, "to": 3, "models": ["kepler"], "presets": ["kepler", "maxwell"] })))
        .unwrap());
    assert_eq!(p["ok"], true, "{p}");
    assert_eq!(p["points"], 8);
    assert_eq!(p["series"][1]["label"], "kepler · maxwell");
    let mut cycles = Vec::new();
    for i in 0..8 {
        let pt = val(s.run(i).unwrap());
        assert_eq!(pt["stop"]["kind"], "exited");
        cycles.push(pt["metrics"]["cycles"].as_f64().unwrap());
    }
    assert_eq!(cycles[2] - cycles[0], 32.0, "kepler: 32 cycles per divergent lane");
    assert_eq!(cycles[3] - cycles[1], 26.0, "maxwell: 26");
    let csv = s.csv(None, None).unwrap();
    assert_eq!(csv.lines().count(), 9);
    assert!(csv.starts_with("n,model,preset,cycles,"));
    assert!(s.run(8).is_err(), "beyond the sweep");
}

#[wasm_bindgen_test]
fn fits_the_h100_measurements() {
    let sets = val(measured_sets(H100).unwrap());
    let set = sets.as_array().unwrap().iter().find(|s| s["kernel"] == "single_nounroll" && s["build"] == "O3").unwrap().clone();
    let (xs, ys): (Vec<f64>, Vec<f64>) =
        set["points"].as_array().unwrap().iter().map(|p| (p[0].as_f64().unwrap(), p[1].as_f64().unwrap())).unzip();
    let mut s = SweepRun::new();
    val(s.prepare(SINGLE_CU, js(&json!({ "param": "n", "from": 0, "to": 31, "models": ["volta"], "presets": ["h100"] }))).unwrap());
    for i in 0..32 {
        s.run(i).unwrap();
    }
    let fit = val(s.fit(0, xs.clone(), ys.clone()).unwrap());
    assert_eq!(fit["at"], 0);
    assert!(fit["rows"].as_array().unwrap().iter().all(|r| r["residual"] == 0.0), "{fit}");
    assert!(s.csv(Some(xs), Some(ys)).unwrap().lines().next().unwrap().ends_with("measured,predicted,residual"));
}

#[wasm_bindgen_test]
fn bad_requests_are_diagnostics_not_throws() {
    let mut s = SweepRun::new();
    let p = val(s.prepare(SINGLE_SASS, js(&json!({ "param": "q" }))).unwrap());
    assert_eq!(p["ok"], false);
    assert!(p["diagnostics"][0]["message"].as_str().unwrap().contains("no param `q`"));
    let p = val(s.prepare(SINGLE_SASS, js(&json!({ "param": "n", "from": "zero" }))).unwrap());
    assert!(p["diagnostics"][0]["message"].as_str().unwrap().contains("sweep settings"), "{p}");
    for limit in [999u64, 50_000_001] {
        let p = val(s.prepare(SINGLE_SASS, js(&json!({ "param": "n", "step_limit": limit }))).unwrap());
        assert_eq!(p["ok"], false, "{limit}");
        assert!(
            p["diagnostics"][0]["message"]
                .as_str()
                .unwrap()
                .contains(&format!("the step limit {limit} is not a whole number from 1000 to 50000000")),
            "{p}"
        );
    }
    let p = val(s.prepare(SINGLE_SASS, js(&json!({ "param": "n", "step_limit": 1000 }))).unwrap());
    assert_eq!(p["ok"], true, "{p}");
    let p = val(s.prepare("  FROB R1;\n", js(&json!({ "param": "n" }))).unwrap());
    assert_eq!(p["diagnostics"][0]["line"], 1);
    assert!(s.run(0).is_err(), "nothing prepared after a failed prepare");
    assert!(measured_sets("").is_err());
    let metrics = val(metric_infos().unwrap());
    assert_eq!(metrics[0]["name"], "cycles");
}

#[wasm_bindgen_test]
fn restored_points_give_the_same_csv_as_running_them() {
    let request = js(&json!({ "param": "n", "from": 0, "to": 2, "models": ["kepler"] }));
    let mut ran = SweepRun::new();
    val(ran.prepare(SINGLE_SASS, request.clone()).unwrap());
    let points: Vec<Value> = (0..3).map(|i| val(ran.run(i).unwrap())).collect();
    let mut back = SweepRun::new();
    val(back.prepare(SINGLE_SASS, request).unwrap());
    back.restore(js(&json!(points))).unwrap();
    assert_eq!(back.csv(None, None).unwrap(), ran.csv(None, None).unwrap());
    assert!(back.restore(js(&json!([{ "series": 5, "x": 0, "metrics": points[0]["metrics"], "stop": points[0]["stop"] }]))).is_err());
}
