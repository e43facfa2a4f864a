//! Printing one directive's argument as C's `printf` does (glibc's output where C leaves a
//! choice: `(nil)` for a null `%p`, `-nan`). Pure functions over the argument's bits.

use alloc::format;
use alloc::string::String;

use super::spec::{Conv, Length, Spec};

/// The argument of an integer or pointer directive, as raw bits (a pair's low word first).
pub fn integer(out: &mut String, s: &Spec, bits: u64) {
    let (neg, magnitude) = match (s.conv, s.length) {
        (Conv::Signed, Length::Char) => split(bits as u8 as i8 as i64),
        (Conv::Signed, Length::Short) => split(bits as u16 as i16 as i64),
        (Conv::Signed, Length::Int) => split(bits as u32 as i32 as i64),
        (Conv::Signed, Length::Long) => split(bits as i64),
        (_, Length::Char) => (false, bits as u8 as u64),
        (_, Length::Short) => (false, bits as u16 as u64),
        (_, Length::Int) => (false, bits as u32 as u64),
        (_, Length::Long) => (false, bits),
    };
    let mut body = match s.conv {
        Conv::Octal => format!("{magnitude:o}"),
        Conv::Hex { upper: false } => format!("{magnitude:x}"),
        Conv::Hex { upper: true } => format!("{magnitude:X}"),
        _ => format!("{magnitude}"),
    };
    if let Some(p) = s.precision {
        if p == 0 && magnitude == 0 {
            body.clear();
        }
        while body.len() < p as usize {
            body.insert(0, '0');
        }
    }
    let prefix = match s.conv {
        Conv::Octal if s.alt && !body.starts_with('0') => "0",
        Conv::Hex { upper } if s.alt && magnitude != 0 => {
            if upper {
                "0X"
            } else {
                "0x"
            }
        }
        _ => "",
    };
    let sign = if s.conv == Conv::Signed { sign(s, neg) } else { "" };
    // `0` pads only when no precision is given (C ignores it then).
    pad(out, s, sign, prefix, &body, s.precision.is_none());
}

/// `%c`: the argument converted to `unsigned char`.
pub fn character(out: &mut String, s: &Spec, bits: u32) {
    let mut body = String::new();
    body.push(char::from(bits as u8));
    pad(out, s, "", "", &body, false);
}

/// `%s` of a string literal: the precision is the most characters printed.
pub fn string(out: &mut String, s: &Spec, text: &str) {
    let body = match s.precision {
        Some(p) => text.chars().take(p as usize).collect::<String>(),
        None => String::from(text),
    };
    pad(out, s, "", "", &body, false);
}

/// `%p`: `0x` and the address in hex, `(nil)` for null (as glibc prints it).
pub fn pointer(out: &mut String, s: &Spec, bits: u64) {
    let body = if bits == 0 { String::from("(nil)") } else { format!("0x{bits:x}") };
    pad(out, s, "", "", &body, false);
}

/// `%f %e %g` and their capitals, of a `double`.
pub fn float(out: &mut String, s: &Spec, x: f64) {
    let upper = matches!(s.conv, Conv::Fixed { upper: true } | Conv::Exp { upper: true } | Conv::General { upper: true });
    let sign = sign(s, x.is_sign_negative());
    if !x.is_finite() {
        let body = match (x.is_nan(), upper) {
            (true, false) => "nan",
            (true, true) => "NAN",
            (false, false) => "inf",
            (false, true) => "INF",
        };
        return pad(out, s, sign, "", body, false);
    }
    let v = x.abs();
    let p = s.precision.unwrap_or(6) as usize;
    let mut body = match s.conv {
        Conv::Exp { .. } => exp(v, p, s.alt),
        Conv::General { .. } => general(v, p, s.alt),
        _ => {
            let mut f = format!("{v:.p$}");
            if s.alt && p == 0 {
                f.push('.');
            }
            f
        }
    };
    if upper {
        body.make_ascii_uppercase();
    }
    pad(out, s, sign, "", &body, true);
}

fn split(v: i64) -> (bool, u64) {
    (v < 0, v.unsigned_abs())
}

fn sign(s: &Spec, negative: bool) -> &'static str {
    if negative {
        "-"
    } else if s.plus {
        "+"
    } else if s.space {
        " "
    } else {
        ""
    }
}

/// `%e`: one digit, the point, `p` digits, `e`, the exponent's sign and at least two digits.
fn exp(v: f64, p: usize, alt: bool) -> String {
    let (mantissa, e) = exp_parts(v, p);
    let point = if alt && p == 0 { "." } else { "" };
    let esign = if e < 0 { '-' } else { '+' };
    format!("{mantissa}{point}e{esign}{:02}", e.unsigned_abs())
}

/// Rust's `{:.pe}` split into the mantissa's text and the exponent.
fn exp_parts(v: f64, p: usize) -> (String, i32) {
    let text = format!("{v:.p$e}");
    match text.split_once('e') {
        Some((m, e)) => (String::from(m), e.parse().unwrap_or(0)),
        None => (text, 0),
    }
}

/// `%g`: `%e` or `%f` by the exponent, with `p` significant digits, trailing zeros removed
/// unless `#`.
fn general(v: f64, p: usize, alt: bool) -> String {
    let p = p.max(1);
    let x = if v == 0.0 { 0 } else { exp_parts(v, p - 1).1 };
    let mut body = if (x as i64) < p as i64 && x >= -4 {
        let decimals = (p as i64 - 1 - x as i64) as usize;
        let mut f = format!("{v:.decimals$}");
        if alt && decimals == 0 {
            f.push('.');
        }
        f
    } else {
        exp(v, p - 1, alt)
    };
    if !alt {
        let (mantissa, tail) = match body.find('e') {
            Some(k) => body.split_at(k),
            None => (body.as_str(), ""),
        };
        if mantissa.contains('.') {
            let trimmed = mantissa.trim_end_matches('0').trim_end_matches('.');
            body = format!("{trimmed}{tail}");
        }
    }
    body
}

/// Writes sign, prefix and body padded to the width: on the right with `-`, with zeros after
/// the sign when `0` applies, else with spaces on the left.
fn pad(out: &mut String, s: &Spec, sign: &str, prefix: &str, body: &str, zero_applies: bool) {
    let len = sign.chars().count() + prefix.chars().count() + body.chars().count();
    let fill = (s.width.unwrap_or(0) as usize).saturating_sub(len);
    if s.left {
        out.push_str(sign);
        out.push_str(prefix);
        out.push_str(body);
        out.extend(core::iter::repeat_n(' ', fill));
    } else if s.zero && zero_applies {
        out.push_str(sign);
        out.push_str(prefix);
        out.extend(core::iter::repeat_n('0', fill));
        out.push_str(body);
    } else {
        out.extend(core::iter::repeat_n(' ', fill));
        out.push_str(sign);
        out.push_str(prefix);
        out.push_str(body);
    }
}
