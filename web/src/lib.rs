//! warpscope-web: the thin wasm-bindgen facade over `warpscope_core` for the browser app.
//!
//! A `Session` holds one kernel and its whole recorded run. Loading runs the warp to its end in
//! Rust (batching: the page never loops over steps), then every scrub is a `seek` into the
//! recorded run. Views are plain structs (`views`) serialized with serde-wasm-bindgen; whole-run
//! series go out as typed arrays. No DOM access and no calls into JS from here.

mod link;
mod sweep;
mod views;

pub use link::{decode_link, encode_link};
pub use sweep::{measured_sets, sweep_metrics, SweepRun};

use js_sys::{Uint16Array, Uint32Array, Uint8Array};
use serde::Deserialize;
use warpscope_core::analysis::{cfg_facts, CfgFacts};
use warpscope_core::isa::Pc;
use warpscope_core::kernel::{param_defaults, parse_kernel_with, Kernel, NoteTarget, SourceOptions};
use warpscope_core::model::{ModelKind, PathOrder, Reconvergence, Schedule};
use warpscope_core::sim::{event, CostModel, Metrics, RunLimits, RunReport, Sim, StopReason};
use warpscope_core::{launch, Diagnostic, LaunchOptions, Span};
use wasm_bindgen::prelude::*;

use views::*;

/// Event bits of `event_series` (one step may have several).
#[wasm_bindgen]
#[derive(Clone, Copy)]
pub enum EventBit {
    Diverge = 1,
    Reconverge = 2,
    Push = 4,
    Pop = 8,
    Spill = 16,
    Fill = 32,
    Exit = 64,
}

/// Codes of `lane_states`.
#[wasm_bindgen]
#[derive(Clone, Copy)]
pub enum LaneCode {
    Active = 0,
    Masked = 1,
    Waiting = 2,
    Exited = 3,
}

/// Largest integer a JS number holds exactly: params beyond it would not round-trip.
const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// The most steps one `lane_states` call returns (the core's window cap).
#[wasm_bindgen]
pub fn lane_window_max() -> f64 {
    warpscope_core::sim::LANE_WINDOW_MAX as f64
}

/// An error in the options the page passed (not in the kernel text): shown at line 1.
fn option_error(message: String) -> Diagnostic {
    Diagnostic::error(Span::new(1, 1, 0), message)
}

/// The step limits `Session.load` takes. Every step is kept for scrubbing (about 16 bytes each), so
/// the highest stays well inside wasm's memory; a run that long loads in chunks (`chunk`), so the
/// page stays usable and offers Stop, and a repeating state ends most loops far sooner. An enum
/// because wasm-bindgen exports no constants: its values are in the generated JS before the wasm
/// starts, so the page has them even when the engine cannot start.
#[wasm_bindgen]
#[derive(Clone, Copy)]
pub enum StepLimit {
    /// The core's `DEFAULT_STEP_LIMIT` (a compile-time assertion keeps them equal).
    Default = 10_000_000,
    Min = 1_000,
    Max = 50_000_000,
}

// wasm-bindgen takes only literal values; this keeps the default the core's.
const _: () = assert!(StepLimit::Default as u64 == warpscope_core::sim::DEFAULT_STEP_LIMIT);

