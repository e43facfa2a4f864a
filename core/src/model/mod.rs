//! Reconvergence models: how a warp picks which lanes run which instruction next.
//!
//! Each model is one module behind the `Reconvergence` trait. Models take CFG facts from
//! `analysis` when they need them and never compute them themselves; the data path
//! (`machine::execute`) is shared.

pub mod about;
pub mod flow;
pub mod glossary;
pub mod hw_stack;
pub mod kepler;
pub mod lane_pcs;
pub mod mimd;
pub mod pdom;
pub mod pdom_ssy;
pub mod tf_sandy;
pub mod tf_stack;
pub mod volta;

use alloc::string::String;
use alloc::vec::Vec;

use crate::isa::{Op, Pc};
use crate::machine::{BadAccess, ExecError, LaneMask, Machine, MemberFault};
use crate::program::{PlainPcs, Program};
pub use about::{ModelAbout, Policy};
pub use glossary::{Term, TermKind, GLOSSARY};
pub use hw_stack::{StackConfig, Token, TokenKind};

/// What one step did to the control state, for metrics, the cost model and the timeline.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Effects {
    // The counters are not in the metrics' order on purpose: `pushes` and `pops` side by side were
    // read by the run loop as one 8-byte load right after the model stored them as two 4-byte
    // ones, a store-forwarding stall (2 % of a kepler run).
    pub pushes: u32,
    pub spills: u32,
    pub pops: u32,
    pub fills: u32,
    /// A branch split the active lanes.
    pub divergent: bool,
    /// A pop restored lanes that had been split off (a DIV token) or joined a region (SYNC).
    pub reconverged: bool,
    /// The instruction's issue is part of a divergence's cost: the carrier of a DIV-token pop
    /// (Kepler), or a BSYNC at which the issuing lanes stay blocked (Volta).
    pub div_carrier: bool,
    /// Lanes left the kernel.
    pub exited: bool,
    /// A `BSYNC` issued by the group that reached it without the lanes set aside there, which
    /// issue it themselves later (Volta, as the H100 does).
    pub left_out: bool,
    /// Lanes that waited at a `BSYNC` this issue released and that the H100's counters count
    /// as issuing it again (Volta): ncu's whole-launch thread metrics have them, its
    /// per-instruction source page does not (`counters::Counts::thread_recounted`).
    pub recounted: u8,
}

/// The instruction one step issued.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Issued {
    pub pc: Pc,
    /// The lanes that ran it (before its own guard).
    pub mask: LaneMask,
    /// The lanes that did its work: those whose guard held (every active lane for control flow).
    pub work: LaneMask,
    pub effects: Effects,
}

/// What a plain step issued (`Reconvergence::step_plain`): it had no effect on control flow.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PlainStep {
    pub pc: Pc,
    /// The lanes that ran it (before its own guard).
    pub mask: LaneMask,
    /// The lanes whose guard held.
    pub work: LaneMask,
}

/// What the run loop's fast path (`ModelState::run_steps`) does around each step: it sees each
/// step (or its fault) with the depth after it, and says whether to go on.
pub trait StepDriver {
    /// After a plain step (`Reconvergence::step_plain`).
    fn after_plain(&mut self, m: &mut Machine, stepped: Result<PlainStep, PlainFault>, depth: usize) -> bool;
    /// Before a whole step (`Reconvergence::step`) at `pc`: whether to take it here (false
    /// leaves it, not taken, to the caller).
    fn before_whole(&mut self, m: &Machine, pc: Pc) -> bool;
    /// After a whole step at `pc`, with whether the warp has finished.
    fn after_whole(&mut self, m: &mut Machine, pc: Pc, stepped: Result<Issued, ControlError>, depth: usize, finished: bool) -> bool;
}

/// Why a plain step could not run, and the pc it was at (the step's pc, where the run stops).
pub type PlainFault = (Pc, ControlError);

