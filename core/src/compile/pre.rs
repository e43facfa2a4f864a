//! The preprocessor, over tokens: course kernels use `#define` constants and small macros,
//! `#include` the CUDA headers and guard defaults with `#ifndef`. `#include` and `#pragma` are
//! skipped (the built-ins need no header), object- and function-like macros are expanded
//! (with `#`, `##` and `...`: `macro_body`), and `#if`/`#ifdef`/`#ifndef`/`#elif`/`#else`/`#endif`
//! keep or drop lines. An expanded token takes the span of the name it replaced, so errors point
//! at the use.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::ast::{BinOp, ExprKind, UnOp};
use super::lex::{Tok, Token};
use super::macro_body::{read_body, substitute, Piece};
use super::parse::Parser;
use crate::diag::{Diagnostic, Span};

/// The most tokens expansion may produce: a macro that doubles itself ten levels deep must
/// not freeze the page.
const MAX_TOKENS: usize = 1 << 20;

#[derive(Clone, Debug)]
struct Macro {
    /// `None` for an object-like macro.
    params: Option<Vec<String>>,
    /// Takes `...` after its named parameters (`__VA_ARGS__`).
    variadic: bool,
    body: Vec<Piece>,
}

/// One `#if` level: whether its lines are kept, whether a branch was taken, and whether the
/// enclosing level keeps lines at all.
struct Cond {
    keep: bool,
    taken: bool,
    outer: bool,
    open: Span,
}

/// What `__FILE__` says: the source has no file name here.
const SOURCE_NAME: &str = "kernel.cu";

/// What nvcc and the headers a course file includes define (`<climits>`, `<cfloat>`, `<cmath>`'s
/// `M_PI`), as the device compile sees them: `__CUDA_ARCH__` is the H100's, whose measurements
/// the models are checked against.
const PREDEFINED: &[(&str, &str)] = &[
    ("__CUDACC__", "1"),
    ("__NVCC__", "1"),
    ("__CUDA_ARCH__", "900"),
    ("NULL", "0"),
    ("nullptr", "0"),
    ("CHAR_BIT", "8"),
    ("SCHAR_MIN", "(-128)"),
    ("SCHAR_MAX", "127"),
    ("UCHAR_MAX", "255"),
    ("CHAR_MIN", "(-128)"),
    ("CHAR_MAX", "127"),
    ("SHRT_MIN", "(-32768)"),
    ("SHRT_MAX", "32767"),
    ("USHRT_MAX", "65535"),
    ("INT_MIN", "(-2147483647 - 1)"),
    ("INT_MAX", "2147483647"),
    ("UINT_MAX", "4294967295u"),
    ("LLONG_MIN", "(-9223372036854775807LL - 1)"),
    ("LLONG_MAX", "9223372036854775807LL"),
    ("ULLONG_MAX", "18446744073709551615ULL"),
    ("FLT_MAX", "3.40282347e+38f"),
    ("FLT_MIN", "1.17549435e-38f"),
    ("FLT_EPSILON", "1.19209290e-07f"),
    ("DBL_MAX", "1.7976931348623157e+308"),
    ("DBL_MIN", "2.2250738585072014e-308"),
    ("DBL_EPSILON", "2.2204460492503131e-16"),
    ("M_PI", "3.14159265358979323846"),
    ("M_E", "2.7182818284590452354"),
];

/// Runs the directives of `toks` and expands macros. Never fails: problems are diagnostics.
pub fn preprocess(toks: Vec<Token>) -> (Vec<Token>, Vec<Diagnostic>) {
    let mut macros = BTreeMap::new();
    for (name, text) in PREDEFINED {
        let body: Vec<Token> = super::lex::lex(text).0.into_iter().filter(|t| t.tok != Tok::Eof).collect();
        let body = body.into_iter().map(Piece::Tok).collect();
        macros.insert(String::from(*name), Macro { params: None, variadic: false, body });
    }
    let mut pp = Pre { macros, diags: Vec::new(), out: Vec::new() };
    let mut conds: Vec<Cond> = Vec::new();
    let mut k = 0;
    let eof = toks.last().cloned().unwrap_or(Token { tok: Tok::Eof, span: Span::default() });
    while k < toks.len() {
        let keep = conds.last().is_none_or(|c| c.keep);
        if toks[k].tok == Tok::Directive {
            let hash = toks[k].span;
            let end = toks[k..].iter().position(|t| t.tok == Tok::EndDirective).map_or(toks.len(), |p| k + p);
            pp.directive(hash, &toks[k + 1..end], &mut conds, keep);
            k = end + 1;
            continue;
        }
        if toks[k].tok == Tok::Eof {
            break;
        }
        if keep {
            k = pp.expand_at(&toks, k, &mut Vec::new());
            if pp.out.len() > MAX_TOKENS {
                pp.diags.push(Diagnostic::error(toks[k.min(toks.len() - 1)].span, "macro expansion produces over a million tokens"));
                pp.out.truncate(MAX_TOKENS);
                break;
            }
        } else {
            k += 1;
        }
    }
    for c in conds {
        pp.diags.push(Diagnostic::error(c.open, "this `#if` has no `#endif`"));
    }
    pp.out.push(eof);
    (pp.out, pp.diags)
}

