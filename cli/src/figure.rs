//! `warpscope figure ID`: one entry of `examples/figures.json`, printed as the app shows it: a
//! sweep entry as the sweep's rows (with the measured fit when it names measurements), a view
//! entry as the run's trace CSV (its `depth` column is the stack-history plot), a compare view
//! (`view.compare`) as the compare table of its two models.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde::Deserialize;
use warpscope_core::sweep::SweepRequest;

use crate::load::{prepare, Common};
use crate::sweep::{measured_points, print};

#[derive(Deserialize)]
pub struct Figure {
    pub id: String,
    pub title: String,
    pub kernel: String,
    pub sweep: Option<SweepRequest>,
    pub measured: Option<MeasuredRef>,
    pub view: Option<View>,
}

#[derive(Deserialize)]
pub struct MeasuredRef {
    pub file: String,
    pub build: String,
    pub kernel: String,
    pub pattern: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct View {
    pub params: std::collections::BTreeMap<String, i64>,
    pub model: Option<String>,
    pub preset: Option<String>,
    /// The model the app puts beside `model` in compare mode.
    pub compare: Option<String>,
}

pub fn read_figures(path: &Path) -> Result<Vec<Figure>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

pub fn figure(id: &str, figures: &Path, as_json: bool, as_csv: bool) -> Result<ExitCode, String> {
    let all = read_figures(figures)?;
    let fig = all.iter().find(|f| f.id == id).ok_or_else(|| {
        let ids: Vec<&str> = all.iter().map(|f| f.id.as_str()).collect();
        format!("no figure `{id}` in {} (known: {})", figures.display(), ids.join(", "))
    })?;
    let dir = figures.parent().unwrap_or(Path::new("."));
    let file: PathBuf = dir.join(&fig.kernel);
    if let Some(request) = &fig.sweep {
        let text = std::fs::read_to_string(&file).map_err(|e| format!("{}: cannot read: {e}", file.display()))?;
        let measured = match &fig.measured {
            Some(m) => Some(measured_points(&dir.join(&m.file), &format!("{}/{}/{}", m.build, m.kernel, m.pattern))?),
            None => None,
        };
        if !as_csv && !as_json {
            out!("# {}: {}", fig.id, fig.title);
        }
        return print(&file, &text, request, measured.as_deref(), as_json, as_csv);
    }
    let view = fig.view.as_ref().ok_or_else(|| format!("figure `{id}` has neither a sweep nor a view"))?;
    let sets = view.params.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let common = Common { model: view.model.clone(), preset: view.preset.clone(), sets, ..Common::for_file(file.clone()) };
    // A compare view reads as the compare table (its CSV is the first model's trace).
    if let (Some(other), false, false) = (&view.compare, as_csv, as_json) {
        let first = view.model.clone().unwrap_or_else(|| "kepler".into());
        out!("# {}: {}", fig.id, fig.title);
        return crate::report::compare(&common, Some(&format!("{first},{other}")), None);
    }
    let (_, _, mut sim) = prepare(&common, true)?;
    sim.run_to_end();
    out!("{}", warpscope_core::trace::csv(&sim).trim_end());
    Ok(ExitCode::SUCCESS)
}
