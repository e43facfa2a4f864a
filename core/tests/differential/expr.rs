//! Typed expressions for the generator, each with the range of values it can take
//! (`range.rs`): leaves (variables, literals, in-bounds buffer elements, built-ins, the shared
//! array), exact casts, the narrowing that fits a value to what a variable may hold, calls of
//! helpers, and conditions. The operators are in `ops.rs`.

use super::gen::{Elem, Gen};
use super::range::{invariant, Range, I32_MAX};

/// An expression's C text (parenthesised unless it is a single token or call), type and range.
#[derive(Clone, PartialEq, Debug)]
pub struct E {
    pub text: String,
    pub ty: Elem,
    pub r: Range,
}

impl E {
    pub fn new(text: impl Into<String>, ty: Elem, r: Range) -> E {
        E { text: text.into(), ty, r }
    }
}

pub fn int_lit(v: i64) -> E {
    let text = if v < 0 { format!("({v})") } else { v.to_string() };
    E::new(text, Elem::Int, Range::int(v as f64, v as f64))
}

pub fn uns_lit(v: u32) -> E {
    let text = if v > 4096 { format!("0x{v:x}u") } else { format!("{v}u") };
    E::new(text, Elem::Uns, Range::int(v as f64, v as f64))
}

/// A float literal in quarters (`1.25f`, `(-0.5f)`).
pub fn float_lit(quarters: i64) -> E {
    let v = quarters as f64 / 4.0;
    let body = format!("{:?}f", v as f32);
    let text = if v < 0.0 { format!("({body})") } else { body };
    let grid = if quarters % 4 == 0 {
        0
    } else if quarters % 2 == 0 {
        1
    } else {
        2
    };
    E::new(text, Elem::Float, Range { lo: v, hi: v, grid })
}

impl Gen {
    /// An expression of type `ty`, at most `depth` operators deep.
    pub fn expr(&mut self, ty: Elem, depth: u32) -> E {
        if depth == 0 || self.rng.chance(20) {
            return self.leaf(ty, depth);
        }
        for _ in 0..8 {
            let e = match ty {
                Elem::Int => self.int_op(depth - 1),
                Elem::Uns => self.uns_op(depth - 1),
                Elem::Float => self.float_op(depth - 1),
            };
            if let Some(e) = e {
                return e;
            }
        }
        self.leaf(ty, depth)
    }

    /// A variable, literal, buffer element, built-in or shared element.
    pub fn leaf(&mut self, ty: Elem, depth: u32) -> E {
        for _ in 0..4 {
            let e = match self.rng.below(10) {
                0..=3 => self.var_of(ty),
                4 | 5 => Some(self.literal(ty)),
                6 | 7 => self.buffer_read(ty, depth),
                8 => Some(self.builtin(ty)),
                _ => self.shared_read(ty, depth),
            };
            if let Some(e) = e {
                return e;
            }
        }
        self.literal(ty)
    }

    /// A leaf that reads no memory (indices use these at depth 0, so reads never nest forever).
    fn plain_leaf(&mut self, ty: Elem) -> E {
        match self.rng.below(4) {
            0 => self.literal(ty),
            1 => self.builtin(ty),
            _ => self.var_of(ty).unwrap_or_else(|| self.builtin(ty)),
        }
    }

    fn var_of(&mut self, ty: Elem) -> Option<E> {
        let names: Vec<usize> = (0..self.vars.len()).filter(|&k| self.vars[k].ty == ty).collect();
        if names.is_empty() {
            return None;
        }
        let v = &self.vars[*self.rng.pick(&names)];
        Some(E::new(v.name.clone(), ty, v.r))
    }

    pub fn literal(&mut self, ty: Elem) -> E {
        match ty {
            Elem::Int if self.rng.chance(80) => int_lit(self.rng.range(-20, 40)),
            Elem::Int => int_lit(self.rng.range(-100_000, 100_000)),
            Elem::Uns if self.rng.chance(70) => uns_lit(self.rng.range(0, 64) as u32),
            Elem::Uns => uns_lit(self.rng.next_u64() as u32),
            Elem::Float => float_lit(self.rng.range(-24, 24)),
        }
    }

