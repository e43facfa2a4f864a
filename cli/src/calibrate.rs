//! `warpscope calibrate DIR`: the timing model's data file from the H100 microbenchmarks in DIR
//! (`raw.csv` and the SASS the GPU ran, `micro.sm_90.sass`), printed to stdout;
//! with `--residuals FILE`, every calibration and held-out run's measured and predicted cycles
//! as CSV.

use std::path::Path;
use std::process::ExitCode;

use warpscope_core::sim::timing::fit;

pub fn calibrate(dir: &Path, residuals_file: Option<&Path>) -> Result<ExitCode, String> {
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).map_err(|e| format!("{}: {e}", dir.join(name).display()));
    let measured = fit::Measurements::read(&read("raw.csv")?)?;
    let sass = read("micro.sm_90.sass")?;
    let (_, fitted, residuals) = fit::fit(&measured, &sass)?;
    out!("{}", fit::data_file(&fitted).trim_end());
    if let Some(path) = residuals_file {
        let mut csv = String::from("run,kernel,pattern,x,measured,model,error_percent\n");
        for r in residuals {
            let kind = if r.held_out { "held_out" } else { "fitted" };
            let error = 100.0 * (r.predicted as f64 - r.measured) / r.measured;
            csv += &format!("{kind},{},{},{},{},{},{error:.1}\n", r.run.kernel, r.run.pattern, r.run.x, r.measured, r.predicted);
        }
        std::fs::write(path, csv).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(ExitCode::SUCCESS)
}
