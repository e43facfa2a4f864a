//! The words a student meets in each model's views: the instructions of its listings, the entries
//! of its control state (the stack panel), and the ideas the CFG and plots draw, each with what
//! it means and where it comes from. One list, each term naming the models it belongs to; a word
//! that means different things to different models (`SSY` pushes a token on Kepler and does
//! nothing under PDOM) has one term per meaning. The stack panel's words for an entry are its
//! term's (`EntryKind::meaning`), so the help's glossary and a hover say the same thing.

use alloc::format;
use alloc::string::String;

use super::{EntryKind, ModelKind};
use ModelKind::{Kepler, Mimd, Pdom, PdomSsy, Struct, TfSandy, TfStack, Volta};

/// Where a student meets a term.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum TermKind {
    /// An instruction or modifier in the listing.
    Instruction,
    /// An entry of the model's control state, as the stack panel lists it.
    Entry,
    /// An idea the views draw: a point of the CFG, a mark on the stack history.
    Idea,
}

/// One glossary entry.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Term {
    /// The word as the views show it. Words that mean the same to these models share a term,
    /// listed with ", " between them (`SSY, PBK, PCNT`); `Bn` stands for a barrier's number.
    pub term: &'static str,
    pub kind: TermKind,
    pub meaning: &'static str,
    /// Where it comes from: the paper or notes, and which GPU generations have it.
    pub source: &'static str,
    /// The models whose views show it, in `ModelKind::ALL` order.
    pub models: &'static [ModelKind],
}

impl Term {
    /// The words this term explains.
    pub fn words(&self) -> impl Iterator<Item = &'static str> {
        self.term.split(", ")
    }
}

const SIMD: &[ModelKind] = &[Kepler, Pdom, PdomSsy, Struct, TfStack, TfSandy, Volta];
/// Models that read token-stack code (`SSY`, `BRK`, ...) as plain edges of the CFG (`flow`).
const EDGES: &[ModelKind] = &[Pdom, Struct, TfStack, TfSandy, Volta, Mimd];
const STACKS: &[ModelKind] = &[Kepler, PdomSsy];

const BS: &str = "Bialas & Strzelecki 2015, Algorithms 1 and 2; NVIDIA Fermi to Pascal";
const NOTES: &str = "course notes \"Warps and Branch Divergence\"; NVIDIA Fermi to Pascal";
const NOTES2: &str = "course notes \"divergent flow part two\" (a GPGPU-Sim-style stack driven by SSY)";
const COON: &str = "Coon et al.'s patents, cited by Bialas & Strzelecki; NVIDIA Fermi to Pascal";
const FUNG: &str = "Fung et al. 2007 (GPGPU-Sim), as in the course notes \"divergent flow part two\"";
const WU: &str = "Wu et al. 2011, extending Zhang and D'Hollander's transforms; the STRUCT scheme of Diamos et al. (MICRO 2011)";
const TF: &str = "Diamos et al., \"SIMD Re-Convergence At Thread Frontiers\" (MICRO 2011)";
const VOLTA: &str = "NVIDIA Volta to Hopper (sm_70 to sm_90): the H100 listings and the convergence-barrier patent";
const FLOW: &str = "warpscope: how a model without a token stack reads token-stack code";
const ANY: &str = "every SIMD GPU";

