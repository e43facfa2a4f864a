//! The generator's statements: assignments, `if`/`else`, loops whose trip counts differ between
//! lanes, `switch`, `break`/`continue`, early returns, stores, atomics, and at the kernel's top
//! level (while all 32 lanes are there) the warp's shuffles and votes, barriers and the shared
//! array's exchange.

use super::expr::{int_lit, E};
use super::gen::{Elem, Gen, Var};
use super::range::{invariant, Range};

/// What a loop being written holds so far.
#[derive(Clone, Copy, Default, Debug)]
pub struct LoopFrame {
    /// A `break` out of this loop.
    pub own_break: bool,
    /// A loop inside it that breaks.
    pub inner_break: bool,
}

/// Where a statement stands: directly in the kernel's body, inside a loop.
#[derive(Clone, Copy, Debug)]
pub struct Ctx {
    pub top: bool,
    pub in_loop: bool,
    pub loops: u32,
}

impl Gen {
    /// `{ ... }` contents: 1-4 statements; names declared inside go out of scope at its end.
    pub fn block(&mut self, depth: u32, ctx: Ctx) {
        let scope = self.vars.len();
        let shared = self.shared;
        self.indent += 1;
        self.nesting += 1;
        for _ in 0..self.rng.range(1, 4) {
            self.stmt(depth, ctx);
            if self.budget <= 0 {
                break;
            }
        }
        self.nesting -= 1;
        self.indent -= 1;
        self.vars.truncate(scope);
        // A shared store happens only at the top level, never inside a block.
        debug_assert_eq!(shared, self.shared);
    }

    /// `T vN = expr;`, a new local in the current scope.
    pub fn declare(&mut self, depth: u32) -> Var {
        let ty = *self.rng.pick(&Elem::ALL);
        let e = self.expr(ty, depth);
        let e = self.fit(e, ty);
        let prefix = match ty {
            Elem::Int => "v",
            Elem::Uns => "u",
            Elem::Float => "f",
        };
        let name = self.fresh(prefix);
        self.line(&format!("{} {name} = {};", ty.c_name(), e.text));
        let v = Var { name, ty, r: invariant(ty), mutable: true };
        self.vars.push(v.clone());
        v
    }

    /// A local to assign to (a new one when there is none or by chance).
    fn target(&mut self) -> Var {
        let locals: Vec<usize> = (0..self.vars.len()).filter(|&k| self.vars[k].mutable).collect();
        if locals.is_empty() || (locals.len() < 10 && self.rng.chance(10)) {
            return self.declare(2);
        }
        self.vars[*self.rng.pick(&locals)].clone()
    }

    pub fn stmt(&mut self, depth: u32, ctx: Ctx) {
        self.budget -= 1;
        let converged = ctx.top && self.converged && self.in_helper.is_none();
        if converged && self.rng.chance(35) {
            return self.converged_stmt();
        }
        let kernel = self.in_helper.is_none();
        match self.rng.below(20) {
            0..=3 => self.assign(),
            4 | 5 => self.compound(),
            6 if self.vars.len() < 16 => {
                self.declare(3);
            }
            7..=9 if depth > 0 => self.if_stmt(depth, ctx),
            10 | 11 if depth > 0 && ctx.loops < 2 => self.for_stmt(depth, ctx),
            12 if depth > 0 && ctx.loops < 2 => self.while_stmt(depth, ctx),
            13 if depth > 0 && ctx.loops < 2 => self.do_stmt(depth, ctx),
            14 if depth > 0 && self.rng.chance(50) => self.switch_stmt(depth, ctx),
            15 if kernel => self.store(),
            16 | 17 if ctx.in_loop => {
                let c = self.cond(2);
                let mut jump = if self.rng.chance(50) { "break" } else { "continue" };
                if jump == "break" {
                    let (outer, this) = self.frames.split_at(self.frames.len().saturating_sub(1));
                    let (inner, outer) = (this.iter().any(|f| f.inner_break), outer.iter().any(|f| f.own_break));
                    if (inner || outer) && self.cfg.avoid_known_bugs {
                        // Known bug 6 (mod.rs): pdom-ssy misses a `break` out of a loop whose inner
                        // loop also breaks.
                        jump = "continue";
                    } else if let Some(f) = self.frames.last_mut() {
                        f.own_break = true;
                    }
                }
                self.features.insert(jump);
                if self.in_helper.is_none() && self.cfg.avoid_known_bugs {
                    // Known bug 2 (mod.rs): in the kepler code, the branches after (or around) a loop
                    // with `break`, and a loop with `continue`, get no SSY.
                    self.converged = false;
                }
                self.line(&format!("if {} {jump};", paren(&c)));
            }
            18 if self.rng.chance(40) => self.early_return(),
            19 if kernel && self.counter.is_some() => self.atomic(),
            19 if depth > 0 => {
                self.line("{");
                self.block(depth - 1, Ctx { top: false, ..ctx });
                self.line("}");
            }
            _ => self.assign(),
        }
    }

