//! The Fermi/Kepler token stack, per Bialas & Strzelecki, Algorithms 1 and 2, and the patents
//! they cite (Coon et al.) for break, continue and call:
//!
//! - `SSY t` pushes a SYNC token (active mask, t).
//! - A guarded `BRA` taken by some but not all active lanes pushes a DIV token (not-taken lanes,
//!   pc+1) and goes on with the taken lanes.
//! - An instruction with the pop bit (`.S`, `SYNC`) pops a token, takes its mask and pc, and then
//!   executes (the paper's assumption: the carrier runs after the pop).
//! - `PBK`/`PCNT`/`CAL` push BRK/CONT/CALL tokens; `BRK`/`CONT`/`RET` park the lanes that execute
//!   them (removing them from tokens above the matching one) until the active mask is empty; then
//!   the stack unwinds, and the matching token brings them back at its pc.
//! - `EXIT` removes lanes from the active mask and from every token.
//! - Whenever the active mask is empty the stack unwinds: tokens whose lanes have all gone are
//!   popped and skipped. Running past the last instruction exits the active lanes.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::hw_stack::{HwStack, StackConfig, Token, TokenKind};
use super::{plain_next, plain_work, ControlError, Effects, EntryKind, Issued, PlainFault, PlainStep, Reconvergence, StackEntry};
use crate::isa::{Op, Pc};
use crate::machine::{execute, LaneList, LaneMask, Machine};
use crate::program::{PlainPcs, Program};

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TokenStackModel {
    pc: Pc,
    active: LaneMask,
    stack: HwStack,
    config: StackConfig,
    done: bool,
}

impl TokenStackModel {
    pub fn new(prog: &Program, m: &mut Machine, config: StackConfig) -> TokenStackModel {
        let mut s =
            TokenStackModel { pc: Pc(0), active: m.live_lanes(), stack: HwStack::default(), config: config.sanitized(), done: false };
        let mut fx = Effects::default();
        s.settle(prog, m, &mut fx);
        s
    }

    pub fn hw_stack(&self) -> &HwStack {
        &self.stack
    }

    #[inline(always)]
    fn push(&mut self, kind: TokenKind, mask: LaneMask, pc: Pc, fx: &mut Effects) {
        fx.pushes += 1;
        fx.spills += self.stack.push(Token { kind, mask, pc }, self.config);
    }

    #[inline(always)]
    fn pop(&mut self, m: &Machine, fx: &mut Effects) -> Option<Token> {
        let (t, fills) = self.stack.pop(self.config)?;
        fx.pops += 1;
        fx.fills += fills;
        self.active = t.mask.without(m.exited);
        self.pc = t.pc;
        Some(t)
    }

    /// Restores the invariant between steps: either some lane is active at a valid pc, or the
    /// warp is done. Lanes at the end of the program exit; an empty mask unwinds the stack.
    #[inline(always)]
    fn settle(&mut self, prog: &Program, m: &mut Machine, fx: &mut Effects) {
        loop {
            if !self.active.is_empty() && self.pc.index() >= prog.len() {
                self.exit(self.active, m, fx);
            }
            if !self.active.is_empty() {
                return;
            }
            if self.pop(m, fx).is_none() {
                self.done = true;
                return;
            }
        }
    }

    fn exit(&mut self, lanes: LaneMask, m: &mut Machine, fx: &mut Effects) {
        m.exited |= lanes;
        self.active = self.active.without(lanes);
        self.stack.remove_lanes_from(0, lanes);
        fx.exited = true;
    }

    /// Those of `lanes` (live) that are neither active nor held by a token: lanes a pop left
    /// behind, which nothing could ever run again. Walked from the bottom, whose token (the
    /// outermost SSY's) usually holds them all: from the top, a loop that many lanes leave one
    /// by one (a DIV token each) made every pop walk the whole stack.
    fn unheld(&self, lanes: LaneMask) -> LaneMask {
        let mut left = lanes.without(self.active);
        for t in self.stack.tokens() {
            if left.is_empty() {
                break;
            }
            left = left.without(t.mask);
        }
        left
    }

