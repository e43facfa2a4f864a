//! Thread frontiers on Intel Sandy Bridge (Diamos et al., Section 5.1, TF-SANDY): a pc per lane
//! and one warp pc. A lane runs an instruction when its pc equals the warp pc; the warp pc
//! always moves on, to the next instruction or, at a branch, as below.
//!
//! The hardware cannot find the highest-priority block where disabled lanes wait, so the
//! compiler branches conservatively: when lanes may be waiting (some lane of the warp is not
//! active), a branch sends the warp pc to the highest-priority block among its lanes' targets
//! and the block's thread frontier, waiting lanes or not. A block reached that way with no
//! lane at its pc still issues, instruction by instruction, with an empty mask: those steps are
//! counted (`Metrics::idle_instructions`) and drawn. A warp whose lanes are all active branches
//! normally. Lanes whose pc the warp pc passes over join it there: that is reconvergence.

use alloc::sync::Arc;
use alloc::vec::Vec;

use super::flow::{barrier_deadlock, exit_past_end, run_plain, CallStacks, Statics};
use super::lane_pcs::LanePcs;
use super::{plain_work, ControlError, Effects, EntryKind, Issued, PlainFault, PlainStep, Reconvergence, StackEntry};
use crate::isa::{Op, Pc};
use crate::machine::{LaneMask, Machine};
use crate::program::{PlainPcs, Program};

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct WarpPc {
    warp: Pc,
    /// Each live lane's pc.
    pcs: LanePcs,
    calls: CallStacks,
    statics: Arc<Statics>,
}

impl WarpPc {
    pub fn new(prog: &Program, m: &mut Machine) -> WarpPc {
        let mut s = WarpPc {
            warp: Pc(0),
            pcs: LanePcs::new(prog.len(), m.live_lanes()),
            calls: CallStacks::new(m.width),
            statics: Statics::of(prog),
        };
        s.settle(prog, m, &mut Effects::default());
        s
    }

    /// Lanes past the end exit; a warp pc past the end (all lanes it could meet are behind it)
    /// goes back to the lowest lane pc.
    fn settle(&mut self, prog: &Program, m: &mut Machine, fx: &mut Effects) {
        exit_past_end(&mut self.pcs, m, fx);
        let live = self.pcs.live();
        if self.warp.index() >= prog.len() || !self.pcs.any_from(self.warp, live) {
            if let Some(low) = self.pcs.lowest(live) {
                self.warp = low;
            }
        }
    }
}

/// Instructions after which the warp pc does not simply move to the next one.
fn redirects(prog: &Program, pc: Pc) -> bool {
    prog.get(pc).is_some_and(|i| i.pop || matches!(i.op, Op::Bra { .. } | Op::Brk | Op::Cont | Op::Cal { .. } | Op::Ret | Op::Exit))
}

impl Reconvergence for WarpPc {
    // Inlined natively, a call in wasm: see `Reconvergence::step`.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn step(&mut self, prog: &Program, m: &mut Machine) -> Result<Issued, ControlError> {
        let pc = self.warp;
        let live = self.pcs.live();
        let active = self.pcs.at(pc, live);
        let mv = run_plain(prog, &self.statics, &mut self.calls, m, pc, active)?;
        if mv.barrier && !active.is_empty() && active != live {
            let why = "wait at other pcs and cannot arrive while the warp pc is here";
            return Err(barrier_deadlock(prog, pc, active, live, why));
        }
        let mut fx = Effects { divergent: mv.split(), exited: !mv.exited.is_empty(), ..Effects::default() };
        m.exited |= mv.exited;
        for &(group, to) in mv.to.iter() {
            self.pcs.move_group(group, pc, to);
        }
        if mv.barrier {
            self.pcs.move_group(active, pc, pc.next());
        }
        let everyone_here = active == live;
        self.warp = if !redirects(prog, pc) {
            pc.next()
        } else if everyone_here && mv.to.len() == 1 {
            mv.to[0].1
        } else {
            // The conservative branch: the highest-priority candidate, whether lanes wait there or not.
            let targets = mv.to.iter().map(|g| g.1);
            let frontier = self.statics.frontier_head(pc);
            targets.chain(frontier).min_by_key(|p| p.0).unwrap_or(pc.next())
        };
        self.settle(prog, m, &mut fx);
        let now = self.pcs.at(self.warp, self.pcs.live());
        // Lanes that ran this step meet lanes that waited at the new warp pc.
        fx.reconverged = !now.without(active).is_empty() && now.0 & active.0 != 0;
        Ok(Issued { pc, mask: active, work: mv.work, effects: fx })
    }

    /// A plain instruction with lanes at the warp pc, and none waiting at the next pc (the lanes
    /// that ran would meet them there: a reconvergence).
    #[inline(always)]
    fn step_plain(&mut self, prog: &Program, m: &mut Machine, plain: &PlainPcs) -> Option<Result<PlainStep, PlainFault>> {
        let pc = self.warp;
        let live = self.pcs.live();
        let active = self.pcs.at(pc, live);
        if !plain.at(pc) || active.is_empty() || !self.pcs.at(pc.next(), live).is_empty() {
            return None;
        }
        let work = match plain_work(prog, m, plain, pc, active)? {
            Ok(work) => work,
            Err(e) => return Some(Err(e)),
        };
        self.pcs.move_group(active, pc, pc.next());
        self.warp = pc.next();
        Some(Ok(PlainStep { pc, mask: active, work }))
    }

    fn finished(&self) -> bool {
        self.pcs.live().is_empty()
    }
    fn pc(&self) -> Option<Pc> {
        (!self.pcs.live().is_empty()).then_some(self.warp)
    }
    fn active(&self) -> LaneMask {
        self.pcs.at(self.warp, self.pcs.live())
    }
    fn stack(&self) -> Vec<StackEntry> {
        let live = self.pcs.live();
        let mut pcs = self.pcs.distinct_of(live);
        if !live.is_empty() && !pcs.contains(&self.warp) {
            // The warp pc where no lane is: the conservative branch's idle walk.
            let at = pcs.iter().position(|p| p.0 < self.warp.0).unwrap_or(pcs.len());
            pcs.insert(at, self.warp);
        }
        pcs.into_iter()
            .map(|p| StackEntry::new(if p == self.warp { EntryKind::Run } else { EntryKind::Wait }, self.pcs.at(p, live), p))
            .collect()
    }
    fn depth(&self) -> usize {
        self.pcs.distinct()
    }
    fn lane_pc(&self, _prog: &Program, lane: u32) -> Option<Pc> {
        self.pcs.lane(lane)
    }
}
