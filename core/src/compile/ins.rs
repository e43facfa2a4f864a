//! The compiler's instruction value: an opcode with its modifiers, destinations, sources, a
//! guard and an optional code target. Passes ask it questions (does it write a predicate, does
//! it leave the flow) and edit it (a new destination) as a value; only `emit` turns it into
//! text, through `Display`, and the assembler reads that text back like any listing.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use super::ir::Func;
use crate::asm;
use crate::cfg::BlockId;

/// A general register: `R0`-`R254`, or `RZ`, which reads as zero.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Reg {
    R(u8),
    Z,
}

/// A special register read by `S2R`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SysReg {
    ClockLo,
    /// A launch built-in (`SR_TID.X`, `SR_CTAID.Y`, `SR_LANEID`...).
    Launch(crate::compile::ast::Special),
    /// Any other, by its name (`SR_LTMASK`): what PTX's special registers read.
    Named(&'static str),
}

impl SysReg {
    pub fn name(self) -> &'static str {
        match self {
            SysReg::ClockLo => "SR_CLOCKLO",
            SysReg::Launch(s) => s.register(),
            SysReg::Named(n) => n,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Operand {
    Reg(Reg),
    /// `-R3`: the register's value negated.
    Neg(Reg),
    /// `~R3`: the register's bits inverted (`IADD3.X`'s high word of a subtraction).
    Not(Reg),
    /// An integer, printed as SASS does (small negative values as `-0x4`).
    Int(u32),
    /// A bit mask, printed as unsigned hex (`0xffffffff`).
    Mask(u32),
    /// A float, as its bit pattern.
    Float(u32),
    /// A predicate register `P0`-`P6`.
    Pred(u8),
    /// `!P3`: a predicate source negated.
    NotPred(u8),
    /// `PT`, the predicate that is always true.
    PredTrue,
    /// `!PT`, always false (`IMNMX`'s "maximum").
    PredFalse,
    /// A convergence barrier `B0`-`B15`.
    Barrier(u8),
    /// `[R3+0x8]`: a byte address.
    Mem {
        base: Reg,
        offset: i32,
    },
    Sys(SysReg),
    /// A string literal of the function (`Func::strings`): `PRINTF`'s format or a `%s` argument.
    Str(u16),
}

impl Operand {
    /// A general register operand.
    pub fn r(n: u8) -> Operand {
        Operand::Reg(Reg::R(n))
    }
    pub const RZ: Operand = Operand::Reg(Reg::Z);

    /// The general register this operand reads, if any.
    fn reg(&self) -> Option<Reg> {
        match *self {
            Operand::Reg(r) | Operand::Neg(r) | Operand::Not(r) | Operand::Mem { base: r, .. } => Some(r),
            _ => None,
        }
    }
}

/// Where a branch-like instruction points: a block of this function, or another function.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum CodeRef {
    Block(BlockId),
    Func(String),
}

#[rustfmt::skip]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Opcode {
    Mov, Iadd, Imul, Iscadd, Shl, Shr, Lop, Fadd, Fmul, Mufu, Isetp, Fsetp, Sel, F2i, I2f,
    Ffma, Imnmx, Fmnmx, Frnd, Iadd3, Imad, Shf, Dadd, Dmul, Ddiv, Dsetp, F2f, Idiv, Irem, Popc, Flo, Brev, Shfl, Vote, Printf,
    Ld, St, Lds, Sts, Atom, Atoms, S2r, Bar, B2r, Warpsync, Nop, Yield,
    Ldg, Stg, Atomg, Lop3, Cs2r, Dfma, Dmnmx, Psetp, Bfe, Bfi, Prmt, Match, Fdiv, Sgxt, Bpt, Redux, Fns, Idp, Host,
    Bra, Cal, Ssy, Sync, Pbk, Pcnt, Bssy, Bsync, Break,
    Exit, Ret, Brk, Cont,
}

