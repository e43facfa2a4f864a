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
    /// `.ADD.F32`: float add.
    AddF32,
    /// `.MIN` / `.MAX`, signed (`.S32`, the default) or unsigned (`.U32`).
    Min {
        signed: bool,
    },
    Max {
        signed: bool,
    },
    And,
    Or,
    Xor,
    /// `.INC` (CUDA `atomicInc`): stores `old >= b ? 0 : old + 1`.
    Inc,
    /// `.DEC` (CUDA `atomicDec`): stores `old == 0 || old > b ? b : old - 1`.
    Dec,
    /// Compare and swap: stores `c` when the old value equals `b`.
    Cas,
    Exch,
}

/// The memory an address is in: global buffers or the block's shared memory.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Space {
    Global,
    Shared,
    /// `LD`/`ST`/`ATOM` without a space: CUDA's generic addressing, which reaches either
    /// (a `__shared__` array passed to a function as a plain pointer is read this way).
    Generic,
}

impl Space {
    pub fn name(self) -> &'static str {
        match self {
            Space::Global => "global",
            Space::Shared => "shared",
            Space::Generic => "generic",
        }
    }
}

/// The function a `MUFU` (multi-function unit) instruction computes, on f32.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MufuFn {
    /// 1 / x
    Rcp,
    /// 1 / sqrt(x)
    Rsq,
    Sqrt,
    /// 2^x
    Ex2,
    /// log2(x)
    Lg2,
    /// sin(x), x in radians (the hardware expects the argument pre-scaled; see the glossary).
    Sin,
    Cos,
}

/// A number type a conversion names.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum NumType {
    S32,
    U32,
    S64,
    U64,
    F32,
    F64,
}

impl NumType {
    /// Held in a register pair.
    pub fn wide(self) -> bool {
        matches!(self, NumType::S64 | NumType::U64 | NumType::F64)
    }
    pub fn float(self) -> bool {
        matches!(self, NumType::F32 | NumType::F64)
    }
}

/// `FRND`'s rounding: to nearest even (no modifier), down, up or toward zero.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Round {
    Even,
    Floor,
    Ceil,
    Trunc,
}

/// Which lane a `SHFL` reads (PTX `shfl.sync` modes).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ShflMode {
    Idx,
    Up,
    Down,
    Bfly,
}

/// What a `VOTE` computes into its predicate.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum VoteMode {
    All,
    Any,
    /// Uniform: the predicate is the same in every executing lane.
    Eq,
}

/// A memory address `[Rb + offset]` in bytes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Address {
    pub base: Reg,
    pub offset: i32,
}

