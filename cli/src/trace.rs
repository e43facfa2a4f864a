//! `warpscope trace`: one line per step (format in `warpscope_core::trace`). The steps come
//! from `Sim::run_step`, which ends a run where and why `run` does (the repeat watch included),
//! so `trace` and `run` agree on every kernel.

use std::io::{BufWriter, Write};
use std::process::ExitCode;

use warpscope_core::session::Outcome;
use warpscope_core::trace::{header, step_line};

use crate::load::{prepare, Common};
use crate::report::{exit_code, stop_text};

pub fn trace(common: &Common) -> Result<ExitCode, String> {
    let (_, mut sim) = prepare(common, false)?;
    let mut out = BufWriter::new(std::io::stdout().lock());
    // A closed pipe (`| head`) ends the trace quietly.
    if writeln!(out, "{}", header(&sim)).is_err() {
        return Ok(ExitCode::SUCCESS);
    }
    let reason = loop {
        match sim.run_step() {
            Ok(issued) => {
                if writeln!(out, "{}", step_line(&sim, &issued)).is_err() {
                    return Ok(ExitCode::SUCCESS);
                }
            }
            Err(reason) => break reason,
        }
    };
    let outcome = Outcome::of(&sim, &reason);
    let _ = writeln!(out, "# {}", stop_text(&outcome));
    Ok(exit_code(&outcome))
}
