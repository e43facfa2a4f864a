//! Conditions: `&&`, `||` and `!` lowered to real branches that short-circuit, conditions as
//! predicates (for `SEL`), truth values made from branches, and `?:` (a `SEL` of both arms when
//! both are pure, branches otherwise).

use alloc::boxed::Box;

use super::value::{alu, common, mov, Value};
use super::{walk_expr, Dest, Lower};
use crate::compile::ast::*;
use crate::compile::ins::{Opcode, Operand};
use crate::compile::ir::Term;
use crate::diag::Span;

/// True when evaluating `e` has no effect and cannot fault, so both arms of `?:` may run.
fn is_pure(e: &Expr) -> bool {
    let mut pure = true;
    walk_expr(e, &mut |x| {
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
    pub(super) fn ternary(&mut self, c: &Expr, a: &Expr, b: &Expr, span: Span) -> Option<Value> {
        if is_pure(a) && is_pure(b) && is_pure(c) {
            // Both arms are cheap and safe: compute both and select, as compilers do.
            let x = self.expr(a)?;
            let y = self.expr(b)?;
            // A pointer arm makes the result a pointer (the other then must be one, or `NULL`).
            let ty = if x.ty == y.ty || x.ty.is_pointer() {
                x.ty
            } else if y.ty.is_pointer() {
                y.ty
            } else {
                common(x.ty, y.ty)
            };
            let x = self.convert(x, ty, span)?;
            let y = self.convert(y, ty, span)?;
            let p = self.pred_of(c)?;
            let t = self.temp_for(ty, span)?;
            if ty.registers() > 1 {
                // A pair or a vector selects word by word.
                let (xr, yr) = (self.in_reg(x, span)?, self.in_reg(y, span)?);
                for k in 0..ty.registers() {
                    self.emit(alu(Opcode::Sel, &[], t + k, &[Operand::r(xr + k), Operand::r(yr + k), Operand::Pred(p)]));
                }
            } else {
                self.emit(alu(Opcode::Sel, &[], t, &[x.operand(), y.operand(), Operand::Pred(p)]));
            }
            self.regs.free_pred(p);
            return Some(Value::reg(t, ty));
        }
        let mut t = self.temp(span)?;
        let (tb, fb, join) = (self.block("sel_true"), self.block("sel_false"), self.block("sel_end"));
        self.cond(c, Dest::Block(tb), Dest::Block(fb));
        self.start(tb);
        // A byte or halfword arm is promoted, as C promotes both arms.
        let x = self.expr(a)?.promoted();
        // A comparison's value is an `int` in C, so a `bool` arm does not make the result one
        // (the other arm would be cut to 0 or 1).
        let ty = if x.ty == Ty::BOOL { Ty::INT } else { x.ty };
        let x = self.convert(x, ty, span)?;
        if ty.registers() > 1 {
            // Known only now: a 64-bit result takes a pair, a vector a row (live until the
            // statement ends).
            t = self.temp_for(ty, span)?;
        }
        self.move_into(t, x, span)?;
        self.jump(Dest::Block(join));
        self.start(fb);
        let y = self.expr_as(b, ty)?;
        self.move_into(t, y, span)?;
        self.start(join);
        Some(Value::reg(t, ty))
    }

    /// A condition as a predicate, without branches (for `SEL`).
    fn pred_of(&mut self, c: &Expr) -> Option<u8> {
        if let ExprKind::Binary(op, a, b) = &c.kind {
            if op.is_comparison() {
                let x = self.expr(a)?;
                let y = self.expr(b)?;
                // A struct's comparison is its operator's call, a `bool`: tested as one below.
                if let (Ty::Struct(_), _) | (_, Ty::Struct(_)) = (x.ty, y.ty) {
                    let v = self.operator_call(op.symbol(), x, Some(y), c.span)?;
                    let v = self.convert(v, Ty::INT, c.span)?;
                    let p = self.regs.pred(c.span, &mut self.diags);
                    self.compare(BinOp::Ne, v, Value::imm(0, v.ty), p, c.span);
                    return Some(p);
                }
                let (x, y) = addresses(x, y, a, b);
                let ty = common(x.ty, y.ty);
                let x = self.convert(x, ty, c.span)?;
                let y = self.convert(y, ty, c.span)?;
                let p = self.regs.pred(c.span, &mut self.diags);
                self.compare(*op, x, y, p, c.span);
                return Some(p);
            }
        }
        let v = self.expr(c)?;
        // A float is true when it is not zero (0.5 and NaN too): compared as a float, not
        // truncated to an integer first; a double through its truth value.
        let v = match v.ty {
            Ty::FLOAT => v,
            Ty::DOUBLE => self.convert(v, Ty::BOOL, c.span)?,
            _ => self.convert(v, Ty::INT, c.span)?,
        };
        let p = self.regs.pred(c.span, &mut self.diags);
        self.compare(BinOp::Ne, v, Value::imm(0, v.ty), p, c.span);
        Some(p)
    }

    /// `!x` as a value.
    pub(super) fn bool_from_branches_or_setp(&mut self, a: &Expr, span: Span) -> Option<Value> {
        if is_pure(a) {
            let p = self.pred_of(a)?;
            let t = self.temp(span)?;
            self.emit(alu(Opcode::Sel, &[], t, &[Operand::RZ, Operand::Int(1), Operand::Pred(p)]));
            self.regs.free_pred(p);
            return Some(Value::reg(t, Ty::BOOL));
        }
        let not = Expr { kind: ExprKind::Unary(UnOp::Not, Box::new(a.clone())), span };
        self.bool_from_branches(&not)
    }

    /// `a && b` as a value: real branches, then 1 or 0.
    pub(super) fn bool_from_branches(&mut self, e: &Expr) -> Option<Value> {
        let t = self.temp(e.span)?;
        let (tb, fb, join) = (self.block("true"), self.block("false"), self.block("bool_end"));
        self.cond(e, Dest::Block(tb), Dest::Block(fb));
        self.start(tb);
        self.emit(mov(t, Operand::Int(1)));
        self.jump(Dest::Block(join));
        self.start(fb);
        self.emit(mov(t, Operand::RZ));
        self.start(join);
        Some(Value::reg(t, Ty::BOOL))
    }

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
            // `while (1)`, `for (;;)`'s C spelling: no branch (so the loop's exit is reached only
            // by a break), as nvcc folds it.
            ExprKind::Int { value, .. } => self.jump(if *value != 0 { t } else { f }),
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
}

/// The two sides of a comparison `a op b` (their values `x`, `y`) with pointers as the addresses
/// they hold, compared unsigned; the literal 0 beside a pointer is the null pointer (`p != NULL`,
/// NULL being 0, and `p == 0`).
pub(super) fn addresses(x: Value, y: Value, a: &Expr, b: &Expr) -> (Value, Value) {
    let null = |e: &Expr| matches!(e.kind, ExprKind::Int { value: 0, .. });
    let (x, y) = match (x.ty.is_pointer(), y.ty.is_pointer()) {
        (true, false) if null(b) => (x, Value::imm(0, x.ty)),
        (false, true) if null(a) => (Value::imm(0, y.ty), y),
        _ => (x, y),
    };
    if x.ty.is_pointer() && y.ty.is_pointer() {
        return (Value { ty: Ty::UNSIGNED, ..x }, Value { ty: Ty::UNSIGNED, ..y });
    }
    (x, y)
}
