//! The 64-bit forms: carries for `IADD3`, `IMAD.WIDE`, funnel shifts, double precision and the
//! conversions that involve a 64-bit type. Wide values are register pairs, low word first.

use alloc::format;

use super::{cmp_of, combine_of, err, setp_operands, Args, At, DecodeError, Mods};
use crate::asm::operand::Operand;
use crate::isa::*;

/// `IADD3 d, a, b, c`, `IADD3 d, Pc, a, b, c`, `IADD3 d, Pc, PT, a, b, c`; `IADD3.X d, [Pc,] a, b,
/// c, Pin [, !PT]` (SASS writes a second carry out and in, always `PT`/`!PT` in 64-bit code).
pub(super) fn iadd3(mods: &mut Mods, a: &Args) -> Result<Op, DecodeError> {
    let x = mods.take("X");
    a.count(if x { &[5, 6, 7] } else { &[4, 5, 6] })?;
    let dst = a.reg(0)?;
    let carry = if a.is_pred(1) { a.pred(1)? } else { Pred::PT };
    let mut at = 1 + usize::from(a.is_pred(1));
    if a.is_pred(at) {
        if a.pred(at)? != Pred::PT {
            return err(At::Operand(at), "the second carry out of `IADD3` must be PT");
        }
        at += 1;
    }
    if !x {
        a.count(&[at + 3])?;
        return Ok(Op::Iadd3 { dst, a: a.src_int(at)?, b: a.src_int(at + 1)?, c: a.src_int(at + 2)?, carry });
    }
    a.count(&[at + 4, at + 5])?;
    if a.ops.len() == at + 5 && a.ops[at + 4] != (Operand::Pred { pred: Pred::PT, negated: true }) {
        return err(At::Operand(at + 4), "the second carry in of `IADD3.X` must be !PT");
    }
    let (x0, i0) = src_inverted(a, at)?;
    let (x1, i1) = src_inverted(a, at + 1)?;
    let (x2, i2) = src_inverted(a, at + 2)?;
    Ok(Op::Iadd3X { dst, carry, a: x0, b: x1, c: x2, invert: [i0, i1, i2], carry_in: a.pred_src(at + 3)? })
}

/// An integer source that may be written `~Rn` (bitwise complement).
fn src_inverted(a: &Args, i: usize) -> Result<(Src, bool), DecodeError> {
    match a.ops[i] {
        Operand::Reg { reg, negated: false, inverted: true } => Ok((Src::reg(reg), true)),
        _ => Ok((a.src_int(i)?, false)),
    }
}

/// `IMAD.WIDE[.U32] d, a, b, c`.
pub(super) fn imad_wide(mods: &mut Mods, a: &Args) -> Result<Op, DecodeError> {
    a.count(&[4])?;
    let signed = !mods.take("U32");
    mods.take("S32");
    Ok(Op::ImadWide { dst: a.reg(0)?, a: a.src_int(1)?, b: a.src_int(2)?, c: a.src_int(3)?, signed })
}

/// `SHF.L|R.U32|S32|U64|S64[.HI] d, lo, shift, hi` (`.W`, wrapping 32-bit shifts, is not here).
pub(super) fn shf(mods: &mut Mods, a: &Args) -> Result<Op, DecodeError> {
    a.count(&[4])?;
    let left = match mods.take_any(&["L", "R"]) {
        Some(d) => d == "L",
        None => return err(At::Mnemonic, "`SHF` needs a direction: .L or .R"),
    };
    let (signed, wide) = match mods.take_any(&["U32", "S32", "U64", "S64"]) {
        Some("U32") => (false, false),
        Some("S32") => (true, false),
        Some("U64") => (false, true),
        Some(_) => (true, true),
        None => return err(At::Mnemonic, "`SHF` needs a type: .U32, .S32, .U64 or .S64"),
    };
    let high = mods.take("HI");
    Ok(Op::Shf { dst: a.reg(0)?, lo: a.src_int(1)?, shift: a.src_int(2)?, hi: a.src_int(3)?, left, signed, wide, high })
}

/// A double source: a register pair, or an immediate, which (as in SASS) holds the high word of
/// the double; a decimal number must be exact that way.
fn src_double(a: &Args, i: usize) -> Result<Src, DecodeError> {
    let value = match a.ops[i] {
        Operand::Reg { reg, negated, inverted: false } => return Ok(Src::Reg { reg, negated }),
        Operand::Int { value, hex: true } => return Ok(Src::Imm(a.imm_bits(i, value)?)),
        Operand::Float(f) => f,
        Operand::Int { value, hex: false } => value as f64,
        _ => return a.wrong(i, "a register pair or a number"),
    };
    let bits = value.to_bits();
    if bits as u32 != 0 {
        return err(At::Operand(i), format!("`{value}` is not exact in a double immediate (its high 32 bits): put it in a register pair"));
    }
    Ok(Src::Imm((bits >> 32) as u32))
}

