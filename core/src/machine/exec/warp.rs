//! Instructions that read other lanes: `SHFL`, `VOTE`, `MATCH`, `REDUX`, and the member-mask check of
//! the `_sync` instructions (`SHFL`/`VOTE`/`MATCH` with a mask, `WARPSYNC`).
//!
//! The mask and lane arithmetic is PTX's, which knows 32 lanes: a warp wider than 32 works as
//! 32-lane halves, each lane shuffling and voting within its own half, and bit `i` of a mask
//! naming lane `i` of the executing lane's half. Mask bits past the warp width name no lane.

use super::{gather, scatter, ExecError, MemberFault};
use crate::isa::{Guard, MatchMode, Pred, PredSrc, ReduxOp, Reg, ShflMode, Src, VoteMode};
use crate::machine::{LaneMask, Machine};

/// A source's value in one lane.
fn value(m: &Machine, lane: u32, s: Src) -> u32 {
    match s {
        Src::Imm(v) => v,
        Src::Reg { reg, negated } => {
            let v = m.reg(lane, reg);
            if negated {
                v.wrapping_neg()
            } else {
                v
            }
        }
    }
}

/// The lanes `mask` names for `lane`: bit `i` is lane `i` of the lane's 32-lane half.
fn named(mask: u32, lane: u32, width: u32) -> LaneMask {
    LaneMask((mask as u64) << (lane & !31)) & LaneMask::full(width)
}

/// The lanes a member mask names for `lane`, reading the mask in that lane.
pub fn member_lanes(m: &Machine, lane: u32, mask: Src) -> LaneMask {
    named(value(m, lane, mask), lane, m.width)
}

/// The 32-lane half `lane` is in.
fn half(lane: u32) -> LaneMask {
    LaneMask(0xffff_ffffu64 << (lane & !31))
}

/// Every lane each executing lane's mask names must execute the instruction too (CUDA: "each
/// calling thread must have its own bit set in the mask and all non-exited threads named in mask
/// must execute the same intrinsic"; an exited lane named in the mask is an error too).
/// `issued`: the lanes the instruction issued for; `lanes`: those whose guard held.
pub fn check_members(m: &Machine, issued: LaneMask, lanes: LaneMask, mask: Src) -> Result<(), ExecError> {
    let mut names = LaneMask::EMPTY;
    let mut first = None;
    for l in lanes.iter() {
        let v = value(m, l, mask);
        first.get_or_insert(v);
        names |= named(v, l, m.width);
    }
    let missing = names.without(lanes);
    if missing.is_empty() {
        return Ok(());
    }
    let guarded_off = missing & issued.without(lanes);
    Err(ExecError::Members(MemberFault { mask: first.unwrap_or(0), named: names, missing, guarded_off }))
}

/// PTX `shfl.sync`'s source lane for `lane` (0-31): `c` packs the clamp value (bits 4:0) and the
/// segment mask (bits 12:8). Returns the lane to read and whether it is in range; out of range,
/// the lane reads itself.
pub fn shfl_source(mode: ShflMode, lane: u32, b: u32, c: u32) -> (u32, bool) {
    let lane = (lane & 31) as i32;
    let (bval, cval, seg) = ((b & 31) as i32, (c & 31) as i32, (c >> 8 & 31) as i32);
    let max = (lane & seg) | (cval & !seg);
    let min = lane & seg;
    let (j, ok) = match mode {
        ShflMode::Up => (lane - bval, lane - bval >= max),
        ShflMode::Down => (lane + bval, lane + bval <= max),
        ShflMode::Bfly => (lane ^ bval, (lane ^ bval) <= max),
        ShflMode::Idx => (min | (bval & !seg), (min | (bval & !seg)) <= max),
    };
    if ok {
        (j as u32, true)
    } else {
        (lane as u32, false)
    }
}

/// `SHFL`: every lane reads the row of `a` as it was before the instruction; a source lane out
/// of range or not executing gives the lane its own `a`. `pred` gets "in range".
#[allow(clippy::too_many_arguments)]
pub fn shfl<const N: usize>(m: &mut Machine, lanes: LaneMask, mode: ShflMode, pred: Pred, dst: Reg, a: Src, b: Src, c: Src) {
    let (vals, bs, cs) = (gather::<N>(m, a, false), gather::<N>(m, b, false), gather::<N>(m, c, false));
    let mut out = vals;
    let mut in_range = LaneMask::EMPTY;
    for l in lanes.iter() {
        let (j, ok) = shfl_source(mode, l, bs[l as usize], cs[l as usize]);
        let src = (l & !31) + j;
        if ok {
            in_range = in_range.with(l);
        }
        if lanes.contains(src) {
            out[l as usize] = vals[src as usize];
        }
    }
    scatter(m, dst, lanes, &out);
    if !pred.is_true() {
        let p = &mut m.preds[pred.0 as usize];
        *p = p.without(lanes) | in_range;
    }
}

