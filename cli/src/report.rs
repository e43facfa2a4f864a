//! `warpscope run`: metrics as text or as one JSON object (with what the run computed, from
//! `results`); `warpscope compare`: the paper's metrics of several models side by side. How a
//! run ended is the core's `Outcome`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde_json::{json, Map, Value};
use warpscope_core::cfg;
use warpscope_core::model::ModelKind;
use warpscope_core::session::{Outcome, OutcomeKind};
use warpscope_core::sim::{Metric, PointMetrics, RunReport, Sim};

use crate::load::{prepare, prepare_run, Common, Run};
use crate::results;

/// The stop reason with its pc (as an address), source line and message where it has them.
pub fn stop_json(outcome: &Outcome) -> Value {
    let mut o = Map::new();
    o.insert("kind".into(), json!(outcome.kind.name()));
    if let Some(addr) = outcome.addr {
        o.insert("pc".into(), json!(format!("{addr:#06x}")));
        o.insert("line".into(), json!(outcome.line));
    }
    if outcome.kind != OutcomeKind::Exited {
        o.insert("message".into(), json!(outcome.message));
    }
    Value::Object(o)
}

/// Every metric by name, plus `stop_reason`, `block_counts` and the paper's comparison
/// metrics (`report_json`).
pub fn metrics_json(sim: &Sim, outcome: &Outcome) -> Value {
    let m = &sim.state().metrics;
    let point = PointMetrics::of(m, sim.state().machine.width);
    let mut o: Map<String, Value> = Metric::ALL.iter().map(|&k| (k.name().to_string(), metric_json(&point, k))).collect();
    o.insert("stop_reason".into(), stop_json(outcome));
    // Per block of the kernel as written (under STRUCT its copies added), beside the minimum.
    let report = RunReport::of(sim);
    o.insert("block_counts".into(), json!(report.block_counts));
    if let Value::Object(r) = report_json(&report, outcome, sim.config().model) {
        o.extend(r);
    }
    Value::Object(o)
}

fn metric_json(point: &PointMetrics, metric: Metric) -> Value {
    if metric.is_ratio() {
        json!(point.get(metric))
    } else {
        json!(point.get(metric) as u64)
    }
}

/// The thread-frontier paper's metrics that compare schemes (code expansion only where it
/// means something: a whole run against a complete reference).
pub fn report_json(r: &RunReport, outcome: &Outcome, model: ModelKind) -> Value {
    json!({
        "idle_instructions": r.idle_instructions,
        "memory_instructions": r.memory_instructions,
        "memory_transactions": r.memory_transactions,
        "transactions_per_memory_instruction": r.transactions_per_memory_instruction(),
        "mimd_block_counts": r.mimd_block_counts,
        "mimd_warp_instructions": r.mimd_warp_instructions,
        "code_expansion": outcome.code_expansion(model, r),
        "transforms": r.transforms.map(|t| json!({
            "forward_copies": t.forward_copies,
            "backward_copies": t.backward_copies,
            "cuts": t.cuts,
            "instructions_before": t.instructions_before,
            "instructions_after": t.instructions_after,
            "static_expansion": t.static_expansion(),
        })),
    })
}

/// The rows of the comparison table: name and the value for one run.
pub fn report_rows(r: &RunReport, outcome: &Outcome, model: ModelKind) -> Vec<(&'static str, String)> {
    let expansion = outcome.code_expansion(model, r).map_or_else(|| "-".into(), |e| format!("{:+.1}%", e * 100.0));
    vec![
        ("warp_instructions", r.warp_instructions.to_string()),
        ("thread_instructions", r.thread_instructions.to_string()),
        ("activity_factor", format!("{:.4}", r.activity_factor)),
        ("code_expansion", expansion),
        ("idle_instructions", r.idle_instructions.to_string()),
        ("max_stack_depth", r.max_stack_depth.to_string()),
        ("divergent_branches", r.divergent_branches.to_string()),
        ("cycles", r.cycles.to_string()),
        ("transactions_per_mem", format!("{:.2}", r.transactions_per_memory_instruction())),
        // STRUCT's transforms (forward copies / backward copies / cuts) and their static cost.
        (
            "copies_fwd/bwd/cuts",
            r.transforms.map_or_else(|| "-".into(), |t| format!("{}/{}/{}", t.forward_copies, t.backward_copies, t.cuts)),
        ),
        ("static_expansion", r.transforms.map_or_else(|| "-".into(), |t| format!("{:+.1}%", 100.0 * t.static_expansion()))),
    ]
}

