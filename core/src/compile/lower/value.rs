//! Values while lowering: held in a register or known as a constant, with their C type; the
//! instruction operands they become; and the conversions between C types.

use alloc::format;

use super::Lower;
use crate::compile::ast::*;
use crate::compile::ins::{Ins, Opcode, Operand, Reg};
use crate::diag::Span;

/// How a value is held.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Repr {
    Reg(u8),
    /// Raw 32 bits (floats as their bit pattern).
    Imm(u32),
}

#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Value {
    pub repr: Repr,
    pub ty: Ty,
    /// A float literal's exact value (`0.1` is a double in C): what it becomes in a double.
    pub exact: Option<f64>,
}

impl Value {
    pub fn reg(r: u8, ty: Ty) -> Value {
        Value { repr: Repr::Reg(r), ty, exact: None }
    }
    pub fn imm(bits: u32, ty: Ty) -> Value {
        Value { repr: Repr::Imm(bits), ty, exact: None }
    }
    /// The value as an instruction operand (zero of any type reads from `RZ`).
    pub fn operand(&self) -> Operand {
        match self.repr {
            Repr::Reg(r) => Operand::r(r),
            Repr::Imm(0) => Operand::RZ,
            Repr::Imm(b) if self.is_float() => Operand::Float(b),
            Repr::Imm(b) => Operand::Int(b),
        }
    }
    /// The negated operand (`-R3`, or the negated constant).
    pub fn neg_operand(&self) -> Operand {
        match self.repr {
            Repr::Reg(r) => Operand::Neg(Reg::R(r)),
            Repr::Imm(b) if self.is_float() => Operand::Float((-f32::from_bits(b)).to_bits()),
            Repr::Imm(b) => Operand::Int(b.wrapping_neg()),
        }
    }
    pub fn is_imm(&self) -> bool {
        matches!(self.repr, Repr::Imm(_))
    }
    /// A `float` (32-bit; a double is `ty == Ty::DOUBLE`, held in a pair).
    pub fn is_float(&self) -> bool {
        self.ty == Ty::FLOAT
    }
    /// The value as arithmetic sees it: a byte or halfword is an `int` (held widened, so no
    /// instruction is needed).
    pub fn promoted(self) -> Value {
        match self.ty {
            Ty::Scalar(s) => Value { ty: Ty::Scalar(s.promoted()), ..self },
            _ => self,
        }
    }
}

