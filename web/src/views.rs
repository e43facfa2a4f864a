//! Plain view structs the browser reads (serialized with serde-wasm-bindgen), and the few lines
//! that fill them from core values. Formatting only: every fact comes from `warpscope_core`.

use serde::Serialize;
use ts_rs::TS;
use warpscope_core::analysis::{CfgFacts, PostDom};
use warpscope_core::block::WarpScheduler;
use warpscope_core::compile::VarInfo;
use warpscope_core::grid::Totals;
use warpscope_core::isa::{Pc, Pred, Reg};
use warpscope_core::kernel::vars::variables_at;
use warpscope_core::kernel::{CompiledSource, Note, NoteTarget};
use warpscope_core::machine::Machine;
use warpscope_core::model::{GroupOrder, ModelKind, PathOrder, Reconvergence, StackEntry};
use warpscope_core::session::{Captions, LaunchRecording, Named, Outcome, Resolved};
use warpscope_core::sim::{CostModel, LaneState, Metrics, PointMetrics, RunReport, Sim, StepRecord, WarpState};
use warpscope_core::structure::{Structured, TransformCounts};
use warpscope_core::{Diagnostic, Program, Severity};

#[derive(Serialize, TS)]
pub struct DiagnosticView {
    pub severity: Severity,
    pub line: u32,
    pub col: u32,
    pub len: u32,
    pub message: String,
}

impl From<&Diagnostic> for DiagnosticView {
    fn from(d: &Diagnostic) -> Self {
        DiagnosticView { severity: d.severity, line: d.span.line, col: d.span.col, len: d.span.len, message: d.message.clone() }
    }
}

#[derive(Serialize, TS)]
pub struct ParamView {
    pub name: String,
    /// As JS numbers: a default beyond 2^53 loses digits instead of failing to serialize.
    pub default: f64,
    pub value: f64,
    /// Takes a fraction (a float kernel parameter); otherwise a whole number.
    pub float: bool,
}

#[derive(Serialize, TS)]
pub struct LoadResult {
    pub ok: bool,
    pub diagnostics: Vec<DiagnosticView>,
    pub title: Option<String>,
    /// The kernel that runs (C's, PTX's or SASS's function), which names a kernel without a
    /// `//@ title`.
    pub kernel: Option<String>,
    pub about: String,
    pub width: u32,
    pub params: Vec<ParamView>,
    /// The input language the text was read as.
    pub input: &'static str,
    pub model: &'static str,
    pub preset: String,
    pub models: Vec<&'static str>,
    pub presets: Vec<&'static str>,
    /// PDOM path order, Volta group order (its `schedule`) and a launch's warp scheduler as
    /// used, and the choices.
    pub path_order: &'static str,
    pub path_orders: Vec<&'static str>,
    pub schedule: &'static str,
    pub schedules: Vec<&'static str>,
    pub warp_scheduler: &'static str,
    pub warp_schedulers: Vec<&'static str>,
    /// The model reconverges at thread frontiers: the CFG shows priorities and frontiers.
    pub uses_frontiers: bool,
    pub stack_capacity: u32,
    pub end: Option<Outcome>,
    /// The run goes on: `Session.resume` continues it.
    pub running: bool,
    /// The step the run ends by at the latest: its step limit, or its `stop_at` if sooner.
    pub last_step: u64,
    /// A whole launch: its block on screen, that block's warps and the warp in focus, the
    /// launch's counts (null for a warp run alone). The step is then the block's.
    pub launch: Option<LaunchView>,
    /// A file with `main()`: the whole program's run, whose launch `program.shown` the views show.
    pub program: Option<crate::program::ProgramView>,
}