/// The outcome as the CLI's one stop line.
pub fn stop_text(outcome: &Outcome) -> String {
    match outcome.kind {
        OutcomeKind::StepLimit => format!("{} (raise --step-limit)", outcome.summary),
        _ => outcome.summary.clone(),
    }
}

pub fn exit_code(outcome: &Outcome) -> ExitCode {
    if outcome.kind == OutcomeKind::Exited {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(3)
    }
}

/// `warpscope run`, as text or (`as_json`) the metrics plus what the run computed: each
/// buffer's final contents and each param's value. A launch of several warps runs whole
/// (`launch_report`).
pub fn run(common: &Common, as_json: bool) -> Result<ExitCode, String> {
    let (text, resolved, mut sim) = match prepare_run(common)? {
        (text, resolved, Run::Launch(run)) => return crate::launch_report::report(common, &text, &resolved, &run, as_json),
        (text, resolved, Run::Warp(sim)) => (text, resolved, sim),
    };
    let reason = sim.run_to_end();
    let outcome = Outcome::of(&sim, &reason);
    let warnings = warpscope_core::session::run_warnings(&resolved.kernel, &sim.state().machine);
    if !warnings.is_empty() {
        eprint!("{}", crate::load::render(&common.source_name(), &text, &warnings));
    }
    if as_json {
        let mut v = metrics_json(&sim, &outcome);
        if let Value::Object(o) = &mut v {
            o.insert("buffers".into(), results::buffers_json(&sim.state().machine.memory));
            o.insert("params".into(), results::params_json(&resolved.params));
            o.insert("output".into(), json!(sim.output()));
        }
        out!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
        return Ok(exit_code(&outcome));
    }
    let cfgv = sim.config();
    let m = &sim.state().metrics;
    let point = PointMetrics::of(m, sim.state().machine.width);
    out!("kernel   {}  (model {}, W = {})", common.file.display(), cfgv.model.name(), sim.state().machine.width);
    out!("stop     {}", stop_text(&outcome));
    out!();
    for &metric in Metric::ALL {
        let v = if metric.is_ratio() { format!("{:.4}", point.get(metric)) } else { point.text(metric) };
        out!("{:<20} {v:>12}", metric.name());
    }
    let report = RunReport::of(&sim);
    out!("\nagainst the MIMD minimum ({} warp instructions)", report.mimd_warp_instructions);
    for (k, v) in report_rows(&report, &outcome, cfgv.model) {
        if ["code_expansion", "idle_instructions", "transactions_per_mem"].contains(&k)
            || (report.transforms.is_some() && ["copies_fwd/bwd/cuts", "static_expansion"].contains(&k))
        {
            out!("{k:<20} {v:>12}");
        }
    }
    let graph = cfg::build(sim.program());
    out!("\nexecutions per block and instruction");
    let prog = sim.program();
    let names: Vec<String> = match sim.structured() {
        Some(s) => s.blocks(&graph).into_iter().map(|b| b.name).collect(),
        None => (0..graph.blocks.len()).map(|b| format!("BB{b}")).collect(),
    };
    for (b, range) in graph.blocks.iter().enumerate() {
        out!("  {:<5} {:>8}x", names[b], m.instr_counts[range.start.index()]);
        for pc in range.start.0..range.end.0 {
            let pc = warpscope_core::isa::Pc(pc);
            out!("        {:#06x} {:>8}  {}", prog.addr(pc), m.instr_counts[pc.index()], prog.instrs[pc.index()].text);
        }
    }
    let output = sim.output();
    if !output.is_empty() {
        out!("\nprintf output ({} lines, in the order the model ran the lanes)", output.len());
        for line in &output {
            out!("{}", line.tagged());
        }
    }
    Ok(exit_code(&outcome))
}

/// The models `compare` runs when none are named.
const DEFAULT_MODELS: &str = "kepler,pdom,tf-stack,tf-sandy,volta";

