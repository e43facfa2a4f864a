//! An assembled program: decoded instructions with their byte addresses and source lines.

use alloc::string::String;
use alloc::vec::Vec;

use crate::isa::{Instruction, Op, Pc};
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
    /// The names of the `HOST` instructions' calls, by id (a host program's runtime calls).
    pub calls: Vec<String>,
    /// Whether each instruction continues the one before it: real SASS an input language runs
    /// as a short sequence (`LEA` with its carry) counts as the one instruction the GPU issues.
    /// Empty when none does.
    pub continues: Vec<bool>,
    /// The guard of the SASS instruction each sequence stands for, by its first part's pc, in
    /// order: the threads a GPU counts as predicated on, where the parts guard themselves
    /// (`@P0 BRA P1, L` runs as `PSETP.AND P6, P0, P1` then `@P6 BRA L`).
    pub sequence_guards: Vec<(Pc, Option<crate::isa::Guard>)>,
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
    /// The first part of the sequence `pc` is in (`pc` itself when it is no sequence's later part).
    pub fn sequence_head(&self, pc: Pc) -> Pc {
        let mut at = pc.0;
        while at > 0 && self.continues(Pc(at)) {
            at -= 1;
        }
        Pc(at)
    }
    /// The guard of the instruction a sequence stands for, when `pc` is a sequence's first part.
    pub fn sequence_guard(&self, pc: Pc) -> Option<Option<crate::isa::Guard>> {
        self.sequence_guards.binary_search_by_key(&pc, |&(p, _)| p).ok().map(|k| self.sequence_guards[k].1)
    }
    pub fn line(&self, pc: Pc) -> Option<u32> {
        self.lines.get(pc.index()).copied()
    }
    pub fn label_at(&self, pc: Pc) -> Option<&str> {
        self.labels.iter().find(|(_, p)| *p == pc).map(|(l, _)| l.as_str())
    }
}

/// Which instructions a step may run as "the data path, then the lanes go on to the next
/// instruction" (`Reconvergence::step_plain`, the run's fast path), and what each issues.
/// Plain: no control effect (not a branch, token, barrier, `WARPSYNC`, `YIELD` or `EXIT`, no pop
/// bit), no clock read (the run notes lane 0's reads), and not the last instruction (lanes
/// passing it exit or fault). For a model that takes them (`ModelKind::plain_branches`), a `BRA`
/// is plain too when its lanes all go one way (`plain_next`): a loop's back edge, most of the time.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct PlainPcs(Vec<u8>);

/// The flag of a plain pc that holds a branch; the low bits are one more than its issues.
const BRANCH: u8 = 0x80;

impl PlainPcs {
    /// `branches`: mark the branches that may be plain (the model takes them).
    pub fn of(prog: &Program, branches: bool) -> PlainPcs {
        let last = prog.len().saturating_sub(1);
        let at = |(i, instr): (usize, &Instruction)| {
            let branch = match instr.op {
                // Both ways stay inside the program: a lane past the end exits, which is an effect.
                Op::Bra { target, .. } => branches && target.index() < prog.len(),
                _ => false,
            };
            // A `HOST` waits for the host runner, which serves it before the step.
            let served = matches!(instr.op, Op::Host { .. });
            let plain = i < last && !instr.pop && (branch || !instr.op.is_control()) && instr.op.clock_word().is_none() && !served;
            // 0: not plain; otherwise one more than the issues it counts (none for a part of a
            // real SASS instruction's sequence).
            let issues = if prog.continues(Pc(i as u32)) { 0 } else { instr.op.issues() };
            if plain {
                (1 + issues.min(BRANCH as u32 - 2) as u8) | if branch { BRANCH } else { 0 }
            } else {
                0
            }
        };
        PlainPcs(prog.instrs.iter().enumerate().map(at).collect())
    }
    /// No instruction plain: every step takes the model's whole `step` (the reference the fast
    /// path is tested against).
    pub fn none() -> PlainPcs {
        PlainPcs(Vec::new())
    }
    #[inline(always)]
    pub fn at(&self, pc: Pc) -> bool {
        self.0.get(pc.index()).is_some_and(|&p| p != 0)
    }
    /// The issues the plain instruction at `pc` counts (0 for a sequence's later parts).
    #[inline(always)]
    pub fn issues(&self, pc: Pc) -> u32 {
        self.0.get(pc.index()).map_or(0, |&p| (p & !BRANCH).saturating_sub(1) as u32)
    }
    /// The plain instruction at `pc` is a branch (`plain_next` says where its lanes go).
    #[inline(always)]
    pub fn is_branch(&self, pc: Pc) -> bool {
        self.0.get(pc.index()).is_some_and(|&p| p & BRANCH != 0)
    }
}
