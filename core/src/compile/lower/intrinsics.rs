//! CUDA's built-in functions that are single instructions or short sequences: math (`sqrtf`,
//! `expf`, `fminf`, `min`, ...), bits (`__popc`, `__clz`, `__ffs`, `__brev`) and the warp's
//! collective operations (`__shfl_*_sync`, `__ballot_sync`, `__any_sync`, `__all_sync`,
//! `__activemask`, `__syncwarp`). Every `*_sync` carries its member mask into the instruction,
//! where the simulator checks that each lane it names is there.

use alloc::format;
use alloc::vec::Vec;

use super::value::{alu, common, Value};
use super::Lower;
use crate::compile::ast::*;
use crate::compile::ins::{Ins, Opcode, Operand};
use crate::compile::Target;
use crate::diag::Span;

/// A float function: its name, instruction and modifier, and a scale before and after.
type FloatFn = (&'static str, Opcode, &'static str, Option<f32>, Option<f32>);

/// Float functions that are one `MUFU` (multi-function unit) or `FRND` instruction, with an
/// optional scale applied before (`expf(x)` is `2^(x * log2 e)`) or after (`logf`).
const FLOAT_UNARY: &[FloatFn] = &[
    ("sqrtf", Opcode::Mufu, "SQRT", None, None),
    ("rsqrtf", Opcode::Mufu, "RSQ", None, None),
    ("exp2f", Opcode::Mufu, "EX2", None, None),
    ("expf", Opcode::Mufu, "EX2", Some(core::f32::consts::LOG2_E), None),
    ("__expf", Opcode::Mufu, "EX2", Some(core::f32::consts::LOG2_E), None),
    ("log2f", Opcode::Mufu, "LG2", None, None),
    ("__log2f", Opcode::Mufu, "LG2", None, None),
    ("logf", Opcode::Mufu, "LG2", None, Some(core::f32::consts::LN_2)),
    ("__logf", Opcode::Mufu, "LG2", None, Some(core::f32::consts::LN_2)),
    ("sinf", Opcode::Mufu, "SIN", None, None),
    ("__sinf", Opcode::Mufu, "SIN", None, None),
    ("cosf", Opcode::Mufu, "COS", None, None),
    ("__cosf", Opcode::Mufu, "COS", None, None),
    ("floorf", Opcode::Frnd, "FLOOR", None, None),
    ("ceilf", Opcode::Frnd, "CEIL", None, None),
    ("truncf", Opcode::Frnd, "TRUNC", None, None),
    ("rintf", Opcode::Frnd, "", None, None),
    ("nearbyintf", Opcode::Frnd, "", None, None),
];

/// Whether `name` is one of the float math functions built in (`sqrtf`, `fabsf`, ...).
pub(super) fn is_float_builtin(name: &str) -> bool {
    FLOAT_UNARY.iter().any(|f| f.0 == name) || matches!(name, "fabsf" | "fminf" | "fmaxf" | "fmaf")
}

/// How many arguments a float built-in takes (`float_builtin`'s).
fn float_arity(name: &str) -> usize {
    if name == "fmaf" {
        3
    } else {
        1
    }
}

/// The shuffles: name, `SHFL` mode, and whether the clamp part of `c` is 0 (`up` counts down
/// from the lane, so its bound is the segment's start).
const SHUFFLES: &[(&str, &str, bool)] = &[
    ("__shfl_sync", "IDX", false),
    ("__shfl_up_sync", "UP", true),
    ("__shfl_down_sync", "DOWN", false),
    ("__shfl_xor_sync", "BFLY", false),
];