/// `compare`'s columns: a name and the options of each run. Several models on one kernel; or,
/// `with` another kernel (or a permalink that compares two), the two kernels under one model.
fn compare_columns(common: &Common, models: Option<&str>, with: Option<PathBuf>) -> Result<Vec<(String, Common)>, String> {
    let other = match (with, &common.compare_text) {
        (Some(path), _) => Some((path, None)),
        (None, Some(text)) => Some((common.file.clone(), Some(text.clone()))),
        (None, None) => None,
    };
    if let Some((path, text)) = other {
        let name = |p: &Path, side: &str| format!("{side}: {}", p.file_stem().map_or(String::new(), |s| s.to_string_lossy().into_owned()));
        let (a, b) = if text.is_some() { ("A".to_string(), "B".to_string()) } else { (name(&common.file, "A"), name(&path, "B")) };
        let beside = Common { file: path, text, from_link: common.from_link.clone(), ..common.clone() };
        return Ok(vec![(a, common.clone()), (b, beside)]);
    }
    let models = models.unwrap_or(DEFAULT_MODELS);
    let columns: Vec<(String, Common)> = models
        .split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map(|name| (name.to_string(), Common { model: Some(name.to_string()), ..common.clone() }))
        .collect();
    if columns.len() < 2 {
        return Err(format!("--models `{models}`: name two or more models, comma-separated"));
    }
    Ok(columns)
}

/// A column's width: the widest of its name and 14.
pub(crate) fn column_width(name: &str) -> usize {
    (name.chars().count() + 2).max(14)
}

/// `warpscope compare`: the same kernel and inputs under several models, or two kernels under
/// one model, one column each.
pub fn compare(common: &Common, models: Option<&str>, with: Option<PathBuf>) -> Result<ExitCode, String> {
    let wanted = compare_columns(common, models, with)?;
    if common.resolve(false)?.1.whole_launch {
        return crate::launch_report::compare(common, wanted);
    }
    let mut columns = Vec::new();
    // Every column counts cycles under one preset: `--preset`, else the one the first run uses
    // (the kernel's `//@ preset`, or its model's default), as the app's compare does.
    let mut preset = common.choices().preset;
    for (name, c) in wanted {
        let c = Common { preset: preset.clone(), ..c };
        let (_, resolved, mut sim) = prepare(&c, false)?;
        preset.get_or_insert(resolved.preset);
        let reason = sim.run_to_end();
        let outcome = Outcome::of(&sim, &reason);
        let report = RunReport::of(&sim);
        let rows = report_rows(&report, &outcome, sim.config().model);
        columns.push((name, outcome, report, rows));
    }
    out!("kernel   {}  (cycles under the {} cost preset)", common.file.display(), preset.as_deref().unwrap_or("default"));
    for (name, outcome, _, _) in &columns {
        out!("{name:<10} {}", stop_text(outcome));
    }
    out!();
    let mut header = format!("{:<22}", "");
    for (name, _, _, _) in &columns {
        header += &format!("{name:>w$}", w = column_width(name));
    }
    out!("{header}");
    for i in 0..columns[0].3.len() {
        let mut line = format!("{:<22}", columns[0].3[i].0);
        for (name, _, _, rows) in &columns {
            line += &format!("{:>w$}", rows.get(i).map_or("-", |r| r.1.as_str()), w = column_width(name));
        }
        out!("{line}");
    }
    out!("\nexecutions per block (MIMD minimum in brackets)");
    let blocks = columns.iter().map(|c| c.2.block_counts.len()).max().unwrap_or(0);
    for b in 0..blocks {
        let mut line = format!("  BB{b:<19}");
        for (name, _, r, _) in &columns {
            let cell = match (r.block_counts.get(b), r.mimd_block_counts.get(b)) {
                (Some(n), Some(min)) => format!("{n} [{min}]"),
                _ => "-".into(),
            };
            line += &format!("{cell:>w$}", w = column_width(name));
        }
        out!("{line}");
    }
    let all_exited = columns.iter().all(|c| c.1.kind == OutcomeKind::Exited);
    Ok(if all_exited { ExitCode::SUCCESS } else { ExitCode::from(3) })
}
