//! Thread frontiers (Diamos et al., MICRO 2011, Algorithm 1): for each block, the blocks where
//! the disabled lanes of a warp may wait while that block runs, given that the scheduler always
//! runs the highest-priority block that has lanes.
//!
//! Priorities are layout order here (block ids are numbered by address, and BB0 has the highest
//! priority), as in the paper's Sandy Bridge and sorted-stack implementations, where the block's
//! pc is its priority.
//!
//! One change from the paper's listing: line 6 adds the targets of a block only when it "ends
//! with a divergent branch". A block that ends with a jump or a fall-through also sends its
//! lanes ahead of waiting ones (the then-side of an if/else jumping over the else-side waits at
//! the join while the else-side runs), so every lower-priority successor enters the set. On the
//! paper's Figure 1 both readings give the same frontiers.

use alloc::vec;
use alloc::vec::Vec;

use crate::cfg::{BlockId, Cfg};

/// Words of a block bitset.
fn words(n: usize) -> usize {
    n.div_ceil(64)
}

/// `frontier[b]`: the blocks (in priority order) where lanes may wait while `b` runs. Blocks not
/// reachable from the entry get an empty frontier.
pub fn thread_frontiers(cfg: &Cfg) -> Vec<Vec<BlockId>> {
    let n = cfg.num_blocks();
    let reachable = super::reference::reachable(cfg);
    let mut tset = vec![0u64; words(n)];
    let mut out = vec![Vec::new(); n];
    for b in 0..n {
        if !reachable.contains(&BlockId(b as u32)) {
            continue;
        }
        tset[b / 64] &= !(1 << (b % 64));
        out[b] = (0..n).filter(|&i| tset[i / 64] >> (i % 64) & 1 == 1).map(|i| BlockId(i as u32)).collect();
        for t in cfg.succs(BlockId(b as u32)) {
            // Lower priority = later in layout; a back edge's target is not waited on.
            if t.index() > b {
                tset[t.index() / 64] |= 1 << (t.index() % 64);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cfg::{Edge, EdgeKind};

    fn graph(n: usize, edges: &[(u32, u32)], exits: &[u32]) -> Cfg {
        let e: Vec<Edge> = edges.iter().map(|&(f, t)| Edge { from: BlockId(f), to: BlockId(t), kind: EdgeKind::Taken }).collect();
        let x: Vec<BlockId> = exits.iter().map(|&b| BlockId(b)).collect();
        Cfg::from_edges(n, Some(BlockId(0)), &e, &x)
    }

    fn ids(f: &[BlockId]) -> Vec<u32> {
        f.iter().map(|b| b.0).collect()
    }

    #[test]
    fn paper_figure_1() {
        // BB1..BB5 and Exit as blocks 0..5.
        let g = graph(6, &[(0, 1), (0, 2), (1, 5), (1, 2), (2, 3), (2, 4), (3, 4), (3, 5), (4, 5)], &[5]);
        let f = thread_frontiers(&g);
        assert_eq!(ids(&f[0]), [] as [u32; 0]);
        assert_eq!(ids(&f[1]), [2]);
        assert_eq!(ids(&f[2]), [5]);
        assert_eq!(ids(&f[3]), [4, 5]);
        assert_eq!(ids(&f[4]), [5]);
        assert_eq!(ids(&f[5]), [] as [u32; 0]);
    }

    #[test]
    fn if_else_join_waits_in_the_else_frontier() {
        // 0 -> 1 (then), 0 -> 2 (else); 1 jumps to 3; 2 falls to 3.
        let g = graph(4, &[(0, 1), (0, 2), (1, 3), (2, 3)], &[3]);
        let f = thread_frontiers(&g);
        assert_eq!(ids(&f[1]), [2]);
        assert_eq!(ids(&f[2]), [3]);
        assert_eq!(ids(&f[3]), [] as [u32; 0]);
    }

    #[test]
    fn back_edge_targets_are_not_waited_on() {
        // 0 -> 1 (body) -> 1 (back) | 2 (exit). As in the paper, the exit is not in the body's
        // frontier: lanes that left wait there while the others loop, found by pc at run time.
        let g = graph(3, &[(0, 1), (1, 1), (1, 2)], &[2]);
        let f = thread_frontiers(&g);
        assert_eq!(ids(&f[1]), [] as [u32; 0]);
        assert_eq!(ids(&f[2]), [] as [u32; 0]);
    }
}
