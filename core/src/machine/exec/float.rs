//! f32 arithmetic rounded once, exactly, in any direction (`.RN`, `.RM`, `.RP`, `.RZ`), with
//! `.FTZ` and `.SAT`, and the rounding of conversions.
//!
//! How it is exact without a rounding-mode switch (`core` has none, and `libm` ignores the
//! host's): the operation is first computed in f64 *rounded to odd*, then rounded to f32 in
//! the direction asked for. An f32 product is exact in f64 (24 + 24 bits); a sum or a fused
//! multiply-add is computed in f64 with its exact error by Knuth's TwoSum; a quotient's side
//! is the sign of its remainder, `fma(-q, b, a)`, exact for a correctly rounded `q`. Rounding
//! to odd (when the f64 result is inexact, the neighbour whose last bit is 1) keeps, with 53
//! bits against 24, everything any rounding to f32 needs (Boldo and Melquiond, "Emulation of
//! FMA and correctly rounded sums: proved algorithms using rounding to odd", IEEE TC 2008): the
//! odd value is never an f32 nor a midpoint between two, and no f32 lies between it and the
//! exact result, so every direction rounds both the same way.

use crate::isa::{FloatMode, Round};

/// `s` (an f64 rounded to nearest) nudged to odd: `err` has the sign of the exact value minus
/// `s` (zero when `s` is exact).
#[inline]
fn to_odd(s: f64, err: f64) -> f64 {
    if !s.is_finite() || err == 0.0 || err.is_nan() || s.to_bits() & 1 == 1 {
        return s;
    }
    // Away from zero when the exact value is further from zero than `s`, else toward it.
    let away = (err > 0.0) == (s > 0.0);
    f64::from_bits(if away { s.to_bits() + 1 } else { s.to_bits() - 1 })
}

/// Knuth's TwoSum: `a + b` rounded to nearest and its exact error.
#[inline]
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    (s, (a - (s - bb)) + (b - bb))
}

/// The next f32 up (`x` not NaN or +inf; from either zero, the smallest denormal).
fn next_up(x: f32) -> f32 {
    let b = x.to_bits();
    if x == 0.0 {
        f32::from_bits(1)
    } else if b >> 31 == 0 {
        f32::from_bits(b + 1)
    } else {
        f32::from_bits(b - 1)
    }
}

fn next_down(x: f32) -> f32 {
    -next_up(-x)
}

/// `x` rounded to f32 in the direction `round` (PTX `cvt.rn/rm/rp/rz.f32.f64`); overflow goes
/// to infinity or to the largest finite value as the direction says.
pub fn round_f32(x: f64, round: Round) -> f32 {
    let r = x as f32;
    if round == Round::Even || x.is_nan() || r as f64 == x {
        return r;
    }
    // The f32 neighbours either side of x (an infinite `r` stands for 2^128).
    let (lo, hi) = if (r as f64) < x { (r, next_up(r)) } else { (next_down(r), r) };
    match round {
        Round::Floor => lo,
        Round::Ceil => hi,
        _ if x > 0.0 => lo,
        _ => hi,
    }
}

/// `x` rounded to f64 in the direction `round`, from its nearest f64 `s` and the sign of the
/// error `err` (the exact value minus `s`).
fn round_f64(s: f64, err: f64, round: Round) -> f64 {
    if err == 0.0 || err.is_nan() || !s.is_finite() {
        return s;
    }
    let step = |up: bool| {
        let b = s.to_bits();
        let away = up == (s > 0.0);
        f64::from_bits(if away { b + 1 } else { b - 1 })
    };
    match round {
        Round::Even => s,
        Round::Floor if err < 0.0 => step(false),
        Round::Ceil if err > 0.0 => step(true),
        Round::Trunc if (err < 0.0) == (s > 0.0) => step(s < 0.0),
        _ => s,
    }
}

#[inline]
fn is_denormal(x: f32) -> bool {
    x != 0.0 && x.abs() < f32::MIN_POSITIVE
}

/// `.FTZ` on an input or a result: a denormal becomes a zero of its sign.
#[inline]
fn flush(x: f32, ftz: bool) -> f32 {
    if ftz && is_denormal(x) {
        f32::from_bits(x.to_bits() & 0x8000_0000)
    } else {
        x
    }
}

/// The result's finish: flushed with `.FTZ`, clamped to [0, 1] with `.SAT` (NaN and -0 give +0).
fn finish(r: f32, mode: FloatMode) -> u32 {
    let r = flush(r, mode.ftz);
    let r = if !mode.sat {
        r
    } else if r > 1.0 {
        1.0
    } else if r > 0.0 {
        r
    } else {
        0.0
    };
    r.to_bits()
}

