//! One warp of the recorded block seen over the block's time: its step records laid on the
//! block's steps, a record wherever it issued and a hold (no lane, no event, its depth and pc
//! kept) wherever another warp did, so the one-warp views of a run (the stack plot, the
//! scrubber's event strip, next and previous event, lanes per step) read a launch's focused
//! warp as they read a warp run alone.

use crate::model::Reconvergence;
use crate::sim::{StepLog, StepRecord};

use super::RecordedLaunch;

impl RecordedLaunch {
    /// Warp `w`'s records over the block's recorded steps (one per block step).
    pub fn focus_log(&self, w: usize) -> StepLog {
        let start = self.checkpoints[0].block.warps.get(w).map_or(0, |warp| warp.state.model.depth());
        let mut held = StepRecord { mask: 0, pc: 0, depth: start as u16, events: 0 };
        let mut own = self.records.get(w).map(StepLog::iter);
        let mut log = StepLog::default();
        for i in 0..self.issuers.len() {
            if self.issuers.get(i) == Some(w) {
                if let Some(r) = own.as_mut().and_then(Iterator::next) {
                    held = StepRecord { mask: 0, events: 0, ..r };
                    log.push(r);
                    continue;
                }
            }
            log.push(held);
        }
        log
    }

    /// Warp `w`'s record of the block's current step, if it issued it.
    pub fn record_now(&self, w: usize) -> Option<StepRecord> {
        (self.issuer(self.step) == Some(w)).then(|| self.last_issued(w)).flatten()
    }

    /// The configuration every warp runs under.
    pub fn config(&self) -> &crate::sim::SimConfig {
        &self.launcher.code.config
    }

    /// The launch's steps before this block began.
    pub fn steps_before(&self) -> u64 {
        self.before
    }

    /// Whether warp `w`'s live lanes wait at one of the block's barriers now.
    pub fn at_barrier(&self, w: usize) -> bool {
        self.block.warps.get(w).is_some_and(|warp| warp.wait == crate::block::WarpWait::Barrier)
    }

    /// The first of the block's steps after `from + 1` and up to `to` where the issuing warp ran
    /// an instruction at one of `pcs`: the step before it (where that warp stands at the
    /// breakpoint) and the warp.
    pub fn first_issue_at(&self, pcs: &[crate::isa::Pc], from: u64, to: u64) -> Option<(u64, usize)> {
        let mut seen = alloc::vec![0usize; self.records.len()];
        for i in 0..(from as usize + 1).min(self.issuers.len()) {
            if let Some(w) = self.issuers.get(i) {
                seen[w] += 1;
            }
        }
        let mut readers: alloc::vec::Vec<_> = self.records.iter().zip(&seen).map(|(r, &k)| r.iter_from(k)).collect();
        for i in (from as usize + 1)..(to as usize).min(self.issuers.len()) {
            let w = self.issuers.get(i)?;
            let r = readers[w].next()?;
            if pcs.iter().any(|p| p.0 == r.pc) {
                return Some((i as u64, w));
            }
        }
        None
    }

    /// What the block's step `t` did to memory, with the block put at step `t` (seek): the
    /// access of the instruction the issuing warp ran, read from its registers before the step,
    /// for the lanes it issued; `None` for step 0 or an instruction that does not access memory.
    pub fn seek_with_access(&mut self, t: u64) -> Option<crate::sim::StepAccess> {
        let Some(before) = t.checked_sub(1).filter(|&b| b < self.recorded()) else {
            self.seek(t);
            return None;
        };
        self.seek(before);
        let pending = self.issuer(t).and_then(|w| {
            let pc = self.block.warps[w].state.model.pc()?;
            let instr = self.launcher.code.program.get(pc)?.clone();
            instr.op.memory_use()?;
            let warp = &mut self.block.warps[w];
            warp.lend(&mut self.launcher.memory);
            let all = crate::machine::access(&warp.state.machine, &instr, warp.state.machine.live_lanes());
            warp.take_back(&mut self.launcher.memory);
            Some((w, pc, instr, all?))
        });
        let issued = self.step();
        let ((w, pc, instr, all), (issuer, issued)) = (pending?, issued?);
        if issuer != w || issued.pc != pc {
            return None;
        }
        let access = all.within(issued.mask);
        let cells = access.cells();
        let text = crate::sim::describe_access(&alloc::format!("step {t}, warp {w}"), &instr, &access, &cells, &self.launcher.memory);
        Some(crate::sim::StepAccess { step: t, pc, access, cells, text })
    }
}
