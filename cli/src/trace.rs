//! `warpscope trace`: one line per step (format in `warpscope_core::trace`). The steps come
//! from `Sim::run_step`, which ends a run where and why `run` does (the repeat watch included),
//! so `trace` and `run` agree on every kernel. The kernel's `//@ note`s are placed in the same
//! pass (`session::captions`): one this run never reaches is a warning after the trace, as the
//! page shows it. What a step printed (`printf`) follows its line, tagged with lane and step.

use std::io::{BufWriter, Write};
use std::process::ExitCode;

use warpscope_core::model::Reconvergence;
use warpscope_core::printf;
use warpscope_core::session::captions::Placer;
use warpscope_core::session::Outcome;
use warpscope_core::sim::StepRecord;
use warpscope_core::trace::{header, step_line};

use crate::load::{one_warp, render, Common};
use crate::report::{exit_code, stop_text};

pub fn trace(common: &Common) -> Result<ExitCode, String> {
    let (request, resolved) = common.resolve(false)?;
    if resolved.whole_launch {
        return launch_trace(common, &request.text, &resolved);
    }
    let (text, mut sim) = (request.text.clone(), one_warp(common, &request.text, &resolved)?);
    let cuda = crate::cuda_lines::CudaLines::of(&common.file, &resolved.kernel);
    let mut notes = Placer::new(&resolved.kernel.notes);
    let mut out = BufWriter::new(std::io::stdout().lock());
    // Records of the output log shown so far; a step that printed shows its lines after it.
    let mut shown = 0;
    // A closed pipe (`| head`) ends the trace quietly.
    if writeln!(out, "{}", header(&sim)).is_err() {
        return Ok(ExitCode::SUCCESS);
    }
    let reason = loop {
        match sim.run_step() {
            Ok(issued) => {
                if notes.needs_records() {
                    notes.add(&StepRecord::new(&issued, sim.state().model.depth()));
                }
                // PTX with line information: the CUDA line the instruction came from.
                let from = cuda.as_ref().and_then(|c| c.at(issued.pc)).map_or(String::new(), |c| format!("  {c}"));
                if writeln!(out, "{}{from}", step_line(&sim, &issued)).is_err() {
                    return Ok(ExitCode::SUCCESS);
                }
                let log = &sim.state().machine.output;
                if log.len() > shown || log.truncated_at() == Some(sim.steps()) {
                    let formats = &sim.program().formats;
                    let new = log.records().skip(shown).map(|r| printf::line(formats, r));
                    for line in new.chain(log.truncated_at().filter(|&s| s == sim.steps()).map(printf::truncation_line)) {
                        let _ = writeln!(out, "#   printf {}", line.tagged());
                    }
                    shown = log.len();
                }
            }
            Err(reason) => break reason,
        }
    };
    let outcome = Outcome::of(&sim, &reason);
    let _ = writeln!(out, "# {}", stop_text(&outcome));
    let _ = out.flush();
    eprint!("{}", render(&common.source_name(), &text, &notes.finish(sim.steps()).warnings));
    Ok(exit_code(&outcome))
}

/// The trace of a whole launch: a line per warp instruction with its block and warp, in the
/// order the warps issued them; what a step printed after it; the end. Notes are placed in one
/// warp's run (`--one-warp`), so here each is named in a warning.
fn launch_trace(common: &Common, text: &str, resolved: &warpscope_core::session::Resolved) -> Result<ExitCode, String> {
    let mut out = BufWriter::new(std::io::stdout().lock());
    let width = resolved.kernel.warp_width;
    let mut closed = writeln!(out, "{}", warpscope_core::trace::launch_header(width)).is_err();
    let mut shown = 0usize;
    let mut each = |s: &warpscope_core::grid::LaunchStep| {
        if closed {
            return;
        }
        closed = writeln!(out, "{}", warpscope_core::trace::launch_step_line(s)).is_err();
        // A warp's log is its own; a step that printed shows its lines after it.
        let log = &s.state.machine.output;
        if s.state.metrics.steps == 1 {
            shown = 0;
        }
        if log.len() > shown {
            for r in log.records().skip(shown) {
                let line = printf::line(&s.program.formats, r);
                let _ = writeln!(out, "#   printf {}", line.tagged().replacen("step ", "warp step ", 1));
            }
        }
        shown = log.len();
    };
    let run = resolved
        .launcher()
        .map(|l| warpscope_core::grid::run_launcher_watched(l, Some(&mut each)))
        .map_err(|d| render(&common.source_name(), text, &d).trim_end().to_string())?;
    let outcome = Outcome::of_launch(&run);
    let _ = writeln!(out, "# {}", stop_text(&outcome));
    let _ = out.flush();
    if !resolved.kernel.notes.is_empty() {
        eprintln!("{}: warning: the kernel's notes are placed in one warp's run: `--one-warp` shows them", common.source_name());
    }
    Ok(exit_code(&outcome))
}
