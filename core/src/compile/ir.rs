//! The compiler's intermediate form: per function, basic blocks of instructions (`ins::Ins`
//! values) with a terminator each. Lowering builds it with plain branches only; `reconverge` then adds what a
//! target needs (SSY/SYNC or BSSY/BSYNC at immediate post-dominators), and `emit` lays it out.

use alloc::string::String;
use alloc::vec::Vec;

pub use super::ins::Ins;
use super::ins::Opcode;
use crate::cfg::{BlockId, Cfg, Edge, EdgeKind};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Term {
    /// Not yet terminated (only while lowering).
    Open,
    Jump(BlockId),
    /// `@P BRA taken`, otherwise `fall`.
    Branch {
        pred: u8,
        neg: bool,
        taken: BlockId,
        fall: BlockId,
    },
    /// `EXIT`: the lanes leave the kernel.
    Exit,
    /// `RET`: back to the caller.
    Ret,
    /// Kepler `BRK`: park until the loop's BRK token brings the lanes back at its exit.
    Brk,
    /// Kepler `CONT`: park until the CONT token brings the lanes back at the loop's latch.
    Cont,
    /// Kepler `SYNC`: pop a token; for the CFG, control reaches the given block.
    Sync(BlockId),
}

impl Term {
    /// The instruction of a terminator that takes lanes out of the flow, if this is one.
    pub fn leaving_op(self) -> Option<Opcode> {
        match self {
            Term::Exit => Some(Opcode::Exit),
            Term::Ret => Some(Opcode::Ret),
            Term::Brk => Some(Opcode::Brk),
            Term::Cont => Some(Opcode::Cont),
            _ => None,
        }
    }
}

#[derive(Clone, PartialEq, Debug)]
pub struct Block {
    pub label: String,
    pub instrs: Vec<Ins>,
    pub term: Term,
    /// The source line of the terminator (for the branch or jump instruction).
    pub term_line: u32,
    /// The jump is a `goto` out of a loop, and this is the exit of the innermost loop it leaves.
    /// On Volta the analyses see the jump as leaving that loop normally, so the loop keeps its
    /// own reconvergence point, and the jump leaves the barriers on its way with `BREAK`.
    pub escape: Option<BlockId>,
    /// The branch is uniform (PTX `bra.uni`): the lanes are known to agree, so no reconvergence
    /// is placed for it and it is written `BRA.U`.
    pub uniform: bool,
}

#[derive(Clone, PartialEq, Debug, Default)]
pub struct Func {
    pub name: String,
    pub blocks: Vec<Block>,
    /// Layout order; blocks not listed are never emitted.
    pub order: Vec<BlockId>,
    /// The string literals its instructions name (`Operand::Str`).
    pub strings: Vec<String>,
}

impl Func {
    pub fn block(&self, b: BlockId) -> &Block {
        &self.blocks[b.index()]
    }
    pub fn block_mut(&mut self, b: BlockId) -> &mut Block {
        &mut self.blocks[b.index()]
    }

    pub fn new_block(&mut self, label: String) -> BlockId {
        self.blocks.push(Block { label, instrs: Vec::new(), term: Term::Open, term_line: 0, escape: None, uniform: false });
        BlockId(self.blocks.len() as u32 - 1)
    }

    /// Whether control can reach block `b` from the entry (the first block) along the edges
    /// built so far.
    pub fn reaches(&self, b: BlockId) -> bool {
        let mut seen = alloc::vec![false; self.blocks.len()];
        let mut work = alloc::vec![BlockId(0)];
        while let Some(x) = work.pop() {
            if core::mem::replace(&mut seen[x.index()], true) {
                continue;
            }
            work.extend(self.succs(x));
        }
        seen[b.index()]
    }

    /// Where control can go from `b` along branch, jump and sync edges.
    pub fn succs(&self, b: BlockId) -> Vec<BlockId> {
        match self.block(b).term {
            Term::Jump(t) | Term::Sync(t) => alloc::vec![t],
            Term::Branch { taken, fall, .. } => alloc::vec![taken, fall],
            _ => Vec::new(),
        }
    }

    /// The CFG of the laid-out blocks, for the analyses. Every terminator that leaves the
    /// function's flow (exit, return, break, continue) is an exit of the graph: lanes that take
    /// it stop needing a reconvergence point here.
    /// With `loop_escapes`, a `goto` out of loops counts as an exit of the innermost loop it
    /// leaves (see `Block::escape`).
    pub fn cfg(&self, loop_escapes: bool) -> Cfg {
        let n = self.blocks.len();
        let mut edges = Vec::new();
        let mut exits = Vec::new();
        for &b in &self.order {
            let succs = match self.block(b).escape {
                Some(exit) if loop_escapes => alloc::vec![exit],
                _ => self.succs(b),
            };
            // A guarded `@P BRK` (from if-conversion) lets lanes leave from the middle of a block.
            let leaves_inside = self.block(b).instrs.iter().any(|i| i.guard.is_some() && i.leaves());
            if (succs.is_empty() && self.block(b).term != Term::Open) || leaves_inside {
                exits.push(b);
            }
            for (k, to) in succs.into_iter().enumerate() {
                let kind = if k == 0 { EdgeKind::Taken } else { EdgeKind::FallThrough };
                edges.push(Edge { from: b, to, kind });
            }
        }
        Cfg::from_edges(n, self.order.first().copied(), &edges, &exits)
    }
}
