//! Places reconvergence for a target, at immediate post-dominators.
//!
//! For each potentially divergent branch the post-dominator tree (`analysis`) names its
//! reconvergence point P. Branches that share P form one region: a single `SSY P` (Kepler) or
//! `BSSY Bn, P` (Volta) goes at the nearest block that dominates all of them, hoisted out of
//! any loop that does not also hold P (so a loop's exit test pushes once, not once per
//! iteration). Every edge from inside the region into P is sent through a new block just
//! before P holding the pop (`SYNC`) or `BSYNC Bn`, so each path through the region pops or
//! arrives exactly once. Terminators that leave the flow (`EXIT`, `RET`, `BRK`, `CONT`) are
//! exits of the graph: lanes that take them are accounted for by the hardware, not by P.
//!
//! On Volta a region whose join only exits the kernel gets no barrier, as nvcc writes it
//! (`@P0 EXIT` where a Kepler compile would `SSY` to the exit): lanes that reach the exit leave,
//! and the hardware counts exited threads as arrived at a block's barrier, so a `__syncthreads()`
//! inside `if (t < 48)` completes on the GPU. With a `BSYNC` at the exit the lanes that skipped
//! the `if` would wait there for lanes held at the barrier: a deadlock the GPU never has.

use alloc::collections::BTreeSet;
use alloc::format;
use alloc::vec::Vec;

use super::ins::{CodeRef, Ins, Opcode, Operand};
use super::ir::{Func, Term};
use super::Target;
use crate::analysis::{back_edges, compute_dominators, compute_post_dominators, PostDom};
use crate::cfg::{BlockId, Cfg};

/// One reconvergence region, found on the graph before any change.
struct Region {
    join: BlockId,
    head: BlockId,
    members: BTreeSet<BlockId>,
    line: u32,
}

/// Adds the target's reconvergence instructions to `func`. Returns an error message when the
/// function needs more convergence barriers than the hardware has (Volta: B0-B15).
pub fn place(func: &mut Func, target: Target) -> Result<(), alloc::string::String> {
    if target == Target::Plain {
        return Ok(());
    }
    let regions = find_regions(func, target == Target::Volta);
    // Nesting depth: how many other regions hold this one's head.
    let depth: Vec<usize> = regions
        .iter()
        .enumerate()
        .map(|(i, r)| {
            regions
                .iter()
                .enumerate()
                .filter(|(j, o)| {
                    *j != i && (o.members.contains(&r.head) && o.head != r.head || o.head == r.head && o.members.len() > r.members.len())
                })
                .count()
        })
        .collect();
    let mut ordered: Vec<usize> = (0..regions.len()).collect();
    ordered.sort_by_key(|&i| depth[i]);
    let mut syncs = alloc::vec![BlockId(0); regions.len()];
    for &i in &ordered {
        let r = &regions[i];
        if target == Target::Volta && depth[i] > 15 {
            return Err(format!("divergent regions nest {} deep here; Volta has 16 convergence barriers (B0-B15)", depth[i] + 1));
        }
        let sync = add_sync_block(func, r, target, depth[i]);
        syncs[i] = sync;
        let push = match target {
            Target::Kepler => Ins::new(Opcode::Ssy),
            _ => Ins::new(Opcode::Bssy).src(barrier(depth[i])),
        };
        func.block_mut(r.head).instrs.push(push.to(CodeRef::Block(r.join)).at_line(r.line));
        for &u in r.members.iter().chain(core::iter::once(&r.head)) {
            redirect(func, u, r.join, sync, target);
        }
    }
    if target == Target::Volta {
        leave_barriers(func, &regions, &depth, &syncs);
    }
    Ok(())
}

/// A `goto` out of loops leaves each barrier region it jumps out of with `BREAK Bn`, except
/// the one whose join only leads (through empty blocks) to the goto's label: that region's
/// `BSYNC` is on the way, so the jump goes there, as real compilers write it.
fn leave_barriers(func: &mut Func, regions: &[Region], depth: &[usize], syncs: &[BlockId]) {
    for u in func.order.clone() {
        let (Term::Jump(to), Some(_)) = (func.block(u).term, func.block(u).escape) else { continue };
        let line = func.block(u).term_line;
        let mut inner_first: Vec<usize> = (0..regions.len()).filter(|&i| regions[i].members.contains(&u)).collect();
        inner_first.sort_by_key(|&i| core::cmp::Reverse(depth[i]));
        for i in inner_first {
            let r = &regions[i];
            if r.members.contains(&to) || to == r.join {
                continue;
            }
            if forwards_to(func, r.join, to) {
                func.block_mut(u).term = Term::Jump(syncs[i]);
                break;
            }
            func.block_mut(u).instrs.push(Ins::new(Opcode::Break).src(barrier(depth[i])).at_line(line));
        }
    }
}

/// Convergence barrier `Bn` for a region nested `depth` deep (checked to be at most 15).
fn barrier(depth: usize) -> Operand {
    Operand::Barrier(depth as u8)
}

/// True when `b`, through empty blocks that only jump, reaches an empty block that exits.
fn only_exits(func: &Func, mut b: BlockId) -> bool {
    for _ in 0..func.blocks.len() {
        let block = func.block(b);
        if !block.instrs.is_empty() {
            return false;
        }
        match block.term {
            Term::Exit => return true,
            Term::Jump(next) => b = next,
            _ => return false,
        }
    }
    false
}

