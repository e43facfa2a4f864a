//! The recorded run: one compact record per step, and checkpoints (clones of the warp state)
//! so that seeking to any step is "nearest checkpoint, then replay".
//!
//! Checkpoints are taken every `interval` steps; when there are more than fit (`MAX_CHECKPOINTS`,
//! or fewer when the warp's state is large: the checkpoints together stay within a memory
//! budget), every other one is dropped and the interval doubles. So memory stays bounded on long
//! runs and large kernels, at the price of longer replays, while a seek never replays more than
//! `interval` steps.

use alloc::vec::Vec;

use super::step_log::StepLog;
pub use super::step_log::{SegmentSummary, SEGMENT as RECORD_SEGMENT};
use super::WarpState;
use crate::model::{Issued, PlainStep};

pub const FIRST_INTERVAL: u64 = 1024;
pub const MAX_CHECKPOINTS: usize = 512;
/// The memory all checkpoints of one run may take, unless the caller sets another.
pub const DEFAULT_TRACE_BUDGET: usize = 128 << 20;

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

/// One executed warp instruction (stored as what changed: `StepLog`).
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
        let events = (fx.divergent as u16 * event::DIVERGE)
            | (fx.reconverged as u16 * event::RECONVERGE)
            | ((fx.pushes > 0) as u16 * event::PUSH)
            | ((fx.pops > 0) as u16 * event::POP)
            | ((fx.spills > 0) as u16 * event::SPILL)
            | ((fx.fills > 0) as u16 * event::FILL)
            | (fx.exited as u16 * event::EXIT);
        StepRecord { mask: issued.mask.0, pc: issued.pc.0, depth: depth.min(u16::MAX as usize) as u16, events }
    }
}

#[derive(Clone, Debug)]
pub struct Timeline {
    /// The step records, as what changes from step to step (about a byte a step).
    records: StepLog,
    /// (step, state after that many steps), increasing; the first is step 0.
    checkpoints: Vec<(u64, WarpState)>,
    interval: u64,
    /// The step of the next checkpoint (kept so a step needs no division).
    next_checkpoint: u64,
    recording: bool,
    /// How many checkpoints the budget holds for this warp's state (at least 2).
    max_checkpoints: usize,
}

impl Timeline {
    /// `budget`: bytes all checkpoints together may take (estimated from the initial state).
    pub fn new(initial: WarpState, recording: bool, budget: usize) -> Timeline {
        let max_checkpoints = (budget / initial.approx_bytes().max(1)).clamp(2, MAX_CHECKPOINTS);
        Timeline {
            max_checkpoints,
            records: StepLog::default(),
            checkpoints: alloc::vec![(0, initial)],
            interval: FIRST_INTERVAL,
            next_checkpoint: FIRST_INTERVAL,
            recording,
        }
    }

