//! The syntax of one operand: registers, predicates, immediates, special registers, barriers,
//! memory addresses and code targets. What an operand may be is decided by `decode`.

use alloc::format;
use alloc::string::{String, ToString};

use crate::isa::{Axis, Pred, Reg, SpecialReg};

#[derive(Clone, PartialEq, Debug)]
pub enum Operand {
    /// `R3`, `-R3`, `~R3`, `RZ`, `R4.64` (the `.64` pair suffix is accepted and ignored).
    Reg {
        reg: Reg,
        negated: bool,
        inverted: bool,
    },
    /// `P0`, `!P0`, `PT`, `!PT`.
    Pred {
        pred: Pred,
        negated: bool,
    },
    /// An integer literal; `hex` records whether it was written in hex (a code address).
    Int {
        value: i64,
        hex: bool,
    },
    /// A literal with a decimal point or exponent.
    Float(f64),
    Special(SpecialReg),
    Barrier(u8),
    /// `[R2]`, `[R2+0x4]`, `[R2-4]`, `[0x10]`.
    Mem {
        base: Reg,
        offset: i64,
    },
    /// A label name, bare or in the disassembler's `` `(name) `` / `'(name)` form.
    Label(String),
    /// `"text\n"`: a string (`PRINTF`'s format and `%s` arguments), escapes read.
    Str(String),
}

impl Operand {
    /// A short noun for error messages: "a register", "a predicate", ...
    pub fn kind(&self) -> &'static str {
        match self {
            Operand::Reg { .. } => "a register",
            Operand::Pred { .. } => "a predicate",
            Operand::Int { .. } => "an integer",
            Operand::Float(_) => "a float",
            Operand::Special(_) => "a special register",
            Operand::Barrier(_) => "a convergence barrier",
            Operand::Mem { .. } => "a memory address",
            Operand::Label(_) => "a label",
            Operand::Str(_) => "a string",
        }
    }
}

fn parse_int(s: &str) -> Option<(i64, bool)> {
    let (neg, body) = match s.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let (v, hex) = if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        (i64::from_str_radix(h, 16).ok()?, true)
    } else if !body.is_empty() && body.bytes().all(|b| b.is_ascii_digit()) {
        (body.parse::<i64>().ok()?, false)
    } else {
        return None;
    };
    Some((if neg { -v } else { v }, hex))
}

fn parse_float(s: &str) -> Option<f64> {
    let body = s.strip_suffix('f').unwrap_or(s);
    let looks = body.contains('.') || body.contains('e') || body.contains('E');
    let digits = body.bytes().any(|b| b.is_ascii_digit());
    if !looks || !digits || !body.bytes().all(|b| b.is_ascii_digit() || b"+-.eE".contains(&b)) {
        return None;
    }
    body.parse::<f64>().ok()
}

pub fn parse_reg(s: &str) -> Option<Reg> {
    if s == "RZ" {
        return Some(Reg::RZ);
    }
    let n = s.strip_prefix('R')?;
    if n.is_empty() || n.len() > 3 || !n.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let v: u16 = n.parse().ok()?;
    (v <= 254).then_some(Reg(v as u8))
}

fn parse_pred(s: &str) -> Option<Pred> {
    if s == "PT" || s == "UPT" {
        return Some(Pred::PT);
    }
    let (n, uniform) = match s.strip_prefix("UP") {
        Some(n) => (n, true),
        None => (s.strip_prefix('P')?, false),
    };
    match (n.as_bytes(), uniform) {
        ([d @ b'0'..=b'6'], false) => Some(Pred(d - b'0')),
        ([d @ b'0'..=b'6'], true) => Pred::uniform(d - b'0'),
        _ => None,
    }
}

pub(crate) fn parse_special(s: &str) -> Option<SpecialReg> {
    Some(match s {
        "SR_TID_X" => SpecialReg::Tid(Axis::X),
        "SR_LANEID" => SpecialReg::LaneId,
        "SR_LTMASK" => SpecialReg::LaneMaskLt,
        "SR_LEMASK" => SpecialReg::LaneMaskLe,
        "SR_GTMASK" => SpecialReg::LaneMaskGt,
        "SR_GEMASK" => SpecialReg::LaneMaskGe,
        "SR_EQMASK" => SpecialReg::LaneMaskEq,
        "SR_WARPID" => SpecialReg::WarpId,
        "SR_CLOCKLO" => SpecialReg::ClockLo,
        "SR_CLOCKHI" => SpecialReg::ClockHi,
        "SRZ" => SpecialReg::Srz,
        _ => {
            let (name, axis) = s.split_once('.')?;
            let axis = Axis::ALL.into_iter().find(|a| a.name() == axis)?;
            match name {
                "SR_TID" => SpecialReg::Tid(axis),
                "SR_NTID" => SpecialReg::Ntid(axis),
                "SR_CTAID" => SpecialReg::Ctaid(axis),
                "SR_NCTAID" => SpecialReg::Nctaid(axis),
                _ => return None,
            }
        }
    })
}

/// Parses `[base + offset]`.
fn parse_mem(inner: &str) -> Result<Operand, String> {
    let t: String = inner.chars().filter(|c| !c.is_whitespace()).collect();
    if t.is_empty() {
        return Err("empty memory address `[]`".to_string());
    }
    // A sign after the first character splits base from offset (the first may be `-` itself).
    let first = t.chars().next().map_or(0, char::len_utf8);
    let split = t[first..].find(['+', '-']).map(|k| k + first);
    let (base_txt, off_txt) = match split {
        Some(k) => (&t[..k], &t[k..]),
        None => (t.as_str(), ""),
    };
    let base_txt = base_txt.strip_suffix(".64").unwrap_or(base_txt);
    let (base, offset) = if let Some(r) = parse_reg(base_txt) {
        let off = if off_txt.is_empty() {
            0
        } else {
            let clean = off_txt.strip_prefix('+').unwrap_or(off_txt);
            parse_int(clean).ok_or_else(|| format!("bad address offset `{off_txt}`"))?.0
        };
        (r, off)
    } else if let Some((v, _)) = parse_int(&t) {
        (Reg::RZ, v)
    } else {
        return Err(format!("bad memory address `[{inner}]`: expected `[Rn]`, `[Rn+offset]` or `[offset]`"));
    };
    Ok(Operand::Mem { base, offset })
}

