//! Expressions on kernel header lines, e.g. `//@ reg R5 = t < 32 - n ? 32 : 32 - (t - (31 - n))`.
//!
//! A small C-like language evaluated once per lane (`t`) or buffer element (`i`): integers and
//! floats with C promotion, C precedence, short-circuit `&&`/`||` and `?:`, and a few functions.
//! It is read by the compiler's lexer and parser (`compile::lex`, `compile::parse` in their
//! header dialect) into the compiler's syntax tree (`compile::ast`), and evaluated here with
//! 64-bit values. Parsing does not resolve names, so one parsed tree serves every lane;
//! [`Expr::free_vars`] lets the caller reject unknown names up front. Errors carry byte spans
//! into the expression's text. No input makes this panic: the parser bounds nesting and tree
//! height (`MAX_DEPTH`), so neither parsing nor evaluation (nor dropping the tree) can overflow
//! the stack.

use alloc::{format, string::String, string::ToString, vec::Vec};
use core::fmt;

use crate::compile::ast::{self, BinOp, ExprKind, Infix, UnOp};
use crate::compile::lex::{lex_dialect, Dialect, Tok};
use crate::compile::parse::Parser;
use crate::diag::Span;

/// Deepest nesting and tallest tree accepted (the compiler's limit).
pub use crate::compile::parse::MAX_DEPTH;

/// A value: C-like, an operation with any float operand is done in floats.
#[derive(Clone, Copy, PartialEq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(untagged))]
pub enum Value {
    Int(i64),
    Float(f64),
}

impl From<i64> for Value {
    fn from(v: i64) -> Value {
        Value::Int(v)
    }
}

impl Value {
    /// Integer view; floats truncate toward zero (saturating, NaN gives 0, as Rust's `as` does).
    pub fn as_i64(self) -> i64 {
        match self {
            Value::Int(v) => v,
            Value::Float(f) => f as i64,
        }
    }
    pub fn as_f64(self) -> f64 {
        match self {
            Value::Int(v) => v as f64,
            Value::Float(f) => f,
        }
    }
    /// The 32-bit pattern a register holds: ints wrap to two's complement, floats become `f32` bits.
    pub fn to_bits_u32(self) -> u32 {
        match self {
            Value::Int(v) => v as u32,
            Value::Float(f) => (f as f32).to_bits(),
        }
    }
    pub fn is_float(self) -> bool {
        matches!(self, Value::Float(_))
    }
    /// C truth: nonzero.
    fn truthy(self) -> bool {
        match self {
            Value::Int(v) => v != 0,
            Value::Float(f) => f != 0.0,
        }
    }
}

/// Where evaluation finds names (lane index, width, params, ...); `None` means unknown.
pub trait Env {
    fn lookup(&self, name: &str) -> Option<Value>;
}

/// An environment that is just a list of names and values.
#[derive(Clone, Copy, Debug)]
pub struct VarEnv<'a> {
    pub vars: &'a [(&'a str, Value)],
}

impl Env for VarEnv<'_> {
    fn lookup(&self, name: &str) -> Option<Value> {
        self.vars.iter().find(|(n, _)| *n == name).map(|&(_, v)| v)
    }
}

/// A parse or evaluation error; `offset`/`len` are bytes into the parsed source, on char boundaries.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ExprError {
    pub offset: usize,
    pub len: usize,
    pub message: String,
}

impl fmt::Display for ExprError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

fn error(offset: usize, len: usize, message: impl Into<String>) -> ExprError {
    ExprError { offset, len, message: message.into() }
}

/// The bytes of `src` a parser span (line, column and length in characters) covers; a span
/// past the end (the end of input) is empty.
fn byte_range(src: &str, span: Span) -> (usize, usize) {
    let line_start: usize = src.split_inclusive('\n').take(span.line.saturating_sub(1) as usize).map(str::len).sum();
    let line = &src[line_start..];
    let col = span.col.saturating_sub(1) as usize;
    let start = line_start + line.char_indices().nth(col).map_or(line.len(), |(b, _)| b);
    let len = src[start..].chars().take(span.len as usize).map(char::len_utf8).sum();
    (start, len)
}

fn located(src: &str, span: Span, message: impl Into<String>) -> ExprError {
    let (offset, len) = byte_range(src, span);
    error(offset, len, message)
}

