//! The control-flow graph value that every analysis takes: basic blocks with typed ids,
//! successor and predecessor lists, one entry and a list of exit blocks.
//!
//! Built from a program by `cfg::build`, or directly with `Cfg::from_edges` (tests, random graphs).

use alloc::vec::Vec;
use core::fmt;

/// A basic block, numbered in layout (address) order. Prints as `BB3`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BlockId(pub u32);

impl BlockId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for BlockId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "BB{}", self.0)
    }
}

/// Why control goes from one block to another.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum EdgeKind {
    /// The target of a branch (BRA, BRK, CONT, CAL, RET) taken.
    Taken,
    /// Falling through to the next instruction in layout order.
    FallThrough,
    /// Where a pop (`SYNC`, `.S`) sends the warp: the matching `SSY` target.
    Sync,
}

impl EdgeKind {
    /// The one spelling every front end uses (`fallthrough` is also a CSS class in the app).
    pub fn name(self) -> &'static str {
        match self {
            EdgeKind::Taken => "taken",
            EdgeKind::FallThrough => "fallthrough",
            EdgeKind::Sync => "sync",
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Edge {
    pub from: BlockId,
    pub to: BlockId,
    pub kind: EdgeKind,
}

/// A control-flow graph over `n` blocks `BB0..BB{n-1}`.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Cfg {
    succs: Vec<Vec<BlockId>>,
    preds: Vec<Vec<BlockId>>,
    edges: Vec<Edge>,
    entry: Option<BlockId>,
    exits: Vec<BlockId>,
}

impl Cfg {
    /// A graph with `n` blocks and the given edges. Duplicate edges between the same pair are kept
    /// once in `succs`/`preds` (the edge list keeps each kind). Edges naming a block `>= n` are dropped.
    pub fn from_edges(n: usize, entry: Option<BlockId>, edges: &[Edge], exits: &[BlockId]) -> Cfg {
        let mut succs = alloc::vec![Vec::new(); n];
        let mut preds = alloc::vec![Vec::new(); n];
        let mut kept = Vec::new();
        for e in edges {
            if e.from.index() >= n || e.to.index() >= n {
                continue;
            }
            kept.push(*e);
            if !succs[e.from.index()].contains(&e.to) {
                succs[e.from.index()].push(e.to);
                preds[e.to.index()].push(e.from);
            }
        }
        let mut exits: Vec<BlockId> = exits.iter().copied().filter(|b| b.index() < n).collect();
        exits.sort();
        exits.dedup();
        let entry = entry.filter(|b| b.index() < n);
        Cfg { succs, preds, edges: kept, entry, exits }
    }

    pub fn num_blocks(&self) -> usize {
        self.succs.len()
    }
    pub fn blocks(&self) -> impl Iterator<Item = BlockId> + '_ {
        (0..self.succs.len() as u32).map(BlockId)
    }
    pub fn succs(&self, b: BlockId) -> &[BlockId] {
        &self.succs[b.index()]
    }
    pub fn preds(&self, b: BlockId) -> &[BlockId] {
        &self.preds[b.index()]
    }
    pub fn edges(&self) -> &[Edge] {
        &self.edges
    }
    /// The entry block; `None` for an empty program.
    pub fn entry(&self) -> Option<BlockId> {
        self.entry
    }
    /// Blocks from which the warp can leave the kernel (`EXIT`, or falling off the end).
    pub fn exits(&self) -> &[BlockId] {
        &self.exits
    }
}
