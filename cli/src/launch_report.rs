//! `warpscope run` of a whole launch (a kernel whose `//@ launch` has more than one warp): the
//! launch's counts, each block's, how it ended (the core's `Outcome`), what printf printed,
//! and with `--json` every buffer as the whole launch left it and every warp's counts.

use std::process::ExitCode;

use serde_json::{json, Map, Value};
use warpscope_core::grid::{LaunchRun, Totals};
use warpscope_core::session::{Outcome, Resolved};

use crate::load::Common;
use crate::report::{column_width, exit_code, stop_json, stop_text};
use crate::results;

/// Blocks listed one a line in the text report; the rest are summed up in one line.
const SHOWN_BLOCKS: usize = 16;

/// A warp's, block's or launch's counts, with `place` (where it is) added.
fn totals_json(t: &Totals, width: u32, place: &[(&str, Value)]) -> Value {
    let mut v = json!({
        "warp_instructions": t.warp_instructions,
        "thread_instructions": t.thread_instructions,
        "thread_instructions_pred_on": t.thread_instructions_pred_on,
        "threads_per_instruction": t.threads_per_instruction(),
        "simd_efficiency": t.simd_efficiency(width),
        "divergent_branches": t.divergent_branches,
        "barrier_waits": t.barrier_waits,
        "steps": t.steps,
        "cycles": t.cycles,
        "max_stack_depth": t.max_stack_depth,
    });
    if let Value::Object(o) = &mut v {
        o.extend(place.iter().map(|(k, x)| (k.to_string(), x.clone())));
    }
    v
}

/// `(1, 0, 0)`.
fn dims(d: [u32; 3]) -> String {
    format!("({}, {}, {})", d[0], d[1], d[2])
}

/// The launch as JSON: `stop`, `launch` (its shape), `metrics` (the launch's counts), `blocks`,
/// `warps`, `buffers`, `params` and `output` (`[{step, block_idx, thread_idx, text}]`).
pub fn json_of(run: &LaunchRun, resolved: &Resolved, outcome: &Outcome) -> Value {
    let l = resolved.kernel.launch();
    let w = run.width;
    let blocks: Vec<Value> = run
        .blocks
        .iter()
        .map(|b| totals_json(&b.totals, w, &[("block_idx", json!(b.block_idx)), ("barriers", json!(b.barriers))]))
        .collect();
    let warps: Vec<Value> =
        run.warps.iter().map(|t| totals_json(&t.totals, w, &[("block_idx", json!(t.block_idx)), ("warp", json!(t.warp))])).collect();
    let mut o = Map::new();
    o.insert("stop".into(), stop_json(outcome));
    o.insert(
        "launch".into(),
        json!({
            "grid": l.grid,
            "block": l.block,
            "threads": l.threads(),
            "warps_per_block": l.warps(w),
            "warp_width": w,
            "warp_scheduler": resolved.options.warp_scheduler.name(),
            "model": resolved.options.model.map(|m| m.name()),
        }),
    );
    o.insert("metrics".into(), totals_json(&run.totals, w, &[]));
    o.insert("blocks".into(), json!(blocks));
    o.insert("warps".into(), json!(warps));
    o.insert("buffers".into(), results::buffers_json(&run.memory));
    o.insert("params".into(), results::params_json(&resolved.params));
    o.insert("output".into(), json!(run.output));
    if let Some(step) = run.output_cut_at {
        o.insert("output_cut_at".into(), json!(step));
    }
    Value::Object(o)
}

