//! Stepping a warp: the state that a checkpoint clones, stop reasons, run limits and seek.
//!
//! `Sim` owns the program, the current `WarpState` and the `Timeline`. Everything is
//! deterministic (the clock is the cost model's cycle count), so `seek(t)` restores the nearest
//! checkpoint and replays to step `t`, giving exactly the state of `t` single steps.

pub mod audit;
mod cost;
mod exchange;
mod lanes;
mod members;
mod memory_view;
mod metrics;
pub mod reference;
mod report;
mod step_log;
pub mod timeline;
pub mod timing;
mod unrecorded;
mod watch;

pub use cost::CostModel;
pub use exchange::Exchange;
pub use lanes::{LaneState, MAX_WINDOW as LANE_WINDOW_MAX};
pub use memory_view::{describe as describe_access, StepAccess};
pub use metrics::{Metric, Metrics, PointMetrics};
pub use reference::{ideal_fetches, IdealFetches};
pub use report::RunReport;
pub use step_log::StepLog;
pub use timeline::{event, StepRecord, Timeline};
pub use unrecorded::WarpSteps;
pub use watch::{loop_site, LoopSite, Waiting};

use alloc::string::String;
use alloc::vec::Vec;

use crate::isa::{Op, Pc};
use crate::machine::Machine;
use crate::machine::{BadAccess, LaneMask};
use crate::model::{
    ControlError, Effects, GroupOrder, Issued, ModelKind, ModelOptions, ModelState, PathOrder, PlainFault, PlainStep, Reconvergence,
    StackConfig, StepDriver,
};
use crate::program::{PlainPcs, Program};

/// Where the warp is: still running, or ended for good.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Status {
    Running,
    Exited,
    Deadlock {
        pc: Pc,
        message: String,
    },
    /// `access`: the memory access that faulted, when one did.
    Fault {
        pc: Pc,
        message: String,
        access: Option<BadAccess>,
    },
}

/// Why `run` returned.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum StopReason {
    Exited,
    Deadlock {
        pc: Pc,
        message: String,
    },
    Fault {
        pc: Pc,
        message: String,
        /// The memory access that faulted, when one did (memcheck names its thread and address).
        access: Option<BadAccess>,
    },
    /// The step limit (an endless loop, or a very long run) was reached.
    StepLimit,
    /// The warp is about to execute a breakpoint instruction.
    Breakpoint(Pc),
    /// A step had one of the requested events (`event::*` bits).
    Event(u16),
    /// The run's own step budget was used up.
    Budget,
}

