//! The data path: what a non-control instruction does to the lanes it runs on.
//! Shared by every reconvergence model, which only decide the pc and the lanes.

use alloc::format;
use alloc::string::String;

use super::{LaneMask, Machine};
use crate::isa::*;

#[inline]
fn int(m: &Machine, lane: u32, s: Src) -> u32 {
    match s {
        Src::Reg { reg, negated } => {
            let v = m.reg(lane, reg);
            if negated {
                v.wrapping_neg()
            } else {
                v
            }
        }
        Src::Imm(v) => v,
    }
}

#[inline]
fn float(m: &Machine, lane: u32, s: Src) -> f32 {
    match s {
        Src::Reg { reg, negated } => {
            let v = f32::from_bits(m.reg(lane, reg));
            if negated {
                -v
            } else {
                v
            }
        }
        Src::Imm(v) => f32::from_bits(v),
    }
}

fn compare<T: PartialOrd>(cmp: Cmp, a: T, b: T) -> bool {
    match cmp {
        Cmp::Lt => a < b,
        Cmp::Le => a <= b,
        Cmp::Gt => a > b,
        Cmp::Ge => a >= b,
        Cmp::Eq => a == b,
        Cmp::Ne => a != b,
        Cmp::True => true,
        Cmp::False => false,
    }
}

fn combine(op: BoolOp, a: bool, b: bool) -> bool {
    match op {
        BoolOp::And => a && b,
        BoolOp::Or => a || b,
        BoolOp::Xor => a != b,
    }
}

/// Runs `f` for each lane, with a fast path for the common all-lanes-from-zero mask.
#[inline]
fn each_lane(mask: LaneMask, mut f: impl FnMut(u32)) {
    let bits = mask.0;
    if bits != 0 && bits & bits.wrapping_add(1) == 0 {
        for lane in 0..bits.count_ones() {
            f(lane);
        }
    } else {
        for lane in mask.iter() {
            f(lane);
        }
    }
}

fn lut3(lut: u8, a: u32, b: u32, c: u32) -> u32 {
    // Bit k of the result is lut[(a_k << 2) | (b_k << 1) | c_k], as in LOP3.LUT.
    let mut out = 0;
    for k in 0..8u32 {
        if lut >> k & 1 == 1 {
            let ma = if k & 4 != 0 { a } else { !a };
            let mb = if k & 2 != 0 { b } else { !b };
            let mc = if k & 1 != 0 { c } else { !c };
            out |= ma & mb & mc;
        }
    }
    out
}

fn special(m: &Machine, lane: u32, sr: SpecialReg) -> (u32, u32) {
    match sr {
        SpecialReg::TidX | SpecialReg::LaneId => (lane, 0),
        SpecialReg::NtidX => (m.width, 0),
        SpecialReg::Zero | SpecialReg::Srz => (0, 0),
        SpecialReg::ClockLo => (m.clock as u32, (m.clock >> 32) as u32),
        SpecialReg::ClockHi => ((m.clock >> 32) as u32, 0),
    }
}

fn address(m: &Machine, lane: u32, a: Address, word: u32) -> u32 {
    m.reg(lane, a.base).wrapping_add(a.offset as u32).wrapping_add(word * 4)
}

fn bad_access(kind: &str, lane: u32, addr: u32) -> String {
    format!("{kind} by lane {lane} at address {addr:#x}: outside every buffer or not 4-byte aligned")
}