struct Pre {
    macros: BTreeMap<String, Macro>,
    diags: Vec<Diagnostic>,
    out: Vec<Token>,
}

fn ident(t: Option<&Token>) -> Option<&str> {
    match t.map(|t| &t.tok) {
        Some(Tok::Ident(w)) => Some(w),
        _ => None,
    }
}

impl Pre {
    fn directive(&mut self, hash: Span, line: &[Token], conds: &mut Vec<Cond>, keep: bool) {
        let Some(name) = ident(line.first()) else {
            if keep && !line.is_empty() {
                self.diags.push(Diagnostic::error(line[0].span, "expected a directive name after `#`"));
            }
            return;
        };
        let rest = &line[1..];
        let span = line[0].span;
        match name {
            "if" | "ifdef" | "ifndef" => {
                let value = keep && self.condition(name, rest, span);
                conds.push(Cond { keep: value, taken: value, outer: keep, open: hash });
            }
            "elif" | "else" => match conds.last_mut() {
                None => self.diags.push(Diagnostic::error(span, format!("`#{name}` without `#if`"))),
                Some(c) => {
                    let (outer, taken) = (c.outer, c.taken);
                    let value = outer && !taken && (name == "else" || self.condition("if", rest, span));
                    let c = conds.last_mut().expect("checked above");
                    c.keep = value;
                    c.taken |= value;
                }
            },
            "endif" => {
                if conds.pop().is_none() {
                    self.diags.push(Diagnostic::error(span, "`#endif` without `#if`"));
                }
            }
            _ if !keep => {}
            "define" => self.define(span, rest),
            "undef" => {
                if let Some(n) = ident(rest.first()) {
                    self.macros.remove(n);
                }
            }
            "include" | "pragma" | "line" | "ident" => {}
            "error" => self.diags.push(Diagnostic::error(span, "`#error` in the source")),
            "warning" => self.diags.push(Diagnostic::warning(span, "`#warning` in the source")),
            other => {
                self.diags.push(Diagnostic::warning(span, format!("`#{other}` is not a directive warpscope knows; the line is skipped")))
            }
        }
    }

    fn define(&mut self, at: Span, rest: &[Token]) {
        let Some(name) = ident(rest.first()) else {
            self.diags.push(Diagnostic::error(at, "`#define` needs a name"));
            return;
        };
        let name_span = rest[0].span;
        // A `(` right after the name (no space) makes a function-like macro.
        let call = rest
            .get(1)
            .is_some_and(|t| t.tok == Tok::Punct("(") && t.span.line == name_span.line && t.span.col == name_span.col + name_span.len);
        let (params, body) = if call {
            let close = rest.iter().position(|t| t.tok == Tok::Punct(")"));
            let Some(close) = close else {
                self.diags.push(Diagnostic::error(name_span, format!("the parameters of macro `{name}` are not closed")));
                return;
            };
            let mut params = Vec::new();
            let names: Vec<&Token> = rest[2..close].iter().filter(|t| t.tok != Tok::Punct(",")).collect();
            let mut variadic = false;
            for (k, t) in names.iter().enumerate() {
                match &t.tok {
                    Tok::Ident(p) => params.push(p.clone()),
                    Tok::Punct("...") if k + 1 == names.len() => variadic = true,
                    _ => {
                        self.diags.push(Diagnostic::error(t.span, format!("macro `{name}`: parameters are names, and `...` the last")));
                        return;
                    }
                }
            }
            (Some((params, variadic)), &rest[close + 1..])
        } else {
            (None, &rest[1..])
        };
        let (params, variadic) = match params {
            Some((p, v)) => (Some(p), v),
            None => (None, false),
        };
        match read_body(body, params.as_deref(), variadic) {
            Ok(body) => {
                self.macros.insert(String::from(name), Macro { params, variadic, body });
            }
            Err((at, why)) => self.diags.push(Diagnostic::error(at, format!("macro `{name}`: {why}"))),
        }
    }

