//! The run's Nsight Compute counters for the page's heat (the generated code's column, the
//! graph's blocks): forwarded from the core's recordings, which count once per load, when first
//! asked, and keep the counts.

use warpscope_core::session::counters::COUNTER_NAMES;
use wasm_bindgen::prelude::*;

use crate::{to_js, Session};

/// ncu's names of the counts (`CounterName`: the field of `Counts`, the source page's column,
/// the metric), in `Counts`' order.
#[wasm_bindgen]
pub fn counter_names() -> Result<JsValue, JsError> {
    to_js(&COUNTER_NAMES)
}

#[wasm_bindgen]
impl Session {
    /// The counters of the run on screen, per pc of its program (`RunCounts`): a whole launch's,
    /// every warp of every block (a program's launch as `main()` made it), or the one warp's
    /// run; null before any run. The first call of a load counts (the launch runs again, or the
    /// warp's run is replayed); later calls return the same counts.
    pub fn counters(&mut self) -> Result<JsValue, JsError> {
        if let Some(l) = self.launch.as_mut() {
            return to_js(l.counts());
        }
        match self.recording.counts() {
            Some(counts) => to_js(counts),
            None => Ok(JsValue::NULL),
        }
    }
}
