//! Volta to Hopper: a pc and a state per lane, and 16 convergence-barrier registers.
//!
//! - `BSSY Bn, L` records the issuing lanes in `Bn` (L is the convergence point, shown only).
//! - `BSYNC Bn`: a lane recorded in `Bn` waits there until every lane of `Bn` has arrived,
//!   exited, left with `BREAK Bn`, or yielded; then the arrived lanes go on together and leave
//!   `Bn`. A lane not in `Bn` passes.
//! - `BREAK Bn` takes the issuing lanes out of `Bn`.
//! - `WARPSYNC mask` waits until every live lane of the mask is at a `WARPSYNC`. `SHFL`/`VOTE`
//!   with a member mask do not wait (the compiler puts a `WARPSYNC` before them): the data path
//!   checks that the lanes of their mask run them together, so a lane that exited or is still
//!   elsewhere is a fault.
//! - `YIELD` lets another group run; until a yielded lane runs again, barriers do not wait for
//!   it. This is how a spin lock makes progress: the lock holder, blocked at the loop's `BSYNC`
//!   while the others spin, is released when they yield (an inference from the convergence-
//!   barrier patent and the H100 listing of the spin lock, which has `YIELD` in the loop).
//! - `BAR.SYNC` holds each lane until every live lane is there.
//!
//! One group (the ready lanes at one pc) runs at a time; the scheduler switches only when it
//! blocks, yields or exits, and at a split picks which side goes on (`Schedule`): as measured on
//! the H100, fewer lanes first and the fall-through side on a tie, resuming the group set aside
//! last; or the lowest pc; or round-robin in lane order. Lanes at the same pc run together.
//! Other instructions run as in the branch-only models (`flow`).

use alloc::format;
use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec;
use alloc::vec::Vec;

use super::flow::{exit_past_end, run_plain, CallStacks, Statics};
use super::{ControlError, Effects, EntryKind, Issued, Reconvergence, Schedule, StackEntry};
use crate::isa::{Barrier, Op, Pc, Src};
use crate::machine::{LaneList, LaneMask, Machine};
use crate::program::Program;

/// What a lane is doing besides running.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Wait {
    Ready,
    Yielded,
    /// At `BSYNC Bn`.
    Bsync(u8),
    /// At `BAR.SYNC`.
    Bar,
    /// At `WARPSYNC`, for these lanes.
    Warpsync(LaneMask),
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ConvergenceBarriers {
    pcs: Vec<Pc>,
    waits: Vec<Wait>,
    live: LaneMask,
    barriers: [LaneMask; Barrier::COUNT],
    /// The convergence point each `BSSY` named, for the view.
    targets: [Pc; Barrier::COUNT],
    /// Those of barriers saved to a register (`BMOV.32.CLEAR Rd, Bn`), the last on top, for
    /// when the barrier is restored (`BMOV.32 Bn, Ra`).
    saved_targets: Vec<(usize, Pc)>,
    /// The pc of the group that runs next; `None` when no lane can run.
    current: Option<Pc>,
    /// Groups set aside at splits, the last one on top (the H100 schedule resumes it first).
    deferred: Vec<Pc>,
    /// The lanes of the group that ran last (round-robin goes on after them).
    last: LaneMask,
    schedule: Schedule,
    calls: CallStacks,
    statics: Arc<Statics>,
}

impl ConvergenceBarriers {
    pub fn new(prog: &Program, m: &mut Machine, schedule: Schedule) -> ConvergenceBarriers {
        let w = m.width as usize;
        let mut s = ConvergenceBarriers {
            pcs: vec![Pc(0); w],
            waits: vec![Wait::Ready; w],
            live: m.live_lanes(),
            barriers: [LaneMask::EMPTY; Barrier::COUNT],
            targets: [Pc(0); Barrier::COUNT],
            saved_targets: Vec::new(),
            current: Some(Pc(0)),
            deferred: Vec::new(),
            last: LaneMask::EMPTY,
            schedule,
            calls: CallStacks::new(m.width),
            statics: Statics::of(prog),
        };
        s.settle(prog, m, &mut Effects::default(), false);
        s
    }

