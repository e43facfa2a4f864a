//! Programs from instructions a compiler has already split into parts: the decoder the text
//! path uses, without printing each line and reading it back (C and PTX load this way; their
//! listing is still written, for people, and a test holds the two paths to one program).

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::decode::{self, TargetRef};
use super::operand::Operand;
use super::{intern_call, intern_format};
use crate::isa::{Guard, Instruction, Pc};
use crate::program::Program;

/// A program being built an instruction at a time; labels may be named before they are placed.
#[derive(Default)]
pub struct Builder {
    prog: Program,
    labels: BTreeMap<String, Pc>,
    /// Instructions whose code target is a label, resolved at the end.
    fixups: Vec<(usize, String)>,
    errors: Vec<String>,
    /// The address of the next instruction, when its text gives one (real SASS); else 8 per
    /// instruction, as the papers' listings count.
    next_addr: Option<u32>,
    /// Whether the next instruction continues the one before it (`Program::continues`).
    next_continues: bool,
}

impl Builder {
    /// Places `name` at the next instruction.
    pub fn label(&mut self, name: &str) {
        let pc = Pc(self.prog.len() as u32);
        if self.labels.insert(name.to_string(), pc).is_some() {
            self.errors.push(format!("label `{name}` is placed twice"));
        } else {
            self.prog.labels.push((name.to_string(), pc));
        }
    }

    /// Marks the next instruction as part of the one before it: it counts no warp instruction
    /// and issues nothing of its own.
    pub fn continues(&mut self) {
        self.next_continues = true;
    }

    /// Marks the next instruction as the first part of a sequence standing for one instruction
    /// guarded by `guard` (`Program::sequence_guards`).
    pub fn sequence_of(&mut self, guard: Option<Guard>) {
        let pc = Pc(self.prog.len() as u32);
        self.prog.sequence_guards.push((pc, guard.filter(|g| g.pred != crate::isa::Pred::PT)));
    }

    /// Gives the next instruction this address (addresses must rise).
    pub fn at(&mut self, addr: u32) {
        self.next_addr = Some(addr);
    }

    /// Decodes one instruction: `mnemonic` is `OPCODE.MOD.MOD`, `text` what the listing shows
    /// for it, `line` its source line.
    pub fn instr(&mut self, guard: Option<Guard>, mnemonic: &str, ops: &[Operand], text: String, line: u32) {
        let d = match decode::decode(mnemonic, ops) {
            Ok(d) => d,
            Err(e) => return self.errors.push(format!("`{text}` does not assemble: {}", e.message)),
        };
        let pc = self.prog.len();
        match d.target {
            Some((TargetRef::Label(l), _)) => self.fixups.push((pc, l)),
            Some((TargetRef::Addr(a), _)) => return self.errors.push(format!("`{text}` names address {a:#06x}, not a label")),
            None => {}
        }
        let mut op = d.op;
        if let Err(msg) = intern_format(d.format, &mut op, &mut self.prog.formats) {
            return self.errors.push(msg.to_string());
        }
        if let Err(msg) = intern_call(d.call, &mut op, &mut self.prog.calls) {
            return self.errors.push(msg.to_string());
        }
        self.prog.instrs.push(Instruction { guard: guard.filter(|g| g.pred != crate::isa::Pred::PT), op, pop: d.pop, text });
        let addr = self.next_addr.take().unwrap_or(pc as u32 * 8);
        self.prog.addrs.push(addr);
        self.prog.lines.push(line);
        if core::mem::take(&mut self.next_continues) {
            self.prog.continues.resize(pc, false);
            self.prog.continues.push(true);
        }
    }

    /// What went wrong since the last call (so a caller can place each error at its source).
    pub fn take_errors(&mut self) -> Vec<String> {
        core::mem::take(&mut self.errors)
    }

    /// The program, or what went wrong (each an internal error of whoever built it).
    pub fn finish(mut self) -> Result<Program, Vec<String>> {
        for (pc, label) in &self.fixups {
            match self.labels.get(label) {
                Some(&to) => self.prog.instrs[*pc].op.set_target(to),
                None => self.errors.push(format!("unknown label `{label}`")),
            }
        }
        if !self.prog.continues.is_empty() {
            self.prog.continues.resize(self.prog.len(), false);
        }
        if self.errors.is_empty() {
            Ok(self.prog)
        } else {
            Err(self.errors)
        }
    }
}