/// `warpscope compare` of whole launches: `wanted`'s runs (a name and the options of each: models
/// on one kernel, or two kernels under one model), their launches' totals side by side (cycles
/// under one preset, as the one-warp compare).
pub fn compare(common: &Common, wanted: Vec<(String, Common)>) -> Result<ExitCode, String> {
    let mut columns = Vec::new();
    let mut preset = common.choices().preset;
    for (name, c) in wanted {
        let c = Common { preset: preset.clone(), ..c };
        let (_, resolved, run) = crate::load::prepare_run(&c)?;
        preset.get_or_insert(resolved.preset.clone());
        let crate::load::Run::Launch(run) = run else {
            return Err(format!("{name}: one warp, not a whole launch; compare runs both columns the same way (add --one-warp to run each kernel's one warp)"));
        };
        columns.push((name, Outcome::of_launch(&run), run));
    }
    out!("kernel   {}  (the whole launch; cycles under the {} cost preset)", common.file.display(), preset.as_deref().unwrap_or("default"));
    for (name, outcome, _) in &columns {
        out!("{name:<10} {}", stop_text(outcome));
    }
    out!();
    let mut header = format!("{:<24}", "");
    for (name, _, _) in &columns {
        header += &format!("{name:>w$}", w = column_width(name));
    }
    out!("{header}");
    type Row = fn(&Totals, u32) -> String;
    let rows: [(&str, Row); 8] = [
        ("warp_instructions", |t, _| t.warp_instructions.to_string()),
        ("thread_instructions", |t, _| t.thread_instructions.to_string()),
        ("threads_per_instruction", |t, _| format!("{:.2}", t.threads_per_instruction())),
        ("simd_efficiency", |t, w| format!("{:.4}", t.simd_efficiency(w))),
        ("divergent_branches", |t, _| t.divergent_branches.to_string()),
        ("barrier_waits", |t, _| t.barrier_waits.to_string()),
        ("steps", |t, _| t.steps.to_string()),
        ("cycles", |t, _| t.cycles.to_string()),
    ];
    for (label, cell) in rows {
        let mut line = format!("{label:<24}");
        for (name, _, run) in &columns {
            line += &format!("{:>w$}", cell(&run.totals, run.width), w = column_width(name));
        }
        out!("{line}");
    }
    let all_exited = columns.iter().all(|c| c.1.kind == warpscope_core::session::OutcomeKind::Exited);
    Ok(if all_exited { ExitCode::SUCCESS } else { ExitCode::from(3) })
}

/// `warpscope run` of a whole launch, as text or JSON.
pub fn report(common: &Common, text: &str, resolved: &Resolved, run: &LaunchRun, as_json: bool) -> Result<ExitCode, String> {
    let outcome = Outcome::of_launch(run);
    let warnings = warpscope_core::session::launch_warnings(&resolved.kernel, run);
    if !warnings.is_empty() {
        eprint!("{}", crate::load::render(&common.source_name(), text, &warnings));
    }
    if as_json {
        out!("{}", serde_json::to_string_pretty(&json_of(run, resolved, &outcome)).unwrap_or_default());
        return Ok(exit_code(&outcome));
    }
    let l = resolved.kernel.launch();
    let w = run.width;
    let model = resolved.options.model.map_or("", |m| m.name());
    out!("kernel   {}  (model {model}, W = {w})", common.file.display());
    let blocks = match run.blocks.len() {
        1 => String::from("1 block"),
        n => format!("{n} blocks"),
    };
    out!(
        "launch   grid {} x block {}: {} threads in {} warps of {blocks}; warps picked {}",
        dims(l.grid),
        dims(l.block),
        l.threads(),
        run.warps.len(),
        resolved.options.warp_scheduler.name()
    );
    out!("stop     {}", stop_text(&outcome));
    out!();
    let t = &run.totals;
    out!("{:<24} {:>12}", "warp_instructions", t.warp_instructions);
    out!("{:<24} {:>12}", "thread_instructions", t.thread_instructions);
    out!("{:<24} {:>12.2}", "threads_per_instruction", t.threads_per_instruction());
    out!("{:<24} {:>12.4}", "simd_efficiency", t.simd_efficiency(w));
    out!("{:<24} {:>12}", "divergent_branches", t.divergent_branches);
    out!("{:<24} {:>12}", "barrier_waits", t.barrier_waits);
    out!("{:<24} {:>12}", "steps", t.steps);
    out!("{:<24} {:>12}", "cycles", t.cycles);
    out!(
        "\n{:<16} {:>10} {:>9} {:>9} {:>10} {:>9} {:>9}",
        "block",
        "warp_inst",
        "thr/inst",
        "simd_eff",
        "divergent",
        "bar_waits",
        "barriers"
    );
    for b in run.blocks.iter().take(SHOWN_BLOCKS) {
        let bt = &b.totals;
        out!(
            "{:<16} {:>10} {:>9.2} {:>9.4} {:>10} {:>9} {:>9}",
            dims(b.block_idx),
            bt.warp_instructions,
            bt.threads_per_instruction(),
            bt.simd_efficiency(w),
            bt.divergent_branches,
            bt.barrier_waits,
            b.barriers
        );
    }
    if run.blocks.len() > SHOWN_BLOCKS {
        out!("... {} more blocks (`--json` lists every block and warp)", run.blocks.len() - SHOWN_BLOCKS);
    }
    if !run.output.is_empty() {
        out!("\nprintf output ({} lines, in the order the launch ran them)", run.output.len());
        for line in &run.output {
            let text = line.text.strip_suffix('\n').unwrap_or(&line.text).replace('\n', "\n    ");
            out!("[step {}, block {}, thread {}] {text}", line.step, dims(line.block_idx), dims(line.thread_idx));
        }
    }
    if let Some(step) = run.output_cut_at {
        out!("{}", warpscope_core::printf::truncation_line(step).text.trim_end());
    }
    Ok(exit_code(&outcome))
}
