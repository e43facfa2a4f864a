//! Splits CUDA-C source, or one expression of a `//@` header line, into tokens with their
//! spans. In C, comments (including the `//@` header lines) and preprocessor lines are
//! skipped; a header expression has no comments, only the operators of expressions, and 64-bit
//! numbers. A character outside the language is a located error, and lexing goes on after it.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::diag::{Diagnostic, Span};

#[derive(Clone, PartialEq, Debug)]
pub enum Tok {
    Ident(String),
    Int {
        value: u64,
        unsigned: bool,
    },
    Float(f32),
    /// A header expression's float literal: headers compute in `f64`.
    Double(f64),
    /// Operators and punctuation, longest match first (`<<=`, `&&`, `->`...).
    Punct(&'static str),
    Eof,
}

#[derive(Clone, PartialEq, Debug)]
pub struct Token {
    pub tok: Tok,
    pub span: Span,
}

const PUNCTS: &[&str] = &[
    "<<=", ">>=", "...", "&&", "||", "==", "!=", "<=", ">=", "<<", ">>", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "->",
    "::", "+", "-", "*", "/", "%", "&", "|", "^", "~", "!", "<", ">", "=", "?", ":", ";", ",", ".", "(", ")", "{", "}", "[", "]",
];

/// The header expressions' operators, longest first (no assignments, `++`, members or indexing).
const HEADER_PUNCTS: &[&str] =
    &["<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+", "-", "*", "/", "%", "<", ">", "&", "|", "^", "!", "~", "?", ":", "(", ")", ","];

/// Which text is read.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Dialect {
    /// A CUDA-C file.
    Cuda,
    /// One expression of a `//@` header line (`kernel::expr`).
    Header,
}

pub fn lex(src: &str) -> (Vec<Token>, Vec<Diagnostic>) {
    lex_dialect(src, Dialect::Cuda)
}

pub fn lex_dialect(src: &str, dialect: Dialect) -> (Vec<Token>, Vec<Diagnostic>) {
    let header = dialect == Dialect::Header;
    let puncts = if header { HEADER_PUNCTS } else { PUNCTS };
    let mut out = Vec::new();
    let mut diags = Vec::new();
    let b = src.as_bytes();
    let (mut i, mut line, mut col) = (0usize, 1u32, 1u32);
    // Advances over `n` bytes of one line, counting characters for the column.
    let advance = |i: &mut usize, col: &mut u32, n: usize| {
        *col += src[*i..*i + n].chars().count() as u32;
        *i += n;
    };
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            i += 1;
            line += 1;
            col = 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            advance(&mut i, &mut col, 1);
            continue;
        }
        if !header && (src[i..].starts_with("//") || c == b'#') {
            // Line comments; `#pragma`/`#include` lines are ignored the same way.
            let n = src[i..].find('\n').unwrap_or(b.len() - i);
            advance(&mut i, &mut col, n);
            continue;
        }
        if !header && src[i..].starts_with("/*") {
            let start = Span::new(line, col, 2);
            match src[i + 2..].find("*/") {
                Some(end) => {
                    for ch in src[i..i + 2 + end + 2].chars() {
                        if ch == '\n' {
                            line += 1;
                            col = 1;
                        } else {
                            col += 1;
                        }
                    }
                    i += end + 4;
                }
                None => {
                    diags.push(Diagnostic::error(start, "this `/*` comment is never closed"));
                    i = b.len();
                }
            }
            continue;
        }
        let start_col = col;
        if c.is_ascii_alphabetic() || c == b'_' {
            let n = src[i..].bytes().take_while(|x| x.is_ascii_alphanumeric() || *x == b'_').count();
            out.push(Token { tok: Tok::Ident(src[i..i + n].into()), span: Span::new(line, start_col, n as u32) });
            advance(&mut i, &mut col, n);
            continue;
        }
        if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit)) {
            let (tok, n) = if header { header_number(&src[i..]) } else { number(&src[i..]) };
            let span = Span::new(line, start_col, n as u32);
            match tok {
                Ok(t) => out.push(Token { tok: t, span }),
                Err(msg) => {
                    diags.push(Diagnostic::error(span, msg));
                    out.push(Token { tok: Tok::Int { value: 0, unsigned: false }, span });
                }
            }
            advance(&mut i, &mut col, n);
            continue;
        }
        if let Some(p) = puncts.iter().find(|p| src[i..].starts_with(**p)) {
            out.push(Token { tok: Tok::Punct(p), span: Span::new(line, start_col, p.len() as u32) });
            advance(&mut i, &mut col, p.len());
            continue;
        }
        let ch = src[i..].chars().next().unwrap_or('?');
        let what = if ch == '"' || ch == '\'' { "string and character literals are" } else { "this character is" };
        let msg = if header { format!("unexpected `{ch}`") } else { format!("`{ch}`: {what} not part of the kernel language") };
        diags.push(Diagnostic::error(Span::new(line, start_col, 1), msg));
        advance(&mut i, &mut col, ch.len_utf8());
    }
    out.push(Token { tok: Tok::Eof, span: Span::new(line, col, 1) });
    (out, diags)
}

