//! warpscope-web: the thin wasm-bindgen facade over `warpscope_core` for the browser app.
//!
//! A `Session` holds one kernel and its whole recorded run. Loading runs the warp to its end in
//! Rust (batching: the page never loops over steps), then every scrub is a `seek` into the
//! recorded run. Views are plain structs (`views`) serialized with serde-wasm-bindgen; whole-run
//! series go out as typed arrays. No DOM access and no calls into JS from here.

mod counters;
mod exchange;
mod inputs;
mod launch;
mod link;
mod memory;
mod program;
mod summary;
mod sweep;
#[cfg(not(target_arch = "wasm32"))]
pub mod types;
mod views;

pub use counters::counter_names;
pub use link::{decode_link, encode_link};
pub use sweep::{measured_sets, metric_infos, SweepRun};

use js_sys::Uint8Array;
use serde::Deserialize;
use ts_rs::TS;
use warpscope_core::input::{ptx, InputKind};
use warpscope_core::isa::Pc;
use warpscope_core::kernel::expr::Value;
use warpscope_core::model::Reconvergence;
use warpscope_core::printf::OutputLine;
use warpscope_core::session::{LaunchRecording, Recording, RunRequest, StaleParams, Until, MAX_RECORDED_STEPS, MIN_STEP_LIMIT};
use warpscope_core::sim::LaneState;
use wasm_bindgen::prelude::*;

use exchange::ExchangeView;
use inputs::InputsView;
use memory::{cells_text, MemoryView, MEMORY_WINDOW_MAX};
use views::*;

/// Event bits of a step (one step may have several), as `next_event` and `prev_event` take them.
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

// wasm-bindgen exports only literal enum values: these keep them the core's (and within the
// byte).
const _: () = {
    use warpscope_core::sim::{event, LaneState};
    assert!(EventBit::Diverge as u16 == event::DIVERGE && EventBit::Reconverge as u16 == event::RECONVERGE);
    assert!(EventBit::Push as u16 == event::PUSH && EventBit::Pop as u16 == event::POP);
    assert!(EventBit::Spill as u16 == event::SPILL && EventBit::Fill as u16 == event::FILL && EventBit::Exit as u16 == event::EXIT);
    assert!((event::DIVERGE | event::RECONVERGE | event::PUSH | event::POP | event::SPILL | event::FILL | event::EXIT) <= u8::MAX as u16);
    assert!(LaneCode::Active as u8 == LaneState::Active as u8 && LaneCode::Masked as u8 == LaneState::Masked as u8);
    assert!(LaneCode::Waiting as u8 == LaneState::Waiting as u8 && LaneCode::Exited as u8 == LaneState::Exited as u8);
};

/// Every model as the page describes it (`ModelAbout`: words, policy, whether it spills, its
/// compare partner), in `ModelKind::ALL` order.
#[wasm_bindgen]
pub fn model_infos() -> Result<JsValue, JsError> {
    to_js(&warpscope_core::model::ModelKind::ALL.iter().map(|m| m.about()).collect::<Vec<_>>())
}

/// The glossary (`Term`s): the words of every model's views, what they mean, where they come
/// from and which models show them, in the core's order.
#[wasm_bindgen]
pub fn glossary() -> Result<JsValue, JsError> {
    to_js(&warpscope_core::model::GLOSSARY)
}

/// `text` with one `//@` input line set or removed (`HeaderEdit`), every other byte kept.
#[wasm_bindgen]
pub fn set_header(text: &str, edit: JsValue) -> Result<String, JsError> {
    let edit: warpscope_core::kernel::HeaderEdit = serde_wasm_bindgen::from_value(edit)?;
    Ok(warpscope_core::kernel::set_header(text, &edit))
}

/// The most steps one `lane_states` call returns (the core's window cap).
#[wasm_bindgen]
pub fn lane_window_max() -> f64 {
    warpscope_core::sim::LANE_WINDOW_MAX as f64
}

/// The most elements one `Session.memory_cells` call returns.
#[wasm_bindgen]
pub fn memory_window_max() -> f64 {
    MEMORY_WINDOW_MAX as f64
}

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

