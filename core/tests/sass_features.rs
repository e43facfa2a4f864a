//! Real SASS of the features kernels need beyond the corpus (`core/tests/fixtures/sass/features/`:
//! local memory, jump tables, device-function calls, printf, predicates kept in a register,
//! recursion with its barriers saved in registers, `__constant__` variables in bank 3; written by `scripts/sass.sh`): each
//! dump (cuobjdump and nvdisasm of the whole cubin for sm_75 and sm_90, nvdisasm -c for sm_90)
//! run under volta leaves the memory nvcc's PTX of the same kernel leaves (PTX is checked
//! against the H100 on the corpus; or, where the `.cu` says `// reference: C`, warpscope's own
//! compile of it, with the PTX held to it as well where it adds `, and nvcc's PTX computes the
//! same`; or `// reference: argK = ...`, the values the C computes) and prints the same lines, or, where the `.cu` says
//! `// cuobjdump: TEXT` (or `// nvdisasm -c: TEXT`, or `// sm_75 cuobjdump: TEXT` for one
//! architecture's), such a dump fails with a located error that
//! says TEXT (what it lacks and what to paste instead).

use std::path::{Path, PathBuf};

use warpscope_core::launch;
use warpscope_core::model::ModelKind;
use warpscope_core::session::{RunChoices, RunRequest};
use warpscope_core::sim::StopReason;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sass/features")
}

/// The parameters' buffers (`arg0`, `arg1`...) and the lines printf printed, sorted (the
/// order of the sides differs with the code's layout).
type Memory = (Vec<(String, Vec<u32>)>, Vec<String>);

/// The run's end and what it left, or its diagnostics.
fn run(text: &str) -> Result<(StopReason, Memory), String> {
    let req = RunRequest {
        text: text.to_string(),
        choices: RunChoices { model: Some(ModelKind::Volta.name().to_string()), ..RunChoices::default() },
        step_limit: Some(500_000.0),
        ..RunRequest::default()
    };
    let r = req.resolve();
    if !r.ok() {
        let d = r.all_diagnostics();
        return Err(d.iter().map(|d| format!("line {}: {}", d.span.line, d.message)).collect::<Vec<_>>().join("; "));
    }
    let mut sim = launch(&r.kernel, &r.options).map_err(|e| format!("{e:?}"))?;
    let stop = sim.run_to_end();
    let mem = &sim.state().machine.memory;
    let args = mem.buffers.iter().zip(&mem.words).filter(|(b, _)| b.name.starts_with("arg")).map(|(b, w)| (b.name.clone(), w.clone()));
    let mut printed: Vec<String> = sim.output().into_iter().map(|l| l.text).collect();
    printed.sort();
    Ok((stop, (args.collect(), printed)))
}

