//! The metrics of the thread-frontier paper for one finished run, computed in one place for the
//! CLI, the compare table and the tests: dynamic warp and thread instructions, activity factor,
//! per-block counts against the MIMD minimum (code expansion), stack depth, cycles, instructions
//! issued with no lane, and memory efficiency (transactions per warp memory instruction).

use alloc::vec::Vec;

use super::reference::{ideal_fetches, IdealFetches};
use super::Sim;
use crate::cfg::build;

#[derive(Clone, PartialEq, Debug)]
pub struct RunReport {
    pub steps: u64,
    pub warp_instructions: u64,
    pub thread_instructions: u64,
    /// Active lanes over W x warp instructions (the paper's activity factor).
    pub activity_factor: f64,
    pub divergent_branches: u64,
    pub max_stack_depth: u64,
    pub cycles: u64,
    pub idle_instructions: u64,
    pub memory_instructions: u64,
    pub memory_transactions: u64,
    /// Executions of each block's first instruction. Under STRUCT, of each block of the
    /// original program, its copies' executions added (so columns of a comparison line up).
    pub block_counts: Vec<u64>,
    /// The fewest fetches of each block any scheme needs (the most runs by one lane).
    pub mimd_block_counts: Vec<u64>,
    /// Warp instructions the MIMD minimum needs in all.
    pub mimd_warp_instructions: u64,
    /// False when the MIMD run did not finish, so the minimum counts only part of the kernel.
    pub mimd_complete: bool,
    /// STRUCT: the transforms applied and the static code they cost.
    pub transforms: Option<crate::structure::TransformCounts>,
}

impl RunReport {
    /// The report of `sim` as it stands (run it to the end first for the whole kernel's).
    pub fn of(sim: &Sim) -> RunReport {
        let st = sim.state();
        let m = &st.metrics;
        let initial = sim.timeline().checkpoint_before(0).machine.clone();
        // Each lane runs at most what the warp issued, so a finished run bounds its reference;
        // for one that stopped early (an endless loop) no minimum exists, and the reference
        // gets the same budget the run had, not W times it (that took minutes).
        let width = st.machine.width as u64;
        let budget = match st.status {
            super::Status::Exited => m.steps.saturating_mul(2 * width).max(1 << 20),
            _ => m.steps.max(1 << 16),
        };
        let budget = budget.min(sim.config().step_limit.saturating_mul(width));
        // STRUCT is measured against the kernel as written: the MIMD minimum of the original,
        // each copy of an instruction counted against its original's.
        let (ideal, blocks, mimd_blocks): (IdealFetches, Vec<u64>, Vec<u64>) = match sim.structured() {
            Some(s) => {
                let own = ideal_fetches(&s.original, initial, sim.config(), budget);
                let original = build(&s.original);
                let mut runs = alloc::vec![0u64; s.original.len()];
                for (pc, o) in s.origin.iter().enumerate() {
                    if let (Some(o), Some(&n)) = (o, m.instr_counts.get(pc)) {
                        runs[o.index()] += n;
                    }
                }
                let blocks = original.blocks.iter().map(|b| runs.get(b.start.index()).copied().unwrap_or(0)).collect();
                let mimd = own.block_counts(&original);
                (own, blocks, mimd)
            }
            None => {
                let own = ideal_fetches(sim.program(), initial, sim.config(), budget);
                let graph = build(sim.program());
                let (blocks, mimd) = (m.block_counts(&graph), own.block_counts(&graph));
                (own, blocks, mimd)
            }
        };
        RunReport {
            steps: m.steps,
            warp_instructions: m.warp_instructions,
            thread_instructions: m.thread_instructions,
            activity_factor: m.simd_efficiency(st.machine.width),
            divergent_branches: m.divergent_branches,
            max_stack_depth: m.max_stack_depth,
            cycles: m.cycles,
            idle_instructions: m.idle_instructions,
            memory_instructions: st.machine.mem_instructions,
            memory_transactions: st.machine.mem_transactions,
            block_counts: blocks,
            mimd_block_counts: mimd_blocks,
            mimd_warp_instructions: ideal.total(),
            mimd_complete: ideal.complete,
            transforms: sim.structured().map(|s| s.counts),
        }
    }

    /// Warp instructions over the MIMD minimum, minus one: 0.0 when no instruction runs more
    /// often than some lane needs it.
    pub fn code_expansion(&self) -> f64 {
        if self.mimd_warp_instructions == 0 {
            return 0.0;
        }
        self.warp_instructions as f64 / self.mimd_warp_instructions as f64 - 1.0
    }

    /// Transactions per warp memory instruction (1.0 when every access is coalesced).
    pub fn transactions_per_memory_instruction(&self) -> f64 {
        if self.memory_instructions == 0 {
            return 0.0;
        }
        self.memory_transactions as f64 / self.memory_instructions as f64
    }
}
