//! Reading a kernel file and the options shared by every command, and printing diagnostics
//! the way compilers do: `file:line:col: error: message`, the line, and a caret.

use std::path::{Path, PathBuf};

use clap::Args;
use warpscope_core::grid::{run_launcher, LaunchRun};
use warpscope_core::kernel::{parse_kernel_with, Kernel, SourceOptions};
use warpscope_core::session::{Field, Resolved, RunChoices, RunRequest, StackChoice};
use warpscope_core::sim::Sim;
use warpscope_core::{launch, Diagnostic};

#[derive(Args, Clone)]
pub struct Common {
    /// The kernel file: SASS-style assembly or CUDA C (`.cu`), with `//@` headers; or an app
    /// permalink (`'https://…/#v1.…'`), whose model, preset and params apply unless given here.
    pub file: PathBuf,
    /// The input language: `listing` or `c` (default: told by the text).
    #[arg(long)]
    pub input: Option<String>,
    /// For C kernels: predicate short branches instead of branching (`on`/`off`; default: the
    /// file's `//@ ifconvert`, else off).
    #[arg(long, value_name = "on|off", value_parser = on_off)]
    pub if_convert: Option<bool>,
    /// Reconvergence model (default: the file's `//@ model`, else kepler).
    #[arg(long)]
    pub model: Option<String>,
    /// Cost preset: kepler, maxwell, h100, h100-timed (the latency model calibrated on an H100) or tesla (default: the file's `//@ preset`, else the model's:
    /// h100 for volta, kepler for the others).
    #[arg(long)]
    pub preset: Option<String>,
    /// PDOM stacks: which path of a divergent branch runs first (`taken` or `fall-through`;
    /// default: a permalink's choice, else taken).
    #[arg(long)]
    pub path_order: Option<String>,
    /// Volta: which group of lanes runs (`h100`, `lowest-pc` or `round-robin`; default: a
    /// permalink's choice, else h100).
    #[arg(long)]
    pub schedule: Option<String>,
    /// A launch of several warps: which warp of a block issues next (`gto`, greedy then oldest;
    /// `lrr`, loose round robin; or `random`, a fixed pseudo-random order; default gto).
    #[arg(long)]
    pub warp_scheduler: Option<String>,
    /// Run only the warp `//@ launch block_idx= warp=` names, alone, as before whole launches
    /// ran (its shared-memory reads see what the inputs put there, not other warps' writes).
    #[arg(long)]
    pub one_warp: bool,
    /// A file with a `main()` runs as a whole program (`run` prints what it prints); the other
    /// commands show its first launch, or this one (1 for the first), as `main` made it.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub launch: Option<u32>,
    /// Run the kernel of a file with a `main()` alone, with the `//@` inputs (or made-up ones).
    #[arg(long)]
    pub kernel_only: bool,
    /// A program's launch: the block a permalink's views show, and whose warp `--one-warp`
    /// runs, as `X`, `X,Y` or `X,Y,Z` (default: the first, or the one where the launch failed).
    #[arg(long, value_name = "X,Y,Z", value_parser = parse_block)]
    pub block: Option<[u32; 3]>,
    /// A program's SASS, `cuobjdump -sass` of its executable: its launches run the SASS's
    /// kernels (the code the GPU ran) in place of warpscope's compile of the C; `main()` and
    /// the kernels' parameters are still read from the `.cu` file.
    #[arg(long, value_name = "DUMP")]
    pub sass: Option<PathBuf>,
    /// Override one cost: instruction, divergence, spill or fill cycles (`--cost spill=50`).
    #[arg(long = "cost", value_name = "FIELD=CYCLES")]
    pub costs: Vec<String>,
    /// Set a param (`--set n=5`); repeatable.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub sets: Vec<String>,
    /// On-chip stack entries before spilling (default 16).
    #[arg(long)]
    pub stack_capacity: Option<u32>,
    /// Entries spilled or filled at a time (default 4).
    #[arg(long)]
    pub stack_chunk: Option<u32>,
    /// Which kernel runs: a C `__global__` function, a PTX `.entry` or a SASS function, by its name (mangled or
    /// not); default: the file's `//@ kernel`, else the first.
    #[arg(long)]
    pub entry: Option<String>,
    /// For CUDA C: compile with NVIDIA's nvcc (when installed) and run its PTX instead of
    /// warpscope's own compile (`//@` lines apply, parameters renamed to PTX's `arg0`, `arg1`...).
    #[arg(long)]
    pub nvcc: bool,
    /// Stop after this many steps (an endless loop never hangs).
    #[arg(long, default_value_t = warpscope_core::sim::DEFAULT_STEP_LIMIT)]
    pub step_limit: u64,
    /// A permalink's choices, beneath the flags (`with_link`).
    #[arg(skip)]
    pub from_link: RunChoices,
    /// The kernel's text where it is not the file's: the other kernel a permalink compares with.
    #[arg(skip)]
    pub text: Option<String>,
    /// The other kernel a permalink compares with (`with_link`), if it compares two.
    #[arg(skip)]
    pub compare_text: Option<String>,
}

