//! Expressions: the dispatch from syntax to the lowering of each kind, and expression
//! statements. Values and conversions are in `value`, operators in `arith`, memory and
//! assignment in `place`, calls and built-ins in `call`, conditions and `?:` in `cond`.

use alloc::format;

use super::place::Place;
use super::value::Value;
use super::{Lower, Var};
use crate::compile::ast::*;
use crate::diag::Diagnostic;

impl Lower<'_> {
    /// Evaluates an expression statement for its effects.
    pub fn expr_effect(&mut self, e: &Expr) {
        match &e.kind {
            // `i++;` needs no copy of the old value.
            ExprKind::IncDec { inc, target, .. } => {
                self.inc_dec(*inc, true, target, e.span);
            }
            ExprKind::Assign { .. } | ExprKind::Call { .. } | ExprKind::Method { .. } => {
                self.expr(e);
            }
            _ => {
                self.diags.push(Diagnostic::warning(e.span, "this expression has no effect"));
                self.expr(e);
            }
        }
    }

    pub fn expr(&mut self, e: &Expr) -> Option<Value> {
        let span = e.span;
        match &e.kind {
            ExprKind::Int { value, unsigned } => Some(Value::imm(*value as u32, if *unsigned { Ty::UNSIGNED } else { Ty::INT })),
            // A float where it meets floats; its exact value where it meets a double.
            ExprKind::Float(f) => Some(Value { exact: Some(*f), ..Value::imm((*f as f32).to_bits(), Ty::FLOAT) }),
            ExprKind::Bool(b) => Some(Value::imm(*b as u32, Ty::BOOL)),
            ExprKind::Special(s) => self.specials[s.index()].map(|r| Value::reg(r, Ty::UNSIGNED)),
            ExprKind::Var(name) => match self.lookup(name) {
                // A scalar in memory is loaded; an array reads as its address.
                Some(Var { memory: Some(k), .. }) if self.arrays[k].dims.is_empty() => self.load(e),
                Some(v) => Some(Value::reg(v.reg, v.ty)),
                None if self.host && super::host::host_constant(name).is_some() => {
                    super::host::host_constant(name).map(|n| Value::imm(n, Ty::INT))
                }
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
                let (x, y) = if op.is_comparison() { super::cond::addresses(x, y, a, b) } else { (x, y) };
                self.binary(*op, x, y, span)
            }
            ExprKind::Logical { .. } => self.bool_from_branches(e),
            ExprKind::Ternary(c, a, b) => self.ternary(c, a, b, span),
            ExprKind::Assign { op, lhs, rhs } => self.assign(*op, lhs, rhs, span),
            ExprKind::IncDec { inc, prefix, target } => self.inc_dec(*inc, *prefix, target, span),
            ExprKind::Index(..) | ExprKind::Deref(_) => self.load(e),
            // A component of a variable or of memory reads only it; of a computed vector
            // (`make_float2(a, b).y`), its register.
            ExprKind::Member(whole, name) => match whole.kind {
                ExprKind::Var(_) | ExprKind::Index(..) | ExprKind::Deref(_) | ExprKind::Member(..) => self.load(e),
                _ => {
                    let v = self.expr(whole)?;
                    let r = self.in_reg(v, whole.span)?;
                    let member = self.member_place(Place::Reg(r, v.ty), name, span)?;
                    self.read_place(&member, span)
                }
            },
            ExprKind::Method(m) if self.host && self.is_vector(&m.obj) => self.vector_method(&m.obj, &m.name, &m.args, span),
            ExprKind::Method(m) => self.method_call(&m.obj, &m.name, &m.args, span),
            ExprKind::Construct { .. } => self.construct(e),
            ExprKind::AddrOf(inner) => self.address_of(inner, span),
            ExprKind::Call { name, args } => self.call(name, args, span),
            // A `long long` literal keeps all 64 bits.
            ExprKind::Cast(ty, inner) if ty.wide() && matches!(inner.kind, ExprKind::Int { .. }) => {
                let ExprKind::Int { value, .. } = inner.kind else { return None };
                let bits = if *ty == Ty::DOUBLE { (value as f64).to_bits() } else { value };
                self.wide_const(bits, *ty, span)
            }
            ExprKind::Str(text) if self.host => self.string_value(text, span),
            ExprKind::Str(_) => {
                self.error(span, "a string literal can only be `printf`'s format or an argument of its `%s`");
                None
            }
            ExprKind::Cast(ty, inner) => {
                let mut v = self.expr(inner)?;
                if *ty == Ty::FLOAT {
                    // A float stays a float beside a double literal's rules (`0.5f`, `(float)x`).
                    v.exact = None;
                }
                if v.ty.is_pointer() || ty.is_pointer() {
                    return self.pointer_cast(v, *ty, span);
                }
                self.convert(v, *ty, span)
            }
        }
    }
}
