//! What the models without a token stack share: the static facts they read (reconvergence pcs,
//! thread frontiers, where token instructions jump) and one function that runs an instruction
//! for a set of lanes and says where each lane goes next.
//!
//! These models run branch-only code (a C kernel compiles to it for them), and they also run
//! token-stack listings by reading each token instruction as the edge the CFG draws for it: a
//! pop (`SYNC`, `.S`) jumps to its region's `SSY` target, `BRK`/`CONT` jump to their `PBK`/`PCNT`
//! target, and `SSY`/`PBK`/`PCNT` do nothing. Convergence-barrier instructions are no-ops for
//! them, and `WARPSYNC` only checks that its mask's lanes are all here (the Volta model handles
//! its own before calling here). Calls keep a return stack per lane.

use alloc::format;
use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec;
use alloc::vec::Vec;

use super::lane_pcs::LanePcs;
use super::ControlError;
use crate::analysis::{cfg_facts, PostDom};
use crate::cfg::{build::unwind_targets, BlockId};
use crate::isa::{Op, Pc};
use crate::machine::{execute, LaneMask, Machine};
use crate::program::Program;

/// The deepest call nesting a lane may reach (recursion is refused by the compiler; a listing
/// that recurses stops here with a message instead of growing without bound).
pub const MAX_CALL_DEPTH: usize = 64;

/// Facts about the program, computed once per run and shared by every checkpoint.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Statics {
    /// Per pc: where a pop, `BRK` or `CONT` there jumps when read as a branch.
    pub unwind: Vec<Option<Pc>>,
    /// Per pc: where lanes that split at this pc meet again (the start of the immediate
    /// post-dominator of its block); `None` when they only meet at the exit.
    pub rpc: Vec<Option<Pc>>,
    /// Per pc: the block it is in.
    pub block_of: Vec<BlockId>,
    /// Per block: its first instruction.
    pub block_start: Vec<Pc>,
    /// Per block: the blocks of its thread frontier (layout order is priority).
    pub frontier: Vec<Vec<BlockId>>,
}

impl Statics {
    pub fn of(prog: &Program) -> Arc<Statics> {
        let facts = cfg_facts(prog);
        let block_start: Vec<Pc> = facts.blocks.iter().map(|b| b.start).collect();
        let rpc = facts
            .graph
            .block_of
            .iter()
            .map(|b| match facts.blocks.get(b.index()).and_then(|f| f.ipdom) {
                Some(PostDom::Block(j)) => block_start.get(j.index()).copied(),
                _ => None,
            })
            .collect();
        Arc::new(Statics {
            unwind: unwind_targets(prog),
            rpc,
            block_of: facts.graph.block_of.clone(),
            block_start,
            frontier: facts.frontiers,
        })
    }

    pub fn rpc(&self, pc: Pc) -> Option<Pc> {
        self.rpc.get(pc.index()).copied().flatten()
    }

    /// The first instruction of the highest-priority block in the frontier of `pc`'s block.
    pub fn frontier_head(&self, pc: Pc) -> Option<Pc> {
        let b = self.block_of.get(pc.index())?;
        let first = self.frontier.get(b.index())?.first()?;
        self.block_start.get(first.index()).copied()
    }

    /// The frontier blocks of `pc`'s block.
    pub fn frontier_of(&self, pc: Pc) -> &[BlockId] {
        self.block_of.get(pc.index()).and_then(|b| self.frontier.get(b.index())).map_or(&[], |f| f.as_slice())
    }

    pub fn block_at(&self, pc: Pc) -> Option<BlockId> {
        self.block_of.get(pc.index()).copied()
    }
}

/// Each lane's return addresses, innermost last.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct CallStacks(Vec<Vec<Pc>>);

impl CallStacks {
    pub fn new(width: u32) -> CallStacks {
        CallStacks(vec![Vec::new(); width as usize])
    }
}

/// Where the lanes of one step go.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Moves {
    /// The lanes that did the instruction's work (guard held; every lane for control flow).
    pub work: LaneMask,
    /// Destination groups with distinct pcs, in the order the instruction names them: the branch
    /// target first, then the fall-through. Empty groups are left out.
    pub to: Dests,
    pub exited: LaneMask,
    /// The instruction is `BAR.SYNC`: the model decides (nothing was done).
    pub barrier: bool,
}

/// A step's destination groups without a heap allocation in the common case: a branch has at
/// most two; only a `RET` of lanes with different return addresses needs more.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Dests {
    inline: [(LaneMask, Pc); 2],
    len: u8,
    /// Every group, once there are more than two.
    spilled: Vec<(LaneMask, Pc)>,
}

impl Dests {
    fn push(&mut self, g: (LaneMask, Pc)) {
        if (self.len as usize) < self.inline.len() {
            self.inline[self.len as usize] = g;
            self.len += 1;
        } else {
            if self.spilled.is_empty() {
                self.spilled.extend_from_slice(&self.inline);
            }
            self.spilled.push(g);
        }
    }
}

impl core::ops::Deref for Dests {
    type Target = [(LaneMask, Pc)];
    fn deref(&self) -> &[(LaneMask, Pc)] {
        if self.spilled.is_empty() {
            &self.inline[..self.len as usize]
        } else {
            &self.spilled
        }
    }
}

impl core::ops::DerefMut for Dests {
    fn deref_mut(&mut self) -> &mut [(LaneMask, Pc)] {
        if self.spilled.is_empty() {
            &mut self.inline[..self.len as usize]
        } else {
            &mut self.spilled
        }
    }
}

