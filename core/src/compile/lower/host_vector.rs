//! `std::vector<T>` in host code. A vector is held as a pointer to its elements in host memory
//! (so `v[i]`, `v.data()` and passing it to `cudaMemcpy` are the pointer's); the host runner
//! keeps each vector's length beside its allocation. Construction, `push_back`, `resize` and
//! the like are `HOST "vector_*"` calls, each given the element's bytes; one that may move the
//! elements returns the new pointer, which is written back to the variable.

use alloc::format;
use alloc::string::String;

use super::host::Passed;
use super::place::Place;
use super::value::Value;
use super::Lower;
use crate::compile::ast::*;
use crate::diag::Span;

impl Lower<'_> {
    /// A vector's declaration: `VECTOR_NEW` with the vector's type first (`()` empty, `(n)`,
    /// `(n, value)` or `(other)`, a copy), or `VECTOR_LIST` with its elements.
    pub(super) fn vector_new(&mut self, list: bool, args: &[Expr], span: Span) -> Option<Value> {
        let Some(Expr { kind: ExprKind::Cast(ty, named), .. }) = args.first() else {
            self.error(span, "internal compiler error: a vector's construction has no type");
            return None;
        };
        let (ty, rest) = (*ty, &args[1..]);
        let (elem, bytes) = self.vector_elem(ty, span)?;
        // The allocation is named and typed after the variable (`h_data: u8`), as cudaMalloc's.
        let name = match (&named.kind, elem) {
            (ExprKind::Str(var), Ty::Scalar(s)) => format!("vector_new {var} {}", crate::input::c::elem_type(s).name()),
            _ => String::from("vector_new"),
        };
        let new = name.as_str();
        let size = |n: u32| Passed::Value(Value::imm(n, Ty::UNSIGNED));
        if list {
            let v = self.emit_host(new, &[size(rest.len() as u32), size(bytes)], ty, span)?;
            let base = self.in_reg(v, span)?;
            for (k, e) in rest.iter().enumerate() {
                let value = self.expr_as(e, elem)?;
                let place = Place::Mem { base, offset: (k as u32 * bytes) as i32, ty: elem, shared: false };
                self.write_place(&place, value, e.span)?;
            }
            return Some(Value::reg(base, ty));
        }
        match rest {
            [] => self.emit_host(new, &[size(0), size(bytes)], ty, span),
            [one] => {
                let v = self.expr(one)?;
                if v.ty.is_pointer() {
                    let v = self.pointer_cast(v, ty, one.span)?;
                    let copy = name.replacen("vector_new", "vector_copy", 1);
                    return self.emit_host(&copy, &[Passed::Value(v), size(bytes)], ty, span);
                }
                let n = self.convert(v, Ty::UNSIGNED, one.span)?;
                self.emit_host(new, &[Passed::Value(n), size(bytes)], ty, span)
            }
            [n, value] => {
                let n = self.size_arg(n)?;
                let value = self.expr_as(value, elem)?;
                if !matches!(elem, Ty::Scalar(_)) {
                    self.error(span, "a vector of structs or CUDA vectors filled with a value is not supported: fill it in a loop");
                    return None;
                }
                let fill = name.replacen("vector_new", "vector_fill", 1);
                self.emit_host(&fill, &[Passed::Value(n), size(bytes), Passed::Value(value)], ty, span)
            }
            _ => {
                self.error(span, format!("a vector is made from at most a size and a value, found {} arguments", rest.len()));
                None
            }
        }
    }

    /// `v.size()`, `v.push_back(x)` and the other members of a vector `obj`.
    pub(super) fn vector_method(&mut self, obj: &Expr, name: &str, args: &[Expr], span: Span) -> Option<Value> {
        let v = self.expr(obj)?;
        let (elem, bytes) = self.vector_elem(v.ty, span)?;
        let size = Passed::Value(Value::imm(bytes, Ty::UNSIGNED));
        let arity = match name {
            "size" | "data" | "empty" | "clear" | "front" | "back" | "pop_back" | "capacity" => 0,
            "push_back" | "emplace_back" | "resize" | "reserve" | "at" => 1,
            "begin" | "end" | "insert" | "erase" | "assign" => {
                self.error(span, format!("`.{name}()` (iterators) is not supported here: index the vector, `v[i]` with `i < v.size()`"));
                return None;
            }
            _ => {
                self.error(span, format!("a vector has no member `{name}` here (it has size, data, empty, clear, front, back, at, push_back, pop_back, resize, reserve)"));
                return None;
            }
        };
        if args.len() != arity {
            self.error(span, format!("`.{name}()` takes {arity} argument(s), found {}", args.len()));
            return None;
        }
        let element = |l: &mut Lower, index: Value| -> Option<Value> {
            let base = l.in_reg(v, span)?;
            let i = l.in_reg(index, span)?;
            let t = l.temp(span)?;
            l.scaled_add(t, i, false, crate::compile::ins::Operand::r(base), bytes as i32);
            l.read_place(&Place::Mem { base: t, offset: 0, ty: elem, shared: false }, span)
        };
        match name {
            "size" | "capacity" => self.emit_host("vector_size", &[Passed::Value(v), size], Ty::UNSIGNED, span),
            "data" => Some(v),
            "empty" => {
                let n = self.emit_host("vector_size", &[Passed::Value(v), size], Ty::UNSIGNED, span)?;
                let zero = Value::imm(0, Ty::UNSIGNED);
                self.binary(BinOp::Eq, n, zero, span)
            }
            "front" => element(self, Value::imm(0, Ty::UNSIGNED)),
            "at" => {
                let i = self.expr_as(&args[0], Ty::UNSIGNED)?;
                element(self, i)
            }
            "back" => {
                let n = self.emit_host("vector_size", &[Passed::Value(v), size], Ty::UNSIGNED, span)?;
                let last = self.binary(BinOp::Sub, n, Value::imm(1, Ty::UNSIGNED), span)?;
                element(self, last)
            }
            "reserve" => {
                self.expr(&args[0])?;
                Some(Value::imm(0, Ty::Void))
            }
            _ => self.vector_change(obj, v, name, args, (elem, bytes), span),
        }
    }

    /// A member that changes the vector's length: the new pointer goes back to `obj`.
    fn vector_change(&mut self, obj: &Expr, v: Value, name: &str, args: &[Expr], (elem, bytes): (Ty, u32), span: Span) -> Option<Value> {
        let Some(place) = self.place(obj) else {
            self.error(obj.span, format!("`.{name}()` changes the vector: call it on a vector variable"));
            return None;
        };
        let size = || Passed::Value(Value::imm(bytes, Ty::UNSIGNED));
        let moved = match name {
            "push_back" | "emplace_back" => {
                let value = self.expr_as(&args[0], elem)?;
                let grown = self.emit_host("vector_push", &[Passed::Value(v), size()], v.ty, span)?;
                let base = self.in_reg(grown, span)?;
                let last = self.emit_host("vector_back", &[Passed::Value(Value::reg(base, v.ty)), size()], v.ty, span)?;
                let at = self.in_reg(last, span)?;
                self.write_place(&Place::Mem { base: at, offset: 0, ty: elem, shared: false }, value, span)?;
                Value::reg(base, v.ty)
            }
            "pop_back" => self.emit_host("vector_pop", &[Passed::Value(v), size()], v.ty, span)?,
            "clear" => {
                self.emit_host("vector_resize", &[Passed::Value(v), Passed::Value(Value::imm(0, Ty::UNSIGNED)), size()], v.ty, span)?
            }
            _ => {
                let n = self.size_arg(&args[0])?;
                self.emit_host("vector_resize", &[Passed::Value(v), Passed::Value(n), size()], v.ty, span)?
            }
        };
        self.write_place(&place, moved, span)?;
        Some(Value::imm(0, Ty::Void))
    }

    /// A vector type's element type and bytes.
    fn vector_elem(&mut self, ty: Ty, span: Span) -> Option<(Ty, u32)> {
        let elem = ty.pointee_ty().filter(|_| ty.is_pointer());
        match elem.and_then(|e| e.size_of().map(|b| (e, b as u32))) {
            Some(found) => Some(found),
            None => {
                self.error(span, format!("a vector's member is called on a `{}`", self.ty_name(ty)));
                None
            }
        }
    }
}

impl Lower<'_> {
    /// Whether `obj` names a vector (a pointer variable: `.` on a pointer means nothing else).
    pub(super) fn is_vector(&self, obj: &Expr) -> bool {
        matches!(&obj.kind, ExprKind::Var(v) if self.lookup(v).is_some_and(|var| var.ty.is_pointer() && var.memory.is_none()))
    }
}