/// Every term, general words first, then model by model in `ModelKind::ALL` order.
pub const GLOSSARY: &[Term] = &[
    // Every model.
    Term {
        term: "lane",
        kind: TermKind::Idea,
        meaning: "one thread of the warp; a warp's lanes share one instruction fetch when they run together",
        source: ANY,
        models: ModelKind::ALL,
    },
    Term {
        term: "mask",
        kind: TermKind::Idea,
        meaning: "one bit per lane, the highest lane on the left: which lanes an entry holds or an instruction runs for",
        source: ANY,
        models: ModelKind::ALL,
    },
    Term {
        term: "divergence",
        kind: TermKind::Idea,
        meaning: "a branch whose lanes go different ways: the warp runs the paths one after another, each with only its lanes on",
        source: ANY,
        models: SIMD,
    },
    Term {
        term: "reconvergence",
        kind: TermKind::Idea,
        meaning: "lanes that split run together again; where that happens is what the models differ in",
        source: ANY,
        models: SIMD,
    },
    Term {
        term: "BRA",
        kind: TermKind::Instruction,
        meaning: "branch: a guarded `@P0 BRA` sends the lanes whose predicate holds to its target and the others to the next instruction; when both groups have lanes the warp diverges. `BRA.U` is uniform: it jumps only when every active lane's guard holds",
        source: ANY,
        models: ModelKind::ALL,
    },
    Term {
        term: "PRINTF",
        kind: TermKind::Instruction,
        meaning: "`PRINTF \"format\", Ra, Rb, ...`: each lane that runs it prints the format with its own argument values (the Output panel, or `warpscope run`), tagged with its lane and the step. The arguments sit in consecutive registers; a `%f`, `%ld` or `%p` argument takes a register pair (float arguments are promoted to double, as C's varargs do); `%s` prints a string literal written in the instruction. Real GPUs have no such instruction: the compiler packs the arguments into a buffer in local memory and calls `vprintf`, and the host prints the buffer after the kernel ends; warpscope keeps one instruction so the listing stays readable. Real SASS's `vprintf` call runs as `PRINTF \"format\", [Ra]`: the arguments read from that buffer (each aligned to its size), the format from the dump's data. Lines come in the order the model runs the lanes",
        source: "CUDA C Programming Guide, \"Formatted Output\"; PTX `vprintf` system call; warpscope's own instruction",
        models: ModelKind::ALL,
    },
    Term {
        term: "EXIT",
        kind: TermKind::Instruction,
        meaning: "the lanes leave the kernel and every entry that held them; running past the last instruction does the same",
        source: ANY,
        models: ModelKind::ALL,
    },
    Term {
        term: "ipdom",
        kind: TermKind::Idea,
        meaning: "immediate post-dominator: the first block that every path from a branch reaches on its way to the exit, the earliest place where the lanes of a split are sure to meet. The CFG draws it as \"reconverges here\"; PDOM reads it from the CFG, and the compiler puts SSY and BSSY targets there",
        source: FUNG,
        models: &[Kepler, Pdom, PdomSsy, Struct, Volta, Mimd],
    },
    Term {
        term: "BAR.SYNC",
        kind: TermKind::Instruction,
        meaning: "`__syncthreads()` (`BAR.SYNC b, n` names one of the block's 16 barriers and a thread count): every live lane of the warp must arrive together. These models run one group of lanes at a time and cannot set it aside at a barrier, so lanes that arrive while others wait elsewhere can never be joined: the run ends in a deadlock (the thread-frontier paper's Figure 2). The warp arrives whole and waits for the block's other warps, counted by warps as before Volta",
        source: TF,
        models: &[Kepler, Pdom, PdomSsy, Struct, TfStack, TfSandy],
    },
    Term {
        term: "BAR.SYNC",
        kind: TermKind::Instruction,
        meaning: "`__syncthreads()` (`BAR.SYNC b, n` names one of the block's 16 barriers and a thread count): each lane waits there until every thread of the block that has not exited has arrived (or `n` threads), then they all go on; the barrier counts threads, so a warp may arrive in parts",
        source: "CUDA on every GPU; per-lane waiting as on Volta and later",
        models: &[Volta, Mimd],
    },
    Term {
        term: "YIELD",
        kind: TermKind::Instruction,
        meaning: "lets other lanes run on a GPU that schedules lanes on their own (Volta and later); this model never sets lanes aside for it, so it does nothing",
        source: VOLTA,
        models: &[Kepler, Pdom, PdomSsy, Struct, TfStack, TfSandy, Mimd],
    },
    // The data path's warp-wide, bit and math instructions (every model runs them the same way).
    Term {
        term: "member mask",
        kind: TermKind::Idea,
        meaning: "the first argument of a `_sync` intrinsic (`__shfl_sync`, `__ballot_sync`, `__syncwarp`...): the lanes that take part. Every lane it names must run that same instruction together; one that diverged elsewhere or exited is an error, which warpscope stops at under every model with a fault saying where each missing lane is",
        source: "CUDA Programming Guide, warp shuffle and vote functions (CUDA 9, Volta and later)",
        models: ModelKind::ALL,
    },
    Term {
        term: "SHFL",
        kind: TermKind::Instruction,
        meaning: "`SHFL.IDX/UP/DOWN/BFLY Pd, d, a, b, c [, mask]` (`__shfl_sync`, `_up`, `_down`, `_xor`): each lane reads `a` from another running lane: lane b, lane - b, lane + b or lane ^ b, within segments of the width `c` packs (clamp in bits 4-0, segment mask in bits 12-8). A source out of range or not running gives the lane its own `a`; Pd says whether the source was in range. The mask's lanes must all run it (mimd: they wait for each other there)",
        source: "PTX ISA `shfl.sync`; NVIDIA Kepler and later (the `_sync` forms from CUDA 9)",
        models: ModelKind::ALL,
    },
    Term {
        term: "REDUX",
        kind: TermKind::Instruction,
        meaning: "`REDUX.SUM/MIN/MAX/AND/OR/XOR d, a`: a combined over the running lanes, written to each (`__reduce_add_sync` and its kin, sm_80 and later; real SASS writes a uniform register). `MIN`/`MAX` are unsigned unless `.S32`",
        source: "PTX ISA `redux.sync`; NVIDIA Ampere and later",
        models: ModelKind::ALL,
    },
    Term {
        term: "BAR.RED",
        kind: TermKind::Instruction,
        meaning: "`BAR.RED.POPC/AND/OR b, p` (`__syncthreads_count`, `_and`, `_or`; PTX `bar.red`): a barrier like `BAR.SYNC` that also counts the threads at it whose p holds, or says whether all or any do; `B2R.RESULT` reads the answer after",
        source: "PTX ISA `bar.red`; NVIDIA Fermi and later",
        models: ModelKind::ALL,
    },
    Term {
        term: "B2R",
        kind: TermKind::Instruction,
        meaning: "`B2R.RESULT d [, Pd]`: what the last `BAR.RED` found over the block (a count, or 1 or 0), and in Pd whether it is not zero",
        source: "NVIDIA's SASS for `bar.red` (sm_50 and later)",
        models: ModelKind::ALL,
    },
    Term {
        term: "VOTE",
        kind: TermKind::Instruction,
        meaning: "`VOTE.ALL/ANY/EQ d, Pd, p [, mask]`: d gets the ballot, one bit per running lane whose p holds (`__ballot_sync`; `VOTE.ANY d, PT, PT` is `__activemask()`); Pd whether p holds in all, any, or all-or-none of them (`__all_sync`, `__any_sync`, `__uni_sync`). The mask's lanes must all run it (mimd: they wait for each other there)",
        source: "PTX ISA `vote.sync`; NVIDIA Fermi and later (the `_sync` forms from CUDA 9)",
        models: ModelKind::ALL,
    },
    Term {
        term: "POPC",
        kind: TermKind::Instruction,
        meaning: "`POPC d, a` (`__popc`): the number of set bits of a",
        source: "PTX ISA `popc`; NVIDIA Fermi and later",
        models: ModelKind::ALL,
    },
    Term {
        term: "FLO",
        kind: TermKind::Instruction,
        meaning: "`FLO.U32 d, a`: the index of a's highest set bit (`FLO.S32`: of the highest bit that differs from the sign bit), 0xffffffff when none; `FLO.U32.SH` gives 31 minus that index (the leading zeros; still 0xffffffff for zero, so `__clz` adds a test for it)",
        source: "PTX ISA `bfind`; NVIDIA Fermi and later (32 for zero with .SH is warpscope's, so it equals `__clz`)",
        models: ModelKind::ALL,
    },
    Term {
        term: "BREV",
        kind: TermKind::Instruction,
        meaning: "`BREV d, a` (`__brev`): a's 32 bits in reverse order",
        source: "PTX ISA `brev`; NVIDIA Fermi and later",
        models: ModelKind::ALL,
    },
    Term {
        term: "IMNMX",
        kind: TermKind::Instruction,
        meaning: "`IMNMX[.U32] d, a, b, p` (`min`, `max`): the smaller of a and b where p holds, the larger where it does not (signed unless .U32)",
        source: "NVIDIA SASS, Fermi and later",
        models: ModelKind::ALL,
    },
    Term {
        term: "FMNMX",
        kind: TermKind::Instruction,
        meaning: "`FMNMX d, a, b, p` (`fminf`, `fmaxf`): the smaller float where p holds, the larger where it does not; a NaN loses to a number (IEEE minNum/maxNum)",
        source: "NVIDIA SASS, Fermi and later; PTX `min.f32`/`max.f32`",
        models: ModelKind::ALL,
    },
    Term {
        term: "MUFU",
        kind: TermKind::Instruction,
        meaning: "the multi-function unit's approximations, here computed exactly in f32: `.RCP` 1/x, `.RSQ` 1/sqrt(x), `.SQRT`, `.EX2` 2^x, `.LG2` log2(x), `.SIN`, `.COS`. SIN and COS take radians here; the hardware's take the angle already divided by 2 pi (nvcc multiplies first), and are approximate",
        source: "NVIDIA SASS (the special function unit), Fermi and later; exact values and radians are warpscope's",
        models: ModelKind::ALL,
    },
    Term {
        term: "FRND",
        kind: TermKind::Instruction,
        meaning: "`FRND d, a`: a rounded to a whole number, kept a float: to the nearest, ties to even (`rintf`); `.FLOOR`, `.CEIL`, `.TRUNC` round down, up, toward zero",
        source: "NVIDIA SASS, Fermi and later; PTX `cvt.rni/rmi/rpi/rzi.f32.f32`",
        models: ModelKind::ALL,
    },
    Term {
        term: "IDIV, IREM",
        kind: TermKind::Instruction,
        meaning: "`IDIV.S32/U32 d, a, b` and `IREM`: integer quotient and remainder in one instruction (`.S64/.U64` on register pairs, for `long long`). GPUs have no divide instruction: nvcc emits about 15 (a float reciprocal, a multiply-high estimate, a correction, fix-ups), which the cost model charges for this one. Dividing by zero gives all bits set, as that sequence does; INT_MIN / -1 wraps",
        source: "warpscope's own instruction, standing for nvcc's division sequence",
        models: ModelKind::ALL,
    },
    Term {
        term: "DDIV",
        kind: TermKind::Instruction,
        meaning: "`DDIV d, a, b`: a `double` quotient, correctly rounded, on register pairs. GPUs have no double divide instruction: nvcc calls a subroutine (a reciprocal estimate refined with DFMA, and a slow path for zeros, infinities and tiny values), which the cost model charges for this one",
        source: "warpscope's own instruction, standing for nvcc's double division",
        models: ModelKind::ALL,
    },
    Term {
        term: "FDIV",
        kind: TermKind::Instruction,
        meaning: "`FDIV d, a, b`: a `float` quotient, correctly rounded (to the nearest; .RM, .RP, .RZ round down, up, toward zero; .FTZ flushes denormals). GPUs have no divide instruction: nvcc calls a subroutine (a reciprocal estimate refined with FFMA, and a slow path for zeros, infinities and extreme exponents), which the cost model charges for this one",
        source: "warpscope's own instruction, standing for nvcc's float division (C's `/`, PTX `div.rn.f32`)",
        models: ModelKind::ALL,
    },
    Term {
        term: "FCHK",
        kind: TermKind::Instruction,
        meaning: "`FCHK Pd, a, b`: whether `a / b` needs the slow path of a float division: ptxas divides by a reciprocal refined with FFMA, which can round wrongly or overflow for a zero, subnormal, infinite or NaN operand and for quotients near the ends of the exponent range; where FCHK sets Pd, the code branches to the IEEE subroutine. NVIDIA does not document the test: warpscope sends every such case to the slow path and ordinary operands to the fast one",
        source: "NVIDIA SASS (CUDA Binary Utilities); the test is warpscope's reading of it",
        models: ModelKind::ALL,
    },
    Term {
        term: "PLOP3",
        kind: TermKind::Instruction,
        meaning: "`PLOP3.LUT Pd, Pe, Pa, Pb, Pc, lut, lut2`: any logic of three predicates in each lane, by its truth table (bit `a<<2 | b<<1 | c` of lut is Pd, of lut2 is Pe), as `LOP3` for bits; `PLOP3.LUT P0, PT, PT, PT, PT, 0x8, 0x0` clears P0",
        source: "NVIDIA SASS, Volta and later (CUDA Binary Utilities)",
        models: ModelKind::ALL,
    },
    Term {
        term: "PSETP",
        kind: TermKind::Instruction,
        meaning: "`PSETP.AND/OR/XOR Pd, Pa, Pb`: predicate logic in each lane, Pd = Pa and/or/xor Pb; a source may be negated (`!P1`) or the constant PT, so `PSETP.AND Pd, !Pa, PT` is a not and `PSETP.AND Pd, Pa, PT` a move",
        source: "NVIDIA SASS, Fermi to Pascal (PLOP3 from Volta); PTX `and/or/xor/not/mov.pred`",
        models: ModelKind::ALL,
    },
    Term {
        term: "BFE, BFI",
        kind: TermKind::Instruction,
        meaning: "bit fields: `BFE.U32/S32 d, a, pos, len` extracts len bits of a from bit pos, zero- or sign-extended (`bfe`); `BFI d, f, b, pos, len` puts the low len bits of f into b at bit pos (`bfi`). pos and len are read from their low 8 bits; bits past 31 are not there (BFE fills with the sign)",
        source: "PTX ISA `bfe`/`bfi`; NVIDIA Fermi and later (newer GPUs build them from shifts and SGXT)",
        models: ModelKind::ALL,
    },
    Term {
        term: "PRMT",
        kind: TermKind::Instruction,
        meaning: "`PRMT d, a, sel, b` (`__byte_perm(a, b, sel)`): four bytes picked from the eight of b:a (a is bytes 0-3), one 4-bit selector per result byte, whose top bit copies the byte's sign instead; .F4E, .B4E, .RC8, .ECL, .ECR, .RC16 read only sel's two low bits: a funnel, backwards, a byte repeated, clamped, a halfword repeated",
        source: "PTX ISA `prmt`; NVIDIA Fermi and later",
        models: ModelKind::ALL,
    },
    Term {
        term: "IDP",
        kind: TermKind::Instruction,
        meaning: "`IDP.4A d, a, b, c` (PTX `dp4a`, `__dp4a`): c plus the dot product of a's four bytes with b's; `IDP.2A.LO`/`.HI` (PTX `dp2a`, `__dp2a_lo`/`_hi`): c plus a's two halfwords times b's bytes 0-1 or 2-3. The type modifiers say whether a's and b's parts are signed (`.S8.U8`); the sum wraps at 32 bits",
        source: "PTX ISA `dp4a`, `dp2a`; NVIDIA Pascal (sm_61) and later",
        models: ModelKind::ALL,
    },
    Term {
        term: "FNS",
        kind: TermKind::Instruction,
        meaning: "`FNS d, mask, base, offset` (PTX `fns.b32`, `__fns`; a coalesced group's shuffles by rank): the position of mask's offset-th set bit from bit base up, base counted first (a negative offset counts down), or 0xffffffff when there is none. No SASS instruction does this: ptxas expands it into several, so warpscope runs nvcc's PTX of it as one step",
        source: "PTX ISA `fns`",
        models: ModelKind::ALL,
    },
    Term {
        term: "SGXT",
        kind: TermKind::Instruction,
        meaning: "`SGXT d, a, n`: the low n bits of a, sign-extended to 32 (`.U32`: zero-extended); n is at most 32, 0 gives 0",
        source: "NVIDIA SASS, Volta and later",
        models: ModelKind::ALL,
    },
    Term {
        term: "MATCH",
        kind: TermKind::Instruction,
        meaning: "`MATCH.ANY d, a [, mask]` (`__match_any_sync`): each running lane gets the lanes whose a equals its own; `MATCH.ALL Pd, d, a [, mask]` (`__match_all_sync`): all of them and Pd true when every lane's a is the same, else 0 and false (`.U64`: a is a register pair). The mask's lanes must all run it (mimd: they wait for each other there)",
        source: "PTX ISA `match.sync`; NVIDIA Volta and later",
        models: ModelKind::ALL,
    },
    Term {
        term: "BPT.TRAP",
        kind: TermKind::Instruction,
        meaning: "`BPT.TRAP` (PTX `trap`, CUDA `__trap()`, what a failed `assert` ends in): the lanes that run it abort the whole kernel; warpscope stops the run there with a fault naming the line",
        source: "PTX ISA `trap`; NVIDIA SASS, Fermi and later",
        models: ModelKind::ALL,
    },
    Term {
        term: "ATOM, ATOMG, ATOMS",
        kind: TermKind::Instruction,
        meaning: "atomic read-modify-write (`atomicAdd` and friends): each lane in turn reads the word, stores the new value (.ADD, .ADD.F32, .MIN, .MAX, .AND, .OR, .XOR, .EXCH, .CAS, .INC and .DEC as `atomicInc`/`atomicDec`) and gets the old one; with .64 (.S64, .U64 for MIN and MAX, .F64 for ADD) on 64-bit values in register pairs. ATOM and ATOMG work on global memory, ATOMS on shared memory",
        source: "PTX ISA `atom`; NVIDIA Fermi and later",
        models: ModelKind::ALL,
    },
    Term {
        term: "LDS, STS",
        kind: TermKind::Instruction,
        meaning: "load from and store to the block's shared memory (`__shared__` arrays); a shared address used with LD/ST, or a global one with LDS/STS, is a fault",
        source: "NVIDIA SASS, Fermi and later; PTX `ld.shared`/`st.shared`",
        models: ModelKind::ALL,
    },
    Term {
        term: "IADD3, IADD3.X",
        kind: TermKind::Instruction,
        meaning: "three-input integer add. `IADD3 d, Pc, a, b, c` also writes the carry out of the 32-bit sum to Pc, and `IADD3.X d, a, b, c, Pc` adds that carry in: a 64-bit add (`long long`, `size_t`) is IADD3 on the low words and IADD3.X on the high words of the register pairs (a subtract writes `-b` low and `~b` high)",
        source: "NVIDIA SASS, Volta and later (IADD3); PTX `add.cc`/`addc`",
        models: ModelKind::ALL,
    },
    Term {
        term: "IMAD.WIDE",
        kind: TermKind::Instruction,
        meaning: "`IMAD.WIDE[.U32] d, a, b, c`: the 64-bit product of two 32-bit values plus the register pair c, into the register pair d (low word in d, high in d+1): how a pointer plus a scaled index is computed",
        source: "NVIDIA SASS, Volta and later; PTX `mad.wide`",
        models: ModelKind::ALL,
    },
    Term {
        term: "SHF",
        kind: TermKind::Instruction,
        meaning: "funnel shift: `SHF.L|R.U64|S64|U32|S32[.HI] d, lo, s, hi` shifts the 64-bit pair {hi:lo} left or right by s and keeps its low word, or its high word with .HI; two of them shift a 64-bit value, and `SHF.R.U32.HI d, RZ, s, a` is a plain right shift",
        source: "NVIDIA SASS, Kepler and later; PTX `shf`",
        models: ModelKind::ALL,
    },
    Term {
        term: "DADD, DMUL, DFMA",
        kind: TermKind::Instruction,
        meaning: "double-precision add, multiply and fused multiply-add on register pairs (the low word of the double in the first register); an immediate is the double's high word, as in SASS",
        source: "NVIDIA SASS, Fermi and later; PTX `add/mul/fma.f64`",
        models: ModelKind::ALL,
    },
    Term {
        term: "DSETP",
        kind: TermKind::Instruction,
        meaning: "compares two doubles (register pairs) and sets predicates, as FSETP does for floats: .LT, .LE, .GT, .GE, .EQ, .NE are false when an operand is NaN; the unordered .LTU, .LEU, .GTU, .GEU, .EQU, .NEU are true then (C's `!=` is .NEU); .NUM holds when neither is NaN, .NAN when either is",
        source: "NVIDIA SASS, Fermi and later; PTX `setp.f64`",
        models: ModelKind::ALL,
    },
    Term {
        term: "DMNMX",
        kind: TermKind::Instruction,
        meaning: "`DMNMX d, a, b, p`: the smaller double where p holds, the larger where it does not; a NaN loses to a number",
        source: "NVIDIA SASS, Fermi and later; PTX `min/max.f64`",
        models: ModelKind::ALL,
    },
    Term {
        term: "I2F, F2I, F2F",
        kind: TermKind::Instruction,
        meaning: "conversions, destination type first: I2F integer to float (`I2F.F64.S64`), F2I float to integer, saturating (NaN gives 0), rounding toward zero (`F2I.S64.F64.TRUNC`, the default), down (.FLOOR), up (.CEIL) or to the nearest even (.ROUND), F2F between float and double (`F2F.F32.F64`). A value the float type cannot hold exactly rounds to the nearest (.RN, the default), down (.RM), up (.RP) or toward zero (.RZ). 64-bit values are register pairs",
        source: "NVIDIA SASS, Fermi and later; PTX `cvt`",
        models: ModelKind::ALL,
    },
    // Fermi to Pascal: the token stack.
    Term {
        term: "token stack",
        kind: TermKind::Idea,
        meaning: "Fermi to Pascal's reconvergence stack: each token holds a kind, a mask and a pc. The lanes that run are not on it; tokens hold the lanes that wait and where they resume. SSY, PBK, PCNT, CAL and divergent branches push; instructions with the pop bit pop",
        source: BS,
        models: &[Kepler],
    },
    Term {
        term: "SSY",
        kind: TermKind::Instruction,
        meaning: "set synchronization point: pushes a SYNC token with the active lanes and the target, where the region's paths will meet again",
        source: BS,
        models: &[Kepler],
    },
    Term {
        term: "SYNC",
        kind: TermKind::Instruction,
        meaning: "a NOP with the pop bit: ends one path of a region. It pops the top token; the token's lanes run on from its pc (the other side's lanes from a DIV token, the whole region from the SYNC token)",
        source: BS,
        models: &[Kepler],
    },
    Term {
        term: ".S",
        kind: TermKind::Instruction,
        meaning: "the pop bit on an ordinary instruction (`NOP.S`, `FADD.S`): the top token is popped first, and the instruction runs for the popped token's lanes, which then go on at the token's pc. It carries the pop, so its issue is part of what a divergence costs",
        source: BS,
        models: &[Kepler],
    },
    Term {
        term: "PBK",
        kind: TermKind::Instruction,
        meaning: "pre-break: before a loop, pushes a BRK token with the active lanes and the loop's exit",
        source: COON,
        models: &[Kepler],
    },
    Term {
        term: "BRK",
        kind: TermKind::Instruction,
        meaning: "break: the lanes leave the active mask (and every token above the BRK token) and wait until the loop is done for everyone; then the BRK token brings them back at the loop's exit",
        source: COON,
        models: &[Kepler],
    },
    Term {
        term: "PCNT",
        kind: TermKind::Instruction,
        meaning: "pre-continue: pushes a CONT token with the active lanes and the pc of the loop's next iteration",
        source: COON,
        models: &[Kepler],
    },
    Term {
        term: "CONT",
        kind: TermKind::Instruction,
        meaning: "continue: the lanes leave the active mask and wait for the CONT token, which brings them back for the next iteration once the others reach it",
        source: COON,
        models: &[Kepler],
    },
    Term {
        term: "CAL",
        kind: TermKind::Instruction,
        meaning: "call: pushes a CALL token with the active lanes and the return address, then jumps to the function",
        source: COON,
        models: &[Kepler],
    },
    Term {
        term: "RET",
        kind: TermKind::Instruction,
        meaning: "return: the lanes wait until every lane in the call has returned; then the CALL token brings them back after the call",
        source: COON,
        models: &[Kepler],
    },
    Term {
        term: "DIV",
        kind: TermKind::Entry,
        meaning: "divergence token, pushed by a divergent BRA: the lanes that did not take the branch, waiting to run their side from this pc",
        source: BS,
        models: &[Kepler],
    },
    Term {
        term: "SYNC",
        kind: TermKind::Entry,
        meaning: "pushed by SSY: the lanes that entered the region; they run together again from this pc (the sync point) once the entries above are gone",
        source: BS,
        models: STACKS,
    },
    Term {
        term: "BRK",
        kind: TermKind::Entry,
        meaning: "pushed by PBK: lanes that break out of the loop wait here until the others leave it",
        source: COON,
        models: STACKS,
    },
    Term {
        term: "CONT",
        kind: TermKind::Entry,
        meaning: "pushed by PCNT: lanes that continue wait here for the next iteration",
        source: COON,
        models: STACKS,
    },
    Term {
        term: "CALL",
        kind: TermKind::Entry,
        meaning: "pushed by CAL: lanes that return from the call resume here",
        source: COON,
        models: STACKS,
    },
    Term {
        term: "spill, fill",
        kind: TermKind::Idea,
        meaning: "the stack's top 16 entries are on chip; a push onto a full stack moves the lowest 4 to memory (a spill) and a pop that needs them brings 4 back (a fill). Spilled entries sit below the capacity line in the stack panel; the stack history marks each spill and fill. A spill and its fill cost about 84 cycles on Kepler, 176 on Maxwell",
        source: "Bialas & Strzelecki 2015, Section IV (measured on Kepler and Maxwell)",
        models: &[Kepler],
    },
    // GPGPU-Sim's post-dominator stack.
    Term {
        term: "RECONV",
        kind: TermKind::Entry,
        meaning: "reconvergence entry: its lanes run on from this pc (the branch's ipdom) once the paths above it have reached it",
        source: FUNG,
        models: &[Pdom, Struct],
    },
    Term {
        term: "PATH",
        kind: TermKind::Entry,
        meaning: "one side of a divergent branch: these lanes run from this pc until they reach the entry's rpc, where the entry is popped",
        source: FUNG,
        models: &[Pdom, Struct],
    },
    Term {
        term: "rpc",
        kind: TermKind::Idea,
        meaning: "reconvergence pc: where a PDOM entry is popped, the ipdom of the branch that pushed it (\"rpc: exit\": the paths meet only at the end)",
        source: FUNG,
        models: &[Pdom, PdomSsy, Struct],
    },
    Term {
        term: "path order",
        kind: TermKind::Idea,
        meaning: "which side of a split runs first: the one pushed last. The taken side by default; the toolbar can pick the fall-through side",
        source: FUNG,
        models: &[Pdom, PdomSsy, Struct],
    },
    // The course notes' stack driven by SSY.
    Term {
        term: "RECONV",
        kind: TermKind::Entry,
        meaning: "the warp's first entry: every lane, from the start of the program; the first SSY or divergent branch replaces it",
        source: NOTES2,
        models: &[PdomSsy],
    },
    Term {
        term: "PATH",
        kind: TermKind::Entry,
        meaning: "lanes that run now or next: the body of a region that SSY, PBK or PCNT opened, one side of a divergent branch, or a SYNC, BRK, CONT or CALL entry back on top after its region; the next SYNC or .S instruction pops it",
        source: NOTES2,
        models: &[PdomSsy],
    },
    Term {
        term: "SSY, PBK, PCNT",
        kind: TermKind::Instruction,
        meaning: "open a region: the top entry (lanes m, next pc, rpc r) is popped and two are pushed: (m, target, r), a SYNC, BRK or CONT entry that resumes after the region, and (m, next pc + 1, target), a PATH entry that runs it",
        source: NOTES2,
        models: &[PdomSsy],
    },
    Term {
        term: "SYNC, .S",
        kind: TermKind::Instruction,
        meaning: "pop the top entry (an instruction with the pop bit runs first); its lanes go on in the entry below",
        source: NOTES,
        models: &[PdomSsy],
    },
    Term {
        term: "BRK, CONT",
        kind: TermKind::Instruction,
        meaning: "the lanes leave every entry above the nearest BRK (CONT) entry, which brings them back at its pc once the entries above are gone",
        source: NOTES,
        models: &[PdomSsy],
    },
    Term {
        term: "CAL, RET",
        kind: TermKind::Instruction,
        meaning: "CAL opens a region like SSY: a CALL entry resumes after the call, a PATH entry runs the function; RET takes the lanes out of every entry above the CALL entry",
        source: NOTES2,
        models: &[PdomSsy],
    },
    // Models that read token-stack code as the CFG draws it.
    Term {
        term: "SSY, PBK, PCNT",
        kind: TermKind::Instruction,
        meaning: "token-stack instructions this model does not need: they do nothing (it finds reconvergence points itself)",
        source: FLOW,
        models: EDGES,
    },
    Term {
        term: "SYNC, .S, BRK, CONT",
        kind: TermKind::Instruction,
        meaning: "read as the jump the CFG draws: to the target of the region's SSY, PBK or PCNT (an instruction with the pop bit runs first)",
        source: FLOW,
        models: EDGES,
    },
    Term {
        term: "CAL, RET",
        kind: TermKind::Instruction,
        meaning: "call and return with a return address per lane: each lane that returns goes back after its own call",
        source: FLOW,
        models: EDGES,
    },
    Term {
        term: "BSSY, BSYNC, BREAK",
        kind: TermKind::Instruction,
        meaning: "Volta's convergence-barrier instructions: this model does not have them, so they do nothing",
        source: FLOW,
        models: &[Pdom, Struct, TfStack, TfSandy, Mimd],
    },
    Term {
        term: "BMOV",
        kind: TermKind::Instruction,
        meaning: "`BMOV.32.CLEAR Rd, Bn` puts the lanes of barrier Bn in a register (a lane mask) and empties it; `BMOV.32 Bn, Ra` puts them back. ptxas saves the barriers a caller holds this way around a recursive call, whose own code reuses them. Assumed from the instruction's name and its use in nvcc's code (the mask is the barrier's whole state here). Models without barrier registers read an empty mask and restore nothing",
        source: VOLTA,
        models: &[Pdom, Struct, TfStack, TfSandy, Volta, Mimd],
    },
    Term {
        term: "WARPSYNC",
        kind: TermKind::Instruction,
        meaning: "`WARPSYNC mask` (`__syncwarp(mask)`): this model has no per-lane waiting, so it waits for nothing; it checks that every lane of the mask runs it now. A lane of the mask that waits elsewhere (on the other side of a branch, say) or has exited is a fault that says where each missing lane is",
        source: "CUDA 9 `__syncwarp` (a no-op check before Volta); the check is warpscope's",
        models: &[Kepler, Pdom, PdomSsy, Struct, TfStack, TfSandy],
    },
    Term {
        term: "WARPSYNC",
        kind: TermKind::Instruction,
        meaning: "`WARPSYNC mask` (`__syncwarp(mask)`): each lane waits there until every lane of the mask has arrived, then they run it together; a lane of the mask that has exited, or that can never arrive, is a fault that says where it is",
        source: "CUDA 9 `__syncwarp`; independent lanes as on Volta and later",
        models: &[Mimd],
    },
    // STRUCT: the structural transform before PDOM.
    Term {
        term: "STRUCT, structural transform",
        kind: TermKind::Idea,
        meaning: "rewrite the kernel until its control flow is structured (sequences, if-then, if-then-else and loops with one entry and one exit edge), then run it under the PDOM stack. Copies and cuts make lanes that would meet again at a join run separate copies instead, so STRUCT runs at least as many instructions as PDOM (the paper's Figure 6). A `break` or an early `return` from a loop is unstructured here, as in the paper",
        source: WU,
        models: &[Struct],
    },
    Term {
        term: "forward copy",
        kind: TermKind::Idea,
        meaning: "node splitting: a block joined by paths that do not otherwise meet there (a short-circuit `||`, a jump into an if) is copied for each path but one, so each copy has one way in. Copies are named after the block: BB3', BB3''",
        source: WU,
        models: &[Struct],
    },
    Term {
        term: "backward copy",
        kind: TermKind::Idea,
        meaning: "a loop entered at more than one block (a `goto` into its body) gets a copy of its body for each extra entry, which runs until it reaches the loop's header",
        source: WU,
        models: &[Struct],
    },
    Term {
        term: "cut",
        kind: TermKind::Idea,
        meaning: "a loop left by more than one edge (`break`, `return`, a `goto` out) gets a guard register: 0 on entry (cutN.init), set to k on the edge to its k-th exit (cutN.exitJ), tested at one latch (cutN.test) that goes round on 0 and otherwise leaves to a dispatch on k after the loop (cutN.toK)",
        source: WU,
        models: &[Struct],
    },
    // Thread frontiers.
    Term {
        term: "priority",
        kind: TermKind::Idea,
        meaning: "each block's place in the layout: the block with the lowest address among those where lanes wait runs first. The CFG shows it on each block",
        source: TF,
        models: &[TfStack, TfSandy],
    },
    Term {
        term: "thread frontier",
        kind: TermKind::Idea,
        meaning: "the blocks where lanes may be waiting while the current block runs (Algorithm 1). Lanes join the first of them they reach, often before the ipdom. The CFG outlines the current block's frontier",
        source: TF,
        models: &[TfStack, TfSandy],
    },
    Term {
        term: "RUN",
        kind: TermKind::Entry,
        meaning: "the lanes at the pc that issues next: the highest-priority (lowest) pc, or the warp pc (tf-sandy)",
        source: TF,
        models: &[TfStack, TfSandy],
    },
    Term {
        term: "WAIT",
        kind: TermKind::Entry,
        meaning: "lanes waiting at this lower-priority pc until the warp gets there; lanes that arrive join them",
        source: TF,
        models: &[TfStack, TfSandy],
    },
    Term {
        term: "sorted stack",
        kind: TermKind::Idea,
        meaning: "TF-STACK: one entry per pc where lanes wait, kept in priority order; the top runs, and lanes going to a pc that already has an entry merge into it (that is reconvergence)",
        source: "Diamos et al. 2011, Section 5.2",
        models: &[TfStack],
    },
    Term {
        term: "warp pc",
        kind: TermKind::Idea,
        meaning: "TF-SANDY (Intel Sandy Bridge): a pc per lane and one pc for the warp; a lane runs when its pc equals the warp pc, which always moves on",
        source: "Diamos et al. 2011, Section 5.1",
        models: &[TfSandy],
    },
    Term {
        term: "conservative branch",
        kind: TermKind::Idea,
        meaning: "when some lanes may be waiting, a branch sends the warp pc to the highest-priority block among its targets and the thread frontier, whether lanes wait there or not",
        source: "Diamos et al. 2011, Section 5.1",
        models: &[TfSandy],
    },
    Term {
        term: "RUN (no lane)",
        kind: TermKind::Entry,
        meaning: "warp pc here, no lane: the warp walks this block with an empty mask (idle instructions)",
        source: "Diamos et al. 2011, Section 5.1",
        models: &[TfSandy],
    },
    // Volta to Hopper: convergence barriers.
    Term {
        term: "lane pcs",
        kind: TermKind::Idea,
        meaning: "independent thread scheduling: every lane has its own pc and state; the ready lanes at one pc run together as a group, one group at a time",
        source: VOLTA,
        models: &[Volta],
    },
    Term {
        term: "BSSY",
        kind: TermKind::Instruction,
        meaning: "`BSSY Bn, L`: records the issuing lanes in barrier register Bn; L is the convergence point, where the compiler put the matching BSYNC",
        source: VOLTA,
        models: &[Volta],
    },
    Term {
        term: "BSYNC",
        kind: TermKind::Instruction,
        meaning: "`BSYNC Bn`: a lane recorded in Bn waits here until every lane of Bn has arrived, exited, left with BREAK or yielded; then they go on together and leave Bn. A lane not in Bn passes",
        source: VOLTA,
        models: &[Volta],
    },
    Term {
        term: "BREAK",
        kind: TermKind::Instruction,
        meaning: "`BREAK Bn`: takes the issuing lanes out of barrier Bn, so the lanes waiting at its BSYNC no longer wait for them (a loop's break)",
        source: VOLTA,
        models: &[Volta],
    },
    Term {
        term: "WARPSYNC",
        kind: TermKind::Instruction,
        meaning: "`WARPSYNC mask` (`__syncwarp()`): each lane waits until every live lane of the mask has reached a WARPSYNC",
        source: VOLTA,
        models: &[Volta],
    },
    Term {
        term: "YIELD",
        kind: TermKind::Instruction,
        meaning: "lets another group run; until a yielded lane runs again, barriers do not wait for it (how a spin lock makes progress)",
        source: VOLTA,
        models: &[Volta],
    },
    Term {
        term: "scheduler",
        kind: TermKind::Idea,
        meaning: "which group runs: it switches only when the group blocks, yields or exits. At a split, the H100 runs the side with fewer lanes first (the fall-through side on a tie) and then resumes the group set aside last; the toolbar can pick the lowest pc or round-robin instead",
        source: "measured on an NVIDIA H100 (sm_90)",
        models: &[Volta],
    },
    Term {
        term: "Bn",
        kind: TermKind::Entry,
        meaning: "convergence barrier register Bn, set by BSSY: the lanes it waits for; its pc is the convergence point",
        source: VOLTA,
        models: &[Volta],
    },
    Term {
        term: "BSYNC Bn",
        kind: TermKind::Entry,
        meaning: "lanes blocked at BSYNC Bn until every lane of barrier Bn arrives (or exits, breaks or yields)",
        source: VOLTA,
        models: &[Volta],
    },
    Term {
        term: "RUN",
        kind: TermKind::Entry,
        meaning: "the group the scheduler runs: the ready lanes at this pc; it runs until it blocks, yields, exits or splits",
        source: VOLTA,
        models: &[Volta],
    },
    Term {
        term: "WAIT",
        kind: TermKind::Entry,
        meaning: "a group of ready lanes at this pc, waiting for the scheduler to pick it",
        source: VOLTA,
        models: &[Volta],
    },
    Term {
        term: "YIELDED",
        kind: TermKind::Entry,
        meaning: "lanes that executed YIELD and let another group run; barriers do not wait for them meanwhile",
        source: VOLTA,
        models: &[Volta],
    },
    Term {
        term: "BARRIER",
        kind: TermKind::Entry,
        meaning: "lanes waiting at BAR.SYNC or WARPSYNC (mimd: or at any `_sync` instruction) for the rest of the warp or of the mask",
        source: VOLTA,
        models: &[Volta, Mimd],
    },
    // Every lane on its own.
    Term {
        term: "MIMD",
        kind: TermKind::Idea,
        meaning: "every lane on its own, one instruction of one lane per step (the lanes take turns), so its instruction count is the fewest fetches any scheme could need: the other models' code expansion is measured against it",
        source: TF,
        models: &[Mimd],
    },
    Term {
        term: "RUN",
        kind: TermKind::Entry,
        meaning: "the lanes at the pc of the lane whose turn it is: that one lane issues next",
        source: TF,
        models: &[Mimd],
    },
    Term {
        term: "WAIT",
        kind: TermKind::Entry,
        meaning: "lanes at this pc waiting for their turn (one lane runs per step)",
        source: TF,
        models: &[Mimd],
    },
];