/// Parses one operand's text. The error message names what was found.
pub fn parse_operand(text: &str) -> Result<Operand, String> {
    let t = text.trim();
    if t.starts_with('"') {
        return crate::printf::unquote(t).map(Operand::Str);
    }
    if let Some(inner) = t.strip_prefix('[').and_then(|s| s.strip_suffix(']')) {
        return parse_mem(inner);
    }
    if t.starts_with("c[") || t.starts_with("desc[") || t.starts_with("UR") {
        return Err(format!(
            "`{t}`: constant banks and uniform registers are not supported; load the value from a buffer or put it in a `//@ reg` header"
        ));
    }
    if let Some(label) = t.strip_prefix("`(").or_else(|| t.strip_prefix("'(")).and_then(|s| s.strip_suffix(')')) {
        return Ok(Operand::Label(label.to_string()));
    }
    if let Some(p) = t.strip_prefix('!') {
        return parse_pred(p)
            .map(|pred| Operand::Pred { pred, negated: true })
            .ok_or_else(|| format!("`{t}`: `!` negates a predicate (P0-P6, PT)"));
    }
    if let Some(p) = parse_pred(t) {
        return Ok(Operand::Pred { pred: p, negated: false });
    }
    if let Some(s) = parse_special(t) {
        return Ok(Operand::Special(s));
    }
    let (negated, inverted, body) = match (t.strip_prefix('-'), t.strip_prefix('~')) {
        (Some(b), _) if b.starts_with('R') => (true, false, b),
        (_, Some(b)) => (false, true, b),
        _ => (false, false, t),
    };
    let reg_txt = body.strip_suffix(".64").unwrap_or(body);
    if let Some(reg) = parse_reg(reg_txt) {
        return Ok(Operand::Reg { reg, negated, inverted });
    }
    if body.starts_with('R') && body[1..].bytes().next().is_some_and(|b| b.is_ascii_digit()) {
        if let Some(dot) = body.find('.') {
            return Err(format!("`{t}`: register modifier `{}` is not supported (no carry flags or sub-registers)", &body[dot..]));
        }
        return Err(format!("`{t}`: registers are R0-R254 and RZ"));
    }
    if let Some(b) = t.strip_prefix('B') {
        if let Ok(n) = b.parse::<u8>() {
            return if n < 16 { Ok(Operand::Barrier(n)) } else { Err(format!("`{t}`: convergence barriers are B0-B15")) };
        }
    }
    if let Some((value, hex)) = parse_int(t) {
        return Ok(Operand::Int { value, hex });
    }
    if let Some(f) = parse_float(t) {
        return Ok(Operand::Float(f));
    }
    if t.starts_with("SR_") {
        return Err(format!(
            "unknown special register `{t}` (known: SR_TID.X/Y/Z, SR_NTID.*, SR_CTAID.*, SR_NCTAID.*, SR_LANEID, SR_WARPID, SR_LTMASK, SR_LEMASK, SR_GTMASK, SR_GEMASK, SR_EQMASK, SR_CLOCKLO, SR_CLOCKHI)"
        ));
    }
    if t.starts_with('P') && t.len() == 2 {
        return Err(format!("`{t}`: predicates are P0-P6 and PT"));
    }
    if !t.is_empty() && t.chars().all(super::line::is_label_char) && !t.starts_with(|c: char| c.is_ascii_digit()) {
        return Ok(Operand::Label(t.to_string()));
    }
    Err(format!("cannot read operand `{t}`"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds() {
        assert_eq!(parse_operand("R5"), Ok(Operand::Reg { reg: Reg(5), negated: false, inverted: false }));
        assert_eq!(parse_operand("-R5"), Ok(Operand::Reg { reg: Reg(5), negated: true, inverted: false }));
        assert_eq!(parse_operand("!P0"), Ok(Operand::Pred { pred: Pred(0), negated: true }));
        assert_eq!(parse_operand("0x1"), Ok(Operand::Int { value: 1, hex: true }));
        assert_eq!(parse_operand("-0x1"), Ok(Operand::Int { value: -1, hex: true }));
        assert_eq!(parse_operand("1.3332999944686889648"), Ok(Operand::Float(1.333_299_994_468_689)));
        assert_eq!(parse_operand("[R2+0x4]"), Ok(Operand::Mem { base: Reg(2), offset: 4 }));
        assert_eq!(parse_operand("[ R2 - 8 ]"), Ok(Operand::Mem { base: Reg(2), offset: -8 }));
        assert_eq!(parse_operand("`(.L_x_0)"), Ok(Operand::Label(".L_x_0".into())));
        assert_eq!(parse_operand("SR_CLOCKHI"), Ok(Operand::Special(SpecialReg::ClockHi)));
        assert_eq!(parse_operand("B3"), Ok(Operand::Barrier(3)));
        assert!(parse_operand("R4.CC").unwrap_err().contains(".CC"));
        assert!(parse_operand("c[0x0][0x30]").is_err());
        assert!(parse_operand("R300").is_err());
        assert!(parse_operand("P9").is_err());
    }
}
