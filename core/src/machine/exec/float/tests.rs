//! Directed rounding against references that do not share the emulation's method: sums,
//! products and fused multiply-adds whose exact value an f64 holds, rounded to f32 by walking
//! the f32 grid; quotients bracketed by exact f64 products. Then the cases the method is for:
//! sums whose error an f64 loses, a fused multiply-add that double rounding gets wrong, exact
//! zeros, overflow, `.FTZ`, `.SAT` and the conversions.

use super::*;

const MODES: [Round; 4] = [Round::Even, Round::Floor, Round::Ceil, Round::Trunc];

fn mode(round: Round) -> FloatMode {
    FloatMode { round, ftz: false, sat: false }
}

/// The f32 neighbours of `x` found by stepping through bit patterns (finite, positive or
/// negative), and `x` rounded in each direction from them; `x` is the exact value.
fn reference(x: f64, round: Round) -> f32 {
    let mut lo = x as f32;
    while lo as f64 > x {
        lo = f32::from_bits(if lo > 0.0 {
            lo.to_bits() - 1
        } else if lo == 0.0 {
            0x8000_0001
        } else {
            lo.to_bits() + 1
        });
    }
    while (lo as f64) < x {
        let up = f32::from_bits(if lo >= 0.0 && lo.to_bits() >> 31 == 0 {
            lo.to_bits() + 1
        } else if lo == 0.0 {
            1
        } else {
            lo.to_bits() - 1
        });
        if up as f64 > x {
            break;
        }
        lo = up;
    }
    if lo as f64 == x {
        return lo;
    }
    let hi = f32::from_bits(if lo >= 0.0 && lo.to_bits() >> 31 == 0 {
        lo.to_bits() + 1
    } else if lo == 0.0 {
        1
    } else {
        lo.to_bits() - 1
    });
    let mid = (lo as f64 + hi as f64) / 2.0;
    match round {
        Round::Floor => lo,
        Round::Ceil => hi,
        Round::Trunc if x > 0.0 => lo,
        Round::Trunc => hi,
        Round::Even if x < mid => lo,
        Round::Even if x > mid => hi,
        Round::Even if lo.to_bits() & 1 == 0 => lo,
        Round::Even => hi,
    }
}

/// A small deterministic generator.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 16) as u32
    }
    /// A float with `bits` significant bits and an exponent in -8..8, either sign.
    fn float(&mut self, bits: u32) -> f32 {
        let mantissa = (self.next() | 1 << 31) >> (32 - bits);
        let exp = (self.next() % 17) as i32 - 8 - bits as i32;
        let v = mantissa as f64 * libm::exp2(exp as f64);
        (if self.next() & 1 == 1 { -v } else { v }) as f32
    }
}

#[test]
fn sums_products_and_fused_sums_round_once_in_every_direction() {
    let mut rng = Rng(0x0123_4567_89ab_cdef);
    for case in 0..20_000 {
        let (a, b) = (rng.float(24), rng.float(24));
        // 12-bit factors keep the product at 24 bits, so a fused sum with c is exact in f64.
        let (p, q, c) = (rng.float(12), rng.float(12), rng.float(24));
        for round in MODES {
            let m = mode(round);
            let sum = f32::from_bits(fadd(a.to_bits(), b.to_bits(), m));
            assert_eq!(sum, reference(a as f64 + b as f64, round), "case {case}: {a} + {b} {round:?}");
            let prod = f32::from_bits(fmul(a.to_bits(), b.to_bits(), m));
            assert_eq!(prod, reference(a as f64 * b as f64, round), "case {case}: {a} * {b} {round:?}");
            let fma = f32::from_bits(ffma(p.to_bits(), q.to_bits(), c.to_bits(), m));
            assert_eq!(fma, reference(p as f64 * q as f64 + c as f64, round), "case {case}: {p} * {q} + {c} {round:?}");
        }
        // Round to nearest is what f32 `+` and `*` do on the host.
        assert_eq!(fadd(a.to_bits(), b.to_bits(), FloatMode::RN), (a + b).to_bits());
        assert_eq!(fmul(a.to_bits(), b.to_bits(), FloatMode::RN), (a * b).to_bits());
    }
}

