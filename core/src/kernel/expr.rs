//! Expressions on kernel header lines, e.g. `//@ reg R5 = t < 32 - n ? 32 : 32 - (t - (31 - n))`.
//!
//! A small C-like language evaluated once per lane (`t`) or buffer element (`i`): integers and
//! floats with C promotion, C precedence, short-circuit `&&`/`||` and `?:`, and a few functions.
//! Parsing does not resolve names, so one parsed tree serves every lane; [`Expr::free_vars`] lets
//! the caller reject unknown names up front. Every node keeps its byte span, so parse and
//! evaluation errors point at the exact text. No input makes this panic, and the tree depth is
//! capped so neither parsing nor evaluation (nor dropping the tree) can overflow the stack.

use alloc::{boxed::Box, format, string::String, string::ToString, vec::Vec};
use core::fmt;

/// Deepest tree accepted. Nesting counts, and so do long operator chains (`1+1+...` is left-deep).
pub const MAX_DEPTH: u32 = 200;

/// A value: C-like, an operation with any float operand is done in floats.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Value {
    Int(i64),
    Float(f64),
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

fn error(at: ByteSpan, message: impl Into<String>) -> ExprError {
    ExprError { offset: at.offset, len: at.len, message: message.into() }
}

/// A byte range of the source text.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct ByteSpan {
    pub offset: usize,
    pub len: usize,
}

/// The smallest span covering `a` and a later `b`.
fn join(a: ByteSpan, b: ByteSpan) -> ByteSpan {
    ByteSpan { offset: a.offset, len: (b.offset + b.len).saturating_sub(a.offset) }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum UnOp {
    Neg,
    Not,
    BitNot,
}

#[rustfmt::skip]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BinOp { Or, And, BitOr, BitXor, BitAnd, Eq, Ne, Lt, Le, Gt, Ge, Shl, Shr, Add, Sub, Mul, Div, Rem }

/// Binary operators with their C precedence (higher binds tighter); the ternary is 0, unary 11.
#[rustfmt::skip]
const BINOPS: [(&str, BinOp, u8); 18] = {
    use BinOp::*;
    [
        ("||", Or, 1), ("&&", And, 2), ("|", BitOr, 3), ("^", BitXor, 4), ("&", BitAnd, 5),
        ("==", Eq, 6), ("!=", Ne, 6), ("<", Lt, 7), ("<=", Le, 7), (">", Gt, 7), (">=", Ge, 7),
        ("<<", Shl, 8), (">>", Shr, 8), ("+", Add, 9), ("-", Sub, 9), ("*", Mul, 10), ("/", Div, 10), ("%", Rem, 10),
    ]
};
const UNARY_PREC: u8 = 11;
const ATOM_PREC: u8 = 12;

impl UnOp {
    pub fn symbol(self) -> &'static str {
        match self {
            UnOp::Neg => "-",
            UnOp::Not => "!",
            UnOp::BitNot => "~",
        }
    }
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        BINOPS.iter().find(|b| b.1 == self).map_or("?", |b| b.0)
    }
    fn prec(self) -> u8 {
        BINOPS.iter().find(|b| b.1 == self).map_or(0, |b| b.2)
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Func {
    Min,
    Max,
    Abs,
    Float,
    Int,
}

/// Known functions and their arities.
const FUNCS: [(&str, Func, usize); 5] =
    [("min", Func::Min, 2), ("max", Func::Max, 2), ("abs", Func::Abs, 1), ("float", Func::Float, 1), ("int", Func::Int, 1)];

impl Func {
    pub fn name(self) -> &'static str {
        FUNCS.iter().find(|f| f.1 == self).map_or("?", |f| f.0)
    }
}

#[derive(Clone, PartialEq, Debug)]
pub enum ExprKind {
    Int(i64),
    Float(f64),
    Var(String),
    Unary(UnOp, Box<Expr>),
    /// Keeps the operator's own span: `division by zero` points at the `/`.
    Binary(BinOp, ByteSpan, Box<Expr>, Box<Expr>),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    Call(Func, Vec<Expr>),
}

/// A parsed expression; `span` covers its text (with enclosing parentheses, if any).
#[derive(Clone, PartialEq, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: ByteSpan,
}