/// The header's functions and their arities.
const FUNCS: [(&str, usize); 5] = [("min", 2), ("max", 2), ("abs", 1), ("float", 1), ("int", 1)];

/// A parsed expression: the compiler's syntax tree and the text it was read from, which
/// locates evaluation errors.
#[derive(Clone, PartialEq, Debug)]
pub struct Expr {
    tree: ast::Expr,
    src: String,
}

/// Parses a whole expression; names are left unresolved (see [`Expr::free_vars`]).
pub fn parse_expr(src: &str) -> Result<Expr, ExprError> {
    let (toks, diags) = lex_dialect(src, Dialect::Header);
    if let Some(d) = diags.first() {
        return Err(located(src, d.span, d.message.as_str()));
    }
    if toks.len() == 1 {
        return Err(error(0, src.len(), "empty expression"));
    }
    let mut p = Parser::header(&toks, src);
    let tree = p.bare_expr().map_err(|d| located(src, d.span, d.message))?;
    let next = p.next_token();
    match next.tok {
        Tok::Eof => {}
        Tok::Punct(")") => return Err(located(src, next.span, "unexpected `)`")),
        _ => {
            let (offset, _) = byte_range(src, next.span);
            let rest = src[offset..].trim_end();
            return Err(error(offset, rest.len(), format!("trailing input `{rest}`")));
        }
    }
    check_calls(&tree, src)?;
    Ok(Expr { tree, src: src.to_string() })
}

/// Every call names a header function with its number of arguments (inner calls first, as
/// they close first).
fn check_calls(e: &ast::Expr, src: &str) -> Result<(), ExprError> {
    if let ExprKind::Call { name, args } = &e.kind {
        let Some(&(_, arity)) = FUNCS.iter().find(|f| f.0 == name) else {
            let (offset, _) = byte_range(src, e.span);
            return Err(error(offset, name.len(), format!("unknown function `{name}` (known: min, max, abs, float, int)")));
        };
        args.iter().try_for_each(|a| check_calls(a, src))?;
        if args.len() != arity {
            let s = if arity == 1 { "" } else { "s" };
            return Err(located(src, e.span, format!("`{name}` takes {arity} argument{s}, got {}", args.len())));
        }
        return Ok(());
    }
    children(e).try_for_each(|c| check_calls(c, src))
}

/// The operands of a node of the header language, left to right.
fn children(e: &ast::Expr) -> impl Iterator<Item = &ast::Expr> {
    let (one, two, three): (Option<&ast::Expr>, Option<&ast::Expr>, Option<&ast::Expr>) = match &e.kind {
        ExprKind::Unary(_, a) => (Some(a), None, None),
        ExprKind::Binary(_, a, b) | ExprKind::Logical { lhs: a, rhs: b, .. } => (Some(a), Some(b), None),
        ExprKind::Ternary(c, a, b) => (Some(c), Some(a), Some(b)),
        _ => (None, None, None),
    };
    let args = match &e.kind {
        ExprKind::Call { args, .. } => &args[..],
        _ => &[],
    };
    one.into_iter().chain(two).chain(three).chain(args)
}

impl Expr {
    /// Evaluates with names from `env`. Only the taken branch of `?:` and the needed side of
    /// `&&`/`||` run, so `t < n ? x / t : 0` is safe; unlike C, a `?:` result keeps its branch's type.
    pub fn eval(&self, env: &dyn Env) -> Result<Value, ExprError> {
        self.eval_node(&self.tree, env)
    }

