//! The lanes view's shuffle exchange: which lane each lane read at the current step (a `SHFL`),
//! from the core's `Sim::step_exchange`.

use serde::Serialize;
use ts_rs::TS;
use warpscope_core::sim::Sim;

#[derive(Serialize, TS)]
pub struct ExchangeView {
    pub step: f64,
    /// Per lane: the lane whose value it got, or -1 for a lane that did not run the shuffle.
    pub sources: Vec<i32>,
    /// Lanes whose source was out of range or not running: they kept their own value.
    pub kept: Vec<u32>,
    /// The core's sentence (`step 12: SHFL.DOWN: lanes 0-15 got the value of the lane 16 above`).
    pub text: String,
}

impl ExchangeView {
    /// The exchange of the step just taken, if it was a shuffle.
    pub fn new(sim: &Sim) -> Option<ExchangeView> {
        let ex = sim.step_exchange(sim.steps())?;
        Some(ExchangeView {
            step: ex.step as f64,
            sources: ex.sources.iter().map(|s| s.map_or(-1, |l| l as i32)).collect(),
            kept: ex.kept.iter().collect(),
            text: ex.text,
        })
    }
}