/// The instructions of nvcc's 32-bit integer division or remainder (a float reciprocal, a
/// multiply-high estimate, a correction step and the fix-ups for signs and a zero divisor: 12 to
/// 20 SASS instructions for sm_50 to sm_90 depending on signedness), which one `IDIV`/`IREM`
/// stands for in the cost model.
pub const DIVIDE_ISSUES: u32 = 15;

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
    /// `IADD3 d, [Pc,] a, b, c`: with `Pc` (not `PT`), also the carry out: whether the sum, a
    /// register negated with `-` counting as `~r + 1`, reaches 2^32.
    Iadd3 {
        dst: Reg,
        a: Src,
        b: Src,
        c: Src,
        carry: Pred,
    },
    /// `IADD3.X d, [Pc,] a, b, c, Pin`: the high words of a 64-bit add, `Pin` the low words'
    /// carry; `~Rn` operands (`invert`) are bitwise complements, as in a 64-bit subtract.
    Iadd3X {
        dst: Reg,
        carry: Pred,
        a: Src,
        b: Src,
        c: Src,
        invert: [bool; 3],
        carry_in: PredSrc,
    },
    /// `IMAD.WIDE[.U32] d, a, b, c`: the register pair `d` = a * b (64-bit product) + the pair `c`.
    ImadWide {
        dst: Reg,
        a: Src,
        b: Src,
        c: Src,
        signed: bool,
    },
    /// `SHF.L|R.U32|S32|U64|S64[.HI] d, lo, shift, hi`: the funnel shift of the 64-bit `{hi:lo}`;
    /// `d` is its low word, or its high word with `.HI`. 32-bit types clamp the shift at 32,
    /// 64-bit ones take it modulo 64; `.S` types shift right arithmetically.
    Shf {
        dst: Reg,
        lo: Src,
        shift: Src,
        hi: Src,
        left: bool,
        signed: bool,
        wide: bool,
        high: bool,
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
    /// `LD`/`LDG` (global) and `LDS` (shared).
    Ld {
        dst: Reg,
        addr: Address,
        width: Width,
        space: Space,
    },
    /// `ST`/`STG` (global) and `STS` (shared).
    St {
        src: Reg,
        addr: Address,
        width: Width,
        space: Space,
    },
    /// `ATOM.ADD d, [a], b` / `ATOM.EXCH d, [a], b` / `ATOM.CAS d, [a], b, c` (`ATOMS` on shared
    /// memory): the lanes' read-modify-writes happen one lane at a time in lane order; `dst` gets
    /// the value each lane found.
    Atom {
        op: AtomOp,
        dst: Reg,
        addr: Address,
        b: Src,
        c: Src,
        space: Space,
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
    /// A conversion that involves a 64-bit type (`I2F.F64.S32`, `F2I.S64.F64.TRUNC`, `F2F.F32.F64`,
    /// `I2F.F32.S64`...); 64-bit values are register pairs, low word first.
    Cvt {
        dst: Reg,
        src: Src,
        from: NumType,
        to: NumType,
    },
    // Double precision on register pairs (`a` names `a` and `a+1`, low word first).
    Dadd {
        dst: Reg,
        a: Src,
        b: Src,
    },
    Dmul {
        dst: Reg,
        a: Src,
        b: Src,
    },
    /// Fused multiply-add, rounded once.
    Dfma {
        dst: Reg,
        a: Src,
        b: Src,
        c: Src,
    },
    Dsetp {
        cmp: Cmp,
        combine: BoolOp,
        dst: Pred,
        dst_inv: Pred,
        a: Src,
        b: Src,
        c: PredSrc,
    },
    /// `DDIV d, a, b`: warpscope's one-instruction double division (nvcc calls a subroutine).
    Ddiv {
        dst: Reg,
        a: Src,
        b: Src,
    },
    /// `DMNMX d, a, b, p`: minNum where `p` holds, else maxNum.
    Dmnmx {
        dst: Reg,
        a: Src,
        b: Src,
        p: PredSrc,
    },
    /// `FRND[.FLOOR|.CEIL|.TRUNC]`: round an f32 to an integral f32.
    Frnd {
        mode: Round,
        dst: Reg,
        src: Src,
    },
    // Bit counts and min/max.
    /// `POPC d, a`: the number of set bits.
    Popc {
        dst: Reg,
        src: Src,
    },
    /// `FLO.U32|S32[.SH] d, a`: the index of the highest set bit (S32: of the highest bit that
    /// differs from the sign bit), 0xffffffff when there is none; `.SH`: 31 minus that index.
    Flo {
        dst: Reg,
        src: Src,
        signed: bool,
        shift: bool,
    },
    /// `BREV d, a`: the bits in reverse order.
    Brev {
        dst: Reg,
        src: Src,
    },
    /// `IMNMX[.U32] d, a, b, p`: the minimum where `p` holds, else the maximum.
    Imnmx {
        dst: Reg,
        a: Src,
        b: Src,
        signed: bool,
        p: PredSrc,
    },
    /// `FMNMX d, a, b, p`: IEEE minNum where `p` holds, else maxNum (a NaN operand loses).
    Fmnmx {
        dst: Reg,
        a: Src,
        b: Src,
        p: PredSrc,
    },
    /// `IDIV.S32|U32 d, a, b` / `IREM`: warpscope's one-instruction integer division (GPUs have
    /// none; nvcc emits a reciprocal-and-correction sequence).
    Idiv {
        dst: Reg,
        a: Src,
        b: Src,
        signed: bool,
        rem: bool,
        /// `.S64`/`.U64`: register pairs (what a `long long` `/` or `%` compiles to).
        wide: bool,
    },
    // Warp-wide data exchange.
    /// `SHFL.mode Pd, d, a, b, c [, mask]`: PTX `shfl.sync`; `c` packs the clamp (bits 4:0) and
    /// the segment mask (bits 12:8); `mask` is the `_sync` member mask.
    Shfl {
        mode: ShflMode,
        pred: Pred,
        dst: Reg,
        a: Src,
        b: Src,
        c: Src,
        mask: Option<Src>,
    },
    /// `VOTE.mode d, Pd, p [, mask]`: `d` gets the ballot of `p` over the executing lanes, `Pd`
    /// whether it holds in all, any, or all-or-none of them.
    Vote {
        mode: VoteMode,
        dst: Reg,
        pred: Pred,
        src: PredSrc,
        mask: Option<Src>,
    },
    /// `PRINTF "format", Ra, Rb, ...`: each executing lane prints the format with the
    /// arguments in the `words` registers from `base` (a 64-bit argument takes two). The format
    /// is the program's `formats[id]`. Real GPUs call `vprintf` with the arguments in a local
    /// buffer; one instruction keeps the listing readable.
    Printf {
        id: u16,
        base: Reg,
        words: u8,
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

    /// The member mask of a `_sync` instruction (`SHFL`/`VOTE` with a mask, `WARPSYNC`): every
    /// lane it names must execute the instruction with the others.
    pub fn member_mask(&self) -> Option<Src> {
        match *self {
            Op::Shfl { mask, .. } | Op::Vote { mask, .. } => mask,
            Op::Warpsync { mask } => Some(mask),
            _ => None,
        }
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

    /// Warp instructions one issue stands for, for the cost model: warpscope's `IDIV`/`IREM`
    /// stand for nvcc's division sequence (`DIVIDE_ISSUES` instructions).
    #[inline]
    pub fn issues(&self) -> u32 {
        match self {
            Op::Idiv { .. } | Op::Ddiv { .. } => DIVIDE_ISSUES,
            _ => 1,
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
