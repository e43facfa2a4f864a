//! What a program's host code prints: `printf`, `fprintf(stdout|stderr)`, `puts` and
//! `std::cout << ...` are each one `HOST "printf <format>"` (`eprintf` for stderr) call, its
//! arguments laid out as C's varargs pass them; a `%s` argument is a pointer to a string in
//! host memory, which the host runner reads when it prints. A string literal used as a value is
//! `HOST "string <text>"`: the runner keeps one copy of each text in host memory.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::host::Passed;
use super::value::Value;
use super::Lower;
use crate::compile::ast::*;
use crate::compile::ins::{Operand, Reg};
use crate::diag::{Diagnostic, Span};
use crate::printf::{ArgKind, Spec};

/// A `char*`: what a string value is in host code.
const STRING: Ty = Ty::Ptr(Scalar::Char);

impl Lower<'_> {
    /// `printf(format, args...)` in host code (`stderr` for `fprintf(stderr, ...)`).
    pub(super) fn host_printf(&mut self, args: &[Expr], stderr: bool, span: Span) -> Option<Value> {
        let (text, specs) = self.format_of(args, span)?;
        let rest = &args[1..];
        let mut values = Vec::new();
        for (k, spec) in specs.iter().enumerate() {
            let v = match rest.get(k) {
                None => {
                    let want = spec.conv.c_type(spec.length);
                    self.diags.push(Diagnostic::warning(
                        args[0].span,
                        format!("format `%` expects a matching `{want}` argument: it prints zero"),
                    ));
                    if spec.kind() == ArgKind::Str {
                        self.string_value("", span)?
                    } else {
                        Value::imm(0, Ty::INT)
                    }
                }
                Some(a) if spec.kind() == ArgKind::Str => self.string_arg(a)?,
                Some(a) => {
                    let v = self.expr(a)?;
                    if matches!(v.ty, Ty::Vector(..) | Ty::Struct(_)) {
                        self.error(a.span, format!("`printf` cannot print a `{}`: print its parts", self.ty_name(v.ty)));
                        return None;
                    }
                    self.check(spec, v.ty, k + 2, a.span);
                    v
                }
            };
            values.push(v);
        }
        self.emit_print(&text, &specs, values, stderr, span)
    }

    /// `puts(s)`: `s` and a newline.
    pub(super) fn puts(&mut self, args: &[Expr], span: Span) -> Option<Value> {
        let [s] = args else {
            self.error(span, format!("`puts` takes one argument, found {}", args.len()));
            return None;
        };
        let v = self.string_arg(s)?;
        let specs: Vec<Spec> = crate::printf::Format::new("%s\n", Vec::new()).specs().copied().collect();
        self.emit_print("%s\n", &specs, alloc::vec![v], false, span)
    }

    /// `cout << a << "text" << endl` (`stderr` for `cerr`): each operand printed as `<<` prints
    /// its type (a number as `%d`/`%u`/`%lld`, a float or double as `%g`, a `char` as a
    /// character, a `char*` as a string), literals as they are.
    pub(super) fn stream_out(&mut self, args: &[Expr], stderr: bool, span: Span) -> Option<Value> {
        let mut text = String::new();
        let mut values = Vec::new();
        for a in args {
            if let ExprKind::Str(s) = &a.kind {
                text.push_str(&s.replace('%', "%%"));
                continue;
            }
            let v = self.expr(a)?;
            let directive = match v.ty {
                Ty::Scalar(Scalar::Char | Scalar::UChar) => "%c",
                Ty::Scalar(Scalar::Int | Scalar::Short | Scalar::Bool) => "%d",
                Ty::Scalar(Scalar::Unsigned | Scalar::UShort) => "%u",
                Ty::Scalar(Scalar::Long) => "%lld",
                Ty::Scalar(Scalar::ULong) => "%llu",
                Ty::Scalar(Scalar::Float | Scalar::Double) => "%g",
                STRING => "%s",
                Ty::Ptr(_) | Ty::VecPtr(..) | Ty::StructPtr(_) => "%p",
                Ty::Void | Ty::Vector(..) | Ty::Struct(_) => {
                    self.error(a.span, format!("`<<` cannot print a `{}` here: print its parts", self.ty_name(v.ty)));
                    return None;
                }
            };
            text.push_str(directive);
            values.push(v);
        }
        let specs: Vec<Spec> = crate::printf::Format::new(&text, Vec::new()).specs().copied().collect();
        self.emit_print(&text, &specs, values, stderr, span)
    }

    /// The `HOST "printf"` call: each value passed as its directive reads it.
    fn emit_print(&mut self, text: &str, specs: &[Spec], values: Vec<Value>, stderr: bool, span: Span) -> Option<Value> {
        let mut passed = Vec::new();
        for (spec, v) in specs.iter().zip(values) {
            let p = match spec.kind() {
                ArgKind::Str => v,
                kind => {
                    let Operand::Reg(Reg::R(r)) = self.pass(spec, v, span)? else {
                        self.error(span, "internal compiler error: a `printf` argument is not in a register");
                        return None;
                    };
                    Value::reg(r, if kind == ArgKind::Pair { Ty::ULONG } else { Ty::UNSIGNED })
                }
            };
            passed.push(Passed::Value(p));
        }
        let call = if stderr { "eprintf" } else { "printf" };
        self.emit_host(&format!("{call} {text}"), &passed, Ty::INT, span)
    }

    /// A `%s` argument: a string literal, or a `char*` value.
    fn string_arg(&mut self, a: &Expr) -> Option<Value> {
        let v = self.expr(a)?;
        if !matches!(v.ty, Ty::Ptr(Scalar::Char | Scalar::UChar)) {
            self.error(a.span, format!("`%s` prints a string (a `char*`), not a `{}`", self.ty_name(v.ty)));
            return None;
        }
        Some(v)
    }

    /// A string literal as a value: its copy in host memory.
    pub(super) fn string_value(&mut self, text: &str, span: Span) -> Option<Value> {
        self.emit_host(&format!("string {text}"), &[], STRING, span)
    }
}
