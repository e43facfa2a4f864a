//! The differential test of the PTX input language against warpscope's own C compiler (issue
//! 18): C kernels generated at random within the subset both compilers take
//! (`differential/gen.rs`), each compiled by the real nvcc to PTX (`differential/nvcc.rs`) and by
//! warpscope, run by warpscope both ways under every model and policy with the same inputs;
//! every buffer must end the same (integers exactly, floats within `FLOAT_ULPS`).
//!
//! nvcc comes from `bash scripts/nvcc.sh` (which `scripts/setup-test.sh` runs); without it the test
//! fails and says so. `DIFF_KERNELS=500` runs more kernels than the default 40, `DIFF_SEED=N`
//! starts at another seed. `-- --nocapture` prints how many kernels, runs and comparisons ran.
//! A failing kernel's files (`seed-N.cu`, `seed-N.ptx`, each with its `//@` inputs, ready to
//! paste) go to `target/differential-failures/`.

mod differential;
mod support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use differential::gen::{generate, generate_with, Config, Kernel, ParamKind};
use differential::nvcc;
use support::runs::runs;
use warpscope_core::input;
use warpscope_core::launch;
use warpscope_core::machine::ElemType;
use warpscope_core::model::ModelKind;
use warpscope_core::session::{RunChoices, RunRequest};
use warpscope_core::sim::StopReason;

const DEFAULT_KERNELS: u64 = 40;
/// Far more than the longest kernel needs (nested loops of 8 under MIMD, a lane a step).
const STEP_LIMIT: f64 = 2_000_000.0;
/// How far apart (in units in the last place) two floats may be. The kernels keep their floats
/// exact (`differential/range.rs`), so both compiles should agree to the bit; the slack is for
/// a conversion a compiler rounds its own way.
const FLOAT_ULPS: u32 = 2;
/// How many failing kernels' C texts the failure message shows in full.
const SHOWN: usize = 3;

fn env_number(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(v) => v.trim().parse().unwrap_or_else(|_| panic!("{name}={v} is not a whole number")),
        Err(_) => default,
    }
}

/// Where the test writes: nvcc's files (one folder per run, so two runs never share one), and
/// the failing kernels for a developer to paste (`target/differential-failures`).
fn work_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("ptx_differential-{}", std::process::id()))
}
fn failures_dir() -> PathBuf {
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).parent().expect("target/tmp is in target/");
    target.join("differential-failures")
}

/// A run's final buffers: name, element type and words.
type Buffers = Vec<(String, ElemType, Vec<u32>)>;

/// Runs `text` under one model and policy to its end; the buffers, or why there are none.
fn run(text: &str, model: ModelKind, path_order: Option<&str>, schedule: Option<&str>) -> Result<Buffers, String> {
    let req = RunRequest {
        text: text.to_string(),
        choices: RunChoices {
            model: Some(model.name().to_string()),
            path_order: path_order.map(String::from),
            schedule: schedule.map(String::from),
            ..RunChoices::default()
        },
        step_limit: Some(STEP_LIMIT),
        ..RunRequest::default()
    };
    let r = req.resolve();
    if !r.ok() {
        let errors: Vec<String> =
            r.all_diagnostics().iter().filter(|d| d.is_error()).take(3).map(|d| format!("line {}: {}", d.span.line, d.message)).collect();
        return Err(format!("does not load: {}", errors.join("; ")));
    }
    let mut sim = launch(&r.kernel, &r.options).map_err(|d| format!("does not launch: {d:?}"))?;
    let stop = sim.run_to_end();
    if stop != StopReason::Exited {
        return Err(format!("ends with {stop:?}, not Exited"));
    }
    let memory = &sim.state().machine.memory;
    Ok(memory.buffers.iter().zip(&memory.words).map(|(b, w)| (b.name.clone(), b.elem, w.clone())).collect())
}