/// `op.mods dst, srcs...`: an instruction writing general register `dst`.
pub fn alu(op: Opcode, mods: &[&'static str], dst: u8, srcs: &[Operand]) -> Ins {
    srcs.iter().fold(Ins::new(op).with_mods(mods).dst(Operand::r(dst)), |i, s| i.src(*s))
}

/// `MOV dst, src`.
pub fn mov(dst: u8, src: Operand) -> Ins {
    alu(Opcode::Mov, &[], dst, &[src])
}

/// `ISETP`/`FSETP` with `mods` of `a` and `b` into predicate `p` (`P1, PT, a, b, PT`).
pub fn setp(op: Opcode, mods: &[&'static str], p: u8, a: Operand, b: Operand) -> Ins {
    Ins::new(op).with_mods(mods).dst(Operand::Pred(p)).dst(Operand::PredTrue).src(a).src(b).src(Operand::PredTrue)
}

pub fn is_integer(t: Ty) -> bool {
    matches!(t, Ty::Scalar(s) if !s.float())
}

/// The type both operands of an arithmetic operator convert to (C's usual arithmetic
/// conversions: the wider, floats above integers, unsigned above signed of one width).
pub fn common(a: Ty, b: Ty) -> Ty {
    let either = |t: Ty| a == t || b == t;
    if either(Ty::DOUBLE) {
        Ty::DOUBLE
    } else if either(Ty::FLOAT) {
        Ty::FLOAT
    } else if either(Ty::ULONG) {
        Ty::ULONG
    } else if either(Ty::LONG) {
        Ty::LONG
    } else if either(Ty::UNSIGNED) {
        Ty::UNSIGNED
    } else {
        Ty::INT
    }
}

impl Lower<'_> {
    pub(super) fn temp(&mut self, span: Span) -> Option<u8> {
        self.regs.var(span, &mut self.diags)
    }

    pub(super) fn in_reg(&mut self, v: Value, span: Span) -> Option<u8> {
        match v.repr {
            Repr::Reg(r) => Some(r),
            Repr::Imm(_) => {
                let t = self.temp(span)?;
                self.emit(mov(t, v.operand()));
                Some(t)
            }
        }
    }

    /// Evaluates `e` and converts it to `ty`.
    pub fn expr_as(&mut self, e: &Expr, ty: Ty) -> Option<Value> {
        let v = self.expr(e)?;
        self.convert(v, ty, e.span)
    }

    /// An explicit cast to or from a pointer: it reinterprets the memory pointed at
    /// (`(unsigned*)&a[5]`, `(float4*)p`, `(unsigned long long*)d` for atomicCAS on a double),
    /// the address unchanged; to or from a 32-bit integer it is that address (a 64-bit one holds
    /// it zero-extended).
    pub(super) fn pointer_cast(&mut self, v: Value, to: Ty, span: Span) -> Option<Value> {
        let address = |ty: Ty| matches!(ty, Ty::Scalar(Scalar::Int | Scalar::Unsigned));
        match (v.ty, to) {
            (from, to) if from.is_pointer() && (to.is_pointer() || address(to)) => Some(Value { ty: to, ..v }),
            (from, to) if to.is_pointer() && address(from) => Some(Value { ty: to, ..v }),
            (from, Ty::Scalar(Scalar::Long | Scalar::ULong)) if from.is_pointer() => {
                self.convert_wide(Value { ty: Ty::UNSIGNED, ..v }, to, span)
            }
            _ => {
                self.error(span, format!("cannot cast `{}` to `{}`", self.ty_name(v.ty), self.ty_name(to)));
                None
            }
        }
    }

    pub fn convert(&mut self, v: Value, to: Ty, span: Span) -> Option<Value> {
        if v.ty == to {
            return Some(v);
        }
        // From a byte or halfword as from the `int` it holds; into one through `int` (or
        // `unsigned`), then narrowed.
        let v = v.promoted();
        if let Ty::Scalar(s) = to {
            if let Some((bits, signed)) = s.narrow() {
                let wide = self.convert(v, if signed { Ty::INT } else { Ty::UNSIGNED }, span)?;
                return self.narrowed(wide, bits, signed, to, span);
            }
        }
        if v.ty == to {
            return Some(v);
        }
        if (v.ty.wide() || to.wide()) && matches!((v.ty, to), (Ty::Scalar(_), Ty::Scalar(_))) {
            return self.convert_wide(v, to, span);
        }
        match (v.ty, to) {
            (Ty::Struct(_), _) | (_, Ty::Struct(_)) => self.struct_convert(v, to, span),
            (Ty::Vector(..), _) | (_, Ty::Vector(..)) => {
                self.error(
                    span,
                    format!(
                        "cannot convert `{}` to `{}`: a vector converts to nothing (use its components, `.x`...)",
                        v.ty.name(),
                        to.name()
                    ),
                );
                None
            }
            // The null pointer constant: `int* p = NULL;` (NULL is 0), `p = 0`.
            (from, to) if to.is_pointer() && !from.is_pointer() && v.repr == Repr::Imm(0) => Some(Value::imm(0, to)),
            (from, to) if from.is_pointer() || to.is_pointer() => {
                self.error(span, format!("cannot convert `{}` to `{}`", self.ty_name(v.ty), self.ty_name(to)));
                None
            }
            (_, Ty::Void) | (Ty::Void, _) => {
                self.error(span, "a `void` value cannot be used");
                None
            }
            (from, Ty::BOOL) => {
                if let Repr::Imm(b) = v.repr {
                    let nonzero = if from == Ty::FLOAT { f32::from_bits(b) != 0.0 } else { b != 0 };
                    return Some(Value::imm(nonzero as u32, Ty::BOOL));
                }
                let p = self.regs.pred(span, &mut self.diags);
                // A NaN is true, as in C: `NEU` for floats.
                let (op, ne, zero) =
                    if from == Ty::FLOAT { (Opcode::Fsetp, "NEU", Operand::Float(0)) } else { (Opcode::Isetp, "NE", Operand::RZ) };
                self.emit(setp(op, &[ne, "AND"], p, v.operand(), zero));
                let t = self.temp(span)?;
                self.emit(alu(Opcode::Sel, &[], t, &[Operand::Int(1), Operand::RZ, Operand::Pred(p)]));
                self.regs.free_pred(p);
                Some(Value::reg(t, Ty::BOOL))
            }
            (Ty::FLOAT, int) => {
                let signed = int == Ty::INT;
                if let Repr::Imm(b) = v.repr {
                    let f = f32::from_bits(b);
                    return Some(Value::imm(if signed { f as i32 as u32 } else { f as u32 }, int));
                }
                let t = self.temp(span)?;
                let m = if signed { "S32" } else { "U32" };
                self.emit(alu(Opcode::F2i, &[m, "F32", "TRUNC"], t, &[v.operand()]));
                Some(Value::reg(t, int))
            }
            (int, Ty::FLOAT) => {
                let signed = int != Ty::UNSIGNED;
                if let Repr::Imm(b) = v.repr {
                    let f = if signed { b as i32 as f32 } else { b as f32 };
                    return Some(Value::imm(f.to_bits(), Ty::FLOAT));
                }
                let t = self.temp(span)?;
                let m = if signed { "S32" } else { "U32" };
                self.emit(alu(Opcode::I2f, &["F32", m], t, &[v.operand()]));
                Some(Value::reg(t, Ty::FLOAT))
            }
            // int, unsigned and bool share their bits.
            (_, to) => Some(Value { repr: v.repr, ty: to, exact: None }),
        }
    }

    /// A 32-bit integer's low `bits`, zero- or sign-extended: the value a byte or halfword of
    /// type `to` holds (C's conversion modulo 2^bits).
    fn narrowed(&mut self, v: Value, bits: u32, signed: bool, to: Ty, span: Span) -> Option<Value> {
        let keep = (1u32 << bits) - 1;
        if let Repr::Imm(b) = v.repr {
            let low = b & keep;
            let extended = if signed && low >> (bits - 1) != 0 { low | !keep } else { low };
            return Some(Value::imm(extended, to));
        }
        let t = self.temp(span)?;
        if signed {
            // Up to the top, then back with the sign (`SHR` of a signed value is arithmetic).
            self.emit(alu(Opcode::Shl, &[], t, &[v.operand(), Operand::Int(32 - bits)]));
            self.emit(alu(Opcode::Shr, &[], t, &[Operand::r(t), Operand::Int(32 - bits)]));
        } else {
            self.emit(alu(Opcode::Lop, &["AND"], t, &[v.operand(), Operand::Mask(keep)]));
        }
        Some(Value::reg(t, to))
    }
}
