//! Every lane on its own (MIMD), the reference the SIMD schemes are measured against.
//!
//! Each step runs one instruction of one lane, taking the lanes in turn (round-robin, so a lane
//! spinning on a lock cannot starve the lane that holds it). The warp-instruction count of a
//! MIMD run is therefore its thread-instruction count. `BAR.SYNC` holds each lane until every
//! live lane has arrived. A `_sync` instruction (`SHFL`/`VOTE`/`MATCH` with a member mask, `WARPSYNC`)
//! is the one exception to one lane per step: a lane whose guard holds waits there until every
//! lane its mask names has arrived, then they run it together in one step, as the intrinsic
//! needs. When the others of the mask have exited, or no lane is left that could bring them,
//! it runs anyway, and the data path's check reports the missing lanes. A collective that names
//! no lanes (real SASS's `SHFL`, `VOTE`, `REDUX`, where the mask is the compiler's knowledge that
//! the lanes run together, and `__activemask`) waits the same way for every live lane, so
//! `__activemask` names the lanes that came: those that would run together on a GPU, as the
//! `VOTE`s ptxas pairs with it to make `__all_sync` expect. Token and barrier instructions are
//! read as the other branch-only models read them (`flow`).

use alloc::sync::Arc;
use alloc::vec::Vec;

use super::flow::{exit_past_end, run_plain, CallStacks, Statics};
use super::lane_pcs::LanePcs;
use super::{plain_next, plain_work, ControlError, Effects, EntryKind, Issued, PlainFault, PlainStep, Reconvergence, StackEntry};
use crate::isa::Pc;
use crate::machine::{member_lanes, LaneMask, Machine};
use crate::program::{PlainPcs, Program};

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Independent {
    /// Each lane's pc, and the live lanes.
    pcs: LanePcs,
    /// Lanes waiting at `BAR.SYNC`.
    at_barrier: LaneMask,
    /// Lanes waiting at a `_sync` instruction for the other lanes of its mask.
    at_sync: LaneMask,
    /// The lanes of a `_sync` instruction that run it together next, and its pc.
    gathered: Option<(Pc, LaneMask)>,
    /// The lane whose turn comes next (if it can run).
    turn: u32,
    width: u32,
    /// Lanes at `BAR.SYNC` wait for the block (`release_barrier`), not only for this warp's lanes.
    hold_at_barrier: bool,
    calls: CallStacks,
    statics: Arc<Statics>,
}

impl Independent {
    pub fn new(prog: &Program, m: &mut Machine, hold_at_barrier: bool) -> Independent {
        let live = m.live_lanes();
        let mut s = Independent {
            pcs: LanePcs::new(prog.len(), live),
            at_barrier: LaneMask::EMPTY,
            at_sync: LaneMask::EMPTY,
            gathered: None,
            turn: 0,
            width: m.width,
            hold_at_barrier,
            calls: CallStacks::new(m.width),
            statics: Statics::of(prog),
        };
        s.settle(prog, m, &mut Effects::default(), live);
        s
    }

    /// After the lanes of `moved` went somewhere new.
    fn settle(&mut self, prog: &Program, m: &mut Machine, fx: &mut Effects, mut moved: LaneMask) {
        exit_past_end(&mut self.pcs, m, fx);
        let live = self.pcs.live();
        self.at_barrier &= live;
        self.at_sync &= live;
        // The barrier opens once every live lane is at it (lanes exiting can open it too).
        if !self.hold_at_barrier && !live.is_empty() && self.at_barrier == live {
            self.pcs.advance(live);
            self.at_barrier = LaneMask::EMPTY;
            fx.reconverged = true;
            moved = live;
        }
        self.gather(prog, m, moved & live);
    }

    /// Lanes that reached a `_sync` instruction wait there; a group whose mask's lanes are all
    /// there or exited runs next; with no other lane able to run, the lowest
    /// waiting group runs anyway, and its check names the lanes that can never come.
    /// Only lanes that `moved` can have arrived: a lane's guard changes only when it runs.
    fn gather(&mut self, prog: &Program, m: &Machine, moved: LaneMask) {
        for l in moved.without(self.at_barrier | self.at_sync).iter() {
            let Some(i) = prog.get(self.pcs.get(l)) else { continue };
            if i.op.collective().is_some() && !m.guard_mask(i.guard, LaneMask::lane(l)).is_empty() {
                self.at_sync = self.at_sync.with(l);
            }
        }
        self.gathered = None;
        if self.at_sync.is_empty() {
            return;
        }
        let waiting = self.pcs.distinct_of(self.at_sync);
        for &pc in waiting.iter().rev() {
            let here = self.pcs.at(pc, self.at_sync);
            let Some(mask) = prog.get(pc).and_then(|i| i.op.collective()) else { continue };
            let need = match mask {
                Some(mask) => here.iter().fold(LaneMask::EMPTY, |a, l| a | member_lanes(m, l, mask)),
                None => self.pcs.live(),
            };
            // Every lane of the mask is here or has exited (the check then names the exited ones).
            if need.is_subset(here | m.exited) {
                self.gathered = Some((pc, here));
                return;
            }
        }
        if self.pcs.live().without(self.at_barrier | self.at_sync).is_empty() {
            self.gathered = waiting.last().map(|&pc| (pc, self.pcs.at(pc, self.at_sync)));
        }
    }

