//! Hardware measurements beside a model's prediction: the measured data sets (CSV with a header
//! naming `build`, `kernel`, `pattern`, `x` and `t0_median`, as in `reference/h100/`) and the
//! fit the thread-divergence paper uses for Figure 7: the prediction plus one base cost, chosen so
//! both agree at the first x they share (n = 0), and the residual left over at every x.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// One measured series: the cycles of one kernel build under one input pattern, by x.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct MeasuredSet {
    pub build: String,
    pub kernel: String,
    pub pattern: String,
    pub points: Vec<(i64, f64)>,
}

/// Reads every series of a measurements CSV, in the order they first appear.
pub fn read_csv(text: &str) -> Result<Vec<MeasuredSet>, String> {
    let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'));
    let (_, header) = lines.next().ok_or("the measurements file is empty")?;
    let cols: Vec<&str> = header.split(',').map(str::trim).collect();
    let col = |name: &str| cols.iter().position(|c| *c == name).ok_or_else(|| format!("the measurements header has no `{name}` column"));
    let (build, kernel, pattern, x, y) = (col("build")?, col("kernel")?, col("pattern")?, col("x")?, col("t0_median")?);
    let mut sets: Vec<MeasuredSet> = Vec::new();
    for (i, line) in lines {
        let cells: Vec<&str> = line.split(',').map(str::trim).collect();
        let cell = |c: usize| cells.get(c).copied().ok_or_else(|| format!("line {}: expected {} columns", i + 1, cols.len()));
        let xv = cell(x)?.parse::<i64>().map_err(|_| format!("line {}: x `{}` is not an integer", i + 1, cells[x]))?;
        let yv = cell(y)?.parse::<f64>().map_err(|_| format!("line {}: `{}` is not a number", i + 1, cells[y]))?;
        let key = (cell(build)?, cell(kernel)?, cell(pattern)?);
        match sets.iter_mut().find(|s| (s.build.as_str(), s.kernel.as_str(), s.pattern.as_str()) == key) {
            Some(s) => s.points.push((xv, yv)),
            None => sets.push(MeasuredSet {
                build: key.0.to_string(),
                kernel: key.1.to_string(),
                pattern: key.2.to_string(),
                points: alloc::vec![(xv, yv)],
            }),
        }
    }
    Ok(sets)
}

/// One x of a fit.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct FitRow {
    pub x: i64,
    pub measured: f64,
    /// The model's value plus the fitted base.
    pub predicted: f64,
    /// Measured minus predicted.
    pub residual: f64,
}

#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Fit {
    /// The cost the model leaves out (timer, launch, set-up), fitted at `at`; 0 when not fitted.
    pub base: f64,
    pub at: i64,
    /// Whether `base` was fitted: false for a timing model, whose prediction is the clock the
    /// kernel reads itself (`compare`).
    pub fitted: bool,
    pub rows: Vec<FitRow>,
}

/// Fits `model` to `measured` with one added constant, at the smallest x both have; `None` if
/// they share no x. Rows cover the x values both have, in `model`'s order.
pub fn fit_base(model: &[(i64, f64)], measured: &[(i64, f64)]) -> Option<Fit> {
    let at_x = |set: &[(i64, f64)], x: i64| set.iter().find(|p| p.0 == x).map(|p| p.1);
    let at = model.iter().map(|p| p.0).filter(|&x| at_x(measured, x).is_some()).min()?;
    let base = at_x(measured, at)? - at_x(model, at)?;
    let rows = model
        .iter()
        .filter_map(|&(x, m)| {
            let measured = at_x(measured, x)?;
            let predicted = m + base;
            Some(FitRow { x, measured, predicted, residual: measured - predicted })
        })
        .collect();
    Some(Fit { base, at, fitted: true, rows })
}

/// The model's own prediction beside the measurements, nothing fitted: for a timing model,
/// whose clock is the one the kernel reads. `None` if they share no x.
pub fn compare(model: &[(i64, f64)], measured: &[(i64, f64)]) -> Option<Fit> {
    let fit = fit_base(model, measured)?;
    let rows = fit.rows.iter().map(|r| FitRow { predicted: r.predicted - fit.base, residual: r.residual + fit.base, ..*r }).collect();
    Some(Fit { base: 0.0, at: fit.at, fitted: false, rows })
}

#[cfg(test)]
mod tests {
    use super::*;

    const CSV: &str =
        "build,kernel,pattern,x,t0_min,t0_median\nO3,single,table1,0,10,10.0\nO3,single,table1,1,23,23.0\nO3,double,table1,0,5,5.0\n";

    #[test]
    fn reads_series_by_build_kernel_and_pattern() {
        let sets = read_csv(CSV).unwrap();
        assert_eq!(sets.len(), 2);
        assert_eq!(sets[0].points, alloc::vec![(0, 10.0), (1, 23.0)]);
        assert_eq!(sets[1].kernel, "double");
    }

    #[test]
    fn bad_files_say_where() {
        assert!(read_csv("").unwrap_err().contains("empty"));
        assert!(read_csv("build,kernel,pattern,x\n").unwrap_err().contains("t0_median"));
        let e = read_csv("build,kernel,pattern,x,t0_median\nO3,a,b,one,2\n").unwrap_err();
        assert!(e.contains("line 2") && e.contains("one"), "{e}");
    }

    #[test]
    fn fit_adds_one_base_at_the_first_shared_x() {
        let fit = fit_base(&[(0, 100.0), (1, 113.0), (2, 127.0)], &[(0, 949.0), (1, 962.0), (2, 975.0)]).unwrap();
        assert_eq!((fit.base, fit.at), (849.0, 0));
        let residuals: Vec<f64> = fit.rows.iter().map(|r| r.residual).collect();
        assert_eq!(residuals, alloc::vec![0.0, 0.0, -1.0]);
        assert!(fit_base(&[(5, 1.0)], &[(0, 1.0)]).is_none());
    }

    #[test]
    fn compare_fits_nothing() {
        let fit = compare(&[(0, 100.0), (1, 113.0)], &[(0, 98.0), (1, 115.0)]).unwrap();
        assert!(!fit.fitted && fit.base == 0.0);
        let residuals: Vec<f64> = fit.rows.iter().map(|r| r.residual).collect();
        assert_eq!(residuals, [-2.0, 2.0]);
    }
}