    fn lanes_where(&self, f: impl Fn(Pc, Wait) -> bool) -> LaneMask {
        self.live.iter().filter(|&l| f(self.pcs[l as usize], self.waits[l as usize])).fold(LaneMask::EMPTY, |a, l| a.with(l))
    }

    fn ready_at(&self, pc: Pc) -> LaneMask {
        self.lanes_where(|p, w| p == pc && w == Wait::Ready)
    }

    fn set(&mut self, lanes: LaneMask, pc: Pc, wait: Wait) {
        for l in lanes.iter() {
            self.pcs[l as usize] = pc;
            self.waits[l as usize] = wait;
        }
    }

    /// Opens every barrier whose lanes have all arrived (or left, exited, yielded).
    fn release(&mut self, fx: &mut Effects) -> Option<Pc> {
        let mut released = None;
        let yielded = self.lanes_where(|_, w| w == Wait::Yielded);
        for n in 0..Barrier::COUNT as u8 {
            let arrived = self.lanes_where(|_, w| w == Wait::Bsync(n));
            if arrived.is_empty() {
                continue;
            }
            let needed = self.barriers[n as usize] & self.live;
            if needed.without(yielded).is_subset(arrived) {
                for l in arrived.iter() {
                    let next = self.pcs[l as usize].next();
                    self.set(LaneMask::lane(l), next, Wait::Ready);
                    released = Some(next);
                }
                self.barriers[n as usize] = self.barriers[n as usize].without(arrived);
                fx.reconverged = true;
            }
        }
        let at_bar = self.lanes_where(|_, w| w == Wait::Bar);
        if !self.live.is_empty() && at_bar == self.live {
            for l in at_bar.iter() {
                let next = self.pcs[l as usize].next();
                self.set(LaneMask::lane(l), next, Wait::Ready);
                released = Some(next);
            }
            fx.reconverged = true;
        }
        let at_warpsync = self.lanes_where(|_, w| matches!(w, Wait::Warpsync(_)));
        for l in at_warpsync.iter() {
            if let Wait::Warpsync(need) = self.waits[l as usize] {
                if (need & self.live).is_subset(at_warpsync) {
                    let next = self.pcs[l as usize].next();
                    self.set(LaneMask::lane(l), next, Wait::Ready);
                    released = Some(next);
                    fx.reconverged = true;
                }
            }
        }
        released
    }

    /// Exits lanes past the end, opens barriers, and picks the group that runs next.
    fn settle(&mut self, prog: &Program, m: &mut Machine, fx: &mut Effects, switch: bool) {
        self.live = exit_past_end(&self.pcs, self.live, prog, m, fx);
        let released = self.release(fx);
        let keep = self.current.filter(|&pc| !switch && !self.ready_at(pc).is_empty());
        self.current = keep.or(released.filter(|&pc| !self.ready_at(pc).is_empty())).or_else(|| self.pick());
    }

    /// The next group at a switch point, by the schedule; yielded lanes run when nothing else can.
    fn pick(&mut self) -> Option<Pc> {
        let mut ready = self.lanes_where(|_, w| w == Wait::Ready);
        if ready.is_empty() {
            let yielded = self.lanes_where(|_, w| w == Wait::Yielded);
            for l in yielded.iter() {
                self.waits[l as usize] = Wait::Ready;
            }
            ready = yielded;
        }
        if ready.is_empty() {
            return None;
        }
        let lowest = ready.iter().map(|l| self.pcs[l as usize]).min_by_key(|p| p.0);
        match self.schedule {
            Schedule::H100 => {
                while let Some(pc) = self.deferred.pop() {
                    if !self.ready_at(pc).is_empty() {
                        return Some(pc);
                    }
                }
                lowest
            }
            Schedule::LowestPc => lowest,
            Schedule::RoundRobin => {
                let after = self.last.iter().last().map_or(0, |l| l + 1);
                let w = self.pcs.len() as u32;
                (0..w).map(|i| (after + i) % w).find(|&l| ready.contains(l)).map(|l| self.pcs[l as usize])
            }
        }
    }

