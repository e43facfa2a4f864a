//! The SASS-style instruction set: registers, predicates, operands and decoded operations.
//!
//! Instructions are decoded once by the assembler into `Op` values with typed operands, so the
//! emulator's hot loop never looks at text.

mod op;
mod regs;
mod uses;

pub use op::*;
pub use regs::*;
pub use uses::{RegSet, Uses};

use alloc::string::String;

/// `HOST`'s calls take pointers; one at or above this address points into the call's own
/// registers (a host local passed by address, `cudaMalloc(&d_a, n)`): the word at
/// `CALL_SLOTS + 4 * k` is the call's register `Ra + k`.
pub const CALL_SLOTS: u32 = 0xfff0_0000;

/// An instruction's position in the program (its index), not its byte address.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Pc(pub u32);

impl Pc {
    pub fn index(self) -> usize {
        self.0 as usize
    }
    pub fn next(self) -> Pc {
        Pc(self.0 + 1)
    }
}

/// `@P0` / `@!P0` in front of an instruction.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Guard {
    pub pred: Pred,
    pub negated: bool,
}

/// One decoded instruction.
#[derive(Clone, PartialEq, Debug)]
pub struct Instruction {
    pub guard: Option<Guard>,
    pub op: Op,
    /// The `.S` pop bit (always set for `SYNC`): pop a token before executing.
    pub pop: bool,
    /// The instruction as written (without line number, address comment or `;`), for display.
    pub text: String,
}

impl Instruction {
    /// True when the instruction carries the pop bit: it unwinds one stack token.
    pub fn pops(&self) -> bool {
        self.pop
    }
}
