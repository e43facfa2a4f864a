//! Lays out the IR as an assembly listing the existing assembler reads: labels where something
//! branches, a `// line: source` comment where the source line changes, and branches only
//! where control does not simply fall through. The program is built from the same instructions
//! as they are written.

use alloc::collections::BTreeSet;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

use super::ins::{CodeRef, Ins, Opcode};
use super::ir::{Func, Term};
use super::Target;
use crate::asm::{self, Builder};
use crate::cfg::BlockId;
use crate::isa::{Guard, Pred};
use crate::program::Program;

/// A listing being written, and the program it assembles to, built alongside through the
/// assembler's decoder (no text is read back).
#[derive(Default)]
pub struct Listing {
    pub text: String,
    /// For each instruction, in order: its source line.
    pub lines: Vec<u32>,
    /// For each instruction, in order: its line in `text`.
    listing_lines: Vec<u32>,
    /// Lines written to `text` so far.
    text_lines: u32,
    last_line: u32,
    /// Marks the reconvergence instructions as inserted (the source had none: PTX).
    pub mark_inserted: bool,
    program: Builder,
    /// Scratch for one instruction's mnemonic and operands.
    mnemonic: String,
    operands: Vec<asm::Operand>,
}

/// A finished listing: the program (its `lines` are source lines), each instruction's line in
/// the listing, and the listing's text.
pub struct Assembled {
    pub program: Program,
    pub listing_lines: Vec<u32>,
    pub text: String,
}

impl Listing {
    pub fn comment(&mut self, s: &str) {
        self.text.push_str("// ");
        self.text.push_str(s);
        self.text.push('\n');
        self.text_lines += 1;
    }

    fn label(&mut self, l: &str) {
        self.text.push_str(l);
        self.text.push_str(":\n");
        self.text_lines += 1;
        self.program.label(l);
    }

    fn instr(&mut self, ins: &Ins, func: &Func, line: u32, source: &[&str]) {
        if line != self.last_line && line > 0 {
            let src = source.get(line as usize - 1).map_or("", |s| s.trim());
            // Writing into the text directly: a formatted string per line was a tenth of a read.
            let _ = writeln!(self.text, "        // {line}: {src}");
            self.text_lines += 1;
            self.last_line = line;
        }
        // Room for most instructions, so the text is not grown three times on the way.
        let mut shown = String::with_capacity(48);
        let _ = write!(shown, "{}", ins.display(func));
        self.text.push_str("        ");
        self.text.push_str(&shown);
        self.text.push(';');
        if self.mark_inserted && matches!(ins.op, Opcode::Ssy | Opcode::Sync | Opcode::Bssy | Opcode::Bsync | Opcode::Break) {
            self.text.push_str("  // inserted: PTX has no reconvergence instructions");
        }
        self.text.push('\n');
        self.text_lines += 1;
        self.lines.push(line);
        self.listing_lines.push(self.text_lines);
        ins.mnemonic_into(&mut self.mnemonic);
        ins.asm_operands_into(func, &mut self.operands);
        let guard = ins.guard.map(|(p, negated)| Guard { pred: Pred(p), negated });
        self.program.instr(guard, &self.mnemonic, &self.operands, shown, line);
    }

    /// The program and the listing, or what the decoder refused (the emitter's bug).
    pub fn finish(self) -> Result<Assembled, Vec<String>> {
        let program = self.program.finish()?;
        Ok(Assembled { program, listing_lines: self.listing_lines, text: self.text })
    }
}

fn reachable(func: &Func) -> BTreeSet<BlockId> {
    let mut seen = BTreeSet::new();
    let mut work: Vec<BlockId> = func.order.first().copied().into_iter().collect();
    while let Some(b) = work.pop() {
        if !seen.insert(b) {
            continue;
        }
        work.extend(func.succs(b));
        work.extend(func.block(b).instrs.iter().filter_map(target_block));
    }
    seen
}