/// Executes a non-control instruction on the lanes of `mask` whose guard holds.
/// Control instructions are the model's business and do nothing here.
pub fn execute(m: &mut Machine, instr: &Instruction, mask: LaneMask) -> Result<(), String> {
    let lanes = m.guard_mask(instr.guard, mask);
    if lanes.is_empty() {
        return Ok(());
    }
    match instr.op {
        Op::Iadd { dst, a, b } => each_lane(lanes, |l| {
            let v = int(m, l, a).wrapping_add(int(m, l, b));
            m.set_reg(l, dst, v)
        }),
        Op::Iadd3 { dst, a, b, c } => each_lane(lanes, |l| {
            let v = int(m, l, a).wrapping_add(int(m, l, b)).wrapping_add(int(m, l, c));
            m.set_reg(l, dst, v)
        }),
        Op::Iscadd { dst, a, b, shift } => each_lane(lanes, |l| {
            let v = (int(m, l, a) << shift).wrapping_add(int(m, l, b));
            m.set_reg(l, dst, v)
        }),
        Op::Imul { dst, a, b, hi, signed } => each_lane(lanes, |l| {
            let v = mul(int(m, l, a), int(m, l, b), hi, signed);
            m.set_reg(l, dst, v)
        }),
        Op::Imad { dst, a, b, c, hi, signed } => each_lane(lanes, |l| {
            let v = mul(int(m, l, a), int(m, l, b), hi, signed).wrapping_add(int(m, l, c));
            m.set_reg(l, dst, v)
        }),
        Op::Isetp { cmp, signed, combine: op, dst, dst_inv, a, b, c } => each_lane(lanes, |l| {
            let (x, y) = (int(m, l, a), int(m, l, b));
            let r = if signed { compare(cmp, x as i32, y as i32) } else { compare(cmp, x, y) };
            let cv = m.pred(l, c.pred) != c.negated;
            m.set_pred(l, dst, combine(op, r, cv));
            m.set_pred(l, dst_inv, combine(op, !r, cv));
        }),
        Op::Fsetp { cmp, combine: op, dst, dst_inv, a, b, c } => each_lane(lanes, |l| {
            let r = compare(cmp, float(m, l, a), float(m, l, b));
            let cv = m.pred(l, c.pred) != c.negated;
            m.set_pred(l, dst, combine(op, r, cv));
            m.set_pred(l, dst_inv, combine(op, !r, cv));
        }),
        Op::Fadd { dst, a, b } => each_lane(lanes, |l| {
            let v = float(m, l, a) + float(m, l, b);
            m.set_reg(l, dst, v.to_bits())
        }),
        Op::Fmul { dst, a, b } => each_lane(lanes, |l| {
            let v = float(m, l, a) * float(m, l, b);
            m.set_reg(l, dst, v.to_bits())
        }),
        // Not fused: `core` has no fma without libm; the rounding difference does not matter here.
        Op::Ffma { dst, a, b, c } => each_lane(lanes, |l| {
            let v = float(m, l, a) * float(m, l, b) + float(m, l, c);
            m.set_reg(l, dst, v.to_bits())
        }),
        Op::Mov { dst, src } => each_lane(lanes, |l| {
            let v = int(m, l, src);
            m.set_reg(l, dst, v)
        }),
        Op::Sel { dst, a, b, p } => each_lane(lanes, |l| {
            let v = if m.pred(l, p.pred) != p.negated { int(m, l, a) } else { int(m, l, b) };
            m.set_reg(l, dst, v)
        }),
        Op::Lop { op, dst, a, b, invert_b } => each_lane(lanes, |l| {
            let x = int(m, l, a);
            let y = if invert_b { !int(m, l, b) } else { int(m, l, b) };
            let v = match op {
                LogicOp::And => x & y,
                LogicOp::Or => x | y,
                LogicOp::Xor => x ^ y,
                LogicOp::PassB => y,
            };
            m.set_reg(l, dst, v)
        }),
        Op::Lop3 { dst, a, b, c, lut } => each_lane(lanes, |l| {
            let v = lut3(lut, int(m, l, a), int(m, l, b), int(m, l, c));
            m.set_reg(l, dst, v)
        }),
        Op::Shl { dst, a, b } => each_lane(lanes, |l| {
            let s = int(m, l, b);
            let v = if s >= 32 { 0 } else { int(m, l, a) << s };
            m.set_reg(l, dst, v)
        }),
        Op::Shr { dst, a, b, signed } => each_lane(lanes, |l| {
            let (x, s) = (int(m, l, a), int(m, l, b).min(32));
            let v = match (signed, s) {
                (true, 32) => ((x as i32) >> 31) as u32,
                (true, s) => ((x as i32) >> s) as u32,
                (false, 32) => 0,
                (false, s) => x >> s,
            };
            m.set_reg(l, dst, v)
        }),
        Op::S2r { dst, sr } => each_lane(lanes, |l| {
            let v = special(m, l, sr).0;
            m.set_reg(l, dst, v)
        }),
        Op::Cs2r { dst, sr, wide } => each_lane(lanes, |l| {
            let (lo, hi) = special(m, l, sr);
            m.set_reg(l, dst, lo);
            if wide && dst.0 < 254 {
                m.set_reg(l, Reg(dst.0 + 1), hi);
            }
        }),
        Op::Ld { dst, addr, width } => {
            for l in lanes.iter() {
                for w in 0..width.words() {
                    let at = address(m, l, addr, w);
                    let v = m.memory.load(at).ok_or_else(|| bad_access("load", l, at))?;
                    if dst.0 as u32 + w < 255 {
                        m.set_reg(l, Reg(dst.0 + w as u8), v);
                    }
                }
            }
        }
        Op::St { src, addr, width } => {
            for l in lanes.iter() {
                for w in 0..width.words() {
                    let at = address(m, l, addr, w);
                    let v = if src.is_zero() { 0 } else { m.reg(l, Reg(src.0.saturating_add(w as u8))) };
                    m.memory.store(at, v).ok_or_else(|| bad_access("store", l, at))?;
                }
            }
        }
        _ => {}
    }
    Ok(())
}

fn mul(a: u32, b: u32, hi: bool, signed: bool) -> u32 {
    match (hi, signed) {
        (false, _) => a.wrapping_mul(b),
        (true, true) => ((a as i32 as i64 * b as i32 as i64) >> 32) as u32,
        (true, false) => ((a as u64 * b as u64) >> 32) as u32,
    }
}

#[cfg(test)]
mod tests;
