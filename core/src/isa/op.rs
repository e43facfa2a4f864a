//! Decoded operations. Each variant holds exactly the operands its semantics needs.

use super::{Barrier, Pc, Pred, PredSrc, Reg, SpecialReg};

/// A register or immediate source. Immediates hold raw 32-bit patterns (float immediates are
/// stored as their f32 bits), so every source reads as a `u32`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Src {
    Reg { reg: Reg, negated: bool },
    Imm(u32),
}

/// What `BAR.RED` reduces over the threads at the barrier: how many hold the predicate, whether
/// all do, or whether any does.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BarRedKind {
    Popc,
    And,
    Or,
}

/// `BAR.RED`'s reduction and its predicate.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct BarRed {
    pub kind: BarRedKind,
    pub pred: PredSrc,
}

impl BarRedKind {
    /// Two parts of the reduction together (warps' or a block's).
    pub fn combine(self, a: u32, b: u32) -> u32 {
        match self {
            BarRedKind::Popc => a + b,
            BarRedKind::And => a.min(b),
            BarRedKind::Or => a.max(b),
        }
    }
    /// The reduction over no thread yet.
    pub fn identity(self) -> u32 {
        match self {
            BarRedKind::Popc | BarRedKind::Or => 0,
            BarRedKind::And => 1,
        }
    }
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
    /// The unordered float comparisons (`FSETP`/`DSETP` only): true when either operand is NaN
    /// or the comparison holds. The ordered ones above are false when either is NaN.
    Ltu,
    Leu,
    Gtu,
    Geu,
    Equ,
    Neu,
    /// `.NUM`: neither operand is NaN; `.NAN`: either is.
    Num,
    Nan,
}

impl Cmp {
    /// Whether `a cmp b` holds, IEEE style: every ordered comparison (`Ne` too) is false when
    /// the operands are unordered (a NaN), every unordered one true. For integers, which are
    /// always ordered, `Ltu` reads as `Lt` (the assembler gives `ISETP` only the ordered ones).
    #[inline(always)]
    pub fn holds<T: PartialOrd>(self, a: T, b: T) -> bool {
        use core::cmp::Ordering::{Equal, Greater, Less};
        let o = a.partial_cmp(&b);
        match self {
            Cmp::Lt => o == Some(Less),
            Cmp::Le => matches!(o, Some(Less | Equal)),
            Cmp::Gt => o == Some(Greater),
            Cmp::Ge => matches!(o, Some(Greater | Equal)),
            Cmp::Eq => o == Some(Equal),
            Cmp::Ne => matches!(o, Some(Less | Greater)),
            Cmp::True => true,
            Cmp::False => false,
            Cmp::Ltu => matches!(o, None | Some(Less)),
            Cmp::Leu => o != Some(Greater),
            Cmp::Gtu => matches!(o, None | Some(Greater)),
            Cmp::Geu => o != Some(Less),
            Cmp::Equ => matches!(o, None | Some(Equal)),
            Cmp::Neu => o != Some(Equal),
            Cmp::Num => o.is_some(),
            Cmp::Nan => o.is_none(),
        }
    }

    /// An unordered comparison, or `NUM`/`NAN`: meaningful for floats only.
    pub fn unordered(self) -> bool {
        matches!(self, Cmp::Ltu | Cmp::Leu | Cmp::Gtu | Cmp::Geu | Cmp::Equ | Cmp::Neu | Cmp::Num | Cmp::Nan)
    }
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

/// The width of a memory access: a byte or a halfword (`.U8`, `.S8`, `.U16`, `.S16`: a load
/// zero- or sign-extends it into one register, a store writes the register's low bits), or one,
/// two or four consecutive 32-bit registers.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Width {
    U8,
    S8,
    U16,
    S16,
    W32,
    W64,
    W128,
}

impl Width {
    /// The 32-bit words the access touches (a byte or halfword: the word it lies in).
    pub fn words(self) -> u32 {
        match self {
            Width::U8 | Width::S8 | Width::U16 | Width::S16 | Width::W32 => 1,
            Width::W64 => 2,
            Width::W128 => 4,
        }
    }
    /// The bytes one lane moves.
    pub fn bytes(self) -> u32 {
        match self {
            Width::U8 | Width::S8 => 1,
            Width::U16 | Width::S16 => 2,
            w => 4 * w.words(),
        }
    }
    /// A byte or halfword: part of a word.
    pub fn sub_word(self) -> bool {
        self.bytes() < 4
    }
}

