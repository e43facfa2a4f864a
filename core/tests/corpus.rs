//! The teaching corpus (`examples/corpus/*.cu`): kernels as CUDA courses write them, pasted whole
//! with no `//@` lines. Each runs on the default launch (one block of one warp, 32 threads) with
//! the automatic inputs (every pointer parameter a buffer of 32 elements holding 0, 1, 2, ...;
//! every scalar 32, unless a case overrides it as a caller's `--param` would) under every model
//! and every value of the policy the model reads, and every buffer's final contents must equal
//! the kernel written again in Rust (`corpus/reference.rs`, with the warp's shuffles and votes in
//! `corpus/warp.rs`). A failure lists every (file, model, policy) that went wrong and why.
//!
//! `scripts/nvcc.sh check` compiles the same files with NVIDIA's nvcc, so every kernel here is
//! valid CUDA.

mod corpus {
    pub mod reference;
    pub mod warp;
}
mod support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use corpus::reference::{self, Case, Want};
use support::runs::runs;
use warpscope_core::launch;
use warpscope_core::model::ModelKind;
use warpscope_core::session::{RunChoices, RunRequest};
use warpscope_core::sim::StopReason;

/// Enough for the longest case (Collatz under MIMD, one lane-instruction a step) many times over.
const STEP_LIMIT: f64 = 5_000_000.0;

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/corpus")
}

fn corpus_files() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(corpus_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter(|n| n.ends_with(".cu"))
        .collect();
    names.sort();
    names
}

