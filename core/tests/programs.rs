//! Whole programs (`main()` and every launch) print what they printed on a GPU of the H100's SM
//! (sm_90; gpu.txt names the card): each program of examples/programs and each whole program of
//! examples/corpus, built by nvcc for sm_90 and run there by scripts/h100_programs.sh, whose
//! output is examples/programs/gpu/NAME.{stdout,stderr,status}.

use std::path::{Path, PathBuf};

use warpscope_core::host::{run_program, ProgramEnd};
use warpscope_core::LaunchOptions;

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples")
}

/// The source of the program the H100 ran as `name` (`corpus_x` is examples/corpus/x.cu).
fn source(name: &str) -> String {
    let path = match name.strip_prefix("corpus_") {
        Some(corpus) => examples().join(format!("corpus/{corpus}.cu")),
        None => examples().join(format!("programs/{name}.cu")),
    };
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Numbers masked: a timing line says the same thing with other digits.
fn shape(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_ascii_digit() || c == '.' {
            if !out.ends_with('#') {
                out.push('#');
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Programs whose device lines come in another order than on the GPU: nvcc laid out
/// hello_threads' `if`/`else if` with the `else` path as the fall-through, which the GPU runs
/// first, where warpscope's own compile has the `if` path there. Their host lines and the device
/// lines between them are held, not the order within (the order across blocks and warps is held
/// by `device_lines_come_in_the_order_the_h100_printed_them`).
const ORDER_DIFFERS: &[&str] = &["hello_threads"];

/// The same lines between each pair of host lines (those `main` prints: not starting "block").
fn assert_same_lines(got: &str, want: &str, name: &str) {
    let runs = |text: &str| -> Vec<Vec<String>> {
        let mut out: Vec<Vec<String>> = vec![Vec::new()];
        for line in text.lines() {
            if line.starts_with("block") {
                out.last_mut().unwrap().push(line.to_string());
            } else {
                out.push(vec![line.to_string()]);
                out.push(Vec::new());
            }
        }
        out.iter_mut().for_each(|r| r.sort());
        out
    };
    assert_eq!(runs(got), runs(want), "{name}: the lines between the host's");
}

/// Every program the GPU ran, each checked by a test below (one each, so they run in parallel).
const PROGRAMS: &[&str] = &[
    "bfs",
    "corpus_bitonic_sort_step",
    "corpus_histogram_shared_bins",
    "corpus_reduce_sequential",
    "corpus_saxpy",
    "corpus_vector_add",
    "hello_threads",
    "histogram",
    "matmul",
    "reduction_passes",
    "vector_add",
];

fn gpu_dir() -> PathBuf {
    examples().join("programs/gpu")
}

#[test]
fn the_gpu_ran_every_program_and_each_is_checked() {
    let dir = gpu_dir();
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e} (scripts/h100_programs.sh makes it)", dir.display()))
        .filter_map(|e| e.ok()?.file_name().to_str()?.strip_suffix(".stdout").map(String::from))
        .collect();
    names.sort();
    assert_eq!(names, PROGRAMS);
    let gpu = std::fs::read_to_string(dir.join("gpu.txt")).expect("gpu.txt");
    assert!(gpu.contains("H100") || gpu.contains("H200"), "an sm_90 GPU: {gpu}");
}

/// `name` prints what it printed on the GPU, its stderr the same but for numbers (a time), and
/// exits with the same status.
fn check(name: &str) {
    let dir = gpu_dir();
    let want = |ext: &str| std::fs::read_to_string(dir.join(format!("{name}.{ext}"))).unwrap();
    let run = run_program(&source(name), &LaunchOptions::default()).unwrap_or_else(|d| panic!("{name}: {d:?}"));
    if ORDER_DIFFERS.contains(&name) {
        assert_same_lines(&run.stdout, &want("stdout"), name);
    } else {
        assert_eq!(run.stdout, want("stdout"), "{name}: stdout");
    }
    assert_eq!(shape(&run.stderr), shape(&want("stderr")), "{name}: stderr");
    let status: i32 = want("status").trim().parse().unwrap();
    assert_eq!(run.end, ProgramEnd::Exited(status), "{name}: exit status");
    assert!(!run.launches.is_empty(), "{name} launches a kernel");
}

macro_rules! programs {
    ($($test:ident: $name:literal,)*) => {$(
        #[test]
        fn $test() {
            check($name);
        }
    )*};
}

programs! {
    bfs_levels: "bfs",
    bitonic_sort_step: "corpus_bitonic_sort_step",
    histogram_shared_bins: "corpus_histogram_shared_bins",
    reduce_sequential: "corpus_reduce_sequential",
    saxpy_managed: "corpus_saxpy",
    corpus_vector_add: "corpus_vector_add",
    hello_threads: "hello_threads",
    histogram_cpp: "histogram",
    matmul_events: "matmul",
    reduction_passes: "reduction_passes",
    vector_add: "vector_add",
}

/// The order of device `printf` lines (examples/experiments/printf_order.cu, run on an H100):
/// each section, one launch's lines, as the GPU printed them; `ifelse`'s as the same lines, for
/// nvcc runs its `else` path first there, and warpscope's own compile its `if` path.
#[test]
fn device_lines_come_in_the_order_the_h100_printed_them() {
    let src = std::fs::read_to_string(examples().join("experiments/printf_order.cu")).unwrap();
    let want = std::fs::read_to_string(examples().join("experiments/gpu/printf_order.stdout")).unwrap();
    let got = run_program(&src, &LaunchOptions::default()).unwrap_or_else(|d| panic!("{d:?}")).stdout;
    let sections = |text: &str| -> Vec<(String, Vec<String>)> {
        let mut out: Vec<(String, Vec<String>)> = Vec::new();
        for line in text.lines() {
            match line.strip_prefix("== ") {
                Some(head) => out.push((head.to_string(), Vec::new())),
                None => out.last_mut().expect("a section first").1.push(line.to_string()),
            }
        }
        out
    };
    let (got, want) = (sections(&got), sections(&want));
    assert_eq!(got.len(), 5);
    assert_eq!(got.iter().map(|s| &s.0).collect::<Vec<_>>(), want.iter().map(|s| &s.0).collect::<Vec<_>>());
    for ((head, mut lines), (_, mut expected)) in got.into_iter().zip(want) {
        if head.starts_with("ifelse") {
            lines.sort();
            expected.sort();
        }
        assert_eq!(lines, expected, "{head}");
    }
}

/// The buggy-kernel corpus of examples/sanitizer (issue 48), as the H100 ran it there
/// (examples/sanitizer/gpu, scripts/h100_sanitizer.sh): each program with `-DFIXED` prints what
/// it printed, and so does the barrier inside `if (t < 48)`, which completes on the GPU (the lanes
/// that skip it exit; compile/reconverge.rs) where a BSYNC at the exit once deadlocked it. The
/// other bugs print what their race or fault made of them, which is not the GPU's to hold.
#[test]
fn the_sanitizer_corpus_fixed_and_the_barrier_in_a_branch_print_what_the_h100_printed() {
    let dir = examples().join("sanitizer");
    for (name, fixed) in [
        ("barrier_in_branch", false),
        ("barrier_in_branch", true),
        ("off_by_one", true),
        ("reduce_missing_barrier", true),
        ("transpose_stale_tile", true),
        ("uninitialised_shared", true),
        ("warp_reduce_unsynced", true),
        ("histogram_no_memset", true),
        ("partial_copy", true),
        // The launch fails as on the GPU: cudaMemcpy returns cudaErrorMisalignedAddress.
        ("misaligned", false),
        ("misaligned", true),
        ("syncwarp_two_sites", false),
        ("syncwarp_two_sites", true),
    ] {
        let text = std::fs::read_to_string(dir.join(format!("{name}.cu"))).unwrap();
        let (text, gpu) = if fixed { (format!("#define FIXED\n{text}"), format!("{name}.fixed")) } else { (text, name.to_string()) };
        let want = std::fs::read_to_string(dir.join(format!("gpu/{gpu}.stdout"))).unwrap();
        let run = run_program(&text, &LaunchOptions::default()).unwrap_or_else(|d| panic!("{gpu}: {d:?}"));
        assert_eq!((run.stdout.as_str(), &run.end), (want.as_str(), &ProgramEnd::Exited(0)), "{gpu}");
    }
}
