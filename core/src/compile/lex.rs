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
    /// A C integer literal of type `long long` (an `l`/`ll` suffix, or too large for 32 bits).
    Long {
        value: u64,
        unsigned: bool,
    },
    /// A header expression's float literal: headers compute in `f64`.
    Double(f64),
    /// Operators and punctuation, longest match first (`<<=`, `&&`, `->`...).
    Punct(&'static str),
    /// A string literal, its escapes read (`printf`'s format, host code's messages).
    Str(String),
    /// The `#` that starts a preprocessor line; `EndDirective` ends it.
    Directive,
    EndDirective,
    /// Text that is not a token of the language, and why: an error only where the parser
    /// meets it (host code, which is skipped, may hold anything).
    Bad(String),
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
    // Inside a preprocessor line: its newline (not one escaped by `\`) ends it.
    let mut directive = false;
    // Whether only whitespace stands before `i` on this line (a `#` there starts a directive).
    let mut line_start = true;
    let bad = |out: &mut Vec<Token>, diags: &mut Vec<Diagnostic>, span: Span, msg: String| {
        if header {
            diags.push(Diagnostic::error(span, msg));
        } else {
            out.push(Token { tok: Tok::Bad(msg), span });
        }
    };
    // Advances over `n` bytes of one line, counting characters for the column.
    let advance = |i: &mut usize, col: &mut u32, n: usize| {
        *col += src[*i..*i + n].chars().count() as u32;
        *i += n;
    };
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            if directive {
                out.push(Token { tok: Tok::EndDirective, span: Span::new(line, col, 1) });
                directive = false;
            }
            i += 1;
            line += 1;
            col = 1;
            line_start = true;
            continue;
        }
        if c == b'\\' && src[i + 1..].trim_start_matches([' ', '\t', '\r']).starts_with('\n') {
            // A spliced line (C's backslash-newline), in a preprocessor line or in code.
            let n = 1 + src[i + 1..].find('\n').unwrap_or(0);
            advance(&mut i, &mut col, n);
            i += 1;
            line += 1;
            col = 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            advance(&mut i, &mut col, 1);
            continue;
        }
        if !header && src[i..].starts_with("//") {
            let n = src[i..].find('\n').unwrap_or(b.len() - i);
            advance(&mut i, &mut col, n);
            continue;
        }
        if !header && c == b'#' && line_start && !directive {
            out.push(Token { tok: Tok::Directive, span: Span::new(line, col, 1) });
            directive = true;
            line_start = false;
            advance(&mut i, &mut col, 1);
            continue;
        }
        line_start = false;
        if !header && (c == b'"' || c == b'\'') {
            let (tok, n) = quoted(&src[i..]);
            let span = Span::new(line, col, src[i..i + n].chars().count() as u32);
            match tok {
                Ok(t) => out.push(Token { tok: t, span }),
                Err(msg) => bad(&mut out, &mut diags, span, msg),
            }
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
                Err(msg) if header => {
                    diags.push(Diagnostic::error(span, msg));
                    out.push(Token { tok: Tok::Int { value: 0, unsigned: false }, span });
                }
                Err(msg) => out.push(Token { tok: Tok::Bad(msg), span }),
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
        let msg = if header { format!("unexpected `{ch}`") } else { format!("`{ch}`: this character is not part of the kernel language") };
        bad(&mut out, &mut diags, Span::new(line, start_col, 1), msg);
        advance(&mut i, &mut col, ch.len_utf8());
    }
    if directive {
        out.push(Token { tok: Tok::EndDirective, span: Span::new(line, col, 1) });
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
            Ok(v) => (Ok(int_token(v, unsigned, hex, true)), n),
            Err(_) => (bad(), n),
        };
    }
    let is_float = text.contains('.') || text.contains(['e', 'E']) || text.ends_with(['f', 'F']);
    if is_float {
        // `1.5f` is a float; `1.5` a double, kept exact for double arithmetic.
        return match text.strip_suffix(['f', 'F']) {
            Some(digits) => digits.parse::<f32>().map_or_else(|_| (bad(), n), |v| (Ok(Tok::Float(v)), n)),
            None => text.parse::<f64>().map_or_else(|_| (bad(), n), |v| (Ok(Tok::Double(v)), n)),
        };
    }
    let (digits, unsigned) = strip_unsigned(text);
    match digits.parse::<u64>() {
        Ok(v) => (Ok(int_token(v, unsigned, text, false)), n),
        Err(_) if digits.bytes().all(|c| c.is_ascii_digit()) => (Err(format!("`{text}` does not fit in 64 bits")), n),
        Err(_) => (bad(), n),
    }
}

