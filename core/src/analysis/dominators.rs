//! Dominators: block `a` dominates `b` when every path from the entry to `b` passes through `a`.
//!
//! Computed with the Cooper–Harvey–Kennedy iterative algorithm ("A Simple, Fast Dominance
//! Algorithm", 2001): nodes are processed in reverse post-order and each immediate dominator is
//! the intersection of its processed predecessors' dominator-tree paths. It is simple enough to
//! check against the set-based reference in `reference`, and fast on the small graphs kernels have.
//! The same core serves post-dominators, run on the reversed graph.

use alloc::vec::Vec;

use super::order::{dfs, rpo_index};
use crate::cfg::{BlockId, Cfg};

/// Immediate dominators of nodes `0..n` of an abstract graph, as computed by CHK.
pub(crate) struct Chk {
    /// Immediate dominator of each node; `None` for the root and unreached nodes.
    pub idom: Vec<Option<u32>>,
    /// Reverse post-order index of each node; `None` if unreached. An ancestor in the tree
    /// always has a smaller index than its descendants.
    pub rpo: Vec<Option<u32>>,
}

/// The Cooper–Harvey–Kennedy algorithm over nodes `0..n` rooted at `root`.
/// `preds` may name unreached nodes or nodes `>= n`; they are skipped.
pub(crate) fn chk<'a>(
    n: usize,
    root: Option<usize>,
    succs: impl Fn(usize) -> &'a [BlockId],
    preds: impl Fn(usize) -> &'a [BlockId],
) -> Chk {
    let order = dfs(n, root, succs);
    let rpo = rpo_index(n, &order.post);
    let nodes: Vec<u32> = order.post.iter().rev().copied().collect();
    // Indexed by RPO position, holding the RPO position of the idom (root points at itself).
    let mut doms: Vec<Option<u32>> = alloc::vec![None; nodes.len()];
    if !nodes.is_empty() {
        doms[0] = Some(0);
    }
    let mut changed = true;
    while changed {
        changed = false;
        for (i, &b) in nodes.iter().enumerate().skip(1) {
            let mut new_idom: Option<u32> = None;
            for p in preds(b as usize) {
                let Some(Some(pi)) = rpo.get(p.index()).copied() else {
                    continue;
                };
                if doms[pi as usize].is_none() {
                    continue; // not processed yet
                }
                new_idom = Some(match new_idom {
                    None => pi,
                    Some(cur) => intersect(&doms, pi, cur),
                });
            }
            if new_idom.is_some() && doms[i] != new_idom {
                doms[i] = new_idom;
                changed = true;
            }
        }
    }
    let mut idom = alloc::vec![None; n];
    for (i, &b) in nodes.iter().enumerate().skip(1) {
        idom[b as usize] = doms[i].map(|d| nodes[d as usize]);
    }
    Chk { idom, rpo }
}

/// Walks two fingers up the partial tree until they meet (the paper's `intersect`).
fn intersect(doms: &[Option<u32>], mut a: u32, mut b: u32) -> u32 {
    while a != b {
        while a > b {
            a = doms[a as usize].unwrap_or(0);
        }
        while b > a {
            b = doms[b as usize].unwrap_or(0);
        }
    }
    a
}

/// Whether `a` is an ancestor-or-self of `b` in a tree given by `idom` and RPO indices.
/// Walking up stops once the index drops below `a`'s, since ancestors have smaller indices.
pub(crate) fn tree_ancestor(idom: &[Option<u32>], rpo: &[Option<u32>], a: usize, b: usize) -> bool {
    let (Some(Some(ra)), Some(Some(_))) = (rpo.get(a).copied(), rpo.get(b).copied()) else {
        return false;
    };
    let mut cur = b;
    loop {
        if cur == a {
            return true;
        }
        match (idom[cur], rpo[cur]) {
            (Some(up), Some(rc)) if rc > ra => cur = up as usize,
            _ => return false,
        }
    }
}

/// The dominator tree of a `Cfg`, rooted at its entry.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct DomTree {
    idom: Vec<Option<u32>>,
    rpo: Vec<Option<u32>>,
}

impl DomTree {
    /// The immediate dominator: the closest strict dominator. `None` for the entry, for blocks
    /// not reachable from the entry, and for ids outside the graph.
    pub fn idom(&self, b: BlockId) -> Option<BlockId> {
        self.idom.get(b.index()).copied().flatten().map(BlockId)
    }

    /// Whether every path from the entry to `b` goes through `a`. Reflexive for reachable
    /// blocks; `false` whenever `b` (or `a`) is unreachable, since no path reaches it.
    pub fn dominates(&self, a: BlockId, b: BlockId) -> bool {
        tree_ancestor(&self.idom, &self.rpo, a.index(), b.index())
    }

    /// Whether `b` is reachable from the entry (and so has dominators at all).
    pub fn is_reachable(&self, b: BlockId) -> bool {
        matches!(self.rpo.get(b.index()), Some(Some(_)))
    }
}

/// Dominator tree of `cfg` by the Cooper–Harvey–Kennedy algorithm.
pub fn compute_dominators(cfg: &Cfg) -> DomTree {
    let c = chk(cfg.num_blocks(), cfg.entry().map(BlockId::index), |b| cfg.succs(BlockId(b as u32)), |b| cfg.preds(BlockId(b as u32)));
    DomTree { idom: c.idom, rpo: c.rpo }
}