/// `VOTE`: each lane's ballot of `src` over the executing lanes of its half (and of its mask),
/// and whether it holds in all, any, or all-or-none of them.
#[allow(clippy::too_many_arguments)]
pub fn vote(m: &mut Machine, lanes: LaneMask, mode: VoteMode, dst: Reg, pred: Pred, src: PredSrc, mask: Option<Src>) {
    let holds = m.guard_mask(Some(Guard { pred: src.pred, negated: src.negated }), lanes);
    let mut result = LaneMask::EMPTY;
    for l in lanes.iter() {
        let members = mask.map_or(half(l), |s| named(value(m, l, s), l, m.width));
        let scope = lanes & half(l) & members;
        let yes = holds & scope;
        let r = match mode {
            VoteMode::All => yes == scope,
            VoteMode::Any => !yes.is_empty(),
            VoteMode::Eq => yes.is_empty() || yes == scope,
        };
        if r {
            result = result.with(l);
        }
        m.set_reg(l, dst, (yes.0 >> (l & !31)) as u32);
    }
    if !pred.is_true() {
        let p = &mut m.preds[pred.0 as usize];
        *p = p.without(lanes) | result;
    }
}

/// `REDUX`: `src` combined over the executing lanes of each 32-lane half, into `dst` of each.
pub fn redux(m: &mut Machine, lanes: LaneMask, op: ReduxOp, dst: Reg, src: Reg) {
    for base in [0u32, 32] {
        let scope = lanes & half(base);
        if scope.is_empty() {
            continue;
        }
        let vals = scope.iter().map(|l| m.reg(l, src));
        let r = match op {
            ReduxOp::Sum => vals.fold(0u32, u32::wrapping_add),
            ReduxOp::Min { signed: true } => vals.map(|v| v as i32).min().unwrap_or(0) as u32,
            ReduxOp::Max { signed: true } => vals.map(|v| v as i32).max().unwrap_or(0) as u32,
            ReduxOp::Min { signed: false } => vals.min().unwrap_or(0),
            ReduxOp::Max { signed: false } => vals.max().unwrap_or(0),
            ReduxOp::And => vals.fold(u32::MAX, |a, v| a & v),
            ReduxOp::Or => vals.fold(0, |a, v| a | v),
            ReduxOp::Xor => vals.fold(0, |a, v| a ^ v),
        };
        for l in scope.iter() {
            m.set_reg(l, dst, r);
        }
    }
}

/// A `MATCH` operand in one lane: 32 bits, or with `wide` a register pair's 64 (`-` negating).
fn match_value(m: &Machine, lane: u32, s: Src, wide: bool) -> u64 {
    match s {
        Src::Reg { reg, negated } if wide => {
            let hi = if reg.is_zero() || reg.0 >= 254 { Reg::RZ } else { Reg(reg.0 + 1) };
            let v = (m.reg(lane, hi) as u64) << 32 | m.reg(lane, reg) as u64;
            if negated {
                v.wrapping_neg()
            } else {
                v
            }
        }
        _ => value(m, lane, s) as u64,
    }
}

/// `MATCH`: over the executing lanes of each lane's half (and of its mask), `.ANY` gives the
/// lane the lanes whose value equals its own; `.ALL` gives them all, and `pred` true, when every
/// value is the same, else 0 and false. Every value is read before any lane writes.
#[allow(clippy::too_many_arguments)]
pub fn match_lanes(m: &mut Machine, lanes: LaneMask, mode: MatchMode, pred: Pred, dst: Reg, src: Src, wide: bool, mask: Option<Src>) {
    let mut vals = [0u64; crate::machine::MAX_WARP as usize];
    for l in lanes.iter() {
        vals[l as usize] = match_value(m, l, src, wide);
    }
    let mut out = [0u32; crate::machine::MAX_WARP as usize];
    let mut all_same = LaneMask::EMPTY;
    for l in lanes.iter() {
        let members = mask.map_or(half(l), |s| named(value(m, l, s), l, m.width));
        let scope = lanes & half(l) & members;
        let same = scope.iter().filter(|&k| vals[k as usize] == vals[l as usize]).fold(LaneMask::EMPTY, |a, k| a.with(k));
        let found = match mode {
            MatchMode::Any => same,
            MatchMode::All if same == scope => {
                all_same = all_same.with(l);
                scope
            }
            MatchMode::All => LaneMask::EMPTY,
        };
        out[l as usize] = (found.0 >> (l & !31)) as u32;
    }
    for l in lanes.iter() {
        m.set_reg(l, dst, out[l as usize]);
    }
    if !pred.is_true() {
        let p = &mut m.preds[pred.0 as usize];
        *p = p.without(lanes) | all_same;
    }
}

#[cfg(test)]
mod tests;