    /// BRK, CONT and RET: park the lanes until the matching token brings them back.
    fn park(&mut self, lanes: LaneMask, kind: TokenKind, pc: Pc, prog: &Program) -> Result<(), ControlError> {
        let Some(at) = self.stack.find_top(kind) else {
            let (op, opener) = match kind {
                TokenKind::Break => ("BRK", "PBK"),
                TokenKind::Cont => ("CONT", "PCNT"),
                _ => ("RET", "CAL"),
            };
            return Err(ControlError::Fault(format!("{op} at {:#06x} with no {opener} token on the stack", prog.addr(pc))));
        };
        // Tokens above the matching one must not bring these lanes back early.
        self.stack.remove_lanes_from(at + 1, lanes);
        self.active = self.active.without(lanes);
        Ok(())
    }
}

impl Reconvergence for TokenStackModel {
    // Inlined natively, a call in wasm: see `Reconvergence::step`.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn step(&mut self, prog: &Program, m: &mut Machine) -> Result<Issued, ControlError> {
        let pc = self.pc;
        let Some(instr) = prog.get(pc) else {
            return Err(ControlError::Fault(format!("pc {} is outside the program", pc.0)));
        };
        let mut fx = Effects::default();
        let mut next = pc.next();
        let issued_mask;
        let work;
        if instr.pop {
            let reaching = self.active;
            let Some(t) = self.pop(m, &mut fx) else {
                return Err(ControlError::Fault(format!(
                    "`{}` at {:#06x} pops an empty stack (no SSY or divergent branch before it)",
                    instr.text,
                    prog.addr(pc)
                )));
            };
            let lost = self.unheld(reaching);
            if !lost.is_empty() {
                return Err(ControlError::Fault(lost_at_pop(prog, pc, &instr.text, t.kind, lost)));
            }
            fx.reconverged = matches!(t.kind, TokenKind::Div | TokenKind::Sync);
            fx.div_carrier = t.kind == TokenKind::Div;
            issued_mask = self.active;
            work = m.guard_mask(instr.guard, self.active);
            next = t.pc;
            execute(m, instr, self.active)?;
        } else {
            issued_mask = self.active;
            let guarded = m.guard_mask(instr.guard, self.active);
            work = if instr.op.is_control() { self.active } else { guarded };
            match instr.op {
                Op::Ssy { target } => self.push(TokenKind::Sync, self.active, target, &mut fx),
                Op::Pbk { target } => self.push(TokenKind::Break, self.active, target, &mut fx),
                Op::Pcnt { target } => self.push(TokenKind::Cont, self.active, target, &mut fx),
                Op::Cal { target } => {
                    self.push(TokenKind::Call, self.active, pc.next(), &mut fx);
                    next = target;
                }
                Op::Bra { target, uniform } => {
                    if uniform {
                        if guarded == self.active {
                            next = target;
                        }
                    } else if guarded == self.active {
                        next = target;
                    } else if !guarded.is_empty() {
                        self.push(TokenKind::Div, self.active.without(guarded), pc.next(), &mut fx);
                        fx.divergent = true;
                        self.active = guarded;
                        next = target;
                    }
                }
                Op::Brk if !guarded.is_empty() => self.park(guarded, TokenKind::Break, pc, prog)?,
                Op::Cont if !guarded.is_empty() => self.park(guarded, TokenKind::Cont, pc, prog)?,
                Op::Ret if !guarded.is_empty() => self.park(guarded, TokenKind::Call, pc, prog)?,
                Op::Exit => self.exit(guarded, m, &mut fx),
                Op::BarSync { .. } => {
                    let live = m.live_lanes();
                    if self.active != live {
                        return Err(ControlError::Deadlock(format!(
                            "BAR.SYNC at {:#06x}: lanes {} arrived, but lanes {} wait on the reconvergence stack and can never arrive (the token stack runs divergent paths one after another)",
                            prog.addr(pc),
                            LaneList(self.active),
                            LaneList(live.without(self.active))
                        )));
                    }
                }
                Op::Bssy { .. } | Op::Bsync { .. } | Op::Break { .. } | Op::BmovRead { .. } | Op::BmovWrite { .. } => {
                    return Err(ControlError::Fault(format!(
                        "`{}` at {:#06x} is a convergence-barrier instruction of Volta and later GPUs (sm_70+); the kepler model runs the SSY/SYNC code of sm_62 and older: choose the volta model to run this code as its GPUs do (pdom, tf-stack, tf-sandy and struct run it too, taking BSSY/BSYNC for no-ops)",
                        instr.text,
                        prog.addr(pc)
                    )));
                }
                // YIELD only matters to per-thread schedulers; a token stack ignores it. WARPSYNC
                // waits for nothing here (the stack keeps the warp together or not at all): the data
                // path checks that every lane of its mask is here.
                _ => execute(m, instr, self.active)?,
            }
        }
        self.pc = next;
        self.settle(prog, m, &mut fx);
        Ok(Issued { pc, mask: issued_mask, work, effects: fx })
    }

    /// A plain instruction: the data path on the active lanes, then the next pc (`settle` has
    /// nothing to do: some lane is active and the next pc is not past the end); or a branch that
    /// all of them take, or none (no token).
    #[inline(always)]
    fn step_plain(&mut self, prog: &Program, m: &mut Machine, plain: &PlainPcs) -> Option<Result<PlainStep, PlainFault>> {
        let pc = self.pc;
        if self.done || !plain.at(pc) {
            return None;
        }
        let next = plain_next(prog, m, plain, pc, self.active)?;
        let work = match plain_work(prog, m, plain, pc, self.active)? {
            Ok(work) => work,
            Err(e) => return Some(Err(e)),
        };
        self.pc = next;
        Some(Ok(PlainStep { pc, mask: self.active, work }))
    }

    fn finished(&self) -> bool {
        self.done
    }
    fn pc(&self) -> Option<Pc> {
        (!self.done).then_some(self.pc)
    }
    fn active(&self) -> LaneMask {
        if self.done {
            LaneMask::EMPTY
        } else {
            self.active
        }
    }
    fn stack(&self) -> Vec<StackEntry> {
        let spilled = self.stack.spilled();
        self.stack
            .tokens()
            .iter()
            .enumerate()
            .map(|(i, t)| StackEntry { kind: EntryKind::Token(t.kind), mask: t.mask, pc: t.pc, rpc: None, on_chip: i >= spilled })
            .collect()
    }
    fn depth(&self) -> usize {
        self.stack.depth()
    }
    fn issuing(&self, prog: &Program) -> LaneMask {
        match (self.done, prog.get(self.pc)) {
            (true, _) => LaneMask::EMPTY,
            // The carrier of a pop runs with the popped token's lanes (exits already left every token);
            // with no token the active lanes reach the pop, which faults.
            (false, Some(i)) if i.pop => self.stack.tokens().last().map_or(self.active, |t| t.mask),
            _ => self.active,
        }
    }
    fn lane_pc(&self, prog: &Program, lane: u32) -> Option<Pc> {
        if self.done {
            return None;
        }
        if self.issuing(prog).contains(lane) {
            return Some(self.pc);
        }
        // The topmost token holding the lane is the one that brings it back; an active lane no
        // token holds is at the pop it reaches (which faults: `lost_at_pop`).
        let held = self.stack.tokens().iter().rev().find(|t| t.mask.contains(lane)).map(|t| t.pc);
        held.or_else(|| self.active.contains(lane).then_some(self.pc))
    }
}

/// The fault of a pop that would leave lanes behind: they reached the instruction with the pop
/// bit, and no token below the popped one holds them.
#[cold]
fn lost_at_pop(prog: &Program, pc: Pc, text: &str, popped: TokenKind, lost: LaneMask) -> String {
    let list = LaneList(lost);
    format!(
        "`{text}` at {:#06x} pops a {} token, but {} {list}, which reached it, {} on no token below: nothing could ever run {} again (a SYNC with no SSY before it, or a branch into another SSY's region?)",
        prog.addr(pc),
        popped.name(),
        list.word(),
        if lost.count() == 1 { "is" } else { "are" },
        if lost.count() == 1 { "it" } else { "them" },
    )
}
