//! `check`: compute-sanitizer's four tools on the simulated launch (`warpscope_core::sanitize`):
//! every launch of a whole program (`main()` runs first), or the kernel's launch alone. Prints
//! the findings as compute-sanitizer does (`--json`: one object); exit 1 when there is any.

use std::process::ExitCode;

use warpscope_core::sanitize::text;

use crate::load::Common;

pub fn check(common: &Common, json: bool) -> Result<ExitCode, String> {
    let (_, r) = common.resolve(false)?;
    let file = common.source_name();
    let report = warpscope_core::session::check::check(&r);
    for note in &report.unchecked {
        eprintln!("{file}: note: {note}");
    }
    if json {
        out!("{}", serde_json::to_value(&report).map_err(|e| e.to_string())?);
    } else {
        out!("========= WARPSCOPE CHECK ({}, under {})", file, r.model.name());
        print!("{}", text(&report.findings, &file));
    }
    Ok(if report.findings.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
