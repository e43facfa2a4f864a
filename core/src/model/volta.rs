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
//! blocks, yields or exits, and at a split picks which side goes on (`GroupOrder`): as measured on
//! the H100, fewer lanes first and the fall-through side on a tie, resuming the group set aside
//! last; or the lowest pc; or round-robin in lane order. Lanes at the same pc run together, but
//! at a `BSYNC` or `EXIT` each group issues alone: lanes set aside there at a split issue it
//! themselves when resumed, and two groups set aside at one pc are merged when a third group is
//! set aside, as the H100's counts say (`docs/counters.md`).
//! Other instructions run as in the branch-only models (`flow`).

use alloc::format;
use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec;
use alloc::vec::Vec;

use super::flow::{exit_past_end, run_plain, CallStacks, Statics};
use super::lane_pcs::LanePcs;
use super::{plain_work, ControlError, Effects, EntryKind, GroupOrder, Issued, PlainFault, PlainStep, Reconvergence, StackEntry};
use crate::isa::{Barrier, Op, Pc, Src};
use crate::machine::{LaneList, LaneMask, Machine};
use crate::program::{PlainPcs, Program};

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

/// Which lanes wait for what, as one mask per kind of wait: the step asks "the ready lanes at
/// this pc" and "has every lane of `Bn` arrived", which are then a few mask operations. Every
/// live lane is in exactly one mask.
#[derive(Clone, PartialEq, Eq, Debug)]
struct Waits {
    ready: LaneMask,
    yielded: LaneMask,
    bsync: [LaneMask; Barrier::COUNT],
    bar: LaneMask,
    warpsync: LaneMask,
    /// Per lane at `WARPSYNC`: the lanes it waits for.
    warpsync_need: Vec<LaneMask>,
    /// Every lane at a `BSYNC`, `BAR.SYNC` or `WARPSYNC`: when none is, no barrier can open.
    blocked: LaneMask,
    /// Bit n set when lanes wait at `BSYNC Bn`.
    bsync_held: u16,
}

impl Waits {
    fn new(width: u32, live: LaneMask) -> Waits {
        Waits {
            ready: live,
            yielded: LaneMask::EMPTY,
            bsync: [LaneMask::EMPTY; Barrier::COUNT],
            bar: LaneMask::EMPTY,
            warpsync: LaneMask::EMPTY,
            warpsync_need: vec![LaneMask::EMPTY; width as usize],
            blocked: LaneMask::EMPTY,
            bsync_held: 0,
        }
    }

    fn mark(&mut self, lanes: LaneMask, wait: Wait) {
        if lanes.is_empty() {
            return;
        }
        self.ready = self.ready.without(lanes);
        self.yielded = self.yielded.without(lanes);
        for b in self.bsync.iter_mut() {
            *b = b.without(lanes);
        }
        self.bar = self.bar.without(lanes);
        self.warpsync = self.warpsync.without(lanes);
        match wait {
            Wait::Ready => self.ready |= lanes,
            Wait::Yielded => self.yielded |= lanes,
            Wait::Bsync(n) => self.bsync[n as usize % Barrier::COUNT] |= lanes,
            Wait::Bar => self.bar |= lanes,
            Wait::Warpsync(need) => {
                self.warpsync |= lanes;
                for l in lanes.iter() {
                    self.warpsync_need[l as usize] = need;
                }
            }
        }
        self.blocked = self.bsync.iter().fold(self.bar | self.warpsync, |a, &b| a | b);
        self.bsync_held = held_bits(&self.bsync, LaneMask(u64::MAX));
    }

    /// What lane `l` waits for (views and messages only).
    fn of(&self, l: u32) -> Wait {
        if self.yielded.contains(l) {
            Wait::Yielded
        } else if let Some(n) = self.bsync.iter().position(|b| b.contains(l)) {
            Wait::Bsync(n as u8)
        } else if self.bar.contains(l) {
            Wait::Bar
        } else if self.warpsync.contains(l) {
            Wait::Warpsync(self.warpsync_need[l as usize])
        } else {
            Wait::Ready
        }
    }
}

/// Bit n set when `masks[n]` has lanes of `live` (branch-free: it vectorises).
#[inline]
fn held_bits(masks: &[LaneMask; Barrier::COUNT], live: LaneMask) -> u16 {
    let mut bits = 0u16;
    for (n, m) in masks.iter().enumerate() {
        bits |= u16::from(m.0 & live.0 != 0) << n;
    }
    bits
}

