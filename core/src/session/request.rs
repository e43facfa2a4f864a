//! A run as a front end asks for it, by names and plain numbers (`RunRequest`), and the one
//! place that turns it into a kernel and launch options (`RunRequest::resolve`). The CLI's
//! flags, the page's load options, a permalink's choices and the report worker's reload all
//! become a `RunRequest`, so a name means the same everywhere and a bad one is refused with
//! the same words.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::choice::Named;
use super::choices::RunChoices;
use crate::diag::{Diagnostic, Span};
use crate::input::InputKind;
use crate::kernel::expr::Value;
use crate::kernel::{param_defaults, parse_kernel_with, takes_float, Kernel, SourceOptions};
use crate::launch::LaunchOptions;
use crate::model::{ModelKind, StackConfig};
use crate::sim::{CostModel, DEFAULT_STEP_LIMIT};

/// The fewest steps a recorded run may be limited to.
pub const MIN_STEP_LIMIT: u64 = 1_000;
/// The most steps a recorded run may take: every step is kept for scrubbing, so this bounds
/// the recording's memory (a run this long loads in chunks and can be stopped).
pub const MAX_RECORDED_STEPS: u64 = 50_000_000;
/// The largest integer a JS number holds exactly: params beyond it would not round-trip.
const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// What to do with params the kernel does not declare.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum StaleParams {
    /// An error: a name typed on the command line is a typo.
    #[default]
    Refuse,
    /// Dropped: the page carries values across edits, and the user just renamed the param.
    Drop,
}

/// The on-chip stack as asked for; unset fields come from the kernel's `//@ stack`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct StackChoice {
    pub capacity: Option<u32>,
    pub chunk: Option<u32>,
    /// The hard limit (`//@ stack limit=N`).
    pub limit: Option<u32>,
}

/// One run, as any front end asks for it. Unset choices fall back to the kernel's `//@`
/// headers, then to the defaults.
#[derive(Clone, PartialEq, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RunRequest {
    /// The kernel file's text.
    pub text: String,
    /// The input language by name (`listing`, `c`); unset: told by the text.
    pub input: Option<String>,
    /// Which kernel of the file runs (C `__global__` or PTX `.entry`, mangled or not); unset:
    /// the header's `//@ kernel`, else the first.
    pub kernel: Option<String>,
    /// Model, preset and policies, by name.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub choices: RunChoices,
    /// Param values by name (numbers as JSON has them: whole, within +-2^53).
    pub params: BTreeMap<String, f64>,
    pub stale_params: StaleParams,
    /// Cost fields set over the preset (`spill` = 50).
    pub costs: BTreeMap<String, u32>,
    pub stack: StackChoice,
    /// Steps after which the run stops (unset: the core's default, 10 million).
    pub step_limit: Option<f64>,
    /// Record every step for replay; then the step limit must lie in
    /// `MIN_STEP_LIMIT..=MAX_RECORDED_STEPS`.
    pub record: bool,
    /// End the run after exactly this many steps as if the user had stopped it there (a
    /// stopped run loaded again); a run that ends sooner ends as it would.
    pub stop_at: Option<f64>,
    /// A program's SASS (`cuobjdump -sass` of its executable): its launches run the SASS's
    /// kernels, the code the GPU ran, in place of warpscope's compile of the C.
    pub sass: Option<String>,
}

/// Which part of a request a problem is in (the CLI names its flag).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Field {
    Input,
    Model,
    Preset,
    PathOrder,
    Schedule,
    WarpScheduler,
    Param(String),
    Cost(String),
    Stack,
    StepLimit,
    StopAt,
}

/// A problem with a request's own choices (not with the kernel text).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ChoiceError {
    pub field: Field,
    /// The value as given.
    pub value: String,
    pub message: String,
}

impl ChoiceError {
    /// As a diagnostic at the top of the kernel, for front ends that show them in the editor.
    pub fn diagnostic(&self) -> Diagnostic {
        Diagnostic::error(Span::new(1, 1, 0), self.message.clone())
    }
}