/// Where the lanes of a plain step at `pc` go, looked at before anything runs: the next
/// instruction; for a branch, the way all of `lanes` go (the target when its guard holds in
/// every one, the next instruction when in none, or in not all for `BRA.U`). `None`: a branch
/// that splits them, not a plain step.
#[inline(always)]
pub(crate) fn plain_next(prog: &Program, m: &Machine, plain: &PlainPcs, pc: Pc, lanes: LaneMask) -> Option<Pc> {
    if !plain.is_branch(pc) {
        return Some(pc.next());
    }
    let instr = prog.get(pc)?;
    let Op::Bra { target, uniform } = instr.op else { return None };
    let taken = m.guard_mask(instr.guard, lanes);
    if taken == lanes {
        Some(target)
    } else if uniform || taken.is_empty() {
        Some(pc.next())
    } else {
        None
    }
}

/// A plain step's data path on `lanes` (the instruction at `pc` is plain): the lanes whose
/// guard held, or why it could not run. `None` only for a pc outside the program.
#[inline(always)]
pub(crate) fn plain_work(
    prog: &Program,
    m: &mut Machine,
    plain: &PlainPcs,
    pc: Pc,
    lanes: LaneMask,
) -> Option<Result<LaneMask, PlainFault>> {
    let instr = prog.get(pc)?;
    // A branch runs nothing, and every lane did its work (as for all control flow).
    if plain.is_branch(pc) {
        return Some(Ok(lanes));
    }
    let work = m.guard_mask(instr.guard, lanes);
    Some(crate::machine::execute(m, instr, lanes).map(|()| work).map_err(|e| (pc, ControlError::from(e))))
}

/// Why a model cannot go on.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ControlError {
    Fault(String),
    /// A memory access's fault: the lane and address, and the message.
    Access(BadAccess, String),
    Deadlock(String),
    /// A `_sync` instruction's mask names lanes not executing it: a fault, whose message `sim`
    /// writes from each lane's place (the model's view, after the failed step, of lanes it did not run).
    Members(MemberFault),
    /// These lanes executed `BPT.TRAP`: a fault, whose message `sim` writes with the line.
    Trap(LaneMask),
}

impl From<ExecError> for ControlError {
    fn from(e: ExecError) -> ControlError {
        match e {
            ExecError::Fault(s) => ControlError::Fault(s),
            ExecError::Access(bad, s) => ControlError::Access(bad, s),
            ExecError::Members(f) => ControlError::Members(f),
            ExecError::Trap(lanes) => ControlError::Trap(lanes),
        }
    }
}

/// What an entry of a model's control state is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum EntryKind {
    /// A token of the Fermi/Kepler stack.
    Token(TokenKind),
    /// PDOM: the entry that waits at the reconvergence pc for the paths above it.
    Reconv,
    /// PDOM: one path of a divergent branch.
    Path,
    /// Thread frontiers: the lanes about to run (the highest-priority pc).
    Run,
    /// Thread frontiers and per-thread models: lanes waiting at a pc.
    Wait,
    /// Per-thread models: lanes blocked at `BSYNC Bn` until the barrier's other lanes arrive.
    Blocked(u8),
    /// Per-thread models: lanes that executed `YIELD` and let others run.
    Yielded,
    /// Lanes waiting at `BAR.SYNC` or `WARPSYNC` for the rest.
    AtBarrier,
    /// Volta: convergence barrier register `Bn` with the lanes it waits for.
    Barrier(u8),
}

const BARRIER_NAMES: [&str; 16] = ["B0", "B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8", "B9", "B10", "B11", "B12", "B13", "B14", "B15"];
const BLOCKED_NAMES: [&str; 16] = [
    "BSYNC B0",
    "BSYNC B1",
    "BSYNC B2",
    "BSYNC B3",
    "BSYNC B4",
    "BSYNC B5",
    "BSYNC B6",
    "BSYNC B7",
    "BSYNC B8",
    "BSYNC B9",
    "BSYNC B10",
    "BSYNC B11",
    "BSYNC B12",
    "BSYNC B13",
    "BSYNC B14",
    "BSYNC B15",
];

