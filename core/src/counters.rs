//! Nsight Compute's per-instruction counters over a whole launch (issue 49), for any model: how
//! often each instruction was issued by a warp, by how many threads, by how many with their
//! predicate on, and how many branch targets (divergent ones apart) its executions had. ncu's
//! source page shows the same per SASS address; its whole-launch metrics are their sums:
//!
//! | here | ncu |
//! |---|---|
//! | `inst_executed` | `smsp__inst_executed.sum` (Instructions Executed) |
//! | `thread_inst_executed` | `smsp__thread_inst_executed.sum` (Thread Instructions Executed) |
//! | `thread_inst_executed_pred_on` | `smsp__thread_inst_executed_pred_on.sum` (Predicated-On Thread Instructions Executed) |
//! | `branch_targets` | `smsp__sass_branch_targets.sum` |
//! | `branch_targets_divergent` | `smsp__sass_branch_targets_threads_divergent.sum` |
//!
//! Counted from each step the launch issues (`grid::Launcher::run_whole` with a watch), so the
//! counts are the model's: a stack model issues each side of a split once per side, as
//! pre-Volta GPUs did; volta issues what its lane groups issue.

use alloc::vec;
use alloc::vec::Vec;

use crate::grid::{LaunchRun, Launcher};
use crate::isa::{Op, Pc};
use crate::machine::LaneMask;
use crate::program::Program;

/// One instruction's counts.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Counts {
    /// Warp-level executions (a divide C compiles to one instruction counts the instructions
    /// its SASS sequence issues).
    pub inst_executed: u64,
    /// Threads that executed it: the lanes issued, guard or not.
    pub thread_inst_executed: u64,
    /// Threads whose guard held.
    pub thread_inst_executed_pred_on: u64,
    /// Of a branch: its executions (ncu counts one target each, divergent or not).
    pub branch_targets: u64,
    /// Those whose threads went two ways: some jumped, some fell through.
    pub branch_targets_divergent: u64,
    /// Of a branch with a condition of its own (`@P0 BRA P1, L`): threads whose guard held and
    /// whose condition did not, so they did not jump. ncu's source page counts them predicated
    /// on; its metric `smsp__thread_inst_executed_pred_on` does not (`Counts::metric_pred_on`).
    pub thread_branch_condition_off: u64,
    /// Of a `BSYNC`: threads that waited there and that ncu's metrics count as issuing it
    /// again when a group the GPU had set aside releases them (`model::Effects::recounted`);
    /// its source page does not count them (`Counts::metric_threads`).
    pub thread_recounted: u64,
}

impl Counts {
    pub fn add(&mut self, o: &Counts) {
        self.inst_executed += o.inst_executed;
        self.thread_inst_executed += o.thread_inst_executed;
        self.thread_inst_executed_pred_on += o.thread_inst_executed_pred_on;
        self.branch_targets += o.branch_targets;
        self.branch_targets_divergent += o.branch_targets_divergent;
        self.thread_branch_condition_off += o.thread_branch_condition_off;
        self.thread_recounted += o.thread_recounted;
    }

    /// The threads ncu's metric `smsp__thread_inst_executed` counts: the source page's and
    /// those a released `BSYNC` counts again.
    pub fn metric_threads(&self) -> u64 {
        self.thread_inst_executed + self.thread_recounted
    }

    /// The threads ncu's metric `smsp__thread_inst_executed_pred_on` counts, which of a
    /// conditional branch counts only those whose guard and condition both held, and counts
    /// a released `BSYNC`'s waiting threads again.
    pub fn metric_pred_on(&self) -> u64 {
        self.thread_inst_executed_pred_on - self.thread_branch_condition_off + self.thread_recounted
    }

    /// ncu's five whole-launch metrics of these counts (`smsp__inst_executed.sum` to
    /// `smsp__sass_branch_targets_threads_divergent.sum`, `session::counters::COUNTER_NAMES`' order).
    pub fn metrics(&self) -> [u64; 5] {
        [self.inst_executed, self.metric_threads(), self.metric_pred_on(), self.branch_targets, self.branch_targets_divergent]
    }
}

/// A launch's counts, by pc of its program.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Counters {
    pub by_pc: Vec<Counts>,
}

impl Counters {
    pub fn new(program: &Program) -> Counters {
        Counters { by_pc: vec![Counts::default(); program.len()] }
    }

    /// One step: `pc` issued for `mask`, of which `on` had their guard hold (for a sequence's
    /// later part, `outer` had the SASS instruction's guard hold), and `recounted` threads
    /// that waited are counted again (`Counts::thread_recounted`). A later part issues nothing
    /// of its own; its branch is the instruction's, counted at the sequence's first part.
    pub fn count(&mut self, program: &Program, pc: Pc, mask: LaneMask, on: LaneMask, outer: LaneMask, recounted: u8) {
        let Some(instr) = program.get(pc) else { return };
        let head = program.sequence_head(pc);
        let Some(c) = self.by_pc.get_mut(head.index()) else { return };
        if head == pc {
            c.inst_executed += instr.op.issues() as u64;
            c.thread_inst_executed += mask.count() as u64;
            c.thread_inst_executed_pred_on += on.count() as u64;
            c.thread_recounted += recounted as u64;
        }
        if matches!(instr.op, Op::Bra { .. }) {
            // One target an execution, as ncu counts them on an H100 (`examples/ncu`): a
            // divergent one (lanes whose guard held jump, the others fall through) is one
            // divergent target too.
            c.branch_targets += 1;
            if !on.is_empty() && !mask.without(on).is_empty() {
                c.branch_targets_divergent += 1;
            }
            if head != pc {
                c.thread_branch_condition_off += outer.without(on).count() as u64;
            }
        }
    }

    /// One step as a launch's watch sees it (`st`, the warp after the step): a control
    /// instruction's threads (and a SASS sequence's) are those its guard held for, which the
    /// step does not write.
    pub fn count_issued(&mut self, program: &Program, issued: &crate::model::Issued, st: &crate::sim::WarpState) {
        // A sequence's threads are the SASS instruction's: its guard's.
        let on = match (program.sequence_guard(issued.pc), program.get(issued.pc)) {
            (Some(guard), _) => st.machine.guard_mask(guard, issued.mask),
            (None, Some(i)) if i.op.is_control() => st.machine.guard_mask(i.guard, issued.mask),
            _ => issued.work,
        };
        let head = program.sequence_head(issued.pc);
        let outer = match program.sequence_guard(head) {
            Some(guard) if head != issued.pc => st.machine.guard_mask(guard, issued.mask),
            _ => on,
        };
        self.count(program, issued.pc, issued.mask, on, outer, issued.effects.recounted);
    }

    /// Every instruction's counts added.
    pub fn total(&self) -> Counts {
        let mut t = Counts::default();
        self.by_pc.iter().for_each(|c| t.add(c));
        t
    }
}

/// Runs `launcher`'s launch to its end, counting every step; the counts and the launch's results.
pub fn count_launch(mut launcher: Launcher) -> (Counters, LaunchRun) {
    let program = launcher.code.program.clone();
    let mut counters = Counters::new(&program);
    let blocks: Vec<[u32; 3]> = launcher.code.blocks().collect();
    for block_idx in blocks {
        let mut watch = |_step: u64, _warp: usize, issued: &crate::model::Issued, st: &crate::sim::WarpState| {
            counters.count_issued(&program, issued, st);
        };
        if !launcher.run_whole(block_idx, Some(&mut watch)) {
            break;
        }
    }
    (counters, launcher.finish())
}
