//! Who wrote each element of the recorded block's shared memory: every store or atomic of the
//! block's steps that lands in a shared buffer, as (step, warp, lane, element), in step order, so
//! the memory view can say at any step which warp and lane last wrote an element (the question a
//! missing `__syncthreads()` turns on). An access is computed from the warp's state before its
//! step, once per instruction a warp stands at, and kept only for the lanes that issued.

use alloc::vec::Vec;

use crate::block::{Block, WarpWait};
use crate::isa::{AccessKind, Pc};
use crate::machine::{Access, Memory, Space};
use crate::model::Reconvergence;
use crate::program::Program;

/// Shared-memory writes one block keeps (16 bytes each): a loop that stores on every trip of a
/// long run stops being recorded there, and the view says from which step it no longer knows.
const MAX_SHARED_WRITES: usize = 1 << 20;

/// One element of a shared buffer written by one lane at one of the block's steps (1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SharedWrite {
    pub step: u32,
    pub index: u32,
    pub buffer: u16,
    pub warp: u16,
    pub lane: u8,
}

/// The access a warp's next instruction would make, worked out when it had taken `steps` steps.
#[derive(Clone, Debug)]
struct Pending {
    steps: u64,
    pc: Pc,
    access: Option<Access>,
}

#[derive(Clone, Debug, Default)]
pub(super) struct SharedWrites {
    log: Vec<SharedWrite>,
    /// By warp.
    pending: Vec<Option<Pending>>,
    /// The first step whose writes were not kept (the log was full).
    cut_at: Option<u64>,
}

impl SharedWrites {
    /// Before a fresh step: the access of each ready warp's next instruction, where it writes
    /// memory and was not worked out at this instruction already.
    pub(super) fn prepare(&mut self, block: &mut Block, memory: &mut Memory, program: &Program) {
        if self.cut_at.is_some() {
            return;
        }
        self.pending.resize(block.warps.len(), None);
        for (w, warp) in block.warps.iter_mut().enumerate() {
            let steps = warp.state.metrics.steps;
            if warp.wait != WarpWait::Ready || self.pending[w].as_ref().is_some_and(|p| p.steps == steps) {
                continue;
            }
            let Some(pc) = warp.state.model.pc() else { continue };
            let writes = program.get(pc).and_then(|i| Some((i, i.op.memory_use()?))).filter(|(_, u)| u.kind != AccessKind::Read);
            let access = writes.and_then(|(instr, _)| {
                warp.lend(memory);
                let m = &warp.state.machine;
                let a = crate::machine::access(m, instr, m.live_lanes());
                warp.take_back(memory);
                a
            });
            self.pending[w] = Some(Pending { steps, pc, access });
        }
    }

    /// After fresh step `step`: warp `w` issued `pc` on `lanes`; its shared-memory writes are
    /// kept (a lane's touches come lowest lane first, as the data path makes them, so the last
    /// kept for an element is the one that stands).
    pub(super) fn note(&mut self, step: u64, w: usize, pc: Pc, lanes: crate::machine::LaneMask, memory: &Memory) {
        let Some(p) = self.pending.get_mut(w).and_then(Option::take).filter(|_| self.cut_at.is_none()) else { return };
        let Some(access) = p.access.filter(|_| p.pc == pc) else { return };
        for t in access.touches.iter().filter(|t| lanes.contains(t.lane)) {
            let Some(cell) = t.cell.filter(|c| memory.buffers.get(c.buffer as usize).is_some_and(|b| b.space == Space::Shared)) else {
                continue;
            };
            for index in cell.index..cell.index + t.elems {
                if self.log.len() == MAX_SHARED_WRITES {
                    self.cut_at = Some(step);
                    return;
                }
                self.log.push(SharedWrite { step: step as u32, index, buffer: cell.buffer as u16, warp: w as u16, lane: t.lane as u8 });
            }
        }
    }

    /// The last write of each element `from..to` of buffer `buffer` in the block's steps up to
    /// `step`, if any.
    pub(super) fn last_writes(&self, step: u64, buffer: u32, from: u32, to: u32) -> Vec<Option<SharedWrite>> {
        let mut out = alloc::vec![None; to.saturating_sub(from) as usize];
        let upto = self.log.partition_point(|w| u64::from(w.step) <= step);
        for w in &self.log[..upto] {
            if u32::from(w.buffer) == buffer && (from..to).contains(&w.index) {
                out[(w.index - from) as usize] = Some(*w);
            }
        }
        out
    }

    pub(super) fn cut_at(&self) -> Option<u64> {
        self.cut_at
    }
}
