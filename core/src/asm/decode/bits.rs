//! Predicate logic and bit fields: `PSETP`, `BFE`, `BFI`, `PRMT`, `SGXT`.

use super::{err, Args, At, DecodeError, Mods};
use crate::asm::Operand;
use crate::isa::*;

/// `PSETP.AND|OR|XOR Pd, Pa, Pb`, `BFE.U32|S32 d, a, pos, len`, `BFI d, insert, base, pos, len`,
/// `PRMT[.F4E|.B4E|.RC8|.ECL|.ECR|.RC16] d, a, sel, b`, `SGXT[.U32] d, a, bits`.
pub(super) fn decode(opcode: &str, mods: &mut Mods, a: &Args) -> Result<Op, DecodeError> {
    Ok(match opcode {
        "PSETP" => {
            let op = match mods.take_any(&["AND", "OR", "XOR"]) {
                Some("AND") => BoolOp::And,
                Some("OR") => BoolOp::Or,
                Some(_) => BoolOp::Xor,
                None => return err(At::Mnemonic, "`PSETP` needs .AND, .OR or .XOR"),
            };
            a.count(&[3])?;
            Op::Psetp { op, dst: a.pred(0)?, a: a.pred_src(1)?, b: a.pred_src(2)? }
        }
        "PLOP3" => {
            mods.take("LUT");
            a.count(&[7])?;
            let lut = |i: usize| match a.ops[i] {
                Operand::Int { value, .. } if (0..=0xff).contains(&value) => Ok(value as u8),
                _ => a.wrong(i, "a truth table 0x00-0xff"),
            };
            Op::Plop3 {
                dst: a.pred(0)?,
                dst2: a.pred(1)?,
                a: a.pred_src(2)?,
                b: a.pred_src(3)?,
                c: a.pred_src(4)?,
                lut: lut(5)?,
                lut2: lut(6)?,
            }
        }
        "BFE" => {
            let signed = match mods.take_any(&["U32", "S32"]) {
                Some(t) => t == "S32",
                None => return err(At::Mnemonic, "`BFE` needs .U32 or .S32"),
            };
            a.count(&[4])?;
            Op::Bfe { dst: a.reg(0)?, a: a.src_int(1)?, pos: a.src_int(2)?, len: a.src_int(3)?, signed }
        }
        "BFI" => {
            mods.take("B32");
            a.count(&[5])?;
            Op::Bfi { dst: a.reg(0)?, insert: a.src_int(1)?, base: a.src_int(2)?, pos: a.src_int(3)?, len: a.src_int(4)? }
        }
        "PRMT" => {
            let mode = match mods.take_any(&["F4E", "B4E", "RC8", "ECL", "ECR", "RC16"]) {
                Some("F4E") => PrmtMode::F4e,
                Some("B4E") => PrmtMode::B4e,
                Some("RC8") => PrmtMode::Rc8,
                Some("ECL") => PrmtMode::Ecl,
                Some("ECR") => PrmtMode::Ecr,
                Some("RC16") => PrmtMode::Rc16,
                _ => PrmtMode::Generic,
            };
            a.count(&[4])?;
            Op::Prmt { dst: a.reg(0)?, a: a.src_int(1)?, sel: a.src_int(2)?, b: a.src_int(3)?, mode }
        }
        "IDP" => {
            // `IDP.4A.S8.U8`: a's parts' type, then b's; `IDP.2A.LO.S16.S8`.
            let halves = match mods.take_any(&["4A", "2A"]) {
                Some("2A") => true,
                Some(_) => false,
                None => return err(At::Mnemonic, "`IDP` needs .4A or .2A"),
            };
            let hi = halves && mods.take("HI");
            mods.take("LO");
            let mut signs = alloc::vec::Vec::new();
            while let Some(t) = mods.take_any(&["S8", "U8", "S16", "U16"]) {
                signs.push(t.starts_with('S'));
            }
            let (a_signed, b_signed) = match signs[..] {
                [x, y] => (x, y),
                [] => (false, false),
                _ => return err(At::Mnemonic, "`IDP` takes a's type and b's (`.S8.U8`)"),
            };
            a.count(&[4])?;
            let shape = crate::isa::DotShape { halves, hi, a_signed, b_signed };
            Op::Idp { dst: a.reg(0)?, a: a.src_int(1)?, b: a.src_int(2)?, c: a.src_int(3)?, shape }
        }
        "FNS" => {
            mods.take("B32");
            a.count(&[4])?;
            Op::Fns { dst: a.reg(0)?, mask: a.src_int(1)?, base: a.src_int(2)?, offset: a.src_int(3)? }
        }
        _ => {
            let signed = !mods.take("U32");
            mods.take("S32");
            a.count(&[3])?;
            Op::Sgxt { dst: a.reg(0)?, a: a.src_int(1)?, bits: a.src_int(2)?, signed }
        }
    })
}
