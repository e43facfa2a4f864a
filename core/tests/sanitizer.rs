//! `sanitize` held to NVIDIA's compute-sanitizer on the H100 (examples/sanitizer/gpu, made by
//! scripts/h100_sanitizer.sh): for each buggy program of examples/sanitizer, every source line
//! a tool (memcheck, racecheck, initcheck, synccheck) reported there, warpscope's same tool
//! reports too; and with `-DFIXED`, neither reports anything.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use warpscope_core::host::run_program;
use warpscope_core::model::ModelKind;
use warpscope_core::sanitize::{check_program, Finding, Tool};
use warpscope_core::LaunchOptions;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/sanitizer")
}

/// The lines of `file` a compute-sanitizer report names (`... in off_by_one.cu:11`).
fn gpu_lines(report: &str, file: &str) -> BTreeSet<u32> {
    let tag = format!("{file}:");
    report.split(tag.as_str()).skip(1).filter_map(|rest| rest.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()).collect()
}

fn checked(name: &str, fixed: bool) -> Vec<Finding> {
    let text = std::fs::read_to_string(dir().join(format!("{name}.cu"))).unwrap();
    // `-DFIXED` as a line of its own before the file's first: the lines stay the file's, plus one.
    let text = if fixed { format!("#define FIXED\n{text}") } else { text };
    let opts = LaunchOptions { model: Some(ModelKind::Volta), ..LaunchOptions::default() };
    let run = run_program(&text, &opts).unwrap_or_else(|d| panic!("{name}: {d:?}"));
    let (findings, unchecked) = check_program(&text, &run.launches, &opts);
    assert!(unchecked.is_empty(), "{name}: {unchecked:?}");
    findings
}

const PROGRAMS: &[&str] =
    &["barrier_in_branch", "off_by_one", "reduce_missing_barrier", "transpose_stale_tile", "uninitialised_shared", "warp_reduce_unsynced"];

#[test]
fn every_line_compute_sanitizer_reports_warpscope_reports_with_the_same_tool() {
    let mut reported = 0;
    for name in PROGRAMS {
        let found = checked(name, false);
        assert!(!found.is_empty(), "{name}: a bug, and nothing found");
        for tool in Tool::ALL {
            let report = std::fs::read_to_string(dir().join(format!("gpu/{name}.{}.txt", tool.name()))).unwrap();
            let ours: BTreeSet<u32> = found
                .iter()
                .filter(|f| f.tool == tool)
                .flat_map(|f| [Some(f.first.line), f.second.as_ref().map(|s| s.line)])
                .flatten()
                .collect();
            for line in gpu_lines(&report, &format!("{name}.cu")) {
                reported += 1;
                assert!(
                    ours.contains(&line),
                    "{name}: {} reported line {line} on the H100; warpscope's lines: {ours:?}\n{found:#?}",
                    tool.name()
                );
            }
        }
    }
    assert!(reported >= 4, "the H100 reported lines in the corpus ({reported})");
}

#[test]
fn the_fixed_programs_have_no_finding_here_or_on_the_h100() {
    for name in PROGRAMS {
        assert_eq!(checked(name, true), Vec::new(), "{name} -DFIXED");
        for tool in Tool::ALL {
            let report = std::fs::read_to_string(dir().join(format!("gpu/{name}.fixed.{}.txt", tool.name()))).unwrap();
            assert!(gpu_lines(&report, &format!("{name}.cu")).is_empty(), "{name}.fixed: {}", tool.name());
        }
    }
}