impl LoadResult {
    /// What the page shows of a resolved request before it runs.
    pub fn new(r: &Resolved) -> LoadResult {
        let k = &r.kernel;
        let from_main = r.program.as_ref().is_some_and(|p| p.launch().is_some());
        LoadResult {
            ok: false,
            diagnostics: Vec::new(),
            title: k.title.clone(),
            kernel: k.compiled.as_ref().and_then(|c| c.running.clone()),
            about: k.about.join(" "),
            width: k.lanes(),
            // A program's launch takes what `main` passed: no param is the page's to set.
            params: r
                .params
                .iter()
                .filter(|_| !from_main)
                .map(|p| ParamView { name: p.name.clone(), default: p.default.as_f64(), value: p.value.as_f64(), float: p.float })
                .collect(),
            input: r.input.name(),
            model: r.model.name(),
            preset: r.preset.clone(),
            models: ModelKind::names(),
            presets: CostModel::names(),
            path_order: r.options.path_order.name(),
            path_orders: PathOrder::names(),
            schedule: r.options.group_order.name(),
            schedules: GroupOrder::names(),
            warp_scheduler: r.options.warp_scheduler.name(),
            warp_schedulers: WarpScheduler::names(),
            uses_frontiers: r.model.uses_frontiers(),
            stack_capacity: r.options.config_for(k).stack.capacity,
            end: None,
            running: false,
            last_step: r.stop_at.map_or(r.options.step_limit, |s| s.min(r.options.step_limit)),
            launch: None,
            program: r.program.as_ref().map(crate::program::ProgramView::new),
        }
    }
}

/// What a load of a whole launch adds to `LoadResult`.
#[derive(Serialize, TS)]
pub struct LaunchView {
    /// The block on screen (the launch's `block_idx=`, or the block where the launch failed).
    pub block_idx: [u32; 3],
    /// Its warps, and the one in focus first (the launch's `warp=`).
    pub warps: u32,
    pub focus: u32,
    /// The launch's grid and block dimensions.
    pub grid: [u32; 3],
    pub block: [u32; 3],
    /// The whole launch's counts (every block's), and the block on screen's steps.
    pub totals: Totals,
    pub steps: u64,
    /// Every block that ran, in blockIdx order, with its counts: what a block picker offers.
    pub blocks: Vec<BlockSummary>,
}

/// One block of the launch as the block picker lists it.
#[derive(Serialize, TS)]
pub struct BlockSummary {
    pub block_idx: [u32; 3],
    pub warp_instructions: u64,
    /// ncu's threads per instruction over the warp width.
    pub simd_efficiency: f64,
    pub divergent_branches: u64,
    pub barrier_waits: u64,
}

impl LaunchView {
    pub fn new(l: &LaunchRecording) -> LaunchView {
        let decl = l.kernel.launch();
        LaunchView {
            block_idx: l.launch().block_idx(),
            warps: l.launch().warps() as u32,
            focus: l.focused() as u32,
            grid: decl.grid,
            block: decl.block,
            totals: l.totals,
            steps: l.total(),
            blocks: l
                .blocks
                .iter()
                .map(|b| BlockSummary {
                    block_idx: b.block_idx,
                    warp_instructions: b.totals.warp_instructions,
                    simd_efficiency: b.totals.simd_efficiency(l.kernel.warp_width),
                    divergent_branches: b.totals.divergent_branches,
                    barrier_waits: b.totals.barrier_waits,
                })
                .collect(),
        }
    }
}

#[derive(Serialize, TS)]
pub struct LaneView {
    pub lane: u32,
    pub state: LaneState,
    pub pc: Option<u32>,
    pub line: Option<u32>,
    pub block: Option<u32>,
}

#[derive(Serialize, TS)]
pub struct StackEntryView {
    pub kind: &'static str,
    pub bits: String,
    pub lanes: Vec<u32>,
    pub pc: u32,
    pub addr: u32,
    pub line: Option<u32>,
    /// PDOM entries: the address where the entry is popped (`None`: only when its lanes exit).
    pub rpc_addr: Option<u32>,
    pub on_chip: bool,
    /// What an entry of this kind means in this model (its glossary term's words), and a short
    /// label for the legend.
    pub meaning: String,
    pub label: &'static str,
    /// The glossary word for entries of this kind (`BSYNC Bn` for `BSYNC B3`), which the help's
    /// glossary lists with the same meaning.
    pub term: &'static str,
}

impl StackEntryView {
    pub(crate) fn new(prog: &Program, e: &StackEntry, width: u32, model: ModelKind) -> StackEntryView {
        StackEntryView {
            kind: e.kind.name(),
            bits: e.mask.bits(width).to_string(),
            lanes: e.mask.iter().collect(),
            pc: e.pc.0,
            addr: prog.addr(e.pc),
            line: prog.line(e.pc),
            rpc_addr: e.rpc.map(|p| prog.addr(p)),
            on_chip: e.on_chip,
            meaning: e.kind.meaning(model, e.mask.is_empty()),
            label: e.kind.label(e.mask.is_empty()),
            term: e.kind.word(e.mask.is_empty()),
        }
    }
}

