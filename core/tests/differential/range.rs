//! Ranges of values, so that the generator writes no undefined behaviour: an `int` operation
//! whose range leaves 32 bits is never written (risky arithmetic goes to `unsigned`, which
//! wraps), and a float is always exact: its range and its grid (the value times 2^grid is a whole
//! number) fit in the 24 bits of an `f32`, so every compiler computes it to the same bits
//! whatever it fuses or reorders.

use super::gen::Elem;

pub const I32_MIN: f64 = -2_147_483_648.0;
pub const I32_MAX: f64 = 2_147_483_647.0;
pub const U32_MAX: f64 = 4_294_967_295.0;
/// The largest magnitude times 2^grid a float holds exactly.
const EXACT: f64 = 16_777_216.0;
/// What a variable of each type may hold between statements (every assignment fits in it).
pub const INT_VAR: f64 = 1_048_576.0;
pub const FLOAT_VAR: f64 = 1024.0;
pub const FLOAT_VAR_GRID: i32 = 6;

/// The values an expression can take: `lo..=hi`, each a multiple of 2^-grid (grid 0 for
/// integers).
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Range {
    pub lo: f64,
    pub hi: f64,
    pub grid: i32,
}

impl Range {
    pub const FULL_I: Range = Range { lo: I32_MIN, hi: I32_MAX, grid: 0 };
    pub const FULL_U: Range = Range { lo: 0.0, hi: U32_MAX, grid: 0 };
    pub const BOOL: Range = Range { lo: 0.0, hi: 1.0, grid: 0 };

    pub fn int(lo: f64, hi: f64) -> Range {
        Range { lo, hi, grid: 0 }
    }
    pub fn of(values: impl IntoIterator<Item = f64>, grid: i32) -> Range {
        let (lo, hi) = values.into_iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)));
        Range { lo, hi, grid }
    }
    pub fn mag(self) -> f64 {
        self.lo.abs().max(self.hi.abs())
    }
    pub fn within(self, o: Range) -> bool {
        self.lo >= o.lo && self.hi <= o.hi && self.grid <= o.grid
    }
    pub fn union(self, o: Range) -> Range {
        Range { lo: self.lo.min(o.lo), hi: self.hi.max(o.hi), grid: self.grid.max(o.grid) }
    }
    /// A float computed exactly: its magnitude at its grid fits the mantissa.
    pub fn exact(self) -> bool {
        self.mag() * 2f64.powi(self.grid) <= EXACT
    }
    pub fn corners(a: Range, b: Range, f: impl Fn(f64, f64) -> f64) -> Range {
        let c = [f(a.lo, b.lo), f(a.lo, b.hi), f(a.hi, b.lo), f(a.hi, b.hi)];
        Range { lo: c.iter().cloned().fold(f64::INFINITY, f64::min), hi: c.iter().cloned().fold(f64::NEG_INFINITY, f64::max), grid: 0 }
    }
    /// The smallest all-ones number at least `v` (`v` >= 0).
    pub fn ones_above(v: f64) -> f64 {
        let mut m = 1.0;
        while m <= v {
            m *= 2.0;
        }
        m - 1.0
    }
}

/// What a variable of this type holds between statements.
pub fn invariant(ty: Elem) -> Range {
    match ty {
        Elem::Int => Range::int(-INT_VAR, INT_VAR),
        Elem::Uns => Range::FULL_U,
        Elem::Float => Range { lo: -FLOAT_VAR, hi: FLOAT_VAR, grid: FLOAT_VAR_GRID },
    }
}

/// An `int` result is kept only if it stays in 32 bits (signed overflow is undefined); an
/// `unsigned` one wraps; a float one must be exact.
pub fn settle(ty: Elem, r: Range) -> Option<Range> {
    match ty {
        Elem::Int => r.within(Range::FULL_I).then_some(r),
        Elem::Uns => Some(if r.within(Range::FULL_U) { r } else { Range::FULL_U }),
        Elem::Float => r.exact().then_some(r),
    }
}

/// C's remainder by `k` > 0: the dividend's sign, smaller than `k` and than the dividend.
pub fn rem_range(a: Range, k: f64) -> Range {
    let lo = if a.lo < 0.0 { -(k - 1.0).min(-a.lo) } else { 0.0 };
    let hi = if a.hi > 0.0 { (k - 1.0).min(a.hi) } else { 0.0 };
    Range::int(lo, hi)
}

/// `& | ^` on two ranges: non-negative operands stay below the next all-ones number; a
/// non-negative mask bounds `&`; otherwise anything of the type.
pub fn bit_range(op: &str, a: Range, b: Range, full: Range) -> Range {
    let nonneg = |r: Range| r.lo >= 0.0;
    match op {
        "&" if nonneg(a) && nonneg(b) => Range::int(0.0, a.hi.min(b.hi)),
        "&" if nonneg(a) => Range::int(0.0, a.hi),
        "&" if nonneg(b) => Range::int(0.0, b.hi),
        _ if nonneg(a) && nonneg(b) => Range::int(0.0, Range::ones_above(a.hi.max(b.hi))),
        _ => full,
    }
}