#[test]
fn quotients_round_once_in_every_direction() {
    let mut rng = Rng(0xfeed_f00d_dead_beef);
    for case in 0..20_000 {
        let (a, b) = (rng.float(24), rng.float(24));
        // The quotient's neighbours, bracketed exactly: v * |b| is exact in f64.
        let x = a as f64 / b as f64;
        let exact = |v: f32| (v as f64 * b as f64).partial_cmp(&(a as f64)).unwrap();
        let mut lo = x as f32;
        // Normalise so that lo <= a / b < next(lo) (b may be negative: compare v * b with a).
        let below = |v: f32| if b > 0.0 { exact(v) != core::cmp::Ordering::Greater } else { exact(v) != core::cmp::Ordering::Less };
        let step = |v: f32, up: bool| f32::from_bits(if (v > 0.0) == up { v.to_bits() + 1 } else { v.to_bits() - 1 });
        while !below(lo) {
            lo = step(lo, false);
        }
        while below(step(lo, true)) {
            lo = step(lo, true);
        }
        let hi = step(lo, true);
        let is_exact = exact(lo) == core::cmp::Ordering::Equal;
        let mid = (lo as f64 + hi as f64) / 2.0;
        let mid_vs = (mid * b as f64).partial_cmp(&(a as f64)).unwrap();
        let above_mid = if b > 0.0 { mid_vs == core::cmp::Ordering::Less } else { mid_vs == core::cmp::Ordering::Greater };
        for round in MODES {
            let want = match round {
                _ if is_exact => lo,
                Round::Floor => lo,
                Round::Ceil => hi,
                Round::Trunc if x > 0.0 => lo,
                Round::Trunc => hi,
                Round::Even if mid_vs == core::cmp::Ordering::Equal => [lo, hi][(lo.to_bits() & 1) as usize],
                Round::Even if above_mid => hi,
                Round::Even => lo,
            };
            assert_eq!(f32::from_bits(fdiv(a.to_bits(), b.to_bits(), mode(round))), want, "case {case}: {a} / {b} {round:?}");
        }
        assert_eq!(fdiv(a.to_bits(), b.to_bits(), FloatMode::RN), (a / b).to_bits(), "case {case}: host division");
    }
}

#[test]
fn directed_rounding_differs_from_nearest_where_it_should() {
    let run = |f: fn(u32, u32, FloatMode) -> u32, a: f32, b: f32| MODES.map(|r| f32::from_bits(f(a.to_bits(), b.to_bits(), mode(r))));
    let tiny = libm::exp2f(-30.0);
    let (above1, below1) = (f32::from_bits(1.0f32.to_bits() + 1), f32::from_bits(1.0f32.to_bits() - 1));
    // An addend an f64 sum loses entirely: only its sign (TwoSum's error) decides.
    assert_eq!(run(fadd, 1.0, tiny), [1.0, 1.0, above1, 1.0], "RN, RM, RP, RZ");
    assert_eq!(run(fadd, 1.0, -tiny), [1.0, below1, 1.0, below1]);
    assert_eq!(run(fadd, -1.0, -tiny), [-1.0, -above1, -1.0, -1.0]);
    let big = libm::exp2f(100.0);
    assert_eq!(run(fadd, big, libm::exp2f(-100.0)), [big, big, f32::from_bits(big.to_bits() + 1), big]);
    // 1/3 and 2/3, both rounded up by RN (their f32s are 0x3eaaaaab and 0x3f2aaaab).
    let third = f32::from_bits(0x3eaa_aaab);
    let below = f32::from_bits(0x3eaa_aaaa);
    assert_eq!(run(fdiv, 1.0, 3.0), [third, below, third, below], "RN, RM, RP, RZ");
    let two_thirds = run(fdiv, -2.0, 3.0);
    assert_eq!(two_thirds[0], -2.0 / 3.0);
    assert_eq!(two_thirds[2], two_thirds[3], "toward zero is up for a negative quotient");
    assert_eq!(two_thirds[1], -2.0 / 3.0, "RN rounded -2/3 away from zero, as RM does");
    assert_ne!(two_thirds[1], two_thirds[2]);
    // Overflow: to infinity, or to the largest finite value, as the direction says.
    let max = f32::MAX;
    assert_eq!(run(fmul, max, 2.0), [f32::INFINITY, max, f32::INFINITY, max]);
    assert_eq!(run(fmul, -max, 2.0), [f32::NEG_INFINITY, f32::NEG_INFINITY, -max, -max]);
    // A product into the denormals rounds there.
    let d = run(fmul, libm::exp2f(-140.0), 1.0 / 3.0);
    assert!(d[1] < d[2] && d[2].to_bits() - d[1].to_bits() == 1, "{d:?}");
}

