//! Reading a C `printf` format: literal text and conversion directives
//! (`%[flags][width][.precision][length]conversion`), each directive with the argument it takes.
//! Reading never fails: a directive warpscope cannot print is kept as text, with a problem for
//! the compiler to warn about.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// A length modifier: which integer width the conversion reads.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Length {
    /// None: `int`, `unsigned` or (for floats) `double`.
    Int,
    /// `hh`: converted to `char` before printing.
    Char,
    /// `h`: converted to `short` before printing.
    Short,
    /// `l`, `ll`, `z`, `j`, `t`: 64 bits on the device (`long` is 64-bit under CUDA on Linux).
    Long,
}

/// What a directive prints.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Conv {
    /// `%d`, `%i`
    Signed,
    /// `%u`
    Unsigned,
    /// `%o`
    Octal,
    /// `%x`, `%X`
    Hex { upper: bool },
    /// `%c`
    Char,
    /// `%f`, `%F`
    Fixed { upper: bool },
    /// `%e`, `%E`
    Exp { upper: bool },
    /// `%g`, `%G`
    General { upper: bool },
    /// `%s`: a string literal.
    Str,
    /// `%p`
    Ptr,
}

impl Conv {
    /// The C type a plain argument of this conversion has (for warnings).
    pub fn c_type(self, length: Length) -> &'static str {
        match (self, length) {
            (Conv::Signed, Length::Long) => "long",
            (Conv::Signed, _) => "int",
            (Conv::Unsigned | Conv::Octal | Conv::Hex { .. }, Length::Long) => "unsigned long",
            (Conv::Unsigned | Conv::Octal | Conv::Hex { .. }, _) => "unsigned int",
            (Conv::Char, _) => "int",
            (Conv::Fixed { .. } | Conv::Exp { .. } | Conv::General { .. }, _) => "double",
            (Conv::Str, _) => "char*",
            (Conv::Ptr, _) => "void*",
        }
    }
    pub fn is_float(self) -> bool {
        matches!(self, Conv::Fixed { .. } | Conv::Exp { .. } | Conv::General { .. })
    }
    pub fn is_integer(self) -> bool {
        matches!(self, Conv::Signed | Conv::Unsigned | Conv::Octal | Conv::Hex { .. } | Conv::Char)
    }
}

/// How a directive's argument travels: one register, a register pair (low word first) or a
/// string literal kept with the format.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ArgKind {
    Word,
    Pair,
    Str,
}

impl ArgKind {
    pub fn words(self) -> usize {
        match self {
            ArgKind::Word => 1,
            ArgKind::Pair => 2,
            ArgKind::Str => 0,
        }
    }
}

/// One conversion directive.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Spec {
    /// `-`: left-justify in the width.
    pub left: bool,
    /// `+`: a sign on positive numbers too.
    pub plus: bool,
    /// ` `: a space where a positive number has no sign.
    pub space: bool,
    /// `#`: the alternative form (`0x` prefix, a leading `0` in octal, a point that stays).
    pub alt: bool,
    /// `0`: pad numbers with zeros.
    pub zero: bool,
    pub width: Option<u32>,
    pub precision: Option<u32>,
    pub length: Length,
    pub conv: Conv,
}

impl Spec {
    pub fn kind(&self) -> ArgKind {
        match self.conv {
            Conv::Str => ArgKind::Str,
            // Varargs promote `float` to `double`; pointers are 64-bit on the device.
            Conv::Fixed { .. } | Conv::Exp { .. } | Conv::General { .. } | Conv::Ptr => ArgKind::Pair,
            _ if self.length == Length::Long => ArgKind::Pair,
            _ => ArgKind::Word,
        }
    }
}

/// A piece of a format: text printed as it is, or a directive.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Piece {
    Text(String),
    Spec(Spec),
}

/// A directive warpscope cannot print (kept as text): its byte range in the format and why.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct FormatProblem {
    pub start: usize,
    pub len: usize,
    pub message: String,
}

/// Width and precision above this are clamped (C allows any int; a page does not).
pub const MAX_FIELD: u32 = 512;