impl StepLimit {
    /// `value` as a step limit, or why it is not one.
    fn check(value: f64) -> Result<u64, String> {
        let (min, max) = (StepLimit::Min as u64, StepLimit::Max as u64);
        if value.fract() == 0.0 && value >= min as f64 && value <= max as f64 {
            Ok(value as u64)
        } else {
            Err(format!("the step limit {value} is not a whole number from {min} to {max}; choose one in Settings"))
        }
    }
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct LoadOptionsJs {
    params: std::collections::BTreeMap<String, f64>,
    model: Option<String>,
    preset: Option<String>,
    step_limit: Option<f64>,
    /// For C kernels: if-convert short branches (`None`: the kernel's `//@ ifconvert`).
    if_convert: Option<bool>,
    /// PDOM stacks: `taken` or `fall-through` first.
    path_order: Option<String>,
    /// Volta: `h100`, `lowest-pc` or `round-robin`.
    schedule: Option<String>,
    /// Run at most this many steps now and leave the rest to `resume` (absent: the whole run),
    /// so the page stays responsive and can offer Stop.
    chunk: Option<f64>,
    /// End the run after exactly this many steps as if the user had pressed Stop there (a stopped
    /// run loaded again); a run that ends sooner ends as it would.
    stop_at: Option<f64>,
}

/// A loaded kernel and its recorded run.
struct Loaded {
    kernel: Kernel,
    facts: CfgFacts,
    sim: Sim,
    total: u64,
    end: StopReason,
    end_metrics: Metrics,
    /// The whole run's comparison metrics, computed on first request (it runs the MIMD reference).
    report: Option<RunReport>,
    end_view: StopView,
}

/// A run still going: `resume` continues it, `stop_run` keeps what it has.
struct Pending {
    kernel: Kernel,
    sim: Sim,
    /// The load's `stop_at`: the run ends there as stopped.
    stop_at: Option<u64>,
}

impl Pending {
    /// Runs at most `budget` more steps (`None`: no budget): how the run ended, or `None` while
    /// it goes on.
    fn run(&mut self, budget: Option<u64>) -> Option<(StopReason, StopView)> {
        let left = self.stop_at.map(|s| s.saturating_sub(self.sim.steps()));
        let max_steps = match (budget, left) {
            (Some(b), Some(l)) => Some(b.min(l)),
            (b, l) => b.or(l),
        };
        let end = self.sim.run(&RunLimits { max_steps, ..RunLimits::default() });
        if end != StopReason::Budget {
            let view = StopView::new(&self.sim, &end);
            return Some((end, view));
        }
        let stopped = self.stop_at.is_some_and(|s| self.sim.steps() >= s);
        stopped.then(|| (StopReason::Budget, StopView::stopped(&self.sim)))
    }
}

#[wasm_bindgen]
pub struct Session {
    loaded: Option<Loaded>,
    /// A newer run than `loaded`, still running (the views show `loaded` meanwhile).
    pending: Option<Pending>,
    breakpoints: Vec<Pc>,
}

impl Default for Session {
    fn default() -> Self {
        Session::new()
    }
}

fn to_js<T: serde::Serialize>(v: &T) -> Result<JsValue, JsError> {
    v.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).map_err(|e| JsError::new(&e.to_string()))
}

impl Session {
    /// Keeps a run that ended (or was stopped) as the loaded one, rewound to step 0.
    fn finish(&mut self, kernel: Kernel, mut sim: Sim, end: StopReason, end_view: StopView) {
        let (total, end_metrics) = (sim.steps(), sim.state().metrics.clone());
        sim.seek(0);
        let facts = cfg_facts(&kernel.program);
        self.loaded = Some(Loaded { kernel, facts, sim, total, end, end_metrics, report: None, end_view });
    }
}

#[wasm_bindgen]
impl Session {
    #[wasm_bindgen(constructor)]
    pub fn new() -> Session {
        console_error_panic_hook::set_once();
        Session { loaded: None, pending: None, breakpoints: Vec::new() }
    }

