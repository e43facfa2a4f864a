//! `program`: a whole CUDA program run as a GPU machine runs it, its output as printed.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use warpscope_core::host::{run_program, ProgramEnd};
use warpscope_core::launch::LaunchOptions;
use warpscope_core::model::ModelKind;
use warpscope_core::session::choice::Named;

pub fn program(file: &Path, model: Option<&str>, json: bool) -> Result<ExitCode, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let model = match model {
        Some(name) => Some(ModelKind::from_name(name).ok_or_else(|| format!("unknown model `{name}`"))?),
        None => None,
    };
    let opts = LaunchOptions { model, record: false, ..LaunchOptions::default() };
    let run = run_program(&text, &opts).map_err(|diags| {
        diags.iter().map(|d| format!("{}:{}:{}: {}", file.display(), d.span.line, d.span.col, d.message)).collect::<Vec<_>>().join("\n")
    })?;
    let status = match &run.end {
        ProgramEnd::Exited(code) => *code,
        ProgramEnd::Failed { .. } => 134,
    };
    if json {
        let launches: Vec<serde_json::Value> = run
            .launches
            .iter()
            .map(|l| {
                serde_json::json!({
                    "kernel": l.kernel, "line": l.line, "grid": l.grid, "block": l.block, "shared": l.shared,
                    "end": l.end.reason.name(), "message": l.end.message, "warp_instructions": l.totals.steps,
                })
            })
            .collect();
        let failed = match &run.end {
            ProgramEnd::Failed { line, message } => serde_json::json!({ "line": line, "message": message }),
            ProgramEnd::Exited(_) => serde_json::Value::Null,
        };
        let notes: Vec<serde_json::Value> =
            run.notes.iter().map(|n| serde_json::json!({ "line": n.span.line, "message": n.message })).collect();
        let out = serde_json::json!({
            "stdout": run.stdout, "stderr": run.stderr, "exit": status, "failed": failed,
            "launches": launches, "host_steps": run.host_steps, "notes": notes,
        });
        println!("{out}");
    } else {
        print!("{}", run.stdout);
        let _ = std::io::stdout().flush();
        eprint!("{}", run.stderr);
        for n in &run.notes {
            eprintln!("{}:{}: note: {}", file.display(), n.span.line, n.message);
        }
        if let ProgramEnd::Failed { line, message } = &run.end {
            eprintln!("{}:{line}: {message}", file.display());
        }
    }
    Ok(ExitCode::from(status as u8))
}