    /// The launch's built-ins (unsigned in CUDA), converted to `ty`.
    pub fn builtin(&mut self, ty: Elem) -> E {
        let (name, r) = *self.rng.pick(&[
            ("threadIdx.x", self.launch.thread_range()),
            ("blockIdx.x", Range::int(self.launch.block_idx as f64, self.launch.block_idx as f64)),
            ("blockDim.x", Range::int(self.launch.block as f64, self.launch.block as f64)),
        ]);
        let e = E::new(name, Elem::Uns, r);
        self.convert(e, ty)
    }

    /// An in-bounds element of an input buffer (converted when none holds `ty`).
    fn buffer_read(&mut self, ty: Elem, depth: u32) -> Option<E> {
        if self.inputs.is_empty() {
            return None;
        }
        let same: Vec<usize> = (0..self.inputs.len()).filter(|&k| self.inputs[k].elem == ty).collect();
        let k =
            if !same.is_empty() && self.rng.chance(80) { *self.rng.pick(&same) } else { self.rng.below(self.inputs.len() as u64) as usize };
        let (name, elem, len, r) = {
            let b = &self.inputs[k];
            (b.name.clone(), b.elem, b.len, b.r)
        };
        let idx = self.index(len, depth);
        self.features.insert("buffer reads");
        let e = E::new(format!("{name}[{idx}]"), elem, r);
        Some(if elem == ty { e } else { self.convert(e, ty) })
    }

    /// An index into a buffer of `len` (a power of two) elements, masked or clamped into it.
    fn index(&mut self, len: u32, depth: u32) -> String {
        let pick = self.rng.below(6);
        if pick == 0 && self.launch.index_range().hi < len as f64 {
            return "i".into();
        }
        let ty = if self.rng.chance(50) { Elem::Int } else { Elem::Uns };
        let e = if depth == 0 { self.plain_leaf(ty) } else { self.expr(ty, depth - 1) };
        match (pick, ty) {
            (1, Elem::Int) => {
                self.features.insert("clamped indices");
                format!("min(max({}, 0), {})", e.text, len - 1)
            }
            (2, Elem::Uns) => format!("({} % {len}u)", e.text),
            _ => format!("({} & {})", e.text, len - 1),
        }
    }

    /// An element of the shared array, once the warp has filled it.
    fn shared_read(&mut self, ty: Elem, depth: u32) -> Option<E> {
        let (elem, r) = self.shared?;
        let off = if depth == 0 { self.plain_leaf(Elem::Int) } else { self.expr(Elem::Int, depth - 1) };
        let e = E::new(format!("sh[wbase + ({} & 31)]", off.text), elem, r);
        Some(if elem == ty { e } else { self.convert(e, ty) })
    }

    /// `e` as type `ty`, by a cast that is exact: a float from an integer only in 24 bits, an
    /// unsigned from a float through `int` (a negative float to `unsigned` is undefined).
    pub fn convert(&mut self, e: E, ty: Elem) -> E {
        if e.ty == ty {
            return e;
        }
        self.features.insert("casts");
        match (e.ty, ty) {
            (Elem::Uns, Elem::Int) => {
                let r = if e.r.hi <= I32_MAX { e.r } else { Range::FULL_I };
                E::new(format!("(int){}", e.text), Elem::Int, r)
            }
            (Elem::Float, Elem::Int) => E::new(format!("(int){}", e.text), Elem::Int, Range::int(e.r.lo.trunc(), e.r.hi.trunc())),
            (Elem::Int, Elem::Uns) => {
                let r = if e.r.lo >= 0.0 { e.r } else { Range::FULL_U };
                E::new(format!("(unsigned){}", e.text), Elem::Uns, r)
            }
            (Elem::Float, Elem::Uns) => {
                let i = self.convert(e, Elem::Int);
                self.convert(i, Elem::Uns)
            }
            (_, Elem::Float) => {
                let e = if e.r.mag() <= 4096.0 { e } else { self.shrink(e, 4095.0) };
                E::new(format!("(float){}", e.text), Elem::Float, Range { grid: 0, ..e.r })
            }
            _ => unreachable!("every pair is above"),
        }
    }