/// Why two runs' words of one buffer differ, if they do.
fn differ(elem: ElemType, want: &[u32], got: &[u32]) -> Option<String> {
    if want.len() != got.len() {
        return Some(format!("{} words, want {}", got.len(), want.len()));
    }
    let same = |a: u32, b: u32| match elem {
        ElemType::F32 => {
            let (x, y) = (f32::from_bits(a), f32::from_bits(b));
            x == y || (x.is_finite() && y.is_finite() && x.is_sign_negative() == y.is_sign_negative() && a.abs_diff(b) <= FLOAT_ULPS)
        }
        _ => a == b,
    };
    let bad: Vec<String> = (0..want.len())
        .filter(|&k| !same(want[k], got[k]))
        .map(|k| format!("[{k}] = {}, want {}", elem.read(got[k]), elem.read(want[k])))
        .collect();
    (!bad.is_empty()).then(|| format!("{} of {} differ: {}", bad.len(), want.len(), bad.into_iter().take(6).collect::<Vec<_>>().join(", ")))
}

/// What checking one kernel found.
#[derive(Default)]
struct Report {
    c_runs: usize,
    ptx_runs: usize,
    comparisons: usize,
    /// Problems of warpscope's own compile (the generator or the C compiler is at fault).
    c_problems: Vec<String>,
    /// Differences between nvcc's PTX and warpscope's compile, as warpscope runs them.
    ptx_problems: Vec<String>,
}

/// Adds `problem` under `label`, listing a problem once with every run it came under.
fn note(list: &mut Vec<(String, Vec<String>)>, problem: String, label: &str) {
    match list.iter_mut().find(|(p, _)| *p == problem) {
        Some((_, labels)) => labels.push(label.to_string()),
        None => list.push((problem, vec![label.to_string()])),
    }
}

fn flatten(list: Vec<(String, Vec<String>)>, all: usize) -> Vec<String> {
    list.into_iter()
        .map(|(p, labels)| {
            let under = if labels.len() == all { "every model and policy".to_string() } else { labels.join(", ") };
            format!("under {under}: {p}")
        })
        .collect()
}

/// Runs one kernel's C under every model and policy (each must exit and agree with the MIMD
/// run), then nvcc's PTX under each, comparing every buffer with the C run's buffer at the same
/// parameter position.
fn check(kernel: &Kernel, ptx: &Result<String, String>) -> Report {
    let all = runs();
    let mut report = Report::default();
    let c_text = kernel.c_text();
    let mut c_problems = Vec::new();
    let mut c_results = Vec::new();
    for (model, order, schedule, label) in &all {
        report.c_runs += 1;
        let r = run(&c_text, *model, *order, *schedule);
        if let Err(why) = &r {
            note(&mut c_problems, why.clone(), label);
        }
        c_results.push(r);
    }
    // Every model computes what MIMD (one lane at a time) does.
    let reference = all.iter().position(|r| r.0 == ModelKind::Mimd).and_then(|k| c_results[k].as_ref().ok());
    if let Some(reference) = reference {
        for ((_, _, _, label), r) in all.iter().zip(&c_results) {
            let Ok(buffers) = r else { continue };
            for ((name, elem, words), (_, _, want)) in buffers.iter().zip(reference) {
                if let Some(why) = differ(*elem, want, words) {
                    note(&mut c_problems, format!("buffer `{name}` is not what MIMD computes: {why}"), label);
                }
            }
        }
    }
    report.c_problems = flatten(c_problems, all.len());

    // The PTX side. It needs the PTX reader (`core/src/input/ptx.rs`, issue 18): until that
    // lands, the text is taken for a listing and does not load, and every kernel fails here.
    let ptx = match ptx {
        Ok(ptx) => ptx,
        Err(why) => {
            report.ptx_problems.push(format!("nvcc refused it: {why}"));
            return report;
        }
    };
    let ptx_text = kernel.ptx_text(ptx);
    // What the text is taken for: `listing` until the PTX reader is in.
    let read_as = input::detect(&ptx_text).name();
    let mut ptx_problems = Vec::new();
    for ((model, order, schedule, label), c) in all.iter().zip(&c_results) {
        report.ptx_runs += 1;
        let p = match run(&ptx_text, *model, *order, *schedule) {
            Ok(p) => p,
            Err(why) => {
                note(&mut ptx_problems, format!("the PTX (read as `{read_as}`) {why}"), label);
                continue;
            }
        };
        let Ok(c) = c else { continue };
        // The PTX reader names the parameters arg0, arg1, ... in signature order.
        for (k, param) in kernel.params.iter().enumerate() {
            let ParamKind::Buffer { .. } = param.kind else { continue };
            let arg = format!("arg{k}");
            let (Some((_, elem, want)), Some((_, _, got))) =
                (c.iter().find(|b| b.0 == param.name), p.iter().find(|b| b.0 == arg || b.0.ends_with(&format!("_param_{k}"))))
            else {
                note(&mut ptx_problems, format!("no buffer `{}` in the C run or `{arg}` in the PTX run", param.name), label);
                continue;
            };
            report.comparisons += 1;
            if let Some(why) = differ(*elem, want, got) {
                note(&mut ptx_problems, format!("buffer `{}` (`{arg}`) differs from the C run: {why}", param.name), label);
            }
        }
    }
    report.ptx_problems = flatten(ptx_problems, all.len());
    report
}