    /// Evaluates `#if EXPR` (or `#ifdef NAME`, `#ifndef NAME`).
    fn condition(&mut self, kind: &str, rest: &[Token], at: Span) -> bool {
        if kind != "if" {
            let Some(n) = ident(rest.first()) else {
                self.diags.push(Diagnostic::error(at, format!("`#{kind}` needs a name")));
                return false;
            };
            return self.macros.contains_key(n) == (kind == "ifdef");
        }
        // `defined X` and `defined(X)` first, then macros, then any name left is 0 (as in C).
        let mut toks = Vec::new();
        let mut k = 0;
        while k < rest.len() {
            if ident(rest.get(k)) == Some("defined") {
                let paren = rest.get(k + 1).is_some_and(|t| t.tok == Tok::Punct("("));
                let at_name = if paren { k + 2 } else { k + 1 };
                let yes = ident(rest.get(at_name)).is_some_and(|n| self.macros.contains_key(n));
                toks.push(Token { tok: Tok::Int { value: yes as u64, unsigned: false }, span: rest[k].span });
                k = at_name + 1 + paren as usize;
                continue;
            }
            toks.push(rest[k].clone());
            k += 1;
        }
        let saved = core::mem::take(&mut self.out);
        let mut j = 0;
        while j < toks.len() {
            j = self.expand_at(&toks, j, &mut Vec::new());
        }
        let mut expr: Vec<Token> = core::mem::replace(&mut self.out, saved)
            .into_iter()
            .map(|t| match t.tok {
                Tok::Ident(_) => Token { tok: Tok::Int { value: 0, unsigned: false }, span: t.span },
                _ => t,
            })
            .collect();
        expr.push(Token { tok: Tok::Eof, span: at });
        let mut p = Parser::new(&expr);
        match p.bare_expr().ok().and_then(|e| const_eval(&e)) {
            Some(v) if p.next_token().tok == Tok::Eof => v != 0,
            _ => {
                self.diags.push(Diagnostic::error(at, "`#if` needs a constant integer expression"));
                false
            }
        }
    }

    /// Copies the token at `k` to the output, expanding it if it names a macro not being
    /// expanded already (`active`). Returns the index after what was consumed.
    fn expand_at(&mut self, toks: &[Token], k: usize, active: &mut Vec<String>) -> usize {
        let t = &toks[k];
        let Tok::Ident(name) = &t.tok else {
            self.out.push(t.clone());
            return k + 1;
        };
        // An expanded token has its use's span, so `__LINE__` in a macro is the use's line.
        let builtin = match name.as_str() {
            "__LINE__" => Some(Tok::Int { value: t.span.line as u64, unsigned: false }),
            "__FILE__" => Some(Tok::Str(String::from(SOURCE_NAME))),
            _ => None,
        };
        if let Some(tok) = builtin {
            self.out.push(Token { tok, span: t.span });
            return k + 1;
        }
        let Some(m) = self.macros.get(name).filter(|_| !active.contains(name)).cloned() else {
            self.out.push(t.clone());
            return k + 1;
        };
        let use_span = t.span;
        let (body, next) = match &m.params {
            None => match substitute(&m.body, &[], &[], None, use_span) {
                Ok(body) => (body, k + 1),
                Err((_, why)) => {
                    self.diags.push(Diagnostic::error(use_span, format!("macro `{name}`: {why}")));
                    return k + 1;
                }
            },
            Some(params) => {
                if toks.get(k + 1).map(|t| &t.tok) != Some(&Tok::Punct("(")) {
                    // A function-like macro's name without arguments is just a name.
                    self.out.push(t.clone());
                    return k + 1;
                }
                let Some((args, next)) = arguments(toks, k + 2) else {
                    self.diags.push(Diagnostic::error(use_span, format!("the arguments of macro `{name}` are not closed")));
                    return toks.len();
                };
                let args = if params.is_empty() && args.len() == 1 && args[0].is_empty() { Vec::new() } else { args };
                let Some(args) = variadic_args(args, params.len(), m.variadic, use_span) else {
                    let at_least = if m.variadic { "at least " } else { "" };
                    self.diags.push(Diagnostic::error(use_span, format!("macro `{name}` takes {at_least}{} argument(s)", params.len())));
                    return next;
                };
                // Arguments are expanded before they are put in (but beside `#` and `##`).
                let expanded: Vec<Vec<Token>> = args
                    .iter()
                    .map(|a| {
                        let saved = core::mem::take(&mut self.out);
                        let mut j = 0;
                        while j < a.len() {
                            j = self.expand_at(a, j, active);
                        }
                        core::mem::replace(&mut self.out, saved)
                    })
                    .collect();
                match substitute(&m.body, &args, &expanded, m.variadic.then_some(params.len()), use_span) {
                    Ok(body) => (body, next),
                    Err((_, why)) => {
                        self.diags.push(Diagnostic::error(use_span, format!("macro `{name}`: {why}")));
                        return next;
                    }
                }
            }
        };
        active.push(name.clone());
        let mut j = 0;
        while j < body.len() && self.out.len() <= MAX_TOKENS {
            j = self.expand_at(&body, j, active);
        }
        active.pop();
        next
    }
}

