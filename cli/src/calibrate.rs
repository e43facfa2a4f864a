//! `warpscope calibrate DIR`: the timing model's data file from the H100 microbenchmarks in DIR
//! (`raw.csv` and the SASS the GPU ran, `micro.sm_90.sass`), printed to stdout.

use std::path::Path;
use std::process::ExitCode;

use warpscope_core::sim::timing::fit;

pub fn calibrate(dir: &Path) -> Result<ExitCode, String> {
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).map_err(|e| format!("{}: {e}", dir.join(name).display()));
    let measured = fit::Measurements::read(&read("raw.csv")?, &read("timeline.csv")?)?;
    let sass = read("micro.sm_90.sass")?;
    let (_, fitted, residuals) = fit::fit(&measured, &sass)?;
    out!("{}", fit::data_file(&fitted).trim_end());
    for r in residuals {
        let span = r.run.span.map_or(String::new(), |(l, a, b)| format!(" lane {l} {a}->{b}"));
        let kind = if r.held_out { "held out" } else { "fitted" };
        eprintln!(
            "{kind:>8} {:>20} {:>10} {:>3}{span}: measured {:>6}, model {:>6}",
            r.run.kernel, r.run.pattern, r.run.x, r.measured, r.predicted
        );
    }
    Ok(ExitCode::SUCCESS)
}