#[derive(Clone, Copy, Debug)]
enum Tok {
    Int(i64),
    Float(f64),
    Ident,
    Punct(&'static str),
    End,
}

#[derive(Clone, Copy, Debug)]
struct Token {
    tok: Tok,
    at: ByteSpan,
}

/// Longest first, so `<<` wins over `<`.
const PUNCTS: [&str; 25] =
    ["<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+", "-", "*", "/", "%", "<", ">", "&", "|", "^", "!", "~", "?", ":", "(", ")", ","];

fn lex(src: &str) -> Result<Vec<Token>, ExprError> {
    let b = src.as_bytes();
    let (mut out, mut k) = (Vec::new(), 0);
    while k < b.len() {
        let (start, c) = (k, b[k]);
        let tok = if c.is_ascii_whitespace() {
            k += 1;
            continue;
        } else if c.is_ascii_digit() || (c == b'.' && b.get(k + 1).is_some_and(u8::is_ascii_digit)) {
            // Take the whole alphanumeric run (and an exponent's sign), so `12abc` is one bad number.
            let hex = c == b'0' && matches!(b.get(k + 1), Some(b'x' | b'X'));
            let sign = |k: usize| !hex && matches!(b[k], b'+' | b'-') && matches!(b[k - 1], b'e' | b'E');
            while k < b.len() && (b[k].is_ascii_alphanumeric() || b[k] == b'_' || b[k] == b'.' || sign(k)) {
                k += 1;
            }
            number(&src[start..k], ByteSpan { offset: start, len: k - start })?
        } else if c.is_ascii_alphabetic() || c == b'_' {
            while k < b.len() && (b[k].is_ascii_alphanumeric() || b[k] == b'_') {
                k += 1;
            }
            Tok::Ident
        } else if let Some(p) = PUNCTS.iter().find(|p| b[k..].starts_with(p.as_bytes())) {
            k += p.len();
            Tok::Punct(p)
        } else {
            // Only ASCII has been consumed so far, so `k` is on a char boundary.
            let ch = src[k..].chars().next().unwrap_or('?');
            return Err(error(ByteSpan { offset: k, len: ch.len_utf8() }, format!("unexpected `{ch}`")));
        };
        out.push(Token { tok, at: ByteSpan { offset: start, len: k - start } });
    }
    out.push(Token { tok: Tok::End, at: ByteSpan { offset: b.len(), len: 0 } });
    Ok(out)
}

/// A numeric literal: `0x1F`, `42`, `1.5`, `.5`, `1e-3`, `2.0f` (a trailing `f` makes a float, as in C).
fn number(text: &str, at: ByteSpan) -> Result<Tok, ExprError> {
    let bad = || error(at, format!("invalid number `{text}`"));
    if let Some(h) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        if h.is_empty() || !h.bytes().all(|c| c.is_ascii_hexdigit()) {
            return Err(bad());
        }
        // Up to 64 bits, so any bit pattern can be written; above `i64::MAX` it wraps negative.
        return u64::from_str_radix(h, 16)
            .map(|v| Tok::Int(v as i64))
            .map_err(|_| error(at, format!("hex literal `{text}` is over 64 bits")));
    }
    let body = text.strip_suffix(['f', 'F']).unwrap_or(text);
    if body.len() < text.len() || body.contains(['.', 'e', 'E']) {
        let v: f64 = body.parse().map_err(|_| bad())?;
        return if v.is_finite() { Ok(Tok::Float(v)) } else { Err(error(at, format!("float literal `{text}` is out of range"))) };
    }
    if !body.bytes().all(|c| c.is_ascii_digit()) {
        return Err(bad());
    }
    body.parse().map(Tok::Int).map_err(|_| error(at, format!("integer literal `{text}` is too large")))
}

/// Recursive descent with precedence climbing; results carry their tree depth.
struct Parser<'a> {
    src: &'a str,
    toks: Vec<Token>,
    pos: usize,
    nest: u32,
}

type Node = (Expr, u32);