/// A call's arguments for `n` named parameters: with `...`, the rest joined by their commas
/// into one more (`__VA_ARGS__`, empty when there is none). `None` for the wrong count.
fn variadic_args(mut args: Vec<Vec<Token>>, n: usize, variadic: bool, at: Span) -> Option<Vec<Vec<Token>>> {
    if !variadic {
        return (args.len() == n).then_some(args);
    }
    if args.len() < n {
        return None;
    }
    let rest = args.split_off(n);
    let mut va = Vec::new();
    for (k, a) in rest.into_iter().enumerate() {
        if k > 0 {
            va.push(Token { tok: Tok::Punct(","), span: at });
        }
        va.extend(a);
    }
    args.push(va);
    Some(args)
}

/// A macro call's arguments from just after its `(`: split at top-level commas. Returns them
/// and the index after the `)`, or `None` when it never closes.
fn arguments(toks: &[Token], from: usize) -> Option<(Vec<Vec<Token>>, usize)> {
    let mut args = alloc::vec![Vec::new()];
    let mut depth = 0;
    for (k, t) in toks.iter().enumerate().skip(from) {
        match t.tok {
            Tok::Punct("(") => depth += 1,
            Tok::Punct(")") if depth == 0 => return Some((args, k + 1)),
            Tok::Punct(")") => depth -= 1,
            Tok::Punct(",") if depth == 0 => {
                args.push(Vec::new());
                continue;
            }
            Tok::Eof => return None,
            _ => {}
        }
        args.last_mut().expect("never empty").push(t.clone());
    }
    None
}

