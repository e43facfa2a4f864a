//! Turns a mnemonic with modifiers and parsed operands into a decoded `Op`.
//! Every rejection names the opcode, modifier or operand at fault.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::operand::Operand;
use crate::isa::*;

mod bits;
mod math;
mod memory;
mod printf;
mod warp;
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
    /// `PRINTF`'s format, for the program's table.
    pub format: Option<crate::printf::Format>,
    /// `HOST`'s call, for the program's table.
    pub call: Option<String>,
}

/// Placeholder until targets are resolved.
const UNRESOLVED: Pc = Pc(u32::MAX);

pub const OPCODES: &[&str] = &[
    "ISETP", "IADD", "IADD32I", "IADD3", "ISCADD", "IMUL", "IMUL32I", "IMAD", "FADD", "FADD32I", "FMUL", "FMUL32I", "FFMA", "FSETP", "MOV",
    "MOV32I", "SEL", "LOP", "LOP32I", "LOP3", "SHL", "SHR", "S2R", "CS2R", "LD", "LDG", "ST", "STG", "ATOM", "ATOMG", "I2F", "F2I", "MUFU",
    "NOP", "BAR", "B2R", "SSY", "SYNC", "BRA", "PBK", "BRK", "PCNT", "CONT", "CAL", "RET", "EXIT", "BSSY", "BSYNC", "BREAK", "BMOV",
    "WARPSYNC", "YIELD", "SHFL", "VOTE", "POPC", "FLO", "BREV", "IMNMX", "FMNMX", "FRND", "IDIV", "IREM", "ATOMS", "LDS", "STS", "SHF",
    "DADD", "DMUL", "DDIV", "DFMA", "DSETP", "DMNMX", "F2F", "PRINTF", "PSETP", "BFE", "BFI", "PRMT", "SGXT", "MATCH", "FDIV", "BPT",
    "REDUX", "PLOP3", "FCHK", "FNS", "IDP", "HOST",
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
            _ => self.wrong(i, "a special register (SR_TID.X, SR_NTID.X, SR_CTAID.X, SR_LANEID, SR_WARPID, SR_LTMASK, SR_CLOCKLO, ...)"),
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

/// The comparison among the modifiers: the ordered ones, `.T`/`.F`, and for floats (`FSETP`,
/// `DSETP`) the unordered ones and `.NUM`/`.NAN`.
fn cmp_of(mods: &mut Mods, float: bool) -> Result<Cmp, DecodeError> {
    let found = mods.take_any(&["LT", "LE", "GT", "GE", "EQ", "NE", "T", "F", "LTU", "LEU", "GTU", "GEU", "EQU", "NEU", "NUM", "NAN"]);
    let cmp = match found {
        Some("LT") => Cmp::Lt,
        Some("LE") => Cmp::Le,
        Some("GT") => Cmp::Gt,
        Some("GE") => Cmp::Ge,
        Some("EQ") => Cmp::Eq,
        Some("NE") => Cmp::Ne,
        Some("T") => Cmp::True,
        Some("F") => Cmp::False,
        Some("LTU") => Cmp::Ltu,
        Some("LEU") => Cmp::Leu,
        Some("GTU") => Cmp::Gtu,
        Some("GEU") => Cmp::Geu,
        Some("EQU") => Cmp::Equ,
        Some("NEU") => Cmp::Neu,
        Some("NUM") => Cmp::Num,
        Some("NAN") => Cmp::Nan,
        _ => {
            let floats = if float { " (unordered: .LTU, .LEU, .GTU, .GEU, .EQU, .NEU; .NUM, .NAN)" } else { "" };
            return err(At::Mnemonic, format!("`{}` needs a comparison: .LT, .LE, .GT, .GE, .EQ or .NE{floats}", mods.opcode));
        }
    };
    if cmp.unordered() && !float {
        let m = found.unwrap_or("");
        return err(
            At::Mnemonic,
            format!(
                "`{}` compares integers, which are never NaN: `.{m}` (true when an operand is NaN) is for FSETP and DSETP",
                mods.opcode
            ),
        );
    }
    Ok(cmp)
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
    let mut format = None;
    let mut call = None;
    let op = match opcode {
        "ISETP" => {
            let cmp = cmp_of(&mut mods, false)?;
            let signed = !mods.take("U32");
            mods.take("S32");
            let combine = combine_of(&mut mods);
            let (dst, dst_inv, x, y, c) = setp_operands(&a, |i| a.src_int(i))?;
            Op::Isetp { cmp, signed, combine, dst, dst_inv, a: x, b: y, c }
        }
        "FSETP" => {
            let cmp = cmp_of(&mut mods, true)?;
            let combine = combine_of(&mut mods);
            mods.ignore(&["FTZ"]);
            let (dst, dst_inv, x, y, c) = setp_operands(&a, |i| a.src_float(i))?;
            Op::Fsetp { cmp, combine, dst, dst_inv, a: x, b: y, c }
        }
        "FCHK" => {
            a.count(&[3])?;
            Op::Fchk { dst: a.pred(0)?, a: a.src_float(1)?, b: a.src_float(2)? }
        }
        "IADD" | "IADD32I" => {
            a.count(&[3])?;
            Op::Iadd { dst: a.reg(0)?, a: a.src_int(1)?, b: a.src_int(2)? }
        }
        "IADD3" => wide::iadd3(&mut mods, &a)?,
        "SHF" => wide::shf(&mut mods, &a)?,
        "DADD" | "DMUL" | "DDIV" | "DFMA" | "DSETP" | "DMNMX" => wide::double(opcode, &mut mods, &a)?,
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
        "FADD" | "FADD32I" | "FMUL" | "FMUL32I" | "FFMA" | "FDIV" => math::float(opcode, &mut mods, &a)?,
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
            // SEL picks bits: a float immediate is its bit pattern, as for MOV.
            let src = |i: usize| match a.ops[i] {
                Operand::Float(_) => a.src_float(i),
                _ => a.src_int(i),
            };
            Op::Sel { dst: a.reg(0)?, a: src(1)?, b: src(2)?, p: a.pred_src(3)? }
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
        "LD" | "LDG" | "LDS" | "ST" | "STG" | "STS" => memory::load_store(opcode, &mut mods, &a)?,
        "ATOM" | "ATOMG" | "ATOMS" => memory::atom(opcode, &mut mods, &a)?,
        "I2F" | "F2I" => wide::convert(opcode, &mut mods, &a)?,
        "MUFU" | "FRND" | "POPC" | "BREV" | "FLO" | "IMNMX" | "FMNMX" | "IDIV" | "IREM" => math::decode(opcode, &mut mods, &a)?,
        "SHFL" => warp::shfl(&mut mods, &a)?,
        "VOTE" => warp::vote(&mut mods, &a)?,
        "MATCH" => warp::match_(&mut mods, &a)?,
        "REDUX" => warp::redux(&mut mods, &a)?,
        "PSETP" | "PLOP3" | "BFE" | "BFI" | "PRMT" | "SGXT" | "FNS" | "IDP" => bits::decode(opcode, &mut mods, &a)?,
        "BPT" => {
            if !mods.take("TRAP") {
                return err(At::Mnemonic, "only `BPT.TRAP` (PTX `trap`) is supported");
            }
            a.count(&[0, 1])?;
            if a.ops.len() == 1 {
                a.src_int(0)?;
            }
            Op::Trap
        }
        "NOP" => {
            a.count(&[0])?;
            Op::Nop
        }
        "BAR" => {
            let red = if mods.take("RED") {
                let kind = if mods.take("POPC") {
                    BarRedKind::Popc
                } else if mods.take("AND") {
                    BarRedKind::And
                } else if mods.take("OR") {
                    BarRedKind::Or
                } else {
                    return err(At::Mnemonic, "`BAR.RED` takes `.POPC`, `.AND` or `.OR`");
                };
                Some(kind)
            } else if mods.take("SYNC") {
                None
            } else {
                return err(At::Mnemonic, "`BAR` takes `.SYNC` or `.RED.POPC`/`.AND`/`.OR` (`BAR.ARRIVE` is not supported)");
            };
            mods.ignore(&["DEFER_BLOCKING"]);
            // `BAR.SYNC` alone is barrier 0 for the whole block.
            let ids = a.ops.len() - red.is_some() as usize;
            a.count(if red.is_some() { &[2, 3] } else { &[0, 1, 2] })?;
            let id = if ids == 0 { Src::Imm(0) } else { a.src_int(0)? };
            if let Src::Imm(n) = id {
                if n > 15 {
                    return err(At::Operand(0), format!("barrier {n}: a block has barriers 0-15"));
                }
            }
            let count = if ids == 2 { Some(a.src_int(1)?) } else { None };
            let red = match red {
                Some(kind) => Some(BarRed { kind, pred: a.pred_src(ids)? }),
                None => None,
            };
            Op::BarSync { id, count, red }
        }
        "B2R" => {
            if !mods.take("RESULT") {
                return err(At::Mnemonic, "only `B2R.RESULT` is supported (a barrier reduction's result)");
            }
            a.count(&[1, 2])?;
            let pred = if a.ops.len() == 2 { a.pred(1)? } else { Pred::PT };
            Op::B2r { dst: a.reg(0)?, pred }
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
        "BMOV" => {
            // `BMOV.32.CLEAR R2, B0` saves a barrier (and empties it), `BMOV.32 B0, R2` restores it.
            a.count(&[2])?;
            mods.take("32");
            let clear = mods.take("CLEAR");
            match (&a.ops[0], &a.ops[1]) {
                (_, Operand::Barrier(_)) => Op::BmovRead { dst: a.reg(0)?, barrier: a.barrier(1)?, clear },
                (Operand::Barrier(_), _) if !clear => Op::BmovWrite { barrier: a.barrier(0)?, src: a.reg(1)? },
                _ => {
                    return err(At::Mnemonic, "`BMOV.32` moves a barrier to a register (`BMOV.32.CLEAR R2, B0`) or back (`BMOV.32 B0, R2`)")
                }
            }
        }
        "PRINTF" => {
            let (op, f) = printf::decode(&a)?;
            format = Some(f);
            op
        }
        "HOST" => {
            a.count(&[3])?;
            let Operand::Str(name) = &a.ops[0] else { return a.wrong(0, "the call's name, a string in double quotes") };
            let base = a.reg(1)?;
            let Src::Imm(words) = a.src_int(2)? else { return a.wrong(2, "the number of registers, a number") };
            if words > 64 || base.0 as u32 + words > Reg::RZ.0 as u32 {
                return a.wrong(2, "at most 64 registers, below R255");
            }
            call = Some(name.clone());
            Op::Host { id: 0, base, words: words as u8 }
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
    Ok(Decoded { op, pop, target, format, call })
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