#[test]
fn a_fused_multiply_add_rounds_once() {
    // (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24: exactly halfway between two f32s. A tiny c decides
    // the side; rounding the product first (or the f64 sum to nearest) would tie to even.
    let a = 1.0 + libm::exp2f(-12.0);
    let base = 1.0 + libm::exp2f(-11.0);
    let up = f32::from_bits(base.to_bits() + 1);
    let fma = |c: f32, r| f32::from_bits(ffma(a.to_bits(), a.to_bits(), c.to_bits(), mode(r)));
    assert_eq!(fma(libm::exp2f(-80.0), Round::Even), up);
    assert_eq!(fma(-libm::exp2f(-80.0), Round::Even), base);
    assert_eq!(fma(0.0, Round::Even), base, "a tie goes to the even neighbour");
    assert_eq!(a * a, base, "unfused, the product alone ties to even");
    assert_eq!((fma(0.0, Round::Floor), fma(0.0, Round::Ceil), fma(0.0, Round::Trunc)), (base, up, base));
}

#[test]
fn exact_zeros_take_ieee_signs() {
    let z = |f: f32| (f == 0.0, f.is_sign_negative());
    let add = |a: f32, b: f32, r| f32::from_bits(fadd(a.to_bits(), b.to_bits(), mode(r)));
    for r in [Round::Even, Round::Ceil, Round::Trunc] {
        assert_eq!(z(add(3.0, -3.0, r)), (true, false), "{r:?}: x - x = +0");
        assert_eq!(z(add(-0.0, -0.0, r)), (true, true), "{r:?}: -0 + -0 = -0");
        assert_eq!(z(add(0.0, -0.0, r)), (true, false));
    }
    assert_eq!(z(add(3.0, -3.0, Round::Floor)), (true, true), "rounding down, x - x = -0");
    assert_eq!(z(add(0.0, -0.0, Round::Floor)), (true, true));
    assert_eq!(z(add(0.0, 0.0, Round::Floor)), (true, false), "+0 + +0 keeps its sign");
    let fma = |a: f32, b: f32, c: f32, r| f32::from_bits(ffma(a.to_bits(), b.to_bits(), c.to_bits(), mode(r)));
    assert_eq!(z(fma(2.0, 3.0, -6.0, Round::Floor)), (true, true));
    assert_eq!(z(fma(2.0, 3.0, -6.0, Round::Even)), (true, false));
    // A result too small for f32 is not an exact zero: it keeps its sign.
    let tiny = libm::exp2f(-100.0);
    assert_eq!(z(fma(-tiny, tiny, 0.0, Round::Even)), (true, true));
    assert_eq!(z(fma(-tiny, tiny, 0.0, Round::Ceil)), (true, true));
    assert_eq!(fma(-tiny, tiny, 0.0, Round::Floor), -f32::from_bits(1), "rounding down reaches the first denormal");
}

#[test]
fn flush_to_zero_and_saturation() {
    let denormal = f32::from_bits(0x0000_0100);
    let ftz = FloatMode { round: Round::Even, ftz: true, sat: false };
    assert_eq!(f32::from_bits(fadd(denormal.to_bits(), 1.0f32.to_bits(), ftz)), 1.0);
    assert_eq!(f32::from_bits(fadd(denormal.to_bits(), 0.0f32.to_bits(), FloatMode::RN)), denormal);
    assert_eq!(fadd(denormal.to_bits(), 0.0f32.to_bits(), ftz), 0);
    assert_eq!(fmul((-denormal).to_bits(), 1.0f32.to_bits(), ftz), 0x8000_0000, "a flushed result keeps its sign");
    assert_eq!(fmul(libm::exp2f(-100.0).to_bits(), libm::exp2f(-30.0).to_bits(), ftz), 0, "a denormal result is flushed");
    assert_eq!(fdiv(1.0f32.to_bits(), denormal.to_bits(), ftz), f32::INFINITY.to_bits(), "a flushed divisor is zero");
    let sat = FloatMode { round: Round::Even, ftz: false, sat: true };
    let s = |a: f32, b: f32| f32::from_bits(fadd(a.to_bits(), b.to_bits(), sat));
    assert_eq!(
        [s(0.25, 0.5), s(1.0, 0.5), s(-1.0, 0.5), s(f32::NAN, 1.0), s(-0.0, 0.0), s(f32::INFINITY, 0.0)],
        [0.75, 1.0, 0.0, 0.0, 0.0, 1.0]
    );
    assert_eq!(s(-1.0, 0.5).to_bits(), 0, "+0, not -0");
    assert!(f32::from_bits(fadd(f32::NAN.to_bits(), 1.0f32.to_bits(), FloatMode::RN)).is_nan());
    assert!(f32::from_bits(ffma(f32::INFINITY.to_bits(), 0.0f32.to_bits(), 1.0f32.to_bits(), FloatMode::RN)).is_nan());
    assert_eq!(ffma(f32::INFINITY.to_bits(), 2.0f32.to_bits(), 1.0f32.to_bits(), mode(Round::Trunc)), f32::INFINITY.to_bits());
}