// The facade's range is the core's, which resolves and enforces it.
const _: () = assert!(StepLimit::Min as u64 == MIN_STEP_LIMIT && StepLimit::Max as u64 == MAX_RECORDED_STEPS);

/// `Session.load`'s options: a `RunRequest` without its text, and how much to run now.
#[derive(Deserialize, Default, TS)]
#[serde(default)]
#[ts(rename = "LoadRequest")]
pub(crate) struct LoadOptions {
    #[serde(flatten)]
    request: RunRequest,
    /// Run at most this many steps now and leave the rest to `resume` (absent: the whole run),
    /// so the page stays responsive and can offer Stop.
    chunk: Option<f64>,
}

/// One kernel's recorded run, for the page: every method forwards to the core's `Recording`
/// (a warp run alone) or, for a kernel whose launch has several warps, its `LaunchRecording`
/// (`launch`), which answers the same views for the warp in focus at the block's step.
#[wasm_bindgen]
#[derive(Default)]
pub struct Session {
    recording: Recording,
    /// The whole launch shown, when the last good load was one.
    launch: Option<LaunchRecording>,
    /// The param values of the run last started (for the inputs view).
    params: Vec<(String, Value)>,
    /// The host line of the program's launch shown, when the run is one.
    from_main: Option<u32>,
    /// The program of the last load, which the next load of the same text takes as it is.
    program: Option<warpscope_core::session::program::ProgramShown>,
}

fn to_js<T: serde::Serialize>(v: &T) -> Result<JsValue, JsError> {
    v.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).map_err(|e| JsError::new(&e.to_string()))
}

/// `load`'s and `check`'s options from JS (none: the defaults).
fn load_options(options: JsValue) -> Result<LoadOptions, JsError> {
    if options.is_undefined() || options.is_null() {
        Ok(LoadOptions::default())
    } else {
        Ok(serde_wasm_bindgen::from_value(options)?)
    }
}

/// A step count from JS (negative and NaN are 0).
fn steps(t: f64) -> u64 {
    if t.is_finite() {
        t.max(0.0) as u64
    } else {
        0
    }
}

#[wasm_bindgen]
impl Session {
    #[wasm_bindgen(constructor)]
    pub fn new() -> Session {
        console_error_panic_hook::set_once();
        Session::default()
    }

    /// Resolves and runs `text` (`options`: the rest of a `RunRequest`, and `chunk`). On errors
    /// the previous run stays loaded, so the views do not blank while the user types; `ok`
    /// says which happened.
    pub fn load(&mut self, text: &str, options: JsValue) -> Result<JsValue, JsError> {
        let opts = load_options(options)?;
        // The page records every step and keeps params across edits (a renamed one is dropped).
        let request = RunRequest { text: text.into(), record: true, stale_params: StaleParams::Drop, ..opts.request };
        let mut resolved = request.resolve_after(self.program.take());
        let mut diagnostics = resolved.all_diagnostics();
        let mut result = LoadResult::new(&resolved);
        if resolved.ok() && resolved.whole_launch {
            match LaunchRecording::start(&resolved) {
                Ok(l) => {
                    self.params = resolved.params.iter().map(|p| (p.name.clone(), p.value)).collect();
                    self.from_main = resolved.program.as_ref().and_then(|p| p.launch()).map(|l| l.line);
                    self.recording.stop();
                    diagnostics.extend(l.warnings.iter().cloned());
                    (result.ok, result.end, result.launch) = (true, Some(l.outcome.clone()), Some(LaunchView::new(&l)));
                    self.launch = Some(l);
                }
                Err(d) => diagnostics.extend(d),
            }
        }
        // Kept for the next load, which takes it when the text and options are the same.
        self.program = resolved.program.take();
        if resolved.ok() && !resolved.whole_launch {
            let params = resolved.params.iter().map(|p| (p.name.clone(), p.value)).collect();
            match self.recording.start(resolved, opts.chunk.map(steps)) {
                Ok(end) => {
                    self.params = params;
                    self.launch = None;
                    result.ok = true;
                    result.running = end.is_none();
                    // A run that ended here says what it warns of: notes it never reaches, a
                    // shared read no lane had written.
                    if let (Some(_), Some(l)) = (&end, self.recording.loaded()) {
                        diagnostics.extend(l.warnings.iter().cloned());
                    }
                    result.end = end;
                }
                Err(d) => diagnostics.extend(d),
            }
        }
        result.diagnostics = diagnostics.iter().map(DiagnosticView::from).collect();
        to_js(&result)
    }

