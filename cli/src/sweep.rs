//! `warpscope sweep`: one run per param value and series (models x presets x split values), one
//! metrics row each, through the core's `Sweep` (the app's sweep worker runs the same code).
//! `warpscope figure`: the same for one entry of `examples/figures.json`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use serde_json::{json, Value};
use warpscope_core::session::OutcomeKind;
use warpscope_core::sweep::{measured, Split, Sweep, SweepPoint, SweepRequest};

use crate::load::{render, Common};

#[derive(Args)]
pub struct SweepArgs {
    #[command(flatten)]
    pub common: Common,
    /// The param and its range, inclusive: `n=0..31`.
    #[arg(long, value_name = "NAME=A..B")]
    pub param: String,
    /// Several models, comma-separated (`kepler,pdom`): one series each (default: --model).
    #[arg(long)]
    pub models: Option<String>,
    /// Several cost presets, comma-separated (`kepler,maxwell`): one series each (default: --preset).
    #[arg(long)]
    pub presets: Option<String>,
    /// A second param that splits every series by value: `layout=1,2` or `layout=0..3`.
    #[arg(long, value_name = "NAME=VALUES")]
    pub split: Option<String>,
    /// A measurements CSV (`examples/data/h100_loops.csv`): adds measured, predicted (cycles
    /// plus one base fitted at the first shared x) and residual columns.
    #[arg(long)]
    pub measured: Option<PathBuf>,
    /// Which series of the measurements: `kernel` or `build/kernel/pattern` (default build O3,
    /// pattern table1).
    #[arg(long, value_name = "KERNEL", requires = "measured")]
    pub measured_series: Option<String>,
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    #[arg(long)]
    pub csv: bool,
}

fn parse_range(spec: &str) -> Result<(String, i64, i64), String> {
    let (name, range) = spec.split_once('=').ok_or_else(|| format!("--param `{spec}`: expected NAME=A..B"))?;
    let (a, b) = range.split_once("..").ok_or_else(|| format!("--param `{spec}`: expected a range A..B"))?;
    let parse = |s: &str| s.trim().parse::<i64>().map_err(|_| format!("--param `{spec}`: `{s}` is not an integer"));
    let (a, b) = (parse(a)?, parse(b)?);
    if b < a {
        return Err(format!("--param `{spec}`: the range must go upwards"));
    }
    Ok((name.trim().to_string(), a, b))
}

fn parse_split(spec: &str) -> Result<Split, String> {
    let (name, values) = spec.split_once('=').ok_or_else(|| format!("--split `{spec}`: expected NAME=A,B or NAME=A..B"))?;
    let int = |s: &str| s.trim().parse::<i64>().map_err(|_| format!("--split `{spec}`: `{s}` is not an integer"));
    let values = match values.split_once("..") {
        Some((a, b)) if int(b)? >= int(a)? && int(b)? - int(a)? < 1000 => (int(a)?..=int(b)?).collect(),
        Some(_) => return Err(format!("--split `{spec}`: the range must go upwards and hold at most 1000 values")),
        None => values.split(',').map(int).collect::<Result<_, _>>()?,
    };
    Ok(Split { param: name.trim().to_string(), values })
}

fn list(s: &Option<String>, single: &Option<String>) -> Vec<String> {
    match (s, single) {
        (Some(s), _) => s.split(',').map(|x| x.trim().to_string()).filter(|x| !x.is_empty()).collect(),
        (None, Some(one)) => vec![one.clone()],
        (None, None) => Vec::new(),
    }
}

impl SweepArgs {
    fn request(&self) -> Result<SweepRequest, String> {
        let c = &self.common;
        let (param, from, to) = parse_range(&self.param)?;
        // The run's own choices are read (and refused) where every run's are: `--set`, `--cost`,
        // the stack and the policies of the first series stand for the sweep's.
        let (run, resolved) = c.resolve(false)?;
        let choices = c.choices();
        Ok(SweepRequest {
            param,
            from,
            to,
            models: list(&self.models, &choices.model),
            presets: list(&self.presets, &choices.preset),
            split: self.split.as_deref().map(parse_split).transpose()?,
            params: resolved.options.params.into_iter().map(|(k, v)| (k, v.as_f64())).collect(),
            costs: run.costs,
            stack: resolved.options.stack,
            choices,
            step_limit: Some(c.step_limit),
        })
    }
}

