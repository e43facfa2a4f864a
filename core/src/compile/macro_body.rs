//! A `#define`'s replacement list, read once at the definition: its parameters, C's `#`
//! (stringizing), `##` (pasting) and `__VA_ARGS__`; and the substitution of a call's arguments
//! into it (C11 6.10.3). Error-checking macros in course files stringize their argument
//! (`#define CHECK(call) ... #call ...`), so every whole file of that kind needs them.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::lex::{lex, Tok, Token};
use crate::diag::Span;

/// One piece of a replacement list.
#[derive(Clone, Debug)]
pub(super) enum Piece {
    Tok(Token),
    /// Parameter `k` (`__VA_ARGS__` is the one after the named ones).
    Param(usize),
    /// `#` then parameter `k`: its argument's spelling as a string literal.
    Stringize(usize),
    /// `##`: the tokens on either side become one.
    Paste,
}

/// A `#` token of a directive line (the lexer leaves it as text outside the language).
fn is_hash(t: &Token) -> bool {
    matches!(&t.tok, Tok::Bad(m) if m.starts_with("`#`"))
}

/// Reads a replacement list: `params` for a function-like macro (with `__VA_ARGS__` when
/// `variadic`). Returns the pieces, or where and why the list is malformed.
pub(super) fn read_body(body: &[Token], params: Option<&[String]>, variadic: bool) -> Result<Vec<Piece>, (Span, String)> {
    let param = |t: &Token| match (&t.tok, params) {
        (Tok::Ident(w), Some(ps)) if w == "__VA_ARGS__" && variadic => Some(ps.len()),
        (Tok::Ident(w), Some(ps)) => ps.iter().position(|p| p == w),
        _ => None,
    };
    let mut out = Vec::new();
    let mut k = 0;
    while k < body.len() {
        let t = &body[k];
        if is_hash(t) && body.get(k + 1).is_some_and(is_hash) && adjacent(t.span, body[k + 1].span) {
            if out.is_empty() || k + 2 >= body.len() {
                return Err((t.span, String::from("`##` needs a token on each side")));
            }
            out.push(Piece::Paste);
            k += 2;
            continue;
        }
        // In a function-like macro `#` must name a parameter; in an object-like one it is text.
        if is_hash(t) && params.is_some() {
            match body.get(k + 1).and_then(param) {
                Some(p) => out.push(Piece::Stringize(p)),
                None => return Err((t.span, String::from("`#` in a macro with parameters must be followed by one of them"))),
            }
            k += 2;
            continue;
        }
        out.push(match param(t) {
            Some(p) => Piece::Param(p),
            None => Piece::Tok(t.clone()),
        });
        k += 1;
    }
    Ok(out)
}

/// Whether `b` starts where `a` ends on its line (`##` is two `#` tokens with nothing between).
fn adjacent(a: Span, b: Span) -> bool {
    a.line == b.line && b.col == a.col + a.len
}

/// The replacement of a call: each parameter by its argument (`expanded`, or `raw` beside `##`
/// and after `#`), stringized and pasted; every token at `at`. `va`: the parameter that is
/// `__VA_ARGS__`, whose `, ## __VA_ARGS__` drops the comma when it is empty (GCC's rule, which
/// nvcc follows). Err: a paste that is not one token.
pub(super) fn substitute(
    pieces: &[Piece],
    raw: &[Vec<Token>],
    expanded: &[Vec<Token>],
    va: Option<usize>,
    at: Span,
) -> Result<Vec<Token>, (Span, String)> {
    let mut out: Vec<Token> = Vec::new();
    // Whether the next piece's first token joins the last one out.
    let mut paste = false;
    for (k, piece) in pieces.iter().enumerate() {
        let next_pastes = matches!(pieces.get(k + 1), Some(Piece::Paste));
        let toks: Vec<Token> = match piece {
            Piece::Paste => {
                paste = true;
                continue;
            }
            Piece::Tok(t) => alloc::vec![t.clone()],
            Piece::Stringize(p) => alloc::vec![Token { tok: Tok::Str(spell(&raw[*p])), span: at }],
            // Beside `##` the argument is not expanded first.
            Piece::Param(p) if paste || next_pastes => raw[*p].clone(),
            Piece::Param(p) => expanded[*p].clone(),
        };
        // `, ## __VA_ARGS__` pastes nothing: it keeps the comma before arguments, drops it
        // before none.
        let is_va = matches!(piece, Piece::Param(p) if Some(*p) == va);
        if paste && is_va && out.last().is_some_and(|t| t.tok == Tok::Punct(",")) {
            paste = false;
            if toks.is_empty() {
                out.pop();
            }
        }
        let mut toks = toks.into_iter();
        if core::mem::take(&mut paste) {
            if let Some(first) = toks.next() {
                match out.pop() {
                    Some(last) => out.push(pasted(&last, &first, at)?),
                    None => out.push(first),
                }
            }
        }
        out.extend(toks);
    }
    Ok(out.into_iter().map(|t| Token { tok: t.tok, span: at }).collect())
}

/// `a ## b`: the token their spellings make together.
fn pasted(a: &Token, b: &Token, at: Span) -> Result<Token, (Span, String)> {
    let text = format!("{}{}", spell_one(a), spell_one(b));
    let (toks, diags) = lex(&text);
    match toks.as_slice() {
        [one, eof] if diags.is_empty() && eof.tok == Tok::Eof && !matches!(one.tok, Tok::Bad(_)) => {
            Ok(Token { tok: one.tok.clone(), span: at })
        }
        _ => Err((at, format!("`##` makes `{text}`, which is not one token"))),
    }
}

/// Tokens as C's `#` spells them: one space where the source had any.
pub(super) fn spell(toks: &[Token]) -> String {
    let mut s = String::new();
    for (k, t) in toks.iter().enumerate() {
        if k > 0 && !adjacent(toks[k - 1].span, t.span) {
            s.push(' ');
        }
        s.push_str(&spell_one(t));
    }
    s
}

/// One token's spelling (a number as its value: the lexer keeps no other).
fn spell_one(t: &Token) -> String {
    match &t.tok {
        Tok::Ident(w) => w.clone(),
        Tok::Int { value, unsigned } => format!("{value}{}", if *unsigned { "u" } else { "" }),
        Tok::Long { value, unsigned } => format!("{value}{}ll", if *unsigned { "u" } else { "" }),
        Tok::Float(f) => format!("{f:?}f"),
        Tok::Double(d) => format!("{d:?}"),
        Tok::Punct(p) => String::from(*p),
        Tok::Str(s) => {
            let mut q = String::from("\"");
            for c in s.chars() {
                match c {
                    '"' => q.push_str("\\\""),
                    '\\' => q.push_str("\\\\"),
                    '\n' => q.push_str("\\n"),
                    '\t' => q.push_str("\\t"),
                    c => q.push(c),
                }
            }
            q.push('"');
            q
        }
        // Text outside the language: the character its message quotes.
        Tok::Bad(m) => m.split('`').nth(1).map_or_else(String::new, String::from),
        Tok::Directive | Tok::EndDirective | Tok::Eof => String::new(),
    }
}