    /// Every check (racecheck, synccheck, initcheck, memcheck) on the run of `text` under
    /// `options` (as `load` takes them): a `CheckReport`, or null when the text does not run.
    /// The program `load` ran is taken again for the same text and options.
    pub fn check(&mut self, text: &str, options: JsValue) -> Result<JsValue, JsError> {
        let opts = load_options(options)?;
        let request = RunRequest { text: text.into(), record: false, stale_params: StaleParams::Drop, ..opts.request };
        let mut resolved = request.resolve_after(self.program.take());
        let report = resolved.ok().then(|| warpscope_core::session::check::check(&resolved));
        self.program = resolved.program.take();
        to_js(&report)
    }

    /// Runs the pending run `budget` more steps: `{running, steps, end}` (`end` once it ended;
    /// then the views show it).
    pub fn resume(&mut self, budget: f64) -> Result<JsValue, JsError> {
        to_js(&self.recording.resume(steps(budget)))
    }

    /// Ends the pending run where it is: the views show the steps run so far.
    pub fn stop_run(&mut self) -> Result<JsValue, JsError> {
        to_js(&self.recording.stop())
    }

    /// True while a run started with `chunk` has not ended.
    pub fn running(&self) -> bool {
        self.recording.running()
    }

    pub fn total_steps(&self) -> f64 {
        self.launch.as_ref().map_or_else(|| self.recording.total(), LaunchRecording::total) as f64
    }
    pub fn current(&self) -> f64 {
        self.launch.as_ref().map_or_else(|| self.recording.current(), LaunchRecording::current) as f64
    }

    pub fn step(&mut self) -> f64 {
        self.seek(self.current() + 1.0)
    }
    pub fn step_back(&mut self) -> f64 {
        self.seek((self.current() - 1.0).max(0.0))
    }
    /// Goes to the state after `t` steps, clamped to the recorded run.
    pub fn seek(&mut self, t: f64) -> f64 {
        match self.launch.as_mut() {
            Some(l) => l.seek(steps(t)) as f64,
            None => self.recording.seek(steps(t)) as f64,
        }
    }

    /// `seek(t)` and `lane_states(from, to)` in one call (one replay serves both where the
    /// engine can; at most `lane_window_max()` steps); the step reached is `current()`.
    pub fn seek_with_lanes(&mut self, t: f64, from: f64, to: f64) -> Uint8Array {
        if let Some(l) = self.launch.as_mut() {
            l.seek(steps(t));
            return lane_codes(l.lane_window(steps(from), steps(to)));
        }
        let (_, lanes) = self.recording.seek_with_lanes(steps(t), steps(from), steps(to));
        lane_codes(lanes)
    }

    pub fn set_breakpoints(&mut self, instr_indices: Vec<u32>) {
        let pcs: Vec<Pc> = instr_indices.into_iter().map(Pc).collect();
        if let Some(l) = self.launch.as_mut() {
            l.set_breakpoints(pcs.clone());
        }
        self.recording.set_breakpoints(pcs);
    }

    /// Runs forward within the recorded run until `kind` happens: "end", "breakpoint" (stops only
    /// at breakpoints), "divergence", "reconvergence", "spill", "fill" or "event" (any of these).
    /// Breakpoints stop every kind but "end".
    pub fn run_until(&mut self, kind: &str, max_steps: Option<f64>) -> Result<JsValue, JsError> {
        let until = Until::from_name(kind).ok_or_else(|| JsError::new(&format!("unknown run_until kind `{kind}`")))?;
        if let Some(l) = self.launch.as_mut() {
            return to_js(&l.run_until(until, max_steps.map(steps)));
        }
        match self.recording.run_until(until, max_steps.map(steps)) {
            Some(outcome) => to_js(&outcome),
            None => Ok(JsValue::NULL),
        }
    }