    fn eval_node(&self, e: &ast::Expr, env: &dyn Env) -> Result<Value, ExprError> {
        use Value::{Float as F, Int as I};
        let at = |message: String| located(&self.src, e.span, message);
        Ok(match &e.kind {
            ExprKind::Int { value, .. } => I(*value as i64),
            ExprKind::Float(v) => F(*v),
            ExprKind::Var(n) => env.lookup(n).ok_or_else(|| at(format!("unknown name `{n}`")))?,
            ExprKind::Unary(op, a) => match (op, self.eval_node(a, env)?) {
                (UnOp::Neg, I(v)) => I(v.wrapping_neg()),
                (UnOp::Neg, F(v)) => F(-v),
                (UnOp::Not, v) => I(!v.truthy() as i64),
                (UnOp::BitNot, I(v)) => I(!v),
                (UnOp::BitNot, F(_)) => return Err(at("`~` needs an integer operand, got a float".into())),
            },
            ExprKind::Logical { and, lhs, rhs } => {
                let l = self.eval_node(lhs, env)?.truthy();
                I((if l == *and { self.eval_node(rhs, env)?.truthy() } else { l }) as i64)
            }
            ExprKind::Binary(op, a, b) => {
                let (x, y) = (self.eval_node(a, env)?, self.eval_node(b, env)?);
                binary(*op, x, y).map_err(|m| self.at_operator(a, *op, m))?
            }
            ExprKind::Ternary(c, a, b) => self.eval_node(if self.eval_node(c, env)?.truthy() { a } else { b }, env)?,
            ExprKind::Call { name, args } => {
                let vals = args.iter().map(|a| self.eval_node(a, env)).collect::<Result<Vec<_>, _>>()?;
                let (x, y) = (vals.first().map_or(0.0, |v| v.as_f64()), vals.get(1).map_or(0.0, |v| v.as_f64()));
                match (name.as_str(), &vals[..]) {
                    ("min", &[I(l), I(r)]) => I(l.min(r)),
                    ("max", &[I(l), I(r)]) => I(l.max(r)),
                    ("min", &[_, _]) => F(if y < x { y } else { x }),
                    ("max", &[_, _]) => F(if y > x { y } else { x }),
                    ("abs", &[I(v)]) => I(v.wrapping_abs()),
                    ("abs", &[F(v)]) => F(f64::from_bits(v.to_bits() & !(1 << 63))),
                    ("float", &[v]) => F(v.as_f64()),
                    ("int", &[I(v)]) => I(v),
                    // The range check also rejects NaN and the infinities, where `as` would saturate silently.
                    ("int", &[F(v)]) if (i64::MIN as f64..-(i64::MIN as f64)).contains(&v) => I(v as i64),
                    ("int", &[F(v)]) => return Err(at(format!("`int` of {v:?} does not fit a 64-bit integer"))),
                    _ => return Err(at(format!("`{name}` got {} arguments", vals.len()))),
                }
            }
            // The header dialect parses nothing else.
            _ => return Err(at("not part of header expressions".into())),
        })
    }

    /// An error at the operator written after `lhs` (`division by zero` points at the `/`).
    fn at_operator(&self, lhs: &ast::Expr, op: BinOp, message: String) -> ExprError {
        let (start, len) = byte_range(&self.src, lhs.span);
        let end = start + len;
        let offset = end + (self.src[end..].len() - self.src[end..].trim_start().len());
        error(offset, op.symbol().len(), message)
    }

    /// Every name the expression uses, sorted and without repeats, for checking before evaluation.
    pub fn free_vars(&self) -> Vec<String> {
        fn walk(e: &ast::Expr, out: &mut Vec<String>) {
            if let ExprKind::Var(n) = &e.kind {
                out.push(n.clone());
            }
            children(e).for_each(|c| walk(c, out));
        }
        let mut out = Vec::new();
        walk(&self.tree, &mut out);
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// One binary operation on evaluated operands; integer arithmetic wraps, shift counts are taken mod 64.
#[rustfmt::skip]
fn binary(op: BinOp, x: Value, y: Value) -> Result<Value, String> {
    use BinOp::*;
    use Value::{Float as F, Int as I};
    let b = |c: bool| I(c as i64);
    if let (I(l), I(r)) = (x, y) {
        if matches!(op, Div | Rem) && r == 0 { return Err("division by zero".into()); }
        return Ok(match op {
            Add => I(l.wrapping_add(r)), Sub => I(l.wrapping_sub(r)), Mul => I(l.wrapping_mul(r)),
            Div => I(l.wrapping_div(r)), Rem => I(l.wrapping_rem(r)),
            Shl => I(l.wrapping_shl(r as u32)), Shr => I(l.wrapping_shr(r as u32)),
            BitAnd => I(l & r), BitOr => I(l | r), BitXor => I(l ^ r),
            Eq => b(l == r), Ne => b(l != r), Lt => b(l < r), Le => b(l <= r), Gt => b(l > r), Ge => b(l >= r),
        });
    }
    // Float arithmetic follows IEEE (so `1.0 / 0` is infinity), as the GPU's does.
    let (l, r) = (x.as_f64(), y.as_f64());
    Ok(match op {
        Add => F(l + r), Sub => F(l - r), Mul => F(l * r), Div => F(l / r),
        Eq => b(l == r), Ne => b(l != r), Lt => b(l < r), Le => b(l <= r), Gt => b(l > r), Ge => b(l >= r),
        Rem | Shl | Shr | BitAnd | BitOr | BitXor => return Err(format!("`{}` needs integer operands, got a float", op.symbol())),
    })
}

const UNARY_PREC: u8 = 11;
const ATOM_PREC: u8 = 12;

/// Binding strength, for printing only the parentheses needed.
fn prec(e: &ast::Expr) -> u8 {
    match &e.kind {
        ExprKind::Ternary(..) => 0,
        ExprKind::Binary(op, ..) => op.prec(),
        ExprKind::Logical { and, .. } => Infix::Logical { and: *and }.prec(),
        ExprKind::Unary(..) => UNARY_PREC,
        _ => ATOM_PREC,
    }
}

fn unary_symbol(op: UnOp) -> &'static str {
    match op {
        UnOp::Neg => "-",
        UnOp::Not => "!",
        UnOp::BitNot => "~",
    }
}

/// Prints a tree; an operand is parenthesized if it binds more loosely than its place requires.
struct Show<'a>(&'a ast::Expr, u8);