/// The named series of a measurements file: `kernel` or `build/kernel/pattern`.
pub fn measured_points(path: &Path, which: &str) -> Result<Vec<(i64, f64)>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let sets = measured::read_csv(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let parts: Vec<&str> = which.split('/').collect();
    let (build, kernel, pattern) = match parts.as_slice() {
        [k] => ("O3", *k, "table1"),
        [b, k, p] => (*b, *k, *p),
        _ => return Err(format!("measured series `{which}`: expected KERNEL or BUILD/KERNEL/PATTERN")),
    };
    sets.into_iter()
        .find(|s| s.build == build && s.kernel == kernel && s.pattern == pattern)
        .map(|s| s.points)
        .ok_or_else(|| format!("{}: no series {build}/{kernel}/{pattern} (the file has build, kernel and pattern columns)", path.display()))
}

/// Runs every point and prints them as a table, CSV or JSON.
pub fn print(
    file: &Path,
    text: &str,
    request: &SweepRequest,
    measured: Option<&[(i64, f64)]>,
    as_json: bool,
    as_csv: bool,
) -> Result<ExitCode, String> {
    let sweep = Sweep::new(text, request).map_err(|d| render(&file.display().to_string(), text, &d).trim_end().to_string())?;
    let points: Vec<SweepPoint> = (0..sweep.len()).map(|i| sweep.run(i)).collect();
    let csv = sweep.csv(&points, measured);
    if as_csv {
        out!("{}", csv.trim_end());
    } else if as_json {
        out!("{}", serde_json::to_string_pretty(&json_rows(&sweep, &points, &csv)).unwrap_or_default());
    } else {
        for line in csv.lines() {
            out!("{}", line.split(',').map(|c| format!("{c:>12}")).collect::<Vec<_>>().join(" "));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// One JSON object per point: the CSV's cells by column (numbers as numbers), with the stop
/// reason's message and line.
fn json_rows(sweep: &Sweep, points: &[SweepPoint], csv: &str) -> Value {
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap_or("").split(',').collect();
    let mut sorted: Vec<&SweepPoint> = points.iter().collect();
    sorted.sort_by_key(|p| (p.x, p.series));
    let rows: Vec<Value> = lines
        .zip(sorted)
        .map(|(line, p)| {
            let mut o = serde_json::Map::new();
            for (h, cell) in header.iter().zip(line.split(',')) {
                let v =
                    cell.parse::<i64>().map(Value::from).or_else(|_| cell.parse::<f64>().map(Value::from)).unwrap_or_else(|_| json!(cell));
                o.insert(h.to_string(), if cell.is_empty() { Value::Null } else { v });
            }
            o.insert("series".into(), json!(sweep.series()[p.series].label));
            let message = (p.stop.kind != OutcomeKind::Exited).then_some(&p.stop.summary);
            o.insert("stop_reason".into(), json!({ "kind": p.stop.kind.name(), "message": message, "line": p.stop.line }));
            Value::Object(o)
        })
        .collect();
    Value::Array(rows)
}

pub fn sweep(args: &SweepArgs) -> Result<ExitCode, String> {
    let file = &args.common.file;
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: cannot read: {e}", file.display()))?;
    let request = args.request()?;
    let measured = match &args.measured {
        Some(path) => Some(measured_points(path, args.measured_series.as_deref().unwrap_or(""))?),
        None => None,
    };
    if args.measured.is_some() && args.measured_series.is_none() {
        return Err("--measured needs --measured-series KERNEL (e.g. single_nounroll)".into());
    }
    print(file, &text, &request, measured.as_deref(), args.json, args.csv)
}