#[test]
fn conversions_round_in_every_direction() {
    // f64 to f32 (F2F.F32.F64).
    let x = 0.1f64;
    let near = x as f32;
    let other = if (near as f64) < x { f32::from_bits(near.to_bits() + 1) } else { f32::from_bits(near.to_bits() - 1) };
    let (lo, hi) = if near < other { (near, other) } else { (other, near) };
    assert_eq!(MODES.map(|r| round_f32(x, r)), [near, lo, hi, lo]);
    assert_eq!(MODES.map(|r| round_f32(-x, r)), [-near, -hi, -lo, -lo]);
    assert_eq!(MODES.map(|r| round_f32(1e300, r)), [f32::INFINITY, f32::MAX, f32::INFINITY, f32::MAX]);
    assert!(round_f32(f64::NAN, Round::Floor).is_nan());
    // 64-bit integers to f32 and f64.
    let v = (1i128 << 24) + 1;
    assert_eq!(MODES.map(|r| int_to_f32(v, r)), [16_777_216.0, 16_777_216.0, 16_777_218.0, 16_777_216.0]);
    assert_eq!(MODES.map(|r| int_to_f32(-v, r)), [-16_777_216.0, -16_777_218.0, -16_777_216.0, -16_777_216.0]);
    let w = (1i128 << 53) + 1;
    let two53 = 9_007_199_254_740_992.0;
    assert_eq!(MODES.map(|r| int_to_f64(w, r)), [two53, two53, two53 + 2.0, two53]);
    assert_eq!(MODES.map(|r| int_to_f64(-w, r)), [-two53, -two53 - 2.0, -two53, -two53]);
    assert_eq!(int_to_f32(u64::MAX as i128, Round::Trunc), f32::from_bits(0x5f7f_ffff), "just below 2^64");
    assert_eq!(int_to_f32(u64::MAX as i128, Round::Even), 18_446_744_073_709_551_616.0);
    // Floats to integral values (F2I's modes).
    let ways = |x: f64| MODES.map(|r| integral(x, r));
    assert_eq!(ways(2.5), [2.0, 2.0, 3.0, 2.0]);
    assert_eq!(ways(-2.5), [-2.0, -3.0, -2.0, -2.0]);
    assert_eq!(ways(3.5), [4.0, 3.0, 4.0, 3.0]);
    assert_eq!(ways(-0.7), [-1.0, -1.0, -0.0, -0.0]);
}

#[test]
fn fchk_sends_only_the_cases_the_fast_division_gets_wrong_to_the_slow_path() {
    let b = |x: f32| x.to_bits();
    // Ordinary operands: the fast path.
    for (x, y) in [(1.0, 3.0), (-20.0, 0.1), (1e30, 1e-5), (-7.5, -2.0), (1.5e-30, 2.0)] {
        assert!(!fchk(b(x), b(y)), "{x} / {y}");
    }
    // A zero, subnormal, infinite or NaN divisor; a zero (as the H100 counts it), infinite, NaN
    // or subnormal dividend; a reciprocal or quotient near the ends of the range.
    let slow = [
        (1.0, 0.0),
        (1.0, 1e-39),
        (1.0, f32::INFINITY),
        (1.0, f32::NAN),
        (f32::INFINITY, 2.0),
        (f32::NAN, 2.0),
        (1e-39, 2.0),
        (0.0, 7.0),
        (-0.0, -2.0),
    ];
    for (x, y) in slow.into_iter().chain([(1.0, 3e38), (3e38, 1.0), (1e30, 1e-20), (1e-30, 1e20)]) {
        assert!(fchk(b(x), b(y)), "{x} / {y}");
    }
}
