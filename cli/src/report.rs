//! `warpscope run`: metrics as text or as one JSON object.

use std::process::ExitCode;

use serde_json::{json, Map, Value};
use warpscope_core::cfg;
use warpscope_core::sim::{Sim, StopReason};

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
            o.insert("message".into(), json!(format!("stopped after {} steps (step limit); an endless loop?", sim.steps())));
        }
        _ => {}
    }
    Value::Object(o)
}

/// Exactly the metric names, plus `stop_reason` and `block_counts`.
pub fn metrics_json(sim: &Sim, reason: &StopReason) -> Value {
    let m = &sim.state().metrics;
    let graph = cfg::build(sim.program());
    json!({
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
    })
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
        StopReason::StepLimit => format!("step limit: stopped after {} steps (an endless loop? raise --step-limit)", sim.steps()),
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
