//! Memory instructions: loads, stores and atomics, in global memory (`LD`, `LDG`, `ST`, `STG`,
//! `ATOM`, `ATOMG`) or shared memory (`LDS`, `STS`, `ATOMS`).

use alloc::format;

use super::{err, Args, At, DecodeError, Mods};
use crate::isa::*;

/// `.U8`, `.S8`, `.U16`, `.S16` (a byte or halfword), or `.32`, `.64`, `.128` (registers).
fn width_of(opcode: &str, mods: &mut Mods) -> Result<Width, DecodeError> {
    let part = mods.take_any(&["U8", "S8", "U16", "S16"]);
    let words = mods.take_any(&["32", "64", "128"]);
    Ok(match (part, words) {
        (Some(p), Some(w)) if w != "32" => return err(At::Mnemonic, format!("`{opcode}`: `.{p}` and `.{w}` are two widths")),
        (Some("U8"), _) => Width::U8,
        (Some("S8"), _) => Width::S8,
        (Some("U16"), _) => Width::U16,
        (Some(_), _) => Width::S16,
        (None, Some("64")) => Width::W64,
        (None, Some("128")) => Width::W128,
        (None, _) => Width::W32,
    })
}

fn space_of(opcode: &str) -> Space {
    match opcode {
        "LDS" | "STS" | "ATOMS" => Space::Shared,
        "LDG" | "STG" | "ATOMG" => Space::Global,
        _ => Space::Generic,
    }
}

/// `ATOM`/`ATOMG` (global) and `ATOMS` (shared): `[P,] d, [a], b` or `[P,] d, [a], compare, value`.
/// `.64`, `.S64`, `.U64` or `.F64`: 64-bit values in register pairs.
pub(super) fn atom(opcode: &str, mods: &mut Mods, a: &Args) -> Result<Op, DecodeError> {
    mods.ignore(&["E", "STRONG", "GPU", "SYS", "FTZ", "RN"]);
    let ty = mods.take_any(&["U32", "S32", "F32", "64", "U64", "S64", "F64"]);
    let unsigned = matches!(ty, Some("U32" | "U64"));
    let float = matches!(ty, Some("F32" | "F64"));
    let wide = matches!(ty, Some("64" | "U64" | "S64" | "F64"));
    let op = match mods.take_any(&["ADD", "MIN", "MAX", "AND", "OR", "XOR", "INC", "DEC", "CAS", "EXCH"]) {
        Some("ADD") if float && wide => AtomOp::AddF64,
        Some("ADD") if float => AtomOp::AddF32,
        Some("ADD") => AtomOp::Add,
        Some("MIN") => AtomOp::Min { signed: !unsigned },
        Some("MAX") => AtomOp::Max { signed: !unsigned },
        Some("AND") => AtomOp::And,
        Some("OR") => AtomOp::Or,
        Some("XOR") => AtomOp::Xor,
        Some("INC") => AtomOp::Inc,
        Some("DEC") => AtomOp::Dec,
        Some("CAS") => AtomOp::Cas,
        Some(_) => AtomOp::Exch,
        None => return err(At::Mnemonic, format!("`{opcode}` needs .ADD, .MIN, .MAX, .AND, .OR, .XOR, .INC, .DEC, .CAS or .EXCH")),
    };
    if float && !matches!(op, AtomOp::AddF32 | AtomOp::AddF64) {
        return err(At::Mnemonic, format!("`{opcode}`: `.F32` and `.F64` go only with `.ADD`"));
    }
    if wide && matches!(op, AtomOp::Inc | AtomOp::Dec) {
        return err(At::Mnemonic, format!("`{opcode}`: `.INC` and `.DEC` are 32-bit only"));
    }
    // Real listings start with a predicate that reports success; it is accepted and ignored.
    let skip = usize::from(a.is_pred(0));
    let want = if op == AtomOp::Cas { 4 } else { 3 };
    if a.ops.len() != want + skip {
        let shape = if op == AtomOp::Cas { "d, [a], compare, value" } else { "d, [a], value" };
        return err(At::Mnemonic, format!("`{opcode}` takes {shape} (after an optional predicate)"));
    }
    // A 64-bit operand is a register pair (an immediate is zero-extended).
    let b = if float && !wide { a.src_float(skip + 2)? } else { a.src_int(skip + 2)? };
    let c = if op == AtomOp::Cas { a.src_int(skip + 3)? } else { Src::Imm(0) };
    Ok(Op::Atom { op, dst: a.reg(skip)?, addr: a.mem(skip + 1)?, b, c, space: space_of(opcode), wide })
}

/// `LD d, [a]` / `ST [a], s` and their `G` and `S` forms, with `.64`/`.128` for 2 or 4 registers,
/// `.U8`/`.S8`/`.U16`/`.S16` for a byte or halfword.
pub(super) fn load_store(opcode: &str, mods: &mut Mods, a: &Args) -> Result<Op, DecodeError> {
    Ok(if opcode.starts_with("LD") {
        a.count(&[2])?;
        mods.ignore(&["E", "CONSTANT", "U32", "S32", "STRONG", "GPU", "SYS", "CG", "CA", "CS", "CV", "LU"]);
        let width = width_of(opcode, mods)?;
        Op::Ld { dst: a.reg(0)?, addr: a.mem(1)?, width, space: space_of(opcode) }
    } else {
        a.count(&[2])?;
        mods.ignore(&["E", "U32", "S32", "STRONG", "GPU", "SYS", "CG", "CS", "WT"]);
        let width = width_of(opcode, mods)?;
        Op::St { src: a.reg(1)?, addr: a.mem(0)?, width, space: space_of(opcode) }
    })
}