/// Every register and predicate of `lane`.
fn lane_registers(m: &Machine, lane: u32) -> (Vec<RegView>, Vec<PredView>) {
    let registers = (0..m.nregs.min(255))
        .map(|r| {
            let v = m.reg(lane, Reg(r as u8));
            RegView { name: format!("R{r}"), hex: format!("{v:#010x}"), int: v as i32, float: f32::from_bits(v) }
        })
        .collect();
    // SASS's uniform predicates (`UP0`...) where the run has set one for some lane.
    let uniform = (0..7).filter_map(Pred::uniform).filter(|p| !m.preds[p.0 as usize].is_empty());
    let predicates =
        (0..Pred::COUNT as u8).map(Pred).chain(uniform).map(|p| PredView { name: format!("{p}"), value: m.pred(lane, p) }).collect();
    (registers, predicates)
}

/// A C kernel's variables in scope at `lane`'s line, by name, as they hold now.
fn lane_variables(vars: &[VarInfo], m: &Machine, lane: u32, line: Option<u32>) -> Vec<VarView> {
    line.map_or_else(Vec::new, |line| {
        variables_at(vars, m, lane, line).into_iter().map(|v| VarView { name: v.name, ty: v.ty, reg: v.held_in, value: v.value }).collect()
    })
}

#[derive(Serialize, TS)]
pub struct RegView {
    pub name: String,
    pub hex: String,
    pub int: i32,
    pub float: f32,
}

#[derive(Serialize, TS)]
pub struct PredView {
    pub name: String,
    pub value: bool,
}

#[derive(Serialize, TS)]
pub struct WaitView {
    pub block: u32,
    pub lanes: Vec<u32>,
}

#[derive(Serialize, TS)]
pub struct LastView {
    pub pc: u32,
    pub line: Option<u32>,
    pub text: String,
    pub events: u16,
    /// Under a timing model (`h100-timed`): how the step was timed.
    pub timing: Option<TimingView>,
}

/// One step under the timing model: the cycle it issued, the cycles since the step before, and
/// in words what those cycles went to ("cycle 312, +15: 1 after BSSY, waited 14 for P0 ...").
#[derive(Serialize, TS)]
pub struct TimingView {
    pub cycle: f64,
    pub gap: f64,
    pub stall: f64,
    pub text: String,
}

#[derive(Serialize, TS)]
pub struct StateView {
    pub step: f64,
    pub status: &'static str,
    pub pc: Option<u32>,
    pub addr: Option<u32>,
    pub line: Option<u32>,
    pub block: Option<u32>,
    pub lanes: Vec<LaneView>,
    pub stack: Vec<StackEntryView>,
    /// A C kernel's variables in scope at the lane's line, with the lane's values.
    pub variables: Vec<VarView>,
    pub registers: Vec<RegView>,
    pub predicates: Vec<PredView>,
    pub waiting: Vec<WaitView>,
    pub last: Option<LastView>,
    pub caption: Option<String>,
}

/// What a state view reads of one warp: a warp run alone (`of_sim`) or a warp of a launch's
/// block, at the step on screen.
pub struct WarpLook<'a> {
    pub program: &'a Program,
    pub state: &'a WarpState,
    /// The step on screen (the run's, or the block's).
    pub step: u64,
    /// The record of that step, when this warp issued it.
    pub last: Option<StepRecord>,
    /// Each lane's part in the instruction about to issue.
    pub lanes: Vec<LaneState>,
}

