//! 64-bit values: `long long`, `unsigned long long` (`size_t`) and `double`, each held in a
//! register pair (the low word in `Rn`, the high word in `Rn+1`), as SASS holds them. Integer
//! arithmetic carries between the halves (`IADD3` with a carry predicate, `IADD3.X`), multiplies
//! with `IMAD.WIDE`, shifts with `SHF` funnel shifts, and compares the high words, then the low
//! ones; doubles use `DADD`, `DMUL`, `DDIV`, `DSETP` and the `F2F`/`I2F`/`F2I` conversions.

use alloc::format;

use super::value::{alu, mov, Repr, Value};
use super::Lower;
use crate::compile::ast::*;
use crate::compile::ins::{Ins, Opcode, Operand, Reg};
use crate::diag::Span;

/// The high register of the pair starting at `r`.
fn hi(r: u8) -> u8 {
    r.saturating_add(1)
}

/// A 32-bit pattern as a move's source (`RZ` for zero).
fn word(v: u32) -> Operand {
    if v == 0 {
        Operand::RZ
    } else {
        Operand::Mask(v)
    }
}

/// The modifier naming a 64-bit integer type (`S64`/`U64`) or a 32-bit one.
fn int_mod(s: Scalar) -> &'static str {
    match s {
        Scalar::Long => "S64",
        Scalar::ULong => "U64",
        Scalar::Int => "S32",
        _ => "U32",
    }
}

fn scalar(t: Ty) -> Scalar {
    match t {
        Ty::Scalar(s) => s,
        _ => Scalar::Int,
    }
}

