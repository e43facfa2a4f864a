//! The data path: what a non-control instruction does to the lanes it runs on.
//! Shared by every reconvergence model, which only decide the pc and the lanes.

use alloc::format;
use alloc::string::String;

use super::{LaneMask, Machine, MAX_WARP};
use crate::isa::*;

/// Values of one operand across all lanes of the warp.
type Lanes = [u32; MAX_WARP as usize];

/// Reads a source for every lane: register rows are contiguous (register-major), so this is a
/// copy, and the arithmetic below runs over plain arrays the compiler can vectorise.
#[inline]
fn gather(m: &Machine, s: Src, out: &mut Lanes) {
    let w = m.width as usize;
    match s {
        Src::Imm(v) => out[..w].fill(v),
        Src::Reg { reg, negated } => {
            if reg.is_zero() || reg.0 as u32 >= m.nregs {
                out[..w].fill(0);
                return;
            }
            let base = reg.0 as usize * w;
            out[..w].copy_from_slice(&m.regs[base..base + w]);
            if negated {
                out[..w].iter_mut().for_each(|x| *x = x.wrapping_neg());
            }
        }
    }
}

/// Like `gather`, for float operands: negation flips the sign bit.
#[inline]
fn gather_f(m: &Machine, s: Src, out: &mut Lanes) {
    match s {
        Src::Reg { reg, negated: true } => {
            gather(m, Src::reg(reg), out);
            out.iter_mut().for_each(|x| *x ^= 0x8000_0000);
        }
        other => gather(m, other, out),
    }
}

/// Writes `vals` to `dst` in the lanes of `lanes` only.
#[inline]
fn scatter(m: &mut Machine, dst: Reg, lanes: LaneMask, vals: &Lanes) {
    if dst.is_zero() || dst.0 as u32 >= m.nregs {
        return;
    }
    let w = m.width as usize;
    let row = &mut m.regs[dst.0 as usize * w..(dst.0 as usize + 1) * w];
    if lanes == LaneMask::full(w as u32) {
        row.copy_from_slice(&vals[..w]);
    } else {
        for (i, r) in row.iter_mut().enumerate() {
            if lanes.0 >> i & 1 == 1 {
                *r = vals[i];
            }
        }
    }
}

#[inline]
fn map2(m: &mut Machine, lanes: LaneMask, dst: Reg, a: Src, b: Src, float: bool, f: impl Fn(u32, u32) -> u32) {
    let (mut x, mut y) = ([0u32; MAX_WARP as usize], [0u32; MAX_WARP as usize]);
    let read = if float { gather_f } else { gather };
    read(m, a, &mut x);
    read(m, b, &mut y);
    let w = m.width as usize;
    for (xi, yi) in x[..w].iter_mut().zip(y[..w].iter()) {
        *xi = f(*xi, *yi);
    }
    scatter(m, dst, lanes, &x);
}

#[inline]
#[allow(clippy::too_many_arguments)]
fn map3(m: &mut Machine, lanes: LaneMask, dst: Reg, a: Src, b: Src, c: Src, float: bool, f: impl Fn(u32, u32, u32) -> u32) {
    let (mut x, mut y, mut z) = ([0u32; MAX_WARP as usize], [0u32; MAX_WARP as usize], [0u32; MAX_WARP as usize]);
    let read = if float { gather_f } else { gather };
    read(m, a, &mut x);
    read(m, b, &mut y);
    read(m, c, &mut z);
    for i in 0..m.width as usize {
        x[i] = f(x[i], y[i], z[i]);
    }
    scatter(m, dst, lanes, &x);
}

/// Sets `dst` to `result op c` and `dst_inv` to `!result op c` in the lanes of `lanes`.
fn set_preds(m: &mut Machine, lanes: LaneMask, result: LaneMask, op: BoolOp, dst: Pred, dst_inv: Pred, c: PredSrc) {
    let c_mask = m.guard_mask(Some(Guard { pred: c.pred, negated: c.negated }), lanes);
    let all = m.all_lanes();
    let combine_mask = |r: LaneMask| match op {
        BoolOp::And => r & c_mask,
        BoolOp::Or => r | c_mask,
        BoolOp::Xor => LaneMask(r.0 ^ c_mask.0),
    };
    for (p, r) in [(dst, result), (dst_inv, all.without(result))] {
        if !p.is_true() {
            let slot = &mut m.preds[p.0 as usize];
            *slot = slot.without(lanes) | (combine_mask(r) & lanes);
        }
    }
}

