//! Which pipe an instruction runs on and how long its result takes: its class. Most classes
//! follow from the operation; a few SASS instructions lower to a plain move, and their mnemonic
//! says where they really run (`LDC` is a constant load, `IMAD.MOV` runs on the IMAD pipe).

use super::params::P;
use crate::isa::{Instruction, Op, Space};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Class {
    Fp32,
    Int,
    Imad,
    Mufu,
    Conversion,
    Bitcount,
    Fp64,
    /// A load: its latency depends on where the data is (`Level`).
    Load {
        shared: bool,
    },
    Store,
    Constant,
    Special,
    Clock,
    Warp,
    Vote,
    /// Control flow and everything that produces no register value.
    Control,
}

/// The pipes whose busy time limits back-to-back issue.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Pipe {
    Fp32,
    Int,
    Imad,
    Mufu,
    Fp64,
    Memory,
    Clock,
    None,
}

impl Pipe {
    pub const COUNT: usize = 8;
    pub fn interval(self) -> Option<P> {
        Some(match self {
            Pipe::Fp32 => P::IntervalFp32,
            Pipe::Int => P::IntervalInt,
            Pipe::Imad => P::IntervalImad,
            Pipe::Mufu => P::IntervalMufu,
            Pipe::Fp64 => P::IntervalFp64,
            Pipe::Memory => P::IntervalMemory,
            Pipe::Clock => P::IntervalClock,
            Pipe::None => return None,
        })
    }
}

impl Class {
    pub fn of(i: &Instruction) -> Class {
        let mnemonic = i.text.split_whitespace().find(|w| !w.starts_with('@')).unwrap_or("");
        let base = mnemonic.split('.').next().unwrap_or("");
        match base {
            "LDC" | "ULDC" | "LDCU" => return Class::Constant,
            "IMAD" => return Class::Imad,
            // Hopper's I2FP (int to float) runs on the FMA pipe, unlike the older I2F.
            "HFMA2" | "HADD2" | "HMUL2" | "I2FP" => return Class::Fp32,
            _ => {}
        }
        match i.op {
            Op::Fadd { .. } | Op::Fmul { .. } | Op::Ffma { .. } | Op::Fsetp { .. } | Op::Fmnmx { .. } | Op::Fchk { .. } => Class::Fp32,
            Op::Imad { .. } | Op::Imul { .. } | Op::ImadWide { .. } => Class::Imad,
            Op::Mufu { .. } | Op::Fdiv { .. } => Class::Mufu,
            Op::I2f { .. } | Op::F2i { .. } | Op::Cvt { .. } | Op::Frnd { .. } => Class::Conversion,
            Op::Popc { .. } | Op::Flo { .. } | Op::Brev { .. } => Class::Bitcount,
            Op::Dadd { .. } | Op::Dmul { .. } | Op::Dfma { .. } | Op::Dsetp { .. } | Op::Dmnmx { .. } | Op::Ddiv { .. } => Class::Fp64,
            Op::Ld { space, .. } => Class::Load { shared: space == Space::Shared },
            Op::Atom { space, .. } => Class::Load { shared: space == Space::Shared },
            Op::St { .. } => Class::Store,
            // CS2R reads the clock in a fixed time; S2R, of the clock too, is a variable-latency read.
            Op::Cs2r { .. } if i.op.clock_word().is_some() => Class::Clock,
            Op::S2r { .. } => Class::Special,
            Op::Cs2r { .. } => Class::Int,
            Op::Vote { .. } => Class::Vote,
            Op::Shfl { .. } | Op::Redux { .. } | Op::Match { .. } => Class::Warp,
            Op::Iadd { .. }
            | Op::Iadd3 { .. }
            | Op::Iadd3X { .. }
            | Op::Shf { .. }
            | Op::Iscadd { .. }
            | Op::Isetp { .. }
            | Op::Psetp { .. }
            | Op::Plop3 { .. }
            | Op::Mov { .. }
            | Op::Sel { .. }
            | Op::Lop { .. }
            | Op::Lop3 { .. }
            | Op::Shl { .. }
            | Op::Shr { .. }
            | Op::Bfe { .. }
            | Op::Bfi { .. }
            | Op::Prmt { .. }
            | Op::Fns { .. }
            | Op::Idp { .. }
            | Op::Sgxt { .. }
            | Op::Imnmx { .. }
            | Op::Idiv { .. }
            | Op::BmovRead { .. } => Class::Int,
            _ => Class::Control,
        }
    }

    /// The latency of a result, for classes whose latency is fixed.
    pub fn latency(self) -> Option<P> {
        Some(match self {
            Class::Fp32 => P::LatFp32,
            Class::Int => P::LatInt,
            Class::Imad => P::LatImad,
            Class::Mufu => P::LatMufu,
            Class::Conversion => P::LatConversion,
            Class::Bitcount => P::LatBitcount,
            Class::Fp64 => P::LatFp64,
            Class::Load { shared: true } => P::LatShared,
            Class::Constant => P::LatConstant,
            Class::Special => P::LatSpecial,
            Class::Clock => P::LatClock,
            Class::Warp => P::LatWarp,
            Class::Vote => P::LatVote,
            Class::Load { shared: false } | Class::Store | Class::Control => return None,
        })
    }

    pub fn pipe(self) -> Pipe {
        match self {
            Class::Fp32 => Pipe::Fp32,
            Class::Int => Pipe::Int,
            Class::Imad => Pipe::Imad,
            Class::Mufu | Class::Conversion | Class::Bitcount => Pipe::Mufu,
            Class::Fp64 => Pipe::Fp64,
            Class::Load { .. } | Class::Store | Class::Constant => Pipe::Memory,
            Class::Clock => Pipe::Clock,
            Class::Special | Class::Warp | Class::Vote | Class::Control => Pipe::None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Class::Fp32 => "fp32",
            Class::Int => "int",
            Class::Imad => "imad",
            Class::Mufu => "mufu",
            Class::Conversion => "conversion",
            Class::Bitcount => "bitcount",
            Class::Fp64 => "fp64",
            Class::Load { shared: true } => "shared load",
            Class::Load { shared: false } => "global load",
            Class::Store => "store",
            Class::Constant => "constant load",
            Class::Special => "special register",
            Class::Clock => "clock",
            Class::Warp => "warp-wide",
            Class::Vote => "vote",
            Class::Control => "control",
        }
    }
}
