//! Sweeps for the browser's sweep worker: the core's `Sweep`, one run per call, so the worker can
//! post progress between runs and be stopped. The metric names, the measurements reader and the
//! fit are the core's too, so the page and `warpscope sweep` agree to the digit.

use serde::Serialize;
use ts_rs::TS;
use warpscope_core::session::recorded_step_limit;
use warpscope_core::sim::Metric;
use warpscope_core::sweep::{measured, Series, Sweep, SweepPoint, SweepRequest};
use wasm_bindgen::prelude::*;

use crate::to_js;
use crate::views::DiagnosticView;

#[derive(Serialize, TS)]
pub(crate) struct Prepared<'a> {
    ok: bool,
    diagnostics: Vec<DiagnosticView>,
    series: &'a [Series],
    /// How many runs `run` takes indices for.
    points: usize,
}

#[derive(Serialize, TS)]
pub(crate) struct MetricInfo {
    name: &'static str,
    label: &'static str,
    /// A fraction (shown as a percentage), not a count.
    ratio: bool,
    /// Counts cycles: measured cycles can stand beside it.
    cycles: bool,
}

/// One sweep: `prepare` checks and compiles, then `run(i)` for i in 0..points.
#[wasm_bindgen]
#[derive(Default)]
pub struct SweepRun {
    sweep: Option<Sweep>,
    /// The points run so far, for `csv` and `fit`.
    done: Vec<SweepPoint>,
}

#[wasm_bindgen]
impl SweepRun {
    #[wasm_bindgen(constructor)]
    pub fn new() -> SweepRun {
        console_error_panic_hook::set_once();
        SweepRun::default()
    }

    /// Checks `request` (a `SweepRequest`: param, from, to, models, presets, split, params, ...)
    /// against the kernel `text`. Errors come back as located diagnostics, never thrown.
    pub fn prepare(&mut self, text: &str, request: JsValue) -> Result<JsValue, JsError> {
        let settings_error =
            |e: String| vec![warpscope_core::Diagnostic::error(warpscope_core::Span::new(1, 1, 0), format!("sweep settings: {e}"))];
        let parsed: Result<SweepRequest, _> = serde_wasm_bindgen::from_value(request);
        // Each run of a sweep is bounded like a recorded load: the same step-limit range.
        let result =
            parsed.map_err(|e| settings_error(e.to_string())).and_then(|r| match r.step_limit.map(|l| recorded_step_limit(l as f64)) {
                Some(Err(e)) => Err(settings_error(e)),
                _ => Ok(r),
            });
        self.sweep = None;
        self.done.clear();
        match result.and_then(|r| Sweep::new(text, &r)) {
            Ok(sweep) => {
                let out = to_js(&Prepared { ok: true, diagnostics: Vec::new(), series: sweep.series(), points: sweep.len() });
                self.sweep = Some(sweep);
                out
            }
            Err(diags) => {
                to_js(&Prepared { ok: false, diagnostics: diags.iter().map(DiagnosticView::from).collect(), series: &[], points: 0 })
            }
        }
    }

    /// Runs point `i` to its end: `{series, x, metrics, stop}`.
    pub fn run(&mut self, i: usize) -> Result<JsValue, JsError> {
        let sweep = self.sweep.as_ref().ok_or_else(|| JsError::new("no sweep is prepared"))?;
        if i >= sweep.len() {
            return Err(JsError::new(&format!("point {i} is outside the sweep's {} points", sweep.len())));
        }
        let point = sweep.run(i);
        let out = to_js(&point);
        self.done.push(point);
        out
    }

    /// Takes back points an earlier `run` of the same sweep gave (a worker that was stopped), so
    /// `csv` and `fit` cover them without running them again.
    pub fn restore(&mut self, points: JsValue) -> Result<(), JsError> {
        let sweep = self.sweep.as_ref().ok_or_else(|| JsError::new("no sweep is prepared"))?;
        let points: Vec<SweepPoint> = serde_wasm_bindgen::from_value(points).map_err(|e| JsError::new(&format!("restored points: {e}")))?;
        if let Some(p) = points.iter().find(|p| p.series >= sweep.series().len() || p.x < sweep.request().from || p.x > sweep.request().to)
        {
            return Err(JsError::new(&format!("restored point (series {}, x {}) is not in this sweep", p.series, p.x)));
        }
        self.done.extend(points);
        Ok(())
    }

    /// The points run so far as CSV (the same as `warpscope sweep --csv`); with measurements
    /// (`xs`, `ys` of equal length), each series' fit in three more columns.
    pub fn csv(&self, measured_x: Option<Vec<f64>>, measured_y: Option<Vec<f64>>) -> Result<String, JsError> {
        let sweep = self.sweep.as_ref().ok_or_else(|| JsError::new("no sweep is prepared"))?;
        let m = pairs(measured_x, measured_y);
        Ok(sweep.csv(&self.done, m.as_deref()))
    }

    /// Series `series` beside the measurements (`Sweep::fit`: a timing model's own clock, else
    /// its cycles plus one base cost fitted at the first x both share): `{base, at, fitted, rows:
    /// [{x, measured, predicted, residual}]}`, or null if none is shared.
    pub fn fit(&self, series: usize, measured_x: Vec<f64>, measured_y: Vec<f64>) -> Result<JsValue, JsError> {
        let sweep = self.sweep.as_ref().ok_or_else(|| JsError::new("no sweep is prepared"))?;
        let m = pairs(Some(measured_x), Some(measured_y)).unwrap_or_default();
        to_js(&sweep.fit(series, &self.done, &m))
    }
}

fn pairs(xs: Option<Vec<f64>>, ys: Option<Vec<f64>>) -> Option<Vec<(i64, f64)>> {
    Some(xs?.iter().zip(ys?).map(|(x, y)| (*x as i64, y)).collect())
}

/// Every metric (`sim::Metric`), `{name, label, ratio}`, in table order: what a sweep can plot
/// and the metrics panel lists.
#[wasm_bindgen]
pub fn metric_infos() -> Result<JsValue, JsError> {
    to_js(
        &Metric::ALL
            .iter()
            .map(|m| MetricInfo { name: m.name(), label: m.label(), ratio: m.is_ratio(), cycles: m.counts_cycles() })
            .collect::<Vec<_>>(),
    )
}

/// The series of a measurements CSV: `[{build, kernel, pattern, points: [[x, cycles], ...]}]`.
#[wasm_bindgen]
pub fn measured_sets(csv: &str) -> Result<JsValue, JsError> {
    to_js(&measured::read_csv(csv).map_err(|e| JsError::new(&e))?)
}
