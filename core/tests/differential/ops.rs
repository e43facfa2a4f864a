//! The generator's operators, one function per result type: each picks an operation, builds
//! its operands and computes the result's range, or gives up (`None`) where the operation could
//! be undefined or inexact, and `expr` tries another.

use super::expr::{float_lit, int_lit, uns_lit, E};
use super::gen::{Elem, Gen};
use super::range::{bit_range, rem_range, settle, Range, I32_MAX, I32_MIN, U32_MAX};

impl Gen {
    fn binary(&mut self, a: &E, op: &str, b: &E, ty: Elem, r: Range) -> Option<E> {
        let r = settle(ty, r)?;
        Some(E::new(format!("({} {op} {})", a.text, b.text), ty, r))
    }

    pub fn int_op(&mut self, d: u32) -> Option<E> {
        use Elem::Int;
        match self.rng.below(16) {
            0..=2 => {
                let op = *self.rng.pick(&["+", "-", "*"]);
                let a = self.expr(Int, d);
                let mut b = self.expr(Int, d);
                if op == "*" && a.r.mag() * b.r.mag() > I32_MAX {
                    let limit = (I32_MAX / a.r.mag().max(1.0)).floor().min(1000.0);
                    if limit < 2.0 {
                        return None;
                    }
                    b = self.shrink(b, limit);
                }
                let r = match op {
                    "+" => Range::int(a.r.lo + b.r.lo, a.r.hi + b.r.hi),
                    "-" => Range::int(a.r.lo - b.r.hi, a.r.hi - b.r.lo),
                    _ => Range::corners(a.r, b.r, |x, y| x * y),
                };
                self.binary(&a, op, &b, Int, r)
            }
            3 => {
                let a = self.expr(Int, d);
                let k = *self.rng.pick(&[2i64, 3, 4, 5, 7, 8, 10, 16, 100, 1000, -3, -8]);
                let (op, r) = if self.rng.chance(50) {
                    ("/", Range::corners(a.r, Range::int(k as f64, k as f64), |x, y| (x / y).trunc()))
                } else {
                    ("%", rem_range(a.r, k.unsigned_abs() as f64))
                };
                self.features.insert("division by constants");
                self.binary(&a, op, &int_lit(k), Int, r)
            }
            4 => {
                let a = self.expr(Int, d);
                let b = self.expr(Int, d);
                let div = E::new(format!("(({} & 7) + 1)", b.text), Int, Range::int(1.0, 8.0));
                let (op, r) =
                    if self.rng.chance(50) { ("/", Range::int(a.r.lo.min(0.0), a.r.hi.max(0.0))) } else { ("%", rem_range(a.r, 8.0)) };
                self.features.insert("division by variables");
                self.binary(&a, op, &div, Int, r)
            }
            5 => {
                let op = *self.rng.pick(&["&", "|", "^"]);
                let a = self.expr(Int, d);
                let b = self.expr(Int, d);
                let r = bit_range(op, a.r, b.r, Range::FULL_I);
                self.binary(&a, op, &b, Int, r)
            }
            6 => {
                let a = self.expr(Int, d);
                self.features.insert("shifts");
                if self.rng.chance(50) {
                    let s = self.rng.range(0, 31);
                    let p = 2f64.powi(s as i32);
                    self.binary(&a, ">>", &int_lit(s), Int, Range::int((a.r.lo / p).floor(), (a.r.hi / p).floor()))
                } else {
                    let c = self.expr(Int, d);
                    let count = E::new(format!("({} & 31)", c.text), Int, Range::int(0.0, 31.0));
                    self.binary(&a, ">>", &count, Int, Range::int(a.r.lo.min(0.0), a.r.hi.max(0.0)))
                }
            }
            7 => {
                // `!!`: a condition may be an integer's truth, here made 0 or 1 (and as the first
                // arm of a branching `?:`, once bug 7 of mod.rs).
                let c = self.cond(d);
                Some(E::new(format!("(!!({c}))"), Int, Range::BOOL))
            }
            8 => self.ternary(Int, d),
            9 => {
                let from = if self.rng.chance(50) { Elem::Uns } else { Elem::Float };
                let e = self.expr(from, d);
                Some(self.convert(e, Int))
            }
            10 => {
                let u = self.expr(Elem::Uns, d);
                let f = *self.rng.pick(&["__popc", "__clz"]);
                self.features.insert("bit intrinsics");
                Some(E::new(format!("{f}({})", u.text), Int, Range::int(0.0, 32.0)))
            }
            11 => self.min_max(Int, d),
            12 => {
                let a = self.expr(Int, d);
                if a.r.lo <= I32_MIN {
                    return None;
                }
                let lo = if a.r.lo <= 0.0 && a.r.hi >= 0.0 { 0.0 } else { a.r.lo.abs().min(a.r.hi.abs()) };
                Some(E::new(format!("abs({})", a.text), Int, Range::int(lo, a.r.mag())))
            }
            13 => self.call(Int, d),
            14 => {
                let a = self.expr(Int, d);
                if self.rng.chance(50) {
                    (a.r.lo > I32_MIN).then(|| E::new(format!("(-{})", a.text), Int, Range::int(-a.r.hi, -a.r.lo)))
                } else {
                    Some(E::new(format!("(~{})", a.text), Int, Range::int(-a.r.hi - 1.0, -a.r.lo - 1.0)))
                }
            }
            _ => {
                // Integer promotion and C's usual conversions: an int beside an unsigned is
                // converted to unsigned, here written out (the cast back is modular).
                let a = self.expr(Int, d);
                let b = self.expr(Elem::Uns, d);
                let op = *self.rng.pick(&["+", "^", "*", "-"]);
                self.features.insert("mixed int/unsigned");
                let u = E::new(format!("({} {op} {})", a.text, b.text), Elem::Uns, Range::FULL_U);
                Some(self.convert(u, Int))
            }
        }
    }

