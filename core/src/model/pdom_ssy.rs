//! The PDOM stack driven by the compiler's `SSY` instructions instead of the analysis, with the
//! stack operations of the course notes ("divergent flow, part two"):
//!
//! - entries are (mask, next pc, reconvergence pc); the top entry runs; the first entry holds
//!   every lane, the start of the program and the end as its reconvergence pc;
//! - `SSY L` pops the top entry (m, npc, r) and pushes (m, L, r), which resumes after the region,
//!   and (m, npc + 1, L), which runs the region;
//! - a divergent `BRA` pops the top entry (m, npc, r) and pushes (not taken, npc + 1, r) and
//!   (taken, target, r); the taken path runs first unless the path order says otherwise;
//! - `SYNC` (and any instruction with the `.S` bit, after it runs) pops the top entry.
//!
//! `PBK`/`PCNT`/`CAL` push like `SSY`; `BRK`/`CONT`/`RET` take their lanes out of every entry
//! above the nearest `PBK`/`PCNT`/`CAL` entry, which brings them back at its pc once the
//! entries above drain.
//! Entries whose lanes have all exited or left are popped.
//!
//! An entry that comes back to the top runs the code after its region: it is a `PATH` from then
//! on, so a later `BRK`/`CONT`/`RET` goes past it to the region that really waits for its lanes.

use alloc::format;
use alloc::vec::Vec;

use super::pdom::{exit, resume_pc, view, Entry};
use super::{
    plain_next, plain_work, ControlError, Effects, EntryKind, Issued, PathOrder, PlainFault, PlainStep, Reconvergence, StackEntry,
    TokenKind,
};
use crate::isa::{Op, Pc};
use crate::machine::{execute, LaneMask, Machine};
use crate::program::{PlainPcs, Program};

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SsyStack {
    entries: Vec<Entry>,
    order: PathOrder,
}

fn fault(prog: &Program, pc: Pc, what: &str) -> ControlError {
    let text = prog.get(pc).map_or("", |i| i.text.as_str());
    ControlError::Fault(format!("`{text}` at {:#06x}: {what}", prog.addr(pc)))
}

impl SsyStack {
    pub fn new(prog: &Program, m: &mut Machine, order: PathOrder) -> SsyStack {
        let end = Pc(prog.len() as u32);
        let base = Entry { mask: m.live_lanes(), pc: Pc(0), rpc: Some(end), kind: EntryKind::Reconv };
        let mut s = SsyStack { entries: alloc::vec![base], order };
        s.settle(prog, m, &mut Effects::default());
        s
    }

    /// Pops entries with no lanes left and exits lanes that ran off the end, until the top entry
    /// can run; a token entry that reaches the top resumes as a `PATH`.
    fn settle(&mut self, prog: &Program, m: &mut Machine, fx: &mut Effects) {
        while let Some(top) = self.entries.last_mut() {
            let lanes = top.mask.without(m.exited);
            if lanes.is_empty() {
                self.entries.pop();
                fx.pops += 1;
            } else if top.pc.index() >= prog.len() {
                exit(&mut self.entries, m, lanes, fx);
            } else {
                // Its region is over: left as a token, it would catch the BRK, CONT or RET meant
                // for the enclosing region (those lanes would run on instead of leaving).
                if let EntryKind::Token(_) = top.kind {
                    top.kind = EntryKind::Path;
                }
                return;
            }
        }
    }

    fn push(&mut self, e: Entry, fx: &mut Effects) {
        self.entries.push(e);
        fx.pushes += 1;
    }

    /// `SSY`, `PBK`, `PCNT`: the top entry becomes the region's resume entry plus its body.
    fn open(&mut self, kind: TokenKind, target: Pc, pc: Pc, fx: &mut Effects) {
        let top = self.entries.pop().expect("settled stack has a top");
        fx.pops += 1;
        self.push(Entry { mask: top.mask, pc: target, rpc: top.rpc, kind: EntryKind::Token(kind) }, fx);
        self.push(Entry { mask: top.mask, pc: pc.next(), rpc: Some(target), kind: EntryKind::Path }, fx);
    }

    /// `BRK`/`CONT`: `lanes` leave every entry above the nearest entry of `kind`.
    fn leave(&mut self, prog: &Program, pc: Pc, lanes: LaneMask, kind: TokenKind) -> Result<(), ControlError> {
        let Some(at) = self.entries.iter().rposition(|e| e.kind == EntryKind::Token(kind)) else {
            let opener = match kind {
                TokenKind::Break => "PBK",
                TokenKind::Cont => "PCNT",
                _ => "CAL",
            };
            return Err(fault(prog, pc, &format!("no {opener} entry on the stack to return to")));
        };
        for e in &mut self.entries[at + 1..] {
            e.mask = e.mask.without(lanes);
        }
        Ok(())
    }
}