/// A group set aside at a split, to be resumed when the running group blocks or ends.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct SetAside {
    pc: Pc,
    lanes: LaneMask,
    /// The split that set it aside (`ConvergenceBarriers::splits` then). When a group with a
    /// split after its own, resumed, releases a barrier, the H100's counters count the lanes
    /// that waited there as issuing the `BSYNC` again (`Effects::recounted`).
    split: u64,
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ConvergenceBarriers {
    pcs: LanePcs,
    waits: Waits,
    barriers: [LaneMask; Barrier::COUNT],
    /// The convergence point each `BSSY` named, for the view.
    targets: [Pc; Barrier::COUNT],
    /// Those of barriers saved to a register (`BMOV.32.CLEAR Rd, Bn`), the last on top, for
    /// when the barrier is restored (`BMOV.32 Bn, Ra`).
    saved_targets: Vec<(usize, Pc)>,
    /// The pc of the group that runs next; `None` when no lane can run.
    current: Option<Pc>,
    /// Groups set aside at splits, the last one on top (the H100 schedule resumes it first,
    /// its lanes alone where they issue alone: `BSYNC`, `EXIT`).
    deferred: Vec<SetAside>,
    /// Splits so far (under the H100 order): whether a split came after a set-aside group's
    /// is a comparison, not a pass over the set-aside groups at every split.
    splits: u64,
    /// Where the group running was resumed from `deferred`, if a later split came after it
    /// was set aside (`SetAside`); taken by its first step.
    resumed_after_split: Option<Pc>,
    /// The lanes of the group that ran last (round-robin goes on after them).
    last: LaneMask,
    /// How many barrier registers hold live lanes (the depth), counted again after a step that
    /// changed a barrier or retired lanes.
    held: usize,
    group_order: GroupOrder,
    /// Lanes at `BAR.SYNC` wait for the block (`release_barrier`), not only for this warp's lanes.
    hold_at_barrier: bool,
    calls: CallStacks,
    statics: Arc<Statics>,
}

impl ConvergenceBarriers {
    pub fn new(prog: &Program, m: &mut Machine, group_order: GroupOrder, hold_at_barrier: bool) -> ConvergenceBarriers {
        let live = m.live_lanes();
        let mut s = ConvergenceBarriers {
            pcs: LanePcs::new(prog.len(), live),
            waits: Waits::new(m.width, live),
            barriers: [LaneMask::EMPTY; Barrier::COUNT],
            targets: [Pc(0); Barrier::COUNT],
            saved_targets: Vec::new(),
            current: Some(Pc(0)),
            deferred: Vec::new(),
            splits: 0,
            resumed_after_split: None,
            last: LaneMask::EMPTY,
            held: 0,
            group_order,
            hold_at_barrier,
            calls: CallStacks::new(m.width),
            statics: Statics::of(prog),
        };
        s.settle(m, &mut Effects::default(), false, true);
        s
    }

    fn live(&self) -> LaneMask {
        self.pcs.live()
    }

    /// The live lanes at `pc` waiting for `w` (views and messages only).
    fn lanes_where(&self, pc: Pc, w: Wait) -> LaneMask {
        self.pcs.at(pc, self.live()).iter().filter(|&l| self.waits.of(l) == w).fold(LaneMask::EMPTY, |a, l| a.with(l))
    }

    fn ready_at(&self, pc: Pc) -> LaneMask {
        self.pcs.at(pc, self.waits.ready)
    }

    /// The lane that was released last and where it goes, after moving each of `lanes` past its pc.
    fn go_on(&mut self, lanes: LaneMask) -> Option<Pc> {
        self.pcs.advance(lanes);
        self.waits.mark(lanes, Wait::Ready);
        lanes.iter().last().map(|l| self.pcs.get(l))
    }

