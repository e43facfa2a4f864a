//! Slow, obviously-correct versions of the analyses, for tests to compare against.
//!
//! Dominator sets come from the textbook dataflow equations, solved to a fixpoint with plain
//! sets; immediate (post-)dominators are read off the sets by definition. Nothing here is clever,
//! so a disagreement with the fast versions points at the fast versions.

use alloc::collections::BTreeSet;
use alloc::vec::Vec;

use super::post_dominators::PostDom;
use crate::cfg::{BlockId, Cfg};

/// The blocks reachable from the entry (empty if there is no entry).
pub fn reachable(cfg: &Cfg) -> BTreeSet<BlockId> {
    let mut seen = BTreeSet::new();
    let mut work: Vec<BlockId> = cfg.entry().into_iter().collect();
    while let Some(b) = work.pop() {
        if seen.insert(b) {
            work.extend(cfg.succs(b).iter().copied());
        }
    }
    seen
}

/// The blocks from which some exit block is reachable.
pub fn reaches_exit(cfg: &Cfg) -> BTreeSet<BlockId> {
    let mut seen = BTreeSet::new();
    let mut work: Vec<BlockId> = cfg.exits().to_vec();
    while let Some(b) = work.pop() {
        if seen.insert(b) {
            work.extend(cfg.preds(b).iter().copied());
        }
    }
    seen
}

/// `Dom(n)` for every block: `Dom(entry) = {entry}`, `Dom(n) = {n} ∪ ⋂ Dom(p)` over reachable
/// predecessors `p`. Empty for unreachable blocks.
pub fn dominator_sets(cfg: &Cfg) -> Vec<BTreeSet<BlockId>> {
    let live = reachable(cfg);
    let mut dom: Vec<BTreeSet<BlockId>> = cfg.blocks().map(|b| if live.contains(&b) { live.clone() } else { BTreeSet::new() }).collect();
    if let Some(e) = cfg.entry() {
        dom[e.index()] = BTreeSet::from([e]);
    }
    let mut changed = true;
    while changed {
        changed = false;
        for &b in &live {
            if Some(b) == cfg.entry() {
                continue;
            }
            let mut new: Option<BTreeSet<BlockId>> = None;
            for p in cfg.preds(b).iter().filter(|p| live.contains(p)) {
                let pd = &dom[p.index()];
                new = Some(match new {
                    None => pd.clone(),
                    Some(acc) => acc.intersection(pd).copied().collect(),
                });
            }
            let mut new = new.unwrap_or_default();
            new.insert(b);
            if new != dom[b.index()] {
                dom[b.index()] = new;
                changed = true;
            }
        }
    }
    dom
}

/// `PDom(n)` for every block, on the reversed graph with a virtual exit after every exit block:
/// `PDom(Exit) = {Exit}`, `PDom(n) = {n} ∪ ⋂ PDom(s)` over successors `s` (including `Exit` for
/// exit blocks) that reach an exit. A block that cannot reach an exit gets just `{n}`.
pub fn post_dominator_sets(cfg: &Cfg) -> Vec<BTreeSet<PostDom>> {
    let live = reaches_exit(cfg);
    let mut all: BTreeSet<PostDom> = live.iter().map(|&b| PostDom::Block(b)).collect();
    all.insert(PostDom::Exit);
    let mut pdom: Vec<BTreeSet<PostDom>> =
        cfg.blocks().map(|b| if live.contains(&b) { all.clone() } else { BTreeSet::from([PostDom::Block(b)]) }).collect();
    let exit_set = BTreeSet::from([PostDom::Exit]);
    let mut changed = true;
    while changed {
        changed = false;
        for &b in &live {
            let mut new: Option<BTreeSet<PostDom>> = None;
            let succ_sets = cfg
                .succs(b)
                .iter()
                .filter(|s| live.contains(s))
                .map(|s| &pdom[s.index()])
                .chain(cfg.exits().contains(&b).then_some(&exit_set));
            for sd in succ_sets {
                new = Some(match new {
                    None => sd.clone(),
                    Some(acc) => acc.intersection(sd).copied().collect(),
                });
            }
            let mut new = new.unwrap_or_default();
            new.insert(PostDom::Block(b));
            if new != pdom[b.index()] {
                pdom[b.index()] = new;
                changed = true;
            }
        }
    }
    pdom
}

/// The strict member of `set` (all but `own`) that every other strict member is in the set
/// of (`set_of`): the closest one.
fn immediate<T: Ord + Copy>(own: T, set: &BTreeSet<T>, set_of: impl Fn(T) -> Option<BTreeSet<T>>) -> Option<T> {
    let strict: BTreeSet<T> = set.iter().copied().filter(|&d| d != own).collect();
    strict.iter().copied().find(|&d| match set_of(d) {
        Some(ds) => strict.iter().all(|o| ds.contains(o)),
        None => strict.len() == 1,
    })
}

/// Immediate dominators read off `dominator_sets`.
pub fn idoms(cfg: &Cfg) -> Vec<Option<BlockId>> {
    let dom = dominator_sets(cfg);
    cfg.blocks().map(|b| immediate(b, &dom[b.index()], |d| Some(dom[d.index()].clone()))).collect()
}

/// Immediate post-dominators read off `post_dominator_sets`. The virtual exit's own set is
/// `{Exit}`, so it can only be chosen when it is the sole strict post-dominator.
pub fn ipdoms(cfg: &Cfg) -> Vec<Option<PostDom>> {
    let pdom = post_dominator_sets(cfg);
    cfg.blocks()
        .map(|b| {
            immediate(PostDom::Block(b), &pdom[b.index()], |d| match d {
                PostDom::Block(x) => Some(pdom[x.index()].clone()),
                PostDom::Exit => None,
            })
        })
        .collect()
}

/// Algorithm 1 of Diamos et al. as written, with sets: walk the blocks in priority (layout)
/// order, take each out of `tset`, record what is left as its frontier, then add its successors
/// of lower priority (see `frontiers` for why every successor, not only a divergent branch's).
pub fn thread_frontiers(cfg: &Cfg) -> Vec<BTreeSet<BlockId>> {
    let live = reachable(cfg);
    let mut tset = BTreeSet::new();
    let mut out = Vec::new();
    for b in cfg.blocks() {
        if !live.contains(&b) {
            out.push(BTreeSet::new());
            continue;
        }
        tset.remove(&b);
        out.push(tset.clone());
        for &t in cfg.succs(b) {
            if t > b {
                tset.insert(t);
            }
        }
    }
    out
}