    /// Parses and runs `text`. On errors the previous run stays loaded, so the views do not
    /// blank while the user types; `ok` says which happened.
    pub fn load(&mut self, text: &str, options: JsValue) -> Result<JsValue, JsError> {
        let opts: LoadOptionsJs =
            if options.is_undefined() || options.is_null() { LoadOptionsJs::default() } else { serde_wasm_bindgen::from_value(options)? };
        // C compiles for the chosen model's target; an unknown name is reported below.
        let chosen = opts.model.as_deref().and_then(ModelKind::from_name);
        let source_opts = SourceOptions { target: chosen.map(|m| m.compile_target()), if_convert: opts.if_convert };
        let (kernel, mut diags) = parse_kernel_with(text, &source_opts);
        let model = match opts.model.as_deref() {
            Some(name) => ModelKind::from_name(name).or_else(|| {
                diags.push(option_error(format!("unknown model `{name}` chosen (known: {})", ModelKind::known_names())));
                None
            }),
            None => None,
        }
        .or(kernel.model)
        .unwrap_or(ModelKind::Kepler);
        let preset = match opts.preset.as_deref() {
            Some(name) if CostModel::preset(name).is_none() => {
                diags.push(option_error(format!("unknown cost preset `{name}` chosen (known: {})", CostModel::known_presets())));
                None
            }
            p => p.map(String::from),
        }
        .or_else(|| kernel.preset.clone())
        .unwrap_or_else(|| model.default_preset().into());
        let path_order = match opts.path_order.as_deref() {
            Some(name) => PathOrder::from_name(name).unwrap_or_else(|| {
                diags.push(option_error(format!("unknown path order `{name}` chosen (known: taken, fall-through)")));
                PathOrder::default()
            }),
            None => PathOrder::default(),
        };
        let schedule = match opts.schedule.as_deref() {
            Some(name) => Schedule::from_name(name).unwrap_or_else(|| {
                diags.push(option_error(format!("unknown schedule `{name}` chosen (known: h100, lowest-pc, round-robin)")));
                Schedule::default()
            }),
            None => Schedule::default(),
        };
        let step_limit = match opts.step_limit.map(StepLimit::check) {
            Some(Ok(limit)) => limit,
            Some(Err(message)) => {
                diags.push(option_error(message));
                StepLimit::Default as u64
            }
            None => StepLimit::Default as u64,
        };
        let stop_at = match opts.stop_at {
            Some(s) if s.fract() == 0.0 && (0.0..=MAX_SAFE_INTEGER).contains(&s) => Some(s as u64),
            Some(s) => {
                diags.push(option_error(format!("stop_at = {s} is not a whole number of steps")));
                None
            }
            None => None,
        };
        // Params the kernel no longer declares (the user just renamed one) are dropped, not errors.
        let mut params: Vec<(String, i64)> = Vec::new();
        for decl in &kernel.params {
            let Some(&v) = opts.params.get(&decl.name) else { continue };
            if v.is_finite() && v.fract() == 0.0 && v.abs() <= MAX_SAFE_INTEGER {
                params.push((decl.name.clone(), v as i64));
            } else {
                let msg = format!("param {} = {v} is not an integer between -2^53 and 2^53; using its default", decl.name);
                diags.push(Diagnostic::error(decl.default.span, msg));
            }
        }
        let launch_opts = LaunchOptions {
            model: Some(model),
            cost: CostModel::preset(&preset),
            params: params.clone(),
            path_order,
            schedule,
            step_limit,
            ..LaunchOptions::default()
        };
        let mut result = LoadResult {
            ok: false,
            diagnostics: Vec::new(),
            title: kernel.title.clone(),
            about: kernel.about.join(" "),
            width: kernel.warp,
            params: Vec::new(),
            model: model.name().into(),
            preset: preset.clone(),
            models: ModelKind::ALL.iter().map(|m| m.name()).collect(),
            presets: CostModel::PRESETS.iter().map(|p| p.0).collect(),
            path_order: path_order.name(),
            path_orders: PathOrder::ALL.iter().map(|p| p.name()).collect(),
            schedule: schedule.name(),
            schedules: Schedule::ALL.iter().map(|p| p.name()).collect(),
            uses_frontiers: model.uses_frontiers(),
            stack_capacity: launch_opts.config_for(&kernel).stack.capacity,
            end: None,
            running: false,
            last_step: stop_at.map_or(step_limit, |s| s.min(step_limit)) as f64,
        };
        if !diags.iter().any(|d| d.is_error()) {
            match launch(&kernel, &launch_opts) {
                Ok(sim) => {
                    let mut run = Pending { kernel: kernel.clone(), sim, stop_at };
                    let budget = opts.chunk.map(|c| c.max(1.0) as u64);
                    result.ok = true;
                    self.pending = None;
                    match run.run(budget) {
                        None => {
                            result.running = true;
                            self.pending = Some(run);
                        }
                        Some((end, end_view)) => {
                            result.end = Some(end_view.clone());
                            self.finish(run.kernel, run.sim, end, end_view);
                        }
                    }
                }
                Err(e) => diags.extend(e),
            }
        }
        // Param values as used: the override, else the default the core evaluated.
        result.params = param_defaults(&kernel)
            .into_iter()
            .map(|(name, default)| {
                let default = default.unwrap_or(0);
                let value = params.iter().find(|(n, _)| *n == name).map_or(default, |(_, v)| *v);
                ParamView { name, default: default as f64, value: value as f64 }
            })
            .collect();
        result.diagnostics = diags.iter().map(DiagnosticView::from).collect();
        to_js(&result)
    }