impl Reconvergence for SsyStack {
    // Inlined natively, a call in wasm: see `Reconvergence::step`.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn step(&mut self, prog: &Program, m: &mut Machine) -> Result<Issued, ControlError> {
        let top = *self.entries.last().ok_or_else(|| ControlError::Fault("the stack is empty".into()))?;
        let pc = top.pc;
        let instr = prog.get(pc).ok_or_else(|| ControlError::Fault(format!("pc {} is outside the program", pc.0)))?;
        let lanes = top.mask.without(m.exited);
        let guarded = m.guard_mask(instr.guard, lanes);
        let mut fx = Effects::default();
        let mut work = lanes;
        let last = self.entries.len() - 1;
        self.entries[last].pc = pc.next();
        if instr.pop {
            if !instr.op.is_control() {
                work = guarded;
                execute(m, instr, lanes)?;
            }
            if self.entries.len() == 1 {
                return Err(fault(prog, pc, "pops the warp's first entry (no SSY opened a region before it)"));
            }
            let popped = self.entries.pop().expect("more than one entry");
            // The popped lanes resume in an entry below (their region's); a branch outside any
            // SSY region leaves none, and those lanes would vanish.
            let below = self.entries.iter().fold(LaneMask::EMPTY, |a, e| a | e.mask);
            let lost = popped.mask.without(m.exited).without(below);
            if !lost.is_empty() {
                let lost = crate::machine::LaneList(lost);
                let why =
                    format!("pops {} {lost} that no SSY region holds (the branch that split them was outside any region)", lost.word());
                return Err(fault(prog, pc, &why));
            }
            fx.pops += 1;
            fx.reconverged = true;
        } else {
            match instr.op {
                Op::Ssy { target } => self.open(TokenKind::Sync, target, pc, &mut fx),
                Op::Pbk { target } => self.open(TokenKind::Break, target, pc, &mut fx),
                Op::Pcnt { target } => self.open(TokenKind::Cont, target, pc, &mut fx),
                Op::Bra { target, uniform } => {
                    if guarded == lanes {
                        self.entries[last].pc = target;
                    } else if !uniform && !guarded.is_empty() {
                        let e = self.entries.pop().expect("top exists");
                        fx.pops += 1;
                        fx.divergent = true;
                        let not_taken = Entry { mask: lanes.without(guarded), pc: pc.next(), rpc: e.rpc, kind: EntryKind::Path };
                        let taken = Entry { mask: guarded, pc: target, rpc: e.rpc, kind: EntryKind::Path };
                        let (first, second) = if self.order == PathOrder::TakenFirst { (not_taken, taken) } else { (taken, not_taken) };
                        self.push(first, &mut fx);
                        self.push(second, &mut fx);
                    }
                }
                Op::Brk if !guarded.is_empty() => self.leave(prog, pc, guarded, TokenKind::Break)?,
                Op::Cont if !guarded.is_empty() => self.leave(prog, pc, guarded, TokenKind::Cont)?,
                Op::Brk | Op::Cont => {}
                Op::Exit => exit(&mut self.entries, m, guarded, &mut fx),
                Op::BarSync { .. } if lanes != m.live_lanes() => {
                    let why = "wait in entries below and can never arrive first";
                    return Err(super::flow::barrier_deadlock(prog, pc, lanes, m.live_lanes(), why));
                }
                Op::Cal { target } => {
                    // Like SSY: the return entry resumes after the call once the callee's lanes leave.
                    let top = self.entries.pop().expect("settled stack has a top");
                    fx.pops += 1;
                    self.push(Entry { mask: top.mask, pc: pc.next(), rpc: top.rpc, kind: EntryKind::Token(TokenKind::Call) }, &mut fx);
                    self.push(Entry { mask: top.mask, pc: target, rpc: Some(pc.next()), kind: EntryKind::Path }, &mut fx);
                }
                Op::Ret if !guarded.is_empty() => self.leave(prog, pc, guarded, TokenKind::Call)?,
                Op::Ret => {}
                // No waiting on a stack: the data path checks that every lane of the mask is here.
                Op::Warpsync { .. } => execute(m, instr, lanes)?,
                Op::Bssy { .. } | Op::Bsync { .. } | Op::Break { .. } | Op::BmovRead { .. } | Op::BmovWrite { .. } => {
                    return Err(fault(prog, pc, "a convergence-barrier instruction of Volta and later GPUs (sm_70+); pdom-ssy runs the SSY/SYNC code of sm_62 and older: choose the volta model to run this code as its GPUs do"));
                }
                op if op.is_control() => {}
                _ => {
                    work = guarded;
                    execute(m, instr, lanes)?;
                }
            }
        }
        self.settle(prog, m, &mut fx);
        Ok(Issued { pc, mask: lanes, work, effects: fx })
    }

    /// A plain instruction run by a settled top entry (`settle` would turn a token into a path).
    /// The pc moves on before the data path runs, as in `step`.
    #[inline(always)]
    fn step_plain(&mut self, prog: &Program, m: &mut Machine, plain: &PlainPcs) -> Option<Result<PlainStep, PlainFault>> {
        let top = self.entries.last_mut()?;
        let (pc, lanes) = (top.pc, top.mask.without(m.exited));
        if !plain.at(pc) || lanes.is_empty() || matches!(top.kind, EntryKind::Token(_)) {
            return None;
        }
        top.pc = plain_next(prog, m, plain, pc, lanes)?;
        Some(plain_work(prog, m, plain, pc, lanes)?.map(|work| PlainStep { pc, mask: lanes, work }))
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

#[cfg(test)]
mod tests {
    use alloc::vec::Vec;

    use crate::kernel::{parse_kernel_with, SourceOptions};
    use crate::model::{EntryKind, ModelKind, Reconvergence, TokenKind};
    use crate::sim::StopReason;
    use crate::{launch, LaunchOptions};

    /// The `out` buffer after a run under `model`, C compiled for its target without if-conversion.
    fn out(text: &str, model: ModelKind) -> Vec<u32> {
        let opts = SourceOptions { target: Some(model.compile_target()), if_convert: Some(false), ..SourceOptions::default() };
        let (k, d) = parse_kernel_with(text, &opts);
        assert!(d.iter().all(|d| !d.is_error()), "{d:?}");
        let mut sim = launch(&k, &LaunchOptions { model: Some(model), step_limit: 10_000, ..LaunchOptions::default() }).unwrap();
        assert_eq!(sim.run_to_end(), StopReason::Exited, "{model:?}");
        sim.state().machine.memory.buffer("out").unwrap().1.to_vec()
    }

    /// An inner region ends, so its token entry comes back to the top and runs on; lanes 0 and 1
    /// then leave the outer region and must skip the store.
    const LEAVE_AFTER_INNER_REGION: &str = "//@ warp 4
//@ buffer out: i32[4]
//@ reg R10 = out
        S2R R0, SR_TID.X;
        ISCADD R1, R0, R10, 0x2;
        MOV32I R2, 0x1;
        OPEN `(.L_outer);
        OPEN `(.L_inner);
        SYNC;
.L_inner:
        ISETP.LT.AND P0, PT, R0, 0x2, PT;
   @P0  LEAVE;
        ST [R1], R2;
        SYNC;
.L_outer:
        EXIT;
";

    /// The same with calls: `f` calls `g`, and lanes 0 and 1 return from `f` after `g` returned.
    const RETURN_AFTER_INNER_CALL: &str = "//@ warp 4
//@ buffer out: i32[4]
//@ reg R10 = out
        S2R R0, SR_TID.X;
        ISCADD R1, R0, R10, 0x2;
        MOV32I R2, 0x1;
        CAL `(.L_f);
        EXIT;
.L_f:
        CAL `(.L_g);
        ISETP.LT.AND P0, PT, R0, 0x2, PT;
   @P0  RET;
        ST [R1], R2;
        RET;
.L_g:
        RET;
";

    /// The compiled form: the inner loop's back branch is uniform, so its PCNT entry runs the
    /// rest of the outer body, where a uniform `continue` must leave the outer loop's body.
    const CONTINUE_AFTER_INNER_LOOP: &str = "//@ warp 4
//@ buffer out: i32[4]
__global__ void k(int* out) {
    int t = threadIdx.x;
    for (int i = 0; i < 2; i++) {
        for (int j = 0; j < 2; j++) {
            if (t > 9) continue;
        }
        if (i == 0) continue;
        out[t] += 1;
    }
}
";

    #[test]
    fn a_token_entry_back_on_top_does_not_catch_the_enclosing_regions_leavers() {
        let brk = LEAVE_AFTER_INNER_REGION.replace("OPEN", "PBK").replace("LEAVE", "BRK");
        let cont = LEAVE_AFTER_INNER_REGION.replace("OPEN", "PCNT").replace("LEAVE", "CONT");
        for (name, text) in [("BRK", brk.as_str()), ("CONT", cont.as_str()), ("RET", RETURN_AFTER_INNER_CALL)] {
            assert_eq!(out(text, ModelKind::Kepler), [0, 0, 1, 1], "{name} under kepler");
            assert_eq!(out(text, ModelKind::PdomSsy), [0, 0, 1, 1], "{name} under pdom-ssy");
        }
        assert_eq!(out(CONTINUE_AFTER_INNER_LOOP, ModelKind::Kepler), [1; 4]);
        assert_eq!(out(CONTINUE_AFTER_INNER_LOOP, ModelKind::PdomSsy), [1; 4]);
    }

    #[test]
    fn a_token_entry_back_on_top_runs_as_a_path() {
        let text = LEAVE_AFTER_INNER_REGION.replace("OPEN", "PCNT").replace("LEAVE", "CONT");
        let (k, _) = parse_kernel_with(&text, &SourceOptions::default());
        let mut sim = launch(&k, &LaunchOptions { model: Some(ModelKind::PdomSsy), ..LaunchOptions::default() }).unwrap();
        while sim.step().is_some_and(|i| !sim.program().instrs[i.pc.index()].text.starts_with("SYNC")) {}
        let kinds: Vec<EntryKind> = sim.state().model.stack().iter().map(|e| e.kind).collect();
        assert_eq!(kinds, [EntryKind::Token(TokenKind::Cont), EntryKind::Path]);
    }
}