impl Lower<'_> {
    /// Two consecutive registers for a 64-bit value; its first.
    pub(super) fn temp_pair(&mut self, span: Span) -> Option<u8> {
        let r = self.temp(span)?;
        self.temp(span)?;
        Some(r)
    }

    /// A register (or pair) for a value of type `ty`.
    pub(super) fn temp_for(&mut self, ty: Ty, span: Span) -> Option<u8> {
        if ty.wide() {
            self.temp_pair(span)
        } else if let Ty::Vector(..) | Ty::Struct(_) = ty {
            // A row: the allocator hands out registers in order.
            let first = self.temp(span)?;
            for _ in 1..ty.registers() {
                self.temp(span)?;
            }
            Some(first)
        } else {
            self.temp(span)
        }
    }

    /// A 64-bit constant, moved into a fresh pair (64-bit values always live in registers).
    pub(super) fn wide_const(&mut self, bits: u64, ty: Ty, span: Span) -> Option<Value> {
        let t = self.temp_pair(span)?;
        self.emit(mov(t, word(bits as u32)));
        self.emit(mov(hi(t), word((bits >> 32) as u32)));
        Some(Value::reg(t, ty))
    }

    /// Copies `v` into register `r` (and `r + 1` for a 64-bit value).
    pub(super) fn move_into(&mut self, r: u8, v: Value, span: Span) -> Option<()> {
        if let Ty::Vector(..) | Ty::Struct(_) = v.ty {
            let s = self.in_reg(v, span)?;
            if s != r {
                for k in 0..v.ty.registers() {
                    self.emit(mov(r + k, Operand::r(s + k)));
                }
            }
        } else if v.ty.wide() {
            let s = self.in_reg(v, span)?;
            if s != r {
                self.emit(mov(r, Operand::r(s)));
                self.emit(mov(hi(r), Operand::r(hi(s))));
            }
        } else {
            self.emit(mov(r, v.operand()));
        }
        Some(())
    }

    /// Conversions where either side is 64 bits.
    pub(super) fn convert_wide(&mut self, v: Value, to: Ty, span: Span) -> Option<Value> {
        let (from, into) = (scalar(v.ty), scalar(to));
        use Scalar::*;
        if let Repr::Imm(b) = v.repr {
            // A constant converts at compile time.
            let bits = match (from, into) {
                (Float, Double) => v.exact.unwrap_or(f32::from_bits(b) as f64).to_bits(),
                (Int, Double) => (b as i32 as f64).to_bits(),
                (_, Double) => (b as f64).to_bits(),
                (Float, Long) => (f32::from_bits(b) as i64) as u64,
                (Float, ULong) => f32::from_bits(b) as u64,
                (Int, _) => b as i32 as i64 as u64,
                _ => b as u64,
            };
            return self.wide_const(bits, to, span);
        }
        let r = self.in_reg(v, span)?;
        let src = Operand::r(r);
        Some(match (from, into) {
            (Long | ULong, Long | ULong) => Value::reg(r, to),
            // The low word is the value modulo 2^32, as C's conversion to 32 bits.
            (Long | ULong, Int | Unsigned) => Value::reg(r, to),
            (Int | Unsigned | Bool, Long | ULong) => {
                let t = self.temp_pair(span)?;
                self.emit(mov(t, src));
                if from == Int {
                    self.emit(alu(Opcode::Shr, &[], hi(t), &[src, Operand::Int(31)]));
                } else {
                    self.emit(mov(hi(t), Operand::RZ));
                }
                Value::reg(t, to)
            }
            (Long | ULong, Bool) => {
                let t = self.temp(span)?;
                self.emit(alu(Opcode::Lop, &["OR"], t, &[src, Operand::r(hi(r))]));
                return self.convert(Value::reg(t, Ty::UNSIGNED), Ty::BOOL, span);
            }
            (Double, Bool) => {
                let p = self.regs.pred(span, &mut self.diags);
                // A NaN is true, as in C.
                self.emit(pred_ins(Opcode::Dsetp, &["NEU", "AND"], p, src, Operand::RZ, Operand::PredTrue));
                let t = self.temp(span)?;
                self.emit(alu(Opcode::Sel, &[], t, &[Operand::Int(1), Operand::RZ, Operand::Pred(p)]));
                self.regs.free_pred(p);
                Value::reg(t, Ty::BOOL)
            }
            (Float, Double) => self.conv(Opcode::F2f, &["F64", "F32"], src, to, span)?,
            (Double, Float) => self.conv(Opcode::F2f, &["F32", "F64"], src, to, span)?,
            (Int | Unsigned | Bool, Double) => self.conv(Opcode::I2f, &["F64", int_mod(from)], src, to, span)?,
            (Long | ULong, Double | Float) => {
                self.conv(Opcode::I2f, &[if into == Double { "F64" } else { "F32" }, int_mod(from)], src, to, span)?
            }
            (Double | Float, Long | ULong | Int | Unsigned) => {
                let f = if from == Double { "F64" } else { "F32" };
                self.conv(Opcode::F2i, &[int_mod(into), f, "TRUNC"], src, to, span)?
            }
            _ => {
                self.error(span, format!("cannot convert `{}` to `{}`", v.ty.name(), to.name()));
                return None;
            }
        })
    }

    fn conv(&mut self, op: Opcode, mods: &[&'static str], src: Operand, to: Ty, span: Span) -> Option<Value> {
        let t = self.temp_for(to, span)?;
        self.emit(alu(op, mods, t, &[src]));
        Some(Value::reg(t, to))
    }

    /// `x op y` for two values of one 64-bit type (comparisons are `compare_wide`).
    pub(super) fn wide_binary(&mut self, op: BinOp, x: Value, y: Value, span: Span) -> Option<Value> {
        use BinOp::*;
        let ty = x.ty;
        let a = self.in_reg(x, span)?;
        let t = self.temp_pair(span)?;
        if ty == Ty::DOUBLE {
            let b = self.in_reg(y, span)?;
            let (opcode, second) = match op {
                Add => (Opcode::Dadd, Operand::r(b)),
                Sub => (Opcode::Dadd, Operand::Neg(Reg::R(b))),
                Mul => (Opcode::Dmul, Operand::r(b)),
                Div => (Opcode::Ddiv, Operand::r(b)),
                _ => {
                    self.error(span, format!("`{}` does not apply to doubles", op.symbol()));
                    return None;
                }
            };
            self.emit(alu(opcode, &[], t, &[Operand::r(a), second]));
            return Some(Value::reg(t, ty));
        }
        let s = scalar(ty);
        if matches!(op, Shl | Shr) {
            // The shift count is the right side's low word.
            let count = match y.repr {
                Repr::Imm(k) => Operand::Int(k & 63),
                Repr::Reg(r) => Operand::r(r),
            };
            let kind = match (op, s) {
                (Shl, _) => ["L", "U64"],
                (_, Scalar::Long) => ["R", "S64"],
                _ => ["R", "U64"],
            };
            let srcs = [Operand::r(a), count, Operand::r(hi(a))];
            self.emit(alu(Opcode::Shf, &kind, t, &srcs));
            self.emit(alu(Opcode::Shf, &[kind[0], kind[1], "HI"], hi(t), &srcs));
            return Some(Value::reg(t, ty));
        }
        let b = self.in_reg(y, span)?;
        let (alo, ahi, blo, bhi) = (Operand::r(a), Operand::r(hi(a)), Operand::r(b), Operand::r(hi(b)));
        match op {
            Add | Sub => {
                let p = self.regs.pred(span, &mut self.diags);
                let (lo2, hi2) = if op == Add { (blo, bhi) } else { (Operand::Neg(Reg::R(b)), Operand::Not(Reg::R(hi(b)))) };
                self.emit(Ins::new(Opcode::Iadd3).dst(Operand::r(t)).dst(Operand::Pred(p)).src(alo).src(lo2).src(Operand::RZ));
                self.emit(
                    Ins::new(Opcode::Iadd3)
                        .with_mods(&["X"])
                        .dst(Operand::r(hi(t)))
                        .src(ahi)
                        .src(hi2)
                        .src(Operand::RZ)
                        .src(Operand::Pred(p)),
                );
                self.regs.free_pred(p);
            }
            Mul => {
                // lo(a) * lo(b) as 64 bits, plus the cross products into the high word.
                self.emit(alu(Opcode::Imad, &["WIDE", "U32"], t, &[alo, blo, Operand::RZ]));
                self.emit(alu(Opcode::Imad, &[], hi(t), &[alo, bhi, Operand::r(hi(t))]));
                self.emit(alu(Opcode::Imad, &[], hi(t), &[ahi, blo, Operand::r(hi(t))]));
            }
            Div | Rem => {
                let opcode = if op == Div { Opcode::Idiv } else { Opcode::Irem };
                self.emit(alu(opcode, &[int_mod(s)], t, &[alo, blo]));
            }
            BitAnd | BitOr | BitXor => {
                let m = match op {
                    BitAnd => "AND",
                    BitOr => "OR",
                    _ => "XOR",
                };
                self.emit(alu(Opcode::Lop, &[m], t, &[alo, blo]));
                self.emit(alu(Opcode::Lop, &[m], hi(t), &[ahi, bhi]));
            }
            _ => unreachable!("comparisons are compare_wide"),
        }
        Some(Value::reg(t, ty))
    }

    /// `-x` and `~x` of a 64-bit value.
    pub(super) fn wide_unary(&mut self, op: UnOp, v: Value, span: Span) -> Option<Value> {
        let a = self.in_reg(v, span)?;
        match (op, v.ty == Ty::DOUBLE) {
            (UnOp::Neg, true) => {
                // Flip the sign bit, so -0.0 and NaNs come out as C says.
                let t = self.temp_pair(span)?;
                self.emit(mov(t, Operand::r(a)));
                self.emit(alu(Opcode::Lop, &["XOR"], hi(t), &[Operand::r(hi(a)), Operand::Mask(0x8000_0000)]));
                Some(Value::reg(t, v.ty))
            }
            (UnOp::Neg, false) => {
                let zero = self.wide_const(0, v.ty, span)?;
                self.wide_binary(BinOp::Sub, zero, Value::reg(a, v.ty), span)
            }
            (UnOp::BitNot, false) => {
                let t = self.temp_pair(span)?;
                self.emit(alu(Opcode::Lop, &["XOR"], t, &[Operand::r(a), Operand::Mask(u32::MAX)]));
                self.emit(alu(Opcode::Lop, &["XOR"], hi(t), &[Operand::r(hi(a)), Operand::Mask(u32::MAX)]));
                Some(Value::reg(t, v.ty))
            }
            _ => {
                self.error(span, "`~` does not apply to a double");
                None
            }
        }
    }

    /// `x op y` of two 64-bit values into predicate `p`: doubles with one `DSETP`; integers
    /// compare the high words, and the low ones (unsigned) where the high words are equal.
    pub(super) fn compare_wide(&mut self, op: BinOp, x: Value, y: Value, p: u8, span: Span) {
        let (Some(a), Some(b)) = (self.in_reg(x, span), self.in_reg(y, span)) else { return };
        if x.ty == Ty::DOUBLE {
            let cmp = super::arith::float_cmp(super::arith::cmp_name(op));
            self.emit(pred_ins(Opcode::Dsetp, &[cmp, "AND"], p, Operand::r(a), Operand::r(b), Operand::PredTrue));
            return;
        }
        let sign = if x.ty == Ty::LONG { None } else { Some("U32") };
        let isetp = |c: &'static str, unsigned: Option<&'static str>, comb: &'static str, l: u8, r: u8, third: Operand| {
            let mods: alloc::vec::Vec<&'static str> = [Some(c), unsigned, Some(comb)].into_iter().flatten().collect();
            pred_ins(Opcode::Isetp, &mods, p, Operand::r(l), Operand::r(r), third)
        };
        match op {
            BinOp::Eq => {
                self.emit(isetp("EQ", Some("U32"), "AND", a, b, Operand::PredTrue));
                self.emit(isetp("EQ", Some("U32"), "AND", hi(a), hi(b), Operand::Pred(p)));
            }
            BinOp::Ne => {
                self.emit(isetp("NE", Some("U32"), "AND", a, b, Operand::PredTrue));
                self.emit(isetp("NE", Some("U32"), "OR", hi(a), hi(b), Operand::Pred(p)));
            }
            _ => {
                // a < b: the high words are less, or equal with the low words (unsigned) less.
                let (l, r, strict) = match op {
                    BinOp::Lt => (a, b, "LT"),
                    BinOp::Le => (a, b, "LE"),
                    BinOp::Gt => (b, a, "LT"),
                    _ => (b, a, "LE"),
                };
                self.emit(isetp(strict, Some("U32"), "AND", l, r, Operand::PredTrue));
                self.emit(isetp("EQ", Some("U32"), "AND", hi(l), hi(r), Operand::Pred(p)));
                self.emit(isetp("LT", sign, "OR", hi(l), hi(r), Operand::Pred(p)));
            }
        }
    }
}

/// `ISETP`/`DSETP` with `mods` of `a` and `b` combined with `third` into `p` (`P1, PT, a, b, c`).
fn pred_ins(op: Opcode, mods: &[&'static str], p: u8, a: Operand, b: Operand, third: Operand) -> Ins {
    Ins::new(op).with_mods(mods).dst(Operand::Pred(p)).dst(Operand::PredTrue).src(a).src(b).src(third)
}