impl<'a> WarpLook<'a> {
    pub fn of_sim(sim: &'a Sim) -> WarpLook<'a> {
        let last = sim.steps().checked_sub(1).and_then(|i| sim.timeline().record_at(i as usize));
        WarpLook { program: sim.program(), state: sim.state(), step: sim.steps(), last, lanes: sim.next_lane_states() }
    }
}

impl StateView {
    pub fn new(look: &WarpLook, facts: &CfgFacts, lane: u32, caption: Option<String>, vars: &[VarInfo]) -> StateView {
        let (prog, st) = (look.program, look.state);
        let m = &st.machine;
        let block_of = |pc: Pc| facts.graph.block_at(pc).map(|b| b.0);
        let pc = st.model.pc();
        let lanes: Vec<LaneView> = look
            .lanes
            .iter()
            .enumerate()
            .map(|(l, s)| {
                let lpc = st.lane_pc(prog, l as u32);
                LaneView {
                    lane: l as u32,
                    state: *s,
                    pc: lpc.map(|p| p.0),
                    line: lpc.and_then(|p| prog.line(p)),
                    block: lpc.and_then(block_of),
                }
            })
            .collect();
        // Waiting lanes grouped by the block where they resume.
        let mut waiting: Vec<WaitView> = Vec::new();
        for l in lanes.iter().filter(|l| l.state == LaneState::Waiting) {
            let Some(b) = l.block else { continue };
            match waiting.iter_mut().find(|w| w.block == b) {
                Some(w) => w.lanes.push(l.lane),
                None => waiting.push(WaitView { block: b, lanes: vec![l.lane] }),
            }
        }
        let lane = lane.min(m.width - 1);
        let (registers, predicates) = lane_registers(m, lane);
        let variables = lane_variables(vars, m, lane, lanes.get(lane as usize).and_then(|l| l.line));
        let last = look.last.map(|r| LastView {
            pc: r.pc,
            line: prog.line(Pc(r.pc)),
            text: prog.get(Pc(r.pc)).map_or(String::new(), |i| i.text.clone()),
            events: r.events,
            timing: st.timing.as_ref().and_then(|t| t.last).map(|t| TimingView {
                cycle: t.issue as f64,
                gap: t.gap as f64,
                stall: t.stall as f64,
                text: warpscope_core::sim::timing::describe(&t, prog),
            }),
        });
        StateView {
            step: look.step as f64,
            status: status_name(st),
            pc: pc.map(|p| p.0),
            addr: pc.map(|p| prog.addr(p)),
            line: pc.and_then(|p| prog.line(p)),
            block: pc.and_then(block_of),
            lanes,
            stack: st.model.stack().iter().map(|e| StackEntryView::new(prog, e, m.width, st.model.kind())).collect(),
            variables,
            registers,
            predicates,
            waiting,
            last,
            caption,
        }
    }
}

fn status_name(st: &WarpState) -> &'static str {
    use warpscope_core::sim::Status;
    match st.status {
        Status::Running => "running",
        Status::Exited => "exited",
        Status::Deadlock { .. } => "deadlock",
        Status::Fault { .. } => "fault",
    }
}

#[derive(Serialize, TS)]
pub struct InstrView {
    pub index: u32,
    pub addr: u32,
    pub line: u32,
    pub text: String,
    pub block: u32,
}

#[derive(Serialize, TS)]
pub struct BlockView {
    pub id: u32,
    /// `BB3`; under STRUCT the name of what the block is: `BB3'` (a copy), `cut1.test`.
    pub name: String,
    /// STRUCT: the original block this one is or copies (`None`: written by a cut, or not STRUCT).
    pub original: Option<u32>,
    /// STRUCT: 0 for an original block, n for its n-th copy.
    pub copy: u32,
    /// STRUCT: the block was written by a cut (guard code).
    pub made: bool,
    pub instrs: Vec<InstrView>,
    /// `None` when the immediate post-dominator is the exit (or there is none).
    pub ipdom: Option<u32>,
    pub reconverges_at: Option<u32>,
    pub is_branch: bool,
    pub priority: Option<u32>,
    pub reachable: bool,
    /// The first and last source line of the block's instructions (C lines for a C kernel).
    pub source_lines: Option<LineRange>,
    /// Thread frontier (block ids) with layout order as priority: the thread-frontier models'.
    pub frontier: Vec<u32>,
}

#[derive(Serialize, TS)]
pub struct LineRange {
    pub first: u32,
    pub last: u32,
}

impl LineRange {
    fn of(prog: &Program, pcs: core::ops::Range<u32>) -> Option<LineRange> {
        let lines = pcs.filter_map(|pc| prog.line(Pc(pc)));
        lines.fold(None, |r, l| match r {
            None => Some(LineRange { first: l, last: l }),
            Some(r) => Some(LineRange { first: r.first.min(l), last: r.last.max(l) }),
        })
    }
}

#[derive(Serialize, TS)]
pub struct EdgeView {
    pub from: u32,
    pub to: u32,
    pub kind: &'static str,
    pub back: bool,
}