/// A param's value as the run uses it.
#[derive(Clone, PartialEq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ParamValue {
    pub name: String,
    /// The kernel's default (0 where its expression fails).
    pub default: Value,
    pub value: Value,
    /// Takes a fraction (a float parameter's); otherwise a whole number.
    pub float: bool,
}

/// A request made concrete: the kernel read for the chosen model, the options to launch it
/// with, and every problem found.
#[derive(Clone, Debug)]
pub struct Resolved {
    pub kernel: Kernel,
    pub options: LaunchOptions,
    pub model: ModelKind,
    /// The preset's name as used.
    pub preset: String,
    pub input: InputKind,
    /// Every declared param and the value used.
    pub params: Vec<ParamValue>,
    pub stop_at: Option<u64>,
    /// Problems in the kernel text (and params, at their declarations).
    pub diagnostics: Vec<Diagnostic>,
    /// Problems with the request's choices.
    pub choice_errors: Vec<ChoiceError>,
    /// The run is the kernel's whole launch (it has several warps, and one warp alone was not
    /// chosen), not one warp.
    pub whole_launch: bool,
    /// The whole program that ran, when the text has `main()`: the run shown is its launch.
    pub program: Option<super::program::ProgramShown>,
}

impl Resolved {
    /// True when the run can start: no error anywhere.
    pub fn ok(&self) -> bool {
        self.choice_errors.is_empty() && !self.diagnostics.iter().any(Diagnostic::is_error)
    }
    /// Every problem as a located diagnostic, choices first (at line 1), sorted by place.
    pub fn all_diagnostics(&self) -> Vec<Diagnostic> {
        let mut all: Vec<Diagnostic> = self.choice_errors.iter().map(ChoiceError::diagnostic).collect();
        all.extend(self.diagnostics.iter().cloned());
        all
    }

    /// The launcher of the whole launch: a program's launch as `main` made it (its memory,
    /// arguments and sizes), else the kernel's with its inputs. Every front end's whole-launch
    /// run starts here, so none runs a program's kernel with made-up inputs.
    pub fn launcher(&self) -> Result<crate::grid::Launcher, Vec<Diagnostic>> {
        match self.program.as_ref().and_then(|p| Some((p, p.launch()?))) {
            Some((p, l)) => crate::host::relaunch(p.code(), l, &self.options)
                .map_err(|why| alloc::vec![Diagnostic::error(crate::diag::Span::new(l.line.max(1), 1, 1), why)]),
            None => crate::grid::Launcher::new(&self.kernel, &self.options),
        }
    }
}

/// The step limit of a recorded run (the page's, a sweep's), or why `v` cannot be one.
pub fn recorded_step_limit(v: f64) -> Result<u64, String> {
    whole(v, MIN_STEP_LIMIT, MAX_RECORDED_STEPS).ok_or_else(|| {
        format!("the step limit {v} is not a whole number from {MIN_STEP_LIMIT} to {MAX_RECORDED_STEPS}; choose one in Settings")
    })
}

/// A whole number of steps from a JSON number, or why not.
fn whole(value: f64, lo: u64, hi: u64) -> Option<u64> {
    (is_integer(value) && value >= lo as f64 && value <= hi as f64).then_some(value as u64)
}

/// A finite number without a fraction (`f64::fract` needs std).
fn is_integer(v: f64) -> bool {
    v.is_finite() && v == (v as i64) as f64
}

impl RunRequest {
    /// A request for `text` with every choice left to the kernel.
    pub fn of_text(text: &str) -> RunRequest {
        RunRequest { text: text.to_string(), ..RunRequest::default() }
    }

    /// Reads the kernel for the chosen model and resolves every choice. Never fails: problems
    /// come back located in `Resolved`, and the choices fall back to what the kernel says.
    pub fn resolve(&self) -> Resolved {
        self.resolve_after(None)
    }