    /// `e` with its magnitude brought within `limit` (a whole number): by a remainder, a mask,
    /// a shift or a clamp for integers, a clamp for floats.
    pub fn shrink(&mut self, e: E, limit: f64) -> E {
        if e.r.mag() <= limit {
            return e;
        }
        let l = limit as i64;
        match e.ty {
            Elem::Int => match self.rng.below(4) {
                0 => {
                    let k = self.rng.range((l / 2).max(2), l + 1);
                    let r = Range::int(if e.r.lo < 0.0 { -(k as f64 - 1.0) } else { 0.0 }, if e.r.hi > 0.0 { k as f64 - 1.0 } else { 0.0 });
                    E::new(format!("({} % {k})", e.text), Elem::Int, r)
                }
                1 => {
                    let mask = (Range::ones_above(limit / 2.0) as i64).min(l);
                    E::new(format!("({} & 0x{mask:x})", e.text), Elem::Int, Range::int(0.0, mask as f64))
                }
                2 => {
                    let mut s = 0;
                    while e.r.mag() / 2f64.powi(s) > limit - 1.0 {
                        s += 1;
                    }
                    let r = Range::int((e.r.lo / 2f64.powi(s)).floor(), (e.r.hi / 2f64.powi(s)).floor());
                    E::new(format!("({} >> {s})", e.text), Elem::Int, r)
                }
                _ => {
                    self.features.insert("min/max");
                    E::new(format!("min(max({}, {}), {l})", e.text, -l), Elem::Int, Range::int(e.r.lo.max(-limit), e.r.hi.min(limit)))
                }
            },
            Elem::Uns => {
                if self.rng.chance(50) {
                    let k = self.rng.range((l / 2).max(2), l + 1);
                    E::new(format!("({} % {k}u)", e.text), Elem::Uns, Range::int(0.0, (k - 1) as f64))
                } else {
                    let mask = Range::ones_above(limit / 2.0).min(limit);
                    E::new(format!("({} & 0x{:x}u)", e.text, mask as u64), Elem::Uns, Range::int(0.0, mask))
                }
            }
            Elem::Float => {
                self.features.insert("fminf/fmaxf");
                let lim = float_lit(l * 4).text;
                let neg = float_lit(-l * 4).text;
                let r = Range { lo: e.r.lo.max(-limit), hi: e.r.hi.min(limit), grid: e.r.grid };
                E::new(format!("fminf(fmaxf({}, {neg}), {lim})", e.text), Elem::Float, r)
            }
        }
    }

    /// `e` as a value a variable of type `ty` may hold (see [`invariant`]).
    pub fn fit(&mut self, e: E, ty: Elem) -> E {
        let inv = invariant(ty);
        let mut e = e;
        if e.ty != ty {
            e = self.convert(e, ty);
        }
        if e.r.within(inv) {
            return e;
        }
        if ty == Elem::Float && e.r.grid > inv.grid {
            let r = Range { lo: e.r.lo.floor(), hi: e.r.hi.floor(), grid: 0 };
            self.features.insert("floorf");
            e = E::new(format!("floorf({})", e.text), Elem::Float, r);
        }
        self.shrink(e, inv.hi)
    }