    fn assign(&mut self) {
        let v = self.target();
        let e = self.expr(v.ty, 3);
        let e = self.fit(e, v.ty);
        self.line(&format!("{} = {};", v.name, e.text));
    }

    /// `x op= e`, `x++`, or `x = fit(x op e)` where the plain form could leave the variable's
    /// range.
    fn compound(&mut self) {
        let v = self.target();
        let me = E::new(v.name.clone(), v.ty, v.r);
        match v.ty {
            Elem::Uns => match self.rng.below(6) {
                0 => {
                    let op = if self.rng.chance(50) { "++" } else { "--" };
                    self.line(&format!("{}{op};", v.name));
                }
                1 => {
                    let c = self.expr(Elem::Int, 1);
                    let op = if self.rng.chance(50) { "<<=" } else { ">>=" };
                    self.line(&format!("{} {op} ({} & 31);", v.name, c.text));
                }
                2 => {
                    let d = self.expr(Elem::Uns, 1);
                    let op = if self.rng.chance(50) { "/=" } else { "%=" };
                    self.line(&format!("{} {op} ({} | 1u);", v.name, d.text));
                }
                _ => {
                    let op = *self.rng.pick(&["+=", "-=", "*=", "^=", "|=", "&="]);
                    let e = self.expr(Elem::Uns, 2);
                    self.line(&format!("{} {op} {};", v.name, e.text));
                }
            },
            Elem::Int => match self.rng.below(4) {
                0 => {
                    let c = self.expr(Elem::Int, 1);
                    self.line(&format!("{} >>= ({} & 31);", v.name, c.text));
                }
                1 => {
                    let k = *self.rng.pick(&[2, 3, 7, 10, -4]);
                    let op = if self.rng.chance(50) { "/=" } else { "%=" };
                    self.line(&format!("{} {op} {};", v.name, int_lit(k).text));
                }
                _ => {
                    let op = *self.rng.pick(&["+", "-", "^", "|", "&"]);
                    let e = self.expr(Elem::Int, 2);
                    let e = self.fit(e, Elem::Int);
                    let r = match op {
                        "+" => Range::int(me.r.lo + e.r.lo, me.r.hi + e.r.hi),
                        "-" => Range::int(me.r.lo - e.r.hi, me.r.hi - e.r.lo),
                        _ => Range::FULL_I,
                    };
                    let sum = self.fit(E::new(format!("({} {op} {})", v.name, e.text), Elem::Int, r), Elem::Int);
                    self.line(&format!("{} = {};", v.name, sum.text));
                }
            },
            Elem::Float => {
                let e = self.expr(Elem::Float, 2);
                let e = self.fit(e, Elem::Float);
                let (op, r) = if self.rng.chance(50) {
                    ("+", Range { lo: me.r.lo + e.r.lo, hi: me.r.hi + e.r.hi, grid: me.r.grid.max(e.r.grid) })
                } else {
                    ("-", Range { lo: me.r.lo - e.r.hi, hi: me.r.hi - e.r.lo, grid: me.r.grid.max(e.r.grid) })
                };
                let sum = self.fit(E::new(format!("({} {op} {})", v.name, e.text), Elem::Float, r), Elem::Float);
                self.line(&format!("{} = {};", v.name, sum.text));
            }
        }
    }