    pub fn uns_op(&mut self, d: u32) -> Option<E> {
        use Elem::Uns;
        match self.rng.below(14) {
            0..=3 => {
                let op = *self.rng.pick(&["+", "-", "*", "+"]);
                let a = self.expr(Uns, d);
                // Sometimes an int operand, converted by C's usual arithmetic conversions.
                let b = if self.rng.chance(20) { self.expr(Elem::Int, d) } else { self.expr(Uns, d) };
                let br = if b.ty == Elem::Int && b.r.lo < 0.0 { Range::FULL_U } else { b.r };
                let r = match op {
                    "+" => Range::int(a.r.lo + br.lo, a.r.hi + br.hi),
                    "-" => Range::int(a.r.lo - br.hi, a.r.hi - br.lo),
                    _ => Range::corners(a.r, br, |x, y| x * y),
                };
                if b.ty == Elem::Int {
                    self.features.insert("mixed int/unsigned");
                }
                self.binary(&a, op, &b, Uns, r)
            }
            4 => {
                let op = *self.rng.pick(&["&", "|", "^"]);
                let a = self.expr(Uns, d);
                let b = self.expr(Uns, d);
                let r = bit_range(op, a.r, b.r, Range::FULL_U);
                self.binary(&a, op, &b, Uns, r)
            }
            5 | 6 => {
                let left = self.rng.chance(50);
                let a = self.expr(Uns, d);
                self.features.insert("shifts");
                let (count, constant) = if self.rng.chance(50) {
                    let s = self.rng.range(0, 31);
                    (int_lit(s), Some(2f64.powi(s as i32)))
                } else {
                    let c = if self.rng.chance(50) { self.expr(Elem::Int, d) } else { self.expr(Uns, d) };
                    let mask = if c.ty == Elem::Int { "31" } else { "31u" };
                    (E::new(format!("({} & {mask})", c.text), c.ty, Range::int(0.0, 31.0)), None)
                };
                let r = match (left, constant) {
                    (true, Some(p)) => Range::int(a.r.lo * p, a.r.hi * p),
                    (true, None) => Range::FULL_U,
                    (false, Some(p)) => Range::int((a.r.lo / p).floor(), (a.r.hi / p).floor()),
                    (false, None) => Range::int(0.0, a.r.hi),
                };
                self.binary(&a, if left { "<<" } else { ">>" }, &count, Uns, r)
            }
            7 => {
                let a = self.expr(Uns, d);
                self.features.insert("division by constants");
                let k = *self.rng.pick(&[2u32, 3, 5, 7, 8, 10, 16, 1000, 65536, 0x7fff_ffff]);
                if self.rng.chance(50) {
                    self.binary(&a, "/", &uns_lit(k), Uns, Range::int((a.r.lo / k as f64).floor(), (a.r.hi / k as f64).floor()))
                } else {
                    self.binary(&a, "%", &uns_lit(k), Uns, Range::int(0.0, a.r.hi.min(k as f64 - 1.0)))
                }
            }
            8 => {
                let a = self.expr(Uns, d);
                let b = self.expr(Uns, d);
                let div = E::new(format!("({} | 1u)", b.text), Uns, Range::int(b.r.lo.max(1.0), (b.r.hi + 1.0).min(U32_MAX)));
                self.features.insert("division by variables");
                if self.rng.chance(50) {
                    self.binary(&a, "/", &div, Uns, Range::int(0.0, a.r.hi))
                } else {
                    self.binary(&a, "%", &div, Uns, Range::int(0.0, a.r.hi.min(div.r.hi - 1.0)))
                }
            }
            9 => self.ternary(Uns, d),
            10 => {
                let from = if self.rng.chance(60) { Elem::Int } else { Elem::Float };
                let e = self.expr(from, d);
                Some(self.convert(e, Uns))
            }
            11 => {
                let a = self.expr(Uns, d);
                self.features.insert("bit intrinsics");
                if self.rng.chance(50) {
                    Some(E::new(format!("__brev({})", a.text), Uns, Range::FULL_U))
                } else {
                    Some(E::new(format!("(~{})", a.text), Uns, Range::int(U32_MAX - a.r.hi, U32_MAX - a.r.lo)))
                }
            }
            12 => self.min_max(Uns, d),
            _ => self.call(Uns, d),
        }
    }