    /// Opens every barrier whose lanes have all arrived (or left, exited, yielded).
    fn release(&mut self, fx: &mut Effects) -> Option<Pc> {
        let live = self.live();
        if (self.waits.blocked & live).is_empty() {
            return None;
        }
        let mut released = None;
        let yielded = self.waits.yielded & live;
        let mut held = self.waits.bsync_held;
        while held != 0 {
            let n = held.trailing_zeros() as usize;
            held &= held - 1;
            let arrived = self.waits.bsync[n] & live;
            if arrived.is_empty() {
                continue;
            }
            let needed = self.barriers[n] & live;
            if needed.without(yielded).is_subset(arrived) {
                released = self.go_on(arrived).or(released);
                self.barriers[n] = self.barriers[n].without(arrived);
                fx.reconverged = true;
            }
        }
        let at_bar = self.waits.bar & live;
        if !self.hold_at_barrier && !live.is_empty() && at_bar == live {
            released = self.go_on(at_bar).or(released);
            fx.reconverged = true;
        }
        let at_warpsync = self.waits.warpsync & live;
        for l in at_warpsync.iter() {
            if (self.waits.warpsync_need[l as usize] & live).is_subset(at_warpsync) {
                released = self.go_on(LaneMask::lane(l)).or(released);
                fx.reconverged = true;
            }
        }
        released
    }

    /// Exits lanes past the end, opens barriers, and picks the group that runs next.
    /// `recount`: the step changed a barrier register.
    fn settle(&mut self, m: &mut Machine, fx: &mut Effects, switch: bool, recount: bool) {
        let live = self.live();
        exit_past_end(&mut self.pcs, m, fx);
        let released = self.release(fx);
        if recount || fx.reconverged || live != self.live() {
            self.held = held_bits(&self.barriers, self.live()).count_ones() as usize;
        }
        let keep = self.current.filter(|&pc| !switch && !self.ready_at(pc).is_empty());
        self.current = keep.or(released.filter(|&pc| !self.ready_at(pc).is_empty())).or_else(|| self.pick());
    }

    /// The next group at a switch point, by the schedule; yielded lanes run when nothing else can.
    fn pick(&mut self) -> Option<Pc> {
        let live = self.live();
        let mut ready = self.waits.ready & live;
        if ready.is_empty() {
            let yielded = self.waits.yielded & live;
            self.waits.mark(yielded, Wait::Ready);
            ready = yielded;
        }
        if ready.is_empty() {
            return None;
        }
        let lowest = self.pcs.lowest(ready);
        match self.group_order {
            GroupOrder::H100 => {
                while let Some(g) = self.deferred.pop() {
                    if !self.ready_at(g.pc).is_empty() {
                        self.last = g.lanes;
                        self.resumed_after_split = (g.split < self.splits).then_some(g.pc);
                        return Some(g.pc);
                    }
                }
                lowest
            }
            GroupOrder::LowestPc => lowest,
            GroupOrder::RoundRobin => {
                let after = self.last.iter().last().map_or(0, |l| l + 1);
                let w = self.waits.warpsync_need.len() as u32;
                (0..w).map(|i| (after + i) % w).find(|&l| ready.contains(l)).map(|l| self.pcs.get(l))
            }
        }
    }

    /// Which side of a split goes on; the others are set aside.
    fn choose(&mut self, groups: &[(LaneMask, Pc)], fall: Pc) -> Pc {
        let pick = match self.group_order {
            GroupOrder::H100 => groups.iter().min_by_key(|(l, p)| (l.count(), *p != fall)),
            GroupOrder::LowestPc => groups.iter().min_by_key(|(_, p)| p.0),
            GroupOrder::RoundRobin => groups.iter().find(|(_, p)| *p == fall).or(groups.first()),
        }
        .map(|g| g.1)
        .unwrap_or(fall);
        // Only the H100 order resumes set-aside groups; the others pick by pc or lane.
        if self.group_order != GroupOrder::H100 {
            return pick;
        }
        self.splits += 1;
        // The H100 keeps two groups set aside at one pc apart, not three: setting a third
        // aside merges them, and they issue their `BSYNC` as one (`examples/ncu`'s
        // probe_escape_groups, every one of its 248 launches).
        if let [.., below, top] = self.deferred.as_mut_slice() {
            if below.pc == top.pc {
                below.lanes |= top.lanes;
                self.deferred.pop();
            }
        }
        for &(lanes, pc) in groups.iter().rev() {
            if pc != pick {
                self.deferred.push(SetAside { pc, lanes, split: self.splits });
            }
        }
        pick
    }

    /// The groups of live lanes, each a pc and what its lanes wait for, lowest pc first.
    fn groups(&self) -> Vec<(Pc, Wait)> {
        let mut groups: Vec<(Pc, Wait)> = self.live().iter().map(|l| (self.pcs.get(l), self.waits.of(l))).collect();
        groups.sort_by_key(|(p, _)| p.0);
        groups.dedup();
        groups
    }

