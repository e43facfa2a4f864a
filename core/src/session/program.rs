//! A request for a whole program (a C file with `main()`, unless `kernel_only`): `main()` runs
//! (`crate::host`) and the launch chosen (`RunRequest.launch`, the first unless said) is the run
//! the views show, with the sizes, arguments and device memory `main` gave it. When the host
//! code does not compile, its problems are warnings and the kernel runs alone, as before.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::choices::RunChoices;
use crate::diag::{Diagnostic, Severity, Span};
use crate::host::{run_program, HostLaunch, ProgramRun};
use crate::input::InputKind;
use crate::kernel::Kernel;
use crate::launch::LaunchOptions;
use crate::model::ModelKind;

/// The program behind a request, and the launch the views show.
#[derive(Clone, Debug)]
pub struct ProgramShown {
    /// The program's text, whose kernels its launches compile.
    pub source: String,
    pub run: ProgramRun,
    /// The launch shown (an index into `run.launches`); `None` when it made none to show.
    pub shown: Option<usize>,
}

impl ProgramShown {
    /// The launch shown, when it can be shown (its inputs were kept).
    pub fn launch(&self) -> Option<&HostLaunch> {
        self.shown.and_then(|k| self.run.launches.get(k)).filter(|l| l.inputs.is_some())
    }
}

/// The program of a request's text, unless its choices ask for the kernel alone or it is not C:
/// run under the chosen model, else the H100's (volta); and the problems of host code that did
/// not compile (warnings: the kernel then runs alone).
pub fn for_request(text: &str, choices: &RunChoices, input: Option<InputKind>) -> (Option<ProgramShown>, Vec<Diagnostic>) {
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
    match run_whole(text, choices.launch, model, &base) {
        Some(Ok(p)) => (Some(p), Vec::new()),
        Some(Err(problems)) => (None, problems),
        None => (None, Vec::new()),
    }
}

/// The kernel of launch `l` read as `main` launched it: its sizes, and none of the notes that
/// are about a kernel run alone (host code skipped, the launch not read, which kernel runs).
pub fn adopt(l: &HostLaunch, kernel: &mut Kernel, diagnostics: &mut Vec<Diagnostic>) {
    kernel.launch = l.inputs.as_ref().map(|i| i.decl);
    let alone = ["host code skipped", "this launch, `", "this file has "];
    diagnostics.retain(|d| !(d.severity == Severity::Info && alone.iter().any(|a| d.message.starts_with(a))));
}

/// Runs `text`'s `main()` when it has one: the program, or (host code that does not compile)
/// the problems as warnings with a note that the kernel runs alone.
pub fn run_whole(text: &str, want: Option<u32>, model: ModelKind, base: &LaunchOptions) -> Option<Result<ProgramShown, Vec<Diagnostic>>> {
    if !crate::compile::defines_main(text) {
        return None;
    }
    let opts = LaunchOptions { model: Some(model), record: false, ..base.clone() };
    Some(match run_program(text, &opts) {
        Ok(run) => {
            let shown = match want {
                Some(k) if (k as usize) < run.launches.len() => Some(k as usize),
                _ => (!run.launches.is_empty()).then_some(0),
            };
            Ok(ProgramShown { source: String::from(text), run, shown })
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