/// A buffer's bytes as stored (memory holds little-endian 32-bit words; a 64-bit element is read
/// from 8 bytes, whichever way the machine lays it out in words).
fn bytes_of(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// Why `got` (the buffer's bytes) differs from `want`, if it does.
fn compare(want: &Want, got: &[u8]) -> Option<String> {
    fn elems<const N: usize, T: std::fmt::Debug>(got: &[u8], read: impl Fn([u8; N]) -> T) -> Vec<T> {
        got.chunks_exact(N).map(|c| read(c.try_into().unwrap())).collect()
    }
    fn diff<T: std::fmt::Debug>(want: &[T], got: &[T], same: impl Fn(&T, &T) -> bool) -> Option<String> {
        if want.len() != got.len() {
            return Some(format!("{} elements, want {}: {:?}", got.len(), want.len(), got));
        }
        let bad: Vec<String> =
            (0..want.len()).filter(|&i| !same(&want[i], &got[i])).map(|i| format!("[{i}] = {:?}, want {:?}", got[i], want[i])).collect();
        (!bad.is_empty()).then(|| format!("{} of {} differ: {}", bad.len(), want.len(), bad.join(", ")))
    }
    match want {
        Want::I32(w) => diff(w, &elems(got, i32::from_le_bytes), |a, b| a == b),
        Want::U32(w) => diff(w, &elems(got, u32::from_le_bytes), |a, b| a == b),
        Want::F32(w, ulps) => diff(w, &elems(got, f32::from_le_bytes), |a, b| reference::within_ulps(*a, *b, *ulps)),
        Want::F64(w) => diff(w, &elems(got, f64::from_le_bytes), |a, b| a == b),
    }
}

/// Runs one case under one model and policy; every problem found, as text. `rename` gives the
/// name a C parameter's buffer or param has in this text (PTX names them `arg0`, `arg1`...).
fn run_case(
    case: &Case,
    text: &str,
    rename: &dyn Fn(&str) -> String,
    model: ModelKind,
    path_order: Option<&str>,
    schedule: Option<&str>,
) -> Vec<String> {
    let params: BTreeMap<String, f64> = case.params.iter().map(|&(n, v)| (rename(n), v as f64)).collect();
    let req = RunRequest {
        text: text.to_string(),
        choices: RunChoices {
            model: Some(model.name().to_string()),
            path_order: path_order.map(String::from),
            schedule: schedule.map(String::from),
            // The corpus's kernels run with their `//@` inputs, also where the file has a main().
            kernel_only: Some(true),
            ..RunChoices::default()
        },
        params,
        step_limit: Some(STEP_LIMIT),
        ..RunRequest::default()
    };
    let r = req.resolve();
    if !r.ok() {
        let first: Vec<String> =
            r.all_diagnostics().iter().filter(|d| d.is_error()).take(3).map(|d| format!("line {}: {}", d.span.line, d.message)).collect();
        return vec![format!("does not compile: {}", first.join("; "))];
    }
    let mut problems = Vec::new();
    // The automatic inputs: every scalar parameter is a param defaulting to the thread count.
    let declared: Vec<(&str, i64)> = r.params.iter().map(|p| (p.name.as_str(), p.default.as_i64())).collect();
    let scalars: Vec<(String, i64)> = case.scalars.iter().map(|&s| (rename(s), reference::THREADS as i64)).collect();
    let declared: Vec<(String, i64)> = declared.into_iter().map(|(n, v)| (n.to_string(), v)).collect();
    if declared != scalars {
        problems.push(format!("scalar params (name, default) are {declared:?}, want {scalars:?}"));
    }
    let mut sim = match launch(&r.kernel, &r.options) {
        Ok(sim) => sim,
        Err(d) => return vec![format!("does not launch: {d:?}")],
    };
    let stop = sim.run_to_end();
    if stop != StopReason::Exited {
        problems.push(format!("ends with {stop:?}, not Exited"));
        return problems;
    }
    let memory = &sim.state().machine.memory;
    for (name, want) in &case.buffers {
        let name = &rename(name);
        match memory.buffer(name) {
            None => {
                problems.push(format!("no buffer `{name}` (buffers: {:?})", memory.buffers.iter().map(|b| &b.name).collect::<Vec<_>>()))
            }
            Some((_, words)) => {
                if let Some(why) = compare(want, &bytes_of(words)) {
                    problems.push(format!("buffer `{name}`: {why}"));
                }
            }
        }
    }
    problems
}

/// Runs the file's cases under every model and policy; fails naming each that went wrong.
fn check(file: &str) {
    let text = std::fs::read_to_string(corpus_dir().join(file)).unwrap();
    check_text(file, &text, &|n| n.to_string());
}

/// The same cases on nvcc's PTX of the file (`examples/corpus/ptx/`, written by
/// `scripts/nvcc.sh check`): the PTX reader, its register assignment and the reconvergence it
/// places must compute what the H100 computed, under every model.
fn check_ptx(file: &str) {
    let ptx = std::fs::read_to_string(corpus_dir().join("ptx").join(file.replace(".cu", ".ptx"))).unwrap();
    check_ptx_text(file, &ptx, "nvcc's PTX");
}

/// The same on `ptx`, a PTX text of the corpus file (`what` says which).
fn check_ptx_text(file: &str, ptx: &str, what: &str) {
    let source = std::fs::read_to_string(corpus_dir().join(file)).unwrap();
    let (compiled, d) = warpscope_core::compile::compile(&source, Default::default());
    let params: Vec<String> = compiled.unwrap_or_else(|| panic!("{file}: {d:?}")).params.iter().map(|p| p.name.clone()).collect();
    let rename = move |n: &str| match params.iter().position(|p| p == n) {
        Some(k) => format!("arg{k}"),
        None => n.to_string(),
    };
    check_text(&format!("{file} ({what})"), ptx, &rename);
}

/// nvcc's PTX as Compiler Explorer's PTX pane shows it with its default filters (no `.reg`,
/// `.shared` or comment lines; `.trim` files also with tabs squeezed), made from the corpus PTX
/// by `scripts/compiler_explorer_view.py` (core/tests/fixtures/compiler_explorer/): pasted as
/// it is, each computes what the H100 computed, under every model.
#[test]
fn compiler_explorer_text() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/compiler_explorer");
    let mut n = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let path = e.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let Some(stem) = name.strip_suffix(".ptx") else { continue };
        let file = format!("{}.cu", stem.trim_end_matches(".trim"));
        check_ptx_text(&file, &std::fs::read_to_string(&path).unwrap(), "Compiler Explorer's view");
        n += 1;
    }
    assert!(n >= 5, "{n} fixtures");
}

/// CUDA 12's PTX of every corpus kernel (`.version 8.8`, a `.section .debug_str` block, its own
/// register numbering; written by `scripts/cuda12.sh` with NVRTC 12.9, nvcc 12.9's device
/// compiler): each computes what the H100 computed, under every model.
#[test]
fn cuda12_ptx() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/cuda12");
    let mut n = 0;
    for file in corpus_files() {
        let ptx = std::fs::read_to_string(dir.join(file.replace(".cu", ".ptx"))).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert!(ptx.contains(".version 8."), "{file}: not CUDA 12's PTX");
        check_ptx_text(&file, &ptx, "CUDA 12's PTX");
        n += 1;
    }
    assert!(n >= 25, "{n} fixtures");
}