impl<'a> Parser<'a> {
    fn peek(&self) -> Token {
        self.toks[self.pos]
    }
    fn bump(&mut self) -> Token {
        let t = self.peek();
        self.pos = (self.pos + 1).min(self.toks.len() - 1);
        t
    }
    fn is(&self, p: &str) -> bool {
        matches!(self.peek().tok, Tok::Punct(q) if q == p)
    }
    fn text(&self, at: ByteSpan) -> &'a str {
        self.src.get(at.offset..at.offset + at.len).unwrap_or("")
    }
    /// How a message names the token where something else was expected.
    fn describe(&self, t: Token) -> String {
        if matches!(t.tok, Tok::End) {
            "the end of the expression".into()
        } else {
            format!("`{}`", self.text(t.at))
        }
    }
    /// Counts parser recursion, which happens before any node exists to measure (`((((...`).
    fn enter(&mut self) -> Result<(), ExprError> {
        self.nest += 1;
        if self.nest > MAX_DEPTH {
            return Err(error(self.peek().at, "expression nested too deeply"));
        }
        Ok(())
    }
    fn node(kind: ExprKind, span: ByteSpan, depth: u32) -> Result<Node, ExprError> {
        if depth > MAX_DEPTH {
            return Err(error(span, "expression nested too deeply"));
        }
        Ok((Expr { kind, span }, depth))
    }
    fn close(&mut self, open: ByteSpan) -> Result<ByteSpan, ExprError> {
        if self.is(")") {
            return Ok(self.bump().at);
        }
        Err(error(open, format!("this `(` is never closed: expected `)` before {}", self.describe(self.peek()))))
    }

    fn ternary(&mut self) -> Result<Node, ExprError> {
        self.enter()?;
        let (c, dc) = self.binary(1)?;
        let r = if self.is("?") {
            let q = self.bump().at;
            let (a, da) = self.ternary()?;
            if !self.is(":") {
                return Err(error(q, format!("this `?` has no `:`: expected `:` before {}", self.describe(self.peek()))));
            }
            self.bump();
            let (b, db) = self.ternary()?;
            let span = join(c.span, b.span);
            Self::node(ExprKind::Cond(Box::new(c), Box::new(a), Box::new(b)), span, 1 + dc.max(da).max(db))?
        } else {
            (c, dc)
        };
        self.nest -= 1;
        Ok(r)
    }

    /// Operators binding at least as tightly as `min`; loops for left associativity, so chains don't recurse.
    fn binary(&mut self, min: u8) -> Result<Node, ExprError> {
        let (mut lhs, mut d) = self.unary()?;
        while let Some(&(_, op, prec)) = BINOPS.iter().find(|b| self.is(b.0)) {
            if prec < min {
                break;
            }
            let at = self.bump().at;
            let (rhs, dr) = self.binary(prec + 1)?;
            let span = join(lhs.span, rhs.span);
            (lhs, d) = Self::node(ExprKind::Binary(op, at, Box::new(lhs), Box::new(rhs)), span, 1 + d.max(dr))?;
        }
        Ok((lhs, d))
    }

    fn unary(&mut self) -> Result<Node, ExprError> {
        let op = match self.peek().tok {
            Tok::Punct("-") => UnOp::Neg,
            Tok::Punct("!") => UnOp::Not,
            Tok::Punct("~") => UnOp::BitNot,
            _ => return self.primary(),
        };
        self.enter()?;
        let at = self.bump().at;
        let (e, d) = self.unary()?;
        self.nest -= 1;
        let span = join(at, e.span);
        Self::node(ExprKind::Unary(op, Box::new(e)), span, d + 1)
    }

    fn primary(&mut self) -> Result<Node, ExprError> {
        let t = self.bump();
        match t.tok {
            Tok::Int(v) => Self::node(ExprKind::Int(v), t.at, 1),
            Tok::Float(v) => Self::node(ExprKind::Float(v), t.at, 1),
            Tok::Ident if !self.is("(") => Self::node(ExprKind::Var(self.text(t.at).to_string()), t.at, 1),
            Tok::Ident => {
                let name = self.text(t.at);
                let Some(&(_, func, arity)) = FUNCS.iter().find(|f| f.0 == name) else {
                    return Err(error(t.at, format!("unknown function `{name}` (known: min, max, abs, float, int)")));
                };
                let open = self.bump().at;
                let (mut args, mut d) = (Vec::new(), 0);
                while !self.is(")") {
                    let (a, da) = self.ternary()?;
                    args.push(a);
                    d = d.max(da);
                    if !self.is(",") {
                        break;
                    }
                    self.bump();
                }
                let span = join(t.at, self.close(open)?);
                if args.len() != arity {
                    let s = if arity == 1 { "" } else { "s" };
                    return Err(error(span, format!("`{name}` takes {arity} argument{s}, got {}", args.len())));
                }
                Self::node(ExprKind::Call(func, args), span, d + 1)
            }
            Tok::Punct("(") => {
                let (mut e, d) = self.ternary()?;
                e.span = join(t.at, self.close(t.at)?);
                Ok((e, d))
            }
            Tok::Punct(p) => Err(error(t.at, format!("unexpected `{p}`"))),
            Tok::End => Err(error(t.at, "unexpected end of expression")),
        }
    }
}

