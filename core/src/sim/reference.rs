//! The MIMD reference a SIMD scheme is measured against: how often each instruction must be
//! fetched at least. A warp instruction serves each lane at most once, so an instruction that
//! some lane runs k times needs at least k fetches under any scheme; `ideal_fetches` runs the
//! `mimd` model (every lane on its own) and keeps, per pc, the most runs of any one lane.
//! Code expansion is a scheme's warp instructions over that minimum.

use alloc::vec;
use alloc::vec::Vec;

use super::{Sim, SimConfig, Status};
use crate::cfg::ProgramCfg;
use crate::machine::Machine;
use crate::model::ModelKind;
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
    let per_pc = (0..n).map(|pc| (0..width).map(|l| runs[l * n + pc]).max().unwrap_or(0)).collect();
    let complete = sim.state().status == Status::Exited;
    IdealFetches { per_pc, complete }
}
