//! Depth-first orders over a `Cfg`: reverse post-order (the processing order the dominator
//! algorithms need, and the block priority the reconvergence models use) and back edges
//! (the loops).
//!
//! The DFS is iterative, so deep graphs cannot overflow the stack, and it is shared with the
//! post-dominator pass, which runs it on the reversed graph.

use alloc::vec;
use alloc::vec::Vec;

use crate::cfg::{BlockId, Cfg};

/// The result of one depth-first search over nodes `0..n`.
pub(crate) struct Dfs {
    /// Nodes in post-order (a node after all nodes first reached through it).
    pub post: Vec<u32>,
    /// Retreating edges `(u, v)`: `v` was on the DFS stack when `u -> v` was explored.
    pub back: Vec<(u32, u32)>,
}

/// Depth-first search over nodes `0..n` from `root`, visiting successors in the order `succs`
/// returns them. Successors `>= n` are ignored, so a malformed list cannot make it panic.
pub(crate) fn dfs<'a>(n: usize, root: Option<usize>, succs: impl Fn(usize) -> &'a [BlockId]) -> Dfs {
    const NEW: u8 = 0;
    const ON_STACK: u8 = 1;
    const DONE: u8 = 2;

    let mut out = Dfs { post: Vec::new(), back: Vec::new() };
    let root = match root {
        Some(r) if r < n => r,
        _ => return out,
    };
    let mut state = vec![NEW; n];
    // (node, index of the next successor to explore)
    let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
    state[root] = ON_STACK;
    while let Some(top) = stack.last_mut() {
        let (v, i) = *top;
        let ss = succs(v);
        if i < ss.len() {
            top.1 += 1;
            let w = ss[i].index();
            if w >= n {
                continue;
            }
            match state[w] {
                NEW => {
                    state[w] = ON_STACK;
                    stack.push((w, 0));
                }
                ON_STACK => out.back.push((v as u32, w as u32)),
                _ => {}
            }
        } else {
            stack.pop();
            state[v] = DONE;
            out.post.push(v as u32);
        }
    }
    out
}

/// Per-node index in the reverse of `post`; `None` for nodes the search never reached.
pub(crate) fn rpo_index(n: usize, post: &[u32]) -> Vec<Option<u32>> {
    let mut idx = vec![None; n];
    for (i, &v) in post.iter().rev().enumerate() {
        idx[v as usize] = Some(i as u32);
    }
    idx
}

fn forward_dfs(cfg: &Cfg) -> Dfs {
    dfs(cfg.num_blocks(), cfg.entry().map(BlockId::index), |b| cfg.succs(BlockId(b as u32)))
}

/// The blocks reachable from the entry, in reverse post-order of a DFS that visits successors in
/// `succs` order. The entry comes first, and every edge that is not a back edge goes forward.
/// Empty if there is no entry.
pub fn reverse_post_order(cfg: &Cfg) -> Vec<BlockId> {
    forward_dfs(cfg).post.iter().rev().map(|&v| BlockId(v)).collect()
}

/// For each block, its index in `reverse_post_order` (lower = earlier), or `None` if the block is
/// unreachable. Indexed by `BlockId::index`; the length is `num_blocks`.
pub fn rpo_priorities(cfg: &Cfg) -> Vec<Option<u32>> {
    rpo_index(cfg.num_blocks(), &forward_dfs(cfg).post)
}

/// The retreating edges `(from, to)` of the same DFS: `to` is on the DFS stack (an ancestor of
/// `from`, or `from` itself for a self loop). These are the edges that close loops; each appears
/// once, in the order the search found them.
pub fn back_edges(cfg: &Cfg) -> Vec<(BlockId, BlockId)> {
    forward_dfs(cfg).back.iter().map(|&(u, v)| (BlockId(u), BlockId(v))).collect()
}
