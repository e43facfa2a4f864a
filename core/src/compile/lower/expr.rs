//! Expressions: values in registers or immediates, conversions, memory, calls, built-ins, and
//! conditions lowered to real branches (`&&` and `||` short-circuit).

use alloc::format;
use alloc::string::String;

use super::{imm_int, Dest, Lower};
use crate::cfg::BlockId;
use crate::compile::ast::*;
use crate::compile::ir::Term;
use crate::compile::Target;
use crate::diag::Span;

#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Operand {
    Reg(u8),
    /// Raw 32 bits (floats as their bit pattern).
    Imm(u32),
}

#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Value {
    pub op: Operand,
    pub ty: Ty,
}

impl Value {
    fn reg(r: u8, ty: Ty) -> Value {
        Value { op: Operand::Reg(r), ty }
    }
    fn imm(bits: u32, ty: Ty) -> Value {
        Value { op: Operand::Imm(bits), ty }
    }
    /// The operand as instruction text.
    pub fn text(&self) -> String {
        match self.op {
            Operand::Reg(r) => format!("R{r}"),
            Operand::Imm(0) => String::from("RZ"),
            Operand::Imm(b) if self.ty == Ty::FLOAT => float_text(f32::from_bits(b)),
            Operand::Imm(b) => imm_int(b),
        }
    }
    /// The negated operand (`-R3`, or the negated constant).
    fn neg_text(&self) -> String {
        match self.op {
            Operand::Reg(r) => format!("-R{r}"),
            Operand::Imm(b) if self.ty == Ty::FLOAT => float_text(-f32::from_bits(b)),
            Operand::Imm(b) => imm_int(b.wrapping_neg()),
        }
    }
    fn is_float(&self) -> bool {
        self.ty == Ty::FLOAT
    }
}

/// A float immediate the assembler reads back to the same bits.
fn float_text(f: f32) -> String {
    if f.is_finite() {
        format!("{f:?}")
    } else {
        format!("0x{:08x}", f.to_bits())
    }
}

/// Where an assignment goes.
enum Place {
    Reg(u8, Ty),
    /// `[base + offset]` holding an element of this type.
    Mem {
        base: u8,
        offset: i32,
        elem: Scalar,
    },
}

fn is_integer(t: Ty) -> bool {
    matches!(t, Ty::Scalar(Scalar::Int | Scalar::Unsigned | Scalar::Bool))
}

/// The type both operands of an arithmetic operator convert to.
fn common(a: Ty, b: Ty) -> Ty {
    if a == Ty::FLOAT || b == Ty::FLOAT {
        Ty::FLOAT
    } else if a == Ty::UNSIGNED || b == Ty::UNSIGNED {
        Ty::UNSIGNED
    } else {
        Ty::INT
    }
}

/// True when evaluating `e` has no effect and cannot fault, so both arms of `?:` may run.
fn is_pure(e: &Expr) -> bool {
    let mut pure = true;
    super::walk_expr(e, &mut |x| {
        if matches!(
            x.kind,
            ExprKind::Assign { .. }
                | ExprKind::IncDec { .. }
                | ExprKind::Call { .. }
                | ExprKind::Index(..)
                | ExprKind::Deref(_)
                | ExprKind::Logical { .. }
                | ExprKind::Ternary(..)
                | ExprKind::Binary(BinOp::Div | BinOp::Rem, ..)
        ) {
            pure = false;
        }
    });
    pure
}

