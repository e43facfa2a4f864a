//! The fast analyses (CHK dominators and post-dominators, DFS orders) against the set-based
//! reference on random graphs, plus hand-written shapes with known answers.

use std::collections::BTreeSet;

use proptest::prelude::*;
use warpscope_core::analysis::reference;
use warpscope_core::analysis::{
    back_edges, compute_dominators, compute_post_dominators, reconvergence_point, reverse_post_order, rpo_priorities, thread_frontiers,
    PostDom,
};
use warpscope_core::cfg::{BlockId, Cfg, Edge, EdgeKind};

fn edge(from: u32, to: u32) -> Edge {
    Edge { from: BlockId(from), to: BlockId(to), kind: EdgeKind::Taken }
}

fn b(i: u32) -> BlockId {
    BlockId(i)
}

/// Random graphs of 1..40 blocks: an optional fall-through chain (so much is reachable), random
/// edges of any kind (self loops, back edges, duplicates), entry BB0, a random subset of exits.
fn arb_cfg() -> impl Strategy<Value = Cfg> {
    (1usize..40).prop_flat_map(|n| {
        let m = n as u32;
        (
            Just(n),
            prop::collection::vec(any::<bool>(), n),
            prop::collection::vec((0..m, 0..m, 0u8..3), 0..3 * n),
            prop::collection::vec(any::<bool>(), n),
        )
            .prop_map(|(n, chain, random, exit_mask)| {
                let kinds = [EdgeKind::Taken, EdgeKind::FallThrough, EdgeKind::Sync];
                let mut edges: Vec<Edge> = (0..n.saturating_sub(1))
                    .filter(|&i| chain[i])
                    .map(|i| Edge { from: b(i as u32), to: b(i as u32 + 1), kind: EdgeKind::FallThrough })
                    .collect();
                edges.extend(random.into_iter().map(|(f, t, k)| Edge { from: b(f), to: b(t), kind: kinds[k as usize] }));
                let exits: Vec<BlockId> = (0..n as u32).filter(|&i| exit_mask[i as usize]).map(b).collect();
                Cfg::from_edges(n, Some(b(0)), &edges, &exits)
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn thread_frontiers_match_reference(cfg in arb_cfg()) {
        let fast = thread_frontiers(&cfg);
        let want = reference::thread_frontiers(&cfg);
        for blk in cfg.blocks() {
            let got: BTreeSet<BlockId> = fast[blk.index()].iter().copied().collect();
            prop_assert_eq!(&got, &want[blk.index()], "frontier of {}", blk);
            // Lanes only wait at blocks of lower priority than the one running.
            prop_assert!(got.iter().all(|w| *w > blk), "frontier of {} holds a block that runs before it", blk);
        }
    }

    #[test]
    fn idom_matches_reference(cfg in arb_cfg()) {
        let dt = compute_dominators(&cfg);
        let want = reference::idoms(&cfg);
        for blk in cfg.blocks() {
            prop_assert_eq!(dt.idom(blk), want[blk.index()], "idom of {}", blk);
        }
    }

    #[test]
    fn ipdom_matches_reference(cfg in arb_cfg()) {
        let pdt = compute_post_dominators(&cfg);
        let want = reference::ipdoms(&cfg);
        let live = reference::reaches_exit(&cfg);
        for blk in cfg.blocks() {
            prop_assert_eq!(pdt.ipdom(blk), want[blk.index()], "ipdom of {}", blk);
            prop_assert_eq!(reconvergence_point(&cfg, &pdt, blk), want[blk.index()]);
            prop_assert_eq!(pdt.reaches_exit(blk), live.contains(&blk));
        }
    }

    #[test]
    fn dominates_matches_reference_sets(cfg in arb_cfg()) {
        let dt = compute_dominators(&cfg);
        let sets = reference::dominator_sets(&cfg);
        for a in cfg.blocks() {
            for c in cfg.blocks() {
                prop_assert_eq!(dt.dominates(a, c), sets[c.index()].contains(&a), "{} dom {}", a, c);
            }
        }
    }

    #[test]
    fn post_dominates_matches_reference_sets(cfg in arb_cfg()) {
        let pdt = compute_post_dominators(&cfg);
        let sets = reference::post_dominator_sets(&cfg);
        for a in cfg.blocks() {
            for c in cfg.blocks() {
                prop_assert_eq!(
                    pdt.post_dominates(a, c),
                    sets[c.index()].contains(&PostDom::Block(a)),
                    "{} pdom {}", a, c
                );
            }
        }
    }

    #[test]
    fn rpo_is_a_topological_order_of_forward_edges(cfg in arb_cfg()) {
        let rpo = reverse_post_order(&cfg);
        let prio = rpo_priorities(&cfg);
        let live = reference::reachable(&cfg);

        prop_assert_eq!(rpo.first().copied(), cfg.entry());
        prop_assert_eq!(rpo.len(), live.len());
        prop_assert_eq!(rpo.iter().copied().collect::<BTreeSet<_>>(), live.clone());
        prop_assert_eq!(prio.len(), cfg.num_blocks());
        for blk in cfg.blocks() {
            let want = rpo.iter().position(|&x| x == blk).map(|i| i as u32);
            prop_assert_eq!(prio[blk.index()], want);
        }

        let back: BTreeSet<(BlockId, BlockId)> = back_edges(&cfg).into_iter().collect();
        prop_assert_eq!(back.len(), back_edges(&cfg).len(), "back edges are listed once");
        for u in cfg.blocks() {
            for &v in cfg.succs(u) {
                match (prio[u.index()], prio[v.index()]) {
                    (Some(pu), Some(pv)) => {
                        // Retreating edges are exactly the ones that go backwards (or stay) in RPO.
                        prop_assert_eq!(back.contains(&(u, v)), pv <= pu, "edge {}->{}", u, v);
                    }
                    _ => prop_assert!(!back.contains(&(u, v))),
                }
            }
        }
        // A back edge's target is a DFS ancestor of its source, so it comes no later in RPO.
        for &(u, v) in &back {
            prop_assert!(prio[v.index()] <= prio[u.index()]);
        }
    }
}

#[test]
fn diamond_reconverges_at_the_join() {
    // 0 -> {1, 2} -> 3, 3 exits.
    let cfg = Cfg::from_edges(4, Some(b(0)), &[edge(0, 1), edge(0, 2), edge(1, 3), edge(2, 3)], &[b(3)]);
    let dt = compute_dominators(&cfg);
    let pdt = compute_post_dominators(&cfg);
    assert_eq!(dt.idom(b(0)), None);
    assert_eq!(dt.idom(b(1)), Some(b(0)));
    assert_eq!(dt.idom(b(2)), Some(b(0)));
    assert_eq!(dt.idom(b(3)), Some(b(0)));
    assert_eq!(reconvergence_point(&cfg, &pdt, b(0)), Some(PostDom::Block(b(3))));
    assert_eq!(pdt.ipdom(b(1)), Some(PostDom::Block(b(3))));
    assert_eq!(pdt.ipdom(b(3)), Some(PostDom::Exit));
    assert!(pdt.post_dominates(b(3), b(0)));
    assert!(!pdt.post_dominates(b(1), b(0)));
    assert!(back_edges(&cfg).is_empty());
    assert_eq!(reverse_post_order(&cfg)[0], b(0));
}

#[test]
fn loop_with_exit() {
    // 0 -> 1 (header) -> 2 (body) -> 1, and 1 -> 3 exits.
    let cfg = Cfg::from_edges(4, Some(b(0)), &[edge(0, 1), edge(1, 2), edge(2, 1), edge(1, 3)], &[b(3)]);
    assert_eq!(back_edges(&cfg), vec![(b(2), b(1))]);
    let pdt = compute_post_dominators(&cfg);
    assert_eq!(pdt.ipdom(b(1)), Some(PostDom::Block(b(3))));
    assert_eq!(pdt.ipdom(b(2)), Some(PostDom::Block(b(1))));
    assert_eq!(pdt.ipdom(b(0)), Some(PostDom::Block(b(1))));
    let dt = compute_dominators(&cfg);
    assert!(dt.dominates(b(1), b(2)));
    assert!(dt.dominates(b(1), b(3)));
    assert!(!dt.dominates(b(2), b(3)));
    assert_eq!(reverse_post_order(&cfg), vec![b(0), b(1), b(3), b(2)]);
}

#[test]
fn infinite_loop_has_no_ipdom() {
    // 0 -> 1 <-> 2 never leaves; 0 -> 3 exits. 4 is a self loop reachable from nowhere.
    let cfg = Cfg::from_edges(5, Some(b(0)), &[edge(0, 1), edge(1, 2), edge(2, 1), edge(0, 3), edge(4, 4)], &[b(3)]);
    let pdt = compute_post_dominators(&cfg);
    assert_eq!(pdt.ipdom(b(1)), None);
    assert_eq!(pdt.ipdom(b(2)), None);
    assert_eq!(pdt.ipdom(b(4)), None);
    assert_eq!(reconvergence_point(&cfg, &pdt, b(1)), None);
    assert!(pdt.post_dominates(b(1), b(1)));
    assert!(!pdt.post_dominates(b(2), b(1)));
    assert!(!pdt.reaches_exit(b(1)));
    // The branch at 0 has one path that never leaves, so only the exit block post-dominates it.
    assert_eq!(pdt.ipdom(b(0)), Some(PostDom::Block(b(3))));
    let dt = compute_dominators(&cfg);
    assert_eq!(dt.idom(b(4)), None);
    assert!(!dt.dominates(b(4), b(4)));
    assert_eq!(rpo_priorities(&cfg)[4], None);
}

#[test]
fn no_exits_at_all() {
    let cfg = Cfg::from_edges(2, Some(b(0)), &[edge(0, 1), edge(1, 1)], &[]);
    let pdt = compute_post_dominators(&cfg);
    assert_eq!(pdt.ipdom(b(0)), None);
    assert_eq!(pdt.ipdom(b(1)), None);
    assert_eq!(back_edges(&cfg), vec![(b(1), b(1))]);
    assert_eq!(compute_dominators(&cfg).idom(b(1)), Some(b(0)));
}

#[test]
fn empty_graph_and_missing_entry() {
    let empty = Cfg::from_edges(0, None, &[], &[]);
    assert!(reverse_post_order(&empty).is_empty());
    assert!(rpo_priorities(&empty).is_empty());
    assert!(back_edges(&empty).is_empty());
    let dt = compute_dominators(&empty);
    let pdt = compute_post_dominators(&empty);
    assert_eq!(dt.idom(b(0)), None);
    assert!(!dt.dominates(b(0), b(0)));
    assert_eq!(pdt.ipdom(b(0)), None);
    assert!(!pdt.post_dominates(b(0), b(0)));
    assert_eq!(reconvergence_point(&empty, &pdt, b(0)), None);
    assert!(reference::reachable(&empty).is_empty());

    // Blocks but no entry: nothing is reachable, yet exits still have post-dominators.
    let headless = Cfg::from_edges(2, None, &[edge(0, 1)], &[b(1)]);
    assert!(reverse_post_order(&headless).is_empty());
    assert_eq!(rpo_priorities(&headless), vec![None, None]);
    assert_eq!(compute_dominators(&headless).idom(b(1)), None);
    let pdt = compute_post_dominators(&headless);
    assert_eq!(pdt.ipdom(b(0)), Some(PostDom::Block(b(1))));
    assert_eq!(pdt.ipdom(b(1)), Some(PostDom::Exit));
    assert_eq!(pdt.ipdom(b(7)), None, "ids outside the graph are not an error");
}
