//! Turns a mnemonic with modifiers and parsed operands into a decoded `Op`.
//! Every rejection names the opcode, modifier or operand at fault.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::operand::Operand;
use crate::isa::*;

mod wide;

/// Where in the instruction a decode error points.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum At {
    Mnemonic,
    Operand(usize),
}

#[derive(Clone, PartialEq, Debug)]
pub struct DecodeError {
    pub at: At,
    pub message: String,
}

/// A code target still to be resolved against addresses or labels.
#[derive(Clone, PartialEq, Debug)]
pub enum TargetRef {
    Addr(u32),
    Label(String),
}

#[derive(Clone, PartialEq, Debug)]
pub struct Decoded {
    pub op: Op,
    pub pop: bool,
    /// The operand naming a code target, with its operand index.
    pub target: Option<(TargetRef, usize)>,
}

/// Placeholder until targets are resolved.
const UNRESOLVED: Pc = Pc(u32::MAX);

pub const OPCODES: &[&str] = &[
    "ISETP", "IADD", "IADD32I", "IADD3", "ISCADD", "IMUL", "IMUL32I", "IMAD", "FADD", "FADD32I", "FMUL", "FMUL32I", "FFMA", "FSETP", "MOV",
    "MOV32I", "SEL", "LOP", "LOP32I", "LOP3", "SHL", "SHR", "S2R", "CS2R", "LD", "LDG", "ST", "STG", "ATOM", "ATOMG", "I2F", "F2I", "MUFU",
    "NOP", "BAR", "SSY", "SYNC", "BRA", "PBK", "BRK", "PCNT", "CONT", "CAL", "RET", "EXIT", "BSSY", "BSYNC", "BREAK", "WARPSYNC", "YIELD",
    "SHFL", "VOTE", "POPC", "FLO", "BREV", "IMNMX", "FMNMX", "FRND", "IDIV", "IREM", "ATOMS", "LDS", "STS", "SHF", "DADD", "DMUL", "DFMA",
    "DSETP", "DMNMX", "F2F",
];

fn err<T>(at: At, message: impl Into<String>) -> Result<T, DecodeError> {
    Err(DecodeError { at, message: message.into() })
}

/// The modifiers after the opcode (`ISETP.LT.AND` has `LT`, `AND`); each must be consumed.
struct Mods<'a> {
    opcode: &'a str,
    list: Vec<&'a str>,
}