    /// Which side of a split goes on; the others are set aside.
    fn choose(&mut self, groups: &[(LaneMask, Pc)], fall: Pc) -> Pc {
        let pick = match self.schedule {
            Schedule::H100 => groups.iter().min_by_key(|(l, p)| (l.count(), *p != fall)),
            Schedule::LowestPc => groups.iter().min_by_key(|(_, p)| p.0),
            Schedule::RoundRobin => groups.iter().find(|(_, p)| *p == fall).or(groups.first()),
        }
        .map(|g| g.1)
        .unwrap_or(fall);
        for &(_, p) in groups.iter().rev() {
            if p != pick {
                self.deferred.push(p);
            }
        }
        pick
    }

    fn describe_deadlock(&self, prog: &Program) -> String {
        let mut groups: Vec<(Pc, Wait)> = self.live.iter().map(|l| (self.pcs[l as usize], self.waits[l as usize])).collect();
        groups.sort_by_key(|(p, _)| p.0);
        groups.dedup();
        let parts: Vec<String> = groups
            .iter()
            .map(|&(pc, w)| {
                let lanes = self.lanes_where(|p, x| p == pc && x == w);
                let text = prog.get(pc).map_or("", |i| i.text.as_str());
                let mut s = format!("lanes {} wait at `{text}` ({:#06x})", LaneList(lanes), prog.addr(pc));
                if let Wait::Bsync(n) = w {
                    let missing = (self.barriers[n as usize] & self.live).without(lanes);
                    s += &format!(" for lanes {}", LaneList(missing));
                }
                s
            })
            .collect();
        format!("no lane can run: {}", parts.join("; "))
    }
}

impl Reconvergence for ConvergenceBarriers {
    fn step(&mut self, prog: &Program, m: &mut Machine) -> Result<Issued, ControlError> {
        let Some(pc) = self.current else {
            return Err(ControlError::Deadlock(self.describe_deadlock(prog)));
        };
        let lanes = self.ready_at(pc);
        let instr = prog.get(pc).ok_or_else(|| ControlError::Fault(format!("pc {} is outside the program", pc.0)))?;
        let guarded = m.guard_mask(instr.guard, lanes);
        let mut fx = Effects::default();
        let mut work = lanes;
        let mut switch = false;
        self.last = lanes;
        match instr.op {
            Op::Bssy { barrier, target } => {
                self.barriers[barrier.0 as usize % Barrier::COUNT] = guarded;
                self.targets[barrier.0 as usize % Barrier::COUNT] = target;
                self.set(lanes, pc.next(), Wait::Ready);
            }
            Op::Bsync { barrier } => {
                let n = barrier.0 % Barrier::COUNT as u8;
                let waiting = guarded & self.barriers[n as usize];
                self.set(waiting, pc, Wait::Bsync(n));
                self.set(lanes.without(waiting), pc.next(), Wait::Ready);
                switch = !waiting.is_empty();
            }
            Op::Break { barrier } => {
                let n = barrier.0 as usize % Barrier::COUNT;
                self.barriers[n] = self.barriers[n].without(guarded);
                self.set(lanes, pc.next(), Wait::Ready);
            }
            Op::BmovRead { dst, barrier, clear } => {
                let n = barrier.0 as usize % Barrier::COUNT;
                let mask = (self.barriers[n] & self.live).0 as u32;
                for l in guarded.iter() {
                    m.set_reg(l, dst, mask);
                }
                if clear && !guarded.is_empty() {
                    // A save: its convergence point (shown on the stack) comes back with it.
                    if !dst.is_zero() {
                        self.saved_targets.push((n, self.targets[n]));
                    }
                    self.barriers[n] = LaneMask::EMPTY;
                }
                self.set(lanes, pc.next(), Wait::Ready);
            }
            Op::BmovWrite { barrier, src } => {
                let n = barrier.0 as usize % Barrier::COUNT;
                if let Some(l) = guarded.iter().next() {
                    self.barriers[n] = LaneMask(m.reg(l, src) as u64) & m.all_lanes();
                    if let Some(k) = self.saved_targets.iter().rposition(|&(b, _)| b == n) {
                        self.targets[n] = self.saved_targets.remove(k).1;
                    }
                }
                self.set(lanes, pc.next(), Wait::Ready);
            }
            Op::Warpsync { mask } => {
                let need = match mask {
                    Src::Imm(v) => LaneMask(v as u64),
                    Src::Reg { reg, .. } => LaneMask(lanes.iter().next().map_or(0, |l| m.reg(l, reg)) as u64),
                };
                self.set(guarded, pc, Wait::Warpsync(need & m.all_lanes()));
                self.set(lanes.without(guarded), pc.next(), Wait::Ready);
                switch = !guarded.is_empty();
            }
            Op::Yield => {
                self.set(lanes, pc.next(), Wait::Yielded);
                switch = true;
            }
            Op::BarSync => {
                self.set(lanes, pc, Wait::Bar);
                switch = true;
            }
            _ => {
                let mv = run_plain(prog, &self.statics, &mut self.calls, m, pc, lanes)?;
                work = mv.work;
                if !mv.exited.is_empty() {
                    m.exited |= mv.exited;
                    fx.exited = true;
                    switch = mv.to.is_empty();
                }
                for &(group, to) in &mv.to {
                    self.set(group, to, Wait::Ready);
                }
                if mv.split() {
                    fx.divergent = true;
                    self.current = Some(self.choose(&mv.to, pc.next()));
                } else if let Some(&(_, to)) = mv.to.first() {
                    self.current = Some(to);
                }
            }
        }
        if matches!(instr.op, Op::Bssy { .. } | Op::Break { .. } | Op::BmovRead { .. } | Op::BmovWrite { .. })
            || (matches!(instr.op, Op::Bsync { .. }) && !switch)
        {
            self.current = Some(pc.next());
        }
        self.settle(prog, m, &mut fx, switch);
        // A BSYNC whose lanes stay blocked is the extra instruction a split costs (the H100 issues
        // one per divergent exit event): like Kepler's DIV carrier, its issue is part of the
        // divergence cost.
        if let Op::Bsync { barrier } = instr.op {
            let n = barrier.0 % Barrier::COUNT as u8;
            fx.div_carrier = lanes.iter().any(|l| self.waits[l as usize] == Wait::Bsync(n) && self.pcs[l as usize] == pc);
        }
        Ok(Issued { pc, mask: lanes, work, effects: fx })
    }

