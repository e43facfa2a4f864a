//! Decoded operations. Each variant holds exactly the operands its semantics needs.

use super::{Barrier, Pc, Pred, PredSrc, Reg, SpecialReg};

/// A register or immediate source. Immediates hold raw 32-bit patterns (float immediates are
/// stored as their f32 bits), so every source reads as a `u32`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Src {
    Reg { reg: Reg, negated: bool },
    Imm(u32),
}

impl Src {
    pub fn reg(reg: Reg) -> Src {
        Src::Reg { reg, negated: false }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Cmp {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    /// `.T`: always true; `.F`: always false.
    True,
    False,
}

/// How a set-predicate combines its comparison with the third predicate source.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BoolOp {
    And,
    Or,
    Xor,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum LogicOp {
    And,
    Or,
    Xor,
    /// `LOP.PASS_B`: copy the second operand.
    PassB,
}

/// The width of a memory access: one, two or four consecutive 32-bit registers.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Width {
    W32,
    W64,
    W128,
}

impl Width {
    pub fn words(self) -> u32 {
        match self {
            Width::W32 => 1,
            Width::W64 => 2,
            Width::W128 => 4,
        }
    }
}

/// What an atomic read-modify-write does with the old value and its operands.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum AtomOp {
    Add,
    /// Compare and swap: stores `c` when the old value equals `b`.
    Cas,
    Exch,
}

/// The function a `MUFU` (multi-function unit) instruction computes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MufuFn {
    /// 1 / x
    Rcp,
}

/// A memory address `[Rb + offset]` in bytes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Address {
    pub base: Reg,
    pub offset: i32,
}

/// What a memory instruction does with the words it addresses.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum AccessKind {
    /// A load: reads the words into registers.
    Read,
    /// A store: writes registers into the words.
    Write,
    /// An atomic: reads each word and writes it back changed, one lane at a time.
    Update,
}

impl AccessKind {
    /// The verb a sentence about the access uses (`ST.E by lanes 0-15 wrote a[0..15]`).
    pub fn verb(self) -> &'static str {
        match self {
            AccessKind::Read => "read",
            AccessKind::Write => "wrote",
            AccessKind::Update => "updated",
        }
    }
    /// The word for an element the access touched (`written by lanes 0-15`).
    pub fn participle(self) -> &'static str {
        match self {
            AccessKind::Read => "read",
            AccessKind::Write => "written",
            AccessKind::Update => "updated",
        }
    }
    /// The access changes memory (a store or an atomic).
    pub fn writes(self) -> bool {
        !matches!(self, AccessKind::Read)
    }
}

