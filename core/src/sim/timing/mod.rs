//! A latency-aware timing model of one warp on an H100 (sm_90), calibrated on the GPU.
//!
//! One instruction issues per cycle at most. An instruction issues once the registers and
//! predicates it reads are ready (each result is ready its class's latency after its writer
//! issued; a branch waits longer for its predicate), once its pipe is free (each pipe stays busy
//! its interval) and once the control cost of the instruction before it has passed (a taken or
//! untaken branch, a split, a group that blocks and gives way to another, BSSY, BSYNC, BAR).
//! Global loads take the L2's latency: the buffers start in L2 (the host wrote them just before
//! the launch) and what the kernel touches stays there; DRAM's latency is for lines taken out of
//! L2 before the launch (`evict`, the calibration's cold chase). There is no L1: the
//! calibration's re-reads did not hit it. The clock that
//! `CS2R`/`S2R SR_CLOCKLO` read is the issue cycle. Parameters: `params`, from the data file.

pub mod class;
pub mod fit;
pub mod params;

use alloc::boxed::Box;
use alloc::vec::Vec;

use crate::isa::{Barrier, Op, Pc, Pred, Uses};
use crate::machine::{LaneMask, Machine, SEGMENT_BYTES};
use crate::program::Program;
pub use class::{Class, Pipe};
pub use params::{Params, P};

const NONE: u32 = u32::MAX;

/// Why an instruction issued later than the cycle after the one before it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(tag = "kind", rename_all = "snake_case"))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Wait {
    /// Nothing held it: it issued as soon as the instruction before it let it.
    None,
    /// A register written by the instruction at `writer` was not ready.
    Register { reg: u8, writer: u32 },
    /// A predicate written by the instruction at `writer` was not ready.
    Predicate { pred: u8, writer: u32 },
    /// Its pipe was still busy with an earlier instruction.
    Pipe,
    /// A BSYNC waits for the results of the instructions before it.
    Results,
    /// The next 128-byte line of code had not arrived after a jump.
    Fetch,
    /// A BSSY waits for a BAR.SYNC or WARPSYNC before it to complete.
    Barrier,
}

/// What held the step before this one back from issuing the next instruction a cycle later.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum After {
    Nothing,
    BranchTaken,
    BranchNotTaken,
    Divergence,
    Switch,
    /// A BSYNC released lanes parked at it that had joined a group which blocked there: the
    /// GPU switches to them and they issue their own BSYNC.
    Release,
    Bsync,
    Bssy,
    Barrier,
    Clock,
    /// An instruction that stands for a sequence (warpscope's `IDIV`, `FDIV`) issues its length.
    Sequence,
}

/// How one step's instruction was timed.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct StepTime {
    /// The cycle it issued (what a clock read by it returns).
    pub issue: u64,
    /// Cycles since the instruction before it issued.
    pub gap: u64,
    /// Of `gap`, the cycles the instruction before it held issue back (`after`).
    pub control: u64,
    pub after: After,
    /// Of `gap`, the cycles it waited for `wait`.
    pub stall: u64,
    pub wait: Wait,
    /// Its class (`fp32`, `global load`, ...).
    pub class: &'static str,
    /// The latency of its result, in cycles (0 when it writes none).
    pub latency: u64,
}

