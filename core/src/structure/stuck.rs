//! Where a reduction got stuck, and which transform undoes it: the innermost loop that did not
//! collapse (entered in several places: backward copy; left by several edges: cut; else a join
//! inside its body: forward copy), or, with no loop left, a join of the acyclic rest.

use alloc::vec;
use alloc::vec::Vec;

use super::reduce::Regions;
use crate::analysis::{compute_dominators, compute_post_dominators, PostDom};
use crate::cfg::{BlockId, Cfg, Edge, EdgeKind};

/// What the transform driver does next, in region numbers.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) enum Fix {
    /// A loop entered at several regions: the loop without `header`, copied for `entry`.
    Backward { scc: Vec<usize>, header: usize, entry: usize },
    /// A loop (`scc`, entered at `header`) that leaves by several edges.
    Cut { scc: Vec<usize>, header: usize },
    /// A join to copy for each of its predecessors but one.
    Forward { join: usize },
    /// No join to copy in an acyclic graph that does not reduce (the driver also stops a loop
    /// that would be cut twice).
    None { at: usize },
}

/// Strongly connected components of `nodes` under `succ` (restricted to `nodes`), iteratively.
fn sccs(nodes: &[usize], succ: &dyn Fn(usize) -> Vec<usize>) -> Vec<Vec<usize>> {
    let max = nodes.iter().copied().max().map_or(0, |m| m + 1);
    let mut inside = vec![false; max];
    for &v in nodes {
        inside[v] = true;
    }
    let edges = |v: usize| -> Vec<usize> { succ(v).into_iter().filter(|&w| w < max && inside[w]).collect() };
    let mut index = vec![usize::MAX; max];
    let mut low = vec![0; max];
    let mut on = vec![false; max];
    let mut stack = Vec::new();
    let mut out = Vec::new();
    let mut next = 0;
    for &root in nodes {
        if index[root] != usize::MAX {
            continue;
        }
        let mut call: Vec<(usize, Vec<usize>, usize)> = vec![(root, edges(root), 0)];
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on[root] = true;
        while let Some((v, ws, i)) = call.last_mut() {
            let v = *v;
            if *i < ws.len() {
                let w = ws[*i];
                *i += 1;
                if index[w] == usize::MAX {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on[w] = true;
                    call.push((w, edges(w), 0));
                } else if on[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            call.pop();
            if let Some((u, _, _)) = call.last() {
                low[*u] = low[*u].min(low[v]);
            }
            if low[v] == index[v] {
                let mut comp = Vec::new();
                while let Some(w) = stack.pop() {
                    on[w] = false;
                    comp.push(w);
                    if w == v {
                        break;
                    }
                }
                out.push(comp);
            }
        }
    }
    out
}

fn cyclic(r: &Regions, comp: &[usize]) -> bool {
    comp.len() > 1 || r.succ[comp[0]].contains(&comp[0])
}

/// What to do about a reduction that stopped with more than one region.
pub(crate) fn fix(r: &Regions, size: &dyn Fn(usize) -> usize, key: &dyn Fn(usize) -> usize) -> Fix {
    let live: Vec<usize> = r.live().filter(|&v| v != r.exit).collect();
    let all = sccs(&live, &|v| r.succ[v].clone());
    match all.into_iter().find(|c| cyclic(r, c)) {
        Some(comp) => in_loop(r, comp, size, key),
        None => forward(r, &live, r.entry, None, size, key).map_or(Fix::None { at: r.entry }, |join| Fix::Forward { join }),
    }
}

/// The innermost loop inside `comp` that needs a transform, and the transform.
fn in_loop(r: &Regions, mut comp: Vec<usize>, size: &dyn Fn(usize) -> usize, key: &dyn Fn(usize) -> usize) -> Fix {
    loop {
        let entries: Vec<usize> = comp.iter().copied().filter(|&v| v == r.entry || r.pred[v].iter().any(|p| !comp.contains(p))).collect();
        let header = match entries.iter().find(|&&v| v == r.entry) {
            Some(&e) => e,
            None => *entries.iter().min_by_key(|&&v| key(v)).unwrap_or(&comp[0]),
        };
        if let Some(&entry) = entries.iter().find(|&&v| v != header) {
            return Fix::Backward { scc: comp, header, entry };
        }
        let rest: Vec<usize> = comp.iter().copied().filter(|&v| v != header).collect();
        let inner = sccs(&rest, &|v| r.succ[v].iter().copied().filter(|&w| w != header).collect());
        if let Some(c) = inner.into_iter().find(|c| cyclic(r, c)) {
            comp = c;
            continue;
        }
        let exits: Vec<(usize, usize)> =
            comp.iter().flat_map(|&u| r.succ[u].iter().filter(|t| !comp.contains(t)).map(move |&t| (u, t))).collect();
        if exits.len() > 1 {
            return Fix::Cut { scc: comp, header };
        }
        let leaving = exits.first().map(|e| e.0);
        return match forward(r, &comp, header, leaving, size, key) {
            Some(join) => Fix::Forward { join },
            None => Fix::Cut { scc: comp, header },
        };
    }
}

/// A join of the acyclic graph over `nodes` (entered at `entry`; edges back to it end there) to
/// copy: an improper one (not where the branch that dominates it ends) if there is one, else any
/// join. `keep` is never copied (a loop's exiting region).
fn forward(
    r: &Regions,
    nodes: &[usize],
    entry: usize,
    keep: Option<usize>,
    size: &dyn Fn(usize) -> usize,
    key: &dyn Fn(usize) -> usize,
) -> Option<usize> {
    let n = nodes.len();
    let at = |v: usize| nodes.iter().position(|&w| w == v);
    let sink = n;
    let mut edges = Vec::new();
    for (i, &u) in nodes.iter().enumerate() {
        let mut leaves = r.succ[u].is_empty();
        for &t in &r.succ[u] {
            match at(t) {
                Some(j) if t != entry => edges.push(Edge { from: BlockId(i as u32), to: BlockId(j as u32), kind: EdgeKind::Taken }),
                _ => leaves = true,
            }
        }
        if leaves {
            edges.push(Edge { from: BlockId(i as u32), to: BlockId(sink as u32), kind: EdgeKind::Taken });
        }
    }
    let start = at(entry)?;
    let cfg = Cfg::from_edges(n + 1, Some(BlockId(start as u32)), &edges, &[BlockId(sink as u32)]);
    let dom = compute_dominators(&cfg);
    let pdom = compute_post_dominators(&cfg);
    let joins: Vec<usize> =
        (0..n).filter(|&i| i != start && Some(nodes[i]) != keep && nodes[i] != r.exit && cfg.preds(BlockId(i as u32)).len() > 1).collect();
    let improper = |i: usize| {
        let d = dom.idom(BlockId(i as u32));
        d.and_then(|d| pdom.ipdom(d)) != Some(PostDom::Block(BlockId(i as u32)))
    };
    // Innermost first (the deepest branch in the dominator tree), so a copy copies code that
    // is already structured; then the fewest instructions copied; then the last laid out.
    let depth = |i: usize| {
        let mut d = 0;
        let mut b = dom.idom(BlockId(i as u32));
        while let Some(x) = b.filter(|&x| x.index() != start) {
            d += 1;
            b = dom.idom(x);
        }
        d
    };
    let cost = |i: usize| (cfg.preds(BlockId(i as u32)).len() - 1) * size(nodes[i]);
    let pick = |cands: &[usize]| {
        cands.iter().copied().min_by_key(|&i| (usize::MAX - depth(i), cost(i), usize::MAX - key(nodes[i]))).map(|i| nodes[i])
    };
    let bad: Vec<usize> = joins.iter().copied().filter(|&i| improper(i)).collect();
    pick(&bad).or_else(|| pick(&joins))
}