/// Prints diagnostics with the offending line and a caret under the span; `source` names the
/// text (its file, or for `--nvcc` the PTX nvcc wrote of it).
pub fn render(source: &str, text: &str, diags: &[Diagnostic]) -> String {
    let mut out = String::new();
    for d in diags {
        let kind = d.severity.word();
        if d.span.line == 0 {
            out += &format!("{source}: {kind}: {}\n", d.message);
            continue;
        }
        out += &format!("{source}:{}:{}: {kind}: {}\n", d.span.line, d.span.col, d.message);
        if let Some(line) = text.lines().nth(d.span.line as usize - 1) {
            let shown = line.replace('\t', " ");
            let pad: String = " ".repeat(d.span.col.saturating_sub(1) as usize);
            out += &format!("  {shown}\n  {pad}{}\n", "^".repeat(d.span.len.max(1) as usize));
        }
    }
    out
}

pub fn on_off(s: &str) -> Result<bool, String> {
    match s {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => Err(format!("`{s}`: expected on or off")),
    }
}

/// Reads and parses a kernel file; C kernels are compiled with `opts`.
pub fn read_kernel(path: &Path, opts: &SourceOptions) -> Result<(String, Kernel), String> {
    let text = crate::link_arg::read_source(path)?;
    let (kernel, diags) = parse_kernel_with(&text, opts);
    let shown = render(&path.display().to_string(), &text, &diags);
    if diags.iter().any(Diagnostic::is_error) {
        return Err(shown.trim_end().to_string());
    }
    eprint!("{shown}");
    Ok((text, kernel))
}

fn parse_assignment(s: &str, what: &str) -> Result<(String, i64), String> {
    let (name, value) = s.split_once('=').ok_or_else(|| format!("{what} `{s}`: expected NAME=VALUE"))?;
    let v = value.trim().parse::<i64>().map_err(|_| format!("{what} `{s}`: `{value}` is not an integer"))?;
    Ok((name.trim().to_string(), v))
}

impl Common {
    /// The options the command line gives when only the file is named.
    pub fn for_file(file: PathBuf) -> Common {
        Common {
            file,
            input: None,
            if_convert: None,
            model: None,
            preset: None,
            path_order: None,
            schedule: None,
            warp_scheduler: None,
            one_warp: false,
            launch: None,
            kernel_only: false,
            block: None,
            sass: None,
            costs: Vec::new(),
            sets: Vec::new(),
            stack_capacity: None,
            stack_chunk: None,
            entry: None,
            nvcc: false,
            step_limit: warpscope_core::sim::DEFAULT_STEP_LIMIT,
            from_link: RunChoices::default(),
            text: None,
            compare_text: None,
        }
    }

    /// The run choices: the flags, over a permalink's.
    pub fn choices(&self) -> RunChoices {
        let flags = RunChoices {
            model: self.model.clone(),
            preset: self.preset.clone(),
            if_convert: self.if_convert,
            path_order: self.path_order.clone(),
            schedule: self.schedule.clone(),
            warp_scheduler: self.warp_scheduler.clone(),
            one_warp: self.one_warp.then_some(true),
            launch: self.launch.map(|n| n.saturating_sub(1)),
            kernel_only: self.kernel_only.then_some(true),
            block: self.block,
        };
        flags.over(&self.from_link)
    }

    /// These options with a permalink's choices filled in where the command line left them
    /// unset (the file itself is unchanged: `read_kernel` reads the link's text).
    pub fn with_link(mut self) -> Result<Common, String> {
        let Some(link) = crate::link_arg::link_in(&self.file) else { return Ok(self) };
        let link = link?;
        self.from_link = link.choices;
        self.compare_text = link.compare_text;
        // Params set on the command line come later, so they win.
        let from_link = link.params.iter().map(|(name, v)| format!("{name}={v}"));
        self.sets = from_link.chain(self.sets).collect();
        Ok(self)
    }

    /// What the diagnostics name: the file, or with `--nvcc` the PTX nvcc wrote of it (their lines
    /// are the PTX's, which is not on disk).
    pub fn source_name(&self) -> String {
        if self.nvcc {
            crate::nvcc::ptx_name(&self.file)
        } else {
            self.file.display().to_string()
        }
    }

