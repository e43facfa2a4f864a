//! The warps of a block: each one's machine, made from one evaluated first warp (every warp's
//! inputs are the same but for where it sits in the launch).

use alloc::vec::Vec;

use crate::block::Warp;
use crate::machine::{LaneMask, Launch, Machine, Memory};
use crate::program::Program;
use crate::sim::{SimConfig, WarpState};

/// What makes a block's warps.
#[derive(Clone, Debug)]
pub struct WarpMaker {
    /// A whole first warp, its registers as the inputs set them, its memory taken out.
    pub first: Machine,
    /// Warp width.
    pub width: u32,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    /// Buffers of which each warp has its own copy (local memory).
    pub per_thread: Vec<usize>,
}

impl WarpMaker {
    pub fn block_threads(&self) -> u32 {
        self.block.iter().product()
    }

    pub fn warps_per_block(&self) -> u32 {
        self.block_threads().div_ceil(self.width)
    }

    /// Warp `w` of the block at `block_idx`, started on `program` with `memory` lent to it.
    pub fn warp(&self, program: &Program, config: &SimConfig, block_idx: [u32; 3], w: u32, memory: &mut Memory) -> Warp {
        let lanes = (self.block_threads() - w * self.width).min(self.width);
        let mut machine = if lanes == self.first.width { self.first.clone() } else { narrowed(&self.first, lanes) };
        machine.launch = Launch { grid: self.grid, block: self.block, block_idx, first_thread: w * self.width };
        machine.memory = core::mem::take(memory);
        let mut state = WarpState::start(program, machine, config, true);
        *memory = core::mem::take(&mut state.machine.memory);
        Warp::new(state, memory, &self.per_thread)
    }
}

/// The first `lanes` lanes of `m` (a block's partial last warp).
fn narrowed(m: &Machine, lanes: u32) -> Machine {
    let mut n = Machine::new(lanes, m.nregs, Memory::default());
    let (from, to) = (m.stride() as usize, n.stride() as usize);
    for r in 0..m.nregs as usize {
        n.regs[r * to..r * to + lanes as usize].copy_from_slice(&m.regs[r * from..r * from + lanes as usize]);
    }
    for (p, q) in n.preds.iter_mut().zip(m.preds.iter()) {
        *p = *q & LaneMask::full(lanes);
    }
    n
}