    /// The lanes that run next and their pc: a gathered `_sync` group, or the first lane that
    /// can run from `turn` on, cyclically.
    fn chosen(&self) -> Option<(Pc, LaneMask)> {
        if self.gathered.is_some() {
            return self.gathered;
        }
        let runnable = self.pcs.live().without(self.at_barrier | self.at_sync).0;
        if runnable == 0 {
            return None;
        }
        let from_turn = runnable & (u64::MAX << self.turn);
        let lane = if from_turn != 0 { from_turn.trailing_zeros() } else { runnable.trailing_zeros() };
        Some((self.pcs.get(lane), LaneMask::lane(lane)))
    }
}

impl Reconvergence for Independent {
    // Inlined natively, a call in wasm: see `Reconvergence::step`.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn step(&mut self, prog: &Program, m: &mut Machine) -> Result<Issued, ControlError> {
        let (pc, lanes) = self.chosen().ok_or_else(|| ControlError::Fault("no lane can run".into()))?;
        let mv = run_plain(prog, &self.statics, &mut self.calls, m, pc, lanes)?;
        let mut fx = Effects { exited: !mv.exited.is_empty(), reconverged: lanes.count() > 1, ..Effects::default() };
        m.exited |= mv.exited;
        self.at_sync = self.at_sync.without(lanes);
        if mv.barrier {
            self.at_barrier |= lanes;
        }
        for &(group, to) in mv.to.iter() {
            self.pcs.move_group(group, pc, to);
        }
        self.turn = (lanes.iter().last().unwrap_or(0) + 1) % self.width;
        self.settle(prog, m, &mut fx, lanes);
        Ok(Issued { pc, mask: lanes, work: mv.work, effects: fx })
    }

    /// One lane's plain instruction: it moves on, the next lane's turn comes, and a lane that
    /// reached a `_sync` instruction waits there (`gather`, as `settle` does).
    #[inline(always)]
    fn step_plain(&mut self, prog: &Program, m: &mut Machine, plain: &PlainPcs) -> Option<Result<PlainStep, PlainFault>> {
        if self.gathered.is_some() {
            return None;
        }
        let (pc, lane) = self.chosen()?;
        if !plain.at(pc) {
            return None;
        }
        // One lane: a branch never splits.
        let next = plain_next(prog, m, plain, pc, lane)?;
        let work = match plain_work(prog, m, plain, pc, lane)? {
            Ok(work) => work,
            Err(e) => return Some(Err(e)),
        };
        self.pcs.move_group(lane, pc, next);
        self.turn = (lane.0.trailing_zeros() + 1) % self.width;
        self.gather(prog, m, lane);
        Some(Ok(PlainStep { pc, mask: lane, work }))
    }

    fn finished(&self) -> bool {
        self.pcs.live().is_empty()
    }
    fn pc(&self) -> Option<Pc> {
        self.chosen().map(|c| c.0)
    }
    fn active(&self) -> LaneMask {
        self.chosen().map_or(LaneMask::EMPTY, |c| c.1)
    }
    fn stack(&self) -> Vec<StackEntry> {
        let running = self.pc();
        let live = self.pcs.live();
        self.pcs
            .distinct_of(live)
            .into_iter()
            .map(|p| {
                let lanes = self.pcs.at(p, live);
                let kind = if Some(p) == running {
                    EntryKind::Run
                } else if lanes.is_subset(self.at_barrier | self.at_sync) {
                    EntryKind::AtBarrier
                } else {
                    EntryKind::Wait
                };
                StackEntry::new(kind, lanes, p)
            })
            .collect()
    }
    fn depth(&self) -> usize {
        self.pcs.distinct()
    }
    fn lane_pc(&self, _prog: &Program, lane: u32) -> Option<Pc> {
        self.pcs.lane(lane)
    }
    fn at_barrier(&self) -> LaneMask {
        self.at_barrier & self.pcs.live()
    }
    fn release_barrier(&mut self, prog: &Program, m: &mut Machine) {
        let released = self.at_barrier();
        self.pcs.advance(released);
        self.at_barrier = LaneMask::EMPTY;
        self.gather(prog, m, released);
    }
}
