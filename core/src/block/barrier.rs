//! The block's 16 barriers (`BAR.SYNC b, n`): which warps wait at which, how many threads have
//! arrived, and when one opens. Counting follows the PTX ISA manual's `bar`/`barrier` section:
//! a barrier without a thread count waits for every thread of the block that has not exited; a
//! warp of a model that runs the barrier for the whole warp (the stacks, as before Volta) adds
//! its width ("the arrival count is incremented by the warp size, not the number of active
//! threads"), a warp of a model that holds lanes one by one (volta, mimd) adds the lanes held.

use alloc::format;
use alloc::string::String;

use crate::isa::{BarRed, Instruction, Op, Pc, Src};
use crate::machine::{LaneMask, Machine};
use crate::program::Program;

/// Where a warp's arrived lanes wait.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct BarWait {
    /// The barrier, 0-15.
    pub id: u8,
    /// The threads it waits for; `None`: every thread of the block that has not exited.
    pub count: Option<u32>,
    pub red: Option<BarRed>,
    /// The barrier instruction.
    pub pc: Pc,
    /// The lanes that arrived (held lanes, or the warp's live lanes for a whole-warp model).
    pub lanes: LaneMask,
    /// The threads they count for.
    pub threads: u32,
}

/// An operand of a barrier instruction as `lane` reads it.
fn value(m: &Machine, lane: u32, s: Src) -> u32 {
    match s {
        Src::Imm(v) => v,
        Src::Reg { reg, .. } => m.reg(lane, reg),
    }
}

impl BarWait {
    /// The barrier `instr` (at `pc`) names, as the first of `lanes` reads its operands, with
    /// `lanes` counting for `threads`; or why it names none.
    pub fn read(instr: &Instruction, pc: Pc, m: &Machine, lanes: LaneMask, threads: u32, warp_width: u32) -> Result<BarWait, String> {
        let Op::BarSync { id, count, red } = instr.op else { return Err(format!("`{}` is not a barrier", instr.text)) };
        let lane = lanes.iter().next().unwrap_or(0);
        let id = value(m, lane, id);
        if id > 15 {
            return Err(format!("`{}` names barrier {id}: a block has barriers 0-15", instr.text));
        }
        let count = count.map(|c| value(m, lane, c));
        if let Some(n) = count {
            if n == 0 || n % warp_width != 0 {
                return Err(format!(
                    "`{}` waits for {n} threads: the count must be a non-zero multiple of the warp size ({warp_width})",
                    instr.text
                ));
            }
        }
        Ok(BarWait { id: id as u8, count, red, pc, lanes, threads })
    }

    /// `barrier 1 at `BAR.SYNC 0x1, 0x40` (line 7)`, for messages.
    pub fn describe(&self, program: &Program) -> String {
        let text = program.get(self.pc).map_or("", |i| i.text.as_str());
        let line = program.line(self.pc).map_or(String::new(), |l| format!(", line {l}"));
        format!("barrier {} at `{text}` ({:#06x}{line})", self.id, program.addr(self.pc))
    }
}
