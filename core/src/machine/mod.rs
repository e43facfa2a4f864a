//! The warp's data: lanes, registers, predicates, global memory, exited lanes and the clock, and
//! where a memory instruction's lanes land (`access`).
//! Plain owned data, so a checkpoint is a clone. Control flow lives in `model`, not here.

mod access;
mod exec;
mod lanes;
mod memory;

pub use access::{access, Access, CellTouch, Touch};
pub use exec::{check_members, execute, member_lanes, shfl_source, BadAccess, ExecError, MemberFault, SEGMENT_BYTES};
pub use lanes::*;
pub use memory::*;

use alloc::vec;
use alloc::vec::Vec;

use crate::isa::{BarRed, BarRedKind, Guard, Pred, Reg};
use crate::printf::OutputLog;

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Machine {
    /// The warp width W (1..=64).
    pub width: u32,
    /// Registers stored per lane: the highest register the program or its inputs name, plus one.
    pub nregs: u32,
    /// Register-major: register `r` of lane `l` is at `r * stride + l` (see `stride`).
    pub regs: Vec<u32>,
    /// One lane mask per predicate register `P0`..`P6`: a guard is a single AND.
    pub preds: [LaneMask; Pred::FILE],
    pub memory: Memory,
    pub exited: LaneMask,
    /// Cycles so far under the cost model; `S2R SR_CLOCKLO/HI` reads it.
    pub clock: u64,
    /// Memory instructions that did work, and the 128-byte segments they touched (each
    /// instruction counts the distinct segments of its lanes' addresses: its transactions).
    pub mem_instructions: u64,
    pub mem_transactions: u64,
    /// Where this warp sits in its launch: what `SR_TID`, `SR_NTID`, `SR_CTAID` and `SR_NCTAID` read.
    pub launch: Launch,
    /// What `PRINTF` printed so far, per lane (formatted only when shown).
    pub output: OutputLog,
    /// The first read of a shared word no lane of this warp had written: in a real launch the
    /// block's other warps may write it first; this one warp reads what shared memory started
    /// with (`session::warnings` says so after the run).
    pub unwritten_read: Option<UnwrittenRead>,
    /// What the last `BAR.RED` reduced over the threads at its barrier, for `B2R.RESULT`.
    pub bar_result: u32,
    /// A host program's one-lane machine, whose runner serves its `HOST` calls (on a GPU's
    /// warp a `HOST` is a fault).
    pub host: bool,
    /// Each lane's memory accesses of the step, when a check watches the run (`crate::sanitize`);
    /// off (`None`) otherwise, so runs pay nothing for it.
    pub accesses: Option<Vec<LaneAccess>>,
}

/// One lane's access of `bytes` at `addr`, logged for the checks.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct LaneAccess {
    pub lane: u32,
    pub addr: u32,
    pub bytes: u32,
    pub kind: crate::isa::AccessKind,
    /// It read bytes never written (as `Memory`'s written bits track them): a shared byte no
    /// thread of the block wrote, a `cudaMalloc` byte no copy or launch wrote.
    pub unwritten: bool,
}

/// Lane `lane` read shared memory at `addr` before any lane of its warp wrote it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct UnwrittenRead {
    pub lane: u32,
    pub addr: u32,
}

/// The launch one warp belongs to: the grid and block dimensions, its block's index and its
/// place in the block. The emulator runs this one warp; the rest of the launch is only named.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Launch {
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub block_idx: [u32; 3],
    /// The block-linear index of lane 0's thread: lane `l` is thread `first_thread + l` (a
    /// warp's first thread is its number times the warp size, also in a partial last warp).
    pub first_thread: u32,
}

impl Launch {
    /// One block of `width` threads (one warp): `SR_TID.X` is the lane.
    pub fn single(width: u32) -> Launch {
        Launch { grid: [1, 1, 1], block: [width, 1, 1], block_idx: [0, 0, 0], first_thread: 0 }
    }

    /// A lane's thread index in its block, x fastest (a dimension of 0 reads as 1).
    pub fn thread_idx(&self, lane: u32) -> [u32; 3] {
        let linear = self.first_thread.wrapping_add(lane);
        let (bx, by) = (self.block[0].max(1), self.block[1].max(1));
        [linear % bx, linear / bx % by, linear / bx / by]
    }
}

impl Machine {
    pub fn new(width: u32, nregs: u32, memory: Memory) -> Machine {
        let width = width.clamp(1, MAX_WARP);
        Machine {
            width,
            nregs,
            regs: vec![0; (nregs * stride_for(width)) as usize],
            preds: [LaneMask::EMPTY; Pred::FILE],
            memory,
            exited: LaneMask::EMPTY,
            clock: 0,
            mem_instructions: 0,
            mem_transactions: 0,
            launch: Launch::single(width),
            output: OutputLog::default(),
            unwritten_read: None,
            bar_result: 0,
            host: false,
            accesses: None,
        }
    }

    /// Slots per register row: the width rounded up to 32 or 64, so the data path works on
    /// fixed-size rows (which vectorise) and lanes past the width are padding.
    #[inline]
    pub fn stride(&self) -> u32 {
        stride_for(self.width)
    }

    pub fn all_lanes(&self) -> LaneMask {
        LaneMask::full(self.width)
    }

    /// Lanes that have not exited.
    pub fn live_lanes(&self) -> LaneMask {
        self.all_lanes().without(self.exited)
    }

    #[inline]
    pub fn reg(&self, lane: u32, r: Reg) -> u32 {
        if r.is_zero() || r.0 as u32 >= self.nregs {
            return 0;
        }
        self.regs[(r.0 as u32 * self.stride() + lane) as usize]
    }

    #[inline]
    pub fn set_reg(&mut self, lane: u32, r: Reg, v: u32) {
        if !r.is_zero() && (r.0 as u32) < self.nregs {
            let at = (r.0 as u32 * self.stride() + lane) as usize;
            self.regs[at] = v;
        }
    }

    #[inline]
    pub fn pred(&self, lane: u32, p: Pred) -> bool {
        p.is_true() || self.preds[p.0 as usize].contains(lane)
    }

    #[inline]
    pub fn set_pred(&mut self, lane: u32, p: Pred, v: bool) {
        if !p.is_true() {
            let m = &mut self.preds[p.0 as usize];
            *m = if v { m.with(lane) } else { m.without(LaneMask::lane(lane)) };
        }
    }

    /// 32-bit words of registers and memory: what a copy or a comparison of the state costs.
    pub fn state_words(&self) -> usize {
        self.regs.len() + self.memory.words.iter().map(Vec::len).sum::<usize>()
    }

    /// `red` over `lanes`: how many hold its predicate, or whether all or any do (1 or 0).
    pub fn bar_reduce(&self, red: BarRed, lanes: LaneMask) -> u32 {
        let holds = lanes.iter().filter(|&l| self.pred(l, red.pred.pred) != red.pred.negated).count() as u32;
        match red.kind {
            BarRedKind::Popc => holds,
            BarRedKind::And => (holds == lanes.count()) as u32,
            BarRedKind::Or => (holds > 0) as u32,
        }
    }

    /// The lanes of `mask` whose guard holds (all of them without a guard).
    pub fn guard_mask(&self, guard: Option<Guard>, mask: LaneMask) -> LaneMask {
        let Some(g) = guard else { return mask };
        let holds = if g.pred.is_true() { mask } else { self.preds[g.pred.0 as usize] };
        if g.negated {
            mask.without(holds)
        } else {
            mask & holds
        }
    }
}

#[inline]
fn stride_for(width: u32) -> u32 {
    if width <= 32 {
        32
    } else {
        MAX_WARP
    }
}
