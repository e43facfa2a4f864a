//! If-conversion: a branch around a few plain instructions becomes those instructions under
//! the branch's predicate, as real compilers do for short sides. No branch means no
//! divergence: the warp runs both sides with lanes masked off by the guard, and no token is
//! pushed. A side that only leaves (`EXIT`, `BRK`, `CONT`, `RET`) becomes a guarded one.

use alloc::vec::Vec;

use super::ir::{Func, Ins, Term};
use crate::cfg::BlockId;

/// The most instructions one side may have to be predicated instead of branched around.
pub const MAX_SIDE: usize = 10;

pub fn if_convert(func: &mut Func) {
    // Inner conversions can make an outer side short enough; repeat until nothing changes.
    while convert_one(func) {}
}

fn preds_of(func: &Func, b: BlockId) -> usize {
    func.order.iter().filter(|&&u| func.succs(u).contains(&b)).count()
}

/// A side that can run under a guard: few instructions, none guarded, none writing a
/// predicate, none that changes control flow.
fn simple(func: &Func, b: BlockId) -> bool {
    let blk = func.block(b);
    blk.instrs.len() <= MAX_SIDE && blk.instrs.iter().all(Ins::can_be_guarded)
}

fn guarded(instrs: &[Ins], pred: u8, neg: bool) -> Vec<Ins> {
    instrs.iter().map(|i| i.clone().guarded(Some((pred, neg)))).collect()
}

fn convert_one(func: &mut Func) -> bool {
    for k in 0..func.order.len() {
        let b = func.order[k];
        let Term::Branch { pred, neg, taken, fall } = func.block(b).term else { continue };
        if taken == fall || taken == b || fall == b {
            continue;
        }
        let only_from_b = |x: BlockId| preds_of(func, x) == 1 && simple(func, x);
        let (t_term, f_term) = (func.block(taken).term, func.block(fall).term);
        // Each side: (block, guard negated?) -> what it converts to.
        let mut new: Vec<Ins> = Vec::new();
        let next;
        if only_from_b(fall) && only_from_b(taken) && matches!((t_term, f_term), (Term::Jump(x), Term::Jump(y)) if x == y) {
            // if/else with two short sides meeting at one join.
            new.extend(guarded(&func.block(fall).instrs, pred, !neg));
            new.extend(guarded(&func.block(taken).instrs, pred, neg));
            let Term::Jump(j) = t_term else { continue };
            next = j;
            remove(func, &[taken, fall]);
        } else if let Some((side, other, side_neg)) = one_side(func, taken, fall, neg) {
            let blk = func.block(side);
            new.extend(guarded(&blk.instrs, pred, side_neg));
            if let Some(op) = blk.term.leaving_op() {
                let line = blk.term_line;
                new.push(Ins::new(op).guarded(Some((pred, side_neg))).at_line(line));
            }
            next = other;
            remove(func, &[side]);
        } else {
            continue;
        }
        let blk = func.block_mut(b);
        blk.instrs.extend(new);
        blk.term = Term::Jump(next);
        return true;
    }
    false
}

/// An `if` without `else`: one side short and either rejoining the other side or leaving.
/// Returns (short side, where control goes on, whether the short side's guard is negated).
fn one_side(func: &Func, taken: BlockId, fall: BlockId, neg: bool) -> Option<(BlockId, BlockId, bool)> {
    for (side, other, side_neg) in [(fall, taken, !neg), (taken, fall, neg)] {
        if preds_of(func, side) != 1 || !simple(func, side) {
            continue;
        }
        match func.block(side).term {
            Term::Jump(j) if j == other => return Some((side, other, side_neg)),
            t if t.leaving_op().is_some() => return Some((side, other, side_neg)),
            _ => {}
        }
    }
    None
}

fn remove(func: &mut Func, blocks: &[BlockId]) {
    func.order.retain(|b| !blocks.contains(b));
}