    /// How many steps are recorded.
    pub fn len(&self) -> usize {
        self.records.len()
    }
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }
    /// The record of step `i + 1` (the `i`th executed instruction).
    pub fn record_at(&self, i: usize) -> Option<StepRecord> {
        self.records.get(i)
    }
    /// Every record, in step order.
    pub fn records(&self) -> impl Iterator<Item = StepRecord> + '_ {
        self.records.iter()
    }
    /// Each segment of `RECORD_SEGMENT` records' summary, in order (for passes over a long run).
    pub fn record_segments(&self) -> &[SegmentSummary] {
        self.records.segments()
    }
    /// The records of steps `i + 1` on.
    pub fn records_from(&self, i: usize) -> impl Iterator<Item = StepRecord> + '_ {
        self.records.iter_from(i)
    }
    /// Every step's record (the queries over a run's records are the log's).
    pub fn log(&self) -> &StepLog {
        &self.records
    }
    /// The records of indices `from..to` that may have one of the event bits `bits`
    /// (`StepLog::records_in_segments_with`).
    pub fn records_in_segments_with(&self, bits: u16, from: usize, to: usize) -> impl Iterator<Item = (usize, StepRecord)> + '_ {
        self.records.records_in_segments_with(bits, from, to)
    }
    /// The first step after step `step` with one of the event bits `bits`.
    pub fn next_event(&self, step: usize, bits: u16) -> Option<usize> {
        self.records.next_event(step, bits)
    }
    /// The last step before step `step` with one of the event bits `bits`.
    pub fn prev_event(&self, step: usize, bits: u16) -> Option<usize> {
        self.records.prev_event(step, bits)
    }
    pub fn is_recording(&self) -> bool {
        self.recording
    }
    pub fn checkpoint_count(&self) -> usize {
        self.checkpoints.len()
    }
    /// The most checkpoints this run keeps (fewer for a large state, to stay within the budget).
    pub fn max_checkpoints(&self) -> usize {
        self.max_checkpoints
    }
    /// Bytes the step records take in memory (allocated, not only used).
    pub fn record_bytes(&self) -> usize {
        self.records.bytes()
    }
    /// About how many bytes the checkpoints take together.
    pub fn checkpoint_bytes(&self) -> usize {
        self.checkpoints.iter().map(|(_, s)| s.approx_bytes()).sum()
    }
    /// Steps between checkpoints now: the longest replay a seek may need.
    pub fn interval(&self) -> u64 {
        self.interval
    }

    /// Called after the step that brought the warp to `state` (so `state.metrics.steps >= 1`).
    #[inline(always)]
    pub fn after_step(&mut self, issued: &Issued, depth: usize, state: &WarpState) {
        if self.recording {
            self.record(StepRecord::new(issued, depth), state);
        }
    }

    #[inline]
    fn record(&mut self, record: StepRecord, state: &WarpState) {
        let step = state.metrics.steps;
        self.push(record, step);
        if step >= self.next_checkpoint {
            self.checkpoint(step, state);
        }
    }

    #[inline(always)]
    fn push(&mut self, record: StepRecord, step: u64) {
        // A replayed step (seek) is already recorded.
        if step as usize == self.records.len() + 1 {
            self.records.push(record);
        }
    }

    /// The first step after which the timeline needs the whole state (a checkpoint).
    pub(crate) fn next_whole(&self) -> u64 {
        if self.recording {
            self.next_checkpoint
        } else {
            u64::MAX
        }
    }

    /// The record of a plain step that brought the run to `step` at depth `depth` (no effect,
    /// no event), before `next_whole` (`Sim::run_fast`).
    #[inline(always)]
    pub(crate) fn record_plain(&mut self, p: PlainStep, depth: usize, step: u64) {
        let record = StepRecord { mask: p.mask.0, pc: p.pc.0, depth: depth.min(u16::MAX as usize) as u16, events: 0 };
        self.record_between(record, step);
    }

    /// The record of a step that brought the run to `step`, before `next_whole` (the fast
    /// loop's steps, which stop short of a checkpoint).
    #[inline(always)]
    pub(crate) fn record_between(&mut self, record: StepRecord, step: u64) {
        if self.recording {
            debug_assert!(step < self.next_checkpoint, "step {step} is due a checkpoint");
            self.push(record, step);
        }
    }

    #[cold]
    fn checkpoint(&mut self, step: u64, state: &WarpState) {
        self.next_checkpoint = step + self.interval;
        if self.checkpoints.last().is_some_and(|c| c.0 >= step) {
            return; // replaying after a seek: this checkpoint exists
        }
        self.checkpoints.push((step, state.clone()));
        if self.checkpoints.len() > self.max_checkpoints {
            self.interval *= 2;
            let interval = self.interval;
            self.checkpoints.retain(|(s, _)| s % interval == 0);
            self.next_checkpoint = (step / interval + 1) * interval;
        }
    }

    /// The latest checkpoint at or before `step`.
    pub fn checkpoint_before(&self, step: u64) -> &WarpState {
        let i = self.checkpoints.partition_point(|(s, _)| *s <= step);
        &self.checkpoints[i.saturating_sub(1)].1
    }
}