    /// The state after `current()` steps, with the registers of `lane`.
    pub fn state(&self, lane: u32) -> Result<JsValue, JsError> {
        if let Some(l) = &self.launch {
            return to_js(&launch::state(l, lane));
        }
        let Some(l) = self.recording.loaded() else { return Ok(JsValue::NULL) };
        let caption = l.captions.at(l.sim.steps(), l.sim.state().model.pc());
        let vars = l.kernel.compiled.as_ref().map_or(&[][..], |c| &c.vars[..]);
        to_js(&StateView::new(&WarpLook::of_sim(&l.sim), &l.facts, lane, caption, vars))
    }

    /// Every buffer after `current()` steps, and what that step did to memory (`MemoryView`).
    pub fn memory(&self) -> Result<JsValue, JsError> {
        if let Some(l) = &self.launch {
            return to_js(&launch::memory(l));
        }
        let Some(l) = self.recording.loaded() else { return Ok(JsValue::NULL) };
        to_js(&MemoryView::new(&l.sim))
    }

    /// What the step just taken exchanged, if it was a shuffle (`ExchangeView`); null otherwise.
    pub fn exchange(&self) -> Result<JsValue, JsError> {
        let (None, Some(l)) = (&self.launch, self.recording.loaded()) else { return Ok(JsValue::NULL) };
        match ExchangeView::new(&l.sim) {
            Some(v) => to_js(&v),
            None => Ok(JsValue::NULL),
        }
    }

    /// Elements `from..to` of buffer `buffer` after `current()` steps, as text (floats with the
    /// fewest digits that read back), at most `memory_window_max()` of them.
    pub fn memory_cells(&self, buffer: u32, from: u32, to: u32) -> Vec<String> {
        match (&self.launch, self.recording.loaded()) {
            (Some(l), _) => cells_text(l.memory(), buffer, from, to),
            (None, Some(l)) => cells_text(&l.sim.state().machine.memory, buffer, from, to),
            (None, None) => Vec::new(),
        }
    }

    /// The kernel's inputs (`InputsView`): every buffer and param, declared or made, with what
    /// the run made of them; the launch and the kernels of the file.
    pub fn inputs(&self) -> Result<JsValue, JsError> {
        if let Some(l) = &self.launch {
            if let Some(line) = self.from_main {
                return to_js(&InputsView::of_program(&l.kernel, &l.initial, &self.params, line));
            }
            return to_js(&InputsView::new(&l.kernel, &l.initial, &self.params));
        }
        let Some(l) = self.recording.loaded() else { return Ok(JsValue::NULL) };
        to_js(&InputsView::new(&l.kernel, &l.sim.timeline().checkpoint_before(0).machine.memory, &self.params))
    }

    /// The generated code of a C kernel and its mappings; null for an assembly kernel.
    pub fn compiled(&self) -> Result<JsValue, JsError> {
        let Some(kernel) = self.kernel() else { return Ok(JsValue::NULL) };
        match &kernel.compiled {
            Some(c) => to_js(&CompiledView::new(&kernel.program, c)),
            None => Ok(JsValue::NULL),
        }
    }

    /// PTX pasted beside a SASS kernel, lined up with it by CUDA line (`ptx::beside`); null
    /// unless a SASS kernel is loaded.
    pub fn ptx_beside(&self, ptx: &str) -> Result<JsValue, JsError> {
        let Some(kernel) = self.kernel() else { return Ok(JsValue::NULL) };
        match &kernel.compiled {
            Some(c) if c.input == InputKind::Sass => to_js(&ptx::beside(ptx, c.entry.as_deref().unwrap_or(""), c.cuda_file.as_deref())),
            _ => Ok(JsValue::NULL),
        }
    }

    pub fn cfg(&self) -> Result<JsValue, JsError> {
        if let Some(l) = &self.launch {
            return to_js(&CfgView::new(&l.kernel.program, &l.facts, l.config().stack.capacity, None));
        }
        let Some(l) = self.recording.loaded() else { return Ok(JsValue::NULL) };
        to_js(&CfgView::new(&l.kernel.program, &l.facts, l.sim.config().stack.capacity, l.sim.structured()))
    }