/// The lanes where `test` holds for the two operands.
fn compare_lanes(m: &Machine, a: Src, b: Src, float: bool, test: impl Fn(u32, u32) -> bool) -> LaneMask {
    let (mut x, mut y) = ([0u32; MAX_WARP as usize], [0u32; MAX_WARP as usize]);
    let read = if float { gather_f } else { gather };
    read(m, a, &mut x);
    read(m, b, &mut y);
    let mut bits = 0u64;
    for i in 0..m.width as usize {
        bits |= (test(x[i], y[i]) as u64) << i;
    }
    LaneMask(bits)
}

#[inline]
fn fl(x: u32) -> f32 {
    f32::from_bits(x)
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
        Op::Iadd { dst, a, b } => map2(m, lanes, dst, a, b, false, u32::wrapping_add),
        Op::Iadd3 { dst, a, b, c } => map3(m, lanes, dst, a, b, c, false, |x, y, z| x.wrapping_add(y).wrapping_add(z)),
        Op::Iscadd { dst, a, b, shift } => map2(m, lanes, dst, a, b, false, |x, y| (x << shift).wrapping_add(y)),
        Op::Imul { dst, a, b, hi, signed } => map2(m, lanes, dst, a, b, false, |x, y| mul(x, y, hi, signed)),
        Op::Imad { dst, a, b, c, hi, signed } => map3(m, lanes, dst, a, b, c, false, |x, y, z| mul(x, y, hi, signed).wrapping_add(z)),
        Op::Isetp { cmp, signed, combine: op, dst, dst_inv, a, b, c } => {
            let r = if signed { compare_lanes(m, a, b, false, |x, y| compare(cmp, x as i32, y as i32)) } else { compare_lanes(m, a, b, false, |x, y| compare(cmp, x, y)) };
            set_preds(m, lanes, r, op, dst, dst_inv, c);
        }
        Op::Fsetp { cmp, combine: op, dst, dst_inv, a, b, c } => {
            let r = compare_lanes(m, a, b, true, |x, y| compare(cmp, fl(x), fl(y)));
            set_preds(m, lanes, r, op, dst, dst_inv, c);
        }
        Op::Fadd { dst, a, b } => map2(m, lanes, dst, a, b, true, |x, y| (fl(x) + fl(y)).to_bits()),
        Op::Fmul { dst, a, b } => map2(m, lanes, dst, a, b, true, |x, y| (fl(x) * fl(y)).to_bits()),
        // Not fused: `core` has no fma without libm; the rounding difference does not matter here.
        Op::Ffma { dst, a, b, c } => map3(m, lanes, dst, a, b, c, true, |x, y, z| (fl(x) * fl(y) + fl(z)).to_bits()),
        Op::Mov { dst, src } => map2(m, lanes, dst, src, Src::Imm(0), false, |x, _| x),
        Op::Sel { dst, a, b, p } => {
            let chosen = m.guard_mask(Some(Guard { pred: p.pred, negated: p.negated }), lanes);
            map2(m, chosen, dst, a, b, false, |x, _| x);
            map2(m, lanes.without(chosen), dst, a, b, false, |_, y| y);
        }
        Op::Lop { op, dst, a, b, invert_b } => map2(m, lanes, dst, a, b, false, |x, y| {
            let y = if invert_b { !y } else { y };
            match op {
                LogicOp::And => x & y,
                LogicOp::Or => x | y,
                LogicOp::Xor => x ^ y,
                LogicOp::PassB => y,
            }
        }),
        Op::Lop3 { dst, a, b, c, lut } => map3(m, lanes, dst, a, b, c, false, |x, y, z| lut3(lut, x, y, z)),
        Op::Shl { dst, a, b } => map2(m, lanes, dst, a, b, false, |x, s| if s >= 32 { 0 } else { x << s }),
        Op::Shr { dst, a, b, signed } => map2(m, lanes, dst, a, b, false, |x, s| match (signed, s.min(32)) {
            (true, 32) => ((x as i32) >> 31) as u32,
            (true, s) => ((x as i32) >> s) as u32,
            (false, 32) => 0,
            (false, s) => x >> s,
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