/// What an atomic read-modify-write does with the old value and its operands.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum AtomOp {
    Add,
    /// `.ADD.F32`: float add.
    AddF32,
    /// `.ADD.F64`: double add (on register pairs and two words).
    AddF64,
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

/// A rounding direction: to nearest even, down, up or toward zero. `FRND`'s modes (no modifier,
/// `.FLOOR`, `.CEIL`, `.TRUNC`), float arithmetic's and conversions' `.RN`, `.RM`, `.RP`, `.RZ`,
/// and `F2I`'s `.ROUND`, `.FLOOR`, `.CEIL`, `.TRUNC`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Round {
    Even,
    Floor,
    Ceil,
    Trunc,
}

/// How an f32 `FADD`, `FMUL`, `FFMA` or `FDIV` finishes its result: rounded once, exactly, in
/// `round`'s direction; with `ftz`, denormal inputs and results flushed to zero (keeping the
/// sign); with `sat`, the result clamped to [0.0, 1.0], NaN giving 0.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct FloatMode {
    pub round: Round,
    pub ftz: bool,
    pub sat: bool,
}

impl FloatMode {
    /// No modifier: round to nearest even, denormals kept, no clamp.
    pub const RN: FloatMode = FloatMode { round: Round::Even, ftz: false, sat: false };
}

/// What `IDP` multiplies: four bytes by four (`4A`), or two halfwords by two bytes of b, its
/// low two or high two (`2A.LO`, `2A.HI`); and whether a's and b's parts are signed.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct DotShape {
    pub halves: bool,
    pub hi: bool,
    pub a_signed: bool,
    pub b_signed: bool,
}

/// `PRMT`'s byte selection: `Generic` reads four 4-bit selectors (bit 3 replicating the byte's
/// sign); the others read only the selector's two low bits, as PTX `prmt`'s `.f4e` (forward
/// 4 extract), `.b4e` (backward), `.rc8` (replicate a byte), `.ecl`/`.ecr` (edge clamp left,
/// right) and `.rc16` (replicate a halfword).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PrmtMode {
    Generic,
    F4e,
    B4e,
    Rc8,
    Ecl,
    Ecr,
    Rc16,
}

/// Which lane a `SHFL` reads (PTX `shfl.sync` modes).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ShflMode {
    Idx,
    Up,
    Down,
    Bfly,
}

/// What a `MATCH` finds among the lanes: those with the lane's value (`.ANY`), or whether all
/// have one value (`.ALL`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MatchMode {
    Any,
    All,
}

/// What a `VOTE` computes into its predicate.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum VoteMode {
    All,
    Any,
    /// Uniform: the predicate is the same in every executing lane.
    Eq,
}

/// What a `REDUX` combines.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ReduxOp {
    Sum,
    Min { signed: bool },
    Max { signed: bool },
    And,
    Or,
    Xor,
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

