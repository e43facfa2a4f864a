//! `sanitize` held to NVIDIA's compute-sanitizer on the H100 (examples/sanitizer/gpu, made by
//! scripts/h100_sanitizer.sh): for each buggy program of examples/sanitizer, every source line
//! a tool (memcheck, racecheck, initcheck, synccheck) reported there, warpscope's same tool
//! reports too; and with `-DFIXED`, neither reports anything.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use warpscope_core::diag::Severity;
use warpscope_core::host::{run_program, Code};
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
    let (findings, unchecked) = check_program(Code::cuda(&text), &run.launches, &opts);
    assert!(unchecked.is_empty(), "{name}: {unchecked:?}");
    findings
}

const PROGRAMS: &[&str] = &[
    "barrier_in_branch",
    "off_by_one",
    "reduce_missing_barrier",
    "transpose_stale_tile",
    "uninitialised_shared",
    "warp_reduce_unsynced",
    "histogram_no_memset",
    "partial_copy",
    "misaligned",
    "syncwarp_two_sites",
];

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

/// The findings of the corpus's second part in detail (their lines are held to the H100 above):
/// device memory that no host copy and no thread wrote, read plainly (`partial_copy`: on the H100
/// too, thread (0, 0, 0) of block (1, 0, 0) first) or by atomics (`histogram_no_memset`, which
/// the H100 reports in `atomicAdd`'s header line), and a misaligned word (`misaligned`).
#[test]
fn device_memory_nothing_wrote_is_uninitialised_and_a_misaligned_word_a_fault() {
    let one = |name: &str| {
        let found = checked(name, false);
        assert_eq!(found.len(), 1, "{name}: {found:#?}");
        found.into_iter().next().unwrap()
    };
    let tile = checked("transpose_stale_tile", false);
    assert_eq!(tile[0].first.element.as_deref(), Some("tile[0][1]"), "a 2-D array's element as the source names it: {:#?}", tile[0]);
    let partial = one("partial_copy");
    assert_eq!((partial.tool, partial.first.line, partial.count), (Tool::Initcheck, 7, 128), "{partial:#?}");
    assert!(partial.title.starts_with("Uninitialized __global__ memory read of size 4"), "{}", partial.title);
    assert_eq!((partial.first.block, partial.first.element.as_deref()), ([1, 0, 0], Some("d_in[128]")), "the first half was copied");
    // One finding per bin: after its first atomic, a bin holds what the atomic wrote.
    let bins = one("histogram_no_memset");
    assert_eq!((bins.tool, bins.first.line, bins.count), (Tool::Initcheck, 8, 8), "{bins:#?}");
    assert!(bins.message.contains("updated d_bins[0]") && bins.message.contains("cudaMemset"), "{}", bins.message);
    let word = one("misaligned");
    assert_eq!((word.tool, word.first.line, word.first.thread), (Tool::Memcheck, 11, Some([0, 0, 0])), "{word:#?}");
    assert!(word.title == "Invalid __global__ read of size 4 bytes" && word.message.contains("is misaligned"), "{word:#?}");
}

/// Two `__syncwarp()`s that release each other's lanes (one in each side of a branch): a
/// portability warning under volta, which lets them meet as Volta and later GPUs do (the H100's
/// synccheck reports nothing); under a stack model the lanes the mask names are not there, an
/// error.
#[test]
fn syncwarps_met_from_two_lines_are_a_warning_and_absent_lanes_an_error() {
    let found = checked("syncwarp_two_sites", false);
    assert_eq!(found.len(), 1, "{found:#?}");
    let f = &found[0];
    assert_eq!((f.tool, f.severity, f.first.line, f.second.as_ref().map(|s| s.line)), (Tool::Synccheck, Severity::Warning, 10, Some(15)));
    assert!(f.message.contains("lanes 0-15") && f.message.contains("lanes 16-31"), "{}", f.message);
    assert_eq!(checked("syncwarp_two_sites", true), Vec::new());
    let text = std::fs::read_to_string(dir().join("syncwarp_two_sites.cu")).unwrap();
    let opts = LaunchOptions { model: Some(ModelKind::Pdom), ..LaunchOptions::default() };
    let run = run_program(&text, &opts).unwrap();
    let (found, _) = check_program(Code::cuda(&text), &run.launches, &opts);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!((found[0].tool, found[0].severity), (Tool::Synccheck, Severity::Error), "{found:#?}");
    assert!(found[0].message.contains("names lanes 0-15, which are not here"), "{}", found[0].message);
}