/// The timing of a warp so far: plain data, cloned with every checkpoint.
#[derive(Clone, PartialEq, Debug)]
pub struct TimingState {
    params: Params,
    /// The earliest cycle the next instruction may issue.
    next: u64,
    after: After,
    last_issue: u64,
    pipe_free: [u64; Pipe::COUNT],
    reg_ready: [u64; 256],
    reg_writer: [u32; 256],
    pred_ready: [u64; Pred::FILE],
    pred_written: [u64; Pred::FILE],
    pred_writer: [u32; Pred::FILE],
    /// When the results of fixed-latency instructions issued so far are all ready.
    results_ready: u64,
    /// The lanes of the last step.
    last_ran: LaneMask,
    /// Bit n: the join of lanes parked at `BSYNC Bn` was charged (at the first group's issue).
    joined: u16,
    /// The earliest cycle the next branch may issue.
    branch_free: u64,
    /// The earliest cycle the next BSSY may issue (after a BAR.SYNC or WARPSYNC).
    bssy_free: u64,
    /// Convergence barriers (a bit each) where parked lanes joined a group that then blocked at
    /// the BSYNC: their release costs more.
    late_join: u16,
    /// The last step jumped (a taken branch, a group switch): the next instruction is its target.
    redirected: bool,
    /// The earliest issue of the instruction after a jump target in the last slot of its line.
    line_ready: u64,
    /// Global 128-byte lines the kernel touched, sorted: in L2 from then on.
    lines: Vec<u32>,
    /// Lines of the buffers the host wrote before the launch (in L2), as ranges of lines.
    resident: Vec<(u32, u32)>,
    /// Lines taken out of L2 before the launch (`evict`), as ranges.
    evicted: Vec<(u32, u32)>,
    /// The issue worked out before the step, for the step after to finish.
    pending: Option<Pending>,
    pub last: Option<StepTime>,
}

#[derive(Clone, Copy, PartialEq, Debug)]
struct Pending {
    pc: Pc,
    issue: u64,
    stall: u64,
    wait: Wait,
    /// A global load whose lines were all touched before (L2) or not.
    touched: bool,
    class: Class,
}

impl TimingState {
    pub fn new(params: Params) -> Box<TimingState> {
        Box::new(TimingState {
            params,
            next: 0,
            after: After::Nothing,
            last_issue: 0,
            pipe_free: [0; Pipe::COUNT],
            reg_ready: [0; 256],
            reg_writer: [NONE; 256],
            pred_ready: [0; Pred::FILE],
            pred_written: [0; Pred::FILE],
            pred_writer: [NONE; Pred::FILE],
            results_ready: 0,
            branch_free: 0,
            bssy_free: 0,
            late_join: 0,
            last_ran: LaneMask::EMPTY,
            joined: 0,
            redirected: false,
            line_ready: 0,
            lines: Vec::new(),
            resident: Vec::new(),
            evicted: Vec::new(),
            pending: None,
            last: None,
        })
    }

    /// The global buffers the host wrote before the launch start in L2.
    pub fn with_buffers(mut self: Box<Self>, memory: &crate::machine::Memory) -> Box<Self> {
        self.resident = memory
            .buffers
            .iter()
            .filter(|b| b.space != crate::isa::Space::Shared)
            .map(|b| (b.base / 128, (b.base + 4 * b.len).div_ceil(128)))
            .collect();
        self
    }

    /// Takes the bytes `from..to` out of L2 before the run (a cache flushed by the host).
    pub fn evict(&mut self, from: u32, to: u32) {
        self.evicted.push((from / 128, to.div_ceil(128)));
    }

    fn in_l2(&self, line: u32) -> bool {
        let within = |r: &[(u32, u32)]| r.iter().any(|&(a, b)| (a..b).contains(&line));
        self.lines.binary_search(&line).is_ok() || (!within(&self.evicted) && within(&self.resident))
    }

    /// The bytes a checkpoint of this state holds.
    pub fn approx_bytes(&self) -> usize {
        core::mem::size_of::<TimingState>() + 4 * self.lines.len()
    }

    /// The cycle the next instruction may issue at the earliest (the warp's clock between steps).
    pub fn now(&self) -> u64 {
        self.next
    }