/// An integer constant expression's value (`#if`), or `None` if it is not one.
pub(super) fn const_eval(e: &super::ast::Expr) -> Option<i64> {
    Some(match &e.kind {
        ExprKind::Int { value, .. } => *value as i64,
        ExprKind::Bool(b) => *b as i64,
        ExprKind::Unary(op, x) => {
            let x = const_eval(x)?;
            match op {
                UnOp::Neg => x.wrapping_neg(),
                UnOp::Not => (x == 0) as i64,
                UnOp::BitNot => !x,
            }
        }
        ExprKind::Logical { and, lhs, rhs } => {
            let l = const_eval(lhs)? != 0;
            let r = const_eval(rhs)? != 0;
            (if *and { l && r } else { l || r }) as i64
        }
        ExprKind::Ternary(c, a, b) => {
            if const_eval(c)? != 0 {
                const_eval(a)?
            } else {
                const_eval(b)?
            }
        }
        ExprKind::Binary(op, a, b) => {
            let (a, b) = (const_eval(a)?, const_eval(b)?);
            match op {
                BinOp::Add => a.wrapping_add(b),
                BinOp::Sub => a.wrapping_sub(b),
                BinOp::Mul => a.wrapping_mul(b),
                BinOp::Div => a.checked_div(b)?,
                BinOp::Rem => a.checked_rem(b)?,
                BinOp::Shl => a.wrapping_shl(b as u32),
                BinOp::Shr => a.wrapping_shr(b as u32),
                BinOp::BitAnd => a & b,
                BinOp::BitOr => a | b,
                BinOp::BitXor => a ^ b,
                BinOp::Lt => (a < b) as i64,
                BinOp::Le => (a <= b) as i64,
                BinOp::Gt => (a > b) as i64,
                BinOp::Ge => (a >= b) as i64,
                BinOp::Eq => (a == b) as i64,
                BinOp::Ne => (a != b) as i64,
            }
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::lex::lex;

    fn run(src: &str) -> (String, Vec<Diagnostic>) {
        let (toks, _) = lex(src);
        let (out, d) = preprocess(toks);
        let words: Vec<String> = out
            .iter()
            .filter(|t| t.tok != Tok::Eof)
            .map(|t| match &t.tok {
                Tok::Ident(w) => w.clone(),
                Tok::Int { value, .. } => format!("{value}"),
                Tok::Punct(p) => String::from(*p),
                other => format!("{other:?}"),
            })
            .collect();
        (words.join(" "), d)
    }

    #[test]
    fn defines_expand_where_used() {
        let (out, d) = run("#include <cstdio>\n#define N 256\n#define SQ(x) ((x) * (x))\nint a = N + SQ(N - 1);\n");
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(out, "int a = 256 + ( ( 256 - 1 ) * ( 256 - 1 ) ) ;");
    }

    #[test]
    fn conditionals_keep_one_branch() {
        let src = "#define A 1\n#ifndef B\n#define B 7\n#endif\n#if A && B > 3\nyes\n#elif 1\nno\n#else\nnever\n#endif\nB";
        let (out, d) = run(src);
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(out, "yes 7");
    }

    #[test]
    fn continued_lines_and_self_reference() {
        let (out, d) = run("#define M(a, b) \\\n  (a < b ? a : b)\n#define X X + 1\nM(1, 2) X");
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(out, "( 1 < 2 ? 1 : 2 ) X + 1");
    }

    #[test]
    fn stringizing_pasting_and_variadic_macros() {
        // A course file's error check: `#call` is the call's text.
        let (out, d) = run("#define CHECK(call) report(call, #call, __LINE__ ## u)\nCHECK(cudaMalloc(&p, n * 4));");
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(out, "report ( cudaMalloc ( & p , n * 4 ) , Str(\"cudaMalloc(&p, n * 4)\") , __LINE__u ) ;");
        // Pasting makes one token of two (an argument beside `##` is not expanded first).
        let (out, d) = run("#define N 4\n#define CAT(a, b) a ## b\n#define V(k) v ## k\nCAT(x, 1) V(N) CAT(1, 2) CAT(<, <)");
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(out, "x1 vN 12 <<");
        // A string argument is spelled with its quotes and escapes.
        let (out, _) = run("#define S(x) #x\nS(\"a\\n\")");
        assert_eq!(out, "Str(\"\\\"a\\\\n\\\"\")");
        // `...` and `__VA_ARGS__`; `, ## __VA_ARGS__` drops the comma when there is none.
        let (out, d) =
            run("#define LOG(f, ...) printf(f, ## __VA_ARGS__)\n#define ALL(...) g(__VA_ARGS__)\nLOG(1) LOG(1, 2, 3) ALL(a, b) ALL()");
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(out, "printf ( 1 ) printf ( 1 , 2 , 3 ) g ( a , b ) g ( )");
        // Misuses are errors at the definition or the use.
        let (_, d) = run("#define F(a) # b\n");
        assert!(d[0].message.contains("`#` in a macro with parameters must be followed by one of them"), "{d:?}");
        let (_, d) = run("#define G(a) ## a\n");
        assert!(d[0].message.contains("`##` needs a token on each side"), "{d:?}");
        let (_, d) = run("#define H(a, b) a ## b\nH(+, 1)");
        assert!(d[0].message.contains("`##` makes `+1`, which is not one token") && d[0].span.line == 2, "{d:?}");
        let (_, d) = run("#define L(f, ...) f\nL()");
        assert!(d.is_empty(), "one empty argument: {d:?}");
        let (_, d) = run("#define L(f, g, ...) f\nL(1)");
        assert!(d[0].message.contains("takes at least 2 argument(s)"), "{d:?}");
    }

    #[test]
    fn problems_are_located() {
        let (_, d) = run("#if 1\nx\n");
        assert!(d[0].message.contains("no `#endif`"));
        let (_, d) = run("#define F(a) a\nF(1, 2)");
        assert!(d[0].message.contains("takes 1 argument"), "{d:?}");
        assert_eq!(d[0].span.line, 2);
    }
}
