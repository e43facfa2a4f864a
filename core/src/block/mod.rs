//! A thread block: its warps, the barrier they meet at, and the scheduler that picks which
//! issues next (GPGPU-Sim keeps the same split: a SIMT stack per warp, a barrier set per block).
//!
//! Each warp is a `WarpState` stepped by `sim`'s transitions, its reconvergence under the
//! chosen model; the block lends it the launch's memory (global, and this block's shared
//! memory) for its steps, with its own lanes' local memory. A step is one warp instruction
//! issued by one warp.
//!
//! `BAR.SYNC` is the block's. Models that run it as one instruction of the whole warp (the
//! stacks and thread frontiers; they check that every live lane of the warp is there) arrive
//! with the whole warp: the barrier counts warps, as pre-Volta hardware does. Models with a pc
//! per lane (volta, mimd) hold each arriving lane (`Reconvergence::at_barrier`): the barrier
//! counts threads, and a warp may arrive in parts. Either way it opens once every warp that has
//! a live lane is there; the PTX ISA manual's `bar`/`barrier` section gives both rules (for
//! sm_6x and older "the arrival count is incremented by the warp size", and from sm_70 "all
//! non-exited threads" must arrive).

mod scheduler;

pub use scheduler::WarpScheduler;

use alloc::vec::Vec;

use crate::isa::Op;
use crate::machine::Memory;
use crate::model::Reconvergence;
use crate::printf::{Printed, MAX_RECORDS};
use crate::sim::{Status, WarpState, WarpSteps};

/// What a warp of a block is doing between its steps.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum WarpWait {
    /// It can issue.
    Ready,
    /// Every live lane is at the block's barrier.
    Barrier,
    /// It ended: exited, or failed (its status says how).
    Ended,
}

/// One warp of a block.
#[derive(Clone, Debug)]
pub struct Warp {
    pub state: WarpState,
    pub wait: WarpWait,
    /// Times it waited at the block's barrier.
    pub barrier_waits: u64,
    /// Its lanes' words of each per-thread buffer (local memory), by buffer, while it is not
    /// issuing.
    local: Vec<(usize, Vec<u32>)>,
    /// The records of its printf log already handed to the launch.
    printed: usize,
}

impl Warp {
    /// A warp whose lanes' local memory starts as `memory`'s buffers `per_thread` hold.
    pub fn new(state: WarpState, memory: &Memory, per_thread: &[usize]) -> Warp {
        let local = per_thread.iter().map(|&k| (k, memory.words[k].clone())).collect();
        let wait = if state.status == Status::Running { WarpWait::Ready } else { WarpWait::Ended };
        Warp { state, wait, barrier_waits: 0, local, printed: 0 }
    }

    /// Lends it `memory` (its local words in place) for its steps.
    pub fn lend(&mut self, memory: &mut Memory) {
        core::mem::swap(&mut self.state.machine.memory, memory);
        let lent = &mut self.state.machine.memory;
        for (k, words) in self.local.iter_mut() {
            core::mem::swap(&mut lent.words[*k], words);
        }
    }

    /// Takes `memory` back after its steps (`lend`'s inverse).
    pub fn take_back(&mut self, memory: &mut Memory) {
        let lent = &mut self.state.machine.memory;
        for (k, words) in self.local.iter_mut() {
            core::mem::swap(&mut lent.words[*k], words);
        }
        core::mem::swap(&mut self.state.machine.memory, memory);
    }

    /// Its wait after its steps; `issued_barrier`: the last one issued `BAR.SYNC`.
    fn wait_after(&self, steps: &WarpSteps, issued_barrier: bool) -> WarpWait {
        let st = &self.state;
        if st.status != Status::Running {
            return WarpWait::Ended;
        }
        let arrived = if steps.config.model.barrier_counts_threads() {
            let live = st.machine.live_lanes();
            !live.is_empty() && st.model.at_barrier() == live
        } else {
            issued_barrier
        };
        if arrived {
            WarpWait::Barrier
        } else {
            WarpWait::Ready
        }
    }
}

/// Why a block's run returned.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BlockEnd {
    /// Every warp exited.
    Done,
    /// This warp faulted or deadlocked (its status says how).
    Failed(usize),
    /// The step budget was used up.
    Budget,
}

