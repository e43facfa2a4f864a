//! Structs while lowering: a field's place, a value made by a constructor or field by field,
//! member functions called on an object, operators and conversion operators. A member function
//! is a function like any other; its first parameter is the object, copied in, and copied back
//! when the function changes a field (`Param::by_ref`).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::place::Place;
use super::regs::FnSig;
use super::value::Value;
use super::{Lower, Var};
use crate::compile::ast::*;
use crate::compile::structs::{fit, Method};
use crate::diag::Span;

impl Lower<'_> {
    /// A type's name as the file spells it (a struct's own name).
    pub(super) fn ty_name(&self, ty: Ty) -> String {
        self.structs.name_of(ty)
    }

    /// `.name` of a place: a vector's component or a struct's field.
    pub(super) fn member_place(&mut self, whole: Place, name: &str, span: Span) -> Option<Place> {
        let ty = whole.ty();
        match ty {
            Ty::Vector(..) => match component(name) {
                Some(k) => self.component_place(whole, k, span),
                None => {
                    self.error(span, format!("`{}` has the components `.x`, `.y`, `.z`, `.w`, not `.{name}`", ty.name()));
                    None
                }
            },
            Ty::Struct(r) => {
                let Some(f) = self.structs.field(r, name).cloned() else {
                    let fields: Vec<String> =
                        self.structs.def(r).map_or(Vec::new(), |d| d.fields.iter().map(|f| format!("`{}`", f.name)).collect());
                    let has = if fields.is_empty() { String::from("no fields") } else { format!("the fields {}", fields.join(", ")) };
                    self.error(span, format!("`{}` has no field `{name}`: it has {has}", self.ty_name(ty)));
                    return None;
                };
                Some(match whole {
                    Place::Reg(r, _) => Place::Reg(r + f.reg, f.ty),
                    Place::Mem { base, offset, shared, .. } => Place::Mem { base, offset: offset + f.byte as i32, ty: f.ty, shared },
                })
            }
            Ty::StructPtr(_) | Ty::VecPtr(..) | Ty::Ptr(_) => {
                self.error(span, format!("`.{name}` of a pointer (`{}`): write `->{name}`", self.ty_name(ty)));
                None
            }
            _ => {
                self.error(span, format!("`.{name}` needs a vector or a struct, and this is `{}`", self.ty_name(ty)));
                None
            }
        }
    }

    /// In a member function, a field named alone (`r` for `this->r`): its registers in the
    /// object's row.
    pub(super) fn field_of_this(&self, name: &str) -> Option<Var> {
        let this = self.scopes.first()?.iter().find(|(n, _)| n == "this")?.1;
        let Ty::Struct(r) = this.ty else { return None };
        let f = self.structs.field(r, name)?;
        Some(Var { ty: f.ty, reg: this.reg + f.reg, memory: None })
    }

    /// A member function's signature; one not compiled yet is asked for (`needed`), and the
    /// compile lowers again with it.
    fn member_sig(&mut self, func: &str) -> Option<FnSig> {
        if func == self.sig.name {
            let message = format!("`{func}` calls itself: recursion needs a call stack, which this machine does not model");
            self.error(self.sig.span, message);
            return None;
        }
        match self.sigs.get(func) {
            Some(sig) => Some(sig.clone()),
            None => {
                self.needed.push(String::from(func));
                None
            }
        }
    }

    /// A placeholder of type `ty` while the function that makes it is not compiled yet.
    fn pending(&mut self, ty: Ty, span: Span) -> Option<Value> {
        if ty == Ty::Void {
            return Some(Value::imm(0, Ty::Void));
        }
        let t = self.temp_for(ty, span)?;
        Some(Value::reg(t, ty))
    }

    /// `Construct` as a value in a fresh row.
    pub(super) fn construct(&mut self, e: &Expr) -> Option<Value> {
        let ExprKind::Construct { ty, .. } = &e.kind else { return None };
        let t = self.temp_for(*ty, e.span)?;
        self.construct_into(e, t)?;
        Some(Value::reg(t, *ty))
    }

    /// `cuComplex(a, b)` or `Node{1, 2}` written into the row from `r`: its constructor called
    /// on the row, or, for a struct without constructors, its fields given in order (the rest
    /// zero, as C fills an aggregate).
    pub(super) fn construct_into(&mut self, e: &Expr, r: u8) -> Option<()> {
        let ExprKind::Construct { ty, args, braces } = &e.kind else { return None };
        let Ty::Struct(sr) = *ty else {
            self.error(e.span, format!("`{}` is not a struct", self.ty_name(*ty)));
            return None;
        };
        let def = self.structs.def(sr)?;
        let name = def.name.clone();
        if def.ctors.is_empty() {
            let fields = def.fields.clone();
            if args.len() > fields.len() {
                self.error(e.span, format!("`{name}` has {} fields: too many values", fields.len()));
                return None;
            }
            if !*braces && !args.is_empty() {
                self.error(e.span, format!("`{name}` has no constructor: give its fields in braces (`{name}{{...}}`)"));
                return None;
            }
            for (k, f) in fields.iter().enumerate() {
                match args.get(k) {
                    Some(a) => {
                        let v = self.expr_as(a, f.ty)?;
                        self.move_into(r + f.reg, v, a.span)?;
                    }
                    None => self.zero_row(r + f.reg, f.ty),
                }
            }
            return Some(());
        }
        let takes: Vec<String> = def.ctors.iter().map(|c| format!("{}", c.params)).collect();
        let candidates: Vec<Method> = self.structs.ctors(sr, args.len()).into_iter().cloned().collect();
        let typed = if candidates.is_empty() { "" } else { " of these types" };
        let Some((ctor, given)) = self.overload(candidates, args)? else {
            self.error(
                e.span,
                format!(
                    "`{name}` has no constructor taking {} argument(s){typed} (its constructors take {})",
                    args.len(),
                    takes.join(", ")
                ),
            );
            return None;
        };
        let Some(sig) = self.member_sig(&ctor.func) else {
            self.pending(*ty, e.span)?;
            return Some(());
        };
        // The object goes in as whatever the callee's row holds (nothing is read from it) and
        // comes back made. (No `this`: its signature ran out of registers, and said so.)
        let this = Value::reg(sig.params.first()?.1, *ty);
        self.call_chosen(&sig, (this, Some(Place::Reg(r, *ty))), args, given, e.span).map(|_| ())
    }

    /// Which of `candidates` (those the call's argument count fits) a call with `args` calls:
    /// the only one, or of several the one the arguments' types fit best, with the arguments'
    /// values (evaluated to choose). `Some(None)` when none fits.
    fn overload(&mut self, candidates: Vec<Method>, args: &[Expr]) -> Option<Option<(Method, Option<Vec<Value>>)>> {
        if candidates.len() <= 1 {
            return Some(candidates.into_iter().next().map(|m| (m, None)));
        }
        let mut values = Vec::new();
        for a in args {
            values.push(self.expr(a)?);
        }
        let tys: Vec<Ty> = values.iter().map(|v| v.ty).collect();
        let mut best: Option<(u32, Method)> = None;
        for m in candidates {
            if let Some(score) = fit(&m.param_tys, &tys) {
                if best.as_ref().is_none_or(|(b, _)| score > *b) {
                    best = Some((score, m));
                }
            }
        }
        Some(best.map(|(_, m)| (m, Some(values))))
    }

    /// The call of a chosen member function on `this` (its value, and its place to get the
    /// fields back into): with `args` evaluated here, or with the `given` values an overload's
    /// choice evaluated (defaults fill the rest).
    fn call_chosen(
        &mut self,
        sig: &FnSig,
        this: (Value, Option<Place>),
        args: &[Expr],
        given: Option<Vec<Value>>,
        span: Span,
    ) -> Option<Value> {
        let Some(given) = given else { return self.call_args(sig, Some(this), args, span) };
        let (value, place) = this;
        let mut vals = alloc::vec![value];
        for (k, &(pty, _)) in sig.params.iter().enumerate().skip(1) {
            let v = match given.get(k - 1) {
                Some(&v) => v,
                None => {
                    let default = sig.defaults.get(k).cloned().flatten()?;
                    self.expr(&default)?
                }
            };
            vals.push(self.convert(v, pty, span)?);
        }
        let back = match (place, sig.by_ref.first()) {
            (Some(p), Some(true)) => alloc::vec![(0, p)],
            _ => Vec::new(),
        };
        self.call_sig(sig, vals, back, span)
    }

    /// A row of zeros (a field a brace list leaves out, a struct declared without a value).
    pub(super) fn zero_row(&mut self, r: u8, ty: Ty) {
        for k in 0..ty.registers() {
            self.emit(super::value::mov(r + k, crate::compile::ins::Operand::RZ));
        }
    }

    /// A variable of struct type declared without a value: its constructor of no arguments,
    /// when it has constructors, else zeros.
    pub(super) fn default_construct(&mut self, ty: Ty, r: u8, span: Span) {
        let has_ctors = matches!(ty, Ty::Struct(sr) if self.structs.def(sr).is_some_and(|d| !d.ctors.is_empty()));
        if has_ctors {
            let e = Expr { kind: ExprKind::Construct { ty, args: Vec::new(), braces: false }, span };
            self.construct_into(&e, r);
        } else {
            self.zero_row(r, ty);
        }
    }

    /// `obj.name(args)`: the object by its place when it has one (a variable, `p[i]`, a
    /// field), so a member function that changes it changes the object.
    pub(super) fn method_call(&mut self, obj: &Expr, name: &str, args: &[Expr], span: Span) -> Option<Value> {
        let place = match obj.kind {
            ExprKind::Var(_) | ExprKind::Index(..) | ExprKind::Deref(_) | ExprKind::Member(..) => Some(self.place(obj)?),
            _ => None,
        };
        let this = match &place {
            Some(p) => self.read_place(p, obj.span)?,
            None => self.expr(obj)?,
        };
        let Ty::Struct(sr) = this.ty else {
            self.error(span, format!("`.{name}()` calls a member function of a struct, and this is `{}`", self.ty_name(this.ty)));
            return None;
        };
        let candidates: Vec<Method> = self.structs.methods(sr, name, args.len()).into_iter().cloned().collect();
        let typed = if candidates.is_empty() { "" } else { " of these types" };
        let Some((m, given)) = self.overload(candidates, args)? else {
            let sname = self.ty_name(this.ty);
            let known: Vec<String> = self
                .structs
                .def(sr)
                .map_or(Vec::new(), |d| d.methods.iter().filter(|m| m.converts_to.is_none()).map(|m| format!("`{}`", m.name)).collect());
            let has = if known.is_empty() { String::from("none") } else { known.join(", ") };
            self.error(
                span,
                format!("`{sname}` has no `__device__` member function `{name}` taking {} argument(s){typed} (it has {has})", args.len()),
            );
            return None;
        };
        let Some(sig) = self.member_sig(&m.func) else { return self.pending(m.ret, span) };
        self.call_chosen(&sig, (this, place), args, given, span)
    }

    /// A call of the member function `name` of the object `this`, from inside another one
    /// (`magnitude2()` in `cuComplex::operator<`); `None` when there is no such member.
    pub(super) fn sibling_call(&mut self, name: &str, args: &[Expr], span: Span) -> Option<Option<Value>> {
        let this = self.scopes.first()?.iter().find(|(n, _)| n == "this")?.1;
        let Ty::Struct(sr) = this.ty else { return None };
        self.structs.method(sr, name, args.len())?;
        let obj = Expr { kind: ExprKind::Var(String::from("this")), span };
        Some(self.method_call(&obj, name, args, span))
    }

    /// `x op y` where an operand is a struct: the member `operator op` of `x` or the free one
    /// the operands' types fit best (a member first where they fit as well).
    pub(super) fn operator_call(&mut self, symbol: &str, x: Value, y: Option<Value>, span: Span) -> Option<Value> {
        let name = format!("operator{symbol}");
        let operands: Vec<Ty> = core::iter::once(x.ty).chain(y.map(|v| v.ty)).collect();
        let mut best: Option<(u32, String)> = None;
        let mut consider = |score: Option<u32>, func: &str| {
            if let Some(score) = score.filter(|s| best.as_ref().is_none_or(|(b, _)| s > b)) {
                best = Some((score, String::from(func)));
            }
        };
        if let Ty::Struct(sr) = x.ty {
            for m in self.structs.methods(sr, &name, operands.len() - 1) {
                // `this` fits exactly.
                consider(fit(&m.param_tys, &operands[1..]).map(|s| s + 2), &m.func);
            }
        }
        for (func, params) in self.structs.free_operators(&name, operands.len()) {
            consider(fit(params, &operands), func);
        }
        let Some((_, func)) = best else {
            let names: Vec<String> = operands.iter().map(|t| format!("`{}`", self.ty_name(*t))).collect();
            self.error(
                span,
                format!("no `{name}` for {}: define it (`__device__ ... {name}(...)`) in the struct or the file", names.join(" and ")),
            );
            return None;
        };
        let Some(sig) = self.member_sig(&func) else { return self.pending(x.ty, span) };
        let mut vals = Vec::new();
        for (v, (pty, _)) in core::iter::once(x).chain(y).zip(&sig.params) {
            vals.push(self.convert(v, *pty, span)?);
        }
        self.call_sig(&sig, vals, Vec::new(), span)
    }

    /// A struct converted to another type: its conversion operator (`operator float*()`).
    pub(super) fn struct_convert(&mut self, v: Value, to: Ty, span: Span) -> Option<Value> {
        if let Ty::Struct(sr) = v.ty {
            if let Some(m) = self.structs.conversion(sr, to).cloned() {
                let Some(sig) = self.member_sig(&m.func) else { return self.pending(to, span) };
                return self.call_sig(&sig, alloc::vec![v], Vec::new(), span);
            }
        }
        self.error(span, format!("cannot convert `{}` to `{}`", self.ty_name(v.ty), self.ty_name(to)));
        None
    }

    /// `a op= b` of a struct at `place` (`a`, found once): its `operator op=`, called on it;
    /// else `a = a op b`.
    pub(super) fn struct_compound(&mut self, op: BinOp, place: Place, rhs: &Expr, span: Span) -> Option<Value> {
        let ty = place.ty();
        let Ty::Struct(sr) = ty else { return None };
        let name = format!("operator{}=", op.symbol());
        let old = self.read_place(&place, span)?;
        if let Some(m) = self.structs.method(sr, &name, 1).cloned() {
            let Some(sig) = self.member_sig(&m.func) else { return self.pending(ty, span) };
            self.call_args(&sig, Some((old, Some(place))), core::slice::from_ref(rhs), span)?;
            return self.read_place(&place, span);
        }
        let r = self.expr(rhs)?;
        let v = self.operator_call(op.symbol(), old, Some(r), span)?;
        self.write_place(&place, v, span)
    }
}
