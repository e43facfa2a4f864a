//! What a run computed, for scripts that check it (autograders): each buffer's contents when
//! the run ended, typed by its element type, and each param's value as used. `run --json`
//! adds them as `buffers` and `params` (and what printf printed as `output`); `run --dump NAME`
//! prints one buffer, one value a line; `run --printed` prints only the printf output.

use std::io::{BufWriter, Write};
use std::process::ExitCode;

use serde_json::{json, Map, Value};
use warpscope_core::kernel::Kernel;
use warpscope_core::machine::{Elem, Memory};
use warpscope_core::session::{Outcome, OutcomeKind, ParamValue};

use crate::load::{prepare_run, Common, Run};
use crate::report::{exit_code, stop_text};

/// Every buffer by name: its elements as JSON numbers (integers for i32 and u32).
pub fn buffers_json(memory: &Memory) -> Value {
    let buffers = memory.buffers.iter().zip(&memory.words);
    let by_name = buffers.map(|(b, words)| (b.name.clone(), b.values(words).map(elem_json).collect()));
    Value::Object(by_name.collect())
}

/// Every declared param by name, with the value the run used.
pub fn params_json(params: &[ParamValue]) -> Value {
    Value::Object(params.iter().map(|p| (p.name.clone(), json!(p.value))).collect::<Map<_, _>>())
}

/// A float is written as its shortest decimal (`0.1`, not the f32's exact `0.10000000149011612`),
/// so a script comparing with the literal it expects sees the same number `--dump` prints. JSON
/// has no NaN or infinity: those are `null`.
fn elem_json(e: Elem) -> Value {
    match e {
        Elem::I32(v) => json!(v),
        Elem::U32(v) => json!(v),
        Elem::F32(v) => v.to_string().parse::<f64>().map_or(Value::Null, |shortest| json!(shortest)),
        // A 64-bit integer beyond 2^53 is exact in JSON's text, though some readers round it.
        Elem::I64(v) => json!(v),
        Elem::U64(v) => json!(v),
        Elem::F64(v) if v.is_finite() => json!(v),
        Elem::F64(_) => Value::Null,
    }
}

/// `warpscope run FILE --dump NAME`: the buffer's contents when the run ended, one value a
/// line and nothing else on stdout. A run that ends early (deadlock, fault, step limit) still
/// prints what the buffer held at the stop, says why on stderr and exits 3, as `run` does.
pub fn dump(common: &Common, name: &str) -> Result<ExitCode, String> {
    let (_, resolved, run) = prepare_run(common)?;
    declared(&resolved.kernel, name)?;
    let (memory, outcome) = match run {
        Run::Launch(run) => {
            let outcome = Outcome::of_launch(&run);
            (run.memory, outcome)
        }
        Run::Warp(mut sim) => {
            let reason = sim.run_to_end();
            let outcome = Outcome::of(&sim, &reason);
            (sim.state().machine.memory.clone(), outcome)
        }
    };
    if outcome.kind != OutcomeKind::Exited {
        eprintln!("{}; `{name}` is shown as it was then", stop_text(&outcome));
    }
    let (buffer, words) = memory.buffer(name).ok_or_else(|| unknown(&resolved.kernel, name))?;
    let mut out = BufWriter::new(std::io::stdout().lock());
    for e in buffer.values(words) {
        // A closed pipe (`| head`) ends the dump quietly.
        if writeln!(out, "{e}").is_err() {
            return Ok(exit_code(&outcome));
        }
    }
    let _ = out.flush();
    Ok(exit_code(&outcome))
}

/// `warpscope run FILE --printed`: what printf printed and nothing else on stdout, as the
/// program's own stdout would show it (for a script that compares it with expected output).
pub fn printed(common: &Common) -> Result<ExitCode, String> {
    // Each line's text, or `None` for the note that the output was cut short.
    let (lines, outcome): (Vec<(Option<String>, String)>, Outcome) = match prepare_run(common)?.2 {
        Run::Launch(run) => {
            let mut lines: Vec<_> = run.output.iter().map(|l| (Some(l.text.clone()), String::new())).collect();
            lines.extend(run.output_cut_at.map(|s| (None, warpscope_core::printf::truncation_line(s).text)));
            (lines, Outcome::of_launch(&run))
        }
        Run::Warp(mut sim) => {
            let reason = sim.run_to_end();
            let lines = sim.output().into_iter().map(|l| if l.lane.is_some() { (Some(l.text), String::new()) } else { (None, l.text) });
            (lines.collect(), Outcome::of(&sim, &reason))
        }
    };
    if outcome.kind != OutcomeKind::Exited {
        eprintln!("{}; the output is what was printed until then", stop_text(&outcome));
    }
    let mut out = BufWriter::new(std::io::stdout().lock());
    for (text, note) in lines {
        match text {
            None => eprint!("{note}"),
            Some(text) => {
                if write!(out, "{text}").is_err() {
                    return Ok(exit_code(&outcome));
                }
            }
        }
    }
    let _ = out.flush();
    Ok(exit_code(&outcome))
}

fn declared(kernel: &Kernel, name: &str) -> Result<(), String> {
    kernel.buffers.iter().any(|b| b.name == name).then_some(()).ok_or_else(|| unknown(kernel, name))
}

fn unknown(kernel: &Kernel, name: &str) -> String {
    let known: Vec<&str> = kernel.buffers.iter().map(|b| b.name.as_str()).collect();
    let known = if known.is_empty() { "the kernel declares none".to_string() } else { format!("known: {}", known.join(", ")) };
    format!("--dump `{name}`: no buffer `{name}` ({known})")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_are_their_shortest_decimal_and_non_finite_ones_null() {
        assert_eq!(elem_json(Elem::F32(0.1)).to_string(), "0.1");
        assert_eq!(elem_json(Elem::F32(-2.0)).to_string(), "-2.0");
        assert_eq!(elem_json(Elem::F32(f32::NAN)), Value::Null);
        assert_eq!(elem_json(Elem::F32(f32::INFINITY)), Value::Null);
        assert_eq!(elem_json(Elem::U32(u32::MAX)).to_string(), "4294967295");
    }
}