    fn if_stmt(&mut self, depth: u32, ctx: Ctx) {
        let inner = Ctx { top: false, ..ctx };
        let c = self.cond(2);
        self.features.insert("if/else");
        self.line(&format!("if {} {{", paren(&c)));
        self.block(depth - 1, inner);
        while self.rng.chance(20) {
            let c = self.cond(2);
            self.line(&format!("}} else if {} {{", paren(&c)));
            self.block(depth - 1, inner);
        }
        if self.rng.chance(50) {
            self.line("} else {");
            self.block(depth - 1, inner);
        }
        self.line("}");
    }

    /// A trip count of at most 8 that differs between lanes.
    fn trip_count(&mut self) -> String {
        match self.rng.below(5) {
            0 if self.in_helper.is_some() => format!("(int)(threadIdx.x & {}u) + 1", self.rng.range(1, 7)),
            0 => format!("(lane & {}) + 1", self.rng.range(1, 7)),
            1 => {
                let e = self.expr(Elem::Int, 2);
                format!("min({}, {})", e.text, self.rng.range(1, 6))
            }
            2 => {
                let e = self.expr(Elem::Uns, 2);
                format!("(int)({} & 7u)", e.text)
            }
            _ => {
                let e = self.expr(Elem::Int, 2);
                format!("({} & 7)", e.text)
            }
        }
    }

    fn loop_body(&mut self, depth: u32, ctx: Ctx, counter: Option<Var>) {
        if let Some(c) = counter {
            self.vars.push(c);
        }
        let scope = self.vars.len() - 1;
        self.frames.push(LoopFrame::default());
        self.block(depth - 1, Ctx { top: false, in_loop: true, loops: ctx.loops + 1 });
        let frame = self.frames.pop().expect("pushed above");
        if let Some(outer) = self.frames.last_mut() {
            outer.inner_break |= frame.own_break || frame.inner_break;
        }
        self.vars.truncate(scope);
    }

    fn for_stmt(&mut self, depth: u32, ctx: Ctx) {
        let j = self.fresh("j");
        // The test runs again on each iteration, when lanes may have left.
        self.nesting += 1;
        let n = self.trip_count();
        self.nesting -= 1;
        self.features.insert("for loops");
        self.line(&format!("for (int {j} = 0; {j} < {n}; {j}++) {{"));
        self.loop_body(depth, ctx, Some(Var { name: j, ty: Elem::Int, r: Range::int(0.0, 7.0), mutable: false }));
        self.line("}");
    }

    /// The counter goes down first, so a `continue` cannot skip it.
    fn while_stmt(&mut self, depth: u32, ctx: Ctx) {
        let w = self.fresh("w");
        let n = self.trip_count();
        self.features.insert("while loops");
        self.line(&format!("int {w} = {n};"));
        self.nesting += 1;
        let extra = if self.rng.chance(30) { format!(" && {}", self.cond(1)) } else { String::new() };
        self.nesting -= 1;
        self.line(&format!("while ({w} > 0{extra}) {{"));
        self.indent += 1;
        self.line(&format!("{w}--;"));
        self.indent -= 1;
        self.vars.push(Var { name: w.clone(), ty: Elem::Int, r: Range::int(0.0, 7.0), mutable: false });
        self.loop_body(depth, ctx, None);
        self.line("}");
    }