#[derive(Serialize, TS)]
pub struct CfgView {
    pub blocks: Vec<BlockView>,
    pub edges: Vec<EdgeView>,
    pub instrs: Vec<InstrView>,
    pub stack_capacity: u32,
}

impl CfgView {
    /// The graph of `prog`; under STRUCT (`structured`) its blocks are named after the original
    /// blocks they are or copy.
    pub fn new(prog: &Program, facts: &CfgFacts, stack_capacity: u32, structured: Option<&Structured>) -> CfgView {
        let origins = structured.map(|s| s.blocks(&facts.graph));
        let instr = |pc: u32| InstrView {
            index: pc,
            addr: prog.addr(Pc(pc)),
            line: prog.line(Pc(pc)).unwrap_or(0),
            text: prog.instrs[pc as usize].text.clone(),
            block: facts.graph.block_at(Pc(pc)).map_or(0, |b| b.0),
        };
        let block_id = |p: Option<PostDom>| match p {
            Some(PostDom::Block(b)) => Some(b.0),
            _ => None,
        };
        let blocks = facts
            .blocks
            .iter()
            .map(|b| {
                let origin = origins.as_ref().and_then(|o| o.get(b.id.index()));
                BlockView {
                    id: b.id.0,
                    name: origin.map_or_else(|| b.id.to_string(), |o| o.name.clone()),
                    original: origin.and_then(|o| o.original).map(|o| o.0),
                    copy: origin.map_or(0, |o| o.copy),
                    made: origin.is_some_and(|o| o.original.is_none()),
                    instrs: (b.start.0..b.end.0).map(instr).collect(),
                    ipdom: block_id(b.ipdom),
                    reconverges_at: if b.divergent_branch { block_id(b.ipdom) } else { None },
                    is_branch: b.divergent_branch,
                    priority: b.priority,
                    reachable: b.priority.is_some(),
                    source_lines: LineRange::of(prog, b.start.0..b.end.0),
                    frontier: facts.frontiers.get(b.id.index()).map_or(Vec::new(), |f| f.iter().map(|x| x.0).collect()),
                }
            })
            .collect();
        let edges = facts.edges.iter().map(|e| EdgeView { from: e.from.0, to: e.to.0, kind: e.kind.name(), back: e.back }).collect();
        CfgView { blocks, edges, instrs: (0..prog.len() as u32).map(instr).collect(), stack_capacity }
    }
}

#[derive(Serialize, TS)]
pub struct MetricsView {
    #[serde(flatten)]
    pub metrics: PointMetrics,
    pub idle_instructions: u64,
    pub block_counts: Vec<u64>,
    pub instr_counts: Vec<u64>,
}

impl MetricsView {
    pub fn new(m: &Metrics, facts: &CfgFacts, width: u32) -> MetricsView {
        MetricsView {
            metrics: PointMetrics::of(m, width),
            idle_instructions: m.idle_instructions,
            block_counts: m.block_counts(&facts.graph),
            instr_counts: m.instr_counts.clone(),
        }
    }
}

#[derive(Serialize, TS)]
pub struct MetricsPair {
    pub now: MetricsView,
    pub total: MetricsView,
    /// STRUCT: the transforms the run's program came from (the paper's Table 5 counts).
    pub transforms: Option<TransformCounts>,
    /// STRUCT: instructions after the transform over before, minus one.
    pub static_expansion: Option<f64>,
}

/// A `//@ note` as the loaded run places it.
#[derive(Serialize, TS)]
pub struct NoteView {
    /// What it is tied to: `step 5`, `div 2`, or `pc 3` for an instruction.
    pub target: String,
    /// A step or event note's moment: shown from `step` until before `until`; null for an
    /// instruction note and for a note this run never reaches.
    pub step: Option<f64>,
    pub until: Option<f64>,
    /// An instruction note's instruction.
    pub instr: Option<u32>,
    pub line: u32,
    pub text: String,
}

impl NoteView {
    pub fn all(notes: &[Note], captions: &Captions) -> Vec<NoteView> {
        let view = |(i, n): (usize, &Note)| {
            let moment = captions.moment_of(i);
            NoteView {
                target: n.target.to_string(),
                step: moment.map(|m| m.step as f64),
                until: moment.map(|m| m.end as f64),
                instr: if let NoteTarget::Instr(pc) = n.target { Some(pc.0) } else { None },
                line: n.span.line,
                text: n.text.clone(),
            }
        };
        notes.iter().enumerate().map(view).collect()
    }
}