/// Parses a whole expression; names are left unresolved (see [`Expr::free_vars`]).
pub fn parse_expr(src: &str) -> Result<Expr, ExprError> {
    let toks = lex(src)?;
    if toks.len() == 1 {
        return Err(error(ByteSpan { offset: 0, len: src.len() }, "empty expression"));
    }
    let mut p = Parser { src, toks, pos: 0, nest: 0 };
    let (e, _) = p.ternary()?;
    let t = p.peek();
    match t.tok {
        Tok::End => Ok(e),
        Tok::Punct(")") => Err(error(t.at, "unexpected `)`")),
        _ => {
            let rest = src[t.at.offset..].trim_end();
            Err(error(ByteSpan { offset: t.at.offset, len: rest.len() }, format!("trailing input `{rest}`")))
        }
    }
}

impl Expr {
    /// Evaluates with names from `env`. Only the taken branch of `?:` and the needed side of
    /// `&&`/`||` run, so `t < n ? x / t : 0` is safe; unlike C, a `?:` result keeps its branch's type.
    pub fn eval(&self, env: &dyn Env) -> Result<Value, ExprError> {
        use Value::{Float as F, Int as I};
        Ok(match &self.kind {
            ExprKind::Int(v) => I(*v),
            ExprKind::Float(v) => F(*v),
            ExprKind::Var(n) => env.lookup(n).ok_or_else(|| error(self.span, format!("unknown name `{n}`")))?,
            ExprKind::Unary(op, a) => match (op, a.eval(env)?) {
                (UnOp::Neg, I(v)) => I(v.wrapping_neg()),
                (UnOp::Neg, F(v)) => F(-v),
                (UnOp::Not, v) => I(!v.truthy() as i64),
                (UnOp::BitNot, I(v)) => I(!v),
                (UnOp::BitNot, F(_)) => return Err(error(self.span, "`~` needs an integer operand, got a float")),
            },
            ExprKind::Binary(op @ (BinOp::And | BinOp::Or), _, a, b) => {
                let l = a.eval(env)?.truthy();
                I((if l == (*op == BinOp::And) { b.eval(env)?.truthy() } else { l }) as i64)
            }
            ExprKind::Binary(op, at, a, b) => binary(*op, *at, a.eval(env)?, b.eval(env)?)?,
            ExprKind::Cond(c, a, b) => (if c.eval(env)?.truthy() { a } else { b }).eval(env)?,
            ExprKind::Call(f, args) => {
                let vals = args.iter().map(|a| a.eval(env)).collect::<Result<Vec<_>, _>>()?;
                let (x, y) = (vals.first().map_or(0.0, |v| v.as_f64()), vals.get(1).map_or(0.0, |v| v.as_f64()));
                match (f, &vals[..]) {
                    (Func::Min, &[I(l), I(r)]) => I(l.min(r)),
                    (Func::Max, &[I(l), I(r)]) => I(l.max(r)),
                    (Func::Min, &[_, _]) => F(if y < x { y } else { x }),
                    (Func::Max, &[_, _]) => F(if y > x { y } else { x }),
                    (Func::Abs, &[I(v)]) => I(v.wrapping_abs()),
                    (Func::Abs, &[F(v)]) => F(f64::from_bits(v.to_bits() & !(1 << 63))),
                    (Func::Float, &[v]) => F(v.as_f64()),
                    (Func::Int, &[I(v)]) => I(v),
                    // The range check also rejects NaN and the infinities, where `as` would saturate silently.
                    (Func::Int, &[F(v)]) if (i64::MIN as f64..-(i64::MIN as f64)).contains(&v) => I(v as i64),
                    (Func::Int, &[F(v)]) => return Err(error(self.span, format!("`int` of {v:?} does not fit a 64-bit integer"))),
                    _ => return Err(error(self.span, format!("`{}` got {} arguments", f.name(), vals.len()))),
                }
            }
        })
    }

