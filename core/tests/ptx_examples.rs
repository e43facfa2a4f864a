//! The gallery's PTX (`examples/ptx/`, nvcc's output for each C example, written by
//! `scripts/nvcc.sh check`): golden translations for each target, showing the reconvergence
//! warpscope inserts (data files, refreshed with `UPDATE_GOLDEN=1`), and every PTX example
//! computing what warpscope's own compile of the C example computes, under every model.

use std::path::{Path, PathBuf};

use warpscope_core::compile::{compile, Target};
use warpscope_core::kernel::{parse_kernel_with, SourceOptions};
use warpscope_core::launch;
use warpscope_core::model::ModelKind;
use warpscope_core::session::{RunChoices, RunRequest};
use warpscope_core::sim::StopReason;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples")
}

fn ptx_examples() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir().join("ptx")).unwrap().map(|e| e.unwrap().path()).collect();
    v.retain(|p| p.extension().is_some_and(|e| e == "ptx"));
    v.sort();
    v
}

#[test]
fn golden_translations() {
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/ptx");
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut stale = Vec::new();
    let files = ptx_examples();
    assert!(files.len() >= 15, "{} PTX examples", files.len());
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let stem = path.file_stem().unwrap().to_string_lossy().to_string();
        for &target in Target::ALL {
            let (k, d) = parse_kernel_with(&text, &SourceOptions { target: Some(target), ..SourceOptions::default() });
            assert!(d.iter().all(|d| !d.is_error()), "{stem} {target:?}: {d:?}");
            let listing = k.compiled.expect("PTX is translated").listing;
            let inserted = listing.lines().filter(|l| l.contains("// inserted")).count();
            if target == Target::Plain {
                assert_eq!(inserted, 0, "{stem}: plain code gets no reconvergence instructions");
            }
            let file = golden.join(format!("{stem}.{}.sass", target.name()));
            if update {
                std::fs::create_dir_all(&golden).unwrap();
                std::fs::write(&file, &listing).unwrap();
            } else if std::fs::read_to_string(&file).ok().as_deref() != Some(listing.as_str()) {
                stale.push(file.display().to_string());
            }
        }
    }
    assert!(stale.is_empty(), "translations differ from the golden files (UPDATE_GOLDEN=1 refreshes them):\n{}", stale.join("\n"));
}

/// Every buffer's words after a run of `text` under `model`, by name, and how the run ended.
fn run(text: &str, model: ModelKind) -> (StopReason, Vec<(String, Vec<u32>)>) {
    let req = RunRequest {
        text: text.to_string(),
        choices: RunChoices { model: Some(model.name().to_string()), ..RunChoices::default() },
        step_limit: Some(200_000.0),
        ..RunRequest::default()
    };
    let r = req.resolve();
    assert!(r.ok(), "{:?}", r.all_diagnostics());
    let mut sim = launch(&r.kernel, &r.options).expect("launch");
    let stop = sim.run_to_end();
    let mem = &sim.state().machine.memory;
    (stop, mem.buffers.iter().zip(&mem.words).map(|(b, w)| (b.name.clone(), w.clone())).collect())
}

/// Where nvcc's code and warpscope's own compile of one C example rightly end differently, and
/// why: these are what the comparison teaches.
const LAYOUT_DIFFERS: &[(&str, &str, &str)] = &[
    (
        "syncthreads_divergent",
        "tf-stack",
        "laid out by priority, nvcc's else side comes first and ends in an EXIT of its own (its join is only `ret`), so the \
         barrier waits for the then side alone; warpscope's compile lays the then side out first, and its lanes wait at the \
         barrier for lanes at a lower-priority block",
    ),
    ("syncthreads_divergent", "tf-sandy", "as under tf-stack"),
    (
        "syncthreads_divergent",
        "pdom",
        "nvcc branches to the then side (lanes 0-15, which reach the barrier) and PDOM runs the taken side first, so they wait \
     for lanes that have not run; warpscope's compile branches to the else side, which runs first and reaches the join",
    ),
    ("syncthreads_divergent", "struct", "as under pdom: the kernel is structured, so STRUCT runs it unchanged under PDOM"),
];

#[test]
fn nvcc_ptx_computes_what_the_c_example_computes() {
    let mut failures = Vec::new();
    for path in ptx_examples() {
        let stem = path.file_stem().unwrap().to_string_lossy().to_string();
        let ptx = std::fs::read_to_string(&path).unwrap();
        let c = std::fs::read_to_string(dir().join(format!("{stem}.cu"))).unwrap();
        let (compiled, d) = compile(&c, Default::default());
        let params: Vec<String> = compiled.unwrap_or_else(|| panic!("{stem}: {d:?}")).params.iter().map(|p| p.name.clone()).collect();
        for &model in ModelKind::ALL {
            let (c_stop, c_mem) = run(&c, model);
            let (p_stop, p_mem) = run(&ptx, model);
            let known = LAYOUT_DIFFERS.iter().any(|(f, m, _)| *f == stem && *m == model.name());
            if known == (std::mem::discriminant(&c_stop) == std::mem::discriminant(&p_stop)) {
                if known {
                    failures.push(format!("{stem} under {}: listed in LAYOUT_DIFFERS but both end {c_stop:?}", model.name()));
                    continue;
                }
                failures.push(format!("{stem} under {}: C ends {c_stop:?}, PTX ends {p_stop:?}", model.name()));
                continue;
            }
            if known {
                continue;
            }
            for (k, name) in params.iter().enumerate() {
                let want = c_mem.iter().find(|(n, _)| n == name).map(|x| &x.1);
                let got = p_mem.iter().find(|(n, _)| *n == format!("arg{k}")).map(|x| &x.1);
                if want != got && c_stop == StopReason::Exited {
                    failures.push(format!("{stem} under {}: `{name}` (arg{k}) is {got:?}, the C example's {want:?}", model.name()));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
