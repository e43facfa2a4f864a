//! Running a whole program: `main` on a one-lane host machine, each `HOST` call served before
//! it issues (`calls`), each launch run on the whole-launch engine.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::calls::Host;
use super::device::Code;
use crate::compile::{compile, CompileOptions, Target};
use crate::diag::{Diagnostic, Severity, Span};
use crate::isa::Op;
use crate::launch::LaunchOptions;
use crate::machine::{Machine, Memory, HOST_BASE};
use crate::model::{ModelKind, Reconvergence};
use crate::program::{PlainPcs, Program};
use crate::sim::{SimConfig, Status, WarpState, WarpSteps};

/// Host code may take this many times a launch's step limit: one lane fills and checks a whole
/// launch's data in loops (a million elements, a few steps each).
pub const HOST_STEPS_PER_LIMIT: u64 = 10;

/// How a program's run ended.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ProgramEnd {
    /// `main` returned or `exit` was called, with this status.
    Exited(i32),
    /// The host code faulted, or ran past the step limit: where and why.
    Failed { line: u32, message: String },
}

/// One launch the program made.
#[derive(Clone, Debug)]
pub struct HostLaunch {
    pub kernel: String,
    /// The host line that launched it.
    pub line: u32,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub shared: u32,
    pub params: Vec<(String, crate::kernel::expr::Value)>,
    /// How it ended and what it counted (its memory is the program's, after it).
    pub end: crate::grid::LaunchEnd,
    pub totals: crate::grid::Totals,
    /// What it started from (`None` when a program's launches hold too much memory to keep):
    /// `relaunch` runs it again from here.
    pub inputs: Option<LaunchInputs>,
}

/// A launch's start: its sizes, its argument words as `main` passed them, and the device
/// memory as it was.
#[derive(Clone, Debug)]
pub struct LaunchInputs {
    pub decl: crate::kernel::LaunchDecl,
    pub words: Vec<u32>,
    pub memory: Memory,
}

/// The launcher of launch `l` of the program of `code`, as it ran (under `opts`' model), for
/// a front end that shows it step by step.
pub fn relaunch(code: Code, l: &HostLaunch, opts: &LaunchOptions) -> Result<crate::grid::Launcher, String> {
    let Some(inputs) = &l.inputs else {
        return Err(format!(
            "the launch of `{}` at line {} is not kept: the program's launches hold more memory than warpscope keeps to show them",
            l.kernel, l.line
        ));
    };
    let kernel = super::device::DeviceKernel::compile(code, &l.kernel, opts)?;
    kernel.launcher(inputs.decl, &inputs.words, inputs.memory.clone(), opts)
}

/// A whole program's run.
#[derive(Clone, Debug)]
pub struct ProgramRun {
    /// What it printed, host and device lines in the order a GPU run prints them.
    pub stdout: String,
    pub stderr: String,
    pub end: ProgramEnd,
    pub launches: Vec<HostLaunch>,
    /// Host steps taken.
    pub host_steps: u64,
    /// Notes on the run (device output never flushed, a launch that failed).
    pub notes: Vec<Diagnostic>,
}

/// Runs `src`'s `main()`, every launch under `opts` (its model, scheduler and step limit; the
/// host code's own steps count against the same limit), its kernels compiled from the C.
pub fn run_program(src: &str, opts: &LaunchOptions) -> Result<ProgramRun, Vec<Diagnostic>> {
    run_program_code(Code::cuda(src), opts)
}

/// `run_program` of `code`: with SASS, its kernels run the SASS's code.
pub fn run_program_code(code: Code, opts: &LaunchOptions) -> Result<ProgramRun, Vec<Diagnostic>> {
    let src = code.cuda;
    // Host code compiles as gcc does on x86-64: no fused multiply-adds.
    let options = CompileOptions { target: Target::Kepler, host: true, fmad: false, ..CompileOptions::default() };
    let (out, diags) = compile(src, options);
    let errors: Vec<Diagnostic> = diags.iter().filter(|d| d.severity == Severity::Error).cloned().collect();
    let Some(c) = out.filter(|_| errors.is_empty()) else { return Err(errors) };
    let step_limit = opts.step_limit.saturating_mul(HOST_STEPS_PER_LIMIT);
    let config = SimConfig { model: ModelKind::Kepler, step_limit, record: false, ..SimConfig::default() };
    let mut memory = Memory::default();
    memory.first_base = HOST_BASE;
    let mut machine = Machine::new(1, 255, memory);
    machine.host = true;
    let program = c.program.clone();
    let mut st = WarpState::start(&program, machine, &config, false);
    let plain = PlainPcs::of(&program, config.model.plain_branches());
    let steps = WarpSteps { program: &program, plain: &plain, config: &config, warp_width: 1 };
    let mut host = Host::new(code, &c.arrays, opts);
    let mut exit = None;
    while st.status == Status::Running && exit.is_none() {
        steps.run(&mut st, config.step_limit);
        if st.status != Status::Running || st.metrics.steps >= config.step_limit {
            break;
        }
        let pc = st.model.pc().unwrap_or_default();
        if let Some(Op::Host { id, base, words }) = program.get(pc).map(|i| i.op) {
            let line = program.line(pc).unwrap_or(0);
            let name = program.calls.get(id as usize).cloned().unwrap_or_default();
            exit = host.serve(&name, line, base, words, &mut st.machine);
        }
        steps.one(&mut st);
    }
    let end = match (&st.status, exit) {
        (_, Some(end)) => end,
        (Status::Exited, None) => ProgramEnd::Exited(c.exit_reg.map_or(0, |r| st.machine.reg(0, crate::isa::Reg(r)) as i32)),
        (Status::Fault { pc, message, .. } | Status::Deadlock { pc, message }, None) => {
            ProgramEnd::Failed { line: program.line(*pc).unwrap_or(0), message: host_fault(message) }
        }
        (Status::Running, None) => ProgramEnd::Failed {
            line: current_line(&program, &st),
            message: format!(
                "the host code stopped after {} steps ({HOST_STEPS_PER_LIMIT} times the step limit): an endless loop in `main`? A longer run needs a higher step limit",
                st.metrics.steps
            ),
        },
    };
    Ok(host.finish(end, st.metrics.steps))
}

fn current_line(program: &Program, st: &WarpState) -> u32 {
    st.model.pc().and_then(|pc| program.line(pc)).unwrap_or(0)
}

/// A fault of the host code, in its terms: a device pointer dereferenced on the host is the
/// usual one.
fn host_fault(message: &str) -> String {
    format!("the host code faulted (a segmentation fault on a real machine): {message}")
}

/// A located note.
pub(super) fn note(line: u32, message: String) -> Diagnostic {
    Diagnostic { severity: Severity::Info, span: Span::new(line.max(1), 1, 1), message }
}