/// True when `from` reaches `to` through empty blocks that only jump.
fn forwards_to(func: &Func, mut from: BlockId, to: BlockId) -> bool {
    for _ in 0..func.blocks.len() {
        if from == to {
            return true;
        }
        match func.block(from).term {
            Term::Jump(next) if func.block(from).instrs.is_empty() => from = next,
            _ => return false,
        }
    }
    false
}

/// The regions to reconverge; `volta`: loops' escapes are edges of the graph (`BREAK`), and a
/// region whose join only exits gets none.
fn find_regions(func: &Func, volta: bool) -> Vec<Region> {
    let cfg = func.cfg(volta);
    let dom = compute_dominators(&cfg);
    let pdt = compute_post_dominators(&cfg);
    let loops: Vec<BTreeSet<BlockId>> = back_edges(&cfg)
        .into_iter()
        .filter(|(from, header)| dom.dominates(*header, *from))
        .map(|(from, header)| natural_loop(&cfg, from, header))
        .collect();
    let mut groups: Vec<(BlockId, Vec<BlockId>)> = Vec::new();
    for &b in &func.order {
        if !matches!(func.block(b).term, Term::Branch { .. }) || func.block(b).uniform || !dom.is_reachable(b) {
            continue;
        }
        let Some(PostDom::Block(p)) = pdt.ipdom(b) else { continue };
        if volta && only_exits(func, p) {
            continue;
        }
        match groups.iter_mut().find(|g| g.0 == p) {
            Some(g) => g.1.push(b),
            None => groups.push((p, alloc::vec![b])),
        }
    }
    let mut regions = Vec::new();
    for (join, branches) in groups {
        let mut head = branches[0];
        for &b in &branches[1..] {
            head = common_dominator(&dom, head, b);
        }
        // A loop that does not hold the join would push a token every iteration.
        while let Some(l) = loops.iter().find(|l| l.contains(&head) && !l.contains(&join)) {
            let header = *l.iter().find(|h| l.iter().all(|x| dom.dominates(**h, *x))).unwrap_or(&head);
            match dom.idom(header) {
                Some(d) if d != head => head = d,
                _ => break,
            }
        }
        let members = reachable_before(&cfg, head, join);
        // A region entered from the side (a block of it reached without passing the head) has
        // paths that would pop a token they never pushed. Its branches get no SSY: their DIV
        // tokens are popped by the enclosing region's pop, or when the warp empties.
        let side_entry = members.iter().any(|&m| cfg.preds(m).iter().any(|p| *p != head && !members.contains(p)));
        if side_entry {
            continue;
        }
        let line = func.block(branches[0]).term_line;
        regions.push(Region { join, head, members, line });
    }
    regions
}

fn common_dominator(dom: &crate::analysis::DomTree, mut a: BlockId, b: BlockId) -> BlockId {
    while !dom.dominates(a, b) {
        match dom.idom(a) {
            Some(d) => a = d,
            None => break,
        }
    }
    a
}

/// The blocks of the natural loop of back edge `from -> header`.
pub(crate) fn natural_loop(cfg: &Cfg, from: BlockId, header: BlockId) -> BTreeSet<BlockId> {
    let mut body = BTreeSet::from([header]);
    let mut work = alloc::vec![from];
    while let Some(b) = work.pop() {
        if body.insert(b) {
            work.extend_from_slice(cfg.preds(b));
        }
    }
    body
}

/// Blocks reachable from `head`'s successors without passing through `join`.
fn reachable_before(cfg: &Cfg, head: BlockId, join: BlockId) -> BTreeSet<BlockId> {
    let mut seen = BTreeSet::new();
    let mut work: Vec<BlockId> = cfg.succs(head).to_vec();
    while let Some(b) = work.pop() {
        if b == join || !seen.insert(b) {
            continue;
        }
        work.extend_from_slice(cfg.succs(b));
    }
    seen
}

/// The block every path of the region passes on its way into the join: `SYNC` on Kepler,
/// `BSYNC Bn` on Volta. Laid out just before the join.
fn add_sync_block(func: &mut Func, r: &Region, target: Target, barrier: usize) -> BlockId {
    let label = format!("{}_sync", func.block(r.join).label);
    let s = func.new_block(label);
    let line = r.line;
    match target {
        Target::Kepler => {
            let b = func.block_mut(s);
            b.term = Term::Sync(r.join);
            b.term_line = line;
        }
        _ => {
            let b = func.block_mut(s);
            b.instrs.push(Ins::new(Opcode::Bsync).src(self::barrier(barrier)).at_line(line));
            b.term = Term::Jump(r.join);
            b.term_line = line;
        }
    }
    let at = func.order.iter().position(|b| *b == r.join).unwrap_or(func.order.len());
    func.order.insert(at, s);
    s
}

/// Sends `u`'s edges into `join` to `sync` instead. On Kepler a plain jump to the `SYNC` block
/// becomes a `SYNC` of its own (it pops and goes to the token's pc), unless `u` falls into it.
fn redirect(func: &mut Func, u: BlockId, join: BlockId, sync: BlockId, target: Target) {
    let next = func.order.iter().position(|b| *b == u).and_then(|k| func.order.get(k + 1)).copied();
    let b = func.block_mut(u);
    b.term = match b.term {
        Term::Jump(t) if t == join => {
            if target == Target::Kepler && next != Some(sync) {
                Term::Sync(join)
            } else {
                Term::Jump(sync)
            }
        }
        Term::Branch { pred, neg, taken, fall } => {
            Term::Branch { pred, neg, taken: if taken == join { sync } else { taken }, fall: if fall == join { sync } else { fall } }
        }
        t => t,
    };
}