/// The other architectures (sm_80 to sm_120) and nvdisasm's forms (the whole ELF, `-c`, `-g`,
/// `-hex`) of two kernels: each read and run under volta computes what the H100 computed.
#[test]
fn real_sass_of_every_architecture_and_disassembler_form() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sass");
    let mut failures = Vec::new();
    let mut n = 0;
    for form in ["sm_80", "sm_86", "sm_89", "sm_100", "sm_120", "nvdisasm", "nvdisasm-c", "nvdisasm-g", "nvdisasm-hex"] {
        for file in ["vector_add.cu", "collatz_steps.cu"] {
            let text = std::fs::read_to_string(dir.join(form).join(file.replace(".cu", ".sass"))).unwrap();
            let source = std::fs::read_to_string(corpus_dir().join(file)).unwrap();
            let params: Vec<String> =
                warpscope_core::compile::compile(&source, Default::default()).0.unwrap().params.iter().map(|p| p.name.clone()).collect();
            let rename = |name: &str| params.iter().position(|p| p == name).map_or_else(|| name.to_string(), |k| format!("arg{k}"));
            for case in reference::cases(file) {
                failures.extend(
                    run_case(&case, &text, &rename, ModelKind::Volta, None, None).into_iter().map(|p| format!("{form}/{file}: {p}")),
                );
            }
            n += 1;
        }
    }
    assert_eq!(n, 18);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Real SASS the reader does not run yet (issue 19 is being built in parts), each with what it
/// says or does: a kernel that starts to run drops out of this list, or the test fails.
const SASS_PENDING: &[(&str, &str)] = &[];

/// nvcc's real SASS of every corpus kernel (`cuobjdump -sass` for sm_75 and sm_90, written by
/// `scripts/sass.sh check` into core/tests/fixtures/sass/), pasted as it is: under volta, the
/// model of the GPUs that run it, each computes what the H100 computed, but for the kernels of
/// `SASS_PENDING`, which fail as that list says.
#[test]
fn real_sass_under_volta() {
    let mut failures = Vec::new();
    let mut n = 0;
    for (key, problems) in real_sass_runs(ModelKind::Volta) {
        let pending = SASS_PENDING.iter().find(|(f, _)| *f == key).map(|(_, why)| *why);
        match pending {
            None => failures.extend(problems.into_iter().map(|p| format!("{key}: {p}"))),
            Some(why) if problems.iter().any(|p| p.contains(why)) => {}
            Some(why) => failures.push(format!("{key} is listed as pending ({why}) but {problems:?}: update SASS_PENDING")),
        }
        n += 1;
    }
    assert!(n >= 50, "{n} files");
    // A ratchet: no kernel that runs today stops running.
    assert!(n - SASS_PENDING.len() >= 30, "only {} of {n} run", n - SASS_PENDING.len());
    assert!(failures.is_empty(), "{} problem(s):\n{}", failures.len(), failures.join("\n"));
}

/// The same SASS under every other model that reads Volta's code (the token stacks refuse
/// BSSY/BSYNC): each computes what the H100 computed too. Under mimd a collective that names no
/// lanes, as SASS's `SHFL` and `VOTE` do not, waits for the warp's lanes (a warp sum gave 0).
#[test]
fn real_sass_under_every_model_that_reads_it() {
    let models = ModelKind::ALL.iter().filter(|m| !matches!(m, ModelKind::Kepler | ModelKind::PdomSsy | ModelKind::Volta));
    let mut failures = Vec::new();
    for &model in models {
        for (key, problems) in real_sass_runs(model) {
            failures.extend(problems.into_iter().map(|p| format!("{} {key}: {p}", model.name())));
        }
    }
    assert!(failures.is_empty(), "{} problem(s):\n{}", failures.len(), failures.join("\n"));
}

/// Each corpus kernel's real SASS (sm_75 and sm_90) run under `model` against the H100's
/// values: `arch/file` and its problems.
fn real_sass_runs(model: ModelKind) -> Vec<(String, Vec<String>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sass");
    let mut runs = Vec::new();
    for arch in ["sm_75", "sm_90"] {
        for file in corpus_files() {
            let path = dir.join(arch).join(file.replace(".cu", ".sass"));
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let source = std::fs::read_to_string(corpus_dir().join(&file)).unwrap();
            let (compiled, _) = warpscope_core::compile::compile(&source, Default::default());
            let compiled = compiled.unwrap();
            let params: Vec<String> = compiled.params.iter().map(|p| p.name.clone()).collect();
            // A file of several kernels: the one the C runs (cuobjdump lists them in another order).
            let text = match compiled.kernels.first() {
                Some(first) if compiled.kernels.len() > 1 => format!("//@ kernel {first}\n{text}"),
                _ => text,
            };
            let rename = |name: &str| match params.iter().position(|p| p == name) {
                Some(k) => format!("arg{k}"),
                None => name.to_string(),
            };
            let problems = reference::cases(&file).iter().flat_map(|case| run_case(case, &text, &rename, model, None, None)).collect();
            runs.push((format!("{arch}/{file}"), problems));
        }
    }
    runs
}

