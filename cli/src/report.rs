//! `warpscope run`: metrics as text or as one JSON object.

use std::process::ExitCode;

use serde_json::{json, Map, Value};
use warpscope_core::cfg;
use warpscope_core::sim::{RunReport, Sim, StopReason};

use crate::load::{prepare, Common};

/// The stop reason with its pc, source line and message where it has them.
pub fn stop_json(sim: &Sim, reason: &StopReason) -> Value {
    let prog = sim.program();
    let mut o = Map::new();
    o.insert("kind".into(), json!(reason.name()));
    match reason {
        StopReason::Fault { pc, message } | StopReason::Deadlock { pc, message } => {
            o.insert("pc".into(), json!(format!("{:#06x}", prog.addr(*pc))));
            o.insert("line".into(), json!(prog.line(*pc)));
            o.insert("message".into(), json!(message));
        }
        StopReason::StepLimit => {
            let (head, message) = sim.step_limit_stop();
            if let Some(head) = head {
                o.insert("pc".into(), json!(format!("{:#06x}", prog.addr(head))));
                o.insert("line".into(), json!(prog.line(head)));
            }
            o.insert("message".into(), json!(message));
        }
        _ => {}
    }
    Value::Object(o)
}

/// Exactly the metric names, plus `stop_reason`, `block_counts` and the paper's comparison
/// metrics (`report_json`).
pub fn metrics_json(sim: &Sim, reason: &StopReason) -> Value {
    let m = &sim.state().metrics;
    let graph = cfg::build(sim.program());
    let mut v = json!({
        "steps": m.steps,
        "warp_instructions": m.warp_instructions,
        "thread_instructions": m.thread_instructions,
        "simd_efficiency": m.simd_efficiency(sim.state().machine.width),
        "pushes": m.pushes,
        "pops": m.pops,
        "max_stack_depth": m.max_stack_depth,
        "spills": m.spills,
        "fills": m.fills,
        "divergent_branches": m.divergent_branches,
        "cycles": m.cycles,
        "stop_reason": stop_json(sim, reason),
        "block_counts": m.block_counts(&graph),
    });
    if let (Value::Object(o), Value::Object(r)) = (&mut v, report_json(&RunReport::of(sim))) {
        o.extend(r);
    }
    v
}

/// The thread-frontier paper's metrics that compare schemes.
pub fn report_json(r: &RunReport) -> Value {
    json!({
        "idle_instructions": r.idle_instructions,
        "memory_instructions": r.memory_instructions,
        "memory_transactions": r.memory_transactions,
        "transactions_per_memory_instruction": r.transactions_per_memory_instruction(),
        "mimd_block_counts": r.mimd_block_counts,
        "mimd_warp_instructions": r.mimd_warp_instructions,
        "code_expansion": r.code_expansion(),
    })
}

/// The rows of the comparison table: name and the value for one run.
pub fn report_rows(r: &RunReport) -> Vec<(&'static str, String)> {
    vec![
        ("warp_instructions", r.warp_instructions.to_string()),
        ("thread_instructions", r.thread_instructions.to_string()),
        ("activity_factor", format!("{:.4}", r.activity_factor)),
        ("code_expansion", format!("{:+.1}%", r.code_expansion() * 100.0)),
        ("idle_instructions", r.idle_instructions.to_string()),
        ("max_stack_depth", r.max_stack_depth.to_string()),
        ("divergent_branches", r.divergent_branches.to_string()),
        ("cycles", r.cycles.to_string()),
        ("transactions_per_mem", format!("{:.2}", r.transactions_per_memory_instruction())),
    ]
}

/// The stop reason as one line of text.
pub fn stop_text(sim: &Sim, reason: &StopReason) -> String {
    let prog = sim.program();
    match reason {
        StopReason::Exited => format!("exited after {} steps", sim.steps()),
        StopReason::Fault { pc, message } => format!("fault at {:#06x} (line {}): {message}", prog.addr(*pc), prog.line(*pc).unwrap_or(0)),
        StopReason::Deadlock { pc, message } => {
            format!("deadlock at {:#06x} (line {}): {message}", prog.addr(*pc), prog.line(*pc).unwrap_or(0))
        }
        StopReason::StepLimit => format!("step limit: {} (an endless loop? raise --step-limit)", sim.step_limit_stop().1),
        other => other.name().to_string(),
    }
}

pub fn exit_code(reason: &StopReason) -> ExitCode {
    if *reason == StopReason::Exited {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(3)
    }
}