impl<'a> Mods<'a> {
    fn take(&mut self, m: &str) -> bool {
        match self.list.iter().position(|x| *x == m) {
            Some(k) => {
                self.list.remove(k);
                true
            }
            None => false,
        }
    }
    fn take_any(&mut self, options: &[&'static str]) -> Option<&'static str> {
        options.iter().copied().find(|o| self.take(o))
    }
    /// Accepted and ignored: rounding, flush-to-zero and cache hints have no effect here.
    fn ignore(&mut self, options: &[&str]) {
        self.list.retain(|m| !options.contains(m));
    }
    fn finish(self) -> Result<(), DecodeError> {
        match self.list.first() {
            Some(m) => err(At::Mnemonic, format!("unknown modifier `.{m}` for `{}`", self.opcode)),
            None => Ok(()),
        }
    }
}

struct Args<'a> {
    opcode: &'a str,
    ops: &'a [Operand],
}

impl<'a> Args<'a> {
    fn count(&self, allowed: &[usize]) -> Result<(), DecodeError> {
        if allowed.contains(&self.ops.len()) {
            return Ok(());
        }
        let want: Vec<String> = allowed.iter().map(|n| n.to_string()).collect();
        let at = if self.ops.is_empty() { At::Mnemonic } else { At::Operand(self.ops.len() - 1) };
        err(at, format!("`{}` takes {} operand(s), found {}", self.opcode, want.join(" or "), self.ops.len()))
    }
    fn wrong<T>(&self, i: usize, wanted: &str) -> Result<T, DecodeError> {
        err(At::Operand(i), format!("operand {} of `{}` must be {wanted}, found {}", i + 1, self.opcode, self.ops[i].kind()))
    }
    fn reg(&self, i: usize) -> Result<Reg, DecodeError> {
        match self.ops[i] {
            Operand::Reg { reg, negated: false, inverted: false } => Ok(reg),
            _ => self.wrong(i, "a register"),
        }
    }
    fn imm_bits(&self, i: usize, value: i64) -> Result<u32, DecodeError> {
        if (i32::MIN as i64..=u32::MAX as i64).contains(&value) {
            Ok(value as u32)
        } else {
            err(At::Operand(i), format!("immediate `{value}` does not fit in 32 bits"))
        }
    }
    fn src_int(&self, i: usize) -> Result<Src, DecodeError> {
        match self.ops[i] {
            Operand::Reg { reg, negated, inverted: false } => Ok(Src::Reg { reg, negated }),
            Operand::Int { value, .. } => Ok(Src::Imm(self.imm_bits(i, value)?)),
            Operand::Float(_) => err(
                At::Operand(i),
                format!("`{}` is an integer instruction: operand {} must be an integer, not a float", self.opcode, i + 1),
            ),
            _ => self.wrong(i, "a register or an integer"),
        }
    }
    /// Float sources: decimal literals are values, hex literals are raw f32 bits.
    fn src_float(&self, i: usize) -> Result<Src, DecodeError> {
        match self.ops[i] {
            Operand::Reg { reg, negated, inverted: false } => Ok(Src::Reg { reg, negated }),
            Operand::Float(f) => Ok(Src::Imm((f as f32).to_bits())),
            Operand::Int { value, hex: false } => Ok(Src::Imm((value as f32).to_bits())),
            Operand::Int { value, hex: true } => Ok(Src::Imm(self.imm_bits(i, value)?)),
            _ => self.wrong(i, "a register or a number"),
        }
    }
    /// An optional last operand: the member mask of a `_sync` instruction.
    fn mask(&self, i: usize) -> Result<Option<Src>, DecodeError> {
        if i < self.ops.len() {
            self.src_int(i).map(Some)
        } else {
            Ok(None)
        }
    }
    /// The optional predicate operand of `IMNMX`/`FMNMX` (`PT`, a minimum, when left out).
    fn pred_src_or_true(&self, i: usize) -> Result<PredSrc, DecodeError> {
        if i < self.ops.len() {
            self.pred_src(i)
        } else {
            Ok(PredSrc::TRUE)
        }
    }
    fn pred(&self, i: usize) -> Result<Pred, DecodeError> {
        match self.ops[i] {
            Operand::Pred { pred, negated: false } => Ok(pred),
            _ => self.wrong(i, "a predicate (P0-P6, PT)"),
        }
    }
    fn pred_src(&self, i: usize) -> Result<PredSrc, DecodeError> {
        match self.ops[i] {
            Operand::Pred { pred, negated } => Ok(PredSrc { pred, negated }),
            _ => self.wrong(i, "a predicate (P0-P6, PT, !P0...)"),
        }
    }
    fn is_pred(&self, i: usize) -> bool {
        matches!(self.ops.get(i), Some(Operand::Pred { .. }))
    }
    fn target(&self, i: usize) -> Result<TargetRef, DecodeError> {
        match &self.ops[i] {
            Operand::Int { value, .. } if (0..=u32::MAX as i64).contains(value) => Ok(TargetRef::Addr(*value as u32)),
            Operand::Label(l) => Ok(TargetRef::Label(l.clone())),
            _ => self.wrong(i, "a code address or a label"),
        }
    }
    fn mem(&self, i: usize) -> Result<Address, DecodeError> {
        match self.ops[i] {
            Operand::Mem { base, offset } => match i32::try_from(offset) {
                Ok(offset) => Ok(Address { base, offset }),
                Err(_) => err(At::Operand(i), "address offset does not fit in 32 bits"),
            },
            _ => self.wrong(i, "a memory address like [R2+0x4]"),
        }
    }
    fn special(&self, i: usize) -> Result<SpecialReg, DecodeError> {
        match self.ops[i] {
            Operand::Special(s) => Ok(s),
            _ => self.wrong(i, "a special register (SR_TID.X, SR_NTID.X, SR_CTAID.X, SR_LANEID, SR_CLOCKLO, ...)"),
        }
    }
    fn barrier(&self, i: usize) -> Result<Barrier, DecodeError> {
        match self.ops[i] {
            Operand::Barrier(b) => Ok(Barrier(b)),
            _ => self.wrong(i, "a convergence barrier (B0-B15)"),
        }
    }
    fn shift(&self, i: usize) -> Result<u32, DecodeError> {
        match self.ops[i] {
            Operand::Int { value, .. } if (0..32).contains(&value) => Ok(value as u32),
            _ => self.wrong(i, "a shift amount 0-31"),
        }
    }
}

fn cmp_of(mods: &mut Mods) -> Result<Cmp, DecodeError> {
    let found = mods.take_any(&["LT", "LE", "GT", "GE", "EQ", "NE", "T", "F"]);
    Ok(match found {
        Some("LT") => Cmp::Lt,
        Some("LE") => Cmp::Le,
        Some("GT") => Cmp::Gt,
        Some("GE") => Cmp::Ge,
        Some("EQ") => Cmp::Eq,
        Some("NE") => Cmp::Ne,
        Some("T") => Cmp::True,
        Some("F") => Cmp::False,
        _ => return err(At::Mnemonic, format!("`{}` needs a comparison: .LT, .LE, .GT, .GE, .EQ or .NE", mods.opcode)),
    })
}

fn combine_of(mods: &mut Mods) -> BoolOp {
    match mods.take_any(&["AND", "OR", "XOR"]) {
        Some("OR") => BoolOp::Or,
        Some("XOR") => BoolOp::Xor,
        _ => BoolOp::And,
    }
}

/// `ISETP P, Q, a, b, c` / `ISETP P, a, b, c` / `ISETP P, Q, a, b` / `ISETP P, a, b`.
fn setp_operands(a: &Args, src: impl Fn(usize) -> Result<Src, DecodeError>) -> Result<(Pred, Pred, Src, Src, PredSrc), DecodeError> {
    a.count(&[3, 4, 5])?;
    let dst = a.pred(0)?;
    match a.ops.len() {
        5 => Ok((dst, a.pred(1)?, src(2)?, src(3)?, a.pred_src(4)?)),
        4 if a.is_pred(1) => Ok((dst, a.pred(1)?, src(2)?, src(3)?, PredSrc::TRUE)),
        4 => Ok((dst, Pred::PT, src(1)?, src(2)?, a.pred_src(3)?)),
        _ => Ok((dst, Pred::PT, src(1)?, src(2)?, PredSrc::TRUE)),
    }
}

fn width_of(mods: &mut Mods) -> Width {
    match mods.take_any(&["32", "64", "128"]) {
        Some("64") => Width::W64,
        Some("128") => Width::W128,
        _ => Width::W32,
    }
}

fn space_of(opcode: &str) -> Space {
    if matches!(opcode, "LDS" | "STS" | "ATOMS") {
        Space::Shared
    } else {
        Space::Global
    }
}

/// `ATOM`/`ATOMG` (global) and `ATOMS` (shared): `[P,] d, [a], b` or `[P,] d, [a], compare, value`.
fn atom(opcode: &str, mods: &mut Mods, a: &Args) -> Result<Op, DecodeError> {
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

/// Decodes one instruction. `mnemonic` is the full `OPCODE.MOD.MOD` text.
pub fn decode(mnemonic: &str, ops: &[Operand]) -> Result<Decoded, DecodeError> {
    let mut parts = mnemonic.split('.');
    let opcode = parts.next().unwrap_or("");
    if !OPCODES.contains(&opcode) {
        return err(At::Mnemonic, format!("unknown opcode `{opcode}`"));
    }
    let mut mods = Mods { opcode, list: parts.collect() };
    if mods.list.iter().any(|m| m.is_empty()) {
        return err(At::Mnemonic, format!("empty modifier in `{mnemonic}`"));
    }
    let pop = mods.take("S") || opcode == "SYNC";
    let a = Args { opcode, ops };
    let mut target = None;
    let op = match opcode {
        "ISETP" => {
            let cmp = cmp_of(&mut mods)?;
            let signed = !mods.take("U32");
            mods.take("S32");
            let combine = combine_of(&mut mods);
            let (dst, dst_inv, x, y, c) = setp_operands(&a, |i| a.src_int(i))?;
            Op::Isetp { cmp, signed, combine, dst, dst_inv, a: x, b: y, c }
        }
        "FSETP" => {
            let cmp = cmp_of(&mut mods)?;
            let combine = combine_of(&mut mods);
            mods.ignore(&["FTZ"]);
            let (dst, dst_inv, x, y, c) = setp_operands(&a, |i| a.src_float(i))?;
            Op::Fsetp { cmp, combine, dst, dst_inv, a: x, b: y, c }
        }
        "IADD" | "IADD32I" => {
            a.count(&[3])?;
            Op::Iadd { dst: a.reg(0)?, a: a.src_int(1)?, b: a.src_int(2)? }
        }
        "IADD3" => wide::iadd3(&mut mods, &a)?,
        "SHF" => wide::shf(&mut mods, &a)?,
        "DADD" | "DMUL" | "DFMA" | "DSETP" | "DMNMX" => wide::double(opcode, &mut mods, &a)?,
        "F2F" => wide::convert(opcode, &mut mods, &a)?,
        "ISCADD" => {
            a.count(&[4])?;
            Op::Iscadd { dst: a.reg(0)?, a: a.src_int(1)?, b: a.src_int(2)?, shift: a.shift(3)? }
        }
        "IMUL" | "IMUL32I" => {
            a.count(&[3])?;
            let hi = mods.take("HI");
            let signed = !mods.take("U32");
            mods.take("S32");
            Op::Imul { dst: a.reg(0)?, a: a.src_int(1)?, b: a.src_int(2)?, hi, signed }
        }
        "IMAD" if mods.take("WIDE") => wide::imad_wide(&mut mods, &a)?,
        "IMAD" => {
            a.count(&[4])?;
            let hi = mods.take("HI");
            let signed = !mods.take("U32");
            mods.take("S32");
            // IMAD.MOV / .SHL / .IADD are ordinary multiply-adds with a constant operand.
            mods.ignore(&["MOV", "SHL", "IADD"]);
            Op::Imad { dst: a.reg(0)?, a: a.src_int(1)?, b: a.src_int(2)?, c: a.src_int(3)?, hi, signed }
        }
        "FADD" | "FADD32I" | "FMUL" | "FMUL32I" => {
            a.count(&[3])?;
            mods.ignore(&["FTZ", "RN", "RZ", "RM", "RP", "SAT"]);
            let (dst, x, y) = (a.reg(0)?, a.src_float(1)?, a.src_float(2)?);
            if opcode.starts_with("FADD") {
                Op::Fadd { dst, a: x, b: y }
            } else {
                Op::Fmul { dst, a: x, b: y }
            }
        }
        "FFMA" => {
            a.count(&[4])?;
            mods.ignore(&["FTZ", "RN", "RZ", "RM", "RP", "SAT"]);
            Op::Ffma { dst: a.reg(0)?, a: a.src_float(1)?, b: a.src_float(2)?, c: a.src_float(3)? }
        }
        "MOV" | "MOV32I" => {
            a.count(&[2, 3])?;
            if a.ops.len() == 3 && !matches!(a.ops[2], Operand::Int { value: 0xf, .. }) {
                return err(At::Operand(2), "the third operand of `MOV` is a lane mask and must be 0xf");
            }
            let src = match a.ops[1] {
                Operand::Float(_) => a.src_float(1)?,
                _ => a.src_int(1)?,
            };
            Op::Mov { dst: a.reg(0)?, src }
        }
        "SEL" => {
            a.count(&[4])?;
            Op::Sel { dst: a.reg(0)?, a: a.src_int(1)?, b: a.src_int(2)?, p: a.pred_src(3)? }
        }
        "LOP" | "LOP32I" => {
            a.count(&[3])?;
            let op = match mods.take_any(&["AND", "OR", "XOR", "PASS_B"]) {
                Some("AND") => LogicOp::And,
                Some("OR") => LogicOp::Or,
                Some("XOR") => LogicOp::Xor,
                Some(_) => LogicOp::PassB,
                None => return err(At::Mnemonic, "`LOP` needs .AND, .OR, .XOR or .PASS_B"),
            };
            let invert_b = matches!(a.ops[2], Operand::Reg { inverted: true, .. });
            let b = match a.ops[2] {
                Operand::Reg { reg, inverted: true, .. } => Src::reg(reg),
                _ => a.src_int(2)?,
            };
            Op::Lop { op, dst: a.reg(0)?, a: a.src_int(1)?, b, invert_b }
        }
        "LOP3" => {
            if let Some(kind) = mods.take_any(&["AND", "OR", "XOR"]) {
                a.count(&[3])?;
                let lut = match kind {
                    "AND" => 0xf0 & 0xcc,
                    "OR" => 0xf0 | 0xcc,
                    _ => 0xf0 ^ 0xcc,
                };
                Op::Lop3 { dst: a.reg(0)?, a: a.src_int(1)?, b: a.src_int(2)?, c: Src::reg(Reg::RZ), lut }
            } else {
                if !mods.take("LUT") {
                    return err(At::Mnemonic, "`LOP3` needs .LUT (with a truth table), or .AND, .OR, .XOR");
                }
                a.count(&[5, 6])?;
                if a.ops.len() == 6 {
                    a.pred_src(5)?;
                }
                let lut = match a.ops[4] {
                    Operand::Int { value, .. } if (0..=255).contains(&value) => value as u8,
                    _ => return a.wrong(4, "a truth table 0x00-0xff"),
                };
                Op::Lop3 { dst: a.reg(0)?, a: a.src_int(1)?, b: a.src_int(2)?, c: a.src_int(3)?, lut }
            }
        }
        "SHL" => {
            a.count(&[3])?;
            mods.ignore(&["W", "U32", "S32"]);
            Op::Shl { dst: a.reg(0)?, a: a.src_int(1)?, b: a.src_int(2)? }
        }
        "SHR" => {
            a.count(&[3])?;
            let signed = !mods.take("U32");
            mods.take("S32");
            Op::Shr { dst: a.reg(0)?, a: a.src_int(1)?, b: a.src_int(2)?, signed }
        }
        "S2R" => {
            a.count(&[2])?;
            Op::S2r { dst: a.reg(0)?, sr: a.special(1)? }
        }
        "CS2R" => {
            a.count(&[2])?;
            let wide = !mods.take("32");
            Op::Cs2r { dst: a.reg(0)?, sr: a.special(1)?, wide }
        }
        "LD" | "LDG" | "LDS" => {
            a.count(&[2])?;
            mods.ignore(&["E", "CONSTANT", "U32", "S32", "STRONG", "GPU", "SYS", "CG", "CA", "CS", "CV", "LU"]);
            let width = width_of(&mut mods);
            Op::Ld { dst: a.reg(0)?, addr: a.mem(1)?, width, space: space_of(opcode) }
        }
        "ST" | "STG" | "STS" => {
            a.count(&[2])?;
            mods.ignore(&["E", "U32", "S32", "STRONG", "GPU", "SYS", "CG", "CS", "WT"]);
            let width = width_of(&mut mods);
            Op::St { src: a.reg(1)?, addr: a.mem(0)?, width, space: space_of(opcode) }
        }
        "ATOM" | "ATOMG" | "ATOMS" => atom(opcode, &mut mods, &a)?,
        "I2F" | "F2I" => wide::convert(opcode, &mut mods, &a)?,
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
            let signed = !mods.take("U32");
            mods.take("S32");
            Op::Idiv { dst: a.reg(0)?, a: a.src_int(1)?, b: a.src_int(2)?, signed, rem: opcode == "IREM" }
        }
        "SHFL" => {
            let mode = match mods.take_any(&["IDX", "UP", "DOWN", "BFLY"]) {
                Some("IDX") => ShflMode::Idx,
                Some("UP") => ShflMode::Up,
                Some("DOWN") => ShflMode::Down,
                Some(_) => ShflMode::Bfly,
                None => return err(At::Mnemonic, "`SHFL` needs .IDX, .UP, .DOWN or .BFLY"),
            };
            a.count(&[5, 6])?;
            Op::Shfl { mode, pred: a.pred(0)?, dst: a.reg(1)?, a: a.src_int(2)?, b: a.src_int(3)?, c: a.src_int(4)?, mask: a.mask(5)? }
        }
        "VOTE" => {
            let mode = match mods.take_any(&["ALL", "ANY", "EQ"]) {
                Some("ALL") => VoteMode::All,
                Some("ANY") => VoteMode::Any,
                Some(_) => VoteMode::Eq,
                None => return err(At::Mnemonic, "`VOTE` needs .ALL, .ANY or .EQ"),
            };
            a.count(&[3, 4])?;
            Op::Vote { mode, dst: a.reg(0)?, pred: a.pred(1)?, src: a.pred_src(2)?, mask: a.mask(3)? }
        }
        "NOP" => {
            a.count(&[0])?;
            Op::Nop
        }
        "BAR" => {
            if !mods.take("SYNC") {
                return err(At::Mnemonic, "only `BAR.SYNC` is supported");
            }
            mods.ignore(&["DEFER_BLOCKING"]);
            a.count(&[0, 1])?;
            if a.ops.len() == 1 && !matches!(a.ops[0], Operand::Int { value: 0, .. }) {
                return err(At::Operand(0), "only barrier 0 exists (one block)");
            }
            Op::BarSync
        }
        "SYNC" => {
            a.count(&[0])?;
            Op::Sync
        }
        "SSY" | "PBK" | "PCNT" | "CAL" => {
            a.count(&[1])?;
            mods.ignore(&["REL", "NOINC", "ABS"]);
            target = Some((a.target(0)?, 0));
            match opcode {
                "SSY" => Op::Ssy { target: UNRESOLVED },
                "PBK" => Op::Pbk { target: UNRESOLVED },
                "PCNT" => Op::Pcnt { target: UNRESOLVED },
                _ => Op::Cal { target: UNRESOLVED },
            }
        }
        "BRA" => {
            a.count(&[1])?;
            let uniform = mods.take("U");
            if mods.take("DIV") || mods.take("CONV") {
                return err(At::Mnemonic, "`BRA.DIV`/`BRA.CONV` (uniform-register branches) are not supported");
            }
            target = Some((a.target(0)?, 0));
            Op::Bra { target: UNRESOLVED, uniform }
        }
        "BRK" | "CONT" | "RET" | "EXIT" | "YIELD" => {
            a.count(&[0])?;
            mods.ignore(&["REL", "NODEC"]);
            match opcode {
                "BRK" => Op::Brk,
                "CONT" => Op::Cont,
                "RET" => Op::Ret,
                "EXIT" => Op::Exit,
                _ => Op::Yield,
            }
        }
        "BSSY" => {
            a.count(&[2])?;
            target = Some((a.target(1)?, 1));
            Op::Bssy { barrier: a.barrier(0)?, target: UNRESOLVED }
        }
        "BSYNC" | "BREAK" => {
            a.count(&[1])?;
            let barrier = a.barrier(0)?;
            if opcode == "BSYNC" {
                Op::Bsync { barrier }
            } else {
                Op::Break { barrier }
            }
        }
        "WARPSYNC" => {
            if mods.take("ALL") {
                a.count(&[0])?;
                Op::Warpsync { mask: Src::Imm(u32::MAX) }
            } else {
                a.count(&[1])?;
                Op::Warpsync { mask: a.src_int(0)? }
            }
        }
        _ => return err(At::Mnemonic, format!("unknown opcode `{opcode}`")),
    };
    mods.finish()?;
    if pop && op.is_control() && opcode != "SYNC" {
        return err(At::Mnemonic, format!("the `.S` pop bit is not allowed on the control instruction `{opcode}`"));
    }
    Ok(Decoded { op, pop, target })
}

impl Op {
    /// Fills in a resolved code target.
    pub(crate) fn set_target(&mut self, pc: Pc) {
        match self {
            Op::Ssy { target }
            | Op::Bra { target, .. }
            | Op::Pbk { target }
            | Op::Pcnt { target }
            | Op::Cal { target }
            | Op::Bssy { target, .. } => *target = pc,
            _ => {}
        }
    }
}
