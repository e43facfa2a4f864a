//! Thread frontiers on a sorted stack (Diamos et al., Section 5.2, TF-STACK).
//!
//! Each entry is a pc and the lanes waiting there, kept sorted by priority; the priority of a
//! block is its layout order, so the entry with the lowest pc is the top and always runs. After
//! each instruction its lanes are inserted back at their next pcs: a pc that already has an
//! entry takes them in (the masks are ORed: that is reconvergence, at the earliest point the
//! lanes meet), otherwise a new entry goes in at its place in the order.
//!
//! Lanes that leave a loop wait at its exit (a higher pc) while the others go round again
//! (lower pc), so loops reconverge at their exits as PDOM does; unstructured joins reconverge
//! where the lanes first meet instead of at the post-dominator. `BAR.SYNC` reached by part of
//! the warp is a deadlock only when the lanes cannot meet before it.

use alloc::sync::Arc;
use alloc::vec::Vec;

use super::flow::{barrier_deadlock, run_plain, CallStacks, Statics};
use super::{plain_next, plain_work, ControlError, Effects, EntryKind, Issued, PlainFault, PlainStep, Reconvergence, StackEntry};
use crate::isa::Pc;
use crate::machine::{LaneMask, Machine};
use crate::program::{PlainPcs, Program};

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SortedStack {
    /// (pc, lanes), highest pc first: the last entry is the top.
    entries: Vec<(Pc, LaneMask)>,
    calls: CallStacks,
    statics: Arc<Statics>,
}

impl SortedStack {
    pub fn new(prog: &Program, m: &mut Machine) -> SortedStack {
        let mut s = SortedStack { entries: Vec::new(), calls: CallStacks::new(m.width), statics: Statics::of(prog) };
        let mut fx = Effects::default();
        s.insert(prog, m, m.live_lanes(), Pc(0), &mut fx);
        s
    }

    /// Puts `lanes` at `pc`, merging with an entry already there. Lanes past the end exit.
    /// Returns true when they merged.
    fn insert(&mut self, prog: &Program, m: &mut Machine, lanes: LaneMask, pc: Pc, fx: &mut Effects) -> bool {
        if lanes.is_empty() {
            return false;
        }
        if pc.index() >= prog.len() {
            m.exited |= lanes;
            fx.exited = true;
            return false;
        }
        match self.entries.binary_search_by(|(p, _)| pc.0.cmp(&p.0)) {
            Ok(i) => {
                self.entries[i].1 |= lanes;
                true
            }
            Err(i) => {
                self.entries.insert(i, (pc, lanes));
                false
            }
        }
    }
}

impl Reconvergence for SortedStack {
    // Inlined natively, a call in wasm: see `Reconvergence::step`.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn step(&mut self, prog: &Program, m: &mut Machine) -> Result<Issued, ControlError> {
        let (pc, mask) = *self.entries.last().ok_or_else(|| ControlError::Fault("the sorted stack is empty".into()))?;
        let lanes = mask.without(m.exited);
        let mv = run_plain(prog, &self.statics, &mut self.calls, m, pc, lanes)?;
        if mv.barrier && lanes != m.live_lanes() {
            let why = "wait at lower-priority blocks and cannot run until these lanes pass the barrier";
            return Err(barrier_deadlock(prog, pc, lanes, m.live_lanes(), why));
        }
        self.entries.pop();
        let mut fx = Effects { divergent: mv.split(), exited: !mv.exited.is_empty(), ..Effects::default() };
        m.exited |= mv.exited;
        if mv.barrier {
            self.insert(prog, m, lanes, pc.next(), &mut fx);
        }
        for &(group, to) in mv.to.iter() {
            if self.insert(prog, m, group, to, &mut fx) {
                fx.reconverged = true;
                fx.pops += 1;
            } else if mv.split() {
                fx.pushes += 1;
            }
        }
        // Exited lanes leave every entry; entries left empty go.
        if fx.exited {
            for e in &mut self.entries {
                e.1 = e.1.without(m.exited);
            }
            self.entries.retain(|e| !e.1.is_empty());
        }
        Ok(Issued { pc, mask: lanes, work: mv.work, effects: fx })
    }

    /// A plain instruction, or a branch all of whose lanes go one way, whose lanes stay the top
    /// entry: their next pc comes before every other entry's (at one they would merge: a
    /// reconvergence; past one, that entry would run first).
    #[inline(always)]
    fn step_plain(&mut self, prog: &Program, m: &mut Machine, plain: &PlainPcs) -> Option<Result<PlainStep, PlainFault>> {
        let n = self.entries.len();
        let (pc, mask) = *self.entries.last()?;
        let lanes = mask.without(m.exited);
        if !plain.at(pc) || lanes.is_empty() {
            return None;
        }
        // The lanes stay the top: their next pc comes before the next entry's (at it they merge).
        let next = plain_next(prog, m, plain, pc, lanes).filter(|next| n < 2 || next.0 < self.entries[n - 2].0 .0)?;
        let work = match plain_work(prog, m, plain, pc, lanes)? {
            Ok(work) => work,
            Err(e) => return Some(Err(e)),
        };
        self.entries[n - 1] = (next, lanes);
        Some(Ok(PlainStep { pc, mask: lanes, work }))
    }

    fn finished(&self) -> bool {
        self.entries.is_empty()
    }
    fn pc(&self) -> Option<Pc> {
        self.entries.last().map(|e| e.0)
    }
    fn active(&self) -> LaneMask {
        self.entries.last().map_or(LaneMask::EMPTY, |e| e.1)
    }
    fn stack(&self) -> Vec<StackEntry> {
        let top = self.entries.len().saturating_sub(1);
        self.entries
            .iter()
            .enumerate()
            .map(|(i, &(pc, mask))| StackEntry::new(if i == top { EntryKind::Run } else { EntryKind::Wait }, mask, pc))
            .collect()
    }
    fn depth(&self) -> usize {
        self.entries.len()
    }
    fn lane_pc(&self, _prog: &Program, lane: u32) -> Option<Pc> {
        self.entries.iter().find(|e| e.1.contains(lane)).map(|e| e.0)
    }
}