impl Opcode {
    #[rustfmt::skip]
    pub fn name(self) -> &'static str {
        use Opcode::*;
        match self {
            Mov => "MOV", Iadd => "IADD", Imul => "IMUL", Iscadd => "ISCADD", Shl => "SHL", Shr => "SHR",
            Lop => "LOP", Fadd => "FADD", Fmul => "FMUL", Mufu => "MUFU", Isetp => "ISETP", Fsetp => "FSETP",
            Sel => "SEL", F2i => "F2I", I2f => "I2F", Ld => "LD", St => "ST", Atom => "ATOM", S2r => "S2R",
            Ffma => "FFMA", Iadd3 => "IADD3", Imad => "IMAD", Shf => "SHF", Dadd => "DADD", Dmul => "DMUL",
            Ddiv => "DDIV", Dsetp => "DSETP", F2f => "F2F", Imnmx => "IMNMX", Fmnmx => "FMNMX", Frnd => "FRND", Idiv => "IDIV", Irem => "IREM", Popc => "POPC",
            Flo => "FLO", Brev => "BREV", Shfl => "SHFL", Vote => "VOTE", Lds => "LDS", Sts => "STS", Atoms => "ATOMS",
            Bar => "BAR", B2r => "B2R", Warpsync => "WARPSYNC", Nop => "NOP", Yield => "YIELD", Bra => "BRA", Cal => "CAL",
            Ssy => "SSY", Sync => "SYNC", Pbk => "PBK", Pcnt => "PCNT", Bssy => "BSSY", Bsync => "BSYNC",
            Break => "BREAK", Exit => "EXIT", Ret => "RET", Brk => "BRK", Cont => "CONT", Printf => "PRINTF",
            Ldg => "LDG", Stg => "STG", Atomg => "ATOMG", Lop3 => "LOP3", Cs2r => "CS2R", Dfma => "DFMA", Dmnmx => "DMNMX",
            Psetp => "PSETP", Bfe => "BFE", Bfi => "BFI", Prmt => "PRMT", Match => "MATCH", Fdiv => "FDIV", Sgxt => "SGXT", Bpt => "BPT",
            Redux => "REDUX", Fns => "FNS", Idp => "IDP", Host => "HOST",
        }
    }

    /// Takes lanes out of the function's flow (`EXIT`, `RET`, `BRK`, `CONT`).
    pub fn leaves(self) -> bool {
        matches!(self, Opcode::Exit | Opcode::Ret | Opcode::Brk | Opcode::Cont)
    }

    /// Calls, waits for other lanes, or pushes a reconvergence token: never run under a guard.
    fn must_run_unguarded(self) -> bool {
        use Opcode::*;
        matches!(self, Cal | Bar | Warpsync | Pbk | Pcnt | Ssy | Bssy | Host)
    }
}

/// `REDUX`'s modifier for a reduction as C (`__reduce_add_sync`) and PTX (`redux.sync.add`)
/// name it: `add` is `SUM`, the others their own names.
pub fn redux_op(name: &str) -> Option<&'static str> {
    Some(match name {
        "add" => "SUM",
        "min" => "MIN",
        "max" => "MAX",
        "and" => "AND",
        "or" => "OR",
        "xor" => "XOR",
        _ => return None,
    })
}

/// One instruction.
#[derive(Clone, PartialEq, Debug)]
pub struct Ins {
    pub op: Opcode,
    /// Written after the opcode, each behind a dot (`ISETP.LT.U32.AND`).
    pub mods: Vec<&'static str>,
    pub dests: Vec<Operand>,
    pub srcs: Vec<Operand>,
    /// Guard predicate index and whether it is negated (`@!P0`).
    pub guard: Option<(u8, bool)>,
    /// Written after the operands as a label (`SSY `(.L_x)`).
    pub target: Option<CodeRef>,
    /// The source line it comes from.
    pub line: u32,
}