impl fmt::Display for Show<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Show(e, place) = *self;
        if prec(e) < place {
            return write!(f, "({})", Show(e, 0));
        }
        match &e.kind {
            // Negative ints only come from hex bit patterns; hex keeps them re-parseable.
            ExprKind::Int { value, .. } if (*value as i64) < 0 => write!(f, "{value:#x}"),
            ExprKind::Int { value, .. } => write!(f, "{value}"),
            ExprKind::Float(v) => write!(f, "{v:?}"),
            ExprKind::Var(n) => f.write_str(n),
            ExprKind::Unary(op, a) => write!(f, "{}{}", unary_symbol(*op), Show(a, UNARY_PREC)),
            ExprKind::Binary(_, a, b) | ExprKind::Logical { lhs: a, rhs: b, .. } => {
                let p = prec(e);
                let symbol = match &e.kind {
                    ExprKind::Binary(op, ..) => op.symbol(),
                    ExprKind::Logical { and, .. } => Infix::Logical { and: *and }.symbol(),
                    _ => "?",
                };
                write!(f, "{} {symbol} {}", Show(a, p), Show(b, p + 1))
            }
            ExprKind::Ternary(c, a, b) => write!(f, "{} ? {} : {}", Show(c, 1), Show(a, 0), Show(b, 0)),
            ExprKind::Call { name, args } => {
                write!(f, "{name}(")?;
                for (k, a) in args.iter().enumerate() {
                    write!(f, "{}{}", if k > 0 { ", " } else { "" }, Show(a, 0))?;
                }
                f.write_str(")")
            }
            // The header dialect parses nothing else.
            _ => f.write_str("?"),
        }
    }
}