    /// Runs the pending run `budget` more steps: `{running, steps, end}` (`end` once it ended;
    /// then the views show it).
    pub fn resume(&mut self, budget: f64) -> Result<JsValue, JsError> {
        let Some(mut p) = self.pending.take() else { return to_js(&Progress { running: false, steps: 0.0, end: None }) };
        let ended = p.run(Some(budget.max(1.0) as u64));
        let steps = p.sim.steps() as f64;
        let Some((end, view)) = ended else {
            self.pending = Some(p);
            return to_js(&Progress { running: true, steps, end: None });
        };
        self.finish(p.kernel, p.sim, end, view.clone());
        to_js(&Progress { running: false, steps, end: Some(view) })
    }

    /// Ends the pending run where it is: the views show the steps run so far.
    pub fn stop_run(&mut self) -> Result<JsValue, JsError> {
        let Some(p) = self.pending.take() else { return to_js(&Progress { running: false, steps: 0.0, end: None }) };
        let view = StopView::stopped(&p.sim);
        let steps = p.sim.steps() as f64;
        self.finish(p.kernel, p.sim, StopReason::Budget, view.clone());
        to_js(&Progress { running: false, steps, end: Some(view) })
    }

    /// True while a run started with `chunk` has not ended.
    pub fn running(&self) -> bool {
        self.pending.is_some()
    }

    pub fn total_steps(&self) -> f64 {
        self.loaded.as_ref().map_or(0.0, |l| l.total as f64)
    }
    pub fn current(&self) -> f64 {
        self.loaded.as_ref().map_or(0.0, |l| l.sim.steps() as f64)
    }

    pub fn step(&mut self) -> f64 {
        let t = self.current() + 1.0;
        self.seek(t)
    }
    pub fn step_back(&mut self) -> f64 {
        let t = (self.current() - 1.0).max(0.0);
        self.seek(t)
    }
    /// Goes to the state after `t` steps, clamped to the recorded run.
    pub fn seek(&mut self, t: f64) -> f64 {
        if let Some(l) = self.loaded.as_mut() {
            let t = if t.is_finite() { t.max(0.0) as u64 } else { 0 };
            l.sim.seek(t.min(l.total));
        }
        self.current()
    }

    pub fn set_breakpoints(&mut self, instr_indices: Vec<u32>) {
        self.breakpoints = instr_indices.into_iter().map(Pc).collect();
    }

    /// Runs forward within the recorded run until `kind` happens: "end", "breakpoint" (stops only
    /// at breakpoints), "divergence", "reconvergence", "spill", "fill" or "event" (any of these).
    /// Breakpoints stop every kind but "end".
    pub fn run_until(&mut self, kind: &str, max_steps: Option<f64>) -> Result<JsValue, JsError> {
        let Some(l) = self.loaded.as_mut() else { return Ok(JsValue::NULL) };
        let stop_on = match kind {
            "end" | "breakpoint" => 0,
            "divergence" => event::DIVERGE,
            "reconvergence" => event::RECONVERGE,
            "spill" => event::SPILL,
            "fill" => event::FILL,
            "event" => event::DIVERGE | event::RECONVERGE | event::SPILL | event::FILL,
            other => return Err(JsError::new(&format!("unknown run_until kind `{other}`"))),
        };
        let left = l.total - l.sim.steps();
        let budget = max_steps.map_or(left, |m| (m.max(0.0) as u64).min(left));
        let breakpoints = if kind == "end" { Vec::new() } else { self.breakpoints.clone() };
        let reason = l.sim.run(&RunLimits { max_steps: Some(budget), breakpoints, stop_on });
        let view = match reason {
            StopReason::Budget if l.sim.steps() >= l.total => match &l.end {
                StopReason::Exited | StopReason::StepLimit => StopView::end_of_recording(&l.sim),
                _ => l.end_view.clone(),
            },
            r => StopView::new(&l.sim, &r),
        };
        to_js(&view)
    }

    /// The state after `current()` steps, with the registers of `lane`.
    pub fn state(&self, lane: u32) -> Result<JsValue, JsError> {
        let Some(l) = self.loaded.as_ref() else { return Ok(JsValue::NULL) };
        let caption = l.kernel.caption(l.sim.steps(), l.sim.state().model.pc());
        to_js(&StateView::new(&l.sim, &l.facts, lane, caption))
    }