impl EntryKind {
    pub fn name(self) -> &'static str {
        match self {
            EntryKind::Token(t) => t.name(),
            EntryKind::Reconv => "RECONV",
            EntryKind::Path => "PATH",
            EntryKind::Run => "RUN",
            EntryKind::Wait => "WAIT",
            EntryKind::Blocked(n) => BLOCKED_NAMES[n as usize % 16],
            EntryKind::Yielded => "YIELDED",
            EntryKind::AtBarrier => "BARRIER",
            EntryKind::Barrier(n) => BARRIER_NAMES[n as usize % 16],
        }
    }
}

/// One entry of a model's stack (or, for per-thread models, one group of lanes or one barrier
/// register), for views.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct StackEntry {
    pub kind: EntryKind,
    pub mask: LaneMask,
    /// Where the entry's lanes run next (for a barrier register: its convergence point).
    pub pc: Pc,
    /// PDOM entries: where the entry is popped (`None`: only when its lanes exit).
    pub rpc: Option<Pc>,
    /// False when the entry has been spilled to memory.
    pub on_chip: bool,
}

impl StackEntry {
    pub fn new(kind: EntryKind, mask: LaneMask, pc: Pc) -> StackEntry {
        StackEntry { kind, mask, pc, rpc: None, on_chip: true }
    }
}

/// The one trait every reconvergence model implements.
pub trait Reconvergence {
    /// Issues one warp instruction: chooses pc and lanes, runs the data path, updates control state.
    /// Only called while `finished()` is false. Each model's is inlined natively (into the run
    /// loop, `ModelState::run_steps`: returned through memory, the `Issued` stalled the loop on a
    /// store-forwarding miss) and a function of its own in wasm (inlined there, the wasm grew by
    /// a third and V8 ran some models' sweeps slower).
    fn step(&mut self, prog: &Program, m: &mut Machine) -> Result<Issued, ControlError>;
    /// The run's fast path: when the next step issues a plain instruction (`plain.at(pc)`) and
    /// all the model would do is move the issued lanes on to `pc + 1`, with no effect, event or
    /// change of depth, does exactly what `step` would (the data path, then the move, in
    /// `step`'s order) and says what issued. `None`: not such a step; nothing was done, and the
    /// caller takes `step`.
    fn step_plain(&mut self, _prog: &Program, _m: &mut Machine, _plain: &PlainPcs) -> Option<Result<PlainStep, PlainFault>> {
        None
    }
    /// True when no lane is left to run.
    fn finished(&self) -> bool;
    /// The pc that issues next, if any.
    fn pc(&self) -> Option<Pc>;
    /// The lanes that issue next.
    fn active(&self) -> LaneMask;
    /// Entries on the reconvergence stack, bottom first.
    fn stack(&self) -> Vec<StackEntry>;
    fn depth(&self) -> usize;
    /// The lanes the next step issues (not always `active`: a pop runs its carrier with the
    /// popped token's lanes).
    fn issuing(&self, _prog: &Program) -> LaneMask {
        self.active()
    }
    /// Where a lane that has not exited runs next (issuing) or resumes (waiting).
    fn lane_pc(&self, prog: &Program, lane: u32) -> Option<Pc>;
    /// Lanes held at `BAR.SYNC` until the block opens the barrier (`ModelOptions::hold_at_barrier`).
    /// Models that run a warp's barrier as one instruction of the whole warp hold none: the block
    /// holds that warp instead.
    fn at_barrier(&self) -> LaneMask {
        LaneMask::EMPTY
    }
    /// The block's barrier opened: the lanes held at it go on.
    fn release_barrier(&mut self, _prog: &Program, _m: &mut Machine) {}
}

