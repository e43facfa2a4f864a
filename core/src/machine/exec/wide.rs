//! 64-bit data on register pairs (`Rn` low word, `Rn+1` high word): carries, wide multiply-add,
//! funnel shifts, doubles and conversions. Per lane: these are rare enough not to need rows.

use super::{each_lane, float, set_preds};
use crate::isa::{BoolOp, Cmp, Guard, NumType, Pred, PredSrc, Reg, Round, Src};
use crate::machine::{LaneMask, Machine};

/// A 32-bit source in one lane, plus its `+1` when it is a register negated with `-` (the
/// hardware adds `~r + 1`, so the carry out of `a - 0` is set).
fn add_term(m: &Machine, lane: u32, s: Src) -> u64 {
    match s {
        Src::Imm(v) => v as u64,
        Src::Reg { reg, negated: false } => m.reg(lane, reg) as u64,
        Src::Reg { reg, negated: true } => (!m.reg(lane, reg)) as u64 + 1,
    }
}

fn next(r: Reg) -> Reg {
    if r.is_zero() || r.0 >= 254 {
        Reg::RZ
    } else {
        Reg(r.0 + 1)
    }
}

/// A register pair's 64 bits; an immediate is sign- or zero-extended; `-` negates (integers).
fn pair_int(m: &Machine, lane: u32, s: Src, signed: bool) -> u64 {
    match s {
        Src::Imm(v) if signed => v as i32 as i64 as u64,
        Src::Imm(v) => v as u64,
        Src::Reg { reg, negated } => {
            let v = (m.reg(lane, next(reg)) as u64) << 32 | m.reg(lane, reg) as u64;
            if negated {
                v.wrapping_neg()
            } else {
                v
            }
        }
    }
}

/// A double: a register pair (`-` flips the sign), or an immediate holding the high word.
fn double(m: &Machine, lane: u32, s: Src) -> f64 {
    match s {
        Src::Imm(hi) => f64::from_bits((hi as u64) << 32),
        Src::Reg { reg, negated } => {
            let bits = (m.reg(lane, next(reg)) as u64) << 32 | m.reg(lane, reg) as u64;
            f64::from_bits(if negated { bits ^ 1 << 63 } else { bits })
        }
    }
}

fn set_pair(m: &mut Machine, lane: u32, dst: Reg, v: u64) {
    m.set_reg(lane, dst, v as u32);
    m.set_reg(lane, next(dst), (v >> 32) as u32);
}

/// `IDIV.S64`/`.U64` and `IREM`: as the 32-bit forms, on pairs (by zero: all bits set).
#[allow(clippy::too_many_arguments)]
pub fn divide(m: &mut Machine, lanes: LaneMask, dst: Reg, a: Src, b: Src, signed: bool, rem: bool) {
    each_lane(lanes, |l| {
        let (x, y) = (pair_int(m, l, a, signed), pair_int(m, l, b, signed));
        let v = match (y, signed, rem) {
            (0, ..) => u64::MAX,
            (_, true, false) => (x as i64).wrapping_div(y as i64) as u64,
            (_, true, true) => (x as i64).wrapping_rem(y as i64) as u64,
            (_, false, false) => x / y,
            (_, false, true) => x % y,
        };
        set_pair(m, l, dst, v);
    });
}

fn set_pred_lanes(m: &mut Machine, p: Pred, lanes: LaneMask, set: LaneMask) {
    if !p.is_true() {
        let slot = &mut m.preds[p.0 as usize];
        *slot = slot.without(lanes) | set;
    }
}

/// `IADD3` with a carry out.
pub fn iadd3_carry(m: &mut Machine, lanes: LaneMask, dst: Reg, srcs: [Src; 3], carry: Pred) {
    let mut carried = LaneMask::EMPTY;
    each_lane(lanes, |l| {
        let sum: u64 = srcs.iter().map(|&s| add_term(m, l, s)).sum();
        if sum >> 32 != 0 {
            carried = carried.with(l);
        }
        m.set_reg(l, dst, sum as u32);
    });
    set_pred_lanes(m, carry, lanes, carried);
}

/// `IADD3.X`: a + b + c + the carry in, with `~` operands complemented.
pub fn iadd3_x(m: &mut Machine, lanes: LaneMask, dst: Reg, srcs: [Src; 3], invert: [bool; 3], carry_in: PredSrc, carry: Pred) {
    let cin = m.guard_mask(Some(Guard { pred: carry_in.pred, negated: carry_in.negated }), lanes);
    let mut carried = LaneMask::EMPTY;
    each_lane(lanes, |l| {
        let term = |k: usize| {
            let v = pair_int(m, l, srcs[k], false) as u32;
            (if invert[k] { !v } else { v }) as u64
        };
        let sum = term(0) + term(1) + term(2) + cin.contains(l) as u64;
        if sum >> 32 != 0 {
            carried = carried.with(l);
        }
        m.set_reg(l, dst, sum as u32);
    });
    set_pred_lanes(m, carry, lanes, carried);
}

