//! Run metrics, counted as the warp steps.

use alloc::vec;
use alloc::vec::Vec;

use crate::cfg::ProgramCfg;
use crate::model::Issued;

#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Metrics {
    pub steps: u64,
    pub warp_instructions: u64,
    /// Sum over warp instructions of the lanes that did their work (guard held).
    pub thread_instructions: u64,
    pub pushes: u64,
    pub pops: u64,
    pub max_stack_depth: u64,
    pub spills: u64,
    pub fills: u64,
    pub divergent_branches: u64,
    pub cycles: u64,
    /// Warp instructions issued with no lane at their pc (thread frontiers on Sandy Bridge).
    pub idle_instructions: u64,
    /// Executions of each instruction, by pc.
    pub instr_counts: Vec<u64>,
}

impl Metrics {
    pub fn new(program_len: usize) -> Metrics {
        Metrics { instr_counts: vec![0; program_len], ..Metrics::default() }
    }

    pub fn record(&mut self, issued: &Issued, depth: usize, cycles: u64) {
        let fx = &issued.effects;
        self.steps += 1;
        self.warp_instructions += 1;
        self.thread_instructions += issued.work.count() as u64;
        self.pushes += fx.pushes as u64;
        self.pops += fx.pops as u64;
        self.spills += fx.spills as u64;
        self.fills += fx.fills as u64;
        self.divergent_branches += fx.divergent as u64;
        self.max_stack_depth = self.max_stack_depth.max(depth as u64);
        self.cycles += cycles;
        self.idle_instructions += issued.mask.is_empty() as u64;
        if let Some(c) = self.instr_counts.get_mut(issued.pc.index()) {
            *c += 1;
        }
    }

    /// Executions of each block: how often its first instruction ran.
    pub fn block_counts(&self, cfg: &ProgramCfg) -> Vec<u64> {
        cfg.blocks.iter().map(|b| self.instr_counts.get(b.start.index()).copied().unwrap_or(0)).collect()
    }

    /// Active lanes over (W x warp instructions): 1.0 when no lane ever idles. This is the
    /// thread-frontier paper's activity factor.
    pub fn simd_efficiency(&self, width: u32) -> f64 {
        if self.warp_instructions == 0 {
            return 1.0;
        }
        self.thread_instructions as f64 / (width as f64 * self.warp_instructions as f64)
    }
}