impl Moves {
    #[inline(always)]
    fn go(&mut self, lanes: LaneMask, pc: Pc) {
        if lanes.is_empty() {
            return;
        }
        match self.to.iter_mut().find(|(_, p)| *p == pc) {
            Some(g) => g.0 |= lanes,
            None => self.to.push((lanes, pc)),
        }
    }
    /// True when the lanes went more than one way.
    pub fn split(&self) -> bool {
        self.to.len() > 1
    }
    /// The lanes that go on (not exited).
    pub fn staying(&self) -> LaneMask {
        self.to.iter().fold(LaneMask::EMPTY, |a, (l, _)| a | *l)
    }
}

fn at(prog: &Program, pc: Pc) -> String {
    format!("{:#06x}", prog.addr(pc))
}

/// Runs the instruction at `pc` for `lanes` (none of them exited) and says where each goes.
/// Inlined into each model's step: returned through memory, `Moves` stalled the next load
/// (a store-forwarding miss, a tenth of a per-lane model's step).
#[inline(always)]
pub fn run_plain(
    prog: &Program,
    st: &Statics,
    calls: &mut CallStacks,
    m: &mut Machine,
    pc: Pc,
    lanes: LaneMask,
) -> Result<Moves, ControlError> {
    let Some(instr) = prog.get(pc) else {
        return Err(ControlError::Fault(format!("pc {} is outside the program", pc.0)));
    };
    let mut mv = Moves { work: lanes, ..Moves::default() };
    let guarded = m.guard_mask(instr.guard, lanes);
    let unwind = || {
        st.unwind.get(pc.index()).copied().flatten().ok_or_else(|| {
            ControlError::Fault(format!("`{}` at {} has no SSY/PBK/PCNT before it to say where it goes", instr.text, at(prog, pc)))
        })
    };
    if instr.pop {
        if !instr.op.is_control() {
            mv.work = guarded;
            execute(m, instr, lanes)?;
        }
        mv.go(lanes, unwind()?);
        return Ok(mv);
    }
    match instr.op {
        Op::Bra { target, uniform: true } => mv.go(lanes, if guarded == lanes { target } else { pc.next() }),
        Op::Bra { target, .. } => {
            mv.go(guarded, target);
            mv.go(lanes.without(guarded), pc.next());
        }
        Op::Brk | Op::Cont => {
            if !guarded.is_empty() {
                mv.go(guarded, unwind()?);
            }
            mv.go(lanes.without(guarded), pc.next());
        }
        Op::Exit => {
            mv.exited = guarded;
            mv.go(lanes.without(guarded), pc.next());
        }
        Op::Cal { target } => {
            for l in lanes.iter() {
                let s = &mut calls.0[l as usize];
                if s.len() >= MAX_CALL_DEPTH {
                    return Err(ControlError::Fault(format!(
                        "CAL at {}: lane {l} is {MAX_CALL_DEPTH} calls deep (endless recursion?)",
                        at(prog, pc)
                    )));
                }
                s.push(pc.next());
            }
            mv.go(lanes, target);
        }
        Op::Ret => {
            for l in guarded.iter() {
                let Some(back) = calls.0[l as usize].pop() else {
                    return Err(ControlError::Fault(format!("RET at {}: lane {l} is not in a call", at(prog, pc))));
                };
                mv.go(LaneMask::lane(l), back);
            }
            mv.go(lanes.without(guarded), pc.next());
        }
        // No lane's guard holds: no lane arrives.
        Op::BarSync { .. } if guarded.is_empty() => mv.go(lanes, pc.next()),
        Op::BarSync { .. } => mv.barrier = true,
        Op::Ssy { .. }
        | Op::Pbk { .. }
        | Op::Pcnt { .. }
        | Op::Bssy { .. }
        | Op::Bsync { .. }
        | Op::Break { .. }
        | Op::BmovWrite { .. } => mv.go(lanes, pc.next()),
        // No barrier registers here: a saved barrier is an empty mask.
        Op::BmovRead { dst, .. } => {
            for l in guarded.iter() {
                m.set_reg(l, dst, 0);
            }
            mv.go(lanes, pc.next());
        }
        // WARPSYNC waits for nothing here (Volta and MIMD wait before calling this): the data
        // path checks that every lane of its mask runs it now.
        Op::Warpsync { .. } => {
            execute(m, instr, lanes)?;
            mv.go(lanes, pc.next());
        }
        Op::Yield | Op::Sync => mv.go(lanes, pc.next()),
        _ => {
            mv.work = guarded;
            execute(m, instr, lanes)?;
            mv.go(lanes, pc.next());
        }
    }
    Ok(mv)
}

/// Per-lane models: the live lanes whose pc ran past the last instruction exit, and every lane
/// that exited (this step, by `EXIT` or past the end) leaves the live set.
pub fn exit_past_end(pcs: &mut LanePcs, m: &mut Machine, fx: &mut super::Effects) {
    let past = pcs.past_end();
    if !past.is_empty() {
        m.exited |= past;
        fx.exited = true;
    }
    if !(pcs.live() & m.exited).is_empty() {
        pcs.retire(m.exited);
    }
}

/// The message for a `BAR.SYNC` reached by only part of the live lanes.
pub fn barrier_deadlock(prog: &Program, pc: Pc, arrived: LaneMask, live: LaneMask, why: &str) -> ControlError {
    use crate::machine::LaneList;
    ControlError::Deadlock(format!(
        "BAR.SYNC at {}: lanes {} arrived, but lanes {} {why}",
        at(prog, pc),
        LaneList(arrived),
        LaneList(live.without(arrived))
    ))
}