/// The selectable models.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum ModelKind {
    /// Fermi/Kepler token stack: SSY/SYNC, `.S`, PBK/BRK, PCNT/CONT, CAL/RET.
    Kepler,
    /// GPGPU-Sim's immediate-post-dominator stack, reconvergence pcs from the analysis.
    Pdom,
    /// The same stack with reconvergence pcs from `SSY`, as in the course notes.
    PdomSsy,
    /// STRUCT: the structural transform removes unstructured control flow (copies and cuts),
    /// then the PDOM stack runs the result (the thread-frontier paper's fourth scheme).
    Struct,
    /// Thread frontiers on a sorted stack (Diamos et al., Section 5.2).
    TfStack,
    /// Thread frontiers with per-thread pcs and a warp pc (Sandy Bridge, Section 5.1).
    TfSandy,
    /// Volta to Hopper: per-thread pcs and convergence barriers (BSSY/BSYNC).
    Volta,
    /// Every lane on its own: the reference for thread-instruction counts.
    Mimd,
}

impl ModelKind {
    pub const ALL: &'static [ModelKind] = &[
        ModelKind::Kepler,
        ModelKind::Pdom,
        ModelKind::PdomSsy,
        ModelKind::Struct,
        ModelKind::TfStack,
        ModelKind::TfSandy,
        ModelKind::Volta,
        ModelKind::Mimd,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ModelKind::Kepler => "kepler",
            ModelKind::Pdom => "pdom",
            ModelKind::PdomSsy => "pdom-ssy",
            ModelKind::Struct => "struct",
            ModelKind::TfStack => "tf-stack",
            ModelKind::TfSandy => "tf-sandy",
            ModelKind::Volta => "volta",
            ModelKind::Mimd => "mimd",
        }
    }
    /// The code a C kernel is compiled to for this model.
    pub fn compile_target(self) -> crate::compile::Target {
        use crate::compile::Target;
        match self {
            ModelKind::Kepler | ModelKind::PdomSsy => Target::Kepler,
            ModelKind::Volta => Target::Volta,
            ModelKind::Pdom | ModelKind::Struct | ModelKind::TfStack | ModelKind::TfSandy | ModelKind::Mimd => Target::Plain,
        }
    }
    /// The cost preset used when neither the user nor the kernel picks one.
    pub fn default_preset(self) -> &'static str {
        match self {
            ModelKind::Volta => "h100",
            _ => "kepler",
        }
    }
    /// Whether the model's `step_plain` takes a branch whose lanes all go one way (`plain_next`);
    /// `PlainPcs` marks branches plain only for these.
    pub fn plain_branches(self) -> bool {
        matches!(self, ModelKind::Kepler | ModelKind::Pdom | ModelKind::PdomSsy | ModelKind::Struct | ModelKind::TfStack | ModelKind::Mimd)
    }
    /// Whether `BAR.SYNC` counts threads: the model holds each lane there (a pc per lane, as on
    /// Volta and later), so a warp may arrive in parts. Otherwise the warp runs it as one
    /// instruction with every live lane and arrives whole: the barrier counts warps, as before
    /// Volta (the PTX ISA manual, `bar`/`barrier`).
    pub fn barrier_counts_threads(self) -> bool {
        matches!(self, ModelKind::Volta | ModelKind::Mimd)
    }
    /// True for the thread-frontier models, whose CFG view shows priorities and frontiers.
    pub fn uses_frontiers(self) -> bool {
        matches!(self, ModelKind::TfStack | ModelKind::TfSandy)
    }
}

/// Which path of a divergent branch a PDOM stack runs first (pushes last).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum PathOrder {
    #[default]
    TakenFirst,
    FallThroughFirst,
}

impl PathOrder {
    pub const ALL: &'static [PathOrder] = &[PathOrder::TakenFirst, PathOrder::FallThroughFirst];
    pub fn name(self) -> &'static str {
        match self {
            PathOrder::TakenFirst => "taken",
            PathOrder::FallThroughFirst => "fall-through",
        }
    }
}