    /// Under STRUCT: the graph of the kernel before the transform (blocks `BB0`...), to show
    /// beside the transformed one; null for every other model.
    pub fn original_cfg(&self) -> Result<JsValue, JsError> {
        let (None, Some(l)) = (&self.launch, self.recording.loaded()) else { return Ok(JsValue::NULL) };
        match l.sim.structured() {
            Some(s) => {
                to_js(&CfgView::new(&s.original, &warpscope_core::analysis::cfg_facts(&s.original), l.sim.config().stack.capacity, None))
            }
            None => Ok(JsValue::NULL),
        }
    }

    /// Metrics now (after `current()` steps) and for the whole run.
    pub fn metrics(&self) -> Result<JsValue, JsError> {
        if let Some(l) = &self.launch {
            return to_js(&launch::metrics(l));
        }
        let Some(l) = self.recording.loaded() else { return Ok(JsValue::NULL) };
        let w = l.sim.state().machine.width;
        to_js(&MetricsPair {
            now: MetricsView::new(&l.sim.state().metrics, &l.facts, w),
            total: MetricsView::new(&l.end_metrics, &l.facts, w),
            transforms: l.sim.structured().map(|s| s.counts),
            static_expansion: l.sim.structured().map(|s| s.counts.static_expansion()),
        })
    }

    /// The thread-frontier paper's metrics of the whole run, for the compare table: warp and
    /// thread instructions, activity factor, code expansion against the MIMD minimum, idle
    /// instructions, stack depth, cycles and memory transactions. The first call runs the MIMD
    /// reference; later calls reuse it.
    pub fn report(&mut self) -> Result<JsValue, JsError> {
        if let Some(l) = &self.launch {
            return to_js(&ReportView::new(l.config().model, &l.outcome, &l.totals.report(l.warp().machine.width)));
        }
        let Some((l, report)) = self.recording.report() else { return Ok(JsValue::NULL) };
        to_js(&ReportView::new(l.sim.config().model, &l.outcome, report))
    }

    /// The kernel's notes as this run places them: a step or event note's moment, or an
    /// instruction note's pc.
    pub fn notes(&self) -> Result<JsValue, JsError> {
        if let Some(l) = &self.launch {
            return to_js(&NoteView::all(&l.kernel.notes, &l.captions));
        }
        let Some(l) = self.recording.loaded() else { return to_js(&Vec::<NoteView>::new()) };
        to_js(&NoteView::all(&l.kernel.notes, &l.captions))
    }

    /// What the whole run printed (`printf`), in the order printed, each line with the step
    /// that printed it and its lane; the page shows the lines up to its step.
    pub fn output(&self) -> Result<JsValue, JsError> {
        if let Some(l) = &self.launch {
            return to_js(&l.output);
        }
        let Some(l) = self.recording.loaded() else { return to_js(&Vec::<OutputLine>::new()) };
        to_js(&l.output)
    }

    /// The stack plot's depth path over the whole run in `columns` columns (`summary::depth_columns`).
    pub fn depth_columns(&self, columns: u32) -> Vec<u32> {
        self.log().map_or(Vec::new(), |t| summary::depth_columns(t, t.len(), columns as usize))
    }

    /// The stack plot's spill and fill marks on an axis from `left`, `width` wide, at least `gap`
    /// apart: `[step, spill, depth]` each (`summary::stack_marks`).
    pub fn stack_marks(&self, left: f64, width: f64, gap: f64) -> Vec<u32> {
        self.log().map_or(Vec::new(), |t| summary::stack_marks(t, t.len(), left, width, gap))
    }

    /// The scrubber strip's marks over `span` steps, `width` pixels wide with `inset` at each
    /// end: `[row, step]` each (`summary::strip_marks`).
    pub fn strip_marks(&self, span: f64, inset: f64, width: f64) -> Vec<u32> {
        self.strip_marks_of(None, span, inset, width)
    }

    /// `strip_marks` of this run's and `other`'s events together (the compare view's strip).
    pub fn strip_marks_with(&self, other: &Session, span: f64, inset: f64, width: f64) -> Vec<u32> {
        self.strip_marks_of(Some(other), span, inset, width)
    }

    /// The first step after `step` with one of `bits` (`EventBit`s).
    pub fn next_event(&self, step: f64, bits: u16) -> Option<f64> {
        self.log()?.next_event(steps(step) as usize, bits).map(|k| k as f64)
    }