impl StopReason {
    pub fn name(&self) -> &'static str {
        match self {
            StopReason::Exited => "exited",
            StopReason::Deadlock { .. } => "deadlock",
            StopReason::Fault { .. } => "fault",
            StopReason::StepLimit => "step_limit",
            StopReason::Breakpoint(_) => "breakpoint",
            StopReason::Event(_) => "event",
            StopReason::Budget => "budget",
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct SimConfig {
    pub model: ModelKind,
    pub cost: CostModel,
    pub stack: StackConfig,
    /// PDOM stacks: which path of a split runs first.
    pub path_order: PathOrder,
    /// Volta: which group of a warp's lanes runs (not which warp: that is `block::WarpScheduler`).
    pub group_order: GroupOrder,
    /// Total steps after which a run stops with `StepLimit`.
    pub step_limit: u64,
    /// Keep per-step records and checkpoints (off for pure throughput).
    pub record: bool,
    /// Bytes the checkpoints of a recorded run may take together.
    pub trace_budget: usize,
    /// Lanes running past the last instruction exit (an excerpt) instead of faulting.
    pub exit_at_end: bool,
}

pub const DEFAULT_STEP_LIMIT: u64 = 10_000_000;

impl Default for SimConfig {
    fn default() -> Self {
        SimConfig {
            model: ModelKind::Kepler,
            cost: CostModel::KEPLER,
            stack: StackConfig::default(),
            path_order: PathOrder::default(),
            group_order: GroupOrder::default(),
            step_limit: DEFAULT_STEP_LIMIT,
            record: true,
            trace_budget: timeline::DEFAULT_TRACE_BUDGET,
            exit_at_end: false,
        }
    }
}

/// Everything that changes as the warp runs: what a checkpoint clones.
#[derive(Clone, PartialEq, Debug)]
pub struct WarpState {
    pub machine: Machine,
    pub model: ModelState,
    pub metrics: Metrics,
    pub status: Status,
    /// The timing model's state, under a timed cost model.
    pub timing: Option<alloc::boxed::Box<timing::TimingState>>,
}

impl WarpState {
    /// About how many bytes a clone (a checkpoint) takes: registers, memory, counters, stack.
    pub fn approx_bytes(&self) -> usize {
        core::mem::size_of::<WarpState>()
            + 4 * self.machine.state_words()
            + self.machine.output.clone_bytes()
            + 8 * self.metrics.instr_counts.len()
            + 64 * self.model.depth()
            + self.timing.as_ref().map_or(0, |t| t.approx_bytes())
    }
}

/// Limits for one `run` call.
#[derive(Clone, Debug, Default)]
pub struct RunLimits {
    /// Stop after this many steps of this call.
    pub max_steps: Option<u64>,
    /// Stop before executing any of these (not before the first step of the call).
    pub breakpoints: Vec<Pc>,
    /// Stop after a step with any of these event bits.
    pub stop_on: u16,
}

pub struct Sim {
    program: Program,
    /// The program's plain instructions, for the fast path (`advance`).
    plain: PlainPcs,
    /// Whether `run` and `seek` take steps in a row through the fast loop (`fast_steps`); off,
    /// each step is `step`'s (the reference the fast loop is tested against).
    fast: bool,
    /// STRUCT: the program before the structural transform and the map back to it (the MIMD
    /// minimum is the original's).
    structured: Option<alloc::sync::Arc<crate::structure::Structured>>,
    config: SimConfig,
    state: WarpState,
    timeline: Timeline,
    watch: watch::RepeatWatch,
}

impl WarpState {
    /// A warp before its first step: its model started on `machine` (whose memory the timing
    /// model reads for its buffers). `hold_at_barrier`: the warp is one of several in its block.
    pub fn start(program: &Program, mut machine: Machine, config: &SimConfig, hold_at_barrier: bool) -> WarpState {
        let opts = ModelOptions { stack: config.stack, path_order: config.path_order, group_order: config.group_order, hold_at_barrier };
        let model = ModelState::new(config.model, program, &mut machine, opts);
        let status = if model.finished() { Status::Exited } else { Status::Running };
        let timing = config.cost.timing.map(|p| timing::TimingState::new(p).with_buffers(&machine.memory));
        WarpState { machine, model, metrics: Metrics::new(program), status, timing }
    }
}

impl Sim {
    pub fn new(program: Program, machine: Machine, config: SimConfig) -> Sim {
        let state = WarpState::start(&program, machine, &config, false);
        let timeline = Timeline::new(state.clone(), config.record, config.trace_budget);
        let watch = watch::RepeatWatch::new(&program, &state);
        Sim {
            plain: PlainPcs::of(&program, config.model.plain_branches()),
            fast: true,
            program,
            structured: None,
            config,
            state,
            timeline,
            watch,
        }
    }

    pub fn program(&self) -> &Program {
        &self.program
    }
    /// The same run with every step taken one at a time by `step` and by the model's whole
    /// `step`, none by the fast loop nor the fast path for plain instructions: the reference
    /// `core/tests/plain_steps.rs` checks them against (same states, records and metrics at
    /// every step).
    pub fn one_step_at_a_time(mut self) -> Sim {
        self.plain = PlainPcs::none();
        self.fast = false;
        self
    }
    /// The same run, over a program the structural transform wrote (`s.program`).
    pub fn restructured(mut self, s: alloc::sync::Arc<crate::structure::Structured>) -> Sim {
        self.structured = Some(s);
        self
    }
    /// STRUCT's transform, when this run is of its output.
    pub fn structured(&self) -> Option<&crate::structure::Structured> {
        self.structured.as_deref()
    }
    pub fn config(&self) -> &SimConfig {
        &self.config
    }
    pub fn state(&self) -> &WarpState {
        &self.state
    }
    /// The timing model's state before a run starts, for a caller that sets up the caches
    /// (`timing::fit` flushes a buffer's lines out of L2 as the microbenchmark did).
    pub fn timing_mut(&mut self) -> Option<&mut timing::TimingState> {
        self.state.timing.as_deref_mut()
    }
    pub fn timeline(&self) -> &Timeline {
        &self.timeline
    }
    pub fn steps(&self) -> u64 {
        self.state.metrics.steps
    }
    /// What `printf` printed up to the current step, formatted.
    pub fn output(&self) -> Vec<crate::printf::OutputLine> {
        crate::printf::lines(&self.program.formats, &self.state.machine.output)
    }

    /// Executes one warp instruction. `None` when the warp has already ended. Inlined into
    /// `run`: returned through memory, the `Issued` stalled the loop on a store-forwarding miss
    /// (a tenth of a run).
    #[inline(always)]
    pub fn step(&mut self) -> Option<Issued> {
        let (issued, depth) = advance(&self.program, &self.plain, &self.config, &mut self.state)?;
        self.timeline.after_step(&issued, depth, &self.state);
        Some(issued)
    }

    fn terminal_reason(&self) -> Option<StopReason> {
        match &self.state.status {
            Status::Running => None,
            Status::Exited => Some(StopReason::Exited),
            Status::Deadlock { pc, message } => Some(StopReason::Deadlock { pc: *pc, message: message.clone() }),
            Status::Fault { pc, message, access } => Some(StopReason::Fault { pc: *pc, message: message.clone(), access: *access }),
        }
    }

    /// Why a run must end before the next step: the warp ended, or the step limit is reached.
    #[inline(always)]
    fn end_reason(&self) -> Option<StopReason> {
        if let Some(r) = self.terminal_reason() {
            return Some(r);
        }
        (self.steps() >= self.config.step_limit).then_some(StopReason::StepLimit)
    }

    /// One step of a run: issues the next instruction and, on a step past the recorded run,
    /// checks the repeat watch. Only a step past the recorded run is watched: a replay samples
    /// at other steps (a seek resets the watch) and could find the repeat before the recorded end.
    #[inline(always)]
    fn run_one(&mut self) -> Option<Issued> {
        let fresh = self.steps() as usize >= self.timeline.len();
        let issued = self.step()?;
        if fresh {
            self.watch_repeat();
        }
        Some(issued)
    }

    /// Runs until the warp ends or a limit is hit.
    pub fn run(&mut self, limits: &RunLimits) -> StopReason {
        let start = self.steps();
        loop {
            if let Some(r) = self.end_reason() {
                return r;
            }
            let done = self.steps() - start;
            // A breakpoint reached by the last step of a budget still stops the run (a player
            // stepping one at a time must see it); the one the run started on does not.
            if done > 0 && !limits.breakpoints.is_empty() {
                if let Some(pc) = self.state.model.pc().filter(|pc| limits.breakpoints.contains(pc)) {
                    return StopReason::Breakpoint(pc);
                }
            }
            if limits.max_steps.is_some_and(|m| done >= m) {
                return StopReason::Budget;
            }
            // Steps in a row through the fast loop, but where a breakpoint needs each step's pc
            // looked at.
            if limits.breakpoints.is_empty() {
                let until = limits.max_steps.map_or(u64::MAX, |m| start.saturating_add(m));
                let (ran, events) = self.run_fast(until.min(self.config.step_limit), limits.stop_on);
                if events != 0 {
                    return StopReason::Event(events);
                }
                if ran > 0 {
                    continue;
                }
            }
            let Some(issued) = self.run_one() else { continue };
            if limits.stop_on != 0 {
                let events = StepRecord::new(&issued, 0).events & limits.stop_on;
                if events != 0 {
                    return StopReason::Event(events);
                }
            }
        }
    }

    /// Steps in a row for `run`, each exactly as `step` would take it, up to step `until` and
    /// short of any step that the timeline (a checkpoint) or the repeat watch (a sample) must
    /// see with the whole state, stopping after a step with an event of `stop_on` or at the
    /// end of the warp (the status says it). How many steps ran, and the events it stopped for.
    fn run_fast(&mut self, until: u64, stop_on: u16) -> (u64, u16) {
        let Sim { program, plain, fast, config, state, timeline, watch, .. } = self;
        if !*fast {
            return (0, 0);
        }
        // Only a step past the recorded run is watched (`run_one`).
        let sample = watch.next().max(timeline.len() as u64 + 1);
        let stop = until.min(timeline.next_whole()).min(sample);
        fast_steps(program, plain, config, state, stop, Some(timeline), stop_on, false)
    }

    /// The next step of `run_to_end`, for a caller that looks at every step (the CLI's trace):
    /// what issued, or why the run ended, at the same step and for the same reason as `run`.
    pub fn run_step(&mut self) -> Result<Issued, StopReason> {
        loop {
            if let Some(r) = self.end_reason() {
                return Err(r);
            }
            if let Some(issued) = self.run_one() {
                return Ok(issued);
            }
        }
    }

    /// After a step: when the warp's state repeats one sampled earlier, the run can never end,
    /// so it ends here as a deadlock (true).
    #[inline(always)]
    pub(crate) fn watch_repeat(&mut self) -> bool {
        if !self.watch.due(self.steps()) {
            return false;
        }
        let Some(since) = self.watch.check(&self.state) else { return false };
        let (pc, message) = watch::repeat_message(&self.program, &self.config, &self.state, since);
        self.state.status = Status::Deadlock { pc, message };
        true
    }

    /// Runs to the end (or the step limit).
    pub fn run_to_end(&mut self) -> StopReason {
        self.run(&RunLimits::default())
    }

    /// Where the warp is looping, read from a replay of its next steps (for a run stopped by
    /// the step limit).
    pub fn loop_site(&self) -> Option<LoopSite> {
        watch::loop_site(&self.program, &self.config, &self.state, 4096)
    }

    /// Puts the warp in the state it had after `t` steps (clamped to the end of the run, as far
    /// as it can go: replaying forward stops when the warp ends or at the step limit).
    pub fn seek(&mut self, t: u64) {
        // A failed step (a fault, a deadlock) or the repeat watch ended the run without a step
        // of its own: what the failure left is not the state after `steps` steps, a replay is.
        let ended_past_steps = matches!(self.state.status, Status::Fault { .. } | Status::Deadlock { .. });
        let back = t < self.steps() || (t == self.steps() && ended_past_steps);
        if back || self.timeline.is_recording() {
            let from = self.timeline.checkpoint_before(t);
            if from.metrics.steps > self.steps() || back {
                self.state = from.clone();
                self.watch = watch::RepeatWatch::new(&self.program, &self.state);
            }
        }
        while self.steps() < t && self.steps() < self.config.step_limit {
            if self.run_fast(t.min(self.config.step_limit), 0).0 > 0 {
                continue;
            }
            if self.step().is_none() {
                break;
            }
        }
    }

    /// One step back: the state after `steps - 1` steps.
    pub fn step_back(&mut self) {
        let t = self.steps().saturating_sub(1);
        self.seek(t);
    }
}

/// One step of `st`, the whole transition: shared by `Sim::step` and by replays that must not
/// touch the timeline (`lane_window`). Always inlined: as a call it cost 12 % of throughput.
#[inline(always)]
/// Returns what issued and the stack depth after the step.
fn advance(program: &Program, plain: &PlainPcs, config: &SimConfig, st: &mut WarpState) -> Option<(Issued, usize)> {
    // Two copies: the untimed presets' step carries none of the timing model's code.
    if st.timing.is_some() {
        advance_as::<true>(program, plain, config, st)
    } else {
        advance_as::<false>(program, plain, config, st)
    }
}

#[inline(always)]
fn advance_as<const TIMED: bool>(program: &Program, plain: &PlainPcs, config: &SimConfig, st: &mut WarpState) -> Option<(Issued, usize)> {
    if st.status != Status::Running {
        return None;
    }
    let pc = st.model.pc().unwrap_or_default();
    // The fast path: untimed (the timing model looks at every instruction), and a plain one.
    if !TIMED && plain.at(pc) {
        if let Some(stepped) = st.model.step_plain(program, &mut st.machine, plain) {
            return plain_done(program, plain, config, st, stepped);
        }
    }
    if pc.index() >= program.len() && !config.exit_at_end {
        // Lanes that fell off the end under a model that lets them (a token stack keeps them).
        let (at, message) = past_end(program, st.model.issuing(program));
        st.status = Status::Fault { pc: at, message, access: None };
        return None;
    }
    let WarpState { machine, model, metrics, status, timing } = st;
    let mut timing = timing.as_deref_mut().filter(|_| TIMED);
    if let Some(t) = timing.as_deref_mut() {
        machine.clock = t.before(program, pc, model.active(), machine);
    }
    let before = Before::of(machine);
    let stepped = model.step(program, machine);
    let depth = model.depth();
    let counted = count_whole(program, config, machine, metrics, pc, before, stepped, depth, |machine, issued, issues| match timing {
        Some(t) => {
            let next = model.pc().map(|p| (p, model.active()));
            let cycles = t.after(program, issued.pc, issued.mask, next, &issued.effects);
            machine.clock = t.now();
            cycles
        }
        None => untimed_cycles(config, machine, issued, issues),
    });
    match counted {
        Ok(issued) => {
            if model.finished() {
                *status = Status::Exited;
            }
            Some((issued, depth))
        }
        Err(Ended::Status(s)) => {
            *status = s;
            None
        }
        Err(Ended::Failed(pc, e)) => {
            st.status = failure(program, pc, e, st);
            None
        }
    }
}

/// What a whole step's bookkeeping needs of the machine before the step.
#[derive(Clone, Copy, Default)]
struct Before {
    exited: LaneMask,
    clock: u64,
}

impl Before {
    #[inline(always)]
    fn of(m: &Machine) -> Before {
        Before { exited: m.exited, clock: m.clock }
    }
}

/// How a whole step ended the run: the status it leaves, or a failed step (whose status needs
/// the whole state after it: `failure`).
enum Ended {
    Status(Status),
    Failed(Pc, ControlError),
}

/// The bookkeeping of a whole step at `pc` (the model's `step`, which left `depth`): the checks
/// that end the run, the counters, the clock (`cycles`: the step's cost, given the issues it
/// counts, having moved the machine's clock). Shared by `advance` and the fast loop.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn count_whole(
    program: &Program,
    config: &SimConfig,
    machine: &mut Machine,
    metrics: &mut Metrics,
    pc: Pc,
    before: Before,
    stepped: Result<Issued, ControlError>,
    depth: usize,
    cycles: impl FnOnce(&mut Machine, &Issued, u32) -> u64,
) -> Result<Issued, Ended> {
    // What this step printed is tagged with its number (also when it faulted).
    machine.output.seal(metrics.steps + 1);
    let issued = stepped.map_err(|e| Ended::Failed(pc, e))?;
    // Per-lane models retire a lane whose pc passes the end; that is a fault, not an exit.
    let exited = machine.exited.without(before.exited);
    if !exited.is_empty() && !config.exit_at_end {
        // Only the lanes whose guard held left by EXIT (`@P0 EXIT` lets the others run on;
        // EXIT writes no predicate, so the guard reads the same after the step).
        let by_exit = match program.get(issued.pc) {
            Some(i) if matches!(i.op, Op::Exit) => machine.guard_mask(i.guard, issued.mask),
            _ => LaneMask::EMPTY,
        };
        let fell_off = exited.without(by_exit);
        if !fell_off.is_empty() {
            let (at, message) = past_end(program, fell_off);
            return Err(Ended::Status(Status::Fault { pc: at, message, access: None }));
        }
    }
    if depth > config.stack.limit as usize {
        return Err(Ended::Status(Status::Fault { pc, message: stack_limit_message(config, depth), access: None }));
    }
    // A part of a real SASS instruction's sequence issues nothing of its own.
    let counts = !program.continues(issued.pc);
    let issues = if counts { program.get(issued.pc).map_or(1, |i| i.op.issues()) } else { 0 };
    let cycles = cycles(machine, &issued, issues);
    metrics.record(&issued, depth, cycles, counts);
    // `BAR.RED` alone in its warp: the reduction over the warp's threads (a block's other warps
    // add theirs when it opens).
    if let Some(Op::BarSync { red: Some(red), .. }) = program.get(issued.pc).map(|i| i.op) {
        machine.bar_result = machine.bar_reduce(red, machine.live_lanes());
    }
    if metrics.reads_clock
        && issued.work.contains(0)
        && program.get(issued.pc).is_some_and(|i| i.op.clock_word() == Some(crate::isa::SpecialReg::ClockLo))
    {
        metrics.clock_read(before.clock);
    }
    Ok(issued)
}

/// An untimed step's cycles (the cost model's), added to the machine's clock.
#[inline(always)]
fn untimed_cycles(config: &SimConfig, machine: &mut Machine, issued: &Issued, issues: u32) -> u64 {
    let cycles = config.cost.cycles(&issued.effects, issues);
    machine.clock += cycles;
    cycles
}

#[cold]
fn stack_limit_message(config: &SimConfig, depth: usize) -> String {
    alloc::format!(
        "the reconvergence stack is {depth} entries deep, past its hard limit of {} (`//@ stack limit=N` raises it): does a loop push without popping?",
        config.stack.limit
    )
}

/// Steps in a row from `st`, plain or not, each exactly as `advance` would take it, short of
/// step `stop` (the step count after it), each recorded in `timeline` (a replayed step is
/// recorded already, and not again; without it, a replay on a copy of the state: `replay`).
/// Stops after a step with an event of `stop_on`, at the end of the warp or at a fault (the
/// status says it), and before a step that only `advance` takes (lanes past the end). Untimed
/// only. How many steps ran, and the events it stopped for. `before_barrier`: stops short of a
/// `BAR.SYNC` too (a block takes that step itself, to see who arrived), and of a `HOST` (the host
/// runner serves it first).
#[allow(clippy::too_many_arguments)]
fn fast_steps(
    program: &Program,
    plain: &PlainPcs,
    config: &SimConfig,
    st: &mut WarpState,
    stop: u64,
    timeline: Option<&mut Timeline>,
    stop_on: u16,
    before_barrier: bool,
) -> (u64, u16) {
    let start = st.metrics.steps;
    if st.timing.is_some() || st.status != Status::Running || start + 1 >= stop {
        return (0, 0);
    }
    let WarpState { machine, model, metrics, status, .. } = st;
    let mut driver = FastDriver {
        program,
        plain,
        config,
        metrics,
        status,
        timeline,
        stop,
        stop_on,
        before_barrier,
        events: 0,
        before: Before::default(),
        fault: None,
    };
    model.run_steps(program, machine, plain, &mut driver);
    let (events, fault) = (driver.events, driver.fault);
    if let Some((pc, e)) = fault {
        st.status = failure(program, pc, e, st);
    }
    (st.metrics.steps - start, events)
}

/// The bookkeeping of `fast_steps`: each step's counters and record, and whether the next may
/// follow (before `stop`, after no event of `stop_on`, the warp running).
struct FastDriver<'a> {
    program: &'a Program,
    plain: &'a PlainPcs,
    config: &'a SimConfig,
    metrics: &'a mut Metrics,
    status: &'a mut Status,
    timeline: Option<&'a mut Timeline>,
    stop: u64,
    stop_on: u16,
    before_barrier: bool,
    events: u16,
    before: Before,
    fault: Option<PlainFault>,
}