    /// Before `lanes` run the instruction at `pc`: the cycle it issues, which its clock reads see.
    pub fn before(&mut self, program: &Program, pc: Pc, lanes: LaneMask, m: &Machine) -> u64 {
        let Some(instr) = program.get(pc) else { return self.next };
        if program.continues(pc) {
            // A later part of one SASS instruction: it issued with the first part.
            return self.last_issue;
        }
        let (uses, class) = sequence_uses(program, pc);
        let p = &self.params;
        let mut issue = self.next;
        let mut wait = Wait::None;
        for r in uses.reads.regs() {
            if self.reg_ready[r.0 as usize] > issue {
                issue = self.reg_ready[r.0 as usize];
                wait = Wait::Register { reg: r.0, writer: self.reg_writer[r.0 as usize] };
            }
        }
        // A branch issues before its predicate is ready: the predicate resolves it (`after`).
        let branch = matches!(instr.op, Op::Bra { .. });
        for q in uses.reads.preds().filter(|_| !branch) {
            let i = q.0 as usize;
            let ready = self.pred_ready[i];
            if self.pred_writer[i] != NONE && ready > issue {
                issue = ready;
                wait = Wait::Predicate { pred: q.0, writer: self.pred_writer[i] };
            }
        }
        let pipe = class.pipe() as usize;
        if class.pipe() != Pipe::None && self.pipe_free[pipe] > issue {
            issue = self.pipe_free[pipe];
            wait = Wait::Pipe;
        }
        // A BSYNC waits for the results still in flight: the lanes it joins have finished what
        // they issued. (A branch issues and is resolved by them: `after`.)
        if matches!(instr.op, Op::Bsync { .. }) && self.results_ready > issue {
            issue = self.results_ready + p.get(P::BranchInFlight);
            wait = Wait::Results;
        }
        if branch && self.branch_free > issue {
            issue = self.branch_free;
            wait = Wait::Pipe;
        }
        if matches!(instr.op, Op::Bssy { .. }) && self.bssy_free > issue {
            issue = self.bssy_free;
            wait = Wait::Barrier;
        }
        if self.line_ready > issue {
            issue = self.line_ready;
            wait = Wait::Fetch;
        }
        // The 128-byte lines a memory instruction touches, read as the data path will read them;
        // a global load's latency is L2's only if all of them are in L2.
        let touched = match crate::machine::access(m, instr, lanes).filter(|_| class != (Class::Load { shared: true })) {
            Some(a) => {
                let lines: Vec<u32> = a.touches.iter().map(|t| t.addr / SEGMENT_BYTES).collect();
                let all = lines.iter().all(|l| self.in_l2(*l));
                lines.into_iter().for_each(|l| self.touch(l));
                all
            }
            None => true,
        };
        self.pending = Some(Pending { pc, issue, stall: issue - self.next, wait, touched, class });
        issue
    }

    fn touch(&mut self, line: u32) {
        if let Err(at) = self.lines.binary_search(&line) {
            self.lines.insert(at, line);
        }
    }