impl Lower<'_> {
    /// Lowers `name(args)` if it is one of these built-ins: `None` when it is not one.
    pub(super) fn intrinsic(&mut self, name: &str, args: &[Expr], span: Span) -> Option<Option<Value>> {
        if FLOAT_UNARY.iter().any(|f| f.0 == name) || matches!(name, "fabsf" | "fmaf") {
            return Some(self.arity(name, args, float_arity(name), span).and_then(|()| {
                let vals = args.iter().map(|a| self.expr_as(a, Ty::FLOAT)).collect::<Option<Vec<_>>>()?;
                self.float_builtin(name, &vals, span)
            }));
        }
        if let Some(&(_, mode, up)) = SHUFFLES.iter().find(|s| s.0 == name) {
            return Some(self.shuffle(name, args, span, mode, up));
        }
        match name.strip_prefix("make_").and_then(vector_of) {
            Some(Ok((s, n))) => return Some(self.make_vector(name, args, s, n, span)),
            Some(Err(why)) => {
                self.error(span, why);
                return Some(None);
            }
            None => {}
        }
        Some(match name {
            "fminf" | "fmaxf" | "fmin" | "fmax" => self.min_max(name, args, span, name.contains("min"), Some(Ty::FLOAT)),
            "min" | "max" | "umin" | "umax" => self.min_max(name, args, span, name.ends_with("min"), None),
            "__float_as_int" => self.bit_cast(name, args, span, Ty::FLOAT, Ty::INT),
            "__float_as_uint" => self.bit_cast(name, args, span, Ty::FLOAT, Ty::UNSIGNED),
            "__int_as_float" => self.bit_cast(name, args, span, Ty::INT, Ty::FLOAT),
            "__uint_as_float" => self.bit_cast(name, args, span, Ty::UNSIGNED, Ty::FLOAT),
            "__double_as_longlong" => self.bit_cast(name, args, span, Ty::DOUBLE, Ty::LONG),
            "__longlong_as_double" => self.bit_cast(name, args, span, Ty::LONG, Ty::DOUBLE),
            "__double2hiint" | "__double2loint" => self.arity(name, args, 1, span).and_then(|()| {
                let d = self.expr_as(&args[0], Ty::DOUBLE)?;
                let r = self.in_reg(d, span)?;
                Some(Value::reg(if name == "__double2hiint" { r.saturating_add(1) } else { r }, Ty::INT))
            }),
            "__hiloint2double" => self.arity(name, args, 2, span).and_then(|()| {
                let hi = self.expr_as(&args[0], Ty::INT)?;
                let lo = self.expr_as(&args[1], Ty::INT)?;
                let t = self.temp_pair(span)?;
                self.emit(super::value::mov(t, lo.operand()));
                self.emit(super::value::mov(t.saturating_add(1), hi.operand()));
                Some(Value::reg(t, Ty::DOUBLE))
            }),
            // The fast power, as CUDA defines it: 2 to the y log2 x (`ex2.approx(y * lg2.approx(x))`).
            "__powf" => self.arity(name, args, 2, span).and_then(|()| {
                let x = self.expr_as(&args[0], Ty::FLOAT)?;
                let y = self.expr_as(&args[1], Ty::FLOAT)?;
                let t = self.temp(span)?;
                self.emit(alu(Opcode::Mufu, &["LG2"], t, &[x.operand()]));
                self.emit(alu(Opcode::Fmul, &[], t, &[Operand::r(t), y.operand()]));
                self.emit(alu(Opcode::Mufu, &["EX2"], t, &[Operand::r(t)]));
                Some(Value::reg(t, Ty::FLOAT))
            }),
            "__fdividef" => self.arity(name, args, 2, span).and_then(|()| {
                let x = self.expr_as(&args[0], Ty::FLOAT)?;
                let y = self.expr_as(&args[1], Ty::FLOAT)?;
                self.fast_divide(x, y, span)
            }),
            "__popc" | "__brev" | "__clz" => self.arity(name, args, 1, span).and_then(|()| {
                let x = self.expr_as(&args[0], Ty::UNSIGNED)?;
                let x = Operand::r(self.in_reg(x, span)?);
                let t = self.temp(span)?;
                let (op, mods): (Opcode, &[&str]) = match name {
                    "__popc" => (Opcode::Popc, &[]),
                    "__brev" => (Opcode::Brev, &[]),
                    _ => (Opcode::Flo, &["U32", "SH"]),
                };
                self.emit(alu(op, mods, t, &[x]));
                let ty = if name == "__brev" { Ty::UNSIGNED } else { Ty::INT };
                if name == "__clz" {
                    // FLO finds no bit in 0: count 32 leading zeros there.
                    let p = self.regs.pred(span, &mut self.diags);
                    self.emit(super::value::setp(Opcode::Isetp, &["EQ", "U32", "AND"], p, x, Operand::RZ));
                    self.emit(alu(Opcode::Sel, &[], t, &[Operand::Int(32), Operand::r(t), Operand::Pred(p)]));
                    self.regs.free_pred(p);
                }
                Some(Value::reg(t, ty))
            }),
            "__ffs" => self.arity(name, args, 1, span).and_then(|()| {
                // The lowest set bit, counted from 1: reverse the bits and count leading zeros.
                let x = self.expr_as(&args[0], Ty::UNSIGNED)?;
                let x = Operand::r(self.in_reg(x, span)?);
                let t = self.temp(span)?;
                self.emit(alu(Opcode::Brev, &[], t, &[x]));
                self.emit(alu(Opcode::Flo, &["U32", "SH"], t, &[Operand::r(t)]));
                self.emit(alu(Opcode::Iadd, &[], t, &[Operand::r(t), Operand::Int(1)]));
                let p = self.regs.pred(span, &mut self.diags);
                self.emit(super::value::setp(Opcode::Isetp, &["EQ", "U32", "AND"], p, x, Operand::RZ));
                self.emit(alu(Opcode::Sel, &[], t, &[Operand::RZ, Operand::r(t), Operand::Pred(p)]));
                self.regs.free_pred(p);
                Some(Value::reg(t, Ty::INT))
            }),
            // `__dp4a(a, b, c)`: c plus the dot product of a's bytes with b's, signed for ints
            // and unsigned for unsigneds as CUDA's overloads are; `__dp2a_lo`/`_hi`: a's two
            // halfwords with b's low or high two bytes.
            "__dp4a" | "__dp2a_lo" | "__dp2a_hi" => self.arity(name, args, 3, span).and_then(|()| {
                let first = self.expr(&args[0])?;
                let ty = if first.ty == Ty::UNSIGNED { Ty::UNSIGNED } else { Ty::INT };
                let a = self.convert(first, ty, span)?;
                let a = Operand::r(self.in_reg(a, span)?);
                let b = self.expr_as(&args[1], ty)?.operand();
                let c = self.expr_as(&args[2], ty)?.operand();
                let signed = ty == Ty::INT;
                let shape: &[&str] = match name {
                    "__dp4a" => &["4A"],
                    "__dp2a_lo" => &["2A", "LO"],
                    _ => &["2A", "HI"],
                };
                let a_part = match (name == "__dp4a", signed) {
                    (true, true) => "S8",
                    (true, false) => "U8",
                    (false, true) => "S16",
                    (false, false) => "U16",
                };
                let mods: Vec<&str> = shape.iter().copied().chain([a_part, if signed { "S8" } else { "U8" }]).collect();
                let t = self.temp(span)?;
                self.emit(alu(Opcode::Idp, &mods, t, &[a, b, c]));
                Some(Value::reg(t, ty))
            }),
            "__activemask" => self.arity(name, args, 0, span).and_then(|()| {
                let t = self.temp(span)?;
                self.emit(Ins::new(Opcode::Vote).with_mods(&["ANY"]).dst(Operand::r(t)).dst(Operand::PredTrue).src(Operand::PredTrue));
                Some(Value::reg(t, Ty::UNSIGNED))
            }),
            "__ballot_sync" | "__any_sync" | "__all_sync" => self.vote(name, args, span),
            "__syncthreads_count" | "__syncthreads_and" | "__syncthreads_or" => self.bar_red(name, args, span),
            "__match_any_sync" => self.match_any(name, args, span),
            "__reduce_add_sync" | "__reduce_min_sync" | "__reduce_max_sync" | "__reduce_and_sync" | "__reduce_or_sync"
            | "__reduce_xor_sync" => self.reduce(name, args, span),
            "__syncwarp" => {
                if args.len() > 1 {
                    self.error(span, format!("`__syncwarp` takes at most one argument (a mask), found {}", args.len()));
                    return Some(None);
                }
                let mask = match args.first() {
                    Some(a) => self.expr_as(a, Ty::UNSIGNED),
                    None => Some(Value::imm(u32::MAX, Ty::UNSIGNED)),
                };
                mask.map(|m| {
                    // On Volta it waits for the lanes it names; before Volta the warp runs in
                    // lockstep, and the simulator checks that every named lane is there.
                    self.emit(Ins::new(Opcode::Warpsync).src(mask_operand(m)));
                    Value::imm(0, Ty::Void)
                })
            }
            _ => return None,
        })
    }

    /// `None` (with the error) unless the call has `n` arguments.
    pub(super) fn arity(&mut self, name: &str, args: &[Expr], n: usize, span: Span) -> Option<()> {
        if args.len() != n {
            self.error(span, format!("`{name}` takes {n} argument(s), found {}", args.len()));
            return None;
        }
        Some(())
    }

    #[allow(clippy::too_many_arguments)]
    /// `__float_as_int(x)` and the like: the same bits read as another type of the same width.
    fn bit_cast(&mut self, name: &str, args: &[Expr], span: Span, from: Ty, to: Ty) -> Option<Value> {
        self.arity(name, args, 1, span)?;
        let v = self.expr_as(&args[0], from)?;
        Some(Value { ty: to, exact: None, ..v })
    }

    /// A C++ math function's float overload: `ceil(x)`, `sqrt(x)`, `fabs(x)` of float arguments are
    /// `ceilf`, `sqrtf`, `fabsf` (CUDA's headers overload them so, and course code leans on it).
    /// `None` when `name` has no float version here; else the call, or an error for other types.
    pub(super) fn float_overload(&mut self, name: &str, args: &[Expr], span: Span) -> Option<Option<Value>> {
        let float = format!("{name}f");
        if !is_float_builtin(&float) || matches!(name, "fmin" | "fmax") {
            return None;
        }
        if self.arity(name, args, float_arity(&float), span).is_none() {
            return Some(None);
        }
        let vals = match args.iter().map(|a| self.expr(a)).collect::<Option<Vec<_>>>() {
            Some(vals) => vals,
            None => return Some(None),
        };
        if let Some(v) = vals.iter().find(|v| v.ty != Ty::FLOAT) {
            let message = format!(
                "`{name}` of a `{}` is C's double-precision function, which warpscope does not have: use `{float}`, its float version (for a float argument `{name}` is `{float}`, as CUDA's overloads make it)",
                v.ty.name()
            );
            self.error(span, message);
            return Some(None);
        }
        Some(self.float_builtin(&float, &vals, span))
    }

    /// A float built-in (`FLOAT_UNARY`, `fabsf`, `fmaf`) on its float arguments.
    fn float_builtin(&mut self, name: &str, vals: &[Value], span: Span) -> Option<Value> {
        match name {
            "fabsf" => {
                if let super::value::Repr::Imm(b) = vals[0].repr {
                    return Some(Value::imm(b & 0x7fff_ffff, Ty::FLOAT));
                }
                // Clearing the sign bit is what `FADD.FTZ R, |R|, -RZ` does on hardware.
                let t = self.temp(span)?;
                self.emit(alu(Opcode::Lop, &["AND"], t, &[vals[0].operand(), Operand::Mask(0x7fff_ffff)]));
                Some(Value::reg(t, Ty::FLOAT))
            }
            "fmaf" => {
                let a = Operand::r(self.in_reg(vals[0], span)?);
                let t = self.temp(span)?;
                self.emit(alu(Opcode::Ffma, &[], t, &[a, vals[1].operand(), vals[2].operand()]));
                Some(Value::reg(t, Ty::FLOAT))
            }
            _ => {
                let &(_, op, m, pre, post) = FLOAT_UNARY.iter().find(|f| f.0 == name)?;
                self.float_unary(vals[0], span, op, m, pre, post)
            }
        }
    }

    fn float_unary(&mut self, x: Value, span: Span, op: Opcode, m: &'static str, pre: Option<f32>, post: Option<f32>) -> Option<Value> {
        let t = self.temp(span)?;
        let mut src = x.operand();
        if let Some(k) = pre {
            self.emit(alu(Opcode::Fmul, &[], t, &[src, Operand::Float(k.to_bits())]));
            src = Operand::r(t);
        }
        let one = [m];
        self.emit(alu(op, if m.is_empty() { &one[..0] } else { &one[..] }, t, &[src]));
        if let Some(k) = post {
            self.emit(alu(Opcode::Fmul, &[], t, &[Operand::r(t), Operand::Float(k.to_bits())]));
        }
        Some(Value::reg(t, Ty::FLOAT))
    }

    /// `min`/`max` of two values of their common type (or of `force`): `IMNMX`/`FMNMX`, whose
    /// predicate picks the minimum when it holds (`PT`) and the maximum when not (`!PT`).
    fn min_max(&mut self, name: &str, args: &[Expr], span: Span, min: bool, force: Option<Ty>) -> Option<Value> {
        self.arity(name, args, 2, span)?;
        let x = self.expr(&args[0])?;
        let y = self.expr(&args[1])?;
        let ty = force.unwrap_or_else(|| if name.starts_with('u') { Ty::UNSIGNED } else { common(x.ty, y.ty) });
        let x = self.convert(x, ty, span)?;
        let y = self.convert(y, ty, span)?;
        let (x, y) = if x.is_imm() { (y, x) } else { (x, y) };
        let a = Operand::r(self.in_reg(x, span)?);
        let t = self.temp(span)?;
        let pick = if min { Operand::PredTrue } else { Operand::PredFalse };
        let (op, mods): (Opcode, &[&str]) = match ty {
            Ty::Scalar(Scalar::Float) => (Opcode::Fmnmx, &[]),
            Ty::Scalar(Scalar::Unsigned) => (Opcode::Imnmx, &["U32"]),
            _ => (Opcode::Imnmx, &[]),
        };
        self.emit(alu(op, mods, t, &[a, y.operand(), pick]));
        Some(Value::reg(t, ty))
    }

    /// `__shfl_*_sync(mask, value, lane_or_delta[, width])`: `SHFL.mode PT, d, value, b, c, mask`
    /// with `c` packing the segment (`(32 - width) << 8`) and the clamp (31, or 0 for `up`).
    fn shuffle(&mut self, name: &str, args: &[Expr], span: Span, mode: &'static str, up: bool) -> Option<Value> {
        if !(3..=4).contains(&args.len()) {
            self.error(
                span,
                format!(
                    "`{name}` takes a mask, a value, a {} and an optional width, found {} argument(s)",
                    if mode == "IDX" {
                        "source lane"
                    } else if mode == "BFLY" {
                        "lane mask"
                    } else {
                        "delta"
                    },
                    args.len()
                ),
            );
            return None;
        }
        let clamp = if up { 0 } else { 0x1f };
        // `c` packs the segment and the clamp: a constant width's at compile time, a variable's
        // (`__shfl_down_sync(m, v, d, w)`) computed at run time, as nvcc does.
        let width = match args.get(3) {
            None => None,
            Some(w) => match crate::compile::pre::const_eval(w) {
                Some(w) if [1, 2, 4, 8, 16, 32].contains(&w) => Some(w as u32),
                Some(_) => {
                    self.error(w.span, format!("`{name}`: the width is a power of two from 1 to 32"));
                    return None;
                }
                None => {
                    let w = self.expr_as(w, Ty::INT)?;
                    let t = self.temp(span)?;
                    self.emit(alu(Opcode::Iadd, &[], t, &[Operand::Int(32), w.neg_operand()]));
                    self.emit(alu(Opcode::Shl, &[], t, &[Operand::r(t), Operand::Int(8)]));
                    self.emit(alu(Opcode::Iadd, &[], t, &[Operand::r(t), Operand::Int(clamp)]));
                    return self.shuffle_with(name, args, span, mode, Operand::r(t));
                }
            },
        };
        let c = ((32 - width.unwrap_or(32)) << 8) | clamp;
        self.shuffle_with(name, args, span, mode, Operand::Int(c))
    }

    /// The shuffle itself, its segment and clamp `c` worked out.
    fn shuffle_with(&mut self, name: &str, args: &[Expr], span: Span, mode: &'static str, c: Operand) -> Option<Value> {
        let mask = self.expr_as(&args[0], Ty::UNSIGNED)?;
        let v = self.expr(&args[1])?;
        if !matches!(v.ty, Ty::Scalar(_)) {
            self.error(args[1].span, format!("`{name}` moves a 32-bit value (int, unsigned, float), not `{}`", v.ty.name()));
            return None;
        }
        let b = self.expr_as(&args[2], Ty::INT)?;
        let src = Operand::r(self.in_reg(v, span)?);
        self.sync_point(mask);
        let t = self.temp(span)?;
        let ins = Ins::new(Opcode::Shfl)
            .with_mods(&[mode])
            .dst(Operand::PredTrue)
            .dst(Operand::r(t))
            .src(src)
            .src(b.operand())
            .src(c)
            .src(mask_operand(mask));
        self.emit(ins);
        Some(Value::reg(t, v.ty))
    }

    /// `__ballot_sync(mask, p)`, `__any_sync`, `__all_sync`: `VOTE` over the lanes that run it.
    fn vote(&mut self, name: &str, args: &[Expr], span: Span) -> Option<Value> {
        self.arity(name, args, 2, span)?;
        let mask = self.expr_as(&args[0], Ty::UNSIGNED)?;
        let p = self.condition(name, &args[1], span)?;
        self.sync_point(mask);
        let t = self.temp(span)?;
        let ins = if name == "__ballot_sync" {
            Ins::new(Opcode::Vote).with_mods(&["ANY"]).dst(Operand::r(t)).dst(Operand::PredTrue)
        } else {
            Ins::new(Opcode::Vote).with_mods(&[if name == "__any_sync" { "ANY" } else { "ALL" }]).dst(Operand::RZ).dst(Operand::Pred(p))
        };
        self.emit(ins.src(Operand::Pred(p)).src(mask_operand(mask)));
        if name != "__ballot_sync" {
            self.emit(alu(Opcode::Sel, &[], t, &[Operand::Int(1), Operand::RZ, Operand::Pred(p)]));
        }
        self.regs.free_pred(p);
        Some(Value::reg(t, if name == "__ballot_sync" { Ty::UNSIGNED } else { Ty::INT }))
    }

    /// A collective's condition argument in a fresh predicate (the caller frees it).
    fn condition(&mut self, name: &str, arg: &Expr, span: Span) -> Option<u8> {
        let x = self.expr(arg)?;
        if let Ty::Vector(..) = x.ty {
            self.error(arg.span, format!("`{name}` takes a condition, not a `{}` (test its components, `v.x != 0`...)", x.ty.name()));
            return None;
        }
        let zero = Value::imm(0, x.ty);
        let p = self.regs.pred(span, &mut self.diags);
        self.compare(BinOp::Ne, x, zero, p, span);
        Some(p)
    }

    /// `__syncthreads_count(p)`, `_and`, `_or`: the block's barrier, reducing `p` over every
    /// thread (`BAR.RED`), then the result (`B2R.RESULT`).
    fn bar_red(&mut self, name: &str, args: &[Expr], span: Span) -> Option<Value> {
        self.arity(name, args, 1, span)?;
        let p = self.condition(name, &args[0], span)?;
        let kind = match name {
            "__syncthreads_count" => "POPC",
            "__syncthreads_and" => "AND",
            _ => "OR",
        };
        self.emit(Ins::new(Opcode::Bar).with_mods(&["RED", kind]).src(Operand::Int(0)).src(Operand::Pred(p)));
        self.regs.free_pred(p);
        let t = self.temp(span)?;
        self.emit(Ins::new(Opcode::B2r).with_mods(&["RESULT"]).dst(Operand::r(t)));
        Some(Value::reg(t, Ty::INT))
    }

    /// `__match_any_sync(mask, v)`: the lanes of the mask whose `v` equals this lane's
    /// (`MATCH.ANY`, `.U64` for a 64-bit value).
    fn match_any(&mut self, name: &str, args: &[Expr], span: Span) -> Option<Value> {
        self.arity(name, args, 2, span)?;
        let mask = self.expr_as(&args[0], Ty::UNSIGNED)?;
        let x = self.expr(&args[1])?;
        if !matches!(x.ty, Ty::Scalar(s) if !s.float()) {
            self.error(args[1].span, format!("`{name}` compares integers (`int`, `unsigned`, `long long`), not a `{}`", x.ty.name()));
            return None;
        }
        let wide = x.ty.wide();
        let x = Operand::r(self.in_reg(x, span)?);
        self.sync_point(mask);
        let t = self.temp(span)?;
        let mods: &[&str] = if wide { &["ANY", "U64"] } else { &["ANY"] };
        self.emit(Ins::new(Opcode::Match).with_mods(mods).dst(Operand::r(t)).src(x).src(mask_operand(mask)));
        Some(Value::reg(t, Ty::UNSIGNED))
    }

    /// `__reduce_add_sync(mask, v)` and the others (sm_80 and later): `v` combined over the
    /// mask's lanes, each getting the result (`REDUX`; min and max signed for an `int`).
    fn reduce(&mut self, name: &str, args: &[Expr], span: Span) -> Option<Value> {
        self.arity(name, args, 2, span)?;
        let mask = self.expr_as(&args[0], Ty::UNSIGNED)?;
        let x = self.expr(&args[1])?;
        let logic = matches!(name, "__reduce_and_sync" | "__reduce_or_sync" | "__reduce_xor_sync");
        let x = x.promoted();
        let ty = match x.ty {
            Ty::Scalar(Scalar::Int) if !logic => Ty::INT,
            Ty::Scalar(Scalar::Int | Scalar::Unsigned | Scalar::Bool) => Ty::UNSIGNED,
            other => {
                self.error(args[1].span, format!("`{name}` combines 32-bit integers, not a `{}`", other.name()));
                return None;
            }
        };
        let x = self.convert(x, ty, span)?;
        let x = Operand::r(self.in_reg(x, span)?);
        let op = crate::compile::ins::redux_op(&name["__reduce_".len()..name.len() - "_sync".len()]).unwrap_or("XOR");
        let signed = ty == Ty::INT && matches!(op, "MIN" | "MAX");
        self.sync_point(mask);
        let t = self.temp(span)?;
        let mods: &[&str] = if signed { &[op, "S32"] } else { &[op] };
        self.emit(Ins::new(Opcode::Redux).with_mods(mods).dst(Operand::r(t)).src(x));
        Some(Value::reg(t, ty))
    }

    /// On Volta a `*_sync` first gathers the lanes its mask names (`WARPSYNC`), as the hardware
    /// does; token-stack targets keep the warp in lockstep, and the instruction checks the mask.
    fn sync_point(&mut self, mask: Value) {
        if self.target == Target::Volta {
            self.emit(Ins::new(Opcode::Warpsync).src(mask_operand(mask)));
        }
    }
}