/// How the Volta model picks which group of lanes runs.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum GroupOrder {
    /// Measured on the H100: after a split the side with fewer lanes runs first (the
    /// fall-through side on a tie); when a group blocks, the group set aside last resumes.
    #[default]
    H100,
    /// The group with the lowest pc runs.
    LowestPc,
    /// At each switch point (a block, a `YIELD`, an exit) the next group in lane order runs.
    RoundRobin,
}

impl GroupOrder {
    pub const ALL: &'static [GroupOrder] = &[GroupOrder::H100, GroupOrder::LowestPc, GroupOrder::RoundRobin];
    pub fn name(self) -> &'static str {
        match self {
            GroupOrder::H100 => "h100",
            GroupOrder::LowestPc => "lowest-pc",
            GroupOrder::RoundRobin => "round-robin",
        }
    }
}

/// Everything a model is built with besides the program and the machine.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct ModelOptions {
    pub stack: StackConfig,
    pub path_order: PathOrder,
    pub group_order: GroupOrder,
    /// The warp is one of several in its block: lanes at `BAR.SYNC` wait there until the block
    /// opens the barrier (`Reconvergence::release_barrier`), not once the warp's own lanes are
    /// all there.
    pub hold_at_barrier: bool,
}

/// A model's state; an enum so the whole warp state stays plain, clonable data.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ModelState {
    Kepler(kepler::TokenStackModel),
    Pdom(pdom::PdomStack),
    PdomSsy(pdom_ssy::SsyStack),
    /// The PDOM stack, over the program the structural transform wrote.
    Struct(pdom::PdomStack),
    TfStack(tf_stack::SortedStack),
    TfSandy(tf_sandy::WarpPc),
    /// Boxed: 16 barrier registers make it much larger than the others.
    Volta(alloc::boxed::Box<volta::ConvergenceBarriers>),
    Mimd(mimd::Independent),
}

/// Calls `$body` with `$s` bound to the inner model, whatever the variant (static dispatch).
macro_rules! each {
    ($self:expr, $s:ident => $body:expr) => {
        match $self {
            ModelState::Kepler($s) => $body,
            ModelState::Pdom($s) => $body,
            ModelState::PdomSsy($s) => $body,
            ModelState::Struct($s) => $body,
            ModelState::TfStack($s) => $body,
            ModelState::TfSandy($s) => $body,
            ModelState::Volta($s) => $body,
            ModelState::Mimd($s) => $body,
        }
    };
}

