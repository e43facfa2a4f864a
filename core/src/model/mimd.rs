//! Every lane on its own (MIMD), the reference the SIMD schemes are measured against.
//!
//! Each step runs one instruction of one lane, taking the lanes in turn (round-robin, so a lane
//! spinning on a lock cannot starve the lane that holds it). The warp-instruction count of a
//! MIMD run is therefore its thread-instruction count. `BAR.SYNC` holds each lane until every
//! live lane has arrived. A `_sync` instruction (`SHFL`/`VOTE`/`MATCH` with a member mask, `WARPSYNC`)
//! is the one exception to one lane per step: a lane whose guard holds waits there until every
//! lane its mask names has arrived, then they run it together in one step, as the intrinsic
//! needs. When the others of the mask have exited, or no lane is left that could bring them,
//! it runs anyway, and the data path's check reports the missing lanes. Token and barrier instructions are
//! read as the other branch-only models read them (`flow`).

use alloc::sync::Arc;
use alloc::vec;
use alloc::vec::Vec;

use super::flow::{distinct_pcs, exit_past_end, lanes_at, run_plain, CallStacks, Statics};
use super::{ControlError, Effects, EntryKind, Issued, Reconvergence, StackEntry};
use crate::isa::Pc;
use crate::machine::{member_lanes, LaneMask, Machine};
use crate::program::Program;

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Independent {
    pcs: Vec<Pc>,
    live: LaneMask,
    /// Lanes waiting at `BAR.SYNC`.
    at_barrier: LaneMask,
    /// Lanes waiting at a `_sync` instruction for the other lanes of its mask.
    at_sync: LaneMask,
    /// The lanes of a `_sync` instruction that run it together next, and its pc.
    gathered: Option<(Pc, LaneMask)>,
    /// The lane whose turn comes next (if it can run).
    turn: u32,
    width: u32,
    calls: CallStacks,
    statics: Arc<Statics>,
}

impl Independent {
    pub fn new(prog: &Program, m: &mut Machine) -> Independent {
        let mut s = Independent {
            pcs: vec![Pc(0); m.width as usize],
            live: m.live_lanes(),
            at_barrier: LaneMask::EMPTY,
            at_sync: LaneMask::EMPTY,
            gathered: None,
            turn: 0,
            width: m.width,
            calls: CallStacks::new(m.width),
            statics: Statics::of(prog),
        };
        s.settle(prog, m, &mut Effects::default());
        s
    }

    fn settle(&mut self, prog: &Program, m: &mut Machine, fx: &mut Effects) {
        self.live = exit_past_end(&self.pcs, self.live, prog, m, fx);
        self.at_barrier &= self.live;
        self.at_sync &= self.live;
        // The barrier opens once every live lane is at it (lanes exiting can open it too).
        if !self.live.is_empty() && self.at_barrier == self.live {
            for l in self.live.iter() {
                self.pcs[l as usize] = self.pcs[l as usize].next();
            }
            self.at_barrier = LaneMask::EMPTY;
            fx.reconverged = true;
        }
        self.gather(prog, m);
    }

    /// Lanes that reached a `_sync` instruction wait there; a group whose mask's lanes are all
    /// there or exited runs next; with no other lane able to run, the lowest
    /// waiting group runs anyway, and its check names the lanes that can never come.
    fn gather(&mut self, prog: &Program, m: &Machine) {
        for l in self.live.without(self.at_barrier | self.at_sync).iter() {
            let Some(i) = prog.get(self.pcs[l as usize]) else { continue };
            if i.op.member_mask().is_some() && !m.guard_mask(i.guard, LaneMask::lane(l)).is_empty() {
                self.at_sync = self.at_sync.with(l);
            }
        }
        self.gathered = None;
        for pc in distinct_pcs(&self.pcs, self.at_sync).into_iter().rev() {
            let here = lanes_at(&self.pcs, self.at_sync, pc);
            let Some(mask) = prog.get(pc).and_then(|i| i.op.member_mask()) else { continue };
            let need = here.iter().fold(LaneMask::EMPTY, |a, l| a | member_lanes(m, l, mask));
            // Every lane of the mask is here or has exited (the check then names the exited ones).
            if need.is_subset(here | m.exited) {
                self.gathered = Some((pc, here));
                return;
            }
        }
        if self.live.without(self.at_barrier | self.at_sync).is_empty() {
            self.gathered = distinct_pcs(&self.pcs, self.at_sync).last().map(|&pc| (pc, lanes_at(&self.pcs, self.at_sync, pc)));
        }
    }

    /// The lanes that run next and their pc: a gathered `_sync` group, or the first lane that
    /// can run from `turn` on, cyclically.
    fn chosen(&self) -> Option<(Pc, LaneMask)> {
        if self.gathered.is_some() {
            return self.gathered;
        }
        let runnable = self.live.without(self.at_barrier | self.at_sync);
        (0..self.width)
            .map(|i| (self.turn + i) % self.width)
            .find(|&l| runnable.contains(l))
            .map(|l| (self.pcs[l as usize], LaneMask::lane(l)))
    }
}

impl Reconvergence for Independent {
    fn step(&mut self, prog: &Program, m: &mut Machine) -> Result<Issued, ControlError> {
        let (pc, lanes) = self.chosen().ok_or_else(|| ControlError::Fault("no lane can run".into()))?;
        let mv = run_plain(prog, &self.statics, &mut self.calls, m, pc, lanes)?;
        let mut fx = Effects { exited: !mv.exited.is_empty(), reconverged: lanes.count() > 1, ..Effects::default() };
        m.exited |= mv.exited;
        self.at_sync = self.at_sync.without(lanes);
        if mv.barrier {
            self.at_barrier |= lanes;
        }
        for &(group, to) in &mv.to {
            for l in group.iter() {
                self.pcs[l as usize] = to;
            }
        }
        self.turn = (lanes.iter().last().unwrap_or(0) + 1) % self.width;
        self.settle(prog, m, &mut fx);
        Ok(Issued { pc, mask: lanes, work: mv.work, effects: fx })
    }

    fn finished(&self) -> bool {
        self.live.is_empty()
    }
    fn pc(&self) -> Option<Pc> {
        self.chosen().map(|c| c.0)
    }
    fn active(&self) -> LaneMask {
        self.chosen().map_or(LaneMask::EMPTY, |c| c.1)
    }
    fn stack(&self) -> Vec<StackEntry> {
        let running = self.pc();
        distinct_pcs(&self.pcs, self.live)
            .into_iter()
            .map(|p| {
                let lanes = lanes_at(&self.pcs, self.live, p);
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
        distinct_pcs(&self.pcs, self.live).len()
    }
    fn lane_pc(&self, _prog: &Program, lane: u32) -> Option<Pc> {
        self.live.contains(lane).then(|| self.pcs[lane as usize])
    }
}
