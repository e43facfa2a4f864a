//! The timing model (`h100-timed`) on the H100 report's six kernels, from the SASS nvcc built for
//! the report (`examples/h100/`, from `readable_sm90.txt`), against what the H100 measured
//! (`examples/data/h100_*.csv`, thread 0's median cycles). The predictions are a data file
//! (`golden/h100_timed.csv`, refreshed with `UPDATE_GOLDEN=1`), so a change to the model or its
//! parameters shows as a diff; the errors are held to what `docs/timing.md` reports.

use std::path::Path;

use warpscope_core::kernel::parse_kernel;
use warpscope_core::sim::{CostModel, StopReason};
use warpscope_core::sweep::measured::read_csv;
use warpscope_core::{launch, LaunchOptions};

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// One of the report's kernels: its file, its series in the measurements, the param it sweeps,
/// and the largest relative error `docs/timing.md` reports for it.
struct Case {
    file: &'static str,
    data: &'static str,
    kernel: &'static str,
    pattern: &'static str,
    param: &'static str,
    to: i64,
    worst: f64,
}

const CASES: &[Case] = &[
    Case { file: "single_loop_nounroll", data: "loops", kernel: "single_nounroll", pattern: "table1", param: "n", to: 31, worst: 0.01 },
    Case { file: "double_loop_nounroll", data: "loops", kernel: "double_nounroll", pattern: "table1", param: "n", to: 31, worst: 0.01 },
    Case { file: "branch_ifelse", data: "branch", kernel: "branch_ifelse", pattern: "lanes_lt_k", param: "k", to: 32, worst: 0.01 },
    Case { file: "branch_ifonly", data: "branch", kernel: "branch_ifonly", pattern: "lanes_lt_k", param: "k", to: 32, worst: 0.04 },
    Case { file: "single_loop", data: "loops", kernel: "single", pattern: "table1", param: "n", to: 31, worst: 0.01 },
    Case { file: "double_loop", data: "loops", kernel: "double", pattern: "table1", param: "n", to: 31, worst: 0.02 },
];

/// What the model predicts for thread 0's clock difference at each x.
fn predict(case: &Case) -> Vec<(i64, u64)> {
    let text = std::fs::read_to_string(root().join(format!("examples/h100/{}.sm_90.sass", case.file))).unwrap();
    let (kernel, diags) = parse_kernel(&text);
    assert!(diags.iter().all(|d| !d.is_error()), "{}: {diags:?}", case.file);
    (0..=case.to)
        .map(|x| {
            let opts = LaunchOptions {
                cost: Some(CostModel::h100_timed()),
                params: vec![(case.param.to_string(), x.into())],
                record: false,
                ..LaunchOptions::default()
            };
            let mut sim = launch(&kernel, &opts).unwrap();
            assert_eq!(sim.run_to_end(), StopReason::Exited, "{} at {} = {x}", case.file, case.param);
            (x, sim.state().metrics.clock_window())
        })
        .collect()
}

fn measured(case: &Case) -> Vec<(i64, f64)> {
    let csv = std::fs::read_to_string(root().join(format!("examples/data/h100_{}.csv", case.data))).unwrap();
    let sets = read_csv(&csv).unwrap();
    let set = sets.iter().find(|s| s.build == "O3" && s.kernel == case.kernel && s.pattern == case.pattern).unwrap();
    set.points.clone()
}

#[test]
fn the_report_kernels_predictions_are_the_golden_ones_and_within_their_documented_error() {
    let mut csv = String::from("kernel,x,measured,predicted,error_percent\n");
    let mut worst = Vec::new();
    for case in CASES {
        let measured = measured(case);
        let mut max: f64 = 0.0;
        for (x, predicted) in predict(case) {
            let m = measured.iter().find(|p| p.0 == x).map(|p| p.1).unwrap();
            let error = (predicted as f64 - m) / m;
            max = max.max(error.abs());
            csv += &format!("{},{x},{m},{predicted},{:.2}\n", case.kernel, 100.0 * error);
        }
        worst.push((case.kernel, max, case.worst));
    }
    let golden = root().join("core/tests/golden/h100_timed.csv");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&golden, &csv).unwrap();
    }
    assert_eq!(csv, std::fs::read_to_string(&golden).unwrap(), "predictions changed: UPDATE_GOLDEN=1 refreshes golden/h100_timed.csv");
    for (kernel, max, allowed) in worst {
        assert!(
            max <= allowed,
            "{kernel}: the largest error is {:.1} %, docs/timing.md says at most {:.0} %",
            100.0 * max,
            100.0 * allowed
        );
    }
}