impl Ins {
    pub fn new(op: Opcode) -> Ins {
        Ins { op, mods: Vec::new(), dests: Vec::new(), srcs: Vec::new(), guard: None, target: None, line: 0 }
    }
    pub fn with_mods(mut self, mods: &[&'static str]) -> Ins {
        self.mods.extend_from_slice(mods);
        self
    }
    pub fn dst(mut self, d: Operand) -> Ins {
        self.dests.push(d);
        self
    }
    pub fn src(mut self, s: Operand) -> Ins {
        self.srcs.push(s);
        self
    }
    pub fn to(mut self, t: CodeRef) -> Ins {
        self.target = Some(t);
        self
    }
    pub fn guarded(mut self, guard: Option<(u8, bool)>) -> Ins {
        self.guard = guard;
        self
    }
    pub fn at_line(mut self, line: u32) -> Ins {
        self.line = line;
        self
    }

    /// Writes a predicate register (if-conversion must not move it under a guard on one).
    pub fn writes_pred(&self) -> bool {
        self.dests.iter().any(|d| matches!(d, Operand::Pred(_)))
    }

    /// Takes lanes out of the flow; guarded, it lets them leave from the middle of a block.
    pub fn leaves(&self) -> bool {
        self.op.leaves()
    }

    /// If-conversion may put it under a guard: unguarded, writing no predicate, branching
    /// nowhere, and not one that calls, waits or pushes a token.
    pub fn can_be_guarded(&self) -> bool {
        self.guard.is_none() && !self.writes_pred() && self.target.is_none() && !self.op.must_run_unguarded()
    }

    /// Makes an unguarded instruction that writes general register `from` (and does not read
    /// it) write `to` instead. Returns whether it did.
    pub fn retarget(&mut self, from: u8, to: u8) -> bool {
        if self.guard.is_some() || self.dests.first() != Some(&Operand::r(from)) || self.reads(from) {
            return false;
        }
        self.dests[0] = Operand::r(to);
        true
    }

    /// True when the instruction reads general register `n` (a source, an address base, or a
    /// second destination it also reads).
    fn reads(&self, n: u8) -> bool {
        self.dests[1..].iter().chain(&self.srcs).filter_map(Operand::reg).any(|r| r == Reg::R(n))
    }

    /// The mnemonic with its modifiers (`ISETP.LT.U32.AND`), into `out`.
    pub fn mnemonic_into(&self, out: &mut String) {
        out.clear();
        out.push_str(self.op.name());
        for m in &self.mods {
            out.push('.');
            out.push_str(m);
        }
    }

    /// The operands as the assembler reads them from the listing's text (`func` names the
    /// target blocks and holds the strings), into `out`.
    pub fn asm_operands_into(&self, func: &Func, out: &mut Vec<asm::Operand>) {
        out.clear();
        out.extend(self.dests.iter().chain(&self.srcs).map(|o| o.to_asm(func)));
        match &self.target {
            Some(CodeRef::Block(b)) => out.push(asm::Operand::Label(func.block(*b).label.clone())),
            Some(CodeRef::Func(label)) => out.push(asm::Operand::Label(label.clone())),
            None => {}
        }
    }

    /// The instruction as the listing writes it; `func` names the target blocks.
    pub fn display<'a>(&'a self, func: &'a Func) -> Listed<'a> {
        Listed { ins: self, func }
    }
}

/// An instruction with the function whose labels it names, for `Display`.
pub struct Listed<'a> {
    ins: &'a Ins,
    func: &'a Func,
}

impl fmt::Display for Listed<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let i = self.ins;
        if let Some((p, neg)) = i.guard {
            write!(f, "@{}P{p} ", if neg { "!" } else { "" })?;
        }
        f.write_str(i.op.name())?;
        for m in &i.mods {
            write!(f, ".{m}")?;
        }
        let mut sep = " ";
        for o in i.dests.iter().chain(&i.srcs) {
            match *o {
                Operand::Str(k) => {
                    let text = self.func.strings.get(k as usize).map_or("", String::as_str);
                    write!(f, "{sep}{}", crate::printf::quote(text))?
                }
                _ => write!(f, "{sep}{o}")?,
            }
            sep = ", ";
        }
        match &i.target {
            Some(CodeRef::Block(b)) => write!(f, "{sep}`({})", self.func.block(*b).label),
            Some(CodeRef::Func(label)) => write!(f, "{sep}`({label})"),
            None => Ok(()),
        }
    }
}

impl fmt::Display for Reg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reg::R(n) => write!(f, "R{n}"),
            Reg::Z => f.write_str("RZ"),
        }
    }
}

impl fmt::Display for Operand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Operand::Reg(r) => write!(f, "{r}"),
            Operand::Neg(r) => write!(f, "-{r}"),
            Operand::Not(r) => write!(f, "~{r}"),
            Operand::Int(v) => write_int(f, v),
            Operand::Mask(v) => write!(f, "0x{v:x}"),
            // A float the assembler reads back to the same bits.
            Operand::Float(bits) => match f32::from_bits(bits) {
                x if x.is_finite() => write!(f, "{x:?}"),
                _ => write!(f, "0x{bits:08x}"),
            },
            Operand::Pred(p) => write!(f, "P{p}"),
            Operand::NotPred(p) => write!(f, "!P{p}"),
            Operand::PredTrue => f.write_str("PT"),
            Operand::PredFalse => f.write_str("!PT"),
            Operand::Barrier(b) => write!(f, "B{b}"),
            Operand::Mem { base, offset: 0 } => write!(f, "[{base}]"),
            Operand::Mem { base, offset } if offset < 0 => write!(f, "[{base}-0x{:x}]", -(offset as i64)),
            Operand::Mem { base, offset } => write!(f, "[{base}+0x{offset:x}]"),
            Operand::Sys(s) => f.write_str(s.name()),
            // Written through `Listed`, which has the function's strings.
            Operand::Str(k) => write!(f, "string{k}"),
        }
    }
}

impl Reg {
    fn to_asm(self) -> crate::isa::Reg {
        match self {
            Reg::R(n) => crate::isa::Reg(n),
            Reg::Z => crate::isa::Reg::RZ,
        }
    }
}

