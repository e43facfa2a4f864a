//! A kernel's whole launch in the page's `Session`: the core's `LaunchRecording` (the block on
//! screen recorded, one warp of it in focus) answers the same views as a warp run alone, at the
//! block's step; this adds what only a launch has (its warps now, the warps x steps summary, the
//! focus, a warp's next and previous issue). Every function forwards to the core.

use js_sys::{Int32Array, Uint16Array, Uint8Array};
use warpscope_core::grid::WarpNow;
use warpscope_core::machine::Space;
use warpscope_core::model::Reconvergence;
use warpscope_core::session::LaunchRecording;
use warpscope_core::sim::WarpState;
use wasm_bindgen::prelude::*;

use crate::memory::MemoryView;
use crate::views::{MetricsPair, MetricsView, StateView, WarpLook};
use crate::{steps, to_js, Session};

/// Codes of `warps_window`: a warp's part in a step of its block (`Issued` plus the lanes that
/// ran it when it issued the step).
#[wasm_bindgen(js_name = WarpCode)]
#[derive(Clone, Copy)]
pub enum WarpCodeJs {
    Ready = 0,
    AtBarrier = 1,
    Exited = 2,
    Failed = 3,
    Issued = 64,
}

// wasm-bindgen exports only literal enum values: these keep them the core's.
const _: () = {
    use warpscope_core::session::WarpCode;
    assert!(WarpCodeJs::Ready as u8 == WarpCode::READY && WarpCodeJs::AtBarrier as u8 == WarpCode::AT_BARRIER);
    assert!(WarpCodeJs::Exited as u8 == WarpCode::EXITED && WarpCodeJs::Failed as u8 == WarpCode::FAILED);
    assert!(WarpCodeJs::Issued as u8 == WarpCode::ISSUED);
};

/// The focused warp as the state view reads it.
pub(crate) fn look(l: &LaunchRecording) -> WarpLook<'_> {
    WarpLook { program: l.launch().program(), state: l.warp(), step: l.current(), last: l.record_now(), lanes: l.next_lane_states() }
}

pub(crate) fn state(l: &LaunchRecording, lane: u32) -> StateView {
    let vars = l.kernel.compiled.as_ref().map_or(&[][..], |c| &c.vars[..]);
    let caption = l.captions.at(l.current(), l.warp().model.pc());
    StateView::new(&look(l), &l.facts, lane, caption, vars)
}

pub(crate) fn memory(l: &LaunchRecording) -> MemoryView {
    let mut view = MemoryView::of(l.launch().program(), l.memory(), l.current(), l.step_access().cloned());
    view.writers = true;
    view.writers_cut_at = l.launch().shared_writes_cut_at().map(|t| t as f64);
    view
}

pub(crate) fn metrics(l: &LaunchRecording) -> MetricsPair {
    let w: &WarpState = l.warp();
    let width = w.machine.width;
    MetricsPair {
        now: MetricsView::new(&w.metrics, &l.facts, width),
        total: MetricsView::new(l.end_metrics_now(), &l.facts, width),
        transforms: None,
        static_expansion: None,
    }
}

#[wasm_bindgen]
impl Session {
    /// For a whole launch: every warp of the block on screen at the current step (`WarpNow[]`);
    /// empty for a warp run alone.
    pub fn warps_now(&self) -> Result<JsValue, JsError> {
        to_js(&self.launch.as_ref().map_or_else(Vec::<WarpNow>::new, LaunchRecording::warps_now))
    }

    /// The warps x steps summary of the block on screen: for step `t` (1-based), entry `2 (t - 1)`
    /// is the warp that issued it and `2 (t - 1) + 1` the lanes that ran it.
    pub fn warps_summary(&self) -> Uint16Array {
        let s = self.launch.as_ref().map_or_else(Vec::new, |l| l.launch().summary());
        Uint16Array::from(&s[..])
    }

    /// What every warp of the block did at steps `from + 1 ..= to` (at most `lane_window_max()`),
    /// a `WarpCode` per warp per step, warp 0 first; empty for a warp run alone.
    pub fn warps_window(&mut self, from: f64, to: f64) -> Uint8Array {
        let codes = self.launch.as_mut().map_or_else(Vec::new, |l| l.warps_window(steps(from), steps(to)));
        Uint8Array::from(&codes[..])
    }

    /// Puts warp `w` of the block in focus (the views follow it); the warp in focus.
    pub fn focus(&mut self, w: u32) -> u32 {
        self.launch.as_mut().map_or(0, |l| l.focus(w as usize) as u32)
    }

    /// The warp in focus (-1 for a warp run alone): a breakpoint another warp reaches moves it.
    pub fn focused(&self) -> i32 {
        self.launch.as_ref().map_or(-1, |l| l.focused() as i32)
    }

    /// The warp that issued step `t` (1-based) of the block (-1: none, or a warp run alone).
    pub fn issuer_of(&self, t: f64) -> i32 {
        self.launch.as_ref().and_then(|l| l.launch().issuer(steps(t))).map_or(-1, |w| w as i32)
    }

    /// The block's step at which warp `w` next issues after the current one (-1: never), for a
    /// step that follows one warp; `prev_issue_of` the one before.
    pub fn next_issue_of(&self, w: u32) -> f64 {
        self.launch.as_ref().and_then(|l| l.launch().next_issue_of(w as usize)).map_or(-1.0, |t| t as f64)
    }
    pub fn prev_issue_of(&self, w: u32) -> f64 {
        self.launch.as_ref().and_then(|l| l.launch().prev_issue_of(w as usize)).map_or(-1.0, |t| t as f64)
    }

    /// The block's steps (1-based) at which a barrier released its warps; empty for a warp run
    /// alone.
    pub fn barrier_releases(&self) -> Vec<f64> {
        self.launch.as_ref().map_or_else(Vec::new, |l| l.launch().releases().iter().map(|&t| t as f64).collect())
    }

    /// Who last wrote elements `from..to` of shared buffer `buffer` (at most
    /// `memory_window_max()`) up to the current step: `[warp, lane, step]` each, `-1`s for one
    /// no lane of the block wrote; empty for a warp run alone or a global buffer.
    pub fn shared_writers(&self, buffer: u32, from: u32, to: u32) -> Int32Array {
        let Some(l) = self.launch.as_ref().filter(|l| l.memory().buffers.get(buffer as usize).is_some_and(|b| b.space == Space::Shared))
        else {
            return Int32Array::new_with_length(0);
        };
        let to = to.min(from.saturating_add(crate::MEMORY_WINDOW_MAX));
        let writes = l.launch().shared_writers(buffer, from, to);
        let flat: Vec<i32> =
            writes.iter().flat_map(|w| w.map_or([-1, -1, -1], |w| [i32::from(w.warp), i32::from(w.lane), w.step as i32])).collect();
        Int32Array::from(&flat[..])
    }
}
