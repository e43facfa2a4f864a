//! Runs that can never end, found and explained.
//!
//! A step is a pure function of the program, the machine and the model state, so if the warp's
//! state (all of it but the clock and the counters) repeats, the run repeats forever: the SIMT
//! deadlock of a spin lock under a stack model is the classic case. `RepeatWatch` samples the
//! state every `interval` steps and compares it with one saved sample (Brent's cycle finding:
//! the saved sample moves to the current one at powers of two), so a repeating run is reported
//! after at most a few times its period, at the cost of one comparison per `interval` steps.
//! `LoopSite` says where a looping warp is and which lanes wait on what, for the deadlock
//! message and for a run stopped by the step limit.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::{advance, SimConfig, WarpState};
use crate::isa::Pc;
use crate::machine::{LaneList, LaneMask, Machine};
use crate::model::{EntryKind, ModelState, Reconvergence};
use crate::program::Program;

/// The fewest steps between samples; larger states are sampled less often, so the comparison
/// stays a small share of a step's cost.
const MIN_INTERVAL: u64 = 1024;
/// The most steps replayed to find a loop's extent.
const SITE_STEPS: u64 = 65_536;

pub(super) struct RepeatWatch {
    interval: u64,
    next: u64,
    /// The step of the saved sample, and its state.
    saved: Option<(u64, Machine, ModelState)>,
    samples: u64,
    power: u64,
    /// The program reads the clock, so the clock is part of the state that must repeat.
    with_clock: bool,
}

impl RepeatWatch {
    pub fn new(program: &Program, state: &WarpState) -> RepeatWatch {
        let interval = (state.machine.state_words() as u64 / 8).max(MIN_INTERVAL).next_power_of_two();
        let reads_clock = program.instrs.iter().any(|i| i.op.clock_word().is_some());
        RepeatWatch { interval, next: state.metrics.steps + interval, saved: None, samples: 0, power: 1, with_clock: reads_clock }
    }

    /// The next sample point.
    pub fn next(&self) -> u64 {
        self.next
    }

    /// True when `steps` is a sample point (one comparison per step when it is not).
    #[inline(always)]
    pub fn due(&self, steps: u64) -> bool {
        steps >= self.next
    }

    /// Samples `st`; the step of an earlier sample with the same state, if there is one.
    pub fn check(&mut self, st: &WarpState) -> Option<u64> {
        let steps = st.metrics.steps;
        self.next = steps + self.interval;
        if let Some((at, m, model)) = &self.saved {
            if *model == st.model && self.same_machine(m, &st.machine) {
                return Some(*at);
            }
        }
        self.samples += 1;
        if self.saved.is_none() || self.samples >= self.power {
            self.saved = Some((steps, st.machine.clone(), st.model.clone()));
            self.samples = 0;
            self.power *= 2;
        }
        None
    }

    /// The output log is left out: a loop that prints forever never ends either.
    fn same_machine(&self, a: &Machine, b: &Machine) -> bool {
        a.regs == b.regs
            && a.preds == b.preds
            && a.exited == b.exited
            && a.memory == b.memory
            && a.nregs == b.nregs
            && (!self.with_clock || a.clock == b.clock)
    }
}

/// Where a warp that keeps running is, read from a replay of its next steps.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct LoopSite {
    /// The lowest pc the loop runs: its head, where an editor shows the loop.
    pub head: Pc,
    /// The highest pc it runs.
    pub last: Pc,
    /// The lanes that run in the loop.
    pub running: LaneMask,
    /// The other live lanes, grouped by where they resume and what holds them.
    pub waiting: Vec<Waiting>,
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Waiting {
    pub lanes: LaneMask,
    pub pc: Pc,
    /// The model's name for the entry that holds them (`DIV`, `RECONV`, `BSYNC B0` ...).
    pub held_by: Option<&'static str>,
}

/// Replays up to `steps` steps from `st` (capped) and says which pcs and lanes they ran.
pub fn loop_site(program: &Program, config: &SimConfig, st: &WarpState, steps: u64) -> Option<LoopSite> {
    let mut scratch = st.clone();
    let (mut lo, mut hi, mut running) = (u32::MAX, 0, LaneMask::EMPTY);
    for _ in 0..steps.clamp(1, SITE_STEPS) {
        let Some((issued, _)) = advance(program, &crate::program::PlainPcs::none(), config, &mut scratch) else { break };
        lo = lo.min(issued.pc.0);
        hi = hi.max(issued.pc.0);
        running |= issued.mask;
    }
    if running.is_empty() {
        return None;
    }
    let live = st.machine.live_lanes();
    let entries = st.model.stack();
    let mut waiting: Vec<Waiting> = Vec::new();
    for lane in live.without(running).iter() {
        let Some(pc) = st.model.lane_pc(program, lane) else { continue };
        // The innermost entry holding the lane that is not the one about to run.
        let held_by = entries.iter().rev().find(|e| e.mask.contains(lane) && !matches!(e.kind, EntryKind::Run)).map(|e| e.kind.name());
        match waiting.iter_mut().find(|w| w.pc == pc && w.held_by == held_by) {
            Some(w) => w.lanes = w.lanes.with(lane),
            None => waiting.push(Waiting { lanes: LaneMask::lane(lane), pc, held_by }),
        }
    }
    Some(LoopSite { head: Pc(lo), last: Pc(hi), running, waiting })
}

impl LoopSite {
    /// "lanes 1-31 run the loop at 0x0040-0x0070 (lines 13-14); lane 0 waits at 0x0078 (line 15), held by a DIV entry"
    pub fn describe(&self, program: &Program) -> String {
        let (a, b) = (program.addr(self.head), program.addr(self.last));
        let lines = match (program.line(self.head), program.line(self.last)) {
            (Some(x), Some(y)) if x == y => format!(" (line {x})"),
            (Some(x), Some(y)) => format!(" (lines {}-{})", x.min(y), x.max(y)),
            _ => String::new(),
        };
        let verb = if self.running.count() == 1 { "runs" } else { "run" };
        let mut s = format!("{} {} {verb} the loop at {a:#06x}-{b:#06x}{lines}", LaneList(self.running).word(), LaneList(self.running));
        for w in &self.waiting {
            let line = program.line(w.pc).map_or(String::new(), |l| format!(" (line {l})"));
            s += &format!(
                "; {} {} {} at {:#06x}{line}",
                LaneList(w.lanes).word(),
                LaneList(w.lanes),
                if w.lanes.count() == 1 { "waits" } else { "wait" },
                program.addr(w.pc)
            );
            if let Some(kind) = w.held_by {
                s += &format!(", held by a {kind} entry");
            }
        }
        s
    }
}

/// The deadlock message for a state that repeats the one of step `since`.
pub fn repeat_message(program: &Program, config: &SimConfig, st: &WarpState, since: u64) -> (Pc, String) {
    let now = st.metrics.steps;
    let head = st.model.pc().unwrap_or_default();
    let site = loop_site(program, config, st, now - since);
    let where_ = site.as_ref().map_or(String::new(), |s| format!(": {}", s.describe(program)));
    let message = format!(
        "the warp can never finish: its state after step {now} is the one it had after step {since}, so it repeats forever{where_}"
    );
    (site.map_or(head, |s| s.head), message)
}
