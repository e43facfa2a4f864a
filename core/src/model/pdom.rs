//! The immediate-post-dominator (PDOM) stack of GPGPU-Sim-style simulators (Fung et al.), with
//! reconvergence pcs from the `analysis` module:
//!
//! - an entry is (mask, next pc, reconvergence pc); the top entry runs;
//! - when a branch splits the top entry's lanes, the top entry becomes the reconvergence entry
//!   (its next pc is set to the branch's immediate post-dominator) and one entry per path is
//!   pushed, each with that post-dominator as its reconvergence pc; the path that runs first is
//!   pushed last (`PathOrder`, taken first by default); as in GPGPU-Sim, a path that goes
//!   straight to the post-dominator is not pushed, and when the top entry already reconverges
//!   there it is replaced by the paths instead of becoming a second reconvergence entry;
//! - an entry is popped when its next pc reaches its reconvergence pc (its lanes are then in the
//!   entry below, which waits there), or when all its lanes have exited.
//!
//! The stack has no capacity limit. `BAR.SYNC` reached by part of the warp is a deadlock: the
//! other lanes wait in entries below and can only run after these lanes pass it.

use alloc::sync::Arc;
use alloc::vec::Vec;

use super::flow::{barrier_deadlock, run_plain, CallStacks, Moves, Statics};
use super::{
    plain_next, plain_work, ControlError, Effects, EntryKind, Issued, PathOrder, PlainFault, PlainStep, Reconvergence, StackEntry,
};
use crate::isa::Pc;
use crate::machine::{LaneMask, Machine};
use crate::program::{PlainPcs, Program};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Entry {
    pub mask: LaneMask,
    pub pc: Pc,
    pub rpc: Option<Pc>,
    pub kind: EntryKind,
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PdomStack {
    entries: Vec<Entry>,
    order: PathOrder,
    calls: CallStacks,
    statics: Arc<Statics>,
}

impl PdomStack {
    pub fn new(prog: &Program, m: &mut Machine, order: PathOrder) -> PdomStack {
        let base = Entry { mask: m.live_lanes(), pc: Pc(0), rpc: None, kind: EntryKind::Reconv };
        let mut s = PdomStack { entries: alloc::vec![base], order, calls: CallStacks::new(m.width), statics: Statics::of(prog) };
        s.settle(prog, m, &mut Effects::default());
        s
    }

    /// Pops finished entries and exits lanes that ran off the end, until the top entry has lanes
    /// to run at a valid pc or the stack is empty.
    fn settle(&mut self, prog: &Program, m: &mut Machine, fx: &mut Effects) {
        while let Some(top) = self.entries.last().copied() {
            let lanes = top.mask.without(m.exited);
            if lanes.is_empty() {
                self.entries.pop();
                fx.pops += 1;
            } else if Some(top.pc) == top.rpc {
                self.entries.pop();
                fx.pops += 1;
                fx.reconverged = true;
            } else if top.pc.index() >= prog.len() {
                exit(&mut self.entries, m, lanes, fx);
            } else {
                return;
            }
        }
    }
}

/// The stack view of PDOM entries, bottom first (shared by both PDOM flavours).
pub(crate) fn view(entries: &[Entry]) -> Vec<StackEntry> {
    entries.iter().map(|e| StackEntry { kind: e.kind, mask: e.mask, pc: e.pc, rpc: e.rpc, on_chip: true }).collect()
}

/// Where `lane` runs or resumes: the pc of the topmost entry holding it.
pub(crate) fn resume_pc(entries: &[Entry], lane: u32) -> Option<Pc> {
    entries.iter().rev().find(|e| e.mask.contains(lane)).map(|e| e.pc)
}

pub(crate) fn exit(entries: &mut [Entry], m: &mut Machine, lanes: LaneMask, fx: &mut Effects) {
    m.exited |= lanes;
    for e in entries.iter_mut() {
        e.mask = e.mask.without(lanes);
    }
    fx.exited = true;
}

/// The path groups of a split, in push order (the group that runs first last).
pub(crate) fn push_order(mv: &Moves, order: PathOrder) -> impl Iterator<Item = (LaneMask, Pc)> + '_ {
    // `to` lists the taken target first; the taken path runs first when pushed last.
    let n = mv.to.len();
    (0..n).map(move |i| mv.to[if order == PathOrder::TakenFirst { n - 1 - i } else { i }])
}