    /// `resolve`, taking `earlier` (the program of the request before) as the program when it
    /// ran the same text under the same options (`program::for_request`).
    pub fn resolve_after(&self, earlier: Option<super::program::ProgramShown>) -> Resolved {
        let mut errors = Vec::new();
        if let Some(v) = &self.input {
            if let Err(message) = InputKind::choose(v) {
                errors.push(ChoiceError { field: Field::Input, value: v.clone(), message });
            }
        }
        errors.extend(self.choices.problems());
        let input = self.input.as_deref().and_then(InputKind::from_name);
        let mut chosen_model = self.choices.model_kind();

        // A whole program runs first; its launch is the run shown.
        let (program, mut program_problems) = super::program::for_request(&self.text, self.sass.as_deref(), &self.choices, input, earlier);
        if program.is_some() {
            chosen_model = Some(chosen_model.unwrap_or(crate::host::DEFAULT_MODEL));
        }
        let shown = program.as_ref().and_then(super::program::ProgramShown::launch);

        // C compiles for the chosen model's target (unset: the kernel's `//@ model`).
        let source = SourceOptions {
            input,
            target: chosen_model.map(ModelKind::compile_target),
            if_convert: self.choices.if_convert,
            kernel: shown.map(|l| l.kernel.clone()).or_else(|| self.kernel.clone()),
            frontiers: chosen_model.map(ModelKind::uses_frontiers),
            structural: chosen_model.map(|m| m == ModelKind::Struct),
        };
        // A program given its SASS shows the SASS's kernel, the code its launches run.
        let (mut kernel, mut diagnostics) = match (shown, &self.sass) {
            (Some(_), Some(sass)) => parse_kernel_with(sass, &SourceOptions { input: Some(InputKind::Sass), ..source }),
            _ => parse_kernel_with(&self.text, &source),
        };
        if let Some(l) = shown {
            super::program::adopt(l, &mut kernel, &mut diagnostics);
            super::program::pick_block(self.choices.block, &mut kernel, &mut diagnostics);
        }
        diagnostics.append(&mut program_problems);
        diagnostics.extend(program.as_ref().and_then(super::program::not_shown));
        diagnostics.extend(program.iter().flat_map(super::program::problems));
        let model = match (chosen_model.or(kernel.model), &kernel.arch_model) {
            (Some(m), _) => m,
            (None, Some((m, arch, at))) => {
                let message = format!(
                    "runs under {}: the dump's architecture ({arch}) reconverges with convergence barriers (BSSY/BSYNC), as Volta and later GPUs do; choose another model to compare (kepler and pdom-ssy cannot run them)",
                    m.name()
                );
                diagnostics.push(crate::diag::Diagnostic::info(*at, message));
                *m
            }
            (None, None) => ModelKind::Kepler,
        };
        let preset = self
            .choices
            .preset
            .as_deref()
            .filter(|p| CostModel::preset(p).is_some())
            .map(String::from)
            .or_else(|| kernel.preset.clone())
            .unwrap_or_else(|| model.default_preset().into());
        let mut cost = CostModel::preset(&preset).unwrap_or_default();
        for (field, &cycles) in &self.costs {
            if !cost.set(field, cycles) {
                let message = format!("unknown cost field `{field}` (known: instruction, divergence, spill, fill)");
                errors.push(ChoiceError { field: Field::Cost(field.clone()), value: format!("{field}={cycles}"), message });
            }
        }

        let mut options = LaunchOptions {
            model: Some(model),
            cost: Some(cost),
            path_order: self.choices.path_order_or_default(),
            group_order: self.choices.group_order_or_default(),
            warp_scheduler: self.choices.warp_scheduler_or_default(),
            record: self.record,
            ..LaunchOptions::default()
        };
        if self.stack != StackChoice::default() {
            let base = kernel.stack.unwrap_or_default();
            let st = StackConfig {
                capacity: self.stack.capacity.unwrap_or(base.capacity),
                chunk: self.stack.chunk.unwrap_or(base.chunk),
                ..base
            };
            match stack_problem(&st) {
                Some(message) => errors.push(ChoiceError { field: Field::Stack, value: format!("{}/{}", st.capacity, st.chunk), message }),
                None => options.stack = Some(st),
            }
        }
        options.step_limit = match self.step_limit {
            None => DEFAULT_STEP_LIMIT,
            Some(v) => {
                let checked = if self.record {
                    recorded_step_limit(v)
                } else {
                    whole(v, 1, u64::MAX).ok_or_else(|| format!("the step limit {v} is not a whole number of steps, 1 or more"))
                };
                checked.unwrap_or_else(|message| {
                    errors.push(ChoiceError { field: Field::StepLimit, value: format!("{v}"), message });
                    DEFAULT_STEP_LIMIT
                })
            }
        };
        let stop_at = self.stop_at.and_then(|s| {
            let at = whole(s, 0, MAX_SAFE_INTEGER as u64);
            if at.is_none() {
                let message = format!("stop_at = {s} is not a whole number of steps");
                errors.push(ChoiceError { field: Field::StopAt, value: format!("{s}"), message });
            }
            at
        });

        let params = match shown {
            // What `main` passed, as it passed it.
            Some(l) => l
                .params
                .iter()
                .map(|(name, v)| ParamValue { name: name.clone(), default: *v, value: *v, float: matches!(v, Value::Float(_)) })
                .collect(),
            None => self.params_for(&kernel, &mut options, &mut diagnostics),
        };
        let kernel_several_warps = kernel.several_warps() || shown.is_some();
        Resolved {
            input: input.unwrap_or_else(|| crate::input::detect(&self.text)),
            kernel,
            options,
            model,
            preset,
            params,
            stop_at,
            whole_launch: kernel_several_warps && self.choices.one_warp != Some(true),
            diagnostics,
            choice_errors: errors,
            program,
        }
    }