/// An integer literal's token and type, as C types it: `int` or `unsigned` while 32 bits hold
/// it (a hex literal above `INT_MAX` is unsigned), `long long` with an `l` suffix or beyond.
fn int_token(value: u64, unsigned: bool, text: &str, hex: bool) -> Tok {
    let long = text.contains(['l', 'L']);
    if !long && value <= u32::MAX as u64 && (unsigned || hex || value <= i32::MAX as u64) {
        return Tok::Int { value, unsigned: unsigned || value > i32::MAX as u64 };
    }
    if !long && !unsigned && value <= u32::MAX as u64 {
        // A decimal above INT_MAX without a suffix is `long` in C.
        return Tok::Long { value, unsigned: false };
    }
    Tok::Long { value, unsigned: unsigned || value > i64::MAX as u64 }
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

/// Strips C's integer suffixes (`u`, `l`, `ll` in any case and order); says whether one was `u`.
fn strip_unsigned(s: &str) -> (&str, bool) {
    let digits = s.trim_end_matches(['u', 'U', 'l', 'L']);
    (digits, s[digits.len()..].contains(['u', 'U']))
}

/// Reads a string or character literal at the start of `s`: the token (a character is its
/// code, as in C) or why it is not one, and the bytes it spans (to the line's end when open).
fn quoted(s: &str) -> (Result<Tok, String>, usize) {
    let quote = s.as_bytes()[0];
    let mut text = String::new();
    let mut chars = s.char_indices().skip(1);
    while let Some((k, ch)) = chars.next() {
        match ch {
            '\n' => break,
            '\\' => {
                let Some((_, e)) = chars.next() else { break };
                text.push(match e {
                    'n' => '\n',
                    't' => '\t',
                    'r' => '\r',
                    '0' => '\0',
                    'a' => '\u{7}',
                    other => other,
                });
            }
            c if c as u32 == quote as u32 => {
                let n = k + 1;
                if quote == b'"' {
                    return (Ok(Tok::Str(text)), n);
                }
                let mut it = text.chars();
                return match (it.next(), it.next()) {
                    (Some(c), None) => (Ok(Tok::Int { value: c as u64, unsigned: false }), n),
                    _ => (Err(format!("`{}` is not a character literal (one character between single quotes)", &s[..n])), n),
                };
            }
            c => text.push(c),
        }
    }
    let n = s.find('\n').unwrap_or(s.len());
    let what = if quote == b'"' { "string" } else { "character literal" };
    (Err(format!("this {what} is never closed on its line")), n)
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
        assert_eq!(t[8], Tok::Double(0.2));
        assert_eq!(t[10], Tok::Int { value: 3, unsigned: true });
    }

    #[test]
    fn spans_count_lines_and_columns() {
        let (t, d) = lex("//@ param n = 2\n  x = @;");
        assert_eq!(t[0].span, Span::new(2, 3, 1));
        // A stray character is a token the parser reports where it meets it (not in host code).
        assert!(d.is_empty());
        assert!(matches!(&t[2].tok, Tok::Bad(m) if m.contains("`@`")));
        assert_eq!(t[2].span, Span::new(2, 7, 1));
    }

    #[test]
    fn directives_strings_and_suffixes() {
        let t = toks("#include <cstdio>\n#define N \\\n 4\nprintf(\"a\\n%d\", 'x', 10UL);");
        assert_eq!(t[0], Tok::Directive);
        assert_eq!(t[5], Tok::EndDirective);
        assert_eq!(t[6], Tok::Directive);
        assert_eq!(t[9], Tok::Int { value: 4, unsigned: false });
        assert_eq!(t[10], Tok::EndDirective);
        assert_eq!(t[13], Tok::Str("a\n%d".into()));
        assert_eq!(t[15], Tok::Int { value: 'x' as u64, unsigned: false });
        assert_eq!(t[17], Tok::Long { value: 10, unsigned: true });
        assert!(matches!(&toks("\"open")[0], Tok::Bad(m) if m.contains("never closed")));
        // C's literal types: 32 bits while they fit, `long long` with a suffix or beyond.
        assert_eq!(
            toks("7 0xffffffff 3000000000 5ll 1e1 2.5f")[..6],
            [
                Tok::Int { value: 7, unsigned: false },
                Tok::Int { value: 0xffff_ffff, unsigned: true },
                Tok::Long { value: 3_000_000_000, unsigned: false },
                Tok::Long { value: 5, unsigned: false },
                Tok::Double(10.0),
                Tok::Float(2.5),
            ]
        );
    }
}
