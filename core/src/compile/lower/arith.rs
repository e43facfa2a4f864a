//! Operators: unary and binary arithmetic, constant folding, integer division by constants
//! (shifts, or a multiply by a magic number), pointer arithmetic and comparisons into
//! predicates.

use alloc::format;

use super::value::{alu, common, is_integer, setp, Repr, Value};
use super::Lower;
use crate::compile::ast::*;
use crate::compile::ins::{Opcode, Operand, Reg};
use crate::diag::Span;

impl Lower<'_> {
    pub(super) fn unary(&mut self, op: UnOp, a: &Expr, span: Span) -> Option<Value> {
        if op == UnOp::Not {
            return self.bool_from_branches_or_setp(a, span);
        }
        let v = self.expr(a)?.promoted();
        if let (Ty::Struct(_), UnOp::Neg) = (v.ty, op) {
            return self.operator_call("-", v, None, span);
        }
        let v = if v.ty == Ty::BOOL { self.convert(v, Ty::INT, span)? } else { v };
        if v.ty.is_pointer() {
            self.error(span, "this operator does not apply to a pointer");
            return None;
        }
        if let Ty::Vector(..) = v.ty {
            self.error(
                span,
                format!(
                    "this operator does not apply to `{}`: CUDA defines none on vector types (use its components, `.x`...)",
                    v.ty.name()
                ),
            );
            return None;
        }
        if v.ty.wide() {
            return self.wide_unary(op, v, span);
        }
        if let Repr::Imm(b) = v.repr {
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
            (UnOp::Neg, true) => self.emit(alu(Opcode::Fadd, &[], t, &[Operand::RZ, v.neg_operand()])),
            (UnOp::Neg, false) => self.emit(alu(Opcode::Iadd, &[], t, &[Operand::RZ, v.neg_operand()])),
            (_, true) => {
                self.error(span, "`~` does not apply to a float");
                return None;
            }
            _ => self.emit(alu(Opcode::Lop, &["XOR"], t, &[v.operand(), Operand::Mask(u32::MAX)])),
        }
        Some(Value::reg(t, v.ty))
    }

    pub fn binary(&mut self, op: BinOp, x: Value, y: Value, span: Span) -> Option<Value> {
        use BinOp::*;
        if let (Ty::Struct(_), _) | (_, Ty::Struct(_)) = (x.ty, y.ty) {
            return self.operator_call(op.symbol(), x, Some(y), span);
        }
        // Pointer arithmetic: p + i and p - i step by whole elements.
        let element = x.ty.pointee_ty().and_then(Ty::size_of).map(|b| b as u32);
        if let (Some(size), true) = (element, is_integer(y.ty)) {
            if matches!(op, Add | Sub) {
                return self.pointer_offset(x, y, size as i32, op == Sub, span);
            }
        }
        if let (Ty::Vector(..), _) | (_, Ty::Vector(..)) = (x.ty, y.ty) {
            let ty = if matches!(x.ty, Ty::Vector(..)) { x.ty } else { y.ty };
            self.error(
                span,
                format!(
                    "`{}` does not apply to `{}`: CUDA defines no operators on vector types (use its components, `.x`...)",
                    op.symbol(),
                    ty.name()
                ),
            );
            return None;
        }
        // p - q: how many elements apart two pointers of one type are (CUDA's `ptrdiff_t` is a
        // `long`; addresses here are 32 bits, so an `int` holds it).
        if let (Sub, Some(size), true) = (op, element, x.ty == y.ty) {
            let bytes = self.binary(Sub, Value { ty: Ty::INT, ..x }, Value { ty: Ty::INT, ..y }, span)?;
            return if size == 1 { Some(bytes) } else { self.binary(Div, bytes, Value::imm(size, Ty::INT), span) };
        }
        if x.ty.is_pointer() || y.ty.is_pointer() {
            self.error(span, format!("`{}` between `{}` and `{}` is not supported", op.symbol(), self.ty_name(x.ty), self.ty_name(y.ty)));
            return None;
        }
        let (x, y) = (x.promoted(), y.promoted());
        // A literal like `0.1` is a double in C, so `t * 0.1` is double arithmetic; beside a
        // float it stays float when the float holds it exactly (`x * 0.5`: the same result, as
        // nvcc folds it).
        let double_literal = |v: &Value, other: &Value| v.exact.is_some_and(|f| !(other.ty == Ty::FLOAT && (f as f32) as f64 == f));
        let promoted =
            if double_literal(&x, &y) || double_literal(&y, &x) { common(common(x.ty, y.ty), Ty::DOUBLE) } else { common(x.ty, y.ty) };
        // A shift has the left side's type; its count is any integer (C does not mix them).
        let ty = if matches!(op, Shl | Shr) && is_integer(x.ty) && x.ty != Ty::BOOL { x.ty } else { promoted };
        let x = self.convert(x, ty, span)?;
        let y = if matches!(op, Shl | Shr) && ty.wide() {
            self.convert(y, Ty::INT, span)?
        } else {
            self.convert(y, if matches!(op, Shl | Shr) { common(y.ty, Ty::INT) } else { ty }, span)?
        };
        if ty.wide() && !op.is_comparison() {
            return self.wide_binary(op, x, y, span);
        }
        if op.is_comparison() {
            let p = self.regs.pred(span, &mut self.diags);
            self.compare(op, x, y, p, span);
            let t = self.temp(span)?;
            self.emit(alu(Opcode::Sel, &[], t, &[Operand::Int(1), Operand::RZ, Operand::Pred(p)]));
            self.regs.free_pred(p);
            return Some(Value::reg(t, Ty::BOOL));
        }
        if ty == Ty::FLOAT {
            return self.float_op(op, x, y, span);
        }
        if let (Repr::Imm(a), Repr::Imm(b)) = (x.repr, y.repr) {
            if let Some(v) = fold_int(op, a, b, ty == Ty::INT) {
                return Some(Value::imm(v, ty));
            }
        }
        let unsigned = ty == Ty::UNSIGNED;
        let t = self.temp(span)?;
        let (opcode, mods, b): (_, &[&str], _) = match op {
            Add => (Opcode::Iadd, &[], y.operand()),
            Sub => (Opcode::Iadd, &[], y.neg_operand()),
            Mul => (Opcode::Imul, &[], y.operand()),
            Shl => (Opcode::Shl, &[], y.operand()),
            Shr if unsigned => (Opcode::Shr, &["U32"], y.operand()),
            Shr => (Opcode::Shr, &[], y.operand()),
            BitAnd => (Opcode::Lop, &["AND"], y.operand()),
            BitOr => (Opcode::Lop, &["OR"], y.operand()),
            BitXor => (Opcode::Lop, &["XOR"], y.operand()),
            Div | Rem => return self.divide(op == Div, x, y, t, unsigned, span),
            _ => unreachable!("comparisons handled above"),
        };
        let a = x.operand();
        // `IADD R, 0x1, R2` reads oddly: SASS puts the register first.
        let srcs = if matches!(op, Add | Mul | BitAnd | BitOr | BitXor) && x.is_imm() { [b, a] } else { [a, b] };
        self.emit(alu(opcode, mods, t, &srcs));
        Some(Value::reg(t, ty))
    }

    fn float_op(&mut self, op: BinOp, x: Value, y: Value, span: Span) -> Option<Value> {
        if let (Repr::Imm(a), Repr::Imm(b)) = (x.repr, y.repr) {
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
        let (x, y) = if x.is_imm() && matches!(op, BinOp::Add | BinOp::Mul) { (y, x) } else { (x, y) };
        let t = self.temp(span)?;
        match op {
            BinOp::Add => self.emit(alu(Opcode::Fadd, &[], t, &[x.operand(), y.operand()])),
            BinOp::Sub => self.emit(alu(Opcode::Fadd, &[], t, &[x.operand(), y.neg_operand()])),
            BinOp::Mul => self.emit(alu(Opcode::Fmul, &[], t, &[x.operand(), y.operand()])),
            // By a power of two: a product by its reciprocal, which is exact.
            BinOp::Div if matches!(y.repr, Repr::Imm(b) if exact_reciprocal(f32::from_bits(b)).is_some()) => {
                let Repr::Imm(b) = y.repr else { unreachable!("matched above") };
                let r = exact_reciprocal(f32::from_bits(b)).unwrap_or(1.0);
                self.emit(alu(Opcode::Fmul, &[], t, &[x.operand(), Operand::Float(r.to_bits())]));
            }
            // nvcc's `/` is IEEE's (`-prec-div=true`): `FDIV` stands for its division subroutine.
            BinOp::Div => self.emit(alu(Opcode::Fdiv, &[], t, &[x.operand(), y.operand()])),
            _ => {
                self.error(span, format!("`{}` does not apply to floats", op.symbol()));
                return None;
            }
        }
        Some(Value::reg(t, Ty::FLOAT))
    }

    /// `x / y` as CUDA's `__fdividef` computes it: `x * (1/y)`, the reciprocal from the
    /// multi-function unit (fast, and off by an ulp or two).
    pub(super) fn fast_divide(&mut self, x: Value, y: Value, span: Span) -> Option<Value> {
        let t = self.temp(span)?;
        self.emit(alu(Opcode::Mufu, &["RCP"], t, &[y.operand()]));
        self.emit(alu(Opcode::Fmul, &[], t, &[x.operand(), Operand::r(t)]));
        Some(Value::reg(t, Ty::FLOAT))
    }

    /// Division and remainder by a power-of-two constant: shifts and masks, as compilers emit.
    fn divide(&mut self, div: bool, x: Value, y: Value, t: u8, unsigned: bool, span: Span) -> Option<Value> {
        let ty = if unsigned { Ty::UNSIGNED } else { Ty::INT };
        let k = match y.repr {
            Repr::Imm(0) => {
                self.error(span, "division by zero");
                return None;
            }
            Repr::Imm(d) if d.is_power_of_two() && (unsigned || d < 0x8000_0000) => d.trailing_zeros(),
            Repr::Imm(d) => return self.divide_by_constant(div, x, d, t, unsigned, span),
            Repr::Reg(_) => {
                // One instruction where nvcc emits a reciprocal-and-correction sequence of about
                // fifteen: the listing stays readable (the glossary says what it stands for).
                let (op, sign) = (if div { Opcode::Idiv } else { Opcode::Irem }, if unsigned { "U32" } else { "S32" });
                let a = Operand::r(self.in_reg(x, span)?);
                self.emit(alu(op, &[sign], t, &[a, y.operand()]));
                return Some(Value::reg(t, ty));
            }
        };
        let (a, rt) = (x.operand(), Operand::r(t));
        if unsigned {
            if div {
                self.emit(alu(Opcode::Shr, &["U32"], t, &[a, Operand::Int(k)]));
            } else {
                self.emit(alu(Opcode::Lop, &["AND"], t, &[a, Operand::Int((1u32 << k).wrapping_sub(1))]));
            }
            return Some(Value::reg(t, ty));
        }
        // Signed: round toward zero by adding (2^k - 1) to negative values first.
        if k == 0 {
            self.emit(alu(Opcode::Mov, &[], t, &[if div { a } else { Operand::RZ }]));
            return Some(Value::reg(t, ty));
        }
        self.emit(alu(Opcode::Shr, &[], t, &[a, Operand::Int(0x1f)]));
        self.emit(alu(Opcode::Shr, &["U32"], t, &[rt, Operand::Int(32 - k)]));
        self.emit(alu(Opcode::Iadd, &[], t, &[a, rt]));
        if div {
            self.emit(alu(Opcode::Shr, &[], t, &[rt, Operand::Int(k)]));
        } else {
            self.emit(alu(Opcode::Lop, &["AND"], t, &[rt, Operand::Int(!((1u32 << k) - 1))]));
            self.emit(alu(Opcode::Iadd, &[], t, &[a, Operand::Neg(Reg::R(t))]));
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
        let r = Operand::r;
        let neg = |n: u8| Operand::Neg(Reg::R(n));
        let (n, is_neg) = if unsigned {
            (x_reg, None)
        } else {
            // n = |x|, with P remembering the sign.
            let p = self.regs.pred(span, &mut self.diags);
            let n = self.temp(span)?;
            self.emit(setp(Opcode::Isetp, &["LT", "AND"], p, r(x_reg), Operand::RZ));
            self.emit(alu(Opcode::Iadd, &[], n, &[Operand::RZ, neg(x_reg)]));
            self.emit(alu(Opcode::Sel, &[], n, &[r(n), r(x_reg), Operand::Pred(p)]));
            (n, Some(p))
        };
        let q = self.temp(span)?;
        if ad.is_power_of_two() {
            self.emit(alu(Opcode::Shr, &["U32"], q, &[r(n), Operand::Int(ad.trailing_zeros())]));
        } else {
            let l = 32 - (ad - 1).leading_zeros();
            let magic = (((1u64 << 32) * ((1u64 << l) - ad as u64)) / ad as u64 + 1) as u32;
            let hi = self.temp(span)?;
            self.emit(alu(Opcode::Imul, &["HI", "U32"], hi, &[r(n), Operand::Int(magic)]));
            self.emit(alu(Opcode::Iadd, &[], q, &[r(n), neg(hi)]));
            self.emit(alu(Opcode::Shr, &["U32"], q, &[r(q), Operand::Int(1)]));
            self.emit(alu(Opcode::Iadd, &[], q, &[r(q), r(hi)]));
            self.emit(alu(Opcode::Shr, &["U32"], q, &[r(q), Operand::Int(l - 1)]));
        }
        if let Some(p) = is_neg {
            // The quotient is negative when exactly one of x and d is.
            let m = self.temp(span)?;
            self.emit(alu(Opcode::Iadd, &[], m, &[Operand::RZ, neg(q)]));
            let (a, b) = if neg_result { (q, m) } else { (m, q) };
            self.emit(alu(Opcode::Sel, &[], q, &[r(a), r(b), Operand::Pred(p)]));
            self.regs.free_pred(p);
        }
        if div {
            return Some(Value::reg(q, ty));
        }
        // x - q * d: the remainder takes the dividend's sign, as in C.
        self.emit(alu(Opcode::Imul, &[], t, &[r(q), Operand::Int(d)]));
        self.emit(alu(Opcode::Iadd, &[], t, &[r(x_reg), neg(t)]));
        Some(Value::reg(t, ty))
    }

    /// `p + i` or `p - i`, stepping `size` bytes an element.
    fn pointer_offset(&mut self, p: Value, i: Value, size: i32, sub: bool, span: Span) -> Option<Value> {
        let i = self.convert(i, Ty::INT, span)?;
        let t = self.temp(span)?;
        match i.repr {
            Repr::Imm(k) => {
                let bytes = (k as i32).wrapping_mul(if sub { -size } else { size });
                self.emit(alu(Opcode::Iadd, &[], t, &[p.operand(), Operand::Int(bytes as u32)]));
            }
            Repr::Reg(r) => self.scaled_add(t, r, sub, p.operand(), size),
        }
        Some(Value::reg(t, p.ty))
    }

    /// `ISETP`/`FSETP` of `x op y` into predicate `p`.
    pub(super) fn compare(&mut self, op: BinOp, x: Value, y: Value, p: u8, span: Span) {
        let cmp = cmp_name(op);
        if x.ty.wide() {
            return self.compare_wide(op, x, y, p, span);
        }
        // The first operand of a compare must be a register in SASS; swap a constant to the right.
        let (x, y, cmp) = if x.is_imm() && !y.is_imm() { (y, x, swap_cmp(cmp)) } else { (x, y, cmp) };
        let x = match x.repr {
            Repr::Imm(_) => match self.in_reg(x, span) {
                Some(r) => Value::reg(r, x.ty),
                None => return,
            },
            _ => x,
        };
        let ins = match x.ty {
            // C's `!=` holds for a NaN: the unordered `NEU` (the ordered comparisons are false then).
            Ty::FLOAT => setp(Opcode::Fsetp, &[float_cmp(cmp), "AND"], p, x.operand(), y.operand()),
            Ty::UNSIGNED => setp(Opcode::Isetp, &[cmp, "U32", "AND"], p, x.operand(), y.operand()),
            _ => setp(Opcode::Isetp, &[cmp, "AND"], p, x.operand(), y.operand()),
        };
        self.emit(ins);
    }
}

/// A float comparison's `SETP` modifier: C's `!=` is true when an operand is NaN (`NEU`); its
/// other comparisons are false then, as the ordered `LT`, ..., `EQ` are.
pub(super) fn float_cmp(cmp: &'static str) -> &'static str {
    if cmp == "NE" {
        "NEU"
    } else {
        cmp
    }
}

/// A comparison's `SETP` modifier (`LT`, ..., `NE`).
pub(super) fn cmp_name(op: BinOp) -> &'static str {
    match op {
        BinOp::Lt => "LT",
        BinOp::Le => "LE",
        BinOp::Gt => "GT",
        BinOp::Ge => "GE",
        BinOp::Eq => "EQ",
        _ => "NE",
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

/// The reciprocal of `b` when it is exact and normal (`b` a power of two): `x / b` is then `x * r`.
fn exact_reciprocal(b: f32) -> Option<f32> {
    let r = 1.0 / b;
    (b.is_normal() && r.is_normal() && b.to_bits() & 0x007f_ffff == 0).then_some(r)
}
