//! The per-lane arithmetic of the newer data-path instructions: bit counts, integer division,
//! special functions (through `libm`: `core` has no f32 math) and atomic updates.

use crate::isa::{AtomOp, MufuFn, Round};

#[inline]
fn fl(x: u32) -> f32 {
    f32::from_bits(x)
}

/// `FLO`: the index of the highest set bit (signed: of the highest bit that differs from the sign
/// bit), 0xffffffff when there is none. With `.SH`, 31 minus that index, and still 0xffffffff
/// for none (PTX's `bfind.shiftamt`; ptxas builds `__ffs` on it), so `__clz` is not `FLO.SH`.
pub fn flo(x: u32, signed: bool, shift: bool) -> u32 {
    let v = if signed && (x as i32) < 0 { !x } else { x };
    let index = if v == 0 { u32::MAX } else { 31 - v.leading_zeros() };
    // `.SH` gives the shift that brings the bit to the top; no bit is 0xffffffff either way, as
    // ptxas's `__ffs` (`FLO.U32.SH` of the reversed bits, plus one) needs for zero.
    if shift && index != u32::MAX {
        31 - index
    } else {
        index
    }
}

/// `IDIV`/`IREM`. A zero divisor gives all bits set, quotient and remainder alike: what nvcc's
/// division sequence ends with (a fix-up that writes `~0` when the divisor is 0), as NVIDIA's
/// engineers describe it ("integer division operators on NVIDIA GPUs return a result with all
/// bits set to 1 ... the same applies to a modulo operator where the divisor is zero",
/// stackoverflow.com/questions/12960005). `INT_MIN / -1` wraps to `INT_MIN` (remainder 0).
pub fn divide(a: u32, b: u32, signed: bool, rem: bool) -> u32 {
    if b == 0 {
        return u32::MAX;
    }
    match (signed, rem) {
        (true, false) => (a as i32).wrapping_div(b as i32) as u32,
        (true, true) => (a as i32).wrapping_rem(b as i32) as u32,
        (false, false) => a / b,
        (false, true) => a % b,
    }
}

pub fn mufu(func: MufuFn, x: u32) -> u32 {
    let x = fl(x);
    let r = match func {
        MufuFn::Rcp => 1.0 / x,
        MufuFn::Rsq => 1.0 / libm::sqrtf(x),
        MufuFn::Sqrt => libm::sqrtf(x),
        MufuFn::Ex2 => libm::exp2f(x),
        MufuFn::Lg2 => libm::log2f(x),
        MufuFn::Sin => libm::sinf(x),
        MufuFn::Cos => libm::cosf(x),
    };
    r.to_bits()
}

pub fn frnd(mode: Round, x: u32) -> u32 {
    let x = fl(x);
    let r = match mode {
        // rint rounds half to even, whatever the host's rounding mode (libm ignores it).
        Round::Even => libm::rintf(x),
        Round::Floor => libm::floorf(x),
        Round::Ceil => libm::ceilf(x),
        Round::Trunc => libm::truncf(x),
    };
    r.to_bits()
}

/// `IMNMX`: the minimum when `min`, else the maximum.
pub fn imnmx(a: u32, b: u32, signed: bool, min: bool) -> u32 {
    match (signed, min) {
        (true, true) => (a as i32).min(b as i32) as u32,
        (true, false) => (a as i32).max(b as i32) as u32,
        (false, true) => a.min(b),
        (false, false) => a.max(b),
    }
}

/// `FMNMX`: IEEE 754 minNum/maxNum, where a NaN operand loses to a number.
pub fn fmnmx(a: u32, b: u32, min: bool) -> u32 {
    if min {
        fl(a).min(fl(b)).to_bits()
    } else {
        fl(a).max(fl(b)).to_bits()
    }
}

/// The value an atomic stores, given the old one and its operands.
pub fn atom(op: AtomOp, old: u32, b: u32, c: u32) -> u32 {
    match op {
        AtomOp::Add => old.wrapping_add(b),
        // `.F64` is always `wide` (the assembler sees to it): on one word it adds as `.F32`.
        AtomOp::AddF32 | AtomOp::AddF64 => (fl(old) + fl(b)).to_bits(),
        AtomOp::Min { signed } => imnmx(old, b, signed, true),
        AtomOp::Max { signed } => imnmx(old, b, signed, false),
        AtomOp::And => old & b,
        AtomOp::Or => old | b,
        AtomOp::Xor => old ^ b,
        AtomOp::Inc if old >= b => 0,
        AtomOp::Inc => old + 1,
        AtomOp::Dec if old == 0 || old > b => b,
        AtomOp::Dec => old - 1,
        AtomOp::Exch => b,
        AtomOp::Cas if old == b => c,
        AtomOp::Cas => old,
    }
}

/// The value a 64-bit atomic stores (`.INC`/`.DEC` are 32-bit only: the assembler refuses them
/// here; they count as on 64 bits).
pub fn atom64(op: AtomOp, old: u64, b: u64, c: u64) -> u64 {
    match op {
        AtomOp::Add => old.wrapping_add(b),
        AtomOp::AddF64 => (f64::from_bits(old) + f64::from_bits(b)).to_bits(),
        AtomOp::AddF32 => (f64::from_bits(old) + f64::from_bits(b)).to_bits(),
        AtomOp::Min { signed: true } => (old as i64).min(b as i64) as u64,
        AtomOp::Min { signed: false } => old.min(b),
        AtomOp::Max { signed: true } => (old as i64).max(b as i64) as u64,
        AtomOp::Max { signed: false } => old.max(b),
        AtomOp::And => old & b,
        AtomOp::Or => old | b,
        AtomOp::Xor => old ^ b,
        AtomOp::Inc if old >= b => 0,
        AtomOp::Inc => old + 1,
        AtomOp::Dec if old == 0 || old > b => b,
        AtomOp::Dec => old - 1,
        AtomOp::Exch => b,
        AtomOp::Cas if old == b => c,
        AtomOp::Cas => old,
    }
}
