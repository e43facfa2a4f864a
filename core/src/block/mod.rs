//! A thread block: its warps, the barriers they meet at, and the scheduler that picks which
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
//! counts threads, and a warp may arrive in parts (`barrier` says how each is counted).

mod barrier;
mod scheduler;

pub use barrier::BarWait;
pub use scheduler::WarpScheduler;

use alloc::format;
use alloc::string::String;
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
    /// Every live lane is at a barrier of the block.
    Barrier,
    /// It ended: exited, or failed (its status says how).
    Ended,
}

/// One warp of a block.
#[derive(Clone, Debug)]
pub struct Warp {
    pub state: WarpState,
    pub wait: WarpWait,
    /// The barrier its arrived lanes wait at.
    pub at: Option<BarWait>,
    /// Times it waited at a barrier of the block.
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
        Warp { state, wait, at: None, barrier_waits: 0, local, printed: 0 }
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

    /// Where it is after its steps; `barrier`: the last one issued `BAR.SYNC` at this pc with
    /// some lane's guard holding. A barrier instruction that names no barrier is a fault.
    fn settle(&mut self, steps: &WarpSteps, barrier: Option<crate::isa::Pc>) {
        let st = &mut self.state;
        if st.status != Status::Running {
            (self.wait, self.at) = (WarpWait::Ended, None);
            return;
        }
        let live = st.machine.live_lanes();
        let width = steps.warp_width;
        let arrived = if steps.config.model.barrier_counts_threads() {
            let held = st.model.at_barrier();
            let first = held.iter().next();
            first.and_then(|l| st.model.lane_pc(steps.program, l)).map(|pc| (pc, held, held.count(), held == live))
        } else {
            barrier.map(|pc| (pc, live, st.machine.width, true))
        };
        let Some((pc, lanes, threads, whole)) = arrived else {
            (self.wait, self.at) = (WarpWait::Ready, None);
            return;
        };
        let instr = steps.program.get(pc).expect("a barrier in the program");
        match BarWait::read(instr, pc, &st.machine, lanes, threads, width) {
            Ok(at) => {
                if self.at.is_none() {
                    self.barrier_waits += 1;
                }
                self.at = Some(at);
                self.wait = if whole { WarpWait::Barrier } else { WarpWait::Ready };
            }
            Err(message) => {
                st.status = Status::Fault { pc, message, access: None };
                (self.wait, self.at) = (WarpWait::Ended, None);
            }
        }
    }
}

/// What sees each step of a watched run: the launch's step number, the warp's number in its
/// block, what issued, and the warp after the step.
pub type StepWatch<'a> = dyn FnMut(u64, usize, &crate::model::Issued, &WarpState) + 'a;

/// Why a block's run returned.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum BlockEnd {
    /// Every warp exited.
    Done,
    /// This warp faulted or deadlocked (its status says how).
    Failed(usize),
    /// No warp can issue and no barrier can open: where each warp waits, in words.
    Stuck(String),
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
    /// Times a barrier opened.
    pub barrier_releases: u64,
    /// The `random` scheduler's state.
    rng: u64,
}

impl Block {
    /// A block of `warps`; `seed` starts the `random` scheduler's sequence (the block's number,
    /// so each block has its own and every run the same).
    pub fn new(warps: Vec<Warp>, scheduler: WarpScheduler, seed: u64) -> Block {
        let rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        Block { warps, scheduler, last: None, barrier_releases: 0, rng }
    }

    /// The warp that issued last.
    pub fn last(&self) -> Option<usize> {
        self.last
    }