impl StepDriver for FastDriver<'_> {
    // Always inlined: in the wasm build, as a closure, it was a call of its own every step.
    #[inline(always)]
    fn after_plain(&mut self, machine: &mut Machine, stepped: Result<PlainStep, PlainFault>, depth: usize) -> bool {
        match count_plain(self.plain, self.config, machine, self.metrics, depth, stepped) {
            Ok(p) => {
                if let Some(timeline) = self.timeline.as_deref_mut() {
                    timeline.record_plain(p, depth, self.metrics.steps);
                }
                self.metrics.steps + 1 < self.stop
            }
            Err(f) => {
                self.fault = Some(f);
                false
            }
        }
    }

    #[inline(always)]
    fn before_whole(&mut self, machine: &Machine, pc: Pc) -> bool {
        // Lanes past the end: `advance` says which (it asks the model).
        if pc.index() >= self.program.len() && !self.config.exit_at_end {
            return false;
        }
        if self.before_barrier && self.program.get(pc).is_some_and(|i| matches!(i.op, Op::BarSync { .. } | Op::Host { .. })) {
            return false;
        }
        self.before = Before::of(machine);
        true
    }

    #[inline(always)]
    fn after_whole(&mut self, machine: &mut Machine, pc: Pc, stepped: Result<Issued, ControlError>, depth: usize, finished: bool) -> bool {
        let config = self.config;
        let counted =
            count_whole(self.program, config, machine, self.metrics, pc, self.before, stepped, depth, |machine, issued, issues| {
                untimed_cycles(config, machine, issued, issues)
            });
        match counted {
            Ok(issued) => {
                if finished {
                    *self.status = Status::Exited;
                }
                let recording = self.timeline.as_deref().is_some_and(Timeline::is_recording);
                if recording || self.stop_on != 0 {
                    let record = StepRecord::new(&issued, depth);
                    if let Some(timeline) = self.timeline.as_deref_mut() {
                        timeline.record_between(record, self.metrics.steps);
                    }
                    self.events = record.events & self.stop_on;
                }
                self.events == 0 && !finished && self.metrics.steps + 1 < self.stop
            }
            Err(Ended::Status(s)) => {
                *self.status = s;
                false
            }
            Err(Ended::Failed(pc, e)) => {
                self.fault = Some((pc, e));
                false
            }
        }
    }
}

