//! `check`: compute-sanitizer's four tools on the simulated launch (`warpscope_core::sanitize`):
//! every launch of a whole program (`main()` runs first), or the kernel's launch alone. Prints
//! the findings as compute-sanitizer does (`--json`: one object); exit 1 when there is any.

use std::process::ExitCode;

use warpscope_core::sanitize::{check_kernel, check_program, text, Finding};

use crate::load::Common;

pub fn check(common: &Common, json: bool) -> Result<ExitCode, String> {
    let (_, r) = common.resolve(false)?;
    let file = common.source_name();
    let (findings, unchecked): (Vec<Finding>, Vec<String>) = match &r.program {
        Some(p) => check_program(&p.source, &p.run.launches, &r.options),
        None => {
            let found = check_kernel(&r.kernel, &r.options).map_err(|d| {
                let lines: Vec<String> = d.iter().map(|d| format!("{file}:{}: {}", d.span.line, d.message)).collect();
                lines.join("\n")
            })?;
            (found, Vec::new())
        }
    };
    for note in &unchecked {
        eprintln!("{file}: note: {note}");
    }
    if json {
        let v = serde_json::json!({ "model": r.model.name(), "findings": findings, "unchecked": unchecked });
        out!("{v}");
    } else {
        out!("========= WARPSCOPE CHECK ({}, under {})", file, r.model.name());
        print!("{}", text(&findings, &file));
    }
    Ok(if findings.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