/// How an operation uses memory: what it does, where (per lane), how many consecutive words,
/// and how many bytes (fewer than 4 for a byte or halfword access, which touches the word it
/// lies in).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MemoryUse {
    pub kind: AccessKind,
    pub addr: Address,
    pub words: u32,
    pub bytes: u32,
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
    // Float arithmetic on f32 bit patterns, each rounded once as `mode` says.
    Fadd {
        dst: Reg,
        a: Src,
        b: Src,
        mode: FloatMode,
    },
    Fmul {
        dst: Reg,
        a: Src,
        b: Src,
        mode: FloatMode,
    },
    /// Fused multiply-add: a * b + c, rounded once.
    Ffma {
        dst: Reg,
        a: Src,
        b: Src,
        c: Src,
        mode: FloatMode,
    },
    /// `FDIV[.RN|.RM|.RP|.RZ][.FTZ] d, a, b`: warpscope's one-instruction f32 division, correctly
    /// rounded (IEEE). GPUs have no divide instruction: nvcc calls a subroutine (a reciprocal
    /// estimate refined with FFMA, and a slow path for zeros, infinities and extreme exponents),
    /// which the cost model charges for this one (`DIVIDE_ISSUES`), as for `DDIV`.
    Fdiv {
        dst: Reg,
        a: Src,
        b: Src,
        mode: FloatMode,
    },
    /// `FCHK Pd, a, b`: whether `a / b` needs the slow path of nvcc's division (its fast path,
    /// a refined reciprocal, may round wrongly or overflow; `machine::exec::float::fchk` says
    /// when), so ptxas's code branches to its subroutine only then.
    Fchk {
        dst: Pred,
        a: Src,
        b: Src,
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
    /// `PSETP.AND|OR|XOR Pd, Pa, Pb`: predicate logic, Pd = Pa op Pb in each lane (`!Pn`, `PT`,
    /// `!PT` as sources; a write to `PT` is dropped).
    Psetp {
        op: BoolOp,
        dst: Pred,
        a: PredSrc,
        b: PredSrc,
    },
    /// `PLOP3.LUT Pd, Pe, a, b, c, lut, lut2` (Volta and later): any function of three
    /// predicates by its truth table, as `LOP3` for bits (bit `a<<2 | b<<1 | c` of `lut` is the
    /// result); `Pe` gets `lut2`'s.
    Plop3 {
        dst: Pred,
        dst2: Pred,
        a: PredSrc,
        b: PredSrc,
        c: PredSrc,
        lut: u8,
        lut2: u8,
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
    /// the value each lane found. `wide` (`.64`, `.S64`, `.U64`, `.F64`): 64-bit values, `dst`,
    /// `b` and `c` register pairs and two words of memory.
    Atom {
        op: AtomOp,
        dst: Reg,
        addr: Address,
        b: Src,
        c: Src,
        space: Space,
        wide: bool,
    },
    // Conversions and special functions.
    /// `I2F.F32.S32` / `.U32` (`.RN`, the default, `.RM`, `.RP`, `.RZ`): integer to float.
    I2f {
        dst: Reg,
        src: Src,
        signed: bool,
        round: Round,
    },
    /// `F2I.S32` / `.U32` with `.TRUNC` (the default), `.FLOOR`, `.CEIL` or `.ROUND` (to nearest
    /// even): float to integer, saturating, NaN giving 0.
    F2i {
        dst: Reg,
        src: Src,
        signed: bool,
        round: Round,
    },
    Mufu {
        func: MufuFn,
        dst: Reg,
        src: Src,
    },
    /// A conversion that involves a 64-bit type (`I2F.F64.S32`, `F2I.S64.F64.TRUNC`, `F2F.F32.F64`,
    /// `I2F.F32.S64`...); 64-bit values are register pairs, low word first. `round`: how a float
    /// becomes an integer, or how a value that does not fit the float type exactly is rounded.
    Cvt {
        dst: Reg,
        src: Src,
        from: NumType,
        to: NumType,
        round: Round,
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
    /// `BFE.U32|S32 d, a, pos, len`: PTX `bfe`: the `len` bits of `a` from bit `pos` (each from
    /// bits 7:0 of its operand), zero- or sign-extended; the sign is bit min(pos + len - 1, 31)
    /// of `a`, and `len` 0 gives 0.
    Bfe {
        dst: Reg,
        a: Src,
        pos: Src,
        len: Src,
        signed: bool,
    },
    /// `BFI d, insert, base, pos, len`: PTX `bfi`: `base` with its bits from `pos` on replaced
    /// by the low `len` bits of `insert` (pos and len from bits 7:0; bits past 31 are dropped).
    Bfi {
        dst: Reg,
        insert: Src,
        base: Src,
        pos: Src,
        len: Src,
    },
    /// `PRMT[.mode] d, a, sel, b`: PTX `prmt.b32 d, a, b, sel`: four bytes picked from the eight
    /// of `{b, a}` (`a` bytes 0-3, `b` bytes 4-7) as `sel` and `mode` say.
    Prmt {
        dst: Reg,
        a: Src,
        sel: Src,
        b: Src,
        mode: PrmtMode,
    },
    /// `FNS d, mask, base, offset`: PTX's `fns.b32`, which no SASS instruction is (ptxas
    /// expands it): the bit position of `mask`'s offset-th set bit counting up from bit `base`
    /// (that bit included; a negative offset counts down), or 0xffffffff when there is none;
    /// offset 0 gives `base` if its bit is set.
    Fns {
        dst: Reg,
        mask: Src,
        base: Src,
        offset: Src,
    },
    /// `IDP.4A d, a, b, c` (PTX `dp4a`, `__dp4a`): c plus the dot product of a's four bytes with
    /// b's; `IDP.2A.LO`/`.HI` (PTX `dp2a`, `__dp2a_lo`): c plus a's two halfwords times b's
    /// bytes 0-1 or 2-3. Each side's parts are signed or not; the sum wraps at 32 bits.
    Idp {
        dst: Reg,
        a: Src,
        b: Src,
        c: Src,
        shape: DotShape,
    },
    /// `SGXT[.U32] d, a, bits`: the low `bits` bits of `a` (at most 32), sign-extended, or
    /// zero-extended with `.U32`; 0 bits give 0.
    Sgxt {
        dst: Reg,
        a: Src,
        bits: Src,
        signed: bool,
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
    /// `REDUX.SUM|MIN|MAX|AND|OR|XOR d, a` (sm_80 and later; CUDA's `__reduce_*_sync`): `a`
    /// combined over the executing lanes (of the lane's 32-lane half), written to each of them
    /// (real SASS writes a uniform register).
    Redux {
        op: ReduxOp,
        dst: Reg,
        src: Reg,
    },
    /// `MATCH.ANY d, a [, mask]` / `MATCH.ALL Pd, d, a [, mask]` (PTX `match.sync`): over the
    /// executing lanes (of the lane's 32-lane half, and of its mask), `.ANY` gives each lane the
    /// lanes whose `a` equals its own; `.ALL` gives all of them when every `a` is the same (else
    /// 0) and sets `Pd` to whether it is. `wide` (`.U64`): `a` is a register pair.
    Match {
        mode: MatchMode,
        pred: Pred,
        dst: Reg,
        src: Src,
        wide: bool,
        mask: Option<Src>,
    },
    /// `PRINTF "format", Ra, Rb, ...`: each executing lane prints the format with the
    /// arguments in the `words` registers from `base` (a 64-bit argument takes two). The format
    /// is the program's `formats[id]`. Real GPUs call `vprintf` with the arguments in a local
    /// buffer; one instruction keeps the listing readable. `PRINTF "format", [Ra]` (real SASS's
    /// `vprintf` call) reads them from that buffer instead, at the address in `base`: the words
    /// whose bits are set in `buffer`, in order (each argument aligned to its size, as
    /// `vprintf` lays them out); `buffer` is 0 for registers.
    Printf {
        id: u16,
        base: Reg,
        words: u8,
        buffer: u32,
    },
    /// `HOST "name", Ra, n`: a call of the host's runtime or C library (`cudaMalloc`, `malloc`,
    /// a kernel launch) from a program's host code, with its arguments and results in the `n`
    /// registers from `Ra` (`name` is the program's `calls[id]`). The host runner serves it
    /// before it issues; to the data path it is a no-op on the host and a fault on a GPU.
    Host {
        id: u16,
        base: Reg,
        words: u8,
    },
    Nop,
    /// `BPT.TRAP` (PTX `trap`, CUDA `__trap()`): the lanes that execute it abort the kernel; the
    /// run stops with a fault naming the instruction's line.
    Trap,
    /// `BAR.SYNC b[, n]` (`__syncthreads()`, PTX `bar.sync b, n` and `barrier.sync`): waits at
    /// barrier `b` (0-15) of the block until `n` threads have arrived (a multiple of the warp
    /// size), or without `n` every thread of the block that has not exited. `BAR.RED.POPC`,
    /// `.AND` or `.OR` (`__syncthreads_count`, `_and`, `_or`; PTX `bar.red`) also reduces a
    /// predicate over the threads that arrived, for `B2R.RESULT` to read.
    BarSync {
        id: Src,
        count: Option<Src>,
        red: Option<BarRed>,
    },
    /// `B2R.RESULT Rd[, Pd]`: the reduction of the last `BAR.RED` (a count, or 1 or 0 for `.AND`
    /// and `.OR`), and in `Pd` whether it is not zero.
    B2r {
        dst: Reg,
        pred: Pred,
    },
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
    /// `BMOV.32[.CLEAR] Rd, Bn`: the lanes of barrier Bn as a mask in Rd, in each issuing lane;
    /// `.CLEAR` empties Bn after. ptxas saves a barrier so around a recursive call.
    BmovRead {
        dst: Reg,
        barrier: Barrier,
        clear: bool,
    },
    /// `BMOV.32 Bn, Ra`: barrier Bn holds the lanes Ra's mask names (a saved barrier restored).
    BmovWrite {
        barrier: Barrier,
        src: Reg,
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
                | Op::BmovRead { .. }
                | Op::BmovWrite { .. }
                | Op::Warpsync { .. }
                | Op::Yield
                | Op::BarSync { .. }
        )
    }

    /// The member mask of a `_sync` instruction (`SHFL`/`VOTE`/`MATCH` with a mask, `WARPSYNC`): every
    /// lane it names must execute the instruction with the others.
    /// A warp collective's member mask: `Some(mask)` for one that reads or waits for other lanes
    /// (`SHFL`, `VOTE`, `MATCH`, `REDUX`, `WARPSYNC`), with `None` inside where it names no
    /// lanes (real SASS's, which ptxas places where the lanes it needs run together, and
    /// `__activemask`'s); `None` for every other instruction.
    pub fn collective(&self) -> Option<Option<Src>> {
        match *self {
            Op::Shfl { mask, .. } | Op::Vote { mask, .. } | Op::Match { mask, .. } => Some(mask),
            Op::Redux { .. } => Some(None),
            Op::Warpsync { mask } => Some(Some(mask)),
            _ => None,
        }
    }

    pub fn member_mask(&self) -> Option<Src> {
        match *self {
            Op::Shfl { mask, .. } | Op::Vote { mask, .. } | Op::Match { mask, .. } => mask,
            Op::Warpsync { mask } => Some(mask),
            _ => None,
        }
    }

    /// The memory an operation accesses, if any: one arm per memory operation, so views
    /// (`machine::touches`) follow every new one.
    pub fn memory_use(&self) -> Option<MemoryUse> {
        match *self {
            Op::Ld { addr, width, .. } => Some(MemoryUse { kind: AccessKind::Read, addr, words: width.words(), bytes: width.bytes() }),
            Op::St { addr, width, .. } => Some(MemoryUse { kind: AccessKind::Write, addr, words: width.words(), bytes: width.bytes() }),
            Op::Atom { addr, wide, .. } => {
                let words = 1 + wide as u32;
                Some(MemoryUse { kind: AccessKind::Update, addr, words, bytes: 4 * words })
            }
            _ => None,
        }
    }

    /// Warp instructions one issue stands for, for the cost model: warpscope's `IDIV`/`IREM`
    /// stand for nvcc's division sequence, and `FDIV`/`DDIV` for the subroutine nvcc calls
    /// (`DIVIDE_ISSUES` instructions each).
    #[inline]
    pub fn issues(&self) -> u32 {
        match self {
            Op::Idiv { .. } | Op::Ddiv { .. } | Op::Fdiv { .. } => DIVIDE_ISSUES,
            _ => 1,
        }
    }

    /// The word of the clock an operation reads (`S2R`/`CS2R` of `SR_CLOCKLO` or `SR_CLOCKHI`),
    /// if it reads the clock: a run that reads it depends on the cost model's cycles.
    pub fn clock_word(&self) -> Option<SpecialReg> {
        match *self {
            Op::S2r { sr: sr @ (SpecialReg::ClockLo | SpecialReg::ClockHi), .. }
            | Op::Cs2r { sr: sr @ (SpecialReg::ClockLo | SpecialReg::ClockHi), .. } => Some(sr),
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