/// `DADD`, `DMUL`, `DDIV`, `DFMA`, `DSETP`, `DMNMX`.
pub(super) fn double(opcode: &str, mods: &mut Mods, a: &Args) -> Result<Op, DecodeError> {
    mods.ignore(&["RN", "RZ", "RM", "RP", "FTZ"]);
    let src = |i| src_double(a, i);
    Ok(match opcode {
        "DADD" | "DMUL" | "DDIV" => {
            a.count(&[3])?;
            let (dst, x, y) = (a.reg(0)?, src(1)?, src(2)?);
            match opcode {
                "DADD" => Op::Dadd { dst, a: x, b: y },
                "DMUL" => Op::Dmul { dst, a: x, b: y },
                _ => Op::Ddiv { dst, a: x, b: y },
            }
        }
        "DFMA" => {
            a.count(&[4])?;
            Op::Dfma { dst: a.reg(0)?, a: src(1)?, b: src(2)?, c: src(3)? }
        }
        "DSETP" => {
            let cmp = cmp_of(mods, true)?;
            let combine = combine_of(mods);
            let (dst, dst_inv, x, y, c) = setp_operands(a, src)?;
            Op::Dsetp { cmp, combine, dst, dst_inv, a: x, b: y, c }
        }
        _ => {
            a.count(&[3, 4])?;
            Op::Dmnmx { dst: a.reg(0)?, a: src(1)?, b: src(2)?, p: a.pred_src_or_true(3)? }
        }
    })
}

/// The number types among the modifiers, in order (taken out of `mods`).
fn types(mods: &mut Mods) -> alloc::vec::Vec<NumType> {
    let mut out = alloc::vec::Vec::new();
    mods.list.retain(|m| {
        let t = match *m {
            "S32" => NumType::S32,
            "U32" => NumType::U32,
            "S64" => NumType::S64,
            "U64" => NumType::U64,
            "F32" => NumType::F32,
            "F64" => NumType::F64,
            _ => return true,
        };
        out.push(t);
        false
    });
    out
}

/// `I2F[.F32|.F64][.S32|.U32|.S64|.U64][.RN|.RM|.RP|.RZ]`,
/// `F2I[.S32|.U32|.S64|.U64][.F32|.F64][.TRUNC|.FLOOR|.CEIL|.ROUND]`,
/// `F2F.F64.F32` / `F2F.F32.F64[.RN|.RM|.RP|.RZ]` (destination type first). Conversions between 32-bit types keep
/// their `I2f`/`F2i` ops; the rest are `Cvt`.
pub(super) fn convert(opcode: &str, mods: &mut Mods, a: &Args) -> Result<Op, DecodeError> {
    a.count(&[2])?;
    let ts = types(mods);
    let (floats, ints): (alloc::vec::Vec<NumType>, alloc::vec::Vec<NumType>) = ts.iter().partition(|t| t.float());
    let one = |v: &[NumType], default: NumType, what: &str| match v {
        [] => Ok(default),
        [t] => Ok(*t),
        _ => err(At::Mnemonic, format!("`{opcode}` names more than one {what} type")),
    };
    let (from, to) = match opcode {
        "I2F" => (one(&ints, NumType::S32, "integer")?, one(&floats, NumType::F32, "float")?),
        "F2I" => {
            mods.ignore(&["FTZ", "NTZ"]);
            (one(&floats, NumType::F32, "float")?, one(&ints, NumType::S32, "integer")?)
        }
        _ => {
            mods.ignore(&["FTZ"]);
            match ts[..] {
                [to, from] if !ints.is_empty() || to == from => {
                    return err(At::Mnemonic, format!("`F2F` converts between F32 and F64, not {to:?} and {from:?}"))
                }
                [to, from] => (from, to),
                _ => return err(At::Mnemonic, "`F2F` needs .F64.F32 or .F32.F64 (the destination first)"),
            }
        }
    };
    // Float to integer: F2I's `.TRUNC` (the default), `.FLOOR`, `.CEIL`, `.ROUND`; otherwise the
    // float's rounding `.RN` (the default), `.RM`, `.RP`, `.RZ`.
    let round = if opcode == "F2I" {
        match mods.take_any(&["TRUNC", "FLOOR", "CEIL", "ROUND"]) {
            Some("FLOOR") => Round::Floor,
            Some("CEIL") => Round::Ceil,
            Some("ROUND") => Round::Even,
            _ => Round::Trunc,
        }
    } else {
        super::math::rounding(mods)
    };
    let dst = a.reg(0)?;
    let src = if from.float() && !from.wide() { a.src_float(1)? } else { a.src_int(1)? };
    Ok(match (from, to) {
        (NumType::S32 | NumType::U32, NumType::F32) => Op::I2f { dst, src, signed: from == NumType::S32, round },
        (NumType::F32, NumType::S32 | NumType::U32) => Op::F2i { dst, src, signed: to == NumType::S32, round },
        _ => Op::Cvt { dst, src, from, to, round },
    })
}