    /// After the step that ran `pc`: results' ready times and what the next instruction waits
    /// for. `next` is where the warp goes on (pc and lanes), `divergent` whether it split.
    /// Returns the cycles the step took (since the issue of the step before).
    pub fn after(&mut self, program: &Program, pc: Pc, ran: LaneMask, next: Option<(Pc, LaneMask)>, fx: &crate::model::Effects) -> u64 {
        let divergent = fx.divergent;
        let Some(instr) = program.get(pc) else { return 0 };
        let p = self.params;
        let pending = self.pending.take().filter(|x| x.pc == pc);
        if matches!(instr.op, Op::Bsync { .. }) && next.is_some_and(|(n, lanes)| n == pc && !lanes.is_empty() && (lanes & ran).is_empty()) {
            // A group that blocks at a BSYNC where parked lanes issue it next: the H100's cost
            // of the two issues was measured as one join, which the parked lanes' step carries.
            return 0;
        }
        let continues = program.continues(pc);
        let issue = match pending {
            Some(x) => x.issue,
            None => self.last_issue.max(if continues { 0 } else { self.next }),
        };
        let class = match pending {
            Some(x) => x.class,
            None if continues => head_class(program, pc),
            None => Class::of(instr),
        };
        let latency = match class {
            Class::Load { shared: false } => {
                let touched = pending.is_none_or(|x| x.touched);
                p.get(if touched { P::LatL2 } else { P::LatDram })
            }
            c => c.latency().map_or(0, |l| p.get(l)),
        };
        let uses = instr.uses();
        for r in uses.writes.regs() {
            self.reg_ready[r.0 as usize] = issue + latency;
            self.reg_writer[r.0 as usize] = pc.0;
        }
        // A branch waits for register results still in flight (its own predicate resolves it).
        if !matches!(class, Class::Load { .. } | Class::Clock) && uses.writes.regs().next().is_some() {
            self.results_ready = self.results_ready.max(issue + latency);
        }
        for q in uses.writes.preds() {
            self.pred_ready[q.0 as usize] = issue + latency;
            self.pred_written[q.0 as usize] = issue;
            self.pred_writer[q.0 as usize] = pc.0;
        }
        let gap = issue - self.last_issue;
        if continues {
            return 0;
        }
        if let Some(interval) = class.pipe().interval() {
            self.pipe_free[class.pipe() as usize] = issue + p.get(interval);
        }
        if matches!(instr.op, Op::Bra { .. }) {
            self.branch_free = issue + p.get(P::BranchInterval);
        }
        if matches!(instr.op, Op::BarSync { .. } | Op::Warpsync { .. }) {
            self.bssy_free = issue + p.get(P::BarrierToBssy);
        }
        let (mut after, cost, redirect) = control_cost(&p, program, pc, ran, next, divergent);
        let mut cost = cost.max(instr.op.issues() as u64).max(1);
        if let Op::Bsync { barrier } = instr.op {
            // Lanes parked at this BSYNC join the first group that reaches it, as the H100's
            // times say: that group blocks, the parked lanes are switched to and issue their own
            // BSYNC. The model issues theirs as a step of its own, later (`left_out` on the
            // first group's); the join is charged once, at the first.
            let bit = 1u16 << (barrier.0 as usize % Barrier::COUNT);
            let parked_join = !self.last_ran.is_empty() && !ran.without(self.last_ran).is_empty();
            if (fx.left_out || parked_join) && self.joined & bit == 0 {
                cost += p.get(P::Switch) + p.get(P::SwitchToBarrier);
                after = After::Switch;
                self.joined |= bit;
            }
            // When that BSYNC does not release them (a lane is still in a loop, say), the GPU's
            // release later costs a switch and a BSYNC more, as if the parked lanes had not
            // joined then but were switched to last (single_loop at n = 2..21, parked_loop).
            let releases = next.is_some_and(|(n, lanes)| n == pc.next() && !(lanes & ran).is_empty());
            if releases && self.late_join & bit != 0 {
                cost += p.get(P::Switch) + p.get(P::Bsync);
                after = After::Release;
            }
            if releases {
                self.late_join &= !bit;
                self.joined &= !bit;
            } else if parked_join || fx.left_out {
                self.late_join |= bit;
            }
        }
        self.last_ran = ran;
        // A branch is resolved once the results in flight when it issued are written.
        if matches!(instr.op, Op::Bra { .. }) && self.results_ready > issue {
            cost = cost.max(self.results_ready + p.get(P::BranchInFlight) - issue);
        }
        if let (Op::Bra { .. }, Some(g)) = (instr.op, instr.guard.filter(|g| !g.pred.is_true())) {
            let i = g.pred.0 as usize;
            if self.pred_writer[i] != NONE {
                let resolve = self.pred_written[i] + p.get(if redirect { P::ResolveTaken } else { P::ResolveNotTaken });
                cost = cost.max(resolve.saturating_sub(issue));
            }
        }
        // A jump's target in the last slot of its line: the next line comes later.
        self.line_ready = if self.redirected && program.addr(pc) % 128 == 112 { issue + p.get(P::LineEnd) } else { 0 };
        self.redirected = redirect;
        let stamp = StepTime {
            issue,
            gap,
            control: gap - pending.map_or(0, |x| x.stall).min(gap),
            after: self.after,
            stall: pending.map_or(0, |x| x.stall),
            wait: pending.map_or(Wait::None, |x| x.wait),
            class: class.name(),
            latency,
        };
        self.last = Some(stamp);
        self.after = if instr.op.issues() > 1 && after == After::Nothing { After::Sequence } else { after };
        self.last_issue = issue;
        self.next = issue + cost;
        gap
    }
}

