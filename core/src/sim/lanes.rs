//! What each lane is doing: for the state about to issue, and for any window of recorded steps
//! (the lane view's grid), replayed from a checkpoint without touching the timeline.

use alloc::vec::Vec;

use super::{advance, fast_steps, Sim, WarpState};
use crate::isa::Pc;
use crate::machine::LaneMask;
use crate::model::{Issued, Reconvergence};
use crate::program::Program;

/// A lane's part in one step.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[repr(u8)]
pub enum LaneState {
    /// Issued, and its guard held (for control flow: every issued lane).
    Active = 0,
    /// Issued, but its guard predicate was false.
    Masked = 1,
    /// Not issued: waiting on the reconvergence stack (or at a barrier).
    Waiting = 2,
    Exited = 3,
}

impl LaneState {
    pub fn name(self) -> &'static str {
        match self {
            LaneState::Active => "active",
            LaneState::Masked => "masked",
            LaneState::Waiting => "waiting",
            LaneState::Exited => "exited",
        }
    }
    pub(crate) fn of(lane: u32, issued: LaneMask, work: LaneMask, exited: LaneMask) -> LaneState {
        if exited.contains(lane) {
            LaneState::Exited
        } else if work.contains(lane) {
            LaneState::Active
        } else if issued.contains(lane) {
            LaneState::Masked
        } else {
            LaneState::Waiting
        }
    }
}

impl WarpState {
    /// Each lane's state for the instruction about to issue, lane 0 first (a warp of a launch's
    /// block as well as a warp alone: the state and the program say it all).
    pub fn next_lane_states(&self, program: &Program) -> Vec<LaneState> {
        let m = &self.machine;
        let issued = self.model.issuing(program);
        let work = match self.model.pc().and_then(|pc| program.get(pc)) {
            Some(i) if !i.op.is_control() => m.guard_mask(i.guard, issued),
            _ => issued,
        };
        (0..m.width).map(|l| LaneState::of(l, issued, work, m.exited)).collect()
    }

    /// Each lane's pc: where it runs next (active) or resumes (waiting); `None` once exited.
    pub fn lane_pc(&self, program: &Program, lane: u32) -> Option<Pc> {
        if self.machine.exited.contains(lane) {
            return None;
        }
        self.model.lane_pc(program, lane)
    }
}

/// The most steps one `lane_window` call covers.
pub const MAX_WINDOW: u64 = 4096;

impl Sim {
    /// Each lane's state for the instruction about to issue, lane 0 first.
    pub fn next_lane_states(&self) -> Vec<LaneState> {
        self.state.next_lane_states(&self.program)
    }

    /// Each lane's pc: where it runs next (active) or resumes (waiting); `None` once exited.
    pub fn lane_pc(&self, lane: u32) -> Option<Pc> {
        self.state.lane_pc(&self.program, lane)
    }

    /// Replays steps `from + 1 ..= to` of the recorded run on a copy of the state (the timeline
    /// and the current state stay as they are), calling `f` after each with the step's issue, the
    /// lanes exited before it, and the state after it.
    pub fn replay(&self, from: u64, to: u64, mut f: impl FnMut(&Issued, LaneMask, &WarpState)) {
        let to = to.min(self.timeline.len() as u64);
        // From the current state when it lies between the checkpoint and `from` (a lane window
        // just after a seek): fewer steps to replay than from the checkpoint.
        let checkpoint = self.timeline.checkpoint_before(from);
        let near = (checkpoint.metrics.steps..=from).contains(&self.steps());
        let mut st: WarpState = if near { self.state.clone() } else { checkpoint.clone() };
        while st.metrics.steps < from {
            if self.fast && fast_steps(&self.program, &self.plain, &self.config, &mut st, from, None, 0, false).0 > 0 {
                continue;
            }
            if advance(&self.program, &self.plain, &self.config, &mut st).is_none() {
                return;
            }
        }
        while st.metrics.steps < to {
            let exited = st.machine.exited;
            let Some((issued, _)) = advance(&self.program, &self.plain, &self.config, &mut st) else { break };
            f(&issued, exited, &st);
        }
    }

    /// Lane states of steps `from + 1 ..= to` (at most `MAX_WINDOW` steps, within the recorded
    /// run), W per step.
    pub fn lane_window(&self, from: u64, to: u64) -> Vec<LaneState> {
        let to = to.min(from.saturating_add(MAX_WINDOW));
        let width = self.state.machine.width;
        let mut out = Vec::with_capacity((to.saturating_sub(from) * width as u64) as usize);
        self.replay(from, to, |issued, exited, _| out.extend((0..width).map(|l| LaneState::of(l, issued.mask, issued.work, exited))));
        out
    }
}