/// A mask operand: a constant written as hex.
fn mask_operand(v: Value) -> Operand {
    match v.repr {
        super::value::Repr::Imm(m) => Operand::Mask(m),
        _ => v.operand(),
    }
}

impl Lower<'_> {
    /// `make_float4(a, b, c, d)`: each argument converted to the component type, into a row of
    /// registers.
    fn make_vector(&mut self, name: &str, args: &[Expr], s: Scalar, n: u8, span: Span) -> Option<Value> {
        self.arity(name, args, n as usize, span)?;
        let ty = Ty::Vector(s, n);
        let t = self.temp_for(ty, span)?;
        self.make_vector_into(args, s, t)?;
        Some(Value::reg(t, ty))
    }

    /// `make_float4`'s arguments, each converted, into the registers from `t` on.
    pub(super) fn make_vector_into(&mut self, args: &[Expr], s: Scalar, t: u8) -> Option<()> {
        for (k, a) in args.iter().enumerate() {
            let mark = self.regs.mark();
            let v = self.expr_as(a, Ty::Scalar(s))?;
            let r = t + k as u8;
            // A computed component is written straight into its register.
            if !matches!(v.repr, super::value::Repr::Reg(x) if u32::from(x) >= mark && self.retarget_last(x, r)) {
                self.move_into(r, v, a.span)?;
            }
            self.regs.release(mark);
        }
        Some(())
    }
}