/// Splits a format into pieces (adjacent text joined, `%%` read as `%`).
pub fn parse(text: &str) -> (Vec<Piece>, Vec<FormatProblem>) {
    let mut pieces = Vec::new();
    let mut problems = Vec::new();
    let mut lit = String::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let Some(rel) = text[i..].find('%') else {
            lit.push_str(&text[i..]);
            break;
        };
        lit.push_str(&text[i..i + rel]);
        let start = i + rel;
        match directive(text, start) {
            Directive::Percent(end) => {
                lit.push('%');
                i = end;
            }
            Directive::Spec(spec, end) => {
                if !lit.is_empty() {
                    pieces.push(Piece::Text(core::mem::take(&mut lit)));
                }
                pieces.push(Piece::Spec(spec));
                i = end;
            }
            Directive::Bad(end, message) => {
                problems.push(FormatProblem { start, len: end - start, message });
                lit.push_str(&text[start..end]);
                i = end;
            }
        }
    }
    if !lit.is_empty() {
        pieces.push(Piece::Text(lit));
    }
    (pieces, problems)
}

enum Directive {
    Percent(usize),
    Spec(Spec, usize),
    Bad(usize, String),
}

fn digits(bytes: &[u8], mut i: usize) -> (Option<u32>, usize) {
    let from = i;
    let mut v: u32 = 0;
    while i < bytes.len() && bytes[i].is_ascii_digit() {
        v = v.saturating_mul(10).saturating_add((bytes[i] - b'0') as u32);
        i += 1;
    }
    ((i > from).then_some(v.min(MAX_FIELD)), i)
}

/// Reads the directive at `start` (a `%`); the byte after it.
fn directive(text: &str, start: usize) -> Directive {
    let b = text.as_bytes();
    let mut i = start + 1;
    if b.get(i) == Some(&b'%') {
        return Directive::Percent(i + 1);
    }
    let mut s = Spec {
        left: false,
        plus: false,
        space: false,
        alt: false,
        zero: false,
        width: None,
        precision: None,
        length: Length::Int,
        conv: Conv::Signed,
    };
    while let Some(&c) = b.get(i) {
        match c {
            b'-' => s.left = true,
            b'+' => s.plus = true,
            b' ' => s.space = true,
            b'#' => s.alt = true,
            b'0' => s.zero = true,
            _ => break,
        }
        i += 1;
    }
    let star = |i: usize| {
        Directive::Bad(i + 1, String::from("`*` (a width or precision from an argument) is not supported: write the number in the format"))
    };
    if b.get(i) == Some(&b'*') {
        return star(i);
    }
    (s.width, i) = digits(b, i);
    if b.get(i) == Some(&b'.') {
        if b.get(i + 1) == Some(&b'*') {
            return star(i + 1);
        }
        let (p, next) = digits(b, i + 1);
        s.precision = Some(p.unwrap_or(0));
        i = next;
    }
    s.length = match (b.get(i), b.get(i + 1)) {
        (Some(b'h'), Some(b'h')) => {
            i += 2;
            Length::Char
        }
        (Some(b'l'), Some(b'l')) => {
            i += 2;
            Length::Long
        }
        (Some(b'h'), _) => {
            i += 1;
            Length::Short
        }
        (Some(b'l' | b'z' | b'j' | b't'), _) => {
            i += 1;
            Length::Long
        }
        _ => Length::Int,
    };
    let Some(&c) = b.get(i) else {
        return Directive::Bad(i, String::from("the format ends inside a `%` directive (write `%%` for a percent sign)"));
    };
    s.conv = match c {
        b'd' | b'i' => Conv::Signed,
        b'u' => Conv::Unsigned,
        b'o' => Conv::Octal,
        b'x' | b'X' => Conv::Hex { upper: c == b'X' },
        b'c' => Conv::Char,
        b'f' | b'F' => Conv::Fixed { upper: c == b'F' },
        b'e' | b'E' => Conv::Exp { upper: c == b'E' },
        b'g' | b'G' => Conv::General { upper: c == b'G' },
        b's' => Conv::Str,
        b'p' => Conv::Ptr,
        _ => {
            let end = i + text[i..].chars().next().map_or(1, char::len_utf8);
            let shown = &text[start..end];
            let why = match c {
                b'a' | b'A' => String::from("hexadecimal floats"),
                b'n' => String::from("`%n` (writing the count so far)"),
                b'L' => String::from("`long double`"),
                _ => format!("the conversion `{}`", &text[i..end]),
            };
            return Directive::Bad(
                end,
                format!(
                    "`{shown}`: {why} is not supported by warpscope's printf (it prints %d %i %u %x %X %o %c %f %F %e %E %g %G %s %p %%)"
                ),
            );
        }
    };
    Directive::Spec(s, i + 1)
}