    /// The last step before `step` with one of `bits` (`EventBit`s).
    pub fn prev_event(&self, step: f64, bits: u16) -> Option<f64> {
        self.log()?.prev_event(steps(step) as usize, bits).map(|k| k as f64)
    }

    /// The stack depth after `step` steps (0 before the first).
    pub fn depth_after(&self, step: f64) -> f64 {
        let (Some(t), Some(i)) = (self.log(), (steps(step) as usize).checked_sub(1)) else { return 0.0 };
        t.get(i).map_or(0.0, |r| r.depth as f64)
    }

    /// The deepest the run's stack went.
    pub fn max_depth(&self) -> f64 {
        self.end_metrics().map_or(0.0, |m| m.max_stack_depth as f64)
    }

    /// How many of the run's steps issued no lane (idle instructions).
    pub fn idle_steps(&self) -> f64 {
        self.end_metrics().map_or(0.0, |m| m.idle_instructions as f64)
    }

    /// The lanes issued at each of steps `from + 1 ..= to` (at most `lane_window_max()` steps).
    /// (A launch's focused warp issued none at the steps another warp issued: its log's holds.)
    pub fn issued_lanes(&self, from: f64, to: f64) -> Vec<u8> {
        let Some(t) = self.log() else { return Vec::new() };
        let from = (steps(from) as usize).min(t.len());
        let to = (steps(to) as usize).clamp(from, t.len()).min(from + warpscope_core::sim::LANE_WINDOW_MAX as usize);
        t.iter_from(from).take(to - from).map(|r| r.mask.count_ones() as u8).collect()
    }

    /// `LaneCode` of every lane in steps `from + 1 ..= to` (at most `lane_window_max()` steps), W per step.
    pub fn lane_states(&mut self, from: f64, to: f64) -> Uint8Array {
        if let Some(l) = self.launch.as_mut() {
            return lane_codes(l.lane_window(steps(from), steps(to)));
        }
        let Some(l) = self.recording.loaded() else { return Uint8Array::new_with_length(0) };
        lane_codes(l.sim.lane_window(from.max(0.0) as u64, to.max(0.0) as u64))
    }

    /// The whole run as CSV, one row per step (a launch: the block on screen, each row with the
    /// warp that issued the step).
    pub fn trace_csv(&mut self) -> String {
        if let Some(l) = self.launch.as_mut() {
            return l.trace_csv();
        }
        self.recording.loaded().map_or(String::new(), |l| warpscope_core::trace::csv(&l.sim))
    }
}

/// Lane states as their `LaneCode` bytes.
fn lane_codes(lanes: Vec<LaneState>) -> Uint8Array {
    let v: Vec<u8> = lanes.into_iter().map(|s| s as u8).collect();
    Uint8Array::from(&v[..])
}

impl Session {
    /// The kernel shown.
    fn kernel(&self) -> Option<&warpscope_core::kernel::Kernel> {
        self.launch.as_ref().map(|l| &l.kernel).or_else(|| self.recording.loaded().map(|l| &l.kernel))
    }
    /// The records the plots and the event strip read: the warp's, or the focused warp's over
    /// the block's steps.
    fn log(&self) -> Option<&warpscope_core::sim::StepLog> {
        self.launch.as_ref().map(LaunchRecording::log).or_else(|| self.recording.loaded().map(|l| l.sim.timeline().log()))
    }
    /// The shown warp's counts at the run's end.
    fn end_metrics(&self) -> Option<&warpscope_core::sim::Metrics> {
        self.launch.as_ref().map(LaunchRecording::end_metrics_now).or_else(|| self.recording.loaded().map(|l| &l.end_metrics))
    }
    fn strip_marks_of(&self, other: Option<&Session>, span: f64, inset: f64, width: f64) -> Vec<u32> {
        let sessions = [Some(self), other].into_iter().flatten();
        let runs: Vec<&warpscope_core::sim::StepLog> = sessions.clone().filter_map(Session::log).collect();
        let mut releases: Vec<u64> =
            sessions.filter_map(|s| s.launch.as_ref()).flat_map(|l| l.launch().releases().iter().copied()).collect();
        releases.sort_unstable();
        summary::strip_marks(&runs, &releases, steps(span) as usize, inset, width)
    }
}