/// The sign of a sum `a + b` that is exactly zero (`s`, its f64 value, is zero only then: no
/// f32 sum or product underflows f64): IEEE gives +0, or -0 when rounding down, except that
/// two zeros of one sign keep it (`-0 + -0 = -0`).
fn zero_sum(r: f32, s: f64, a: f64, b: f64, round: Round) -> f32 {
    let same_zeros = a == 0.0 && b == 0.0 && a.is_sign_negative() == b.is_sign_negative();
    if s == 0.0 && !same_zeros {
        if round == Round::Floor {
            -0.0
        } else {
            0.0
        }
    } else {
        r
    }
}

/// `FADD`: a + b.
pub fn fadd(a: u32, b: u32, mode: FloatMode) -> u32 {
    let (x, y) = (flush(f32::from_bits(a), mode.ftz) as f64, flush(f32::from_bits(b), mode.ftz) as f64);
    let (s, e) = two_sum(x, y);
    let r = round_f32(to_odd(s, e), mode.round);
    finish(zero_sum(r, s, x, y, mode.round), mode)
}

/// `FMUL`: a * b (exact in f64, so rounded once).
pub fn fmul(a: u32, b: u32, mode: FloatMode) -> u32 {
    let (x, y) = (flush(f32::from_bits(a), mode.ftz) as f64, flush(f32::from_bits(b), mode.ftz) as f64);
    finish(round_f32(x * y, mode.round), mode)
}

/// `FFMA`: a * b + c, fused (the exact product, the sum with its error, rounded once).
pub fn ffma(a: u32, b: u32, c: u32, mode: FloatMode) -> u32 {
    let [x, y, z] = [a, b, c].map(|v| flush(f32::from_bits(v), mode.ftz) as f64);
    let p = x * y;
    let (s, e) = two_sum(p, z);
    let r = round_f32(to_odd(s, e), mode.round);
    finish(zero_sum(r, s, p, z, mode.round), mode)
}

/// `FDIV`: a / b. The f64 quotient's remainder `a - q b` is exact with one fma; its sign and
/// the divisor's say on which side of `q` the true quotient lies.
pub fn fdiv(a: u32, b: u32, mode: FloatMode) -> u32 {
    let (x, y) = (flush(f32::from_bits(a), mode.ftz) as f64, flush(f32::from_bits(b), mode.ftz) as f64);
    let q = x / y;
    let rem = libm::fma(-q, y, x);
    let side = if y < 0.0 { -rem } else { rem };
    finish(round_f32(to_odd(q, side), mode.round), mode)
}

/// `FCHK`: whether nvcc's fast division of `a` by `b` (a reciprocal refined by FFMA, then the
/// quotient corrected by its remainder) may not give the rounded quotient, so its slow path must
/// run: an operand that is a NaN, an infinity, zero or subnormal, a reciprocal or residual near
/// the ends of the exponent range, or a quotient that may overflow or be subnormal. NVIDIA does
/// not document the test; this one sends every such case to the slow path (which computes the
/// IEEE quotient whatever the check said) and lets ordinary operands take the fast one, as the
/// H100 does for them. A zero dividend takes the slow path too, as its exponent says: ncu's
/// count of CUDA by Example's Julia set (`examples/grid/cbe_julia.cu`, 48 divisions of 0 by 12)
/// is warpscope's only so.
pub fn fchk(a: u32, b: u32) -> bool {
    let exp = |x: u32| ((x >> 23) & 0xff) as i32;
    let (ea, eb) = (exp(a), exp(b));
    if eb == 0 || eb == 255 || ea == 255 || ea == 0 {
        return true;
    }
    let quotient = ea - eb;
    eb >= 253 || ea >= 253 || !(-125..126).contains(&quotient)
}

/// A float rounded to an integral value (`F2I`'s `.ROUND`, `.FLOOR`, `.CEIL`, `.TRUNC`).
pub fn integral(x: f64, round: Round) -> f64 {
    match round {
        // rint rounds half to even, whatever the host's rounding mode (libm ignores it).
        Round::Even => libm::rint(x),
        Round::Floor => libm::floor(x),
        Round::Ceil => libm::ceil(x),
        Round::Trunc => libm::trunc(x),
    }
}

/// A 64-bit integer (held in an i128) as an f32, rounded in the direction `round`.
pub fn int_to_f32(v: i128, round: Round) -> f32 {
    let s = v as f64;
    // `s` is integral and within 2^64, so the error is an exact integer.
    let err = (v - s as i128) as f64;
    round_f32(to_odd(s, err), round)
}

/// A 64-bit integer (held in an i128) as an f64, rounded in the direction `round`.
pub fn int_to_f64(v: i128, round: Round) -> f64 {
    let s = v as f64;
    round_f64(s, (v - s as i128) as f64, round)
}

#[cfg(test)]
mod tests;
