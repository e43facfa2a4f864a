//! A request for a whole program (a C file with `main()`, unless `kernel_only`): `main()` runs
//! (`crate::host`) and the launch chosen (`RunRequest.launch`, the first unless said) is the run
//! the views show, with the sizes, arguments and device memory `main` gave it. When the host
//! code does not compile, its problems are warnings and the kernel runs alone, as before.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::choices::RunChoices;
use crate::diag::{Diagnostic, Severity, Span};
use crate::host::{run_program_code, Code, HostLaunch, ProgramEnd, ProgramRun};
use crate::input::InputKind;
use crate::kernel::Kernel;
use crate::launch::LaunchOptions;

/// The program behind a request, and the launch the views show.
#[derive(Clone, Debug)]
pub struct ProgramShown {
    /// The program's text, whose kernels its launches compile.
    pub source: String,
    /// Its SASS, whose kernels its launches run instead, when the request gave it.
    pub sass: Option<String>,
    /// What `main` ran under (its model, scheduler, orders and step limit).
    pub options: LaunchOptions,
    pub run: ProgramRun,
    /// The launch shown (an index into `run.launches`); `None` when it made none to show.
    pub shown: Option<usize>,
}

impl ProgramShown {
    /// The code its launches run.
    pub fn code(&self) -> Code<'_> {
        Code { cuda: &self.source, sass: self.sass.as_deref() }
    }

    /// The launch shown, when it can be shown (its inputs were kept).
    pub fn launch(&self) -> Option<&HostLaunch> {
        self.shown.and_then(|k| self.run.launches.get(k)).filter(|l| l.inputs.is_some())
    }
}

/// The program of a request's text, unless its choices ask for the kernel alone or it is not C:
/// run under the chosen model, else the H100's (volta); and the problems of host code that did
/// not compile (warnings: the kernel then runs alone). `earlier`, the program of an earlier
/// request, is taken as it is when it ran the same text under the same options, so that picking
/// another launch does not run `main` again (a million-element host loop takes seconds).
pub fn for_request(
    text: &str,
    sass: Option<&str>,
    choices: &RunChoices,
    input: Option<InputKind>,
    earlier: Option<ProgramShown>,
) -> (Option<ProgramShown>, Vec<Diagnostic>) {
    if choices.kernel_only == Some(true) || input.is_some_and(|i| i != InputKind::C) {
        return (None, Vec::new());
    }
    let model = choices.model_kind().unwrap_or(crate::host::DEFAULT_MODEL);
    let base = LaunchOptions {
        warp_scheduler: choices.warp_scheduler_or_default(),
        group_order: choices.group_order_or_default(),
        path_order: choices.path_order_or_default(),
        ..LaunchOptions::default()
    };
    let options = LaunchOptions { model: Some(model), record: false, ..base };
    if let Some(p) = earlier.filter(|p| p.source == text && p.sass.as_deref() == sass && p.options == options) {
        let shown = shown_of(&p.run, choices.launch);
        return (Some(ProgramShown { shown, ..p }), Vec::new());
    }
    match run_whole(Code { cuda: text, sass }, choices.launch, &options) {
        Some(Ok(p)) => (Some(p), Vec::new()),
        Some(Err(problems)) => (None, problems),
        None => (None, Vec::new()),
    }
}

/// The kernel of launch `l` read as `main` launched it: its sizes, and none of the notes that
/// are about a kernel run alone (host code skipped, the launch not read, which kernel runs).
pub fn adopt(l: &HostLaunch, kernel: &mut Kernel, diagnostics: &mut Vec<Diagnostic>) {
    kernel.launch = l.inputs.as_ref().map(|i| i.decl);
    let alone = ["host code skipped", "this launch, `", "this file has ", "this SASS has "];
    diagnostics.retain(|d| !(d.severity == Severity::Info && alone.iter().any(|a| d.message.starts_with(a))));
}

/// The block of the launch the views show, as chosen: a block outside the launch's grid is a
/// warning, and the first block shows.
pub fn pick_block(chosen: Option<[u32; 3]>, kernel: &mut Kernel, diagnostics: &mut Vec<Diagnostic>) {
    let (Some(b), Some(decl)) = (chosen, kernel.launch.as_mut()) else { return };
    if b.iter().zip(decl.grid).all(|(&i, g)| i < g) {
        decl.block_idx = b;
        return;
    }
    let [x, y, z] = b;
    let [gx, gy, gz] = decl.grid;
    let message = format!("block ({x}, {y}, {z}) is not in the launch's grid ({gx}, {gy}, {gz}): the views show block (0, 0, 0)");
    diagnostics.push(Diagnostic::warning(Span::new(1, 1, 1), message));
}

/// Runs `text`'s `main()` when it has one: the program, or (host code that does not compile)
/// the problems as warnings with a note that the kernel runs alone.
fn run_whole(code: Code, want: Option<u32>, options: &LaunchOptions) -> Option<Result<ProgramShown, Vec<Diagnostic>>> {
    if !crate::compile::defines_main(code.cuda) {
        return None;
    }
    Some(match run_program_code(code, options) {
        Ok(run) => {
            let shown = shown_of(&run, want);
            let (source, sass) = (String::from(code.cuda), code.sass.map(String::from));
            Ok(ProgramShown { source, sass, options: options.clone(), run, shown })
        }
        Err(errors) => {
            let mut out: Vec<Diagnostic> = errors.into_iter().map(|d| Diagnostic { severity: Severity::Warning, ..d }).collect();
            let message = String::from(
                "`main()` does not run: its host code uses what warpscope does not run (the warnings say where). The kernel runs alone, with the `//@` inputs or made-up ones",
            );
            out.push(Diagnostic::info(Span::new(1, 1, 1), message));
            Err(out)
        }
    })
}

/// What the Problems panel says of the run itself: where the host code failed (a fault, the
/// step limit), and the run's notes (a launch that failed, device output never shown, simulated
/// times). Warnings and notes: the launches made before a failure still run and show.
pub fn problems(p: &ProgramShown) -> Vec<Diagnostic> {
    let mut out: Vec<Diagnostic> = p.run.notes.clone();
    if let ProgramEnd::Failed { line, message } = &p.run.end {
        let message = format!("`main()` stopped at line {line}: {message}");
        out.push(Diagnostic::warning(Span::new((*line).max(1), 1, 1), message));
    }
    out
}

/// The launch wanted, when the run made it; else the first.
fn shown_of(run: &ProgramRun, want: Option<u32>) -> Option<usize> {
    match want {
        Some(k) if (k as usize) < run.launches.len() => Some(k as usize),
        _ => (!run.launches.is_empty()).then_some(0),
    }
}

/// Why a chosen launch cannot be shown, if it cannot.
pub fn not_shown(p: &ProgramShown) -> Option<Diagnostic> {
    let k = p.shown?;
    let l = &p.run.launches[k];
    l.inputs.is_none().then(|| {
        let message = format!(
            "launch {} (`{}` at line {}) is not shown: the program's launches hold more memory than warpscope keeps to show them",
            k + 1,
            l.kernel,
            l.line
        );
        Diagnostic::warning(Span::new(l.line.max(1), 1, 1), message)
    })
}