/// Checks every kernel on every core; the reports in the kernels' order.
fn check_all(kernels: &[Kernel], ptx: &[Result<String, String>]) -> Vec<Report> {
    let next = AtomicUsize::new(0);
    let reports: Mutex<Vec<Option<Report>>> = Mutex::new((0..kernels.len()).map(|_| None).collect());
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get()).min(kernels.len().max(1));
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                if k >= kernels.len() {
                    break;
                }
                let r = check(&kernels[k], &ptx[k]);
                reports.lock().unwrap()[k] = Some(r);
            });
        }
    });
    reports.into_inner().unwrap().into_iter().map(|r| r.expect("every kernel checked")).collect()
}

/// Writes a failing kernel's C and PTX texts (with their inputs) and what went wrong.
fn save(kernel: &Kernel, ptx: &Result<String, String>, problems: &[String]) -> PathBuf {
    let dir = failures_dir();
    std::fs::create_dir_all(&dir).expect("target/differential-failures");
    let base = dir.join(format!("seed-{}", kernel.seed));
    std::fs::write(base.with_extension("cu"), kernel.c_text()).expect("writing the .cu");
    if let Ok(ptx) = ptx {
        std::fs::write(base.with_extension("ptx"), kernel.ptx_text(ptx)).expect("writing the .ptx");
    }
    std::fs::write(base.with_extension("txt"), problems.join("\n") + "\n").expect("writing the problems");
    base.canonicalize().unwrap_or(base)
}

/// Every generated kernel: its C under every model (warpscope's compiler and models), then
/// nvcc's PTX of it under every model against the C run (the PTX reader). Fails listing each
/// kernel that went wrong, with its seed, the runs and what differed.
#[test]
fn nvcc_ptx_computes_what_warpscope_compiles_from_the_c() {
    let start = Instant::now();
    let nvcc = nvcc::find().unwrap_or_else(|why| panic!("{why}"));
    let count = env_number("DIFF_KERNELS", DEFAULT_KERNELS);
    let first = env_number("DIFF_SEED", 1);
    let cfg = Config { avoid_known_bugs: std::env::var_os("DIFF_KNOWN_BUGS").is_none() };
    let kernels: Vec<Kernel> = (first..first + count).map(|seed| generate_with(seed, cfg)).collect();

    let t = Instant::now();
    let sources: Vec<(String, String)> = kernels.iter().map(|k| (k.name.clone(), k.c_text())).collect();
    let ptx = nvcc::compile_all(&nvcc, &work_dir(), &sources);
    let _ = std::fs::remove_dir_all(work_dir());
    let nvcc_time = t.elapsed();

    let reports = check_all(&kernels, &ptx);
    let _ = std::fs::remove_dir_all(failures_dir());
    let mut failures = Vec::new();
    let (mut c_failed, mut ptx_failed) = (0, 0);
    for ((kernel, ptx), report) in kernels.iter().zip(&ptx).zip(&reports) {
        c_failed += !report.c_problems.is_empty() as usize;
        ptx_failed += !report.ptx_problems.is_empty() as usize;
        if report.c_problems.is_empty() && report.ptx_problems.is_empty() {
            continue;
        }
        let problems: Vec<String> =
            report.c_problems.iter().map(|p| format!("C: {p}")).chain(report.ptx_problems.iter().map(|p| format!("PTX: {p}"))).collect();
        let saved = save(kernel, ptx, &problems);
        let mut text = format!("seed {} ({}.cu, .ptx, .txt):\n  {}", kernel.seed, saved.display(), problems.join("\n  "));
        if failures.len() < SHOWN {
            text += &format!("\n--- the C text ---\n{}---", kernel.c_text());
        }
        failures.push(text);
    }

    let runs_each = runs().len();
    let mut features: BTreeMap<&str, usize> = BTreeMap::new();
    for k in &kernels {
        for f in &k.features {
            *features.entry(f).or_default() += 1;
        }
    }
    let sum = |f: fn(&Report) -> usize| reports.iter().map(f).sum::<usize>();
    println!(
        "ptx_differential: {count} kernels (seeds {first}..={}), nvcc in {:.1} s; {runs_each} models and policies each: \
         {} C runs, {} PTX runs, {} buffer comparisons; {c_failed} kernels with C problems, {ptx_failed} with PTX \
         differences; {:.1} s in all",
        first + count - 1,
        nvcc_time.as_secs_f64(),
        sum(|r| r.c_runs),
        sum(|r| r.ptx_runs),
        sum(|r| r.comparisons),
        start.elapsed().as_secs_f64()
    );
    let list: Vec<String> = features.iter().map(|(f, n)| format!("{f} {n}")).collect();
    println!("kernels using each feature: {}", list.join(", "));

    assert!(
        failures.is_empty(),
        "{} of {count} generated kernels failed (their files are in {}):\n\n{}",
        failures.len(),
        failures_dir().display(),
        failures.join("\n\n")
    );
}