    /// A call of a helper defined earlier that returns `ty`, its arguments fitted to its
    /// parameters.
    pub fn call(&mut self, ty: Elem, d: u32) -> Option<E> {
        let fits: Vec<usize> = (0..self.callable).filter(|&k| self.helpers[k].ret == ty).collect();
        if fits.is_empty() {
            return None;
        }
        let k = *self.rng.pick(&fits);
        let (name, params) = (self.helpers[k].name.clone(), self.helpers[k].params.clone());
        let early = self.helpers[k].returns_early;
        if early && self.in_helper.is_some() {
            self.diverges = true;
        }
        if (early || self.nesting > 0) && self.in_helper.is_none() && self.cfg.avoid_known_bugs {
            // Known bugs 3 and 4 (mod.rs): after a call from divergent code, or of a function that
            // returns early, the thread-frontier and PDOM models let lanes run on apart.
            self.converged = false;
        }
        let args: Vec<String> = params
            .iter()
            .map(|&p| {
                let e = self.expr(p, d);
                self.fit(e, p).text
            })
            .collect();
        self.features.insert("helper calls");
        Some(E::new(format!("{name}({})", args.join(", ")), ty, invariant(ty)))
    }

    /// A condition: comparisons (often of a lane-dependent value, so branches diverge), `&&`,
    /// `||`, `!`, or an integer's truth.
    pub fn cond(&mut self, d: u32) -> String {
        match if d == 0 { 0 } else { self.rng.below(10) } {
            0..=5 => {
                let (ta, tb) = *self.rng.pick(&[
                    (Elem::Int, Elem::Int),
                    (Elem::Int, Elem::Int),
                    (Elem::Uns, Elem::Uns),
                    (Elem::Float, Elem::Float),
                    (Elem::Int, Elem::Uns),
                ]);
                let a = if self.rng.chance(50) { self.lane_value(ta) } else { self.expr(ta, d.saturating_sub(1)) };
                let b = self.expr(tb, d.saturating_sub(1));
                if ta != tb {
                    self.features.insert("mixed int/unsigned");
                }
                let op = *self.rng.pick(&["<", "<=", ">", ">=", "==", "!="]);
                self.features.insert("comparisons");
                format!("({} {op} {})", a.text, b.text)
            }
            6 | 7 => {
                let op = if self.rng.chance(50) { "&&" } else { "||" };
                self.features.insert("&& ||");
                let a = self.cond(d - 1);
                self.nesting += 1;
                let b = self.cond(d - 1);
                self.nesting -= 1;
                format!("({a} {op} {b})")
            }
            8 => format!("!{}", self.cond(d - 1)),
            _ => {
                let ty = if self.rng.chance(50) { Elem::Int } else { Elem::Uns };
                let e = self.expr(ty, d - 1);
                if self.rng.chance(50) {
                    e.text
                } else {
                    format!("({} & {})", e.text, 1 << self.rng.range(0, 4))
                }
            }
        }
    }

    /// A value that differs between lanes: the index, the lane, or an input at the index.
    fn lane_value(&mut self, ty: Elem) -> E {
        let direct: Vec<usize> = (0..self.inputs.len())
            .filter(|&k| self.inputs[k].elem == ty && self.launch.index_range().hi < self.inputs[k].len as f64)
            .collect();
        if !direct.is_empty() && self.rng.chance(50) {
            let b = &self.inputs[*self.rng.pick(&direct)];
            return E::new(format!("{}[i]", b.name), ty, b.r);
        }
        let e = match (self.in_helper.is_some(), self.rng.chance(50)) {
            (true, _) => E::new("(int)threadIdx.x", Elem::Int, self.launch.thread_range()),
            (false, true) => E::new("i", Elem::Int, self.launch.index_range()),
            (false, false) => E::new("lane", Elem::Int, Range::int(0.0, 31.0)),
        };
        let e = if self.rng.chance(50) {
            let m = self.rng.range(1, 7);
            E::new(format!("({} & {m})", e.text), Elem::Int, Range::int(0.0, m as f64))
        } else {
            e
        };
        self.convert(e, ty)
    }
}