#[test]
fn real_sass_computes_what_nvccs_ptx_computes() {
    let mut sources: Vec<PathBuf> =
        std::fs::read_dir(dir()).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|x| x == "cu")).collect();
    sources.sort();
    assert!(sources.len() >= 4, "{} kernels", sources.len());
    let mut failures = Vec::new();
    for cu in &sources {
        let name = cu.file_stem().unwrap().to_string_lossy().to_string();
        let source = std::fs::read_to_string(cu).unwrap();
        // The `//@` lines name the buffers as the dumps' parameters are bound (arg0, arg1...).
        let header: String = source.lines().filter(|l| l.starts_with("//@")).map(|l| format!("{l}\n")).collect();
        // `// sm_75 cuobjdump: TEXT` for one architecture's dump, `// cuobjdump: TEXT` for each.
        let lacks = |arch: &str, tool: &str| {
            let said = |key: String| source.lines().find_map(|l| l.strip_prefix(&key).map(String::from));
            said(format!("// {arch} {tool}: ")).or_else(|| said(format!("// {tool}: ")))
        };
        let read = |file: String| format!("{header}{}", std::fs::read_to_string(dir().join(&file)).unwrap());
        // `// reference: C`: warpscope's compile of the `.cu`, where its PTX translation cannot run
        // nvcc's PTX; `// reference: argK = v0, v1, ...`: what the C computes into one buffer, where
        // neither runs it (recursion).
        let values: Option<(String, Vec<u32>)> = source.lines().find_map(|l| {
            let (buffer, list) = l.strip_prefix("// reference: arg")?.split_once(" = ")?;
            Some((format!("arg{buffer}"), list.split(", ").map(|v| v.trim().parse::<i32>().unwrap() as u32).collect()))
        });
        let by_c = source.lines().any(|l| l.starts_with("// reference: C"));
        let reference = if by_c { source.clone() } else { read(format!("{name}.ptx")) };
        let want = match &values {
            Some(_) => (Vec::new(), Vec::new()),
            None => match run(&reference) {
                Ok((StopReason::Exited, mem)) => mem,
                other => {
                    failures.push(format!("{name}.ptx: {other:?}"));
                    continue;
                }
            },
        };
        assert!(values.is_some() || want.0.iter().any(|(_, w)| w.iter().any(|&v| v != 0)), "{name}: the reference computes nothing");
        // `// reference: C, and nvcc's PTX computes the same`: the PTX is held to the C too.
        if by_c && source.contains("\n// reference: C, and nvcc's PTX computes the same\n") {
            match run(&read(format!("{name}.ptx"))) {
                Ok((StopReason::Exited, mem)) if mem == want => {}
                other => failures.push(format!("{name}.ptx: {other:?}, the C {want:?}")),
            }
        }
        assert!(!source.contains("printf(") || !want.1.is_empty(), "{name}: the reference prints nothing");
        let forms = [
            ("sm_75", "sass", "cuobjdump"),
            ("sm_90", "sass", "cuobjdump"),
            ("sm_90", "nvdisasm.sass", "nvdisasm -c"),
            ("sm_75", "whole.sass", "nvdisasm"),
            ("sm_90", "whole.sass", "nvdisasm"),
        ];
        for (arch, form, tool) in forms {
            let file = format!("{name}.{arch}.{form}");
            let got = run(&read(file.clone()));
            match (got, lacks(arch, tool)) {
                (Err(e), Some(lacks)) if e.contains(&lacks) && e.starts_with("line ") => {}
                // A dump that does not say the shared memory's size runs until an access past
                // the size taken, and the fault says what to paste.
                (Ok((StopReason::Fault { message, .. }, _)), Some(lacks)) if message.contains(&lacks) => {}
                (other, Some(lacks)) => failures.push(format!("{file}: should fail saying `{lacks}`, got {other:?}")),
                (Ok((StopReason::Exited, mem)), None)
                    if values.as_ref().is_some_and(|(b, v)| mem.0.iter().any(|(n, w)| n == b && w == v)) => {}
                (Ok((StopReason::Exited, mem)), None) if values.is_none() && mem == want => {}
                (other, None) => failures.push(format!("{file}: {other:?}, the PTX {want:?}")),
            }
        }
    }
    assert!(failures.is_empty(), "{} problem(s):\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn lanes_that_leave_by_guarded_exits_alone_reconverge_under_every_model() {
    // sm_75's dump has no plain EXIT: before its guarded EXITs counted as exits, pdom and struct
    // found no post-dominator and deadlocked at the second `BAR.SYNC`.
    let source = std::fs::read_to_string(dir().join("guarded_exits.cu")).unwrap();
    let header: String = source.lines().filter(|l| l.starts_with("//@")).map(|l| format!("{l}\n")).collect();
    let sass = std::fs::read_to_string(dir().join("guarded_exits.sm_75.sass")).unwrap();
    // Each bin starts at its index and gains the lanes whose `threadIdx.x % 7` it is.
    let want: Vec<u32> = (0..7).map(|b| b + (0..32).filter(|t| t % 7 == b).count() as u32).collect();
    for &model in ModelKind::ALL.iter().filter(|m| !matches!(m, ModelKind::Kepler | ModelKind::PdomSsy)) {
        let req = RunRequest {
            text: format!("{header}{sass}"),
            choices: RunChoices { model: Some(model.name().to_string()), ..RunChoices::default() },
            ..RunRequest::default()
        };
        let r = req.resolve();
        assert!(r.ok(), "{:?}", r.all_diagnostics());
        let mut sim = launch(&r.kernel, &r.options).unwrap();
        assert_eq!(sim.run_to_end(), StopReason::Exited, "under {}", model.name());
        assert_eq!(sim.state().machine.memory.buffer("arg0").unwrap().1, &want[..], "under {}", model.name());
    }
}

/// Real SASS of sm_75 and later runs under volta unless the user or `//@ model` chooses: its
/// code reconverges with convergence barriers, which kepler faults on. The choice is said, as a
/// note on the function; a chosen model is taken as chosen.
#[test]
fn a_dumps_architecture_chooses_volta_when_no_one_else_does() {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/sass/nested_if.sm_90.sass")).unwrap();
    let bare: String = text.lines().filter(|l| !l.starts_with("//@ model")).map(|l| format!("{l}\n")).collect();
    let resolve = |text: &str, model: Option<&str>| {
        let choices = RunChoices { model: model.map(String::from), ..RunChoices::default() };
        RunRequest { text: text.to_string(), choices, ..RunRequest::default() }.resolve()
    };
    let r = resolve(&bare, None);
    assert_eq!(r.options.model, Some(ModelKind::Volta));
    let note = r.diagnostics.iter().find(|d| d.message.starts_with("runs under volta: the dump's architecture (sm_90)")).expect("a note");
    assert!(note.span.line > 0, "located: {note:?}");
    let mut sim = launch(&r.kernel, &r.options).unwrap();
    assert_eq!(sim.run_to_end(), StopReason::Exited);
    for (text, model, want) in [
        (&bare, Some("pdom"), ModelKind::Pdom),
        (&text, None, ModelKind::Volta),
        (&bare.replace("//@ title", "//@ model tf-stack\n//@ title"), None, ModelKind::TfStack),
    ] {
        let r = resolve(text, model);
        assert_eq!(r.options.model, Some(want));
        assert!(!r.diagnostics.iter().any(|d| d.message.starts_with("runs under")), "{model:?}: {:?}", r.diagnostics);
    }
}