    /// Every name the expression uses, sorted and without repeats, for checking before evaluation.
    pub fn free_vars(&self) -> Vec<String> {
        fn walk(e: &Expr, out: &mut Vec<String>) {
            match &e.kind {
                ExprKind::Int(_) | ExprKind::Float(_) => {}
                ExprKind::Var(n) => out.push(n.clone()),
                ExprKind::Unary(_, a) => walk(a, out),
                ExprKind::Binary(_, _, a, b) => [a, b].iter().for_each(|x| walk(x, out)),
                ExprKind::Cond(c, a, b) => [c, a, b].iter().for_each(|x| walk(x, out)),
                ExprKind::Call(_, args) => args.iter().for_each(|x| walk(x, out)),
            }
        }
        let mut out = Vec::new();
        walk(self, &mut out);
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Binding strength, for printing only the parentheses needed.
    fn prec(&self) -> u8 {
        match &self.kind {
            ExprKind::Cond(..) => 0,
            ExprKind::Binary(op, ..) => op.prec(),
            ExprKind::Unary(..) => UNARY_PREC,
            _ => ATOM_PREC,
        }
    }
}

/// One binary operation on evaluated operands; integer arithmetic wraps, shift counts are taken mod 64.
#[rustfmt::skip]
fn binary(op: BinOp, at: ByteSpan, x: Value, y: Value) -> Result<Value, ExprError> {
    use BinOp::*;
    use Value::{Float as F, Int as I};
    let b = |c: bool| I(c as i64);
    if let (I(l), I(r)) = (x, y) {
        if matches!(op, Div | Rem) && r == 0 { return Err(error(at, "division by zero")); }
        return Ok(match op {
            Add => I(l.wrapping_add(r)), Sub => I(l.wrapping_sub(r)), Mul => I(l.wrapping_mul(r)),
            Div => I(l.wrapping_div(r)), Rem => I(l.wrapping_rem(r)),
            Shl => I(l.wrapping_shl(r as u32)), Shr => I(l.wrapping_shr(r as u32)),
            BitAnd => I(l & r), BitOr => I(l | r), BitXor => I(l ^ r),
            Eq => b(l == r), Ne => b(l != r), Lt => b(l < r), Le => b(l <= r), Gt => b(l > r), Ge => b(l >= r),
            And => b(l != 0 && r != 0), Or => b(l != 0 || r != 0),
        });
    }
    // Float arithmetic follows IEEE (so `1.0 / 0` is infinity), as the GPU's does.
    let (l, r) = (x.as_f64(), y.as_f64());
    Ok(match op {
        Add => F(l + r), Sub => F(l - r), Mul => F(l * r), Div => F(l / r),
        Eq => b(l == r), Ne => b(l != r), Lt => b(l < r), Le => b(l <= r), Gt => b(l > r), Ge => b(l >= r),
        And => b(l != 0.0 && r != 0.0), Or => b(l != 0.0 || r != 0.0),
        Rem | Shl | Shr | BitAnd | BitOr | BitXor => return Err(error(at, format!("`{}` needs integer operands, got a float", op.symbol()))),
    })
}

/// Prints an operand, parenthesized if it binds more loosely than its place requires.
struct Sub<'a>(&'a Expr, u8);

impl fmt::Display for Sub<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.prec() < self.1 {
            write!(f, "({})", self.0)
        } else {
            write!(f, "{}", self.0)
        }
    }
}

/// A normalized form with only the parentheses precedence needs; it parses back to the same tree.
impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            // Negative ints only come from hex bit patterns; hex keeps them re-parseable.
            ExprKind::Int(v) if *v < 0 => write!(f, "{:#x}", *v as u64),
            ExprKind::Int(v) => write!(f, "{v}"),
            ExprKind::Float(v) => write!(f, "{v:?}"),
            ExprKind::Var(n) => f.write_str(n),
            ExprKind::Unary(op, a) => write!(f, "{}{}", op.symbol(), Sub(a, UNARY_PREC)),
            ExprKind::Binary(op, _, a, b) => write!(f, "{} {} {}", Sub(a, op.prec()), op.symbol(), Sub(b, op.prec() + 1)),
            ExprKind::Cond(c, a, b) => write!(f, "{} ? {a} : {b}", Sub(c, 1)),
            ExprKind::Call(func, args) => {
                write!(f, "{}(", func.name())?;
                for (k, a) in args.iter().enumerate() {
                    write!(f, "{}{a}", if k > 0 { ", " } else { "" })?;
                }
                f.write_str(")")
            }
        }
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