impl ModelState {
    pub fn new(kind: ModelKind, prog: &Program, m: &mut Machine, opts: ModelOptions) -> ModelState {
        match kind {
            ModelKind::Kepler => ModelState::Kepler(kepler::TokenStackModel::new(prog, m, opts.stack)),
            ModelKind::Pdom => ModelState::Pdom(pdom::PdomStack::new(prog, m, opts.path_order)),
            ModelKind::PdomSsy => ModelState::PdomSsy(pdom_ssy::SsyStack::new(prog, m, opts.path_order)),
            ModelKind::Struct => ModelState::Struct(pdom::PdomStack::new(prog, m, opts.path_order)),
            ModelKind::TfStack => ModelState::TfStack(tf_stack::SortedStack::new(prog, m)),
            ModelKind::TfSandy => ModelState::TfSandy(tf_sandy::WarpPc::new(prog, m)),
            ModelKind::Volta => {
                ModelState::Volta(alloc::boxed::Box::new(volta::ConvergenceBarriers::new(prog, m, opts.group_order, opts.hold_at_barrier)))
            }
            ModelKind::Mimd => ModelState::Mimd(mimd::Independent::new(prog, m, opts.hold_at_barrier)),
        }
    }
    /// Steps in a row, plain ones by `step_plain` and the others by `step`, with the model's
    /// variant chosen once (the model's own `pc`, `depth` and `step` inline into the loop):
    /// `driver` sees each and says whether to go on. Stops when the warp has finished.
    #[inline(always)]
    pub fn run_steps(&mut self, prog: &Program, m: &mut Machine, plain: &PlainPcs, driver: &mut impl StepDriver) {
        match self {
            ModelState::Kepler(s) => steps_of(s, prog, m, plain, driver),
            ModelState::Pdom(s) | ModelState::Struct(s) => steps_of(s, prog, m, plain, driver),
            ModelState::PdomSsy(s) => steps_of(s, prog, m, plain, driver),
            ModelState::TfStack(s) => steps_of(s, prog, m, plain, driver),
            ModelState::TfSandy(s) => steps_of(s, prog, m, plain, driver),
            ModelState::Volta(s) => steps_of(&mut **s, prog, m, plain, driver),
            ModelState::Mimd(s) => steps_of(s, prog, m, plain, driver),
        }
    }
    pub fn kind(&self) -> ModelKind {
        match self {
            ModelState::Kepler(_) => ModelKind::Kepler,
            ModelState::Pdom(_) => ModelKind::Pdom,
            ModelState::PdomSsy(_) => ModelKind::PdomSsy,
            ModelState::Struct(_) => ModelKind::Struct,
            ModelState::TfStack(_) => ModelKind::TfStack,
            ModelState::TfSandy(_) => ModelKind::TfSandy,
            ModelState::Volta(_) => ModelKind::Volta,
            ModelState::Mimd(_) => ModelKind::Mimd,
        }
    }
}

/// `ModelState::run_steps` for one model: inlined natively; a function of its own per model in
/// wasm, where V8 made slower code of one function holding every model's loop.
#[cfg_attr(target_arch = "wasm32", inline(never))]
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
fn steps_of<R: Reconvergence>(s: &mut R, prog: &Program, m: &mut Machine, plain: &PlainPcs, driver: &mut impl StepDriver) {
    loop {
        if let Some(stepped) = s.step_plain(prog, m, plain) {
            if !driver.after_plain(m, stepped, s.depth()) {
                return;
            }
            continue;
        }
        let Some(pc) = s.pc() else { return };
        if !driver.before_whole(m, pc) {
            return;
        }
        let stepped = s.step(prog, m);
        if !driver.after_whole(m, pc, stepped, s.depth(), s.finished()) {
            return;
        }
    }
}

impl Reconvergence for ModelState {
    /// Inlined: the run loop calls the model's own step, one call a step instead of two.
    #[inline(always)]
    fn step(&mut self, prog: &Program, m: &mut Machine) -> Result<Issued, ControlError> {
        each!(self, s => s.step(prog, m))
    }
    #[inline(always)]
    fn step_plain(&mut self, prog: &Program, m: &mut Machine, plain: &PlainPcs) -> Option<Result<PlainStep, PlainFault>> {
        each!(self, s => s.step_plain(prog, m, plain))
    }
    #[inline]
    fn finished(&self) -> bool {
        each!(self, s => s.finished())
    }
    #[inline]
    fn pc(&self) -> Option<Pc> {
        each!(self, s => s.pc())
    }
    fn active(&self) -> LaneMask {
        each!(self, s => s.active())
    }
    fn stack(&self) -> Vec<StackEntry> {
        each!(self, s => s.stack())
    }
    #[inline]
    fn depth(&self) -> usize {
        each!(self, s => s.depth())
    }
    fn issuing(&self, prog: &Program) -> LaneMask {
        each!(self, s => s.issuing(prog))
    }
    fn lane_pc(&self, prog: &Program, lane: u32) -> Option<Pc> {
        each!(self, s => s.lane_pc(prog, lane))
    }
    fn at_barrier(&self) -> LaneMask {
        each!(self, s => s.at_barrier())
    }
    fn release_barrier(&mut self, prog: &Program, m: &mut Machine) {
        each!(self, s => s.release_barrier(prog, m))
    }
}