/// Reads a number literal: decimal or hex integers with `u`/`U` suffixes, floats with an
/// optional `f` suffix. Returns the token (or why it is not one) and the bytes it spans.
fn number(s: &str) -> (Result<Tok, String>, usize) {
    let b = s.as_bytes();
    let n = b.iter().take_while(|x| x.is_ascii_alphanumeric() || **x == b'.' || **x == b'_').count();
    // An exponent sign belongs to the number: 1e-3.
    let mut n = n;
    while n < b.len() && (b[n] == b'+' || b[n] == b'-') && matches!(b[n - 1], b'e' | b'E') && !s.starts_with("0x") {
        n += 1 + b[n + 1..].iter().take_while(|x| x.is_ascii_alphanumeric()).count();
    }
    let text = &s[..n];
    let bad = || Err(format!("`{text}` is not a number literal"));
    if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        let (digits, unsigned) = strip_unsigned(hex);
        return match u64::from_str_radix(digits, 16) {
            Ok(v) if v <= u32::MAX as u64 => (Ok(Tok::Int { value: v, unsigned: unsigned || v > i32::MAX as u64 }), n),
            Ok(_) => (Err(format!("`{text}` does not fit in 32 bits")), n),
            Err(_) => (bad(), n),
        };
    }
    let is_float = text.contains('.') || text.contains(['e', 'E']) || text.ends_with(['f', 'F']);
    if is_float {
        let digits = text.trim_end_matches(['f', 'F']);
        return match digits.parse::<f32>() {
            Ok(v) => (Ok(Tok::Float(v)), n),
            Err(_) => (bad(), n),
        };
    }
    let (digits, unsigned) = strip_unsigned(text);
    match digits.parse::<u64>() {
        Ok(v) if v <= u32::MAX as u64 => (Ok(Tok::Int { value: v, unsigned: unsigned || v > i32::MAX as u64 }), n),
        Ok(_) => (Err(format!("`{text}` does not fit in 32 bits")), n),
        Err(_) => (bad(), n),
    }
}

/// Reads a header expression's number: `0x1F` (up to 64 bits, above `i64::MAX` it wraps
/// negative), `42` (up to `i64::MAX`), `1.5`, `.5`, `1e-3`, `2.0f` (a trailing `f` makes a float).
fn header_number(s: &str) -> (Result<Tok, String>, usize) {
    let b = s.as_bytes();
    // Take the whole alphanumeric run (and an exponent's sign), so `12abc` is one bad number.
    let hex = b[0] == b'0' && matches!(b.get(1), Some(b'x' | b'X'));
    let sign = |k: usize| !hex && matches!(b[k], b'+' | b'-') && matches!(b[k - 1], b'e' | b'E');
    let mut n = 0;
    while n < b.len() && (b[n].is_ascii_alphanumeric() || b[n] == b'_' || b[n] == b'.' || sign(n)) {
        n += 1;
    }
    let text = &s[..n];
    let int = |v: u64| Tok::Int { value: v, unsigned: false };
    let bad = || Err(format!("invalid number `{text}`"));
    if let Some(h) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        if h.is_empty() || !h.bytes().all(|c| c.is_ascii_hexdigit()) {
            return (bad(), n);
        }
        return (u64::from_str_radix(h, 16).map(int).map_err(|_| format!("hex literal `{text}` is over 64 bits")), n);
    }
    let body = text.strip_suffix(['f', 'F']).unwrap_or(text);
    if body.len() < text.len() || body.contains(['.', 'e', 'E']) {
        return match body.parse::<f64>() {
            Ok(v) if v.is_finite() => (Ok(Tok::Double(v)), n),
            Ok(_) => (Err(format!("float literal `{text}` is out of range")), n),
            Err(_) => (bad(), n),
        };
    }
    if !body.bytes().all(|c| c.is_ascii_digit()) {
        return (bad(), n);
    }
    match body.parse::<i64>() {
        Ok(v) => (Ok(int(v as u64)), n),
        Err(_) => (Err(format!("integer literal `{text}` is too large")), n),
    }
}

fn strip_unsigned(s: &str) -> (&str, bool) {
    match s.strip_suffix(['u', 'U']) {
        Some(d) => (d, true),
        None => (s, false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<Tok> {
        lex(s).0.into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn numbers_operators_and_comments() {
        let t = toks("a <<= 0x1fu; // c\n b = 1.5f + 2e-1 /* x\n y */ - 3u;");
        assert_eq!(t[1], Tok::Punct("<<="));
        assert_eq!(t[2], Tok::Int { value: 0x1f, unsigned: true });
        assert_eq!(t[6], Tok::Float(1.5));
        assert_eq!(t[8], Tok::Float(0.2));
        assert_eq!(t[10], Tok::Int { value: 3, unsigned: true });
    }

    #[test]
    fn spans_count_lines_and_columns() {
        let (t, d) = lex("//@ param n = 2\n  x = @;");
        assert_eq!(t[0].span, Span::new(2, 3, 1));
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].span, Span::new(2, 7, 1));
    }
}