/// The same generated kernels through nvcc's real SASS (issue 19), for Hopper (sm_90) and for
/// Blackwell (sm_120, whose 64-bit adds and uniform float forms differ): under volta, the model
/// of the GPUs that run SASS, each kernel's dump leaves every buffer as warpscope's compile of
/// the C does under volta. `DIFF_KERNELS` and `DIFF_SEED` as above, `DIFF_SASS_ARCH=sm_75` (or
/// any sm_75 to sm_120) runs that architecture in both tests; a failing kernel's `.cu`, `.sass`
/// and `.txt` go to `target/differential-failures/sass-ARCH-seed-N.*`.
#[test]
fn nvcc_sass_for_hopper_computes_what_warpscope_compiles_from_the_c() {
    sass_against_c("sm_90");
}

#[test]
fn nvcc_sass_for_blackwell_computes_what_warpscope_compiles_from_the_c() {
    sass_against_c("sm_120");
}

fn sass_against_c(default_arch: &str) {
    let nvcc = nvcc::find().unwrap_or_else(|why| panic!("{why}"));
    let count = env_number("DIFF_KERNELS", DEFAULT_KERNELS);
    let first = env_number("DIFF_SEED", 1);
    let cfg = Config { avoid_known_bugs: std::env::var_os("DIFF_KNOWN_BUGS").is_none() };
    let kernels: Vec<Kernel> = (first..first + count).map(|seed| generate_with(seed, cfg)).collect();
    let sources: Vec<(String, String)> = kernels.iter().map(|k| (k.name.clone(), k.c_text())).collect();
    let arch = std::env::var("DIFF_SASS_ARCH").unwrap_or_else(|_| String::from(default_arch));
    let dir = work_dir().with_extension(format!("sass-{default_arch}"));
    let sass = nvcc::compile_sass(&nvcc, &dir, &arch, &sources).unwrap_or_else(|why| panic!("{why}"));
    let _ = std::fs::remove_dir_all(&dir);
    let next = AtomicUsize::new(0);
    let failures: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let comparisons = AtomicUsize::new(0);
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some(kernel) = kernels.get(k) else { break };
                let Some(dump) = sass.get(&kernel.name) else {
                    failures.lock().unwrap().push(format!("seed {}: no function of `{}` in nvcc's SASS", kernel.seed, kernel.name));
                    continue;
                };
                let text = kernel.ptx_text(dump);
                let mut problems = Vec::new();
                match (run(&kernel.c_text(), ModelKind::Volta, None, None), run(&text, ModelKind::Volta, None, None)) {
                    (Err(_), _) => {} // The C side's problems are the PTX test's to report.
                    (Ok(_), Err(why)) => problems.push(format!("the SASS {why}")),
                    (Ok(c), Ok(got)) => {
                        for (k, param) in kernel.params.iter().enumerate() {
                            let ParamKind::Buffer { .. } = param.kind else { continue };
                            let arg = format!("arg{k}");
                            let want = c.iter().find(|b| b.0 == param.name);
                            let have = got.iter().find(|b| b.0 == arg);
                            let (Some((_, elem, want)), Some((_, _, have))) = (want, have) else {
                                problems.push(format!("no buffer `{}` in the C run or `{arg}` in the SASS run", param.name));
                                continue;
                            };
                            comparisons.fetch_add(1, Ordering::Relaxed);
                            if let Some(why) = differ(*elem, want, have) {
                                problems.push(format!("buffer `{}` (`{arg}`) differs from the C run: {why}", param.name));
                            }
                        }
                    }
                }
                if !problems.is_empty() {
                    let dir = failures_dir();
                    std::fs::create_dir_all(&dir).expect("target/differential-failures");
                    let base = dir.join(format!("sass-{arch}-seed-{}", kernel.seed));
                    std::fs::write(base.with_extension("cu"), kernel.c_text()).expect("writing the .cu");
                    std::fs::write(base.with_extension("sass"), &text).expect("writing the .sass");
                    std::fs::write(base.with_extension("txt"), problems.join("\n") + "\n").expect("writing the problems");
                    failures.lock().unwrap().push(format!("seed {} ({}.sass): {}", kernel.seed, base.display(), problems.join("; ")));
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    println!(
        "sass_differential ({arch}): {count} kernels, {} buffer comparisons, {} failed",
        comparisons.load(Ordering::Relaxed),
        failures.len()
    );
    assert!(failures.is_empty(), "{} of {count} kernels' SASS failed:\n{}", failures.len(), failures.join("\n"));
    assert!(comparisons.load(Ordering::Relaxed) >= count as usize, "too few comparisons");
}

/// The same seed gives the same kernel; different seeds give different ones.
#[test]
fn the_generator_is_deterministic() {
    let texts: Vec<String> = (0..60).map(|s| generate(s).c_text()).collect();
    for (s, text) in texts.iter().enumerate() {
        assert_eq!(&generate(s as u64).c_text(), text, "seed {s}");
    }
    let mut distinct = texts.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), texts.len(), "two seeds gave the same kernel");
}