/// A plain step's bookkeeping (`Reconvergence::step_plain`) for `advance`.
#[inline(always)]
fn plain_done(
    program: &Program,
    plain: &PlainPcs,
    config: &SimConfig,
    st: &mut WarpState,
    stepped: Result<PlainStep, PlainFault>,
) -> Option<(Issued, usize)> {
    let depth = st.model.depth();
    match count_plain(plain, config, &mut st.machine, &mut st.metrics, depth, stepped) {
        Ok(p) => Some((Issued { pc: p.pc, mask: p.mask, work: p.work, effects: Effects::default() }, depth)),
        Err((pc, e)) => {
            st.status = failure(program, pc, e, st);
            None
        }
    }
}

/// What the whole step's bookkeeping does for a plain step: an instruction with no effect, the
/// depth unchanged, nothing else to check. Shared by `advance` and `plain_steps`.
#[inline(always)]
fn count_plain(
    plain: &PlainPcs,
    config: &SimConfig,
    machine: &mut Machine,
    metrics: &mut Metrics,
    depth: usize,
    stepped: Result<PlainStep, PlainFault>,
) -> Result<PlainStep, PlainFault> {
    machine.output.seal(metrics.steps + 1);
    let p = stepped?;
    let issues = plain.issues(p.pc);
    let cycles = config.cost.cycles(&Effects::default(), issues);
    machine.clock += cycles;
    metrics.record_plain(p, depth, cycles, issues != 0);
    Ok(p)
}