    fn do_stmt(&mut self, depth: u32, ctx: Ctx) {
        let d = self.fresh("d");
        self.features.insert("do-while loops");
        self.line(&format!("int {d} = 0;"));
        self.line("do {");
        self.indent += 1;
        self.line(&format!("{d}++;"));
        self.indent -= 1;
        self.vars.push(Var { name: d.clone(), ty: Elem::Int, r: Range::int(0.0, 8.0), mutable: false });
        self.loop_body(depth, ctx, None);
        self.nesting += 1;
        let n = self.trip_count();
        self.nesting -= 1;
        self.line(&format!("}} while ({d} < {n});"));
    }

    /// Cases in braces (C++ forbids jumping past a declaration), some falling through; no
    /// `break` or `continue` inside but the cases' own.
    fn switch_stmt(&mut self, depth: u32, ctx: Ctx) {
        let e = self.expr(Elem::Int, 2);
        self.features.insert("switch");
        self.line(&format!("switch ({} & 3) {{", e.text));
        let inner = Ctx { top: false, in_loop: false, loops: ctx.loops };
        for label in ["case 0:", "case 1:", "case 2:", "default:"] {
            if label != "default:" && self.rng.chance(25) {
                continue;
            }
            self.line(&format!("{label} {{"));
            self.block(depth - 1, inner);
            let close = if label != "default:" && self.rng.chance(75) { "} break;" } else { "}" };
            self.line(close);
        }
        self.line("}");
    }

    fn store(&mut self) {
        let (out, elem) = self.out.clone().expect("a kernel has an output");
        let e = self.expr(elem, 3);
        self.features.insert("stores");
        self.line(&format!("{out}[i] = {};", e.text));
    }

    fn early_return(&mut self) {
        let c = self.cond(2);
        self.features.insert("early return");
        match self.in_helper {
            Some(ret) => {
                self.diverges = true;
                let e = self.expr(ret, 2);
                let e = self.fit(e, ret);
                self.line(&format!("if {} return {};", paren(&c), e.text));
            }
            None => {
                self.line(&format!("if {} return;", paren(&c)));
                self.converged = false;
            }
        }
    }

    fn atomic(&mut self) {
        let (cnt, elem, op) = self.counter.clone().expect("checked by the caller");
        let idx = self.expr(Elem::Int, 1);
        let v = self.expr(elem, 2);
        let v = self.fit(v, elem);
        self.features.insert("atomics");
        let place = if self.rng.chance(70) { format!("&{cnt}[{} & 7]", idx.text) } else { format!("{cnt} + ({} & 7)", idx.text) };
        self.line(&format!("{op}({place}, {});", v.text));
    }

    /// A statement only the kernel's top level may hold, before any return: all 32 lanes are
    /// there, as the full member mask, the barrier and the shared exchange need.
    fn converged_stmt(&mut self) {
        match self.rng.below(9) {
            0..=2 => self.shuffle(),
            3 => {
                let c = self.cond(2);
                let v = self.target_of(Elem::Uns);
                if !self.converged {
                    return self.assign_cond(&v, &c);
                }
                self.features.insert("__ballot_sync");
                if v.ty == Elem::Int {
                    self.line(&format!("{} = __popc(__ballot_sync(0xffffffff, {c}));", v.name));
                } else {
                    self.line(&format!("{} = __ballot_sync(0xffffffff, {c});", v.name));
                }
            }
            4 => {
                let c = self.cond(2);
                let v = self.target_of(Elem::Int);
                let f = if self.rng.chance(50) { "__any_sync" } else { "__all_sync" };
                if !self.converged {
                    return self.assign_cond(&v, &c);
                }
                self.features.insert("__any_sync/__all_sync");
                self.line(&format!("{} = {f}(0xffffffff, {c});", v.name));
            }
            5 => {
                self.features.insert("__syncthreads");
                self.line("__syncthreads();");
            }
            6 | 7 if self.shared_elem.is_some() => {
                let elem = self.shared_elem.expect("checked");
                // The value reads no element of the array: another lane may be storing it.
                let last = self.shared.take();
                let e = self.expr(elem, 3);
                self.shared = last;
                if !self.converged {
                    return self.assign();
                }
                self.features.insert("shared memory");
                // The first barrier keeps earlier reads of the array before this store.
                self.line("__syncthreads();");
                self.line(&format!("sh[threadIdx.x] = {};", e.text));
                self.line("__syncthreads();");
                self.shared = Some((elem, e.r));
            }
            8 => {
                // Not `__activemask()`: which lanes it reports depends on the model (MIMD runs
                // one lane at a time), so its value is no property of the program.
                self.features.insert("__syncwarp");
                self.line("__syncwarp();");
            }
            _ => self.shuffle(),
        }
    }

