//! The gallery's real SASS (`examples/sass/*.sm_90.sass`: nvcc's sm_90 code of each C example,
//! from `nvdisasm -c -g`, written by `scripts/sass.sh`): under volta, the model of the GPUs
//! that run it, each ends as warpscope's own compile of the C example ends and leaves the same
//! memory, and every instruction has its CUDA line.

use std::path::{Path, PathBuf};

use warpscope_core::compile::compile;
use warpscope_core::launch;
use warpscope_core::model::ModelKind;
use warpscope_core::session::{RunChoices, RunRequest};
use warpscope_core::sim::StopReason;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples")
}

fn run(text: &str) -> (StopReason, Vec<(String, Vec<u32>)>, bool) {
    let req = RunRequest {
        text: text.to_string(),
        choices: RunChoices { model: Some(ModelKind::Volta.name().to_string()), ..RunChoices::default() },
        step_limit: Some(200_000.0),
        ..RunRequest::default()
    };
    let r = req.resolve();
    assert!(r.ok(), "{:?}", r.all_diagnostics());
    let cuda = r.kernel.compiled.as_ref().is_some_and(|c| !c.cuda_lines.is_empty() && c.cuda_lines.iter().all(|&l| l > 0));
    let mut sim = launch(&r.kernel, &r.options).expect("launch");
    let stop = sim.run_to_end();
    let mem = &sim.state().machine.memory;
    (stop, mem.buffers.iter().zip(&mem.words).map(|(b, w)| (b.name.clone(), w.clone())).collect(), cuda)
}

/// Where nvcc's SASS rightly ends otherwise than warpscope's compile of the C, and why. None
/// now: syncthreads_divergent was one until warpscope's compile, as nvcc's, let lanes whose
/// join only exits leave without a BSYNC (compile/reconverge.rs), so both complete.
const ENDS_OTHERWISE: &[(&str, &str)] = &[];

#[test]
fn nvcc_sass_computes_what_the_c_example_computes_under_volta() {
    let mut failures = Vec::new();
    let mut n = 0;
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir().join("sass")).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let stem = name.strip_suffix(".sm_90.sass").unwrap_or_else(|| panic!("{name}: not NAME.sm_90.sass"));
        let sass = std::fs::read_to_string(&path).unwrap();
        let c = std::fs::read_to_string(dir().join(format!("{stem}.cu"))).unwrap();
        let (compiled, d) = compile(&c, Default::default());
        let params: Vec<String> = compiled.unwrap_or_else(|| panic!("{stem}: {d:?}")).params.iter().map(|p| p.name.clone()).collect();
        let (c_stop, c_mem, _) = run(&c);
        let (s_stop, s_mem, cuda) = run(&sass);
        if !cuda {
            failures.push(format!("{name}: not every instruction has its CUDA line"));
        }
        let otherwise = ENDS_OTHERWISE.iter().any(|(f, _)| *f == stem);
        if otherwise == (std::mem::discriminant(&c_stop) == std::mem::discriminant(&s_stop)) {
            failures.push(format!("{name}: the C ends {c_stop:?}, the SASS {s_stop:?} (listed in ENDS_OTHERWISE: {otherwise})"));
            continue;
        }
        if otherwise {
            n += 1;
            continue;
        }
        for (k, p) in params.iter().enumerate() {
            let want = c_mem.iter().find(|(b, _)| b == p).map(|x| &x.1);
            let got = s_mem.iter().find(|(b, _)| *b == format!("arg{k}")).map(|x| &x.1);
            if want != got && c_stop == StopReason::Exited {
                failures.push(format!("{name}: `{p}` (arg{k}) is {got:?}, the C example's {want:?}"));
            }
        }
        n += 1;
    }
    assert!(n >= 15, "{n} examples");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Each gallery SASS kernel beside the gallery's PTX of the same C example (`examples/ptx/`,
/// which the app opens in the SASS kernel's PTX tab): every CUDA line a SASS instruction names
/// has PTX lines from it, so a click on any SASS line lights up its PTX.
#[test]
fn every_gallery_sass_line_has_its_ptx_beside_it() {
    let mut checked = 0;
    for entry in std::fs::read_dir(dir().join("sass")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().trim_end_matches(".sm_90.sass").to_string();
        let Ok(ptx) = std::fs::read_to_string(dir().join("ptx").join(format!("{name}.ptx"))) else { continue };
        let req = RunRequest { text: std::fs::read_to_string(&path).unwrap(), ..RunRequest::default() };
        let r = req.resolve();
        let c = r.kernel.compiled.as_ref().expect("compiled");
        let b = warpscope_core::input::ptx::beside(&ptx, c.entry.as_deref().unwrap(), c.cuda_file.as_deref());
        assert_eq!(b.problem, None, "{name}");
        for &line in c.cuda_lines.iter().filter(|&&l| l > 0) {
            assert!(b.cuda_lines.contains(&line), "{name}: CUDA line {line} of the SASS has no PTX line");
        }
        checked += 1;
    }
    assert!(checked >= 15, "{checked} gallery SASS kernels have their PTX");
}