    /// Steps its warps, at most `budget` steps, until every warp has ended or one fails.
    /// `memory` is the launch's, with this block's shared memory in it; the launch has taken
    /// `first` steps before. Returns the steps taken and why it stopped; what the warps print
    /// goes to `out`. With `watch`, every step is taken alone and shown to it: the launch's
    /// step number, the warp, what issued and the warp after the step.
    pub fn run(
        &mut self,
        steps: &WarpSteps,
        memory: &mut Memory,
        budget: u64,
        first: u64,
        out: &mut Printout,
        mut watch: Option<&mut StepWatch>,
    ) -> (u64, BlockEnd) {
        let mut ran = 0u64;
        loop {
            let count = self.warps.len();
            let warps = &self.warps;
            let Some(w) = self.scheduler.pick(count, self.last, &mut self.rng, |w| warps[w].wait == WarpWait::Ready) else {
                if self.warps.iter().all(|w| w.wait == WarpWait::Ended) {
                    return (ran, BlockEnd::Done);
                }
                if !self.open_barriers(steps) {
                    return (ran, BlockEnd::Stuck(self.describe_waits(steps)));
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
            let fast = if self.scheduler.runs_on() && watch.is_none() { steps.run(st, before + (budget - ran)) } else { 0 };
            let barrier = if fast == 0 {
                let issued = steps.one(st);
                if let (Some(i), Some(watch)) = (issued, watch.as_deref_mut()) {
                    watch(first + ran + 1, w, &i, st);
                }
                // The step's accesses were the watch's to see (`Machine::accesses`).
                if let Some(log) = st.machine.accesses.as_mut() {
                    log.clear();
                }
                issued.and_then(|i| arrives(steps, st, i))
            } else {
                None
            };
            warp.take_back(memory);
            // New records, or a cut the launch has not noted yet (once noted, a full log is not
            // walked again each turn).
            let log = &warp.state.machine.output;
            if log.len() > warp.printed || (log.truncated_at().is_some() && out.cut_at.is_none()) {
                out.take(w, warp, before, first + ran);
            }
            // A failed step ends the run without a step of its own.
            ran += warp.state.metrics.steps - before;
            let waited = warp.at.is_some();
            warp.settle(steps, barrier);
            if warp.wait == WarpWait::Ended && warp.state.status != Status::Exited {
                return (ran, BlockEnd::Failed(w));
            }
            // An arrival, or an exit that lowers what a barrier waits for.
            if waited || warp.at.is_some() || warp.wait == WarpWait::Ended {
                self.open_barriers(steps);
            }
        }
    }

    /// Opens every barrier whose threads have all arrived; whether one opened.
    fn open_barriers(&mut self, steps: &WarpSteps) -> bool {
        let mut opened = false;
        for id in 0..16u8 {
            if self.warps.iter().any(|w| w.at.is_some_and(|a| a.id == id)) && self.complete(id, steps) {
                self.open(id, steps);
                opened = true;
            }
        }
        opened
    }

    /// Whether barrier `id` has the threads it waits for.
    fn complete(&self, id: u8, steps: &WarpSteps) -> bool {
        let waiting = || self.warps.iter().filter_map(|w| w.at.filter(|a| a.id == id));
        let arrived: u32 = waiting().map(|a| a.threads).sum();
        let expected = match waiting().find_map(|a| a.count) {
            Some(n) => n,
            None => {
                let threads = steps.config.model.barrier_counts_threads();
                let live = self.warps.iter().filter(|w| w.wait != WarpWait::Ended).map(|w| &w.state.machine);
                live.map(|m| if threads { m.live_lanes().count() } else { m.width }).sum()
            }
        };
        arrived >= expected
    }

    /// Lets barrier `id`'s warps go on, each with the block's reduction.
    fn open(&mut self, id: u8, steps: &WarpSteps) {
        let at = |w: &Warp| w.at.filter(|a| a.id == id);
        let red = self.warps.iter().find_map(|w| at(w).and_then(|a| a.red));
        let result = red.map(|r| {
            let parts = self.warps.iter().filter_map(|w| at(w).map(|a| w.state.machine.bar_reduce(r, a.lanes)));
            parts.fold(r.kind.identity(), |acc, p| r.kind.combine(acc, p))
        });
        for warp in self.warps.iter_mut().filter(|w| at(w).is_some()) {
            let st = &mut warp.state;
            if let Some(v) = result {
                st.machine.bar_result = v;
            }
            st.model.release_barrier(steps.program, &mut st.machine);
            (warp.wait, warp.at) = (WarpWait::Ready, None);
        }
        self.barrier_releases += 1;
    }

    /// Where each warp waits, when none can go on: `warp 0 waits at barrier 1 at `...` (…) for
    /// 64 threads, 32 arrived; warp 1 exited`.
    fn describe_waits(&self, steps: &WarpSteps) -> String {
        let parts: Vec<String> = self
            .warps
            .iter()
            .enumerate()
            .map(|(k, w)| match (w.wait, w.at) {
                (WarpWait::Ended, _) => format!("warp {k} exited"),
                (_, Some(a)) => {
                    let arrived: u32 = self.warps.iter().filter_map(|w| w.at.filter(|b| b.id == a.id)).map(|b| b.threads).sum();
                    let wants = a.count.map_or(String::from("every thread of the block"), |n| format!("{n} threads"));
                    format!("warp {k} waits at {} for {wants}, {arrived} arrived", a.describe(steps.program))
                }
                (_, None) => format!("warp {k} cannot issue"),
            })
            .collect();
        format!("no warp of the block can go on: {}", parts.join("; "))
    }
}

/// The pc of the barrier `issued` arrived at, for a model that runs it for the whole warp: a
/// `BAR.SYNC` where some lane's guard held.
fn arrives(steps: &WarpSteps, st: &WarpState, issued: crate::model::Issued) -> Option<crate::isa::Pc> {
    let instr = steps.program.get(issued.pc)?;
    let guarded = st.machine.guard_mask(instr.guard, issued.mask);
    (matches!(instr.op, Op::BarSync { .. }) && !guarded.is_empty()).then_some(issued.pc)
}
