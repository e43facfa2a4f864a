//! `warpscope sweep`: one run per param value, one metrics row each.

use std::process::ExitCode;

use serde_json::Value;

use crate::load::{prepare, Common};
use crate::report::metrics_json;

/// Columns of the CSV and text tables, in order.
const COLUMNS: &[&str] = &[
    "steps",
    "warp_instructions",
    "thread_instructions",
    "simd_efficiency",
    "pushes",
    "pops",
    "max_stack_depth",
    "spills",
    "fills",
    "divergent_branches",
    "cycles",
];

fn parse_range(spec: &str) -> Result<(String, i64, i64), String> {
    let (name, range) = spec.split_once('=').ok_or_else(|| format!("--param `{spec}`: expected NAME=A..B"))?;
    let (a, b) = range.split_once("..").ok_or_else(|| format!("--param `{spec}`: expected a range A..B"))?;
    let parse = |s: &str| s.trim().parse::<i64>().map_err(|_| format!("--param `{spec}`: `{s}` is not an integer"));
    let (a, b) = (parse(a)?, parse(b)?);
    if b < a || b - a > 100_000 {
        return Err(format!("--param `{spec}`: the range must go upwards and hold at most 100001 values"));
    }
    Ok((name.trim().to_string(), a, b))
}

fn cell(v: &Value) -> String {
    match v {
        Value::Number(n) if n.is_f64() => format!("{:.6}", n.as_f64().unwrap_or(0.0)),
        other => other.to_string(),
    }
}

pub fn sweep(common: &Common, spec: &str, as_json: bool, as_csv: bool) -> Result<ExitCode, String> {
    let (name, a, b) = parse_range(spec)?;
    let mut rows = Vec::new();
    for v in a..=b {
        let (_, mut sim) = prepare(common, &[(name.clone(), v)], false)?;
        let reason = sim.run_to_end();
        let mut row = metrics_json(&sim, &reason);
        row.as_object_mut().map(|o| o.insert(name.clone(), Value::from(v)));
        rows.push(row);
    }
    if as_json {
        out!("{}", serde_json::to_string_pretty(&rows).unwrap_or_default());
        return Ok(ExitCode::SUCCESS);
    }
    let sep = if as_csv { "," } else { " " };
    let mut header = vec![name.clone()];
    header.extend(COLUMNS.iter().map(|c| c.to_string()));
    header.push("stop_reason".into());
    if as_csv {
        out!("{}", header.join(sep));
    } else {
        out!("{}", header.iter().map(|h| format!("{h:>12}")).collect::<Vec<_>>().join(sep));
    }
    for row in &rows {
        let mut cells = vec![cell(&row[&name])];
        cells.extend(COLUMNS.iter().map(|c| cell(&row[*c])));
        cells.push(row["stop_reason"]["kind"].as_str().unwrap_or("").to_string());
        if as_csv {
            out!("{}", cells.join(sep));
        } else {
            out!("{}", cells.iter().map(|c| format!("{c:>12}")).collect::<Vec<_>>().join(sep));
        }
    }
    Ok(ExitCode::SUCCESS)
}
