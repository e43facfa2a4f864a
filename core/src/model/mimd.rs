//! Every lane on its own (MIMD), the reference the SIMD schemes are measured against.
//!
//! Each step runs one instruction of one lane, taking the lanes in turn (round-robin, so a lane
//! spinning on a lock cannot starve the lane that holds it). The warp-instruction count of a
//! MIMD run is therefore its thread-instruction count. `BAR.SYNC` holds each lane until every
//! live lane has arrived. Token and barrier instructions are read as the other branch-only
//! models read them (`flow`).

use alloc::sync::Arc;
use alloc::vec;
use alloc::vec::Vec;

use super::flow::{distinct_pcs, exit_past_end, lanes_at, run_plain, CallStacks, Statics};
use super::{ControlError, Effects, EntryKind, Issued, Reconvergence, StackEntry};
use crate::isa::Pc;
use crate::machine::{LaneMask, Machine};
use crate::program::Program;

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Independent {
    pcs: Vec<Pc>,
    live: LaneMask,
    /// Lanes waiting at `BAR.SYNC`.
    at_barrier: LaneMask,
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
        // The barrier opens once every live lane is at it (lanes exiting can open it too).
        if !self.live.is_empty() && self.at_barrier == self.live {
            for l in self.live.iter() {
                self.pcs[l as usize] = self.pcs[l as usize].next();
            }
            self.at_barrier = LaneMask::EMPTY;
            fx.reconverged = true;
        }
    }

    /// The lane that runs next: the first runnable lane from `turn` on, cyclically.
    fn chosen(&self) -> Option<u32> {
        let runnable = self.live.without(self.at_barrier);
        (0..self.width).map(|i| (self.turn + i) % self.width).find(|&l| runnable.contains(l))
    }
}

impl Reconvergence for Independent {
    fn step(&mut self, prog: &Program, m: &mut Machine) -> Result<Issued, ControlError> {
        let lane = self.chosen().ok_or_else(|| ControlError::Fault("no lane can run".into()))?;
        let pc = self.pcs[lane as usize];
        let me = LaneMask::lane(lane);
        let mv = run_plain(prog, &self.statics, &mut self.calls, m, pc, me)?;
        let mut fx = Effects { exited: !mv.exited.is_empty(), ..Effects::default() };
        m.exited |= mv.exited;
        if mv.barrier {
            self.at_barrier |= me;
        }
        if let Some(&(_, to)) = mv.to.first() {
            self.pcs[lane as usize] = to;
        }
        self.turn = (lane + 1) % self.width;
        self.settle(prog, m, &mut fx);
        Ok(Issued { pc, mask: me, work: mv.work, effects: fx })
    }

    fn finished(&self) -> bool {
        self.live.is_empty()
    }
    fn pc(&self) -> Option<Pc> {
        self.chosen().map(|l| self.pcs[l as usize])
    }
    fn active(&self) -> LaneMask {
        self.chosen().map_or(LaneMask::EMPTY, LaneMask::lane)
    }
    fn stack(&self) -> Vec<StackEntry> {
        let running = self.pc();
        distinct_pcs(&self.pcs, self.live)
            .into_iter()
            .map(|p| {
                let lanes = lanes_at(&self.pcs, self.live, p);
                let kind = if Some(p) == running {
                    EntryKind::Run
                } else if lanes.is_subset(self.at_barrier) {
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