impl ModelKind {
    /// The terms a student meets in this model's views, in glossary order.
    pub fn glossary(self) -> impl Iterator<Item = &'static Term> {
        GLOSSARY.iter().filter(move |t| t.models.contains(&self))
    }
}

impl EntryKind {
    /// The glossary's word for entries of this kind (`Bn` for any barrier number); `empty`: an
    /// entry with no lanes (tf-sandy's idle warp pc).
    pub fn word(self, empty: bool) -> &'static str {
        match self {
            EntryKind::Run if empty => "RUN (no lane)",
            EntryKind::Token(t) => t.name(),
            EntryKind::Blocked(_) => "BSYNC Bn",
            EntryKind::Barrier(_) => "Bn",
            EntryKind::Reconv | EntryKind::Path | EntryKind::Run | EntryKind::Wait | EntryKind::Yielded | EntryKind::AtBarrier => {
                self.name()
            }
        }
    }

    /// The glossary term for an entry of this kind in `model`'s control state.
    pub fn term(self, model: ModelKind, empty: bool) -> Option<&'static Term> {
        let word = self.word(empty);
        model.glossary().find(|t| t.kind == TermKind::Entry && t.term == word)
    }

    /// What an entry of this kind means in `model`'s control state: its glossary term's words,
    /// with the barrier's own number.
    pub fn meaning(self, model: ModelKind, empty: bool) -> String {
        let Some(t) = self.term(model, empty) else {
            // Only a model the glossary misses (its test fails then) gets here.
            return format!("{} entry", self.name());
        };
        match self {
            EntryKind::Blocked(n) | EntryKind::Barrier(n) => t.meaning.replace("Bn", &format!("B{n}")),
            _ => String::from(t.meaning),
        }
    }
}

#[cfg(test)]
#[path = "glossary_tests.rs"]
mod tests;
