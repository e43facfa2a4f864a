//! What a warp, a block and the whole launch issued, as ncu counts it.

/// Instruction counts and divergence of a warp, a block or a launch.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Totals {
    /// Warp instructions issued (ncu's `smsp__inst_executed.sum`).
    pub warp_instructions: u64,
    /// Threads that issued each one, summed (`smsp__thread_inst_executed.sum`).
    pub thread_instructions: u64,
    /// Of those, the threads whose guard held (`smsp__thread_inst_executed_pred_on.sum`).
    pub thread_instructions_pred_on: u64,
    /// Branches that split a warp's lanes.
    pub divergent_branches: u64,
    /// Times a warp waited at a block's barrier.
    pub barrier_waits: u64,
    /// Steps: warp instructions, and the parts of a real SASS instruction's sequence.
    pub steps: u64,
    /// Cycles under the cost model, summed over warps (as one scheduler issuing every warp's
    /// instructions in turn would take, hiding no latency).
    pub cycles: u64,
    /// The deepest any warp's reconvergence stack went.
    pub max_stack_depth: u64,
    /// Reconvergence stack pushes, pops, spills and fills, summed over warps.
    pub pushes: u64,
    pub pops: u64,
    pub spills: u64,
    pub fills: u64,
    /// Steps that issued with no lane (tf-sandy's idle instructions).
    pub idle_instructions: u64,
    /// Memory instructions that did work, and the 128-byte segments they touched.
    pub memory_instructions: u64,
    pub memory_transactions: u64,
}

impl Totals {
    /// One warp's, from its state at its end.
    pub fn of_warp(st: &crate::sim::WarpState, barrier_waits: u64) -> Totals {
        let m = &st.metrics;
        Totals {
            idle_instructions: m.idle_instructions,
            memory_instructions: st.machine.mem_instructions,
            memory_transactions: st.machine.mem_transactions,
            warp_instructions: m.warp_instructions,
            thread_instructions: m.active_thread_instructions,
            thread_instructions_pred_on: m.thread_instructions,
            divergent_branches: m.divergent_branches,
            barrier_waits,
            steps: m.steps,
            cycles: m.cycles,
            max_stack_depth: m.max_stack_depth,
            pushes: m.pushes,
            pops: m.pops,
            spills: m.spills,
            fills: m.fills,
        }
    }

    /// As a sweep point's or the page's metrics: thread instructions as ncu counts them (every
    /// thread that issued), so SIMD efficiency is ncu's threads per instruction over the width.
    pub fn point(&self, width: u32) -> crate::sim::PointMetrics {
        crate::sim::PointMetrics {
            steps: self.steps,
            warp_instructions: self.warp_instructions,
            thread_instructions: self.thread_instructions,
            simd_efficiency: self.simd_efficiency(width),
            pushes: self.pushes,
            pops: self.pops,
            max_stack_depth: self.max_stack_depth,
            spills: self.spills,
            fills: self.fills,
            divergent_branches: self.divergent_branches,
            cycles: self.cycles,
            clock_window: 0,
        }
    }

    pub fn add(&mut self, o: &Totals) {
        self.warp_instructions += o.warp_instructions;
        self.thread_instructions += o.thread_instructions;
        self.thread_instructions_pred_on += o.thread_instructions_pred_on;
        self.divergent_branches += o.divergent_branches;
        self.barrier_waits += o.barrier_waits;
        self.steps += o.steps;
        self.cycles += o.cycles;
        self.max_stack_depth = self.max_stack_depth.max(o.max_stack_depth);
        self.pushes += o.pushes;
        self.pops += o.pops;
        self.spills += o.spills;
        self.fills += o.fills;
        self.idle_instructions += o.idle_instructions;
        self.memory_instructions += o.memory_instructions;
        self.memory_transactions += o.memory_transactions;
    }

    /// As the compare table's report of a run: the launch's counts, with no MIMD minimum (each
    /// warp alone would not read what the block's other warps write) and no per-block counts.
    pub fn report(&self, width: u32) -> crate::sim::RunReport {
        crate::sim::RunReport {
            steps: self.steps,
            warp_instructions: self.warp_instructions,
            thread_instructions: self.thread_instructions,
            activity_factor: self.simd_efficiency(width),
            divergent_branches: self.divergent_branches,
            max_stack_depth: self.max_stack_depth,
            cycles: self.cycles,
            idle_instructions: self.idle_instructions,
            memory_instructions: self.memory_instructions,
            memory_transactions: self.memory_transactions,
            block_counts: alloc::vec::Vec::new(),
            mimd_block_counts: alloc::vec::Vec::new(),
            mimd_warp_instructions: 0,
            mimd_complete: false,
            transforms: None,
        }
    }

    /// Threads per warp instruction (ncu's `smsp__thread_inst_executed_per_inst_executed.ratio`).
    pub fn threads_per_instruction(&self) -> f64 {
        if self.warp_instructions == 0 {
            return 0.0;
        }
        self.thread_instructions as f64 / self.warp_instructions as f64
    }

    /// SIMD efficiency: threads per instruction over the warp width (1.0 when no lane idles;
    /// a block's partial last warp counts as a whole warp, as on hardware).
    pub fn simd_efficiency(&self, width: u32) -> f64 {
        if self.warp_instructions == 0 {
            return 1.0;
        }
        self.threads_per_instruction() / width.max(1) as f64
    }
}