    fn describe_deadlock(&self, prog: &Program) -> String {
        let parts: Vec<String> = self
            .groups()
            .iter()
            .map(|&(pc, w)| {
                let lanes = self.lanes_where(pc, w);
                let text = prog.get(pc).map_or("", |i| i.text.as_str());
                let mut s = format!("lanes {} wait at `{text}` ({:#06x})", LaneList(lanes), prog.addr(pc));
                if let Wait::Bsync(n) = w {
                    let missing = (self.barriers[n as usize] & self.live()).without(lanes);
                    s += &format!(" for lanes {}", LaneList(missing));
                }
                s
            })
            .collect();
        format!("no lane can run: {}", parts.join("; "))
    }
}

impl Reconvergence for ConvergenceBarriers {
    // Inlined natively, a call in wasm: see `Reconvergence::step`.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn step(&mut self, prog: &Program, m: &mut Machine) -> Result<Issued, ControlError> {
        let Some(pc) = self.current else {
            return Err(ControlError::Deadlock(self.describe_deadlock(prog)));
        };
        let instr = prog.get(pc).ok_or_else(|| ControlError::Fault(format!("pc {} is outside the program", pc.0)))?;
        let mut lanes = self.ready_at(pc);
        let resumed_after_split = self.resumed_after_split.take() == Some(pc);
        let mut left_out = false;
        if matches!(instr.op, Op::Bsync { .. } | Op::Exit) {
            // The running group issues a `BSYNC` or `EXIT` alone: lanes set aside there earlier
            // (the other side of a split that went there) issue it again when they run, as the
            // H100 does (ncu counts each issue, `examples/ncu`).
            let own = lanes & self.last;
            if !own.is_empty() {
                left_out = own != lanes;
                lanes = own;
            }
        }
        let guarded = m.guard_mask(instr.guard, lanes);
        let mut fx = Effects { left_out, ..Effects::default() };
        let mut work = lanes;
        let mut switch = false;
        let mut waited = LaneMask::EMPTY;
        self.last = lanes;
        match instr.op {
            Op::Bssy { barrier, target } => {
                self.barriers[barrier.0 as usize % Barrier::COUNT] = guarded;
                self.targets[barrier.0 as usize % Barrier::COUNT] = target;
                self.pcs.move_group(lanes, pc, pc.next());
            }
            Op::Bsync { barrier } => {
                let n = barrier.0 % Barrier::COUNT as u8;
                waited = self.waits.bsync[n as usize] & self.live();
                let waiting = guarded & self.barriers[n as usize];
                self.waits.mark(waiting, Wait::Bsync(n));
                self.pcs.move_group(lanes.without(waiting), pc, pc.next());
                switch = !waiting.is_empty();
            }
            Op::Break { barrier } => {
                let n = barrier.0 as usize % Barrier::COUNT;
                self.barriers[n] = self.barriers[n].without(guarded);
                self.pcs.move_group(lanes, pc, pc.next());
            }
            Op::BmovRead { dst, barrier, clear } => {
                let n = barrier.0 as usize % Barrier::COUNT;
                let mask = (self.barriers[n] & self.live()).0 as u32;
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
                self.pcs.move_group(lanes, pc, pc.next());
            }
            Op::BmovWrite { barrier, src } => {
                let n = barrier.0 as usize % Barrier::COUNT;
                if let Some(l) = guarded.iter().next() {
                    self.barriers[n] = LaneMask(m.reg(l, src) as u64) & m.all_lanes();
                    if let Some(k) = self.saved_targets.iter().rposition(|&(b, _)| b == n) {
                        self.targets[n] = self.saved_targets.remove(k).1;
                    }
                }
                self.pcs.move_group(lanes, pc, pc.next());
            }
            Op::Warpsync { mask } => {
                let need = match mask {
                    Src::Imm(v) => LaneMask(v as u64),
                    Src::Reg { reg, .. } => LaneMask(lanes.iter().next().map_or(0, |l| m.reg(l, reg)) as u64),
                };
                self.waits.mark(guarded, Wait::Warpsync(need & m.all_lanes()));
                self.pcs.move_group(lanes.without(guarded), pc, pc.next());
                switch = !guarded.is_empty();
            }
            Op::Yield => {
                self.pcs.move_group(lanes, pc, pc.next());
                self.waits.mark(lanes, Wait::Yielded);
                switch = true;
            }
            Op::BarSync { .. } => {
                // Lanes whose guard fails pass.
                self.waits.mark(guarded, Wait::Bar);
                self.pcs.move_group(lanes.without(guarded), pc, pc.next());
                switch = !guarded.is_empty();
            }
            _ => {
                let mv = run_plain(prog, &self.statics, &mut self.calls, m, pc, lanes)?;
                work = mv.work;
                if !mv.exited.is_empty() {
                    m.exited |= mv.exited;
                    fx.exited = true;
                    switch = mv.to.is_empty();
                }
                for &(group, to) in mv.to.iter() {
                    self.pcs.move_group(group, pc, to);
                }
                if mv.split() {
                    fx.divergent = true;
                    let chosen = self.choose(&mv.to, pc.next());
                    self.current = Some(chosen);
                    self.last = mv.to.iter().find(|(_, to)| *to == chosen).map_or(lanes, |&(group, _)| group);
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
        let recount = matches!(instr.op, Op::Bssy { .. } | Op::Break { .. } | Op::BmovRead { .. } | Op::BmovWrite { .. });
        self.settle(m, &mut fx, switch, recount);
        // A BSYNC whose lanes stay blocked is the extra instruction a split costs (the H100 issues
        // one per divergent exit event): like Kepler's DIV carrier, its issue is part of the
        // divergence cost.
        if let Op::Bsync { barrier } = instr.op {
            let n = barrier.0 as usize % Barrier::COUNT;
            fx.div_carrier = !self.pcs.at(pc, lanes & self.waits.bsync[n]).is_empty();
            // This issue released the lanes that waited: counted again by the H100 when the
            // group issuing it had been set aside before another split (`SetAside`).
            if resumed_after_split && (waited & self.waits.bsync[n]).is_empty() {
                fx.recounted = waited.count() as u8;
            }
        }
        Ok(Issued { pc, mask: lanes, work, effects: fx })
    }

    /// A plain instruction: the running group moves on (joining lanes already at the next pc, as
    /// in `step`) and keeps running. `settle` would change nothing: no lane left or arrived
    /// anywhere, and the barriers' releases depend only on waits, which did not change.
    #[inline(always)]
    fn step_plain(&mut self, prog: &Program, m: &mut Machine, plain: &PlainPcs) -> Option<Result<PlainStep, PlainFault>> {
        let pc = self.current?;
        if !plain.at(pc) {
            return None;
        }
        let lanes = self.ready_at(pc);
        self.last = lanes;
        let work = match plain_work(prog, m, plain, pc, lanes)? {
            Ok(work) => work,
            Err(e) => return Some(Err(e)),
        };
        self.pcs.move_group(lanes, pc, pc.next());
        self.current = Some(pc.next());
        Some(Ok(PlainStep { pc, mask: lanes, work }))
    }

    fn finished(&self) -> bool {
        self.live().is_empty()
    }
    fn pc(&self) -> Option<Pc> {
        if self.live().is_empty() {
            return None;
        }
        // Stuck: point at the lowest waiting lane, where the deadlock is reported.
        self.current.or_else(|| self.pcs.lowest(self.live()))
    }
    fn active(&self) -> LaneMask {
        self.current.map_or(LaneMask::EMPTY, |pc| self.ready_at(pc))
    }
    fn stack(&self) -> Vec<StackEntry> {
        let live = self.live();
        let mut out: Vec<StackEntry> = (0..Barrier::COUNT)
            .filter(|&n| !(self.barriers[n] & live).is_empty())
            .map(|n| StackEntry::new(EntryKind::Barrier(n as u8), self.barriers[n] & live, self.targets[n]))
            .collect();
        let mut groups: Vec<(Pc, Wait)> = live.iter().map(|l| (self.pcs.get(l), self.waits.of(l))).collect();
        groups.sort_by_key(|g| core::cmp::Reverse(g.0 .0));
        groups.dedup();
        let mut current = None;
        for (pc, w) in groups {
            let lanes = self.lanes_where(pc, w);
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
        self.held
    }
    fn lane_pc(&self, _prog: &Program, lane: u32) -> Option<Pc> {
        self.pcs.lane(lane)
    }
    fn at_barrier(&self) -> LaneMask {
        self.waits.bar & self.live()
    }
    fn release_barrier(&mut self, _prog: &Program, _m: &mut Machine) {
        let released = self.go_on(self.at_barrier());
        self.held = held_bits(&self.barriers, self.live()).count_ones() as usize;
        self.current = self.current.or(released.filter(|&pc| !self.ready_at(pc).is_empty())).or_else(|| self.pick());
    }
}