/// The PTX of several kernels in one file splits into one text per kernel, each with the
/// header and only its own entry and functions.
#[test]
fn nvcc_output_splits_per_kernel() {
    let ptx = "//\n// Generated by NVIDIA NVVM Compiler\n//\n\n.version 9.5\n.target sm_90\n.address_size 64\n\n\
        // _ZZ2k2PiE2sh has been demoted\n\
        .func  (.param .b32 func_retval0) _Z5k2_f0i\n(\n\t.param .b32 _Z5k2_f0i_param_0\n)\n;\n\
        \t// .globl\t_Z2k1Pi\n.visible .entry _Z2k1Pi(\n\t.param .u64 _Z2k1Pi_param_0\n)\n{\n\t{ // callseq 0\n\t}\n\tret;\n\n}\n\
        \t// .globl\t_Z2k2Pi\n.visible .entry _Z2k2Pi(\n\t.param .u64 _Z2k2Pi_param_0\n)\n{\n\tret;\n\n}\n\
        .func  (.param .b32 func_retval0) _Z5k2_f0i(\n\t.param .b32 _Z5k2_f0i_param_0\n)\n{\n\tret;\n\n}\n";
    let parts = nvcc::split(ptx);
    assert_eq!(parts.keys().collect::<Vec<_>>(), ["k1", "k2"]);
    let (k1, k2) = (&parts["k1"], &parts["k2"]);
    for text in [k1, k2] {
        assert!(
            text.starts_with("//\n// Generated by NVIDIA NVVM Compiler\n//\n\n.version 9.5\n.target sm_90\n.address_size 64\n"),
            "{text}"
        );
    }
    assert!(k1.contains("// .globl\t_Z2k1Pi\n.visible .entry _Z2k1Pi(") && k1.contains("// callseq 0\n\t}\n\tret;"), "{k1}");
    assert!(!k1.contains("k2"), "{k1}");
    assert_eq!(k2.matches("_Z5k2_f0i(").count(), 1, "{k2}");
    assert!(k2.contains("_Z5k2_f0i\n(\n\t.param .b32 _Z5k2_f0i_param_0\n)\n;\n"), "{k2}");
    assert!(k2.contains("// _ZZ2k2PiE2sh has been demoted\n"), "{k2}");
    assert!(!k2.contains("k1"), "{k2}");
}
