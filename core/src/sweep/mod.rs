//! Parameter sweeps: the same kernel run to its end once per value of a param, under one or more
//! models and cost presets (and optionally the values of a second param), one row of metrics per
//! run. The CLI and the browser's sweep worker both drive a `Sweep` point by point, so they give
//! the same numbers; `measured` lines a series up with hardware measurements.

pub mod measured;

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use crate::diag::{Diagnostic, Span};
use crate::kernel::expr::Value;
use crate::kernel::Kernel;
use crate::launch::launch;
use crate::model::{ModelKind, StackConfig};
use crate::session::{Outcome, Resolved, RunChoices, RunRequest, StackChoice};
pub use crate::sim::PointMetrics;
use crate::sim::{CostModel, Metric, DEFAULT_STEP_LIMIT};

/// The most runs one sweep may hold (values times series).
pub const MAX_POINTS: usize = 100_000;

/// A sweep as the user names it: models, presets and policies by name. The same shape sits in
/// `examples/figures.json`, in permalinks and in the facade's argument.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SweepRequest {
    /// The param on the x axis.
    pub param: String,
    pub from: i64,
    pub to: i64,
    /// Empty: the kernel's `//@ model`, else kepler.
    pub models: Vec<String>,
    /// Empty: each model's own preset (the kernel's `//@ preset`, else the model's default).
    pub presets: Vec<String>,
    /// A second param whose values split each model and preset into several series.
    pub split: Option<Split>,
    /// Params held fixed for the whole sweep (as a run request's: whole numbers are integers).
    pub params: BTreeMap<String, f64>,
    /// Cost fields set over every preset (`spill` = 50 ...).
    pub costs: BTreeMap<String, u32>,
    /// The on-chip stack (`None`: the kernel's `//@ stack`, else 16 entries spilled 4 at a time).
    pub stack: Option<StackConfig>,
    /// The choices every run shares (model and preset only where `models` and `presets` are empty).
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub choices: RunChoices,
    /// Steps after which one run stops (`None`: the core's default, 10 million).
    pub step_limit: Option<u64>,
}

impl Default for SweepRequest {
    fn default() -> Self {
        SweepRequest {
            param: String::from("n"),
            from: 0,
            to: 31,
            models: Vec::new(),
            presets: Vec::new(),
            split: None,
            params: BTreeMap::new(),
            costs: BTreeMap::new(),
            stack: None,
            choices: RunChoices::default(),
            step_limit: None,
        }
    }
}

/// The second param of a sweep and the values it takes, one series each.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Split {
    pub param: String,
    pub values: Vec<i64>,
}

/// One line of a sweep plot: a model, a cost preset and (if split) the second param's value.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Series {
    pub label: String,
    pub model: ModelKind,
    pub preset: String,
    #[cfg_attr(feature = "serde", serde(skip))]
    pub cost: CostModel,
    pub split_value: Option<i64>,
}

/// One run of a sweep.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SweepPoint {
    pub series: usize,
    pub x: i64,
    pub metrics: PointMetrics,
    pub stop: Outcome,
}

/// A checked sweep, ready to run point by point: point `i` is x value `from + i / series` of
/// series `i % series`, so every series grows together as a sweep goes on.
pub struct Sweep {
    request: SweepRequest,
    series: Vec<Series>,
    /// Each (model, preset) run, resolved once (`RunRequest::resolve`, the path every run
    /// takes): the kernel read for its model and the options to launch it with, but for the
    /// swept values. The series of its split values share it.
    runs: Vec<Resolved>,
    /// The index in `runs` of each series' run.
    run_of: Vec<usize>,
}

fn error(message: String) -> Vec<Diagnostic> {
    alloc::vec![Diagnostic::error(Span::new(1, 1, 0), message)]
}