    fn finished(&self) -> bool {
        self.live.is_empty()
    }
    fn pc(&self) -> Option<Pc> {
        if self.live.is_empty() {
            return None;
        }
        // Stuck: point at the lowest waiting lane, where the deadlock is reported.
        self.current.or_else(|| self.live.iter().map(|l| self.pcs[l as usize]).min_by_key(|p| p.0))
    }
    fn active(&self) -> LaneMask {
        self.current.map_or(LaneMask::EMPTY, |pc| self.ready_at(pc))
    }
    fn stack(&self) -> Vec<StackEntry> {
        let mut out: Vec<StackEntry> = (0..Barrier::COUNT)
            .filter(|&n| !(self.barriers[n] & self.live).is_empty())
            .map(|n| StackEntry::new(EntryKind::Barrier(n as u8), self.barriers[n] & self.live, self.targets[n]))
            .collect();
        let mut groups: Vec<(Pc, Wait)> = self.live.iter().map(|l| (self.pcs[l as usize], self.waits[l as usize])).collect();
        groups.sort_by_key(|g| core::cmp::Reverse(g.0 .0));
        groups.dedup();
        let mut current = None;
        for (pc, w) in groups {
            let lanes = self.lanes_where(|p, x| p == pc && x == w);
            let kind = match w {
                Wait::Ready if Some(pc) == self.current => {
                    current = Some(StackEntry::new(EntryKind::Run, lanes, pc));
                    continue;
                }
                Wait::Ready => EntryKind::Wait,
                Wait::Yielded => EntryKind::Yielded,
                Wait::Bsync(n) => EntryKind::Blocked(n),
                Wait::Bar | Wait::Warpsync(_) => EntryKind::AtBarrier,
            };
            out.push(StackEntry::new(kind, lanes, pc));
        }
        out.extend(current);
        out
    }
    fn depth(&self) -> usize {
        self.barriers.iter().filter(|b| !(**b & self.live).is_empty()).count()
    }
    fn lane_pc(&self, _prog: &Program, lane: u32) -> Option<Pc> {
        self.live.contains(lane).then(|| self.pcs[lane as usize])
    }
}