    /// The run these options ask for, on the file's text (or the link's).
    pub fn request(&self) -> Result<RunRequest, String> {
        let mut text = match &self.text {
            Some(text) => text.clone(),
            None => crate::link_arg::read_source(&self.file)?,
        };
        let mut renames = Vec::new();
        if self.nvcc {
            (text, renames) = crate::nvcc::ptx_of(&self.file, &text, self.entry.as_deref())?;
        }
        let mut params = std::collections::BTreeMap::new();
        for s in &self.sets {
            // An integer, or a float for a float parameter (`--set a=2.5`).
            let (name, value) = s.split_once('=').ok_or_else(|| format!("--set `{s}`: expected NAME=VALUE"))?;
            let v = value.trim().parse::<f64>().ok().filter(|v| v.is_finite());
            let v = v.ok_or_else(|| format!("--set `{s}`: `{value}` is not a number"))?;
            let name = name.trim().to_string();
            let name = renames.iter().find(|(old, _)| *old == name).map_or(name, |(_, new)| new.clone());
            params.insert(name, v);
        }
        let mut costs = std::collections::BTreeMap::new();
        for c in &self.costs {
            let (field, v) = parse_assignment(c, "--cost")?;
            costs.insert(field, u32::try_from(v).map_err(|_| format!("--cost `{c}`: cycles must be 0 or more"))?);
        }
        Ok(RunRequest {
            text,
            input: self.input.clone(),
            kernel: self.entry.clone(),
            choices: self.choices(),
            params,
            costs,
            stack: StackChoice { capacity: self.stack_capacity, chunk: self.stack_chunk, limit: None },
            step_limit: Some(self.step_limit as f64),
            sass: self.sass_text()?,
            ..RunRequest::default()
        })
    }

    /// The text of `--sass`, when given.
    pub fn sass_text(&self) -> Result<Option<String>, String> {
        let Some(path) = &self.sass else { return Ok(None) };
        let text = std::fs::read_to_string(path).map_err(|e| format!("--sass {}: {e}", path.display()))?;
        if !warpscope_core::input::looks_like_sass(&text) {
            return Err(format!(
                "--sass {}: this is no SASS dump (print one with `cuobjdump -sass` of the program's executable)",
                path.display()
            ));
        }
        Ok(Some(text))
    }

    /// The request resolved (`record`: for a recorded run), or every problem printed as the command line names it.
    pub fn resolve(&self, record: bool) -> Result<(RunRequest, Resolved), String> {
        let request = RunRequest { record, ..self.request()? };
        let resolved = request.resolve();
        if let Some(e) = resolved.choice_errors.first() {
            return Err(format!("{} `{}`: {}", flag(&e.field), e.value, e.message));
        }
        let shown = render(&self.source_name(), &request.text, &resolved.diagnostics);
        if resolved.diagnostics.iter().any(Diagnostic::is_error) {
            return Err(shown.trim_end().to_string());
        }
        eprint!("{shown}");
        Ok((request, resolved))
    }
}

/// The flag that sets a field of a request.
fn flag(field: &Field) -> &'static str {
    match field {
        Field::Input => "--input",
        Field::Model => "--model",
        Field::Preset => "--preset",
        Field::PathOrder => "--path-order",
        Field::Schedule => "--schedule",
        Field::WarpScheduler => "--warp-scheduler",
        Field::Param(_) => "--set",
        Field::Cost(_) => "--cost",
        Field::Stack => "--stack-capacity/--stack-chunk",
        Field::StepLimit => "--step-limit",
        Field::StopAt => "stop at",
    }
}

/// Resolves the command line's run and launches it: the kernel's text, the request as resolved
/// and a ready simulator (`record`: keeping every step, for a trace CSV).
pub fn prepare(common: &Common, record: bool) -> Result<(String, Resolved, Sim), String> {
    let (request, resolved) = common.resolve(record)?;
    let sim = one_warp(common, &request.text, &resolved)?;
    Ok((request.text, resolved, sim))
}

/// The warp the launch names, alone, ready to run.
pub fn one_warp(common: &Common, text: &str, resolved: &Resolved) -> Result<Sim, String> {
    launch(&resolved.kernel, &resolved.options).map_err(|d| render(&common.source_name(), text, &d).trim_end().to_string())
}

/// What a command runs: the whole launch, or one warp alone (a launch of one warp, or `--one-warp`).
pub enum Run {
    Launch(Box<LaunchRun>),
    Warp(Box<Sim>),
}

/// Resolves the command line's run: the whole launch, run to its end, when the kernel's launch
/// has more than one warp; else the one warp, ready to run.
pub fn prepare_run(common: &Common) -> Result<(String, Resolved, Run), String> {
    let (request, resolved) = common.resolve(false)?;
    if !resolved.whole_launch {
        let sim = one_warp(common, &request.text, &resolved)?;
        return Ok((request.text, resolved, Run::Warp(Box::new(sim))));
    }
    let run = resolved.launcher().map(run_launcher).map_err(|d| render(&common.source_name(), &request.text, &d).trim_end().to_string())?;
    Ok((request.text, resolved, Run::Launch(Box::new(run))))
}

/// `--block 7` or `--block 7,1,0`: a block index (missing parts are 0).
fn parse_block(s: &str) -> Result<[u32; 3], String> {
    let parts: Vec<&str> = s.split(',').map(str::trim).collect();
    if parts.is_empty() || parts.len() > 3 {
        return Err(format!("`{s}`: a block is X, X,Y or X,Y,Z"));
    }
    let mut out = [0u32; 3];
    for (o, p) in out.iter_mut().zip(&parts) {
        *o = p.parse().map_err(|_| format!("`{s}`: `{p}` is not a whole number"))?;
    }
    Ok(out)
}