impl Lower<'_> {
    fn temp(&mut self, span: Span) -> Option<u8> {
        self.regs.var(span, &mut self.diags)
    }

    fn in_reg(&mut self, v: Value, span: Span) -> Option<u8> {
        match v.op {
            Operand::Reg(r) => Some(r),
            Operand::Imm(_) => {
                let t = self.temp(span)?;
                self.emit(format!("MOV R{t}, {}", v.text()));
                Some(t)
            }
        }
    }

    /// Evaluates `e` and converts it to `ty`.
    pub fn expr_as(&mut self, e: &Expr, ty: Ty) -> Option<Value> {
        let v = self.expr(e)?;
        self.convert(v, ty, e.span)
    }

    /// Evaluates an expression statement for its effects.
    pub fn expr_effect(&mut self, e: &Expr) {
        match &e.kind {
            // `i++;` needs no copy of the old value.
            ExprKind::IncDec { inc, target, .. } => {
                self.inc_dec(*inc, true, target, e.span);
            }
            ExprKind::Assign { .. } | ExprKind::Call { .. } => {
                self.expr(e);
            }
            _ => {
                self.diags.push(crate::diag::Diagnostic::warning(e.span, "this expression has no effect"));
                self.expr(e);
            }
        }
    }

    pub fn convert(&mut self, v: Value, to: Ty, span: Span) -> Option<Value> {
        if v.ty == to {
            return Some(v);
        }
        match (v.ty, to) {
            (Ty::Ptr(_), _) | (_, Ty::Ptr(_)) => {
                self.error(span, format!("cannot convert `{}` to `{}`", v.ty.name(), to.name()));
                None
            }
            (_, Ty::Void) | (Ty::Void, _) => {
                self.error(span, "a `void` value cannot be used");
                None
            }
            (from, Ty::BOOL) => {
                if let Operand::Imm(b) = v.op {
                    let nonzero = if from == Ty::FLOAT { f32::from_bits(b) != 0.0 } else { b != 0 };
                    return Some(Value::imm(nonzero as u32, Ty::BOOL));
                }
                let p = self.regs.pred(span, &mut self.diags);
                let (op, zero) = if from == Ty::FLOAT { ("FSETP", "0.0") } else { ("ISETP", "RZ") };
                self.emit_setp(format!("{op}.NE.AND P{p}, PT, {}, {zero}, PT", v.text()));
                let t = self.temp(span)?;
                self.emit(format!("SEL R{t}, 0x1, RZ, P{p}"));
                self.regs.free_pred(p);
                Some(Value::reg(t, Ty::BOOL))
            }
            (Ty::FLOAT, int) => {
                let signed = int == Ty::INT;
                if let Operand::Imm(b) = v.op {
                    let f = f32::from_bits(b);
                    return Some(Value::imm(if signed { f as i32 as u32 } else { f as u32 }, int));
                }
                let t = self.temp(span)?;
                let m = if signed { "S32" } else { "U32" };
                self.emit(format!("F2I.{m}.F32.TRUNC R{t}, {}", v.text()));
                Some(Value::reg(t, int))
            }
            (int, Ty::FLOAT) => {
                let signed = int != Ty::UNSIGNED;
                if let Operand::Imm(b) = v.op {
                    let f = if signed { b as i32 as f32 } else { b as f32 };
                    return Some(Value::imm(f.to_bits(), Ty::FLOAT));
                }
                let t = self.temp(span)?;
                let m = if signed { "S32" } else { "U32" };
                self.emit(format!("I2F.F32.{m} R{t}, {}", v.text()));
                Some(Value::reg(t, Ty::FLOAT))
            }
            // int, unsigned and bool share their bits.
            (_, to) => Some(Value { op: v.op, ty: to }),
        }
    }

    pub fn expr(&mut self, e: &Expr) -> Option<Value> {
        let span = e.span;
        match &e.kind {
            ExprKind::Int { value, unsigned } => Some(Value::imm(*value, if *unsigned { Ty::UNSIGNED } else { Ty::INT })),
            ExprKind::Float(f) => Some(Value::imm(f.to_bits(), Ty::FLOAT)),
            ExprKind::Bool(b) => Some(Value::imm(*b as u32, Ty::BOOL)),
            ExprKind::Special(s) => {
                let k = match s {
                    Special::ThreadIdx => 0,
                    Special::BlockDim => 1,
                    Special::LaneId => 2,
                };
                self.specials[k].map(|r| Value::reg(r, Ty::UNSIGNED))
            }
            ExprKind::Var(name) => match self.lookup(name) {
                Some(v) => Some(Value::reg(v.reg, v.ty)),
                None => {
                    let hint = if self.sigs.contains_key(name) { " (a function: call it with `()`)" } else { "" };
                    self.error(span, format!("unknown variable `{name}`{hint}"));
                    None
                }
            },
            ExprKind::Unary(op, a) => self.unary(*op, a, span),
            ExprKind::Binary(op, a, b) => {
                let x = self.expr(a)?;
                let y = self.expr(b)?;
                self.binary(*op, x, y, span)
            }
            ExprKind::Logical { .. } => self.bool_from_branches(e),
            ExprKind::Ternary(c, a, b) => self.ternary(c, a, b, span),
            ExprKind::Assign { op, lhs, rhs } => self.assign(*op, lhs, rhs, span),
            ExprKind::IncDec { inc, prefix, target } => self.inc_dec(*inc, *prefix, target, span),
            ExprKind::Index(..) | ExprKind::Deref(_) => {
                let Place::Mem { base, offset, elem } = self.place(e)? else { return None };
                let t = self.temp(span)?;
                self.emit(format!("LD.E R{t}, [R{base}{}]", offset_text(offset)));
                Some(Value::reg(t, Ty::Scalar(elem)))
            }
            ExprKind::AddrOf(inner) => match self.place(inner)? {
                Place::Mem { base, offset: 0, elem } => Some(Value::reg(base, Ty::Ptr(elem))),
                Place::Mem { base, offset, elem } => {
                    let t = self.temp(span)?;
                    self.emit(format!("IADD R{t}, R{base}, {}", imm_int(offset as u32)));
                    Some(Value::reg(t, Ty::Ptr(elem)))
                }
                Place::Reg(..) => {
                    self.error(span, "`&` of a local variable: locals live in registers, which have no address");
                    None
                }
            },
            ExprKind::Call { name, args } => self.call(name, args, span),
            ExprKind::Cast(ty, inner) => {
                let v = self.expr(inner)?;
                self.convert(v, *ty, span)
            }
        }
    }

    fn unary(&mut self, op: UnOp, a: &Expr, span: Span) -> Option<Value> {
        if op == UnOp::Not {
            return self.bool_from_branches_or_setp(a, span);
        }
        let v = self.expr(a)?;
        let v = if v.ty == Ty::BOOL { self.convert(v, Ty::INT, span)? } else { v };
        if let Ty::Ptr(_) = v.ty {
            self.error(span, "this operator does not apply to a pointer");
            return None;
        }
        if let Operand::Imm(b) = v.op {
            return Some(match (op, v.is_float()) {
                (UnOp::Neg, true) => Value::imm((-f32::from_bits(b)).to_bits(), v.ty),
                (UnOp::Neg, false) => Value::imm(b.wrapping_neg(), v.ty),
                (_, true) => {
                    self.error(span, "`~` does not apply to a float");
                    return None;
                }
                _ => Value::imm(!b, v.ty),
            });
        }
        let t = self.temp(span)?;
        match (op, v.is_float()) {
            (UnOp::Neg, true) => self.emit(format!("FADD R{t}, RZ, {}", v.neg_text())),
            (UnOp::Neg, false) => self.emit(format!("IADD R{t}, RZ, {}", v.neg_text())),
            (_, true) => {
                self.error(span, "`~` does not apply to a float");
                return None;
            }
            _ => self.emit(format!("LOP.XOR R{t}, {}, 0xffffffff", v.text())),
        }
        Some(Value::reg(t, v.ty))
    }

    pub fn binary(&mut self, op: BinOp, x: Value, y: Value, span: Span) -> Option<Value> {
        use BinOp::*;
        // Pointer arithmetic: p + i and p - i step by whole elements.
        if let (Ty::Ptr(elem), true) = (x.ty, is_integer(y.ty)) {
            if matches!(op, Add | Sub) {
                return self.pointer_offset(x, y, elem, op == Sub, span);
            }
        }
        if matches!(x.ty, Ty::Ptr(_)) || matches!(y.ty, Ty::Ptr(_)) {
            self.error(span, format!("`{}` between `{}` and `{}` is not supported", op_text(op), x.ty.name(), y.ty.name()));
            return None;
        }
        let ty = common(x.ty, y.ty);
        let x = self.convert(x, ty, span)?;
        let y = self.convert(y, ty, span)?;
        if op.is_comparison() {
            let p = self.regs.pred(span, &mut self.diags);
            self.setp(op, x, y, p, span);
            let t = self.temp(span)?;
            self.emit(format!("SEL R{t}, 0x1, RZ, P{p}"));
            self.regs.free_pred(p);
            return Some(Value::reg(t, Ty::BOOL));
        }
        if ty == Ty::FLOAT {
            return self.float_op(op, x, y, span);
        }
        if let (Operand::Imm(a), Operand::Imm(b)) = (x.op, y.op) {
            if let Some(v) = fold_int(op, a, b, ty == Ty::INT) {
                return Some(Value::imm(v, ty));
            }
        }
        let unsigned = ty == Ty::UNSIGNED;
        let t = self.temp(span)?;
        let (a, b) = (x.text(), y.text());
        let text = match op {
            Add => format!("IADD R{t}, {a}, {b}"),
            Sub => format!("IADD R{t}, {a}, {}", y.neg_text()),
            Mul => format!("IMUL R{t}, {a}, {b}"),
            Shl => format!("SHL R{t}, {a}, {b}"),
            Shr if unsigned => format!("SHR.U32 R{t}, {a}, {b}"),
            Shr => format!("SHR R{t}, {a}, {b}"),
            BitAnd => format!("LOP.AND R{t}, {a}, {b}"),
            BitOr => format!("LOP.OR R{t}, {a}, {b}"),
            BitXor => format!("LOP.XOR R{t}, {a}, {b}"),
            Div | Rem => return self.divide(op == Div, x, y, t, unsigned, span),
            _ => unreachable!("comparisons handled above"),
        };
        // `IADD R, 0x1, R2` reads oddly: SASS puts the register first.
        let text = if matches!(op, Add | Mul | BitAnd | BitOr | BitXor) && matches!(x.op, Operand::Imm(_)) {
            let m = text.split_whitespace().next().unwrap_or_default();
            format!("{m} R{t}, {b}, {a}")
        } else {
            text
        };
        self.emit(text);
        Some(Value::reg(t, ty))
    }

    fn float_op(&mut self, op: BinOp, x: Value, y: Value, span: Span) -> Option<Value> {
        if let (Operand::Imm(a), Operand::Imm(b)) = (x.op, y.op) {
            let (a, b) = (f32::from_bits(a), f32::from_bits(b));
            let r = match op {
                BinOp::Add => Some(a + b),
                BinOp::Sub => Some(a - b),
                BinOp::Mul => Some(a * b),
                BinOp::Div => Some(a / b),
                _ => None,
            };
            if let Some(r) = r {
                return Some(Value::imm(r.to_bits(), Ty::FLOAT));
            }
        }
        // Register first, as SASS prints it.
        let (x, y) = if matches!(x.op, Operand::Imm(_)) && matches!(op, BinOp::Add | BinOp::Mul) { (y, x) } else { (x, y) };
        let t = self.temp(span)?;
        match op {
            BinOp::Add => self.emit(format!("FADD R{t}, {}, {}", x.text(), y.text())),
            BinOp::Sub => self.emit(format!("FADD R{t}, {}, {}", x.text(), y.neg_text())),
            BinOp::Mul => self.emit(format!("FMUL R{t}, {}, {}", x.text(), y.text())),
            BinOp::Div => {
                // As with fast math: x * (1/y) from the multi-function unit.
                self.emit(format!("MUFU.RCP R{t}, {}", y.text()));
                self.emit(format!("FMUL R{t}, {}, R{t}", x.text()));
            }
            _ => {
                self.error(span, format!("`{}` does not apply to floats", op_text(op)));
                return None;
            }
        }
        Some(Value::reg(t, Ty::FLOAT))
    }

    /// Division and remainder by a power-of-two constant: shifts and masks, as compilers emit.
    fn divide(&mut self, div: bool, x: Value, y: Value, t: u8, unsigned: bool, span: Span) -> Option<Value> {
        let ty = if unsigned { Ty::UNSIGNED } else { Ty::INT };
        let k = match y.op {
            Operand::Imm(0) => {
                self.error(span, "division by zero");
                return None;
            }
            Operand::Imm(d) if d.is_power_of_two() && (unsigned || d < 0x8000_0000) => d.trailing_zeros(),
            Operand::Imm(d) => return self.divide_by_constant(div, x, d, t, unsigned, span),
            Operand::Reg(_) => {
                self.error(
                    span,
                    "`/` and `%` on integers need a constant divisor (the ISA has no divide instruction; real compilers call a subroutine)",
                );
                return None;
            }
        };
        let a = x.text();
        if unsigned {
            if div {
                self.emit(format!("SHR.U32 R{t}, {a}, {}", imm_int(k)));
            } else {
                self.emit(format!("LOP.AND R{t}, {a}, {}", imm_int((1u32 << k).wrapping_sub(1))));
            }
            return Some(Value::reg(t, ty));
        }
        // Signed: round toward zero by adding (2^k - 1) to negative values first.
        if k == 0 {
            self.emit(if div { format!("MOV R{t}, {a}") } else { format!("MOV R{t}, RZ") });
            return Some(Value::reg(t, ty));
        }
        self.emit(format!("SHR R{t}, {a}, 0x1f"));
        self.emit(format!("SHR.U32 R{t}, R{t}, {}", imm_int(32 - k)));
        self.emit(format!("IADD R{t}, {a}, R{t}"));
        if div {
            self.emit(format!("SHR R{t}, R{t}, {}", imm_int(k)));
        } else {
            self.emit(format!("LOP.AND R{t}, R{t}, {}", imm_int(!((1u32 << k) - 1))));
            self.emit(format!("IADD R{t}, {a}, -R{t}"));
        }
        Some(Value::reg(t, ty))
    }

    /// Division by any other constant, as compilers do it: a multiply-high by a magic number
    /// (the round-up method that works for every 32-bit dividend), on magnitudes for signed values.
    fn divide_by_constant(&mut self, div: bool, x: Value, d: u32, t: u8, unsigned: bool, span: Span) -> Option<Value> {
        let ty = if unsigned { Ty::UNSIGNED } else { Ty::INT };
        let x_reg = self.in_reg(x, span)?;
        let neg_result = !unsigned && (d as i32) < 0;
        let ad = if unsigned { d } else { (d as i32).unsigned_abs() };
        let (n, is_neg) = if unsigned {
            (x_reg, None)
        } else {
            // n = |x|, with P remembering the sign.
            let p = self.regs.pred(span, &mut self.diags);
            let n = self.temp(span)?;
            self.emit_setp(format!("ISETP.LT.AND P{p}, PT, R{x_reg}, RZ, PT"));
            self.emit(format!("IADD R{n}, RZ, -R{x_reg}"));
            self.emit(format!("SEL R{n}, R{n}, R{x_reg}, P{p}"));
            (n, Some(p))
        };
        let q = self.temp(span)?;
        if ad.is_power_of_two() {
            self.emit(format!("SHR.U32 R{q}, R{n}, {}", imm_int(ad.trailing_zeros())));
        } else {
            let l = 32 - (ad - 1).leading_zeros();
            let magic = (((1u64 << 32) * ((1u64 << l) - ad as u64)) / ad as u64 + 1) as u32;
            let hi = self.temp(span)?;
            self.emit(format!("IMUL.HI.U32 R{hi}, R{n}, {}", imm_int(magic)));
            self.emit(format!("IADD R{q}, R{n}, -R{hi}"));
            self.emit(format!("SHR.U32 R{q}, R{q}, 0x1"));
            self.emit(format!("IADD R{q}, R{q}, R{hi}"));
            self.emit(format!("SHR.U32 R{q}, R{q}, {}", imm_int(l - 1)));
        }
        if let Some(p) = is_neg {
            // The quotient is negative when exactly one of x and d is.
            let m = self.temp(span)?;
            self.emit(format!("IADD R{m}, RZ, -R{q}"));
            if neg_result {
                self.emit(format!("SEL R{q}, R{q}, R{m}, P{p}"));
            } else {
                self.emit(format!("SEL R{q}, R{m}, R{q}, P{p}"));
            }
            self.regs.free_pred(p);
        }
        if div {
            return Some(Value::reg(q, ty));
        }
        // x - q * d: the remainder takes the dividend's sign, as in C.
        self.emit(format!("IMUL R{t}, R{q}, {}", imm_int(d)));
        self.emit(format!("IADD R{t}, R{x_reg}, -R{t}"));
        Some(Value::reg(t, ty))
    }

    fn pointer_offset(&mut self, p: Value, i: Value, elem: Scalar, sub: bool, span: Span) -> Option<Value> {
        let i = self.convert(i, Ty::INT, span)?;
        let t = self.temp(span)?;
        match i.op {
            Operand::Imm(k) => {
                let bytes = (k as i32).wrapping_mul(if sub { -4 } else { 4 });
                self.emit(format!("IADD R{t}, {}, {}", p.text(), imm_int(bytes as u32)));
            }
            Operand::Reg(r) => {
                let idx = if sub { format!("-R{r}") } else { format!("R{r}") };
                self.emit(format!("ISCADD R{t}, {idx}, {}, 0x2", p.text()));
            }
        }
        Some(Value::reg(t, Ty::Ptr(elem)))
    }

    /// `ISETP`/`FSETP` of `x op y` into predicate `p`.
    fn setp(&mut self, op: BinOp, x: Value, y: Value, p: u8, span: Span) {
        let cmp = match op {
            BinOp::Lt => "LT",
            BinOp::Le => "LE",
            BinOp::Gt => "GT",
            BinOp::Ge => "GE",
            BinOp::Eq => "EQ",
            _ => "NE",
        };
        // The first operand of a compare must be a register in SASS; swap a constant to the right.
        let (x, y, cmp) =
            if matches!(x.op, Operand::Imm(_)) && matches!(y.op, Operand::Reg(_)) { (y, x, swap_cmp(cmp)) } else { (x, y, cmp) };
        let x = match x.op {
            Operand::Imm(_) => match self.in_reg(x, span) {
                Some(r) => Value::reg(r, x.ty),
                None => return,
            },
            _ => x,
        };
        let text = match x.ty {
            Ty::FLOAT => format!("FSETP.{cmp}.AND P{p}, PT, {}, {}, PT", x.text(), y.text()),
            Ty::UNSIGNED => format!("ISETP.{cmp}.U32.AND P{p}, PT, {}, {}, PT", x.text(), y.text()),
            _ => format!("ISETP.{cmp}.AND P{p}, PT, {}, {}, PT", x.text(), y.text()),
        };
        self.emit_setp(text);
    }

    // ----- places: variables and memory -----

    fn place(&mut self, e: &Expr) -> Option<Place> {
        match &e.kind {
            ExprKind::Var(name) => match self.lookup(name) {
                Some(v) => Some(Place::Reg(v.reg, v.ty)),
                None => {
                    self.error(e.span, format!("unknown variable `{name}`"));
                    None
                }
            },
            ExprKind::Index(p, i) => {
                let pv = self.expr(p)?;
                let Ty::Ptr(elem) = pv.ty else {
                    self.error(p.span, format!("`[]` needs a pointer, and this is `{}`", pv.ty.name()));
                    return None;
                };
                let base = self.in_reg(pv, p.span)?;
                // `a[x + 6]`: the constant goes into the address offset, as SASS writes it.
                let (i, extra) = match &i.kind {
                    ExprKind::Binary(BinOp::Add, x, k) => match k.kind {
                        ExprKind::Int { value, .. } if (value as i32).checked_mul(4).is_some() => (&**x, value as i32 * 4),
                        _ => (&**i, 0),
                    },
                    _ => (&**i, 0),
                };
                let iv = self.expr(i)?;
                if !is_integer(iv.ty) {
                    self.error(i.span, format!("an index must be an integer, not `{}`", iv.ty.name()));
                    return None;
                }
                match iv.op {
                    Operand::Imm(k) if (k as i32).checked_mul(4).and_then(|o| o.checked_add(extra)).is_some() => {
                        Some(Place::Mem { base, offset: (k as i32) * 4 + extra, elem })
                    }
                    _ => {
                        let ir = self.in_reg(iv, i.span)?;
                        let t = self.temp(e.span)?;
                        self.emit(format!("ISCADD R{t}, R{ir}, R{base}, 0x2"));
                        Some(Place::Mem { base: t, offset: extra, elem })
                    }
                }
            }
            ExprKind::Deref(p) => {
                let pv = self.expr(p)?;
                let Ty::Ptr(elem) = pv.ty else {
                    self.error(p.span, format!("`*` needs a pointer, and this is `{}`", pv.ty.name()));
                    return None;
                };
                let base = self.in_reg(pv, p.span)?;
                Some(Place::Mem { base, offset: 0, elem })
            }
            _ => {
                self.error(e.span, "this cannot be assigned to (expected a variable, `a[i]` or `*p`)");
                None
            }
        }
    }

    fn read_place(&mut self, p: &Place, span: Span) -> Option<Value> {
        match *p {
            Place::Reg(r, ty) => Some(Value::reg(r, ty)),
            Place::Mem { base, offset, elem } => {
                let t = self.temp(span)?;
                self.emit(format!("LD.E R{t}, [R{base}{}]", offset_text(offset)));
                Some(Value::reg(t, Ty::Scalar(elem)))
            }
        }
    }

    fn write_place(&mut self, p: &Place, v: Value, span: Span) -> Option<Value> {
        match *p {
            Place::Reg(r, ty) => {
                let v = self.convert(v, ty, span)?;
                self.emit(format!("MOV R{r}, {}", v.text()));
                Some(Value::reg(r, ty))
            }
            Place::Mem { base, offset, elem } => {
                let v = self.convert(v, Ty::Scalar(elem), span)?;
                let r = match v.op {
                    Operand::Imm(0) => 255,
                    _ => self.in_reg(v, span)?,
                };
                let src = if r == 255 { String::from("RZ") } else { format!("R{r}") };
                self.emit(format!("ST.E [R{base}{}], {src}", offset_text(offset)));
                Some(v)
            }
        }
    }

    fn assign(&mut self, op: Option<BinOp>, lhs: &Expr, rhs: &Expr, span: Span) -> Option<Value> {
        let place = self.place(lhs)?;
        let value = match op {
            None => self.expr(rhs)?,
            Some(op) => {
                let old = self.read_place(&place, span)?;
                let r = self.expr(rhs)?;
                let ty = old.ty;
                let v = self.binary(op, old, r, span)?;
                self.convert(v, ty, span)?
            }
        };
        // Assigning a computed temporary to a variable: write the result straight into it.
        if let (Place::Reg(r, ty), Operand::Reg(t)) = (&place, value.op) {
            if value.ty == *ty && t != *r && u32::from(t) >= self.stmt_mark && self.retarget_last(t, *r) {
                return Some(Value::reg(*r, *ty));
            }
        }
        self.write_place(&place, value, span)
    }

    /// If the last instruction wrote temporary `t`, make it write `r` instead (saves a MOV).
    pub fn retarget_last(&mut self, t: u8, r: u8) -> bool {
        let needle = format!(" R{t},");
        let Some(last) = self.func.block_mut(self.cur_block()).instrs.last_mut() else { return false };
        let Some(first_space) = last.text.find(' ') else { return false };
        if last.guard.is_some() || !last.text[first_space..].starts_with(&needle) || last.text.starts_with("ST") {
            return false;
        }
        // The temporary must not also be read by the instruction (MUFU/FMUL pairs reuse it).
        if last.text[first_space + needle.len()..].contains(&format!("R{t}")) {
            return false;
        }
        last.text = format!("{} R{r},{}", &last.text[..first_space], &last.text[first_space + needle.len()..]);
        true
    }

    fn inc_dec(&mut self, inc: bool, prefix: bool, target: &Expr, span: Span) -> Option<Value> {
        let place = self.place(target)?;
        let old = self.read_place(&place, span)?;
        let one = if old.is_float() { Value::imm(1.0f32.to_bits(), Ty::FLOAT) } else { Value::imm(1, Ty::INT) };
        let result_old = if prefix {
            None
        } else {
            // Keep the old value: the variable's register is about to change.
            let t = self.temp(span)?;
            self.emit(format!("MOV R{t}, {}", old.text()));
            Some(Value::reg(t, old.ty))
        };
        let new = self.binary(if inc { BinOp::Add } else { BinOp::Sub }, old, one, span)?;
        let new = self.convert(new, old.ty, span)?;
        let written = if let (Place::Reg(r, _), Operand::Reg(t)) = (&place, new.op) {
            if u32::from(t) >= self.stmt_mark && self.retarget_last(t, *r) {
                Value::reg(*r, old.ty)
            } else {
                self.write_place(&place, new, span)?
            }
        } else {
            self.write_place(&place, new, span)?
        };
        Some(result_old.unwrap_or(written))
    }

    fn ternary(&mut self, c: &Expr, a: &Expr, b: &Expr, span: Span) -> Option<Value> {
        if is_pure(a) && is_pure(b) && is_pure(c) {
            // Both arms are cheap and safe: compute both and select, as compilers do.
            let x = self.expr(a)?;
            let y = self.expr(b)?;
            let ty = if x.ty == y.ty { x.ty } else { common(x.ty, y.ty) };
            let x = self.convert(x, ty, span)?;
            let y = self.convert(y, ty, span)?;
            let p = self.pred_of(c)?;
            let t = self.temp(span)?;
            self.emit(format!("SEL R{t}, {}, {}, P{p}", x.text(), y.text()));
            self.regs.free_pred(p);
            return Some(Value::reg(t, ty));
        }
        let t = self.temp(span)?;
        let (tb, fb, join) = (self.block("sel_true"), self.block("sel_false"), self.block("sel_end"));
        self.cond(c, Dest::Block(tb), Dest::Block(fb));
        self.start(tb);
        let x = self.expr(a)?;
        let ty = x.ty;
        self.emit(format!("MOV R{t}, {}", x.text()));
        self.jump(Dest::Block(join));
        self.start(fb);
        let y = self.expr_as(b, ty)?;
        self.emit(format!("MOV R{t}, {}", y.text()));
        self.start(join);
        Some(Value::reg(t, ty))
    }

    /// A condition as a predicate, without branches (for `SEL`).
    fn pred_of(&mut self, c: &Expr) -> Option<u8> {
        if let ExprKind::Binary(op, a, b) = &c.kind {
            if op.is_comparison() {
                let x = self.expr(a)?;
                let y = self.expr(b)?;
                let ty = common(x.ty, y.ty);
                let x = self.convert(x, ty, c.span)?;
                let y = self.convert(y, ty, c.span)?;
                let p = self.regs.pred(c.span, &mut self.diags);
                self.setp(*op, x, y, p, c.span);
                return Some(p);
            }
        }
        let v = self.expr(c)?;
        let v = self.convert(v, Ty::INT, c.span)?;
        let p = self.regs.pred(c.span, &mut self.diags);
        self.setp(BinOp::Ne, v, Value::imm(0, Ty::INT), p, c.span);
        Some(p)
    }

    /// `!x` as a value.
    fn bool_from_branches_or_setp(&mut self, a: &Expr, span: Span) -> Option<Value> {
        if is_pure(a) {
            let p = self.pred_of(a)?;
            let t = self.temp(span)?;
            self.emit(format!("SEL R{t}, RZ, 0x1, P{p}"));
            self.regs.free_pred(p);
            return Some(Value::reg(t, Ty::BOOL));
        }
        let not = Expr { kind: ExprKind::Unary(UnOp::Not, alloc::boxed::Box::new(a.clone())), span };
        self.bool_from_branches(&not)
    }

    /// `a && b` as a value: real branches, then 1 or 0.
    fn bool_from_branches(&mut self, e: &Expr) -> Option<Value> {
        let t = self.temp(e.span)?;
        let (tb, fb, join) = (self.block("true"), self.block("false"), self.block("bool_end"));
        self.cond(e, Dest::Block(tb), Dest::Block(fb));
        self.start(tb);
        self.emit(format!("MOV R{t}, 0x1"));
        self.jump(Dest::Block(join));
        self.start(fb);
        self.emit(format!("MOV R{t}, RZ"));
        self.start(join);
        Some(Value::reg(t, Ty::BOOL))
    }

    // ----- conditions -----

    /// Branches to `t` when `e` holds and to `f` otherwise.
    pub fn cond(&mut self, e: &Expr, t: Dest, f: Dest) {
        match &e.kind {
            ExprKind::Logical { and, lhs, rhs } => {
                let mid = self.block(if *and { "and" } else { "or" });
                if *and {
                    self.cond(lhs, Dest::Block(mid), f);
                } else {
                    self.cond(lhs, t, Dest::Block(mid));
                }
                self.start(mid);
                self.cond(rhs, t, f);
            }
            ExprKind::Unary(UnOp::Not, inner) => self.cond(inner, f, t),
            ExprKind::Bool(b) => self.jump(if *b { t } else { f }),
            _ => {
                let mark = self.regs.mark();
                let Some(p) = self.pred_of(e) else {
                    self.jump(f);
                    return;
                };
                let taken = self.dest_block(t);
                let fall = self.dest_block(f);
                self.terminate(Term::Branch { pred: p, neg: false, taken, fall });
                self.regs.free_pred(p);
                self.regs.release(mark);
            }
        }
    }

    fn cur_block(&self) -> BlockId {
        self.cur
    }

    // ----- calls and built-ins -----

    fn call(&mut self, name: &str, args: &[Expr], span: Span) -> Option<Value> {
        let arity = |l: &mut Self, n: usize| -> bool {
            if args.len() != n {
                l.error(span, format!("`{name}` takes {n} argument(s), found {}", args.len()));
                return false;
            }
            true
        };
        match name {
            "__syncthreads" => {
                if !arity(self, 0) {
                    return None;
                }
                self.emit(String::from("BAR.SYNC 0x0"));
                Some(Value::imm(0, Ty::Void))
            }
            "__syncwarp" => {
                if args.len() > 1 {
                    arity(self, 1);
                    return None;
                }
                let mask = match args.first() {
                    Some(a) => self.expr_as(a, Ty::UNSIGNED)?,
                    None => Value::imm(u32::MAX, Ty::UNSIGNED),
                };
                if self.target == Target::Volta {
                    self.emit(format!("WARPSYNC {}", mask.text()));
                } else {
                    // A token stack keeps the warp in lockstep: nothing to wait for.
                    self.emit(String::from("NOP"));
                }
                Some(Value::imm(0, Ty::Void))
            }
            "__threadfence" | "__threadfence_block" => {
                if !arity(self, 0) {
                    return None;
                }
                // One warp's accesses are already ordered here.
                self.emit(String::from("NOP"));
                Some(Value::imm(0, Ty::Void))
            }
            "clock" => {
                if !arity(self, 0) {
                    return None;
                }
                let t = self.temp(span)?;
                self.emit(format!("S2R R{t}, SR_CLOCKLO"));
                Some(Value::reg(t, Ty::INT))
            }
            "atomicAdd" | "atomicExch" | "atomicCAS" => self.atomic(name, args, span),
            "min" | "max" => {
                if !arity(self, 2) {
                    return None;
                }
                let x = self.expr(&args[0])?;
                let y = self.expr(&args[1])?;
                let ty = common(x.ty, y.ty);
                let x = self.convert(x, ty, span)?;
                let y = self.convert(y, ty, span)?;
                let p = self.regs.pred(span, &mut self.diags);
                self.setp(if name == "min" { BinOp::Lt } else { BinOp::Gt }, x, y, p, span);
                let t = self.temp(span)?;
                self.emit(format!("SEL R{t}, {}, {}, P{p}", x.text(), y.text()));
                self.regs.free_pred(p);
                Some(Value::reg(t, ty))
            }
            "abs" => {
                if !arity(self, 1) {
                    return None;
                }
                let x = self.expr_as(&args[0], Ty::INT)?;
                let p = self.regs.pred(span, &mut self.diags);
                self.setp(BinOp::Lt, x, Value::imm(0, Ty::INT), p, span);
                let t = self.temp(span)?;
                self.emit(format!("IADD R{t}, RZ, {}", x.neg_text()));
                self.emit(format!("SEL R{t}, R{t}, {}, P{p}", x.text()));
                self.regs.free_pred(p);
                Some(Value::reg(t, Ty::INT))
            }
            _ => self.user_call(name, args, span),
        }
    }

    fn atomic(&mut self, name: &str, args: &[Expr], span: Span) -> Option<Value> {
        let want = if name == "atomicCAS" { 3 } else { 2 };
        if args.len() != want {
            self.error(span, format!("`{name}` takes {want} arguments, found {}", args.len()));
            return None;
        }
        let p = self.expr(&args[0])?;
        let Ty::Ptr(elem) = p.ty else {
            self.error(args[0].span, format!("the first argument of `{name}` is a pointer (`&a[i]`), not `{}`", p.ty.name()));
            return None;
        };
        if elem == Scalar::Float && name == "atomicAdd" {
            self.error(span, "`atomicAdd` on floats is not supported: use an `int` or `unsigned` buffer");
            return None;
        }
        let base = self.in_reg(p, args[0].span)?;
        let ty = Ty::Scalar(elem);
        let mut ops = String::new();
        for a in &args[1..] {
            let v = self.expr_as(a, ty)?;
            let r = self.in_reg(v, a.span)?;
            ops.push_str(&format!(", R{r}"));
        }
        let t = self.temp(span)?;
        let m = match name {
            "atomicAdd" => "ADD",
            "atomicExch" => "EXCH",
            _ => "CAS",
        };
        self.emit(format!("ATOM.E.{m} R{t}, [R{base}]{ops}"));
        Some(Value::reg(t, ty))
    }

    fn user_call(&mut self, name: &str, args: &[Expr], span: Span) -> Option<Value> {
        let Some(sig) = self.sigs.get(name).cloned() else {
            self.error(span, format!("unknown function `{name}` (not a `__device__` function of this file or a supported built-in)"));
            return None;
        };
        if sig.kernel {
            self.error(span, format!("`{name}` is a `__global__` kernel and cannot be called from device code"));
            return None;
        }
        if args.len() != sig.params.len() {
            self.error(span, format!("`{name}` takes {} argument(s), found {}", sig.params.len(), args.len()));
            return None;
        }
        // Evaluate every argument first: an argument may itself call a function.
        let mut vals = alloc::vec::Vec::new();
        for (a, (ty, _)) in args.iter().zip(&sig.params) {
            vals.push(self.expr_as(a, *ty)?);
        }
        for (v, (_, reg)) in vals.iter().zip(&sig.params) {
            self.emit(format!("MOV R{reg}, {}", v.text()));
        }
        self.emit(format!("CAL `({})", sig.label));
        match sig.ret_reg {
            Some(r) => {
                let t = self.temp(span)?;
                self.emit(format!("MOV R{t}, R{r}"));
                Some(Value::reg(t, sig.ret))
            }
            None => Some(Value::imm(0, Ty::Void)),
        }
    }
}

