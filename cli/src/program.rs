//! `run` of a whole CUDA program (a `.cu` file with a `main()`, unless `--kernel-only`): its
//! `main()` on a host machine, each launch on the whole-launch engine. `--printed` prints what
//! the program prints (host and device `printf`, in a GPU run's order) with its stderr on
//! stderr and its exit status as ours; `--json` one object; plain, the output then a line per
//! launch.

use std::io::Write;
use std::process::ExitCode;

use warpscope_core::host::{run_program_code, Code, ProgramEnd, ProgramRun};
use warpscope_core::launch::LaunchOptions;
use warpscope_core::model::ModelKind;
use warpscope_core::session::choice::Named;

use crate::load::Common;

/// Whether `common`'s file is a program to run whole.
pub fn is_program(common: &Common) -> bool {
    !common.kernel_only
        && !common.nvcc
        && crate::link_arg::link_in(&common.file).is_none()
        && std::fs::read_to_string(&common.file).is_ok_and(|t| warpscope_core::compile::defines_main(&t))
}

/// How the run is printed.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Shown {
    Report,
    Printed,
    Json,
}

pub fn run(common: &Common, shown: Shown, dump: Option<&str>) -> Result<ExitCode, String> {
    if let Some(name) = dump {
        return Err(format!(
            "`--dump {name}` prints one kernel's buffer: this file is a whole program, whose `main()` runs. Add `--kernel-only` to run its kernel alone with the `//@` inputs"
        ));
    }
    let file = common.file.display().to_string();
    let text = std::fs::read_to_string(&common.file).map_err(|e| format!("{file}: {e}"))?;
    let model = match common.model.as_deref() {
        Some(name) => Some(ModelKind::from_name(name).ok_or_else(|| format!("unknown model `{name}`"))?),
        None => None,
    };
    let opts = LaunchOptions { model, record: false, step_limit: common.step_limit, ..LaunchOptions::default() };
    let sass = common.sass_text()?;
    let run = run_program_code(Code { cuda: &text, sass: sass.as_deref() }, &opts).map_err(|diags| {
        let lines: Vec<String> = diags.iter().map(|d| format!("{file}:{}:{}: {}", d.span.line, d.span.col, d.message)).collect();
        format!(
            "{}\n{file}: the program's host code did not compile; `--kernel-only` runs its kernel alone with the `//@` inputs",
            lines.join("\n")
        )
    })?;
    let status = match &run.end {
        ProgramEnd::Exited(code) => *code,
        // As a shell reports a program killed by SIGABRT.
        ProgramEnd::Failed { .. } => 134,
    };
    match shown {
        Shown::Json => out!("{}", json(&run, status)),
        Shown::Printed | Shown::Report => {
            print!("{}", run.stdout);
            let _ = std::io::stdout().flush();
            eprint!("{}", run.stderr);
            for n in &run.notes {
                eprintln!("{file}:{}: note: {}", n.span.line, n.message);
            }
            if let ProgramEnd::Failed { line, message } = &run.end {
                eprintln!("{file}:{line}: {message}");
            }
        }
    }
    if shown == Shown::Report {
        report(&run, status);
    }
    Ok(ExitCode::from(status as u8))
}

/// A line per launch, then the exit status.
fn report(run: &ProgramRun, status: i32) {
    let n = run.launches.len();
    out!("== {n} launch{}, {} host steps, exit status {status}", if n == 1 { "" } else { "es" }, run.host_steps);
    for l in &run.launches {
        let t = &l.totals;
        out!(
            "line {:>4}  {}<<<({}, {}, {}), ({}, {}, {})>>>  {}  warp instructions {}  thread instructions {}  divergent branches {}",
            l.line,
            l.kernel,
            l.grid[0],
            l.grid[1],
            l.grid[2],
            l.block[0],
            l.block[1],
            l.block[2],
            l.end.reason.name(),
            t.warp_instructions,
            t.thread_instructions,
            t.divergent_branches
        );
    }
}

fn json(run: &ProgramRun, status: i32) -> serde_json::Value {
    let launches: Vec<serde_json::Value> = run
        .launches
        .iter()
        .map(|l| {
            let params: serde_json::Map<String, serde_json::Value> = l.params.iter().map(|(name, v)| (name.clone(), value(v))).collect();
            serde_json::json!({
                "kernel": l.kernel, "line": l.line, "grid": l.grid, "block": l.block, "shared": l.shared,
                "params": params, "end": l.end.reason.name(), "message": l.end.message,
                "warp_instructions": l.totals.warp_instructions, "thread_instructions": l.totals.thread_instructions,
                "divergent_branches": l.totals.divergent_branches,
            })
        })
        .collect();
    let failed = match &run.end {
        ProgramEnd::Failed { line, message } => serde_json::json!({ "line": line, "message": message }),
        ProgramEnd::Exited(_) => serde_json::Value::Null,
    };
    let notes: Vec<serde_json::Value> =
        run.notes.iter().map(|n| serde_json::json!({ "line": n.span.line, "message": n.message })).collect();
    serde_json::json!({
        "program": true, "stdout": run.stdout, "stderr": run.stderr, "exit": status, "failed": failed,
        "launches": launches, "host_steps": run.host_steps, "notes": notes,
    })
}

/// A launch argument as a JSON number (a pointer is its address).
fn value(v: &warpscope_core::kernel::expr::Value) -> serde_json::Value {
    match v {
        warpscope_core::kernel::expr::Value::Int(i) => serde_json::json!(i),
        warpscope_core::kernel::expr::Value::Float(f) => serde_json::json!(f),
    }
}
