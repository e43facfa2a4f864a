//! A warp's steps with no timeline: how a block steps each of its warps. The transitions are the
//! one-warp `Sim`'s own (`advance`, `fast_steps`), so a warp of a block steps exactly as a warp alone.

use super::{advance, fast_steps, SimConfig, WarpState};
use crate::model::Issued;
use crate::program::{PlainPcs, Program};

/// What stepping any warp of a launch needs besides the warp: the program and the run's choices.
pub struct WarpSteps<'a> {
    pub program: &'a Program,
    pub plain: &'a PlainPcs,
    pub config: &'a SimConfig,
    /// The launch's warp width (a block's partial last warp is narrower).
    pub warp_width: u32,
}

impl WarpSteps<'_> {
    /// One step of `st`; `None` when it had ended or the step ended it (its status says how).
    pub fn one(&self, st: &mut WarpState) -> Option<Issued> {
        advance(self.program, self.plain, self.config, st).map(|(issued, _)| issued)
    }

    /// Steps in a row up to step `stop` of this warp, short of a `BAR.SYNC` (which `one` takes,
    /// so the block sees the arrival) and of any step only `one` takes. How many ran (none is
    /// not the end: take `one`).
    pub fn run(&self, st: &mut WarpState, stop: u64) -> u64 {
        fast_steps(self.program, self.plain, self.config, st, stop, None, 0, true).0
    }
}
