//! The MIMD reference a SIMD scheme is measured against: how often each instruction must be
//! fetched at least. A warp instruction serves each lane at most once, so an instruction that
//! some lane runs k times needs at least k fetches under any scheme; `ideal_fetches` runs the
//! `mimd` model (every lane on its own) and keeps, per pc, the most runs of any one lane.
//! Code expansion is a scheme's warp instructions over that minimum.
//!
//! When the lanes cannot affect each other, every interleaving of their runs gives each lane the
//! same path, so the counts can come from a run that steps the lanes at one pc together (the PDOM
//! stack: a warp instruction per group, not per lane) instead of one lane at a time: the same
//! answer, about as fast as the run it measures. Lanes can affect each other through warp-wide
//! instructions (shuffles, votes, barriers), atomics, the clock, a trap, and memory one lane
//! writes and another touches; a kernel with any of the first kinds is run one lane at a time,
//! and the grouped run watches every access and gives way to it at the first word two lanes
//! share that one of them writes.

use alloc::collections::BTreeMap;
use alloc::vec;
use alloc::vec::Vec;

use super::{Sim, SimConfig, Status};
use crate::cfg::ProgramCfg;
use crate::isa::Op;
use crate::machine::{access, Machine};
use crate::model::{ModelKind, Reconvergence};
use crate::program::Program;

/// Per-pc minimum fetch counts, and whether the MIMD run finished.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct IdealFetches {
    pub per_pc: Vec<u64>,
    /// False when the MIMD run stopped early (deadlock, fault, step limit): the counts are then
    /// those of the part that ran.
    pub complete: bool,
}

impl IdealFetches {
    pub fn total(&self) -> u64 {
        self.per_pc.iter().sum()
    }
    /// Per block: the minimum fetches of its first instruction.
    pub fn block_counts(&self, cfg: &ProgramCfg) -> Vec<u64> {
        cfg.blocks.iter().map(|b| self.per_pc.get(b.start.index()).copied().unwrap_or(0)).collect()
    }
}

/// Runs `program` on `machine` with every lane independent and counts the fewest fetches, for at
/// most `max_steps` steps (one lane each); a repeating state ends it early, as it ends any run.
pub fn ideal_fetches(program: &Program, machine: Machine, config: &SimConfig, max_steps: u64) -> IdealFetches {
    grouped(program, machine.clone(), config, max_steps).unwrap_or_else(|| one_lane_at_a_time(program, machine, config, max_steps))
}

/// No instruction through which a lane sees another (memory aside, which `grouped` watches).
fn lanes_cannot_meet(program: &Program) -> bool {
    program.instrs.iter().all(|i| match i.op {
        Op::Shfl { .. } | Op::Vote { .. } | Op::Redux { .. } | Op::Match { .. } | Op::BarSync { .. } | Op::Warpsync { .. } => false,
        Op::Atom { .. } | Op::Trap => false,
        Op::S2r { .. } | Op::Cs2r { .. } => i.op.clock_word().is_none(),
        _ => true,
    })
}

/// Who has touched a word of memory so far.
#[derive(Clone, Copy, PartialEq, Eq)]
enum WordUse {
    Read(u32),
    ReadByMany,
    Written(u32),
}

/// The counts from a run of the lanes at one pc together, or `None` when the lanes may meet (a
/// warp-wide instruction, an atomic, the clock, a trap), did meet in memory, or the run did not
/// finish (its partial counts would depend on the order the lanes ran in).
pub fn grouped(program: &Program, machine: Machine, config: &SimConfig, max_steps: u64) -> Option<IdealFetches> {
    if !lanes_cannot_meet(program) {
        return None;
    }
    let width = machine.width as usize;
    let n = program.len();
    let cfg = SimConfig { model: ModelKind::Pdom, record: false, step_limit: max_steps, ..*config };
    let mut sim = Sim::new(program.clone(), machine, cfg);
    let mut runs = vec![0u64; width * n];
    let mut words: BTreeMap<u32, WordUse> = BTreeMap::new();
    let mut thread_steps = 0u64;
    loop {
        let st = sim.state();
        if let (Some(pc), true) = (st.model.pc(), st.status == Status::Running) {
            if let Some(a) = program.get(pc).and_then(|i| access(&st.machine, i, st.model.active() & st.machine.live_lanes())) {
                for t in &a.touches {
                    let word =
                        words.entry(t.addr & !3).or_insert(if a.kind.writes() { WordUse::Written(t.lane) } else { WordUse::Read(t.lane) });
                    *word = match (*word, a.kind.writes()) {
                        (WordUse::Written(l), _) if l == t.lane => WordUse::Written(l),
                        (WordUse::Read(l), true) if l == t.lane => WordUse::Written(l),
                        (WordUse::Read(l), false) if l == t.lane => WordUse::Read(l),
                        (WordUse::Read(_) | WordUse::ReadByMany, false) => WordUse::ReadByMany,
                        _ => return None,
                    };
                }
            }
        }
        let Some(issued) = sim.step() else { break };
        if sim.watch_repeat() {
            break;
        }
        for lane in issued.mask.iter() {
            if let Some(c) = runs.get_mut(lane as usize * n + issued.pc.index()) {
                *c += 1;
            }
        }
        // The budget is the one-lane-at-a-time run's: thread instructions.
        thread_steps += issued.mask.count() as u64;
        if thread_steps >= max_steps {
            break;
        }
    }
    if sim.state().status != Status::Exited {
        return None;
    }
    Some(IdealFetches { per_pc: most_per_pc(&runs, width, n), complete: true })
}

fn most_per_pc(runs: &[u64], width: usize, n: usize) -> Vec<u64> {
    (0..n).map(|pc| (0..width).map(|l| runs[l * n + pc]).max().unwrap_or(0)).collect()
}

/// The reference as defined: the `mimd` model, one lane per step in turn.
pub fn one_lane_at_a_time(program: &Program, machine: Machine, config: &SimConfig, max_steps: u64) -> IdealFetches {
    let width = machine.width as usize;
    let n = program.len();
    let cfg = SimConfig { model: ModelKind::Mimd, record: false, step_limit: max_steps, ..*config };
    let mut sim = Sim::new(program.clone(), machine, cfg);
    let mut runs = vec![0u64; width * n];
    while let Some(issued) = sim.step() {
        if sim.watch_repeat() {
            break;
        }
        if let Some(lane) = issued.mask.iter().next() {
            if let Some(c) = runs.get_mut(lane as usize * n + issued.pc.index()) {
                *c += 1;
            }
        }
        if sim.steps() >= sim.config().step_limit {
            break;
        }
    }
    let per_pc = most_per_pc(&runs, width, n);
    let complete = sim.state().status == Status::Exited;
    IdealFetches { per_pc, complete }
}