    pub fn float_op(&mut self, d: u32) -> Option<E> {
        use Elem::Float;
        self.features.insert("float arithmetic");
        match self.rng.below(11) {
            0..=2 => {
                let op = *self.rng.pick(&["+", "-"]);
                let a = self.expr(Float, d);
                let b = self.expr(Float, d);
                let r = if op == "+" { Range::int(a.r.lo + b.r.lo, a.r.hi + b.r.hi) } else { Range::int(a.r.lo - b.r.hi, a.r.hi - b.r.lo) };
                self.binary(&a, op, &b, Float, Range { grid: a.r.grid.max(b.r.grid), ..r })
            }
            3 | 4 => {
                let a = self.expr(Float, d);
                let b = if self.rng.chance(60) { self.literal(Float) } else { self.expr(Float, d) };
                let r = Range { grid: a.r.grid + b.r.grid, ..Range::corners(a.r, b.r, |x, y| x * y) };
                self.binary(&a, "*", &b, Float, r)
            }
            5 => {
                let a = self.expr(Float, d);
                let k = self.rng.range(1, 3) as i32;
                let p = 2f64.powi(k);
                let r = Range { lo: a.r.lo / p, hi: a.r.hi / p, grid: a.r.grid + k };
                self.binary(&a, "/", &float_lit(4 * (1 << k)), Float, r)
            }
            6 => self.ternary(Float, d),
            7 => {
                let from = if self.rng.chance(60) { Elem::Int } else { Elem::Uns };
                let e = self.expr(from, d);
                Some(self.convert(e, Float))
            }
            8 => {
                let a = self.expr(Float, d);
                if self.rng.chance(50) {
                    Some(E::new(format!("(-{})", a.text), Float, Range { lo: -a.r.hi, hi: -a.r.lo, grid: a.r.grid }))
                } else {
                    let lo = if a.r.lo <= 0.0 && a.r.hi >= 0.0 { 0.0 } else { a.r.lo.abs().min(a.r.hi.abs()) };
                    Some(E::new(format!("fabsf({})", a.text), Float, Range { lo, hi: a.r.mag(), grid: a.r.grid }))
                }
            }
            9 => self.min_max(Float, d),
            _ => self.call(Float, d),
        }
    }

    pub fn ternary(&mut self, ty: Elem, d: u32) -> Option<E> {
        let c = self.cond(d);
        self.nesting += 1;
        // Float constants as arms too (bug 1 of mod.rs, fixed).
        let (a, b) = (self.expr(ty, d), self.expr(ty, d));
        self.nesting -= 1;
        self.features.insert("ternaries");
        Some(E::new(format!("({c} ? {} : {})", a.text, b.text), ty, a.r.union(b.r)))
    }

    pub fn min_max(&mut self, ty: Elem, d: u32) -> Option<E> {
        let a = self.expr(ty, d);
        let b = self.expr(ty, d);
        let min = self.rng.chance(50);
        let name = match (ty, min) {
            (Elem::Float, true) => "fminf",
            (Elem::Float, false) => "fmaxf",
            (_, true) => "min",
            (_, false) => "max",
        };
        let (lo, hi) = if min { (a.r.lo.min(b.r.lo), a.r.hi.min(b.r.hi)) } else { (a.r.lo.max(b.r.lo), a.r.hi.max(b.r.hi)) };
        self.features.insert(if ty == Elem::Float { "fminf/fmaxf" } else { "min/max" });
        Some(E::new(format!("{name}({}, {})", a.text, b.text), ty, Range { lo, hi, grid: a.r.grid.max(b.r.grid) }))
    }
}
