//! An assembled program: decoded instructions with their byte addresses and source lines.

use alloc::string::String;
use alloc::vec::Vec;

use crate::isa::{Instruction, Pc};
use crate::printf::Format;

#[derive(Clone, PartialEq, Debug, Default)]
pub struct Program {
    pub instrs: Vec<Instruction>,
    /// The byte address of each instruction, strictly increasing (from `/*00e0*/` comments, or +8).
    pub addrs: Vec<u32>,
    /// The 1-based source line of each instruction.
    pub lines: Vec<u32>,
    /// Labels in definition order. A label after the last instruction names `Pc(len)`, the end.
    pub labels: Vec<(String, Pc)>,
    /// The formats of the `PRINTF` instructions, by id.
    pub formats: Vec<Format>,
    /// Whether each instruction continues the one before it: real SASS an input language runs
    /// as a short sequence (`LEA` with its carry) counts as the one instruction the GPU issues.
    /// Empty when none does.
    pub continues: Vec<bool>,
}

impl Program {
    pub fn len(&self) -> usize {
        self.instrs.len()
    }
    pub fn is_empty(&self) -> bool {
        self.instrs.is_empty()
    }
    pub fn get(&self, pc: Pc) -> Option<&Instruction> {
        self.instrs.get(pc.index())
    }
    /// The byte address of `pc`; the end of the program is one instruction past the last.
    pub fn addr(&self, pc: Pc) -> u32 {
        match self.addrs.get(pc.index()) {
            Some(a) => *a,
            None => self.addrs.last().map_or(0, |a| a + 8),
        }
    }
    /// The instruction at a byte address, or the end when the address is just past the last one.
    pub fn pc_of_addr(&self, addr: u32) -> Option<Pc> {
        match self.addrs.binary_search(&addr) {
            Ok(i) => Some(Pc(i as u32)),
            Err(i) if i == self.addrs.len() && self.addrs.last().map_or(addr == 0, |l| addr == l + 8) => Some(Pc(i as u32)),
            Err(_) => None,
        }
    }
    /// Whether `pc` continues the instruction before it (it issues nothing of its own).
    #[inline]
    pub fn continues(&self, pc: Pc) -> bool {
        self.continues.get(pc.index()).copied().unwrap_or(false)
    }
    pub fn line(&self, pc: Pc) -> Option<u32> {
        self.lines.get(pc.index()).copied()
    }
    pub fn label_at(&self, pc: Pc) -> Option<&str> {
        self.labels.iter().find(|(_, p)| *p == pc).map(|(l, _)| l.as_str())
    }
}
