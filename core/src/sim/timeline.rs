//! The recorded run: one compact record per step, and checkpoints (clones of the warp state)
//! so that seeking to any step is "nearest checkpoint, then replay".
//!
//! Checkpoints are taken every `interval` steps; when there are more than `MAX_CHECKPOINTS`,
//! every other one is dropped and the interval doubles, so memory stays bounded on long runs
//! while a seek never replays more than `interval` steps.

use alloc::vec::Vec;

use super::WarpState;
use crate::model::Issued;

pub const FIRST_INTERVAL: u64 = 256;
pub const MAX_CHECKPOINTS: usize = 512;

/// Event bits of a step record.
pub mod event {
    pub const DIVERGE: u16 = 1;
    pub const RECONVERGE: u16 = 2;
    pub const PUSH: u16 = 4;
    pub const POP: u16 = 8;
    pub const SPILL: u16 = 16;
    pub const FILL: u16 = 32;
    pub const EXIT: u16 = 64;
}

/// One executed warp instruction, 16 bytes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct StepRecord {
    pub mask: u64,
    pub pc: u32,
    /// Stack depth after the step.
    pub depth: u16,
    pub events: u16,
}

impl StepRecord {
    pub fn new(issued: &Issued, depth: usize) -> StepRecord {
        let fx = &issued.effects;
        let mut events = 0;
        let flags = [
            (fx.divergent, event::DIVERGE),
            (fx.reconverged, event::RECONVERGE),
            (fx.pushes > 0, event::PUSH),
            (fx.pops > 0, event::POP),
            (fx.spills > 0, event::SPILL),
            (fx.fills > 0, event::FILL),
            (fx.exited, event::EXIT),
        ];
        for (on, bit) in flags {
            if on {
                events |= bit;
            }
        }
        StepRecord { mask: issued.mask.0, pc: issued.pc.0, depth: depth.min(u16::MAX as usize) as u16, events }
    }
}

#[derive(Clone, Debug)]
pub struct Timeline {
    records: Vec<StepRecord>,
    /// (step, state after that many steps), increasing; the first is step 0.
    checkpoints: Vec<(u64, WarpState)>,
    interval: u64,
    recording: bool,
}

impl Timeline {
    pub fn new(initial: WarpState, recording: bool) -> Timeline {
        Timeline { records: Vec::new(), checkpoints: alloc::vec![(0, initial)], interval: FIRST_INTERVAL, recording }
    }

    pub fn records(&self) -> &[StepRecord] {
        &self.records
    }
    pub fn is_recording(&self) -> bool {
        self.recording
    }
    pub fn checkpoint_count(&self) -> usize {
        self.checkpoints.len()
    }

    /// Called after the step that brought the warp to `state` (so `state.metrics.steps >= 1`).
    #[inline]
    pub fn after_step(&mut self, issued: &Issued, depth: usize, state: &WarpState) {
        if self.recording {
            self.record(StepRecord::new(issued, depth), state);
        }
    }

    fn record(&mut self, record: StepRecord, state: &WarpState) {
        let step = state.metrics.steps;
        if step as usize == self.records.len() + 1 {
            self.records.push(record);
        }
        let last = self.checkpoints.last().map_or(0, |c| c.0);
        if step % self.interval == 0 && step > last {
            self.checkpoints.push((step, state.clone()));
            if self.checkpoints.len() > MAX_CHECKPOINTS {
                self.interval *= 2;
                let interval = self.interval;
                self.checkpoints.retain(|(s, _)| s % interval == 0);
            }
        }
    }

    /// The latest checkpoint at or before `step`.
    pub fn checkpoint_before(&self, step: u64) -> &WarpState {
        let i = self.checkpoints.partition_point(|(s, _)| *s <= step);
        &self.checkpoints[i.saturating_sub(1)].1
    }
}