fn offset_text(offset: i32) -> String {
    match offset {
        0 => String::new(),
        o if o < 0 => format!("-0x{:x}", -(o as i64)),
        o => format!("+0x{o:x}"),
    }
}

fn swap_cmp(c: &'static str) -> &'static str {
    match c {
        "LT" => "GT",
        "LE" => "GE",
        "GT" => "LT",
        "GE" => "LE",
        other => other,
    }
}

fn fold_int(op: BinOp, a: u32, b: u32, signed: bool) -> Option<u32> {
    use BinOp::*;
    Some(match op {
        Add => a.wrapping_add(b),
        Sub => a.wrapping_sub(b),
        Mul => a.wrapping_mul(b),
        Shl => a.checked_shl(b).unwrap_or(0),
        Shr if signed => ((a as i32) >> b.min(31)) as u32,
        Shr => a.checked_shr(b).unwrap_or(0),
        BitAnd => a & b,
        BitOr => a | b,
        BitXor => a ^ b,
        Div if b == 0 => return None,
        Div if signed => (a as i32).wrapping_div(b as i32) as u32,
        Div => a / b,
        Rem if b == 0 => return None,
        Rem if signed => (a as i32).wrapping_rem(b as i32) as u32,
        Rem => a % b,
        _ => return None,
    })
}

fn op_text(op: BinOp) -> &'static str {
    use BinOp::*;
    match op {
        Add => "+",
        Sub => "-",
        Mul => "*",
        Div => "/",
        Rem => "%",
        Shl => "<<",
        Shr => ">>",
        BitAnd => "&",
        BitOr => "|",
        BitXor => "^",
        Lt => "<",
        Le => "<=",
        Gt => ">",
        Ge => ">=",
        Eq => "==",
        Ne => "!=",
    }
}