    /// `v = c` (as 0 or 1): what a vote becomes when writing its condition left the lanes apart
    /// (it called a helper: known bugs 3 and 4).
    fn assign_cond(&mut self, v: &Var, c: &str) {
        let e = self.fit(E::new(format!("(!!({c}))"), Elem::Int, Range::BOOL), v.ty);
        self.line(&format!("{} = {};", v.name, e.text));
    }

    /// A local of `ty` (or, failing that, an int), to take a warp-wide result.
    fn target_of(&mut self, ty: Elem) -> Var {
        let of: Vec<usize> = (0..self.vars.len()).filter(|&k| self.vars[k].mutable && self.vars[k].ty == ty).collect();
        if !of.is_empty() {
            return self.vars[*self.rng.pick(&of)].clone();
        }
        let ints: Vec<usize> = (0..self.vars.len()).filter(|&k| self.vars[k].mutable && self.vars[k].ty == Elem::Int).collect();
        if !ints.is_empty() {
            return self.vars[*self.rng.pick(&ints)].clone();
        }
        let name = self.fresh("v");
        self.line(&format!("int {name} = 0;"));
        let v = Var { name, ty: Elem::Int, r: invariant(Elem::Int), mutable: true };
        self.vars.push(v.clone());
        v
    }

    /// `x = __shfl*_sync(0xffffffff, e, ...)`: every lane gets some lane's `e`, so the result
    /// has `e`'s range.
    fn shuffle(&mut self) {
        let v = self.target();
        let e = self.expr(v.ty, 2);
        let width = if self.rng.chance(20) { format!(", {}", self.rng.pick(&[8, 16])) } else { String::new() };
        let call = match self.rng.below(4) {
            0 => {
                let k = 1 << self.rng.range(0, 4);
                format!("__shfl_xor_sync(0xffffffff, {}, {k}{width})", e.text)
            }
            1 => format!("__shfl_down_sync(0xffffffff, {}, {}{width})", e.text, self.rng.range(1, 16)),
            2 => format!("__shfl_up_sync(0xffffffff, {}, {}{width})", e.text, self.rng.range(1, 16)),
            _ => {
                let src = if self.rng.chance(50) {
                    format!("(lane + {}) & 31", self.rng.range(1, 31))
                } else {
                    format!("{} & 31", self.expr(Elem::Int, 1).text)
                };
                format!("__shfl_sync(0xffffffff, {}, {src}{width})", e.text)
            }
        };
        let e = if self.converged {
            self.features.insert("shuffles");
            E::new(call, v.ty, e.r)
        } else {
            e
        };
        let e = self.fit(e, v.ty);
        self.line(&format!("{} = {};", v.name, e.text));
    }
}

/// A condition in the parentheses `if` and `while` need, without doubling them.
fn paren(c: &str) -> String {
    if c.starts_with('(') && c.ends_with(')') && balanced_inside(c) {
        c.to_string()
    } else {
        format!("({c})")
    }
}

/// True when the first `(` of `c` closes at its last character.
fn balanced_inside(c: &str) -> bool {
    let mut depth = 0;
    for (k, ch) in c.char_indices() {
        match ch {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 && k != c.len() - 1 {
                    return false;
                }
            }
            _ => {}
        }
    }
    true
}