/// A normalized form with only the parentheses precedence needs; it parses back to the same tree.
impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", Show(&self.tree, 0))
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use proptest::prelude::*;
    use Value::{Float as F, Int as I};

    fn eval_with(src: &str, vars: &[(&str, Value)]) -> Result<Value, ExprError> {
        parse_expr(src)?.eval(&VarEnv { vars })
    }
    fn ev(src: &str) -> Value {
        eval_with(src, &[("t", I(3)), ("n", I(2))]).unwrap_or_else(|e| panic!("{src}: {e:?}"))
    }

    #[test]
    fn table_one_expression() {
        let e = parse_expr("t < 32 - n ? 32 : 32 - (t - (31 - n))").unwrap();
        let at = |t| e.eval(&VarEnv { vars: &[("t", I(t)), ("n", I(2))] }).unwrap();
        assert_eq!([at(0), at(29), at(30), at(31)], [I(32), I(32), I(31), I(30)]);
        assert_eq!(e.free_vars(), ["n", "t"]);
    }

    #[test]
    fn precedence_and_integer_ops() {
        for (src, want) in [
            ("1 + 2 * 3", 7),
            ("(1 + 2) * 3", 9),
            ("10 - 4 - 3", 3),
            ("100 / 10 / 5", 2),
            ("1 << 2 + 1", 8),
            ("1 | 2 ^ 3 & 1", 3),
            ("1 < 2 == 1", 1),
            ("5 & 3 == 3", 1),
            ("2 + 3 > 4 && 0 || 1", 1),
            ("-2 * 3", -6),
            ("- -t", 3),
            ("~0", -1),
            ("!5", 0),
            ("!0.0", 1),
            ("7 % 3", 1),
            ("-7 / 2", -3),
            ("-7 % 2", -1),
            ("1 << 65", 2),
            ("-8 >> 1", -4),
            ("0x10 + 0XfF", 271),
            ("0xffffffffffffffff", -1),
            ("9223372036854775807 + 1", i64::MIN),
            ("(-9223372036854775807 - 1) / -1", i64::MIN),
            ("(-9223372036854775807 - 1) % -1", 0),
            ("min(t, n) + max(t, n) * 10", 32),
            ("abs(-4)", 4),
            ("int(2.9) + int(-2.9)", 0),
        ] {
            assert_eq!(ev(src), I(want), "{src}");
        }
    }

    #[test]
    fn short_circuit_skips_errors() {
        assert_eq!([ev("0 && 1/0"), ev("1 || 1/0"), ev("0 ? 1/0 : 5"), ev("2 && 7")], [I(0), I(1), I(5), I(1)]);
        assert_eq!(eval_with("1 && 1/0", &[]), Err(ExprError { offset: 6, len: 1, message: "division by zero".into() }));
    }

    #[test]
    fn ternary_nests_right() {
        let e = parse_expr("t < 10 ? 0 : t < 20 ? 1 : 2").unwrap();
        let at = |t| e.eval(&VarEnv { vars: &[("t", I(t))] }).unwrap();
        assert_eq!([at(5), at(15), at(25)], [I(0), I(1), I(2)]);
        assert_eq!([ev("1 ? 2 ? 3 : 4 : 5"), ev("(0 ? 1 : 0) ? 7 : 8"), ev("0 ? 1 : 0 ? 7 : 8")], [I(3), I(8), I(8)]);
    }

    #[test]
    fn floats_promote() {
        for (src, want) in [
            ("0.5 * t", F(1.5)),
            ("1 + 2.0f", F(3.0)),
            ("7 / 2.0", F(3.5)),
            (".5 + 1e-3", F(0.501)),
            ("1.5E1 - 5.", F(10.0)),
            ("float(3)", F(3.0)),
            ("min(2, 1.5)", F(1.5)),
            ("max(2.5, 3)", F(3.0)),
            ("abs(-0.5)", F(0.5)),
            ("1.0 / 0", F(f64::INFINITY)),
            ("7 / 2", I(3)),
            ("1 < 1.5", I(1)),
            ("1 ? 2 : 3.0", I(2)),
        ] {
            assert_eq!(ev(src), want, "{src}");
        }
        assert_eq!([F(1.0).to_bits_u32(), I(-1).to_bits_u32(), F(-2.0).to_bits_u32()], [0x3f80_0000, 0xffff_ffff, 0xc000_0000]);
        assert_eq!((F(-2.7).as_i64(), I(3).as_f64(), F(0.0).is_float(), I(0).is_float()), (-2, 3.0, true, false));
    }

    #[test]
    fn errors_are_located() {
        for (src, offset, len, msg) in [
            ("1 / (t - t)", 2, 1, "division by zero"),
            ("7 % (2 - 2)", 2, 1, "division by zero"),
            ("t + m", 4, 1, "unknown name `m`"),
            ("1 + (m)", 4, 3, "unknown name `m`"),
            ("2 * (1 + 2", 4, 1, "this `(` is never closed: expected `)` before the end of the expression"),
            ("min(1 2)", 3, 1, "this `(` is never closed: expected `)` before `2`"),
            ("1 ? 2", 2, 1, "this `?` has no `:`: expected `:` before the end of the expression"),
            ("1 ] 2", 2, 1, "unexpected `]`"),
            ("1 + é", 4, 2, "unexpected `é`"),
            ("1 + )", 4, 1, "unexpected `)`"),
            ("(1))", 3, 1, "unexpected `)`"),
            ("1 +", 3, 0, "unexpected end of expression"),
            ("sqrt(2)", 0, 4, "unknown function `sqrt` (known: min, max, abs, float, int)"),
            ("1 + min(1)", 4, 6, "`min` takes 2 arguments, got 1"),
            ("abs()", 0, 5, "`abs` takes 1 argument, got 0"),
            ("  ", 0, 2, "empty expression"),
            ("1 + 2 xyz ", 6, 3, "trailing input `xyz`"),
            ("0x + 1", 0, 2, "invalid number `0x`"),
            ("12ab", 0, 4, "invalid number `12ab`"),
            ("99999999999999999999", 0, 20, "integer literal `99999999999999999999` is too large"),
            ("1e999", 0, 5, "float literal `1e999` is out of range"),
            ("1 % 2.0", 2, 1, "`%` needs integer operands, got a float"),
            ("~1.5", 0, 4, "`~` needs an integer operand, got a float"),
            ("int(1e300)", 0, 10, "`int` of 1e300 does not fit a 64-bit integer"),
            ("int(0.0 / 0)", 0, 12, "`int` of NaN does not fit a 64-bit integer"),
        ] {
            let got = eval_with(src, &[("t", I(1))]).expect_err(src);
            assert_eq!((got.offset, got.len, got.message.as_str()), (offset, len, msg), "{src}");
        }
    }

    #[test]
    fn free_vars_are_sorted_and_unique() {
        assert_eq!(parse_expr("min(b_2, a) ? W : b_2 + float(x)").unwrap().free_vars(), ["W", "a", "b_2", "x"]);
        assert!(parse_expr("1 + 2").unwrap().free_vars().is_empty());
    }

    #[test]
    fn deep_input_is_an_error_not_a_crash() {
        let deep = |open: &str, mid: &str, close: &str, n| format!("{}{mid}{}", open.repeat(n), close.repeat(n));
        assert_eq!(ev(&deep("(", "1", ")", 150)), I(1));
        for src in [
            deep("(", "1", ")", 300),
            deep("(", "1", "", 100_000),
            deep("-", "1", "", 100_000),
            deep("1+", "1", "", 100_000),
            deep("min(1,", "1", ")", 300),
            deep("1?2:", "3", "", 5000),
        ] {
            assert_eq!(parse_expr(&src).unwrap_err().message, "expression nested too deeply", "{}", &src[..20]);
        }
    }

    #[test]
    fn display_normalizes() {
        for (src, want) in [
            ("(1 + 2) * 3", "(1 + 2) * 3"),
            ("1+(2*3)", "1 + 2 * 3"),
            ("a - (b - c)", "a - (b - c)"),
            ("(a - b) - c", "a - b - c"),
            ("(a ? b : c) ? d : e", "(a ? b : c) ? d : e"),
            ("a ? b : (c ? d : e)", "a ? b : c ? d : e"),
            ("-(-x)", "--x"),
            ("min( .5 ,2.0f )", "min(0.5, 2.0)"),
            ("0xFFFFFFFFFFFFFFFF", "0xffffffffffffffff"),
            ("!(a < b)", "!(a < b)"),
        ] {
            assert_eq!(parse_expr(src).unwrap().to_string(), want, "{src}");
        }
    }

    /// Parsing never panics, errors have valid spans, and a parsed expression prints to text that
    /// parses back to an expression that prints the same and evaluates the same.
    fn check(src: &str) {
        let outcome = |e: &Expr| {
            let env = VarEnv { vars: &[("t", I(5)), ("n", I(-3)), ("x", F(0.25))] };
            e.eval(&env).map(|v| std::format!("{v:?}")).map_err(|e| e.message)
        };
        match parse_expr(src) {
            Err(e) => assert!(src.get(e.offset..e.offset + e.len).is_some(), "bad span {e:?} in {src:?}"),
            Ok(e) => {
                let printed = e.to_string();
                let back = parse_expr(&printed).unwrap_or_else(|err| panic!("{src:?} printed as {printed:?}: {err:?}"));
                assert_eq!((back.to_string(), outcome(&back)), (printed.clone(), outcome(&e)), "{src:?} printed as {printed:?}");
            }
        }
    }

    proptest! {
        #[test]
        fn any_string_is_handled(src in "\\PC{0,60}") {
            check(&src);
        }

        #[test]
        fn token_soup_round_trips(toks in prop::collection::vec(prop::sample::select(&[
            "(", ")", "1", "0", "t", "n", "x", "+", "-", "*", "/", "%", "?", ":", "min(", "max(", "abs(", "int(", "float(", ",",
            "0x1f", ".5", "1e3", "2.0f", "&&", "||", "<<", ">>", "<", ">=", "==", "!=", "!", "~", "&", "|", "^", " ", "7",
        ][..]), 0..40)) {
            check(&toks.concat());
        }
    }
}