impl Operand {
    /// What the assembler reads from this operand's text (`Display`), made directly.
    fn to_asm(self, func: &Func) -> asm::Operand {
        use crate::isa::Pred;
        let reg = |r: Reg, negated, inverted| asm::Operand::Reg { reg: r.to_asm(), negated, inverted };
        let hex = |value: i64| asm::Operand::Int { value, hex: true };
        match self {
            Operand::Reg(r) => reg(r, false, false),
            Operand::Neg(r) => reg(r, true, false),
            Operand::Not(r) => reg(r, false, true),
            // Written `-0x4` for small negative values, else as the unsigned word.
            Operand::Int(v) if (-0xffff..0).contains(&(v as i32)) => hex(v as i32 as i64),
            Operand::Int(v) | Operand::Mask(v) => hex(v as i64),
            Operand::Float(bits) => match f32::from_bits(bits) {
                x if x.is_finite() => asm::Operand::Float(x as f64),
                _ => hex(bits as i64),
            },
            Operand::Pred(p) => asm::Operand::Pred { pred: Pred(p), negated: false },
            Operand::NotPred(p) => asm::Operand::Pred { pred: Pred(p), negated: true },
            Operand::PredTrue => asm::Operand::Pred { pred: Pred::PT, negated: false },
            Operand::PredFalse => asm::Operand::Pred { pred: Pred::PT, negated: true },
            Operand::Barrier(b) => asm::Operand::Barrier(b),
            Operand::Mem { base, offset } => asm::Operand::Mem { base: base.to_asm(), offset: offset as i64 },
            Operand::Sys(s) => match asm::parse_special(s.name()) {
                Some(sr) => asm::Operand::Special(sr),
                // Not a register the machine has: the decoder says so, as it would for the text.
                None => asm::Operand::Label(String::from(s.name())),
            },
            Operand::Str(k) => asm::Operand::Str(func.strings.get(k as usize).cloned().unwrap_or_default()),
        }
    }
}

/// An integer immediate as SASS prints it.
fn write_int(f: &mut fmt::Formatter<'_>, v: u32) -> fmt::Result {
    let s = v as i32;
    if (-0xffff..0).contains(&s) {
        write!(f, "-0x{:x}", -s)
    } else {
        write!(f, "0x{v:x}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn prints_as_the_assembler_reads() {
        let func = Func::default();
        let show = |i: &Ins| i.display(&func).to_string();
        let setp = Ins::new(Opcode::Isetp)
            .with_mods(&["LT", "U32", "AND"])
            .dst(Operand::Pred(1))
            .dst(Operand::PredTrue)
            .src(Operand::r(3))
            .src(Operand::Int(0xffff_fffc))
            .src(Operand::PredTrue);
        assert_eq!(show(&setp), "ISETP.LT.U32.AND P1, PT, R3, -0x4, PT");
        assert!(setp.writes_pred() && !setp.can_be_guarded());
        let st = Ins::new(Opcode::St).with_mods(&["E"]).src(Operand::Mem { base: Reg::R(2), offset: -8 }).src(Operand::RZ);
        assert_eq!(show(&st.clone().guarded(Some((0, true)))), "@!P0 ST.E [R2-0x8], RZ");
        let f = Ins::new(Opcode::Fadd).dst(Operand::r(4)).src(Operand::Neg(Reg::R(1))).src(Operand::Float(0.5f32.to_bits()));
        assert_eq!(show(&f), "FADD R4, -R1, 0.5");
        assert_eq!(show(&Ins::new(Opcode::Cal).to(CodeRef::Func("f".into()))), "CAL `(f)");
        assert_eq!(show(&Ins::new(Opcode::Lop).with_mods(&["XOR"]).dst(Operand::r(0)).src(Operand::Mask(!0))), "LOP.XOR R0, 0xffffffff");
        assert!(Ins::new(Opcode::Brk).leaves() && !st.leaves());
    }

    #[test]
    fn retargets_the_value() {
        let mut mov = Ins::new(Opcode::Mov).dst(Operand::r(5)).src(Operand::r(2));
        assert!(mov.retarget(5, 1));
        assert_eq!(mov.dests, [Operand::r(1)]);
        // Reads what it writes: a retarget would change what it computes.
        let mut sel = Ins::new(Opcode::Sel).dst(Operand::r(5)).src(Operand::r(5)).src(Operand::r(2));
        assert!(!sel.retarget(5, 1));
        // R12 is not R1 (the text check this replaced took it for one).
        let mut add = Ins::new(Opcode::Iadd).dst(Operand::r(1)).src(Operand::r(12)).src(Operand::Int(1));
        assert!(add.retarget(1, 0));
        let mut store = Ins::new(Opcode::St).src(Operand::Mem { base: Reg::R(1), offset: 0 }).src(Operand::r(2));
        assert!(!store.retarget(1, 0));
    }
}