/// A C variable of the selected lane (`variables_at` in the core).
#[derive(Serialize, TS)]
pub struct VarView {
    pub name: String,
    pub ty: String,
    pub reg: String,
    pub value: String,
}

/// A C or PTX kernel's generated code: per instruction (pc), its line in `listing` and in the source.
#[derive(Serialize, TS)]
pub struct CompiledView {
    pub target: &'static str,
    pub if_convert: bool,
    /// The file's `__global__` kernels (the one compiled is chosen by `//@ kernel`, else the first).
    pub kernels: Vec<String>,
    pub listing: String,
    pub listing_lines: Vec<u32>,
    pub source_lines: Vec<u32>,
    /// `c` or `ptx`.
    pub input: &'static str,
    /// PTX with `.loc`: each instruction's CUDA line (0: none), and the CUDA file's name.
    pub cuda_lines: Vec<u32>,
    pub cuda_file: Option<String>,
}

impl CompiledView {
    pub fn new(prog: &Program, c: &CompiledSource) -> CompiledView {
        CompiledView {
            target: c.target.name(),
            if_convert: c.if_convert,
            kernels: c.kernels.clone(),
            listing: c.listing.clone(),
            listing_lines: c.listing_lines.clone(),
            source_lines: prog.lines.clone(),
            input: c.input.name(),
            cuda_lines: c.cuda_lines.clone(),
            cuda_file: c.cuda_file.clone(),
        }
    }
}

/// The thread-frontier paper's metrics of a whole run, for the compare table.
#[derive(Serialize, TS)]
pub struct ReportView {
    pub model: &'static str,
    pub stop: Outcome,
    pub warp_instructions: f64,
    pub thread_instructions: f64,
    pub activity_factor: f64,
    /// Warp instructions over the MIMD minimum, minus one; `None` for the mimd model itself and
    /// for a run that stopped early (deadlock, fault, step limit).
    pub code_expansion: Option<f64>,
    /// Why `code_expansion` is missing (`the reference`, `stopped early`, `no MIMD minimum`).
    pub code_expansion_missing: Option<&'static str>,
    pub idle_instructions: f64,
    pub max_stack_depth: f64,
    pub divergent_branches: f64,
    pub cycles: f64,
    pub memory_instructions: f64,
    pub memory_transactions: f64,
    /// Transactions per warp memory instruction; `None` when the kernel touches no memory.
    pub transactions_per_memory_instruction: Option<f64>,
    pub block_counts: Vec<f64>,
    pub mimd_block_counts: Vec<f64>,
    pub mimd_warp_instructions: f64,
    pub mimd_complete: bool,
    /// STRUCT: the transforms applied and the instructions before and after.
    pub transforms: Option<TransformCounts>,
    /// STRUCT: instructions after over before, minus one.
    pub static_expansion: Option<f64>,
}

impl ReportView {
    pub fn new(model: ModelKind, stop: &Outcome, r: &RunReport) -> ReportView {
        let f = |v: &[u64]| v.iter().map(|x| *x as f64).collect();
        ReportView {
            model: model.name(),
            warp_instructions: r.warp_instructions as f64,
            thread_instructions: r.thread_instructions as f64,
            activity_factor: r.activity_factor,
            code_expansion: stop.code_expansion(model, r),
            code_expansion_missing: stop.no_code_expansion(model, r),
            idle_instructions: r.idle_instructions as f64,
            max_stack_depth: r.max_stack_depth as f64,
            divergent_branches: r.divergent_branches as f64,
            cycles: r.cycles as f64,
            memory_instructions: r.memory_instructions as f64,
            memory_transactions: r.memory_transactions as f64,
            transactions_per_memory_instruction: (r.memory_instructions > 0).then(|| r.transactions_per_memory_instruction()),
            block_counts: f(&r.block_counts),
            mimd_block_counts: f(&r.mimd_block_counts),
            mimd_warp_instructions: r.mimd_warp_instructions as f64,
            mimd_complete: r.mimd_complete,
            transforms: r.transforms,
            static_expansion: r.transforms.map(|t| t.static_expansion()),
            stop: stop.clone(),
        }
    }
}
