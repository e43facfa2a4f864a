//! Builds the control-flow graph of a program: basic blocks in layout order and their edges.
//!
//! Where a pop (`SYNC`, `.S`), `BRK` or `CONT` sends the warp depends on the token it unwinds
//! to; that is found by following the static token stack (`SSY`, `PBK`, `PCNT`) along every
//! path. The edge of a pop goes to the region's reconvergence point (the `SSY` target): the
//! not-taken path it may resume at run time is already reached through the branch. `RET` goes
//! to the instruction after every `CAL`.

use alloc::collections::VecDeque;
use alloc::vec;
use alloc::vec::Vec;

use super::graph::{BlockId, Cfg, Edge, EdgeKind};
use crate::isa::{Op, Pc};
use crate::program::Program;

/// A block's instructions: `start..end` (end exclusive).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BlockRange {
    pub start: Pc,
    pub end: Pc,
}

/// The graph of a program with the instruction ranges of its blocks.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct ProgramCfg {
    pub cfg: Cfg,
    pub blocks: Vec<BlockRange>,
    /// The block of each instruction.
    pub block_of: Vec<BlockId>,
}

impl ProgramCfg {
    pub fn block_at(&self, pc: Pc) -> Option<BlockId> {
        self.block_of.get(pc.index()).copied()
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Opener {
    Sync,
    Break,
    Cont,
}

/// Where each pop, `BRK` and `CONT` unwinds to, found by following the static token stack.
pub(crate) fn unwind_targets(prog: &Program) -> Vec<Option<Pc>> {
    let n = prog.len();
    let mut targets = vec![None; n];
    let mut state: Vec<Option<Vec<(Opener, Pc)>>> = vec![None; n + 1];
    let mut work = VecDeque::new();
    let visit = |pc: Pc, stack: Vec<(Opener, Pc)>, state: &mut Vec<Option<Vec<(Opener, Pc)>>>, work: &mut VecDeque<Pc>| {
        if let Some(slot) = state.get_mut(pc.index()) {
            if slot.is_none() {
                *slot = Some(stack);
                work.push_back(pc);
            }
        }
    };
    if n > 0 {
        visit(Pc(0), Vec::new(), &mut state, &mut work);
    }
    for instr in &prog.instrs {
        if let Op::Cal { target } = instr.op {
            visit(target, Vec::new(), &mut state, &mut work);
        }
    }
    while let Some(pc) = work.pop_front() {
        let Some(stack) = state[pc.index()].clone() else { continue };
        let Some(instr) = prog.get(pc) else { continue };
        let guarded = instr.guard.is_some();
        let unwind_to = |opener: Option<Opener>, targets: &mut Vec<Option<Pc>>| -> Option<(Pc, Vec<(Opener, Pc)>)> {
            let at = match opener {
                None => stack.len().checked_sub(1)?,
                Some(o) => stack.iter().rposition(|(k, _)| *k == o)?,
            };
            let target = stack[at].1;
            targets[pc.index()] = Some(target);
            Some((target, stack[..at].to_vec()))
        };
        let mut succ: Vec<(Pc, Vec<(Opener, Pc)>)> = Vec::new();
        if instr.pop {
            succ.extend(unwind_to(None, &mut targets));
        } else {
            match instr.op {
                Op::Ssy { target } | Op::Pbk { target } | Op::Pcnt { target } => {
                    let kind = match instr.op {
                        Op::Ssy { .. } => Opener::Sync,
                        Op::Pbk { .. } => Opener::Break,
                        _ => Opener::Cont,
                    };
                    let mut s = stack.clone();
                    s.push((kind, target));
                    succ.push((pc.next(), s));
                }
                Op::Bra { target, .. } => {
                    succ.push((target, stack.clone()));
                    if guarded {
                        succ.push((pc.next(), stack.clone()));
                    }
                }
                Op::Brk | Op::Cont => {
                    let opener = if instr.op == Op::Brk { Opener::Break } else { Opener::Cont };
                    succ.extend(unwind_to(Some(opener), &mut targets));
                    if guarded {
                        succ.push((pc.next(), stack.clone()));
                    }
                }
                Op::Exit | Op::Ret if !guarded => {}
                _ => succ.push((pc.next(), stack.clone())),
            }
        }
        for (p, s) in succ {
            visit(p, s, &mut state, &mut work);
        }
    }
    targets
}

fn is_leader_after(prog: &Program, pc: usize) -> bool {
    let i = &prog.instrs[pc];
    i.pop || matches!(i.op, Op::Bra { .. } | Op::Brk | Op::Cont | Op::Ret | Op::Exit | Op::Cal { .. })
}

/// Splits the program into basic blocks and connects them.
pub fn build(prog: &Program) -> ProgramCfg {
    let n = prog.len();
    if n == 0 {
        return ProgramCfg::default();
    }
    let mut leader = vec![false; n + 1];
    leader[0] = true;
    for (pc, instr) in prog.instrs.iter().enumerate() {
        if let Some(t) = instr.op.target() {
            leader[t.index().min(n)] = true;
        }
        if is_leader_after(prog, pc) {
            leader[pc + 1] = true;
        }
    }
    let mut blocks = Vec::new();
    let mut block_of = vec![BlockId(0); n];
    for pc in 0..n {
        if leader[pc] {
            blocks.push(BlockRange { start: Pc(pc as u32), end: Pc(pc as u32) });
        }
        let b = blocks.len() - 1;
        blocks[b].end = Pc(pc as u32 + 1);
        block_of[pc] = BlockId(b as u32);
    }
    let unwind = unwind_targets(prog);
    let return_sites: Vec<Pc> =
        prog.instrs.iter().enumerate().filter(|(_, i)| matches!(i.op, Op::Cal { .. })).map(|(pc, _)| Pc(pc as u32 + 1)).collect();

    let mut edges = Vec::new();
    let mut exits = Vec::new();
    for (b, range) in blocks.iter().enumerate() {
        let from = BlockId(b as u32);
        let last = range.end.index() - 1;
        let instr = &prog.instrs[last];
        let guarded = instr.guard.is_some();
        let mut to = |pc: Pc, kind: EdgeKind, exits: &mut Vec<BlockId>| {
            if pc.index() >= n {
                exits.push(from);
            } else {
                edges.push(Edge { from, to: block_of[pc.index()], kind });
            }
        };
        let fall = Pc(last as u32 + 1);
        if instr.pop {
            match unwind[last] {
                Some(t) => to(t, EdgeKind::Sync, &mut exits),
                None => exits.push(from),
            }
            continue;
        }
        match instr.op {
            Op::Bra { target, .. } | Op::Cal { target } => {
                to(target, EdgeKind::Taken, &mut exits);
                if guarded && matches!(instr.op, Op::Bra { .. }) {
                    to(fall, EdgeKind::FallThrough, &mut exits);
                }
            }
            Op::Brk | Op::Cont => {
                match unwind[last] {
                    Some(t) => to(t, EdgeKind::Taken, &mut exits),
                    None => exits.push(from),
                }
                if guarded {
                    to(fall, EdgeKind::FallThrough, &mut exits);
                }
            }
            Op::Ret => {
                if return_sites.is_empty() {
                    exits.push(from);
                }
                for site in &return_sites {
                    to(*site, EdgeKind::Taken, &mut exits);
                }
                if guarded {
                    to(fall, EdgeKind::FallThrough, &mut exits);
                }
            }
            Op::Exit => {
                // Lanes whose guard holds leave here; the others fall through.
                exits.push(from);
                if guarded {
                    to(fall, EdgeKind::FallThrough, &mut exits);
                }
            }
            _ => to(fall, EdgeKind::FallThrough, &mut exits),
        }
    }
    let cfg = Cfg::from_edges(blocks.len(), Some(BlockId(0)), &edges, &exits);
    ProgramCfg { cfg, blocks, block_of }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asm::assemble;

    fn edges(src: &str) -> (ProgramCfg, Vec<(u32, u32, EdgeKind)>) {
        let (p, d) = assemble(src);
        assert!(d.is_empty(), "{d:?}");
        let g = build(&p);
        let e = g.cfg.edges().iter().map(|e| (e.from.0, e.to.0, e.kind)).collect();
        (g, e)
    }

    #[test]
    fn if_else_with_ssy() {
        let (g, e) = edges("SSY X\n@P0 BRA L1\nIADD R1, R1, 1\nSYNC\nL1: IADD R1, R1, 2\nSYNC\nX: EXIT\n");
        assert_eq!(g.blocks.len(), 4);
        assert_eq!(e, [(0, 2, EdgeKind::Taken), (0, 1, EdgeKind::FallThrough), (1, 3, EdgeKind::Sync), (2, 3, EdgeKind::Sync)]);
        assert_eq!(g.cfg.exits(), [BlockId(3)]);
    }

    #[test]
    fn loop_with_break() {
        let (g, e) = edges("PBK OUT\nL: IADD R1, R1, 1\n@P0 BRK\nBRA L\nOUT: EXIT\n");
        assert_eq!(g.blocks.len(), 4);
        assert!(e.contains(&(2, 1, EdgeKind::Taken)));
        assert!(e.contains(&(1, 3, EdgeKind::Taken)));
        assert!(e.contains(&(1, 2, EdgeKind::FallThrough)));
    }

    #[test]
    fn a_guarded_exit_is_an_exit_and_falls_through() {
        // ptxas's code for a loop whose lanes leave by `@P1 EXIT` only (no plain EXIT at all).
        let (g, e) = edges("L: IADD R1, R1, 1\n@P1 EXIT\nBRA L\n");
        assert_eq!(e, [(0, 1, EdgeKind::FallThrough), (1, 0, EdgeKind::Taken)]);
        assert_eq!(g.cfg.exits(), [BlockId(0)]);
    }

    #[test]
    fn falling_off_the_end_is_an_exit() {
        let (g, _) = edges("NOP\n");
        assert_eq!(g.cfg.exits(), [BlockId(0)]);
    }
}
