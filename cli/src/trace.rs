//! `warpscope trace`: one line per step (format in `warpscope_core::trace`).

use std::io::{BufWriter, Write};
use std::process::ExitCode;

use warpscope_core::sim::StopReason;
use warpscope_core::trace::{header, step_line};

use crate::load::{prepare, Common};
use crate::report::{exit_code, stop_text};

pub fn trace(common: &Common) -> Result<ExitCode, String> {
    let (_, mut sim) = prepare(common, &[], false)?;
    let mut out = BufWriter::new(std::io::stdout().lock());
    // A closed pipe (`| head`) ends the trace quietly.
    if writeln!(out, "{}", header(&sim)).is_err() {
        return Ok(ExitCode::SUCCESS);
    }
    let reason = loop {
        if sim.steps() >= common.step_limit {
            break StopReason::StepLimit;
        }
        let Some(issued) = sim.step() else {
            break sim.run_to_end();
        };
        if writeln!(out, "{}", step_line(&sim, &issued)).is_err() {
            return Ok(ExitCode::SUCCESS);
        }
    };
    let _ = writeln!(out, "# {}", stop_text(&sim, &reason));
    Ok(exit_code(&reason))
}
