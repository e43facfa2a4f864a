//! `printf(format, args...)`: one `PRINTF` instruction. The format must be a string literal
//! (warpscope formats the text when it is shown, so it must know the format); the arguments are
//! evaluated in order, then copied into consecutive registers as C's varargs pass them: `bool`
//! as `int`, `float` promoted to `double` (a register pair, `F2F.F64.F32`), a pointer as 64 bits.
//! An argument whose type does not match its directive is a warning at the argument, as gcc and
//! nvcc give; it is passed as the directive reads it (its bits, widened or cut).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::value::{alu, mov, Value};
use super::Lower;
use crate::compile::ast::*;
use crate::compile::ins::{Ins, Opcode, Operand};
use crate::diag::{Diagnostic, Span};
use crate::printf::{parse_format, ArgKind, Conv, Length, Spec, MAX_WORDS};

/// How one directive's argument is passed.
enum Arg {
    Str(u16),
    Value(Value),
    /// None given: zeros.
    Missing,
}

impl Lower<'_> {
    pub(super) fn printf(&mut self, args: &[Expr], span: Span) -> Option<Value> {
        if self.host {
            return self.host_printf(args, false, span);
        }
        let (text, specs) = self.format_of(args, span)?;
        let (first, rest) = (&args[0], &args[1..]);
        // Every argument first (one may itself call a function), then the copies.
        let mut passed = Vec::new();
        for (k, spec) in specs.iter().enumerate() {
            let Some(a) = rest.get(k) else {
                let want = spec.conv.c_type(spec.length);
                self.diags.push(Diagnostic::warning(
                    first.span,
                    format!("format `{}` expects a matching `{want}` argument: it prints zero", name(spec)),
                ));
                passed.push(if spec.kind() == ArgKind::Str { Arg::Str(self.string("")) } else { Arg::Missing });
                continue;
            };
            let arg = match (spec.kind(), &a.kind) {
                (ArgKind::Str, ExprKind::Str(s)) => Arg::Str(self.string(s)),
                (ArgKind::Str, _) => {
                    self.error(a.span, "`%s` prints a string literal here: warpscope keeps no strings in memory");
                    return None;
                }
                (_, ExprKind::Str(_)) => {
                    self.error(a.span, format!("a string literal is printed with `%s`, not `{}`", name(spec)));
                    return None;
                }
                _ => {
                    let v = self.expr(a)?;
                    if let Ty::Vector(..) = v.ty {
                        self.error(a.span, format!("`printf` cannot print a `{}`: print its components (`v.x`, `v.y`...)", v.ty.name()));
                        return None;
                    }
                    self.check(spec, v.ty, k + 2, a.span);
                    Arg::Value(v)
                }
            };
            passed.push(arg);
        }
        let mut ins = Ins::new(Opcode::Printf).src(Operand::Str(self.string(&text)));
        for (spec, arg) in specs.iter().zip(passed) {
            let op = match arg {
                Arg::Str(k) => Operand::Str(k),
                Arg::Value(v) => self.pass(spec, v, span)?,
                Arg::Missing => {
                    let r = self.temp(span)?;
                    self.emit(mov(r, Operand::RZ));
                    if spec.kind() == ArgKind::Pair {
                        let hi = self.temp(span)?;
                        self.emit(mov(hi, Operand::RZ));
                    }
                    Operand::r(r)
                }
            };
            ins = ins.src(op);
        }
        self.emit(ins);
        // CUDA's printf returns the number of arguments it read.
        Some(Value::imm(specs.len() as u32, Ty::INT))
    }

    /// `printf`'s format (a string literal) and its directives, after warning where the format
    /// or the argument count is wrong; `None` (with an error) when it cannot be printed.
    pub(super) fn format_of(&mut self, args: &[Expr], span: Span) -> Option<(String, Vec<Spec>)> {
        let Some(first) = args.first() else {
            self.error(span, "`printf` needs a format: `printf(\"x = %d\\n\", x)`");
            return None;
        };
        let ExprKind::Str(text) = &first.kind else {
            self.error(first.span, "`printf`'s format must be a string literal here: warpscope formats the text when it shows it, so it reads the format when it compiles");
            return None;
        };
        let (_, problems) = parse_format(text);
        for p in problems {
            self.diags.push(Diagnostic::warning(first.span, p.message));
        }
        let format = crate::printf::Format::new(text, Vec::new());
        let specs: Vec<Spec> = format.specs().copied().collect();
        let rest = &args[1..];
        if rest.len() > specs.len() {
            let extra = &rest[specs.len()];
            self.diags
                .push(Diagnostic::warning(extra.span, "too many arguments for the format: this one and any after it are not printed"));
        }
        let words: usize = specs.iter().map(|s| s.kind().words()).sum();
        if words > MAX_WORDS {
            self.error(
                span,
                format!(
                    "`printf` passes at most {MAX_WORDS} argument words here (a `%f`, `%ld` or `%p` takes two); this one needs {words}"
                ),
            );
            return None;
        }
        Some((text.clone(), specs))
    }

    /// The function's string `s`, as an operand index.
    pub(super) fn string(&mut self, s: &str) -> u16 {
        let strings = &mut self.func.strings;
        let k = strings.iter().position(|x| x == s).unwrap_or_else(|| {
            strings.push(String::from(s));
            strings.len() - 1
        });
        k.min(u16::MAX as usize) as u16
    }

    /// Warns where an argument's type is not the one its directive reads (gcc's `-Wformat`).
    pub(super) fn check(&mut self, spec: &Spec, ty: Ty, n: usize, span: Span) {
        let fits = match ty {
            // A byte or halfword is promoted to `int` when passed, as C's varargs promote it.
            Ty::Scalar(Scalar::Int | Scalar::Unsigned | Scalar::Bool | Scalar::Char | Scalar::UChar | Scalar::Short | Scalar::UShort) => {
                spec.conv.is_integer() && spec.length != Length::Long
            }
            Ty::Scalar(Scalar::Long | Scalar::ULong) => spec.conv.is_integer() && spec.length == Length::Long,
            Ty::Scalar(Scalar::Float | Scalar::Double) => spec.conv.is_float(),
            Ty::Ptr(_) | Ty::VecPtr(..) | Ty::StructPtr(_) => spec.conv == Conv::Ptr,
            Ty::Void | Ty::Vector(..) | Ty::Struct(_) => false,
        };
        if fits {
            return;
        }
        let promoted = if ty == Ty::FLOAT { " (promoted to `double`)" } else { "" };
        let message = format!(
            "format `{}` expects an argument of type `{}`, but argument {n} has type `{}`{promoted}: it prints the argument's bits read as that type",
            name(spec),
            spec.conv.c_type(spec.length),
            ty.name()
        );
        self.diags.push(Diagnostic::warning(span, message));
    }

    /// Copies a value into fresh consecutive registers as the directive reads it; the first.
    pub(super) fn pass(&mut self, spec: &Spec, v: Value, span: Span) -> Option<Operand> {
        if let Ty::Void = v.ty {
            self.error(span, "a `void` value cannot be printed");
            return None;
        }
        let r = self.temp(span)?;
        if spec.kind() == ArgKind::Word {
            // A 64-bit value read by a 32-bit directive: its low word, as its bits are read.
            let low = if v.ty.wide() { Operand::r(self.in_reg(v, span)?) } else { v.operand() };
            self.emit(mov(r, low));
            return Some(Operand::r(r));
        }
        let hi = self.temp(span)?;
        if v.ty.wide() {
            self.move_into(r, v, span)?;
            return Some(Operand::r(r));
        }
        match (v.ty, v.repr) {
            // A constant: its double's two words (a literal like `1.1` keeps its exact value).
            (Ty::Scalar(Scalar::Float), super::value::Repr::Imm(bits)) if spec.conv.is_float() => {
                let d = v.exact.unwrap_or(f32::from_bits(bits) as f64).to_bits();
                self.emit(mov(r, Operand::Mask(d as u32)));
                self.emit(mov(hi, Operand::Mask((d >> 32) as u32)));
            }
            (Ty::Scalar(Scalar::Float), _) if spec.conv.is_float() => {
                self.emit(alu(Opcode::F2f, &["F64", "F32"], r, &[v.operand()]));
            }
            // A 32-bit value in a 64-bit slot: sign-extended when signed.
            (Ty::Scalar(Scalar::Int), _) => {
                self.emit(mov(r, v.operand()));
                self.emit(alu(Opcode::Shr, &[], hi, &[Operand::r(r), Operand::Int(31)]));
            }
            _ => {
                self.emit(mov(r, v.operand()));
                self.emit(mov(hi, Operand::RZ));
            }
        }
        Some(Operand::r(r))
    }
}

/// The directive as written, without flags, width and precision (`%ld`).
fn name(s: &Spec) -> String {
    let length = match s.length {
        Length::Int => "",
        Length::Char => "hh",
        Length::Short => "h",
        Length::Long => "l",
    };
    let c = match s.conv {
        Conv::Signed => "d",
        Conv::Unsigned => "u",
        Conv::Octal => "o",
        Conv::Hex { upper: false } => "x",
        Conv::Hex { upper: true } => "X",
        Conv::Char => "c",
        Conv::Fixed { upper } => {
            if upper {
                "F"
            } else {
                "f"
            }
        }
        Conv::Exp { upper } => {
            if upper {
                "E"
            } else {
                "e"
            }
        }
        Conv::General { upper } => {
            if upper {
                "G"
            } else {
                "g"
            }
        }
        Conv::Str => "s",
        Conv::Ptr => "p",
    };
    format!("%{length}{c}")
}