/// `IMAD.WIDE`: the pair `dst` = a * b + the pair `c`.
pub fn imad_wide(m: &mut Machine, lanes: LaneMask, dst: Reg, a: Src, b: Src, c: Src, signed: bool) {
    each_lane(lanes, |l| {
        let (x, y) = (pair_int(m, l, a, false) as u32, pair_int(m, l, b, false) as u32);
        let product = if signed { (x as i32 as i64).wrapping_mul(y as i32 as i64) as u64 } else { x as u64 * y as u64 };
        let v = product.wrapping_add(pair_int(m, l, c, signed));
        set_pair(m, l, dst, v);
    });
}

/// `SHF`: a funnel shift of `{hi:lo}`.
#[allow(clippy::too_many_arguments)]
pub fn shf(lo: u32, shift: u32, hi: u32, left: bool, signed: bool, wide: bool, high: bool) -> u32 {
    let v = (hi as u64) << 32 | lo as u64;
    let s = if wide { shift & 63 } else { shift.min(32) };
    let r = match (left, signed) {
        (true, _) => v << s,
        (false, true) => ((v as i64) >> s) as u64,
        (false, false) => v >> s,
    };
    if high {
        (r >> 32) as u32
    } else {
        r as u32
    }
}

/// `DADD`, `DMUL`, `DFMA`, `DMNMX` (`f` of the three operands; `c` unused by the binary ones).
pub fn double_op(m: &mut Machine, lanes: LaneMask, dst: Reg, srcs: [Src; 3], f: impl Fn(f64, f64, f64, u32) -> f64) {
    each_lane(lanes, |l| {
        let r = f(double(m, l, srcs[0]), double(m, l, srcs[1]), double(m, l, srcs[2]), l);
        set_pair(m, l, dst, r.to_bits());
    });
}

/// `DSETP`.
#[allow(clippy::too_many_arguments)]
pub fn dsetp(m: &mut Machine, lanes: LaneMask, cmp: Cmp, combine: BoolOp, dst: Pred, dst_inv: Pred, a: Src, b: Src, c: PredSrc) {
    let mut holds = LaneMask::EMPTY;
    for l in lanes.iter() {
        if cmp.holds(double(m, l, a), double(m, l, b)) {
            holds = holds.with(l);
        }
    }
    set_preds(m, lanes, holds, combine, dst, dst_inv, c);
}

/// A conversion with a 64-bit side: 64-bit values as register pairs. Float to integer rounds to
/// an integral value in the direction `round` (`F2I.TRUNC` toward zero), then saturates (NaN
/// gives 0); a value the float type cannot hold exactly is rounded in that direction.
pub fn convert(m: &mut Machine, lanes: LaneMask, dst: Reg, src: Src, from: NumType, to: NumType, round: Round) {
    each_lane(lanes, |l| {
        let raw = if from.wide() {
            match (from, src) {
                (NumType::F64, _) => double(m, l, src).to_bits(),
                _ => pair_int(m, l, src, from == NumType::S64),
            }
        } else {
            pair_int(m, l, src, false) as u32 as u64
        };
        // Through f64 for floats and i128 for integers, both exact for every source value.
        let (float, int): (f64, i128) = match from {
            NumType::S32 => (raw as u32 as i32 as f64, raw as u32 as i32 as i128),
            NumType::U32 => (raw as u32 as f64, raw as u32 as i128),
            NumType::S64 => (raw as i64 as f64, raw as i64 as i128),
            NumType::U64 => (raw as f64, raw as i128),
            NumType::F32 => (f32::from_bits(raw as u32) as f64, 0),
            NumType::F64 => (f64::from_bits(raw), 0),
        };
        let whole = || float::integral(float, round);
        let out = match to {
            NumType::F32 if from.float() => float::round_f32(float, round).to_bits() as u64,
            NumType::F64 if from.float() => float.to_bits(),
            // An integer straight to f32 rounds once (i64 -> f64 -> f32 could round twice).
            NumType::F32 => float::int_to_f32(int, round).to_bits() as u64,
            NumType::F64 => float::int_to_f64(int, round).to_bits(),
            NumType::S32 => whole() as i32 as u32 as u64,
            NumType::U32 => whole() as u32 as u64,
            NumType::S64 => whole() as i64 as u64,
            NumType::U64 => whole() as u64,
        };
        if to.wide() {
            set_pair(m, l, dst, out);
        } else {
            m.set_reg(l, dst, out as u32);
        }
    });
}
