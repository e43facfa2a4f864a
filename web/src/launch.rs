//! `LaunchSession`: a kernel's whole launch, with the block on screen recorded, for the warps
//! views (the next issue's). Every method forwards to the core's `grid::RecordedLaunch`; the
//! views are the core's (`WarpNow`), the warps x steps summary a typed array.

use js_sys::Uint16Array;
use serde::Serialize;
use ts_rs::TS;
use warpscope_core::grid::{RecordedLaunch, Totals, WarpNow};
use warpscope_core::session::{Outcome, RunRequest, StaleParams};
use wasm_bindgen::prelude::*;

use crate::views::{DiagnosticView, WarpView};
use crate::{steps, to_js, LoadOptions};

/// What loading a launch gave: the block on screen and its warps, how far it ran, and the whole
/// launch's end and counts.
#[derive(Serialize, TS)]
pub struct LaunchLoadResult {
    pub ok: bool,
    pub diagnostics: Vec<DiagnosticView>,
    /// The block on screen (the launch's `block_idx=`), its warps and its recorded steps.
    pub block_idx: [u32; 3],
    pub warps: u32,
    pub steps: u64,
    /// The whole launch's end and counts (its other blocks run unrecorded).
    pub end: Option<Outcome>,
    pub totals: Option<Totals>,
}

/// A whole launch, its block on screen recorded.
#[wasm_bindgen]
#[derive(Default)]
pub struct LaunchSession {
    launch: Option<RecordedLaunch>,
    /// The C kernel's variables, for a lane's view.
    vars: Vec<warpscope_core::compile::VarInfo>,
}

#[wasm_bindgen]
impl LaunchSession {
    #[wasm_bindgen(constructor)]
    pub fn new() -> LaunchSession {
        console_error_panic_hook::set_once();
        LaunchSession::default()
    }

    /// Resolves `text` (`options` as `Session.load` takes them), runs the launch and records
    /// its block on screen; the previous launch stays on an error.
    pub fn load(&mut self, text: &str, options: JsValue) -> Result<JsValue, JsError> {
        let opts: LoadOptions =
            if options.is_undefined() || options.is_null() { LoadOptions::default() } else { serde_wasm_bindgen::from_value(options)? };
        let request = RunRequest { text: text.into(), stale_params: StaleParams::Drop, ..opts.request };
        let resolved = request.resolve();
        let mut result =
            LaunchLoadResult { ok: false, diagnostics: Vec::new(), block_idx: [0; 3], warps: 0, steps: 0, end: None, totals: None };
        let mut diagnostics = resolved.all_diagnostics();
        if resolved.ok() {
            let focus = resolved.kernel.launch().block_idx;
            match RecordedLaunch::new(&resolved.kernel, &resolved.options, focus) {
                Ok(Ok(mut launch)) => {
                    launch.run_to_end();
                    let whole = launch.clone().finish();
                    result = LaunchLoadResult {
                        ok: true,
                        diagnostics: Vec::new(),
                        block_idx: focus,
                        warps: launch.warps() as u32,
                        steps: launch.recorded(),
                        end: Some(Outcome::of_launch(&whole)),
                        totals: Some(whole.totals),
                    };
                    launch.seek(0);
                    self.launch = Some(launch);
                    self.vars = resolved.kernel.compiled.as_ref().map_or_else(Vec::new, |c| c.vars.clone());
                }
                // A block before the one on screen ended the launch: its end says where.
                Ok(Err(whole)) => {
                    result.end = Some(Outcome::of_launch(&whole));
                    result.totals = Some(whole.totals);
                }
                Err(d) => diagnostics.extend(d),
            }
        }
        result.diagnostics = diagnostics.iter().map(DiagnosticView::from).collect();
        to_js(&result)
    }

    /// Goes to the state after `t` of the block's steps (clamped to its end); the step reached.
    pub fn seek(&mut self, t: f64) -> f64 {
        self.launch.as_mut().map_or(0.0, |l| {
            l.seek(steps(t));
            l.steps() as f64
        })
    }

    /// The block's step at which warp `w` next issues after the current one (-1: never), for a
    /// step that follows one warp; `prev_issue_of` the one before.
    pub fn next_issue_of(&self, w: u32) -> f64 {
        self.launch.as_ref().and_then(|l| l.next_issue_of(w as usize)).map_or(-1.0, |t| t as f64)
    }
    pub fn prev_issue_of(&self, w: u32) -> f64 {
        self.launch.as_ref().and_then(|l| l.prev_issue_of(w as usize)).map_or(-1.0, |t| t as f64)
    }

    /// Every warp of the block at the current step (`WarpNow[]`).
    pub fn warps_now(&self) -> Result<JsValue, JsError> {
        let warps: Vec<WarpNow> = self.launch.as_ref().map_or_else(Vec::new, RecordedLaunch::warps_now);
        to_js(&warps)
    }

    /// Warp `w` of the block at the current step, with the registers and variables of `lane`
    /// (`WarpView`; null for a warp the block does not have).
    pub fn warp_view(&self, w: u32, lane: u32) -> Result<JsValue, JsError> {
        match self.launch.as_ref().filter(|l| (w as usize) < l.warps()) {
            Some(l) => to_js(&WarpView::new(l.program(), l.warp(w as usize), w, lane, &self.vars)),
            None => Ok(JsValue::NULL),
        }
    }

    /// The warps x steps summary: per step, the warp that issued it and the lanes that ran it.
    pub fn summary(&self) -> Uint16Array {
        let s = self.launch.as_ref().map_or_else(Vec::new, RecordedLaunch::summary);
        Uint16Array::from(&s[..])
    }
}