/// How an operation uses memory: what it does, where (per lane), and how many consecutive words.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MemoryUse {
    pub kind: AccessKind,
    pub addr: Address,
    pub words: u32,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Op {
    // Integer arithmetic. Results wrap at 32 bits.
    Iadd {
        dst: Reg,
        a: Src,
        b: Src,
    },
    Iadd3 {
        dst: Reg,
        a: Src,
        b: Src,
        c: Src,
    },
    /// `ISCADD d, a, b, s`: d = (a << s) + b.
    Iscadd {
        dst: Reg,
        a: Src,
        b: Src,
        shift: u32,
    },
    Imul {
        dst: Reg,
        a: Src,
        b: Src,
        hi: bool,
        signed: bool,
    },
    Imad {
        dst: Reg,
        a: Src,
        b: Src,
        c: Src,
        hi: bool,
        signed: bool,
    },
    Isetp {
        cmp: Cmp,
        signed: bool,
        combine: BoolOp,
        dst: Pred,
        dst_inv: Pred,
        a: Src,
        b: Src,
        c: PredSrc,
    },
    // Float arithmetic on f32 bit patterns.
    Fadd {
        dst: Reg,
        a: Src,
        b: Src,
    },
    Fmul {
        dst: Reg,
        a: Src,
        b: Src,
    },
    Ffma {
        dst: Reg,
        a: Src,
        b: Src,
        c: Src,
    },
    Fsetp {
        cmp: Cmp,
        combine: BoolOp,
        dst: Pred,
        dst_inv: Pred,
        a: Src,
        b: Src,
        c: PredSrc,
    },
    // Moves and bit operations.
    Mov {
        dst: Reg,
        src: Src,
    },
    Sel {
        dst: Reg,
        a: Src,
        b: Src,
        p: PredSrc,
    },
    Lop {
        op: LogicOp,
        dst: Reg,
        a: Src,
        b: Src,
        invert_b: bool,
    },
    /// `LOP3.LUT d, a, b, c, lut`: any 3-input bitwise function given by its truth table.
    Lop3 {
        dst: Reg,
        a: Src,
        b: Src,
        c: Src,
        lut: u8,
    },
    Shl {
        dst: Reg,
        a: Src,
        b: Src,
    },
    Shr {
        dst: Reg,
        a: Src,
        b: Src,
        signed: bool,
    },
    S2r {
        dst: Reg,
        sr: SpecialReg,
    },
    /// `CS2R`: a 64-bit special register into a register pair (or 32 bits with `.32`).
    Cs2r {
        dst: Reg,
        sr: SpecialReg,
        wide: bool,
    },
    // Memory.
    Ld {
        dst: Reg,
        addr: Address,
        width: Width,
    },
    St {
        src: Reg,
        addr: Address,
        width: Width,
    },
    /// `ATOM.ADD d, [a], b` / `ATOM.EXCH d, [a], b` / `ATOM.CAS d, [a], b, c`: the lanes' read-modify-writes
    /// happen one lane at a time in lane order; `dst` gets the value each lane found.
    Atom {
        op: AtomOp,
        dst: Reg,
        addr: Address,
        b: Src,
        c: Src,
    },
    // Conversions and special functions.
    /// `I2F.F32.S32` / `.U32`: integer to float.
    I2f {
        dst: Reg,
        src: Src,
        signed: bool,
    },
    /// `F2I.S32.TRUNC` / `.U32`: float to integer, rounding toward zero, saturating.
    F2i {
        dst: Reg,
        src: Src,
        signed: bool,
    },
    Mufu {
        func: MufuFn,
        dst: Reg,
        src: Src,
    },
    Nop,
    /// `BAR.SYNC`: a block-wide barrier. With one warp, every non-exited lane must arrive together.
    BarSync,
    // Control flow: token stack (Fermi to Pascal).
    Ssy {
        target: Pc,
    },
    /// `SYNC`: a NOP with the pop bit.
    Sync,
    /// `BRA`; with `.U` the branch is uniform: taken only when every active lane's guard holds.
    Bra {
        target: Pc,
        uniform: bool,
    },
    Pbk {
        target: Pc,
    },
    Brk,
    Pcnt {
        target: Pc,
    },
    Cont,
    Cal {
        target: Pc,
    },
    Ret,
    Exit,
    // Control flow: convergence barriers (Volta and later).
    Bssy {
        barrier: Barrier,
        target: Pc,
    },
    Bsync {
        barrier: Barrier,
    },
    Break {
        barrier: Barrier,
    },
    Warpsync {
        mask: Src,
    },
    Yield,
}

impl Op {
    /// Operations that change control flow or the reconvergence state.
    pub fn is_control(&self) -> bool {
        matches!(
            self,
            Op::Ssy { .. }
                | Op::Sync
                | Op::Bra { .. }
                | Op::Pbk { .. }
                | Op::Brk
                | Op::Pcnt { .. }
                | Op::Cont
                | Op::Cal { .. }
                | Op::Ret
                | Op::Exit
                | Op::Bssy { .. }
                | Op::Bsync { .. }
                | Op::Break { .. }
                | Op::Warpsync { .. }
                | Op::Yield
                | Op::BarSync
        )
    }

    /// The memory an operation accesses, if any: one arm per memory operation, so views
    /// (`machine::touches`) follow every new one.
    pub fn memory_use(&self) -> Option<MemoryUse> {
        match *self {
            Op::Ld { addr, width, .. } => Some(MemoryUse { kind: AccessKind::Read, addr, words: width.words() }),
            Op::St { addr, width, .. } => Some(MemoryUse { kind: AccessKind::Write, addr, words: width.words() }),
            Op::Atom { addr, .. } => Some(MemoryUse { kind: AccessKind::Update, addr, words: 1 }),
            _ => None,
        }
    }

    /// The code address an operation names, if any (branch, call, token or barrier target).
    pub fn target(&self) -> Option<Pc> {
        match *self {
            Op::Ssy { target }
            | Op::Bra { target, .. }
            | Op::Pbk { target }
            | Op::Pcnt { target }
            | Op::Cal { target }
            | Op::Bssy { target, .. } => Some(target),
            _ => None,
        }
    }
}