/// The one instruction of a block that holds nothing but a way out (`BRK`, `EXIT`...): a jump
/// there is written as that instruction.
fn lone_exit(func: &Func, b: BlockId) -> Option<Opcode> {
    let blk = func.block(b);
    if !blk.instrs.is_empty() {
        return None;
    }
    // RET is left out: its text depends on the target.
    match blk.term {
        Term::Ret => None,
        t => t.leaving_op(),
    }
}

/// Writes `func` into `out`. The function's entry label is always written (calls name it).
pub fn emit_func(func: &Func, target: Target, source: &[&str], out: &mut Listing) {
    let live = reachable(func);
    let order: Vec<BlockId> = func.order.iter().copied().filter(|b| live.contains(b)).collect();
    // About two lines of 40 characters an instruction (its source comment and itself).
    out.text.reserve(func.blocks.iter().map(|b| b.instrs.len() + 2).sum::<usize>() * 80);
    // Labels are written only for blocks something names.
    let mut named = BTreeSet::new();
    for (k, &b) in order.iter().enumerate() {
        let next = order.get(k + 1).copied();
        for i in &func.block(b).instrs {
            named.extend(target_block(i));
        }
        match func.block(b).term {
            Term::Jump(t) if Some(t) != next && lone_exit(func, t).is_none() => {
                named.insert(t);
            }
            Term::Branch { taken, fall, .. } => {
                if Some(fall) == next {
                    named.insert(taken);
                } else if Some(taken) == next {
                    named.insert(fall);
                } else {
                    named.insert(taken);
                    if lone_exit(func, fall).is_none() {
                        named.insert(fall);
                    }
                }
            }
            _ => {}
        }
    }
    // Blocks control enters by falling through from the block before.
    let mut fallen_into = BTreeSet::new();
    for (k, &b) in order.iter().enumerate() {
        let Some(&next) = order.get(k + 1) else { continue };
        let falls = match func.block(b).term {
            Term::Jump(t) => t == next,
            Term::Branch { taken, fall, .. } => fall == next || taken == next,
            Term::Open => true,
            _ => false,
        };
        if falls {
            fallen_into.insert(next);
        }
    }
    out.last_line = 0;
    for (k, &b) in order.iter().enumerate() {
        let blk = func.block(b);
        // A lone `BRK`/`EXIT` every jump to which was written in place needs no copy of its own.
        if k > 0 && !named.contains(&b) && !fallen_into.contains(&b) && lone_exit(func, b).is_some() {
            continue;
        }
        if k == 0 || named.contains(&b) {
            out.label(&blk.label);
        }
        for i in &blk.instrs {
            out.instr(i, func, i.line, source);
        }
        let next = order.get(k + 1).copied();
        let line = blk.term_line;
        let mut term = |ins: Ins| out.instr(&ins, func, line, source);
        let bra = |t: BlockId| Ins::new(Opcode::Bra).to(CodeRef::Block(t));
        // A jump to a lone exit is written as that exit.
        let jump = |t: BlockId| lone_exit(func, t).map_or_else(|| bra(t), Ins::new);
        match blk.term {
            Term::Open => {}
            Term::Jump(t) if Some(t) == next => {}
            Term::Jump(t) => term(jump(t)),
            Term::Branch { pred, neg, taken, fall } => {
                let bra = |t: BlockId| if blk.uniform { bra(t).with_mods(&["U"]) } else { bra(t) };
                if Some(fall) == next {
                    term(bra(taken).guarded(Some((pred, neg))));
                } else if Some(taken) == next {
                    term(bra(fall).guarded(Some((pred, !neg))));
                } else {
                    term(bra(taken).guarded(Some((pred, neg))));
                    term(jump(fall));
                }
            }
            Term::Ret if target == Target::Volta => term(Ins::new(Opcode::Ret).with_mods(&["REL", "NODEC"])),
            Term::Exit | Term::Ret | Term::Brk | Term::Cont => term(Ins::new(blk.term.leaving_op().unwrap_or(Opcode::Exit))),
            Term::Sync(_) => term(Ins::new(Opcode::Sync)),
        }
    }
}

/// The block an instruction names, if it names one.
fn target_block(i: &Ins) -> Option<BlockId> {
    match i.target {
        Some(CodeRef::Block(b)) => Some(b),
        _ => None,
    }
}
