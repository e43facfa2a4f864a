//! Every committed fuzz input, replayed through the same check its target runs
//! (`warpscope_core::checks`): the corpora (`fuzz/corpus/<target>/`, the inputs that reached new
//! code) and every input a fuzzer ever crashed on (`fuzz/regressions/<target>/`). A fixed finding
//! stays fixed, and what the corpora cover is checked on every test run, without nightly or
//! cargo-fuzz; `bash scripts/fuzz.sh` is the search for new inputs.
//!
//! This is a debug build, so arithmetic overflow and debug assertions fail it, as the fuzz build's
//! `-a` makes them fail a fuzz run.

use std::path::{Path, PathBuf};

use warpscope_core::checks::{self, Check};

/// What a fuzz target asserts of one input.
type CheckFn = fn(&[u8]) -> Check;

/// Each fuzz target by name, with its check. `the_table_names_every_fuzz_target` holds it to
/// `fuzz/fuzz_targets/`.
const TARGETS: &[(&str, CheckFn)] = &[
    ("kernel_header", checks::kernel_header),
    ("assembler", checks::assembler),
    ("compiler", checks::compiler),
    ("ptx", checks::ptx),
    ("sass", checks::sass),
    #[cfg(feature = "link")]
    ("permalink", checks::permalink),
    ("load_and_run", checks::load_and_run),
    ("structure", checks::structure),
];

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz")
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut files: Vec<PathBuf> = entries.map(|e| e.unwrap().path()).filter(|p| p.is_file()).collect();
    files.sort();
    files
}

/// Runs every input of `folder` (`corpus` or `regressions`) through its target's check; returns
/// how many ran, failing with every input whose check failed.
fn replay(folder: &str) -> usize {
    let mut failures = Vec::new();
    let mut n = 0;
    for (target, check) in TARGETS {
        for path in files(&fuzz_dir().join(folder).join(target)) {
            let data = std::fs::read(&path).unwrap();
            if let Err(why) = check(&data) {
                failures.push(format!("{}: {why}", path.display()));
            }
            n += 1;
        }
    }
    assert!(failures.is_empty(), "{} of {n} inputs failed their check:\n{}", failures.len(), failures.join("\n"));
    n
}

#[test]
fn every_saved_crash_passes_its_check() {
    assert!(replay("regressions") >= 1, "no saved crashes found under fuzz/regressions");
}

#[test]
fn every_corpus_input_passes_its_check() {
    // The corpora hold about 2,900 inputs; a handful means the folders moved.
    assert!(replay("corpus") >= 1000, "the fuzz corpora under fuzz/corpus are nearly empty");
}

/// The table above and the fuzz crate name the same targets, each calling its own check, so a new
/// target's corpus is replayed here from the day it is added.
#[test]
fn the_table_names_every_fuzz_target() {
    let manifest = std::fs::read_to_string(fuzz_dir().join("Cargo.toml")).unwrap();
    let mut on_disk: Vec<String> =
        files(&fuzz_dir().join("fuzz_targets")).iter().map(|p| p.file_stem().unwrap().to_string_lossy().into_owned()).collect();
    on_disk.sort();
    let mut named: Vec<&str> = TARGETS.iter().map(|(t, _)| *t).collect();
    #[cfg(not(feature = "link"))]
    named.push("permalink");
    named.sort();
    assert_eq!(on_disk, named, "fuzz/fuzz_targets/ and this test's TARGETS differ");
    for target in &on_disk {
        let source = std::fs::read_to_string(fuzz_dir().join("fuzz_targets").join(format!("{target}.rs"))).unwrap();
        assert!(
            source.contains(&format!("warpscope_core::checks::{target}(")),
            "fuzz/fuzz_targets/{target}.rs does not run checks::{target}"
        );
        assert!(manifest.contains(&format!("path = \"fuzz_targets/{target}.rs\"")), "fuzz/Cargo.toml has no [[bin]] for {target}");
    }
    for folder in ["corpus", "regressions"] {
        for dir in std::fs::read_dir(fuzz_dir().join(folder)).unwrap() {
            let name = dir.unwrap().file_name().to_string_lossy().into_owned();
            assert!(on_disk.contains(&name), "fuzz/{folder}/{name} has no fuzz target");
        }
    }
}
