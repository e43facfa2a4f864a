//! Splits CUDA-C source into tokens with their spans. Comments (including the `//@` header
//! lines) and preprocessor-free whitespace are skipped; a character outside the language is a
//! located error, and lexing goes on after it.

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

pub fn lex(src: &str) -> (Vec<Token>, Vec<Diagnostic>) {
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
        if src[i..].starts_with("//") || c == b'#' {
            // Line comments; `#pragma`/`#include` lines are ignored the same way.
            let n = src[i..].find('\n').unwrap_or(b.len() - i);
            advance(&mut i, &mut col, n);
            continue;
        }
        if src[i..].starts_with("/*") {
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
            let (tok, n) = number(&src[i..]);
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
        if let Some(p) = PUNCTS.iter().find(|p| src[i..].starts_with(**p)) {
            out.push(Token { tok: Tok::Punct(p), span: Span::new(line, start_col, p.len() as u32) });
            advance(&mut i, &mut col, p.len());
            continue;
        }
        let ch = src[i..].chars().next().unwrap_or('?');
        let what = if ch == '"' || ch == '\'' { "string and character literals are" } else { "this character is" };
        diags.push(Diagnostic::error(Span::new(line, start_col, 1), format!("`{ch}`: {what} not part of the kernel language")));
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