fn check_text(file: &str, text: &str, rename: &dyn Fn(&str) -> String) {
    let cases = reference::cases(file.split(' ').next().unwrap_or(file));
    assert!(!cases.is_empty(), "{file}: no reference in corpus/reference.rs");
    let all = runs();
    let mut failures = Vec::new();
    for case in &cases {
        let with = if case.params.is_empty() { String::from("defaults") } else { format!("{:?}", case.params) };
        // The same problem under several models is listed once, with the models it came under.
        let mut by_problem: Vec<(String, Vec<&str>)> = Vec::new();
        for (model, order, schedule, label) in &all {
            for p in run_case(case, text, rename, *model, *order, *schedule) {
                match by_problem.iter_mut().find(|(q, _)| *q == p) {
                    Some((_, labels)) => labels.push(label),
                    None => by_problem.push((p, vec![label])),
                }
            }
        }
        for (p, labels) in by_problem {
            let under = if labels.len() == all.len() { String::from("every model and policy") } else { labels.join(", ") };
            failures.push(format!("{file} with {with}, under {under}: {p}"));
        }
    }
    assert!(failures.is_empty(), "{} problem(s):\n{}", failures.len(), failures.join("\n"));
}

/// The corpus is what students paste: no headers, and every file has its reference here.
#[test]
fn every_corpus_file_is_headerless_and_has_a_reference() {
    let files = corpus_files();
    assert!(files.len() >= 25, "{} files", files.len());
    for file in &files {
        let text = std::fs::read_to_string(corpus_dir().join(file)).unwrap();
        assert!(!text.lines().any(|l| l.trim_start().starts_with("//@")), "{file} has a //@ line");
        assert!(!reference::cases(file).is_empty(), "{file}: no reference in corpus/reference.rs");
        let tested = TESTED.contains(&file.as_str());
        assert!(tested, "{file}: no #[test] in corpus.rs");
    }
}

macro_rules! corpus_tests {
    ($($name:ident),* $(,)?) => {
        const TESTED: &[&str] = &[$(concat!(stringify!($name), ".cu")),*];
        $(
            #[test]
            fn $name() {
                check(concat!(stringify!($name), ".cu"));
            }
        )*
        mod ptx {
            $(
            #[test]
            fn $name() {
                super::check_ptx(concat!(stringify!($name), ".cu"));
            }
            )*
        }
    };
}

corpus_tests!(
    atomic_min_max_cas,
    binary_search,
    bit_intrinsics,
    bitonic_sort_step,
    collatz_steps,
    div_mod_variable,
    divergent_odd_even,
    double_precision,
    grid_stride_loop,
    histogram_global_atomic,
    histogram_shared_bins,
    index_types,
    math_functions,
    matmul_shared_tile,
    matrix_add_2d,
    reduce_interleaved_divergent,
    reduce_interleaved_strided,
    reduce_sequential,
    reduce_warp_unrolled,
    saxpy,
    scan_hillis_steele,
    stencil_1d_halo,
    stream_compact_ballot,
    switch_lane,
    transpose_shared_tile,
    vector_add,
    vote_any_all,
    warp_allreduce_xor,
    warp_reduce_shfl_down,
    warp_scan_shfl_up,
    warp_sync_shared,
);

/// The references are right on hardware: each corpus kernel was run on an NVIDIA H100 with the
/// same inputs (`examples/corpus/h100.txt`, made by `scripts/h100_corpus.py`), and every buffer
/// of every case a reference states is what the H100 computed (floats within the reference's
/// ulps). With the tests above, warpscope computes what the H100 does under every model.
#[test]
fn the_references_are_what_an_h100_computes() {
    let measured = std::fs::read_to_string(corpus_dir().join("h100.txt")).unwrap();
    let mut checked = 0;
    let mut failures = Vec::new();
    for line in measured.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let [file, params, buffer, hex] = line.split(' ').collect::<Vec<_>>()[..] else { panic!("bad line: {line}") };
        let params: Vec<(String, i64)> = if params == "-" {
            Vec::new()
        } else {
            params.split(',').map(|p| p.split_once('=').map(|(n, v)| (n.to_string(), v.parse().unwrap())).unwrap()).collect()
        };
        let bytes: Vec<u8> = (0..hex.len()).step_by(2).map(|k| u8::from_str_radix(&hex[k..k + 2], 16).unwrap()).collect();
        let cases = reference::cases(file);
        let Some(case) = cases.iter().find(|c| c.params.iter().map(|&(n, v)| (n.to_string(), v)).collect::<Vec<_>>() == params) else {
            failures.push(format!("{file} {params:?}: measured on the H100 but no reference case"));
            continue;
        };
        // A buffer the reference does not state (an input it leaves as it was) is not checked.
        if let Some((_, want)) = case.buffers.iter().find(|(n, _)| *n == buffer) {
            checked += 1;
            if let Some(why) = compare(want, &bytes) {
                failures.push(format!("{file} {params:?} `{buffer}`: the reference says otherwise than the H100: {why}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked >= 60, "only {checked} buffers checked");
}
