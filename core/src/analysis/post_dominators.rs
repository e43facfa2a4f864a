//! Post-dominators: block `a` post-dominates `b` when every path from `b` out of the kernel
//! passes through `a`. The immediate post-dominator of a branch is where its divergent paths
//! reconverge, which is what the reconvergence models need.
//!
//! Computed by the same Cooper–Harvey–Kennedy algorithm as `dominators`, on the reversed graph
//! rooted at a virtual exit node whose predecessors are `cfg.exits()`. The virtual node gives a
//! single root even with several exit blocks.

use alloc::vec::Vec;

use super::dominators::{chk, tree_ancestor};
use crate::cfg::{BlockId, Cfg};

/// A node of the post-dominator tree: a block, or the virtual exit every exit block flows to.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum PostDom {
    Block(BlockId),
    /// The virtual exit: leaving the kernel.
    Exit,
}

/// The post-dominator tree of a `Cfg`, rooted at the virtual exit.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PostDomTree {
    /// Node `n` (= `num_blocks`) is the virtual exit.
    ipdom: Vec<Option<u32>>,
    rpo: Vec<Option<u32>>,
}

impl PostDomTree {
    fn num_blocks(&self) -> usize {
        self.ipdom.len().saturating_sub(1)
    }

    fn node(&self, i: u32) -> PostDom {
        if i as usize == self.num_blocks() {
            PostDom::Exit
        } else {
            PostDom::Block(BlockId(i))
        }
    }

    /// The immediate post-dominator: `Exit` for an exit block whose every path leaves at once,
    /// otherwise the closest block all paths to an exit pass through. `None` for blocks that
    /// cannot reach any exit (infinite loops) and for ids outside the graph.
    pub fn ipdom(&self, b: BlockId) -> Option<PostDom> {
        if b.index() >= self.num_blocks() {
            return None;
        }
        self.ipdom[b.index()].map(|i| self.node(i))
    }

    /// Whether every path from `b` to the exit goes through `a`. Reflexive for every block in
    /// the graph; a block that cannot reach an exit is post-dominated by nothing but itself.
    pub fn post_dominates(&self, a: BlockId, b: BlockId) -> bool {
        if a.index() >= self.num_blocks() || b.index() >= self.num_blocks() {
            return false;
        }
        a == b || tree_ancestor(&self.ipdom, &self.rpo, a.index(), b.index())
    }

    /// Whether some path leads from `b` out of the kernel.
    pub fn reaches_exit(&self, b: BlockId) -> bool {
        b.index() < self.num_blocks() && self.rpo[b.index()].is_some()
    }
}

/// Post-dominator tree of `cfg` by the Cooper–Harvey–Kennedy algorithm on the reversed graph.
pub fn compute_post_dominators(cfg: &Cfg) -> PostDomTree {
    let n = cfg.num_blocks();
    let exit = BlockId(n as u32);
    // Predecessors in the reversed graph are the forward successors, plus the virtual exit for
    // exit blocks; materialised because they are not one slice of the `Cfg`.
    let mut rev_preds: Vec<Vec<BlockId>> = cfg.blocks().map(|b| cfg.succs(b).to_vec()).collect();
    for &e in cfg.exits() {
        rev_preds[e.index()].push(exit);
    }
    rev_preds.push(Vec::new());
    let c = chk(
        n + 1,
        Some(n),
        |v| {
            if v == n {
                cfg.exits()
            } else {
                cfg.preds(BlockId(v as u32))
            }
        },
        |v| &rev_preds[v],
    );
    PostDomTree { ipdom: c.idom, rpo: c.rpo }
}

/// Where the divergent paths of a branch at `branch_block` reconverge: its immediate
/// post-dominator, the first point every path from the branch must reach. `Exit` means they only
/// meet when the warp leaves; `None` if the block cannot reach an exit or is not in `cfg`.
pub fn reconvergence_point(cfg: &Cfg, pdt: &PostDomTree, branch_block: BlockId) -> Option<PostDom> {
    if branch_block.index() >= cfg.num_blocks() {
        return None;
    }
    pdt.ipdom(branch_block)
}