impl Reconvergence for PdomStack {
    // Inlined natively, a call in wasm: see `Reconvergence::step`.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn step(&mut self, prog: &Program, m: &mut Machine) -> Result<Issued, ControlError> {
        let top = *self.entries.last().ok_or_else(|| ControlError::Fault("the PDOM stack is empty".into()))?;
        let lanes = top.mask.without(m.exited);
        let mv = run_plain(prog, &self.statics, &mut self.calls, m, top.pc, lanes)?;
        let mut fx = Effects::default();
        if mv.barrier {
            if lanes != m.live_lanes() {
                let why = "wait on the PDOM stack below and can never arrive first (the stack runs divergent paths one after another)";
                return Err(barrier_deadlock(prog, top.pc, lanes, m.live_lanes(), why));
            }
            self.entries.last_mut().expect("top exists").pc = top.pc.next();
        } else {
            if !mv.exited.is_empty() {
                exit(&mut self.entries, m, mv.exited, &mut fx);
            }
            let last = self.entries.len() - 1;
            if mv.split() {
                fx.divergent = true;
                let rpc = self.statics.rpc(top.pc);
                if rpc == top.rpc && rpc.is_some() {
                    // The entry below already waits at this post-dominator (a loop's break
                    // branch, taken again each iteration): GPGPU-Sim reuses the top entry.
                    self.entries.pop();
                    fx.pops += 1;
                } else {
                    // The top entry waits at the post-dominator for every lane of the split;
                    // with no post-dominator the paths only meet at the end of the program.
                    self.entries[last].pc = rpc.unwrap_or(Pc(prog.len() as u32));
                    self.entries[last].kind = EntryKind::Reconv;
                }
                for (mask, pc) in push_order(&mv, self.order) {
                    // A path that goes straight to the post-dominator waits in the entry there.
                    if Some(pc) != rpc {
                        self.entries.push(Entry { mask, pc, rpc, kind: EntryKind::Path });
                        fx.pushes += 1;
                    }
                }
            } else if let Some(&(_, pc)) = mv.to.first() {
                self.entries[last].pc = pc;
            }
        }
        self.settle(prog, m, &mut fx);
        Ok(Issued { pc: top.pc, mask: lanes, work: mv.work, effects: fx })
    }

    /// A plain instruction, or a branch all of whose lanes go one way, when the lanes' next pc is
    /// not the top entry's post-dominator (reaching it pops).
    #[inline(always)]
    fn step_plain(&mut self, prog: &Program, m: &mut Machine, plain: &PlainPcs) -> Option<Result<PlainStep, PlainFault>> {
        let top = self.entries.last_mut()?;
        let (pc, lanes) = (top.pc, top.mask.without(m.exited));
        if !plain.at(pc) || lanes.is_empty() {
            return None;
        }
        let next = plain_next(prog, m, plain, pc, lanes).filter(|&next| top.rpc != Some(next))?;
        let work = match plain_work(prog, m, plain, pc, lanes)? {
            Ok(work) => work,
            Err(e) => return Some(Err(e)),
        };
        top.pc = next;
        Some(Ok(PlainStep { pc, mask: lanes, work }))
    }

    fn finished(&self) -> bool {
        self.entries.is_empty()
    }
    fn pc(&self) -> Option<Pc> {
        self.entries.last().map(|e| e.pc)
    }
    fn active(&self) -> LaneMask {
        self.entries.last().map_or(LaneMask::EMPTY, |e| e.mask)
    }
    fn stack(&self) -> Vec<StackEntry> {
        view(&self.entries)
    }
    fn depth(&self) -> usize {
        self.entries.len()
    }
    fn lane_pc(&self, _prog: &Program, lane: u32) -> Option<Pc> {
        resume_pc(&self.entries, lane)
    }
}