impl Sweep {
    /// Checks the request against the kernel and resolves each series' run (the kernel compiled
    /// for its model). Errors are located in the kernel text, or at line 1 for the request's
    /// own mistakes.
    pub fn new(text: &str, request: &SweepRequest) -> Result<Sweep, Vec<Diagnostic>> {
        let r = request;
        if r.to < r.from {
            return Err(error(format!("sweep range {}..{} goes downwards", r.from, r.to)));
        }
        let split_values: Vec<Option<i64>> = match &r.split {
            Some(s) if s.values.is_empty() => return Err(error(format!("split param `{}` has no values", s.param))),
            Some(s) => s.values.iter().map(|v| Some(*v)).collect(),
            None => alloc::vec![None],
        };
        // A sweep varies the kernel's params, which a program's `main()` sets at its launches: it
        // runs the kernel alone, with its `//@` inputs (as `--kernel-only`), and `main` not at all.
        let base = RunRequest {
            text: String::from(text),
            choices: RunChoices { kernel_only: Some(true), ..r.choices.clone() },
            params: r.params.clone(),
            costs: r.costs.clone(),
            stack: r.stack.map_or_else(StackChoice::default, |st| StackChoice {
                capacity: Some(st.capacity),
                chunk: Some(st.chunk),
                limit: Some(st.limit),
            }),
            step_limit: Some(r.step_limit.unwrap_or(DEFAULT_STEP_LIMIT) as f64),
            ..RunRequest::default()
        };
        // Empty lists: the choices' model (unset: the kernel's own), and their preset (unset: each model's own).
        let models: Vec<Option<String>> =
            if r.models.is_empty() { alloc::vec![r.choices.model.clone()] } else { r.models.iter().cloned().map(Some).collect() };
        let presets: Vec<Option<String>> =
            if r.presets.is_empty() { alloc::vec![r.choices.preset.clone()] } else { r.presets.iter().cloned().map(Some).collect() };
        let (mut series, mut runs, mut run_of) = (Vec::new(), Vec::new(), Vec::new());
        for model in &models {
            for preset in &presets {
                let choices = RunChoices { model: model.clone(), preset: preset.clone(), ..r.choices.clone() };
                let resolved = RunRequest { choices, ..base.clone() }.resolve();
                if let Some(e) = resolved.choice_errors.first() {
                    return Err(error(e.message.clone()));
                }
                if resolved.diagnostics.iter().any(Diagnostic::is_error) {
                    return Err(resolved.diagnostics);
                }
                check_params(r, &resolved.kernel)?;
                for &split_value in &split_values {
                    let mut label = format!("{} · {}", resolved.model.name(), resolved.preset);
                    if let (Some(v), Some(s)) = (split_value, &r.split) {
                        label += &format!(" · {}={v}", s.param);
                    }
                    let cost = resolved.options.cost.unwrap_or_default();
                    series.push(Series { label, model: resolved.model, preset: resolved.preset.clone(), cost, split_value });
                    run_of.push(runs.len());
                }
                runs.push(resolved);
            }
        }
        let values = (r.to - r.from) as u128 + 1;
        if values * series.len() as u128 > MAX_POINTS as u128 {
            return Err(error(format!("{values} values x {} series is more than {MAX_POINTS} runs; narrow the range", series.len())));
        }
        Ok(Sweep { request: r.clone(), series, runs, run_of })
    }