    /// The generated code of a C kernel and its mappings; null for an assembly kernel.
    pub fn compiled(&self) -> Result<JsValue, JsError> {
        let Some(l) = self.loaded.as_ref() else { return Ok(JsValue::NULL) };
        match &l.kernel.compiled {
            Some(c) => to_js(&CompiledView::new(&l.kernel.program, c)),
            None => Ok(JsValue::NULL),
        }
    }

    pub fn cfg(&self) -> Result<JsValue, JsError> {
        let Some(l) = self.loaded.as_ref() else { return Ok(JsValue::NULL) };
        to_js(&CfgView::new(&l.kernel.program, &l.facts, l.sim.config().stack.capacity))
    }

    /// Metrics now (after `current()` steps) and for the whole run.
    pub fn metrics(&self) -> Result<JsValue, JsError> {
        let Some(l) = self.loaded.as_ref() else { return Ok(JsValue::NULL) };
        let w = l.sim.state().machine.width;
        to_js(&MetricsPair {
            now: MetricsView::new(&l.sim.state().metrics, &l.facts, w),
            total: MetricsView::new(&l.end_metrics, &l.facts, w),
        })
    }

    /// The thread-frontier paper's metrics of the whole run, for the compare table: warp and
    /// thread instructions, activity factor, code expansion against the MIMD minimum, idle
    /// instructions, stack depth, cycles and memory transactions. The first call runs the MIMD
    /// reference; later calls reuse it.
    pub fn report(&mut self) -> Result<JsValue, JsError> {
        let Some(l) = self.loaded.as_mut() else { return Ok(JsValue::NULL) };
        if l.report.is_none() {
            let now = l.sim.steps();
            l.sim.seek(l.total);
            l.report = Some(RunReport::of(&l.sim));
            l.sim.seek(now);
        }
        let r = l.report.as_ref().expect("computed above");
        to_js(&ReportView::new(l.sim.config().model, l.end_view.clone(), r))
    }

    pub fn notes(&self) -> Result<JsValue, JsError> {
        let Some(l) = self.loaded.as_ref() else { return to_js(&Vec::<NoteView>::new()) };
        let notes: Vec<NoteView> = l
            .kernel
            .notes
            .iter()
            .map(|n| {
                let (step, instr) = match n.target {
                    NoteTarget::Step(s) => (Some(s as f64), None),
                    NoteTarget::Instr(pc) => (None, Some(pc.0)),
                };
                NoteView { step, instr, line: n.line, text: n.text.clone() }
            })
            .collect();
        to_js(&notes)
    }

    /// Stack depth after step k + 1, at index k.
    pub fn depth_series(&self) -> Uint16Array {
        let v: Vec<u16> = self.records().map(|r| r.depth).collect();
        Uint16Array::from(&v[..])
    }
    /// Lanes issued at step k + 1.
    pub fn active_series(&self) -> Uint8Array {
        let v: Vec<u8> = self.records().map(|r| r.mask.count_ones() as u8).collect();
        Uint8Array::from(&v[..])
    }
    /// Event bits (`EventBit`) of step k + 1.
    pub fn event_series(&self) -> Uint16Array {
        let v: Vec<u16> = self.records().map(|r| r.events).collect();
        Uint16Array::from(&v[..])
    }
    /// Instruction index issued at step k + 1.
    pub fn pc_series(&self) -> Uint32Array {
        let v: Vec<u32> = self.records().map(|r| r.pc).collect();
        Uint32Array::from(&v[..])
    }

    /// `LaneCode` of every lane in steps `from + 1 ..= to` (at most `lane_window_max()` steps), W per step.
    pub fn lane_states(&self, from: f64, to: f64) -> Uint8Array {
        let Some(l) = self.loaded.as_ref() else { return Uint8Array::new_with_length(0) };
        let v: Vec<u8> = l.sim.lane_window(from.max(0.0) as u64, to.max(0.0) as u64).into_iter().map(|s| s as u8).collect();
        Uint8Array::from(&v[..])
    }

    /// The whole run as CSV (one row per step).
    pub fn trace_csv(&self) -> String {
        self.loaded.as_ref().map_or(String::new(), |l| warpscope_core::trace::csv(&l.sim))
    }
}

impl Session {
    fn records(&self) -> impl Iterator<Item = warpscope_core::sim::StepRecord> + '_ {
        self.loaded.iter().flat_map(|l| l.sim.timeline().records())
    }
}