pub fn run(common: &Common, as_json: bool) -> Result<ExitCode, String> {
    let (_, mut sim) = prepare(common, &[], false)?;
    let reason = sim.run_to_end();
    if as_json {
        out!("{}", serde_json::to_string_pretty(&metrics_json(&sim, &reason)).unwrap_or_default());
        return Ok(exit_code(&reason));
    }
    let cfgv = sim.config();
    let m = &sim.state().metrics;
    out!("kernel   {}  (model {}, W = {})", common.file.display(), cfgv.model.name(), sim.state().machine.width);
    out!("stop     {}", stop_text(&sim, &reason));
    out!();
    let rows: [(&str, String); 11] = [
        ("steps", m.steps.to_string()),
        ("warp_instructions", m.warp_instructions.to_string()),
        ("thread_instructions", m.thread_instructions.to_string()),
        ("simd_efficiency", format!("{:.4}", m.simd_efficiency(sim.state().machine.width))),
        ("pushes", m.pushes.to_string()),
        ("pops", m.pops.to_string()),
        ("max_stack_depth", m.max_stack_depth.to_string()),
        ("spills", m.spills.to_string()),
        ("fills", m.fills.to_string()),
        ("divergent_branches", m.divergent_branches.to_string()),
        ("cycles", m.cycles.to_string()),
    ];
    for (k, v) in rows {
        out!("{k:<20} {v:>12}");
    }
    let report = RunReport::of(&sim);
    out!("\nagainst the MIMD minimum ({} warp instructions)", report.mimd_warp_instructions);
    for (k, v) in report_rows(&report) {
        if ["code_expansion", "idle_instructions", "transactions_per_mem"].contains(&k) {
            out!("{k:<20} {v:>12}");
        }
    }
    let graph = cfg::build(sim.program());
    out!("\nexecutions per block and instruction");
    let prog = sim.program();
    for (b, range) in graph.blocks.iter().enumerate() {
        out!("  BB{b:<3} {:>8}x", m.instr_counts[range.start.index()]);
        for pc in range.start.0..range.end.0 {
            let pc = warpscope_core::isa::Pc(pc);
            out!("        {:#06x} {:>8}  {}", prog.addr(pc), m.instr_counts[pc.index()], prog.instrs[pc.index()].text);
        }
    }
    Ok(exit_code(&reason))
}

/// `warpscope compare`: the same kernel and inputs under several models, one column each.
pub fn compare(common: &Common, models: &str) -> Result<ExitCode, String> {
    let mut columns = Vec::new();
    let mut all_exited = true;
    for name in models.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        let mut c = common.clone();
        c.model = Some(name.to_string());
        let (_, mut sim) = prepare(&c, &[], false)?;
        let reason = sim.run_to_end();
        all_exited &= reason == StopReason::Exited;
        columns.push((name.to_string(), stop_text(&sim, &reason), RunReport::of(&sim), reason == StopReason::Exited));
    }
    if columns.len() < 2 {
        return Err(format!("--models `{models}`: name two or more models, comma-separated"));
    }
    out!("kernel   {}", common.file.display());
    for (name, stop, _, _) in &columns {
        out!("{name:<10} {stop}");
    }
    out!();
    let mut header = format!("{:<22}", "");
    for (name, _, _, _) in &columns {
        header += &format!("{name:>14}");
    }
    out!("{header}");
    // A run that stopped early has no code expansion: its count covers only part of the kernel.
    let rows: Vec<Vec<(&str, String)>> = columns
        .iter()
        .map(|(_, _, r, whole)| {
            report_rows(r).into_iter().map(|(k, v)| (k, if k == "code_expansion" && !whole { "-".into() } else { v })).collect()
        })
        .collect();
    for i in 0..rows[0].len() {
        let mut line = format!("{:<22}", rows[0][i].0);
        for r in &rows {
            line += &format!("{:>14}", r[i].1);
        }
        out!("{line}");
    }
    out!("\nexecutions per block (MIMD minimum in brackets)");
    let blocks = columns.iter().map(|c| c.2.block_counts.len()).max().unwrap_or(0);
    for b in 0..blocks {
        let mut line = format!("  BB{b:<19}");
        for (_, _, r, _) in &columns {
            let cell = match (r.block_counts.get(b), r.mimd_block_counts.get(b)) {
                (Some(n), Some(min)) => format!("{n} [{min}]"),
                _ => "-".into(),
            };
            line += &format!("{cell:>14}");
        }
        out!("{line}");
    }
    Ok(if all_exited { ExitCode::SUCCESS } else { ExitCode::from(3) })
}