/// What a block's warps printed, in the order they printed it, each record with the launch's
/// step that printed it and the warp's number in the block; at most `MAX_RECORDS` (then the
/// launch step where the rest were dropped).
#[derive(Clone, Debug, Default)]
pub struct Printout {
    pub records: Vec<(u64, u32, Printed)>,
    pub cut_at: Option<u64>,
}

impl Printout {
    /// Takes `warp`'s records past those taken before, its stretch of steps having started at
    /// its own step `local` and the launch's step `global`.
    fn take(&mut self, w: usize, warp: &mut Warp, local: u64, global: u64) {
        let log = &warp.state.machine.output;
        for r in log.records().skip(warp.printed) {
            let step = global + (r.step - local);
            if self.records.len() >= MAX_RECORDS {
                self.cut_at.get_or_insert(step);
                break;
            }
            self.records.push((step, w as u32, *r));
        }
        if let Some(cut) = log.truncated_at() {
            self.cut_at.get_or_insert(global + (cut - local));
        }
        warp.printed = log.len();
    }
}

/// A thread block's warps and their scheduler.
#[derive(Clone, Debug)]
pub struct Block {
    pub warps: Vec<Warp>,
    pub scheduler: WarpScheduler,
    /// The warp that issued last.
    last: Option<usize>,
    /// Times the barrier opened.
    pub barrier_releases: u64,
}

impl Block {
    pub fn new(warps: Vec<Warp>, scheduler: WarpScheduler) -> Block {
        Block { warps, scheduler, last: None, barrier_releases: 0 }
    }

    /// The warp that issued last.
    pub fn last(&self) -> Option<usize> {
        self.last
    }

    /// Steps its warps, at most `budget` steps, until every warp has ended or one fails.
    /// `memory` is the launch's, with this block's shared memory in it; the launch has taken
    /// `first` steps before. Returns the steps taken and why it stopped; what the warps print
    /// goes to `out`.
    pub fn run(&mut self, steps: &WarpSteps, memory: &mut Memory, budget: u64, first: u64, out: &mut Printout) -> (u64, BlockEnd) {
        let mut ran = 0u64;
        loop {
            let count = self.warps.len();
            let Some(w) = self.scheduler.pick(count, self.last, |w| self.warps[w].wait == WarpWait::Ready) else {
                // No warp can issue: every one has ended or waits at the barrier, which opens.
                if !self.open_barrier(steps) {
                    return (ran, BlockEnd::Done);
                }
                continue;
            };
            if ran >= budget {
                return (ran, BlockEnd::Budget);
            }
            self.last = Some(w);
            let warp = &mut self.warps[w];
            warp.lend(memory);
            let st = &mut warp.state;
            let before = st.metrics.steps;
            let fast = if self.scheduler.runs_on() { steps.run(st, before + (budget - ran)) } else { 0 };
            let issued_barrier = if fast == 0 {
                steps.one(st).is_some_and(|i| steps.program.get(i.pc).is_some_and(|i| matches!(i.op, Op::BarSync)))
            } else {
                false
            };
            warp.take_back(memory);
            if warp.state.machine.output.len() > warp.printed || warp.state.machine.output.truncated_at().is_some() {
                out.take(w, warp, before, first + ran);
            }
            // A failed step ends the run without a step of its own.
            ran += warp.state.metrics.steps - before;
            warp.wait = warp.wait_after(steps, issued_barrier);
            if warp.wait == WarpWait::Barrier {
                warp.barrier_waits += 1;
            }
            if warp.wait == WarpWait::Ended && warp.state.status != Status::Exited {
                return (ran, BlockEnd::Failed(w));
            }
        }
    }

    /// Opens the barrier when every warp not ended waits at it; false when none does.
    fn open_barrier(&mut self, steps: &WarpSteps) -> bool {
        if !self.warps.iter().any(|w| w.wait == WarpWait::Barrier) {
            return false;
        }
        for warp in self.warps.iter_mut().filter(|w| w.wait == WarpWait::Barrier) {
            let st = &mut warp.state;
            st.model.release_barrier(steps.program, &mut st.machine);
            warp.wait = WarpWait::Ready;
        }
        self.barrier_releases += 1;
        true
    }
}
