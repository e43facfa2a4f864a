//! Memory instructions: loads, stores and atomics, in global memory (`LD`, `LDG`, `ST`, `STG`,
//! `ATOM`, `ATOMG`) or shared memory (`LDS`, `STS`, `ATOMS`).

use alloc::format;

use super::{err, Args, At, DecodeError, Mods};
use crate::isa::*;

fn width_of(mods: &mut Mods) -> Width {
    match mods.take_any(&["32", "64", "128"]) {
        Some("64") => Width::W64,
        Some("128") => Width::W128,
        _ => Width::W32,
    }
}

fn space_of(opcode: &str) -> Space {
    match opcode {
        "LDS" | "STS" | "ATOMS" => Space::Shared,
        "LDG" | "STG" | "ATOMG" => Space::Global,
        _ => Space::Generic,
    }
}

/// `ATOM`/`ATOMG` (global) and `ATOMS` (shared): `[P,] d, [a], b` or `[P,] d, [a], compare, value`.
pub(super) fn atom(opcode: &str, mods: &mut Mods, a: &Args) -> Result<Op, DecodeError> {
    mods.ignore(&["E", "STRONG", "GPU", "SYS", "FTZ", "RN"]);
    let unsigned = mods.take("U32");
    mods.take("S32");
    let float = mods.take("F32");
    let op = match mods.take_any(&["ADD", "MIN", "MAX", "AND", "OR", "XOR", "INC", "DEC", "CAS", "EXCH"]) {
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
    if float && op != AtomOp::AddF32 {
        return err(At::Mnemonic, format!("`{opcode}`: `.F32` goes only with `.ADD`"));
    }
    // Real listings start with a predicate that reports success; it is accepted and ignored.
    let skip = usize::from(a.is_pred(0));
    let want = if op == AtomOp::Cas { 4 } else { 3 };
    if a.ops.len() != want + skip {
        let shape = if op == AtomOp::Cas { "d, [a], compare, value" } else { "d, [a], value" };
        return err(At::Mnemonic, format!("`{opcode}` takes {shape} (after an optional predicate)"));
    }
    let b = if float { a.src_float(skip + 2)? } else { a.src_int(skip + 2)? };
    let c = if op == AtomOp::Cas { a.src_int(skip + 3)? } else { Src::Imm(0) };
    Ok(Op::Atom { op, dst: a.reg(skip)?, addr: a.mem(skip + 1)?, b, c, space: space_of(opcode) })
}

/// `LD d, [a]` / `ST [a], s` and their `G` and `S` forms, with `.64`/`.128` for 2 or 4 registers.
pub(super) fn load_store(opcode: &str, mods: &mut Mods, a: &Args) -> Result<Op, DecodeError> {
    Ok(if opcode.starts_with("LD") {
        a.count(&[2])?;
        mods.ignore(&["E", "CONSTANT", "U32", "S32", "STRONG", "GPU", "SYS", "CG", "CA", "CS", "CV", "LU"]);
        let width = width_of(mods);
        Op::Ld { dst: a.reg(0)?, addr: a.mem(1)?, width, space: space_of(opcode) }
    } else {
        a.count(&[2])?;
        mods.ignore(&["E", "U32", "S32", "STRONG", "GPU", "SYS", "CG", "CS", "WT"]);
        let width = width_of(mods);
        Op::St { src: a.reg(1)?, addr: a.mem(0)?, width, space: space_of(opcode) }
    })
}