    pub fn request(&self) -> &SweepRequest {
        &self.request
    }
    pub fn series(&self) -> &[Series] {
        &self.series
    }
    /// The number of runs: values times series.
    pub fn len(&self) -> usize {
        (self.request.to - self.request.from + 1) as usize * self.series.len()
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Which series and x value run `i` is.
    pub fn point(&self, i: usize) -> (usize, i64) {
        let n = self.series.len();
        (i % n, self.request.from + (i / n) as i64)
    }

    /// Runs point `i` to its end (or its step limit, fault or deadlock).
    pub fn run(&self, i: usize) -> SweepPoint {
        let (si, x) = self.point(i);
        let (s, run) = (&self.series[si], &self.runs[self.run_of[si]]);
        let mut opts = run.options.clone();
        if let (Some(v), Some(split)) = (s.split_value, &self.request.split) {
            opts.params.push((split.param.clone(), Value::Int(v)));
        }
        opts.params.push((self.request.param.clone(), Value::Int(x)));
        // A launch of several warps runs whole.
        let k = &run.kernel;
        if k.several_warps() {
            return match crate::grid::run_launch(k, &opts) {
                Ok(l) => SweepPoint { series: si, x, metrics: l.totals.point(l.width), stop: Outcome::of_launch(&l) },
                Err(diags) => SweepPoint { series: si, x, metrics: PointMetrics::default(), stop: Outcome::input_error(&diags) },
            };
        }
        let mut sim = match launch(&run.kernel, &opts) {
            Ok(sim) => sim,
            Err(diags) => return SweepPoint { series: si, x, metrics: PointMetrics::default(), stop: Outcome::input_error(&diags) },
        };
        let reason = sim.run_to_end();
        let metrics = PointMetrics::of(&sim.state().metrics, sim.state().machine.width);
        SweepPoint { series: si, x, metrics, stop: Outcome::of(&sim, &reason) }
    }
}

/// The swept, split and fixed params must be the kernel's.
fn check_params(r: &SweepRequest, kernel: &Kernel) -> Result<(), Vec<Diagnostic>> {
    for name in core::iter::once(&r.param).chain(r.split.as_ref().map(|s| &s.param)).chain(r.params.keys()) {
        if !kernel.params.iter().any(|p| &p.name == name) {
            let declared: Vec<&str> = kernel.param_names().collect();
            let list = if declared.is_empty() { String::from("none") } else { declared.join(", ") };
            return Err(error(format!("the kernel has no param `{name}` to sweep (declared: {list})")));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;

impl Sweep {
    /// The cycles of series `series` against x, from the points given (any order, any subset).
    pub fn cycles_of(&self, series: usize, points: &[SweepPoint]) -> Vec<(i64, f64)> {
        self.metric_of(series, points, Metric::Cycles)
    }

    fn metric_of(&self, series: usize, points: &[SweepPoint], metric: Metric) -> Vec<(i64, f64)> {
        let mut out: Vec<(i64, f64)> = points.iter().filter(|p| p.series == series).map(|p| (p.x, p.metrics.get(metric))).collect();
        out.sort_by_key(|p| p.0);
        out
    }

    /// Series `series` beside measured cycles: under a timing model (`h100-timed`) its own
    /// prediction of the kernel's clock (`clock_window`), nothing fitted; under the counting
    /// presets its cycles plus one base cost fitted at the first x both share.
    pub fn fit(&self, series: usize, points: &[SweepPoint], measured: &[(i64, f64)]) -> Option<measured::Fit> {
        if self.series.get(series)?.cost.timing.is_some() {
            measured::compare(&self.metric_of(series, points, Metric::ClockWindow), measured)
        } else {
            measured::fit_base(&self.cycles_of(series, points), measured)
        }
    }

    /// The sweep as CSV, one row per point in point order: the param, the series (model,
    /// preset, split value), every metric, how the run stopped and, given measurements, each
    /// series' fit (`measured`, `predicted`, `residual`). The CLI and the app's download share it.
    pub fn csv(&self, points: &[SweepPoint], measured: Option<&[(i64, f64)]>) -> String {
        let mut header: Vec<&str> = alloc::vec![self.request.param.as_str(), "model", "preset"];
        if let Some(s) = &self.request.split {
            header.push(s.param.as_str());
        }
        header.extend(Metric::ALL.iter().map(|m| m.name()));
        header.push("stop_reason");
        if measured.is_some() {
            header.extend(["measured", "predicted", "residual"]);
        }
        let fits: Vec<Option<measured::Fit>> = (0..self.series.len()).map(|s| measured.and_then(|m| self.fit(s, points, m))).collect();
        let mut out = header.join(",");
        out.push('\n');
        let mut sorted: Vec<&SweepPoint> = points.iter().collect();
        sorted.sort_by_key(|p| (p.x, p.series));
        for p in sorted {
            let s = &self.series[p.series];
            let mut cells: Vec<String> = alloc::vec![p.x.to_string(), s.model.name().to_string(), s.preset.clone()];
            if let Some(v) = s.split_value {
                cells.push(v.to_string());
            }
            cells.extend(Metric::ALL.iter().map(|&m| p.metrics.text(m)));
            cells.push(p.stop.kind.name().to_string());
            if measured.is_some() {
                let row = fits[p.series].as_ref().and_then(|f| f.rows.iter().find(|r| r.x == p.x));
                match row {
                    Some(r) => cells.extend([r.measured, r.predicted, r.residual].iter().map(|v| format!("{v}"))),
                    None => cells.extend(["", "", ""].iter().map(|v| v.to_string())),
                }
            }
            out += &cells.join(",");
            out.push('\n');
        }
        out
    }
}
