//! Reading a kernel file and the options shared by every command, and printing diagnostics
//! the way compilers do: `file:line:col: error: message`, the line, and a caret.

use std::path::{Path, PathBuf};

use clap::Args;
use warpscope_core::kernel::{parse_kernel_with, Kernel, SourceOptions};
use warpscope_core::model::{ModelKind, PathOrder, Schedule, StackConfig};
use warpscope_core::sim::{CostModel, Sim};
use warpscope_core::{launch, Diagnostic, LaunchOptions};

#[derive(Args, Clone)]
pub struct Common {
    /// The kernel file: SASS-style assembly or CUDA C (`.cu`), with `//@` headers; or an app
    /// permalink (`'https://…/#v1.…'`), whose model, preset and params apply unless given here.
    pub file: PathBuf,
    /// For C kernels: predicate short branches instead of branching (`on`/`off`; default: the
    /// file's `//@ ifconvert`, else off).
    #[arg(long, value_name = "on|off", value_parser = on_off)]
    pub if_convert: Option<bool>,
    /// Reconvergence model (default: the file's `//@ model`, else kepler).
    #[arg(long)]
    pub model: Option<String>,
    /// Cost preset: kepler, maxwell, h100 or tesla (default: the file's `//@ preset`, else the model's:
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
    /// Stop after this many steps (an endless loop never hangs).
    #[arg(long, default_value_t = warpscope_core::sim::DEFAULT_STEP_LIMIT)]
    pub step_limit: u64,
}

/// Prints diagnostics with the offending line and a caret under the span.
pub fn render(path: &Path, text: &str, diags: &[Diagnostic]) -> String {
    let mut out = String::new();
    for d in diags {
        let kind = if d.is_error() { "error" } else { "warning" };
        if d.span.line == 0 {
            out += &format!("{}: {kind}: {}\n", path.display(), d.message);
            continue;
        }
        out += &format!("{}:{}:{}: {kind}: {}\n", path.display(), d.span.line, d.span.col, d.message);
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
    let shown = render(path, &text, &diags);
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
            if_convert: None,
            model: None,
            preset: None,
            path_order: None,
            schedule: None,
            costs: Vec::new(),
            sets: Vec::new(),
            stack_capacity: None,
            stack_chunk: None,
            step_limit: warpscope_core::sim::DEFAULT_STEP_LIMIT,
        }
    }

    /// These options with a permalink's choices filled in where the command line left them
    /// unset (the file itself is unchanged: `read_kernel` reads the link's text).
    pub fn with_link(mut self) -> Result<Common, String> {
        let Some(link) = crate::link_arg::link_in(&self.file) else { return Ok(self) };
        let link = link?;
        self.model = self.model.or(link.model);
        self.preset = self.preset.or(link.preset);
        self.if_convert = self.if_convert.or(link.if_convert);
        self.path_order = self.path_order.or(link.path_order);
        self.schedule = self.schedule.or(link.schedule);
        // Params set on the command line come later, so they win.
        let from_link = link.params.iter().map(|(name, v)| format!("{name}={v}"));
        self.sets = from_link.chain(self.sets).collect();
        Ok(self)
    }

    /// The path order chosen on the command line or by a link, else the default.
    pub fn path_order(&self) -> &str {
        self.path_order.as_deref().unwrap_or("taken")
    }
    /// The Volta schedule chosen on the command line or by a link, else the default.
    pub fn schedule(&self) -> &str {
        self.schedule.as_deref().unwrap_or("h100")
    }

    /// How to compile a C kernel: for the chosen model's target.
    pub fn source_options(&self) -> Result<SourceOptions, String> {
        let model = match &self.model {
            Some(m) => Some(ModelKind::from_name(m).ok_or_else(|| format!("unknown model `{m}` (known: {})", ModelKind::known_names()))?),
            None => None,
        };
        Ok(SourceOptions { target: model.map(|m: ModelKind| m.compile_target()), if_convert: self.if_convert })
    }

    pub fn options(&self) -> Result<LaunchOptions, String> {
        let mut opts = LaunchOptions { step_limit: self.step_limit, ..LaunchOptions::default() };
        let (path_order, schedule) = (self.path_order(), self.schedule());
        opts.path_order =
            PathOrder::from_name(path_order).ok_or_else(|| format!("--path-order `{path_order}`: expected taken or fall-through"))?;
        opts.schedule =
            Schedule::from_name(schedule).ok_or_else(|| format!("--schedule `{schedule}`: expected h100, lowest-pc or round-robin"))?;
        if let Some(m) = &self.model {
            opts.model = Some(ModelKind::from_name(m).ok_or_else(|| format!("unknown model `{m}` (known: {})", ModelKind::known_names()))?);
        }
        if let Some(p) = &self.preset {
            opts.cost = Some(CostModel::preset(p).ok_or_else(|| format!("unknown preset `{p}` (known: {})", CostModel::known_presets()))?);
        }
        for c in &self.costs {
            let (field, v) = parse_assignment(c, "--cost")?;
            let v = u32::try_from(v).map_err(|_| format!("--cost `{c}`: cycles must be 0 or more"))?;
            let cost = opts.cost.get_or_insert(CostModel::default());
            if !cost.set(&field, v) {
                return Err(format!("--cost `{c}`: unknown field `{field}` (known: instruction, divergence, spill, fill)"));
            }
        }
        for s in &self.sets {
            opts.params.push(parse_assignment(s, "--set")?);
        }
        if self.stack_capacity.is_some() || self.stack_chunk.is_some() {
            let d = StackConfig::default();
            let cfg = StackConfig { capacity: self.stack_capacity.unwrap_or(d.capacity), chunk: self.stack_chunk.unwrap_or(d.chunk), ..d };
            if cfg.capacity == 0 || cfg.chunk == 0 || cfg.chunk > cfg.capacity {
                return Err(format!(
                    "stack capacity {} / chunk {}: both must be at least 1 and chunk at most capacity",
                    cfg.capacity, cfg.chunk
                ));
            }
            opts.stack = Some(cfg);
        }
        Ok(opts)
    }
}

/// Reads the file and builds a simulator with the common options (and extra params).
pub fn prepare(common: &Common, extra: &[(String, i64)], record: bool) -> Result<(Kernel, Sim), String> {
    let (text, kernel) = read_kernel(&common.file, &common.source_options()?)?;
    let mut opts = common.options()?;
    opts.params.extend_from_slice(extra);
    opts.record = record;
    let sim = launch(&kernel, &opts).map_err(|d| render(&common.file, &text, &d).trim_end().to_string())?;
    Ok((kernel, sim))
}
