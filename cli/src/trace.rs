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

use crate::load::{prepare, render, Common};
use crate::report::{exit_code, stop_text};

pub fn trace(common: &Common) -> Result<ExitCode, String> {
    let (text, resolved, mut sim) = prepare(common, false)?;
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
