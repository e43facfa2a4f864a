//! Float arithmetic with its rounding, bit counts, minimum and maximum, the special-function
//! unit, rounding to integral values and integer division.

use super::{err, Args, At, DecodeError, Mods};
use crate::isa::*;

/// A rounding direction among the modifiers: `.RN` (the default), `.RM`, `.RP`, `.RZ`.
pub(super) fn rounding(mods: &mut Mods) -> Round {
    match mods.take_any(&["RN", "RM", "RP", "RZ"]) {
        Some("RM") => Round::Floor,
        Some("RP") => Round::Ceil,
        Some("RZ") => Round::Trunc,
        _ => Round::Even,
    }
}

/// `FADD`, `FMUL`, `FFMA`, `FDIV` (and the `32I` forms) with `.RN|.RM|.RP|.RZ`, `.FTZ`, `.SAT`.
pub(super) fn float(opcode: &str, mods: &mut Mods, a: &Args) -> Result<Op, DecodeError> {
    let mode = FloatMode { round: rounding(mods), ftz: mods.take("FTZ"), sat: mods.take("SAT") };
    if opcode == "FFMA" {
        a.count(&[4])?;
        return Ok(Op::Ffma { dst: a.reg(0)?, a: a.src_float(1)?, b: a.src_float(2)?, c: a.src_float(3)?, mode });
    }
    a.count(&[3])?;
    let (dst, x, y) = (a.reg(0)?, a.src_float(1)?, a.src_float(2)?);
    Ok(match opcode {
        "FADD" | "FADD32I" => Op::Fadd { dst, a: x, b: y, mode },
        "FMUL" | "FMUL32I" => Op::Fmul { dst, a: x, b: y, mode },
        _ => Op::Fdiv { dst, a: x, b: y, mode },
    })
}

/// `MUFU`, `FRND`, `POPC`, `BREV`, `FLO`, `IMNMX`, `FMNMX`, `IDIV`, `IREM`.
pub(super) fn decode(opcode: &str, mods: &mut Mods, a: &Args) -> Result<Op, DecodeError> {
    Ok(match opcode {
        "MUFU" => {
            a.count(&[2])?;
            mods.ignore(&["FTZ", "F32"]);
            let func = match mods.take_any(&["RCP", "RSQ", "SQRT", "EX2", "LG2", "SIN", "COS"]) {
                Some("RCP") => MufuFn::Rcp,
                Some("RSQ") => MufuFn::Rsq,
                Some("SQRT") => MufuFn::Sqrt,
                Some("EX2") => MufuFn::Ex2,
                Some("LG2") => MufuFn::Lg2,
                Some("SIN") => MufuFn::Sin,
                Some(_) => MufuFn::Cos,
                None => return err(At::Mnemonic, "`MUFU` needs .RCP, .RSQ, .SQRT, .EX2, .LG2, .SIN or .COS"),
            };
            Op::Mufu { func, dst: a.reg(0)?, src: a.src_float(1)? }
        }
        "FRND" => {
            a.count(&[2])?;
            mods.ignore(&["FTZ", "F32"]);
            let mode = match mods.take_any(&["FLOOR", "CEIL", "TRUNC"]) {
                Some("FLOOR") => Round::Floor,
                Some("CEIL") => Round::Ceil,
                Some(_) => Round::Trunc,
                None => Round::Even,
            };
            Op::Frnd { mode, dst: a.reg(0)?, src: a.src_float(1)? }
        }
        "POPC" | "BREV" => {
            a.count(&[2])?;
            let (dst, src) = (a.reg(0)?, a.src_int(1)?);
            if opcode == "POPC" {
                Op::Popc { dst, src }
            } else {
                Op::Brev { dst, src }
            }
        }
        "FLO" => {
            a.count(&[2])?;
            let signed = match mods.take_any(&["U32", "S32"]) {
                Some(t) => t == "S32",
                None => return err(At::Mnemonic, "`FLO` needs .U32 or .S32"),
            };
            let shift = mods.take("SH");
            Op::Flo { dst: a.reg(0)?, src: a.src_int(1)?, signed, shift }
        }
        "IMNMX" => {
            a.count(&[3, 4])?;
            let signed = !mods.take("U32");
            mods.take("S32");
            Op::Imnmx { dst: a.reg(0)?, a: a.src_int(1)?, b: a.src_int(2)?, signed, p: a.pred_src_or_true(3)? }
        }
        "FMNMX" => {
            a.count(&[3, 4])?;
            mods.ignore(&["FTZ"]);
            Op::Fmnmx { dst: a.reg(0)?, a: a.src_float(1)?, b: a.src_float(2)?, p: a.pred_src_or_true(3)? }
        }
        "IDIV" | "IREM" => {
            a.count(&[3])?;
            let (signed, wide) = match mods.take_any(&["S32", "U32", "S64", "U64"]) {
                Some("U32") => (false, false),
                Some("S64") => (true, true),
                Some("U64") => (false, true),
                _ => (true, false),
            };
            Op::Idiv { dst: a.reg(0)?, a: a.src_int(1)?, b: a.src_int(2)?, signed, rem: opcode == "IREM", wide }
        }
        _ => return err(At::Mnemonic, "not a math instruction"),
    })
}