/// What the instruction at `pc`, run by `ran`, holds the next issue back by, why, and whether
/// the warp jumps (the next instruction is not the one after it).
fn control_cost(p: &Params, program: &Program, pc: Pc, ran: LaneMask, next: Option<(Pc, LaneMask)>, divergent: bool) -> (After, u64, bool) {
    let instr = &program.instrs[pc.index()];
    let switched = next.is_some_and(|(_, lanes)| (lanes & ran).is_empty());
    let jumps = next.is_some_and(|(n, _)| n != pc.next());
    match instr.op {
        _ if switched => (After::Switch, p.get(P::Switch), jumps),
        Op::Bra { .. } | Op::Cal { .. } | Op::Ret => {
            let cost = p.get(if jumps { P::BranchTaken } else { P::BranchNotTaken });
            let after = match (divergent, jumps) {
                (true, _) => After::Divergence,
                (false, true) => After::BranchTaken,
                (false, false) => After::BranchNotTaken,
            };
            (after, cost, jumps)
        }
        Op::Bsync { .. } | Op::Warpsync { .. } => (After::Bsync, p.get(P::Bsync), jumps),
        Op::Bssy { .. } => (After::Bssy, p.get(P::Bssy), false),
        Op::BarSync { .. } => (After::Barrier, p.get(P::Barrier), false),
        _ => (After::Nothing, 1, jumps),
    }
}

/// The reads of the SASS instruction starting at `pc` (all its parts, less what earlier parts
/// wrote) and its class.
fn sequence_uses(program: &Program, pc: Pc) -> (Uses, Class) {
    let head = &program.instrs[pc.index()];
    let mut uses = head.uses();
    let mut k = pc.next();
    while program.continues(k) {
        let part = program.instrs[k.index()].uses();
        uses.reads = uses.reads.union(&part.reads.without(&uses.writes));
        uses.writes = uses.writes.union(&part.writes);
        k = k.next();
    }
    (uses, Class::of(head))
}

fn head_class(program: &Program, mut pc: Pc) -> Class {
    while pc.0 > 0 && program.continues(pc) {
        pc = Pc(pc.0 - 1);
    }
    Class::of(&program.instrs[pc.index()])
}

/// "cycle 312, +15: 1 after the ISETP, waited 14 for P0 (written at 0x0110)": how a step was
/// timed, in words, for the trace and the page.
pub fn describe(t: &StepTime, program: &Program) -> alloc::string::String {
    use alloc::format;
    let at = |pc: u32| format!("{:#06x}", program.addr(Pc(pc)));
    let after = match t.after {
        After::Nothing => "",
        After::BranchTaken => " after a taken branch",
        After::BranchNotTaken => " after an untaken branch",
        After::Divergence => " after the split",
        After::Switch => " switching to these lanes",
        After::Release => " after BSYNC released the lanes parked at it (a switch to them and their own BSYNC)",
        After::Bsync => " after BSYNC",
        After::Bssy => " after BSSY",
        After::Barrier => " after BAR.SYNC",
        After::Clock => " after a clock read",
        After::Sequence => " after an instruction sequence",
    };
    let mut s = format!("cycle {}, +{}: {}{after}", t.issue, t.gap, t.control);
    match t.wait {
        Wait::None => {}
        Wait::Register { reg, writer } => s += &format!(", waited {} for R{reg} (written at {})", t.stall, at(writer)),
        Wait::Predicate { pred, writer } => s += &format!(", waited {} for P{pred} (written at {})", t.stall, at(writer)),
        Wait::Pipe => s += &format!(", waited {} for the {} pipe", t.stall, t.class),
        Wait::Results => s += &format!(", waited {} for the results in flight", t.stall),
        Wait::Fetch => s += &format!(", waited {} for the next line of code", t.stall),
        Wait::Barrier => s += &format!(", waited {} for the BAR.SYNC or WARPSYNC before it", t.stall),
    }
    s
}

#[cfg(test)]
mod tests;