/// The status a failed step at `pc` leaves.
#[cold]
fn failure(program: &Program, pc: Pc, e: ControlError, st: &WarpState) -> Status {
    match e {
        ControlError::Fault(message) => Status::Fault { pc, message, access: None },
        ControlError::Access(bad, message) => Status::Fault { pc, message, access: Some(bad) },
        ControlError::Deadlock(message) => Status::Deadlock { pc, message },
        ControlError::Members(fault) => Status::Fault { pc, message: members::message(program, pc, &fault, st), access: None },
        ControlError::Trap(lanes) => Status::Fault { pc, message: trap_message(program, pc, lanes), access: None },
    }
}

/// "the kernel executed `trap` at line 12: lanes 0-3 ran `@P0 BPT.TRAP` ...": a trap aborts the
/// whole kernel (PTX `trap`, CUDA `__trap()`), on hardware with an error the host sees.
#[cold]
fn trap_message(program: &Program, pc: Pc, lanes: LaneMask) -> String {
    let text = program.get(pc).map_or("", |i| i.text.as_str());
    let at = match program.line(pc) {
        Some(line) => alloc::format!("line {line}"),
        None => alloc::format!("{:#06x}", program.addr(pc)),
    };
    let list = crate::machine::LaneList(lanes);
    if let Some(cond) = failed_assertion(program, pc) {
        return alloc::format!(
            "{} {list} failed `assert({cond})` at {at}: each printed CUDA's line (in Output), and the trap that follows aborts the whole kernel (the host sees a launch error)",
            list.word()
        );
    }
    alloc::format!(
        "the kernel executed `trap` at {at}: {} {list} ran `{text}`, which aborts the whole kernel (PTX `trap`, CUDA `__trap()`; the host sees a launch error)",
        list.word()
    )
}