    /// Puts the request's params into `options` (checked: finite; a whole number the page holds
    /// exactly, or a fraction for a param that takes one) and lists every declared param with the
    /// value used.
    fn params_for(&self, kernel: &Kernel, options: &mut LaunchOptions, diags: &mut Vec<Diagnostic>) -> Vec<ParamValue> {
        let defaults = param_defaults(kernel);
        for (name, &v) in &self.params {
            let decl = kernel.params.iter().zip(&defaults).find(|(p, _)| &p.name == name);
            let Some((decl, (_, default))) = decl else {
                if self.stale_params == StaleParams::Refuse {
                    // Kept for launching to name it as unknown; a number either way.
                    options.params.push((name.clone(), param_value(v, true).unwrap_or(Value::Int(0))));
                }
                continue;
            };
            let float = takes_float(decl, *default);
            match param_value(v, float) {
                Some(value) => options.params.push((name.clone(), value)),
                None => {
                    let what = if float { "a finite number" } else { "an integer between -2^53 and 2^53" };
                    let msg = format!("param {name} = {v} is not {what}; using its default");
                    diags.push(Diagnostic::error(decl.default.span, msg));
                }
            }
        }
        kernel
            .params
            .iter()
            .zip(defaults)
            .map(|(decl, (name, default))| {
                let float = takes_float(decl, default);
                let default = default.unwrap_or(Value::Int(0));
                let value = options.params.iter().find(|(n, _)| *n == name).map_or(default, |(_, v)| *v);
                ParamValue { name, default, value, float }
            })
            .collect()
    }
}

/// A param as the page gives it (a JS number): an integer when it is whole and within 2^53 (where
/// a JS number stops being exact); else a float, if the param takes one.
fn param_value(v: f64, float: bool) -> Option<Value> {
    if is_integer(v) && (-MAX_SAFE_INTEGER..=MAX_SAFE_INTEGER).contains(&v) {
        Some(Value::Int(v as i64))
    } else {
        (float && v.is_finite()).then_some(Value::Float(v))
    }
}

/// Why an on-chip stack cannot be built, if it cannot.
pub fn stack_problem(st: &StackConfig) -> Option<String> {
    (st.capacity == 0 || st.chunk == 0 || st.chunk > st.capacity)
        .then(|| format!("stack capacity {} / chunk {}: both must be at least 1 and chunk at most capacity", st.capacity, st.chunk))
}