/// The condition of the `assert` whose trap is at `pc`: C's and nvcc's both print CUDA's line
/// ("... Assertion `i < n` failed.") right before it.
fn failed_assertion(program: &Program, pc: Pc) -> Option<String> {
    let before = program.get(Pc(pc.0.checked_sub(1)?))?;
    let crate::isa::Op::Printf { id, .. } = before.op else { return None };
    let text = &program.formats.get(id as usize)?.text;
    let rest = &text[text.find("Assertion `")? + "Assertion `".len()..];
    // The format doubles a `%` of the condition.
    rest.rfind("` failed.").map(|end| rest[..end].replace("%%", "%"))
}

/// The fault for `lanes` running past the last instruction, located at that instruction.
#[cold]
fn past_end(program: &Program, lanes: LaneMask) -> (Pc, String) {
    let last = Pc(program.len().saturating_sub(1) as u32);
    let text = program.get(last).map_or("", |i| i.text.as_str());
    let line = program.line(last).map_or(String::new(), |l| alloc::format!(", line {l}"));
    let message = alloc::format!(
        "{} {} ran past the end of the code: the last instruction (`{text}` at {:#06x}{line}) is not EXIT, and nothing branches away before it (a listing cut short on purpose, like a paper's excerpt, says `//@ excerpt` and its lanes exit there)",
        crate::machine::LaneList(lanes).word(),
        crate::machine::LaneList(lanes),
        program.addr(last)
    );
    (last, message)
}

#[cfg(test)]
mod limit_tests;
#[cfg(test)]
mod tests;
