//! Throughput of the token-stack model on the paper's double loop at n = 31 (the longest run
//! of the Table I patterns), with the timeline recording on and off. Reported as warp
//! instructions per second (criterion's elements/s).

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use warpscope_core::kernel::{parse_kernel, InitTarget};
use warpscope_core::machine::ElemType;
use warpscope_core::session::{Recording, RunRequest};
use warpscope_core::sim::StopReason;
use warpscope_core::sweep::{Sweep, SweepRequest};
use warpscope_core::{launch, LaunchOptions};

const DOUBLE: &str = include_str!("../../examples/double_loop.sass");
const DOUBLE_C: &str = include_str!("../../examples/double_loop.cu");
const GOTO_C: &str = include_str!("../../examples/goto_leaves_loop.cu");
const DOUBLE_PTX: &str = include_str!("../../examples/ptx/double_loop.ptx");
const DOUBLE_SASS: &str = include_str!("../../examples/sass/double_loop.sm_90.sass");

fn bench(c: &mut Criterion) {
    let (kernel, diags) = parse_kernel(DOUBLE);
    assert!(diags.is_empty());
    let opts = |record| LaunchOptions { params: vec![("n".into(), 31.into())], record, ..LaunchOptions::default() };
    let mut probe = launch(&kernel, &opts(false)).unwrap();
    assert_eq!(probe.run_to_end(), StopReason::Exited);
    let instructions = probe.state().metrics.warp_instructions;

    let mut group = c.benchmark_group("double_loop_n31");
    group.throughput(Throughput::Elements(instructions));
    for (name, record) in [("recording", true), ("no_recording", false)] {
        // Stepping only: the launch (evaluating the header expressions per lane) is set-up, and
        // returning the sim keeps its drop out of the timing.
        let run = |mut sim: warpscope_core::sim::Sim| {
            sim.run_to_end();
            sim
        };
        group.bench_function(name, |b| b.iter_batched(|| launch(&kernel, &opts(record)).unwrap(), run, BatchSize::SmallInput));
        // What a CLI run or a page load pays: launch and run.
        group.bench_function(format!("{name}_with_launch"), |b| {
            b.iter(|| {
                let mut sim = launch(&kernel, &opts(record)).unwrap();
                sim.run_to_end()
            })
        });
    }
    // Everything the browser's `Session.load` does but serialising its views: parse, launch,
    // run with recording, rewind to step 0, CFG facts. The browser benchmark page times the same.
    group.bench_function("page_load", |b| {
        b.iter(|| {
            let (kernel, _) = parse_kernel(DOUBLE);
            let mut sim = launch(&kernel, &opts(true)).unwrap();
            sim.run_to_end();
            sim.seek(0);
            (sim, warpscope_core::analysis::cfg_facts(&kernel.program))
        })
    });
    group.finish();

    // Every model on the same listing (no recording): warp instructions per second each, and
    // the MIMD reference the compare table runs once per model.
    let mut models = c.benchmark_group("double_loop_n31_models");
    for &model in warpscope_core::model::ModelKind::ALL {
        let o = LaunchOptions { model: Some(model), ..opts(false) };
        let mut probe = launch(&kernel, &o).unwrap();
        assert_eq!(probe.run_to_end(), StopReason::Exited, "{model:?}");
        models.throughput(Throughput::Elements(probe.state().metrics.warp_instructions));
        models.bench_function(model.name(), |b| {
            b.iter_batched(
                || launch(&kernel, &o).unwrap(),
                |mut sim| {
                    sim.run_to_end();
                    sim
                },
                BatchSize::SmallInput,
            )
        });
    }
    models.finish();
    let mut reported = launch(&kernel, &opts(true)).unwrap();
    reported.run_to_end();
    c.bench_function("double_loop_n31/run_report", |b| b.iter(|| warpscope_core::sim::RunReport::of(&reported)));

    // What a page pays before the run: parsing the kernel file and the CFG facts.
    c.bench_function("double_loop/parse_kernel", |b| b.iter(|| parse_kernel(DOUBLE)));
    // Compiling C happens on every edit in the app: the paper's kernel and the goto nest.
    c.bench_function("double_loop/parse_kernel_c", |b| b.iter(|| parse_kernel(DOUBLE_C)));
    c.bench_function("goto_leaves_loop/parse_kernel_c", |b| b.iter(|| parse_kernel(GOTO_C)));
    // PTX as nvcc writes it: reading it (parse, register assignment, reconvergence placement,
    // assembly) against reading the listing it becomes, which has the same instructions, the
    // same header and about as many lines (123 against the PTX's 118).
    let (ptx_kernel, d) = parse_kernel(DOUBLE_PTX);
    assert!(d.iter().all(|d| !d.is_error()), "{d:?}");
    // The parameters' registers are bound by `//@ reg` lines, as a listing binds them.
    let mut header: String = DOUBLE_PTX.lines().filter(|l| l.starts_with("//@")).map(|l| format!("{l}\n")).collect();
    for r in &ptx_kernel.regs {
        match r.target {
            InitTarget::Reg(reg) => header += &format!("//@ reg R{} = {}\n", reg.0, r.value.text),
            // The buffers' addresses: small, so the high word is 0.
            InitTarget::Wide { reg, elem: ElemType::U64 } => {
                header += &format!("//@ reg R{} = {}\n//@ reg R{} = 0\n", reg.0, r.value.text, reg.0 + 1)
            }
            _ => panic!("the double loop's parameters are two pointers"),
        }
    }
    let translated = header + &ptx_kernel.compiled.as_ref().expect("PTX is translated").listing;
    let (listing_kernel, d) = parse_kernel(&translated);
    assert!(d.iter().all(|d| !d.is_error()), "{d:?}");
    let ran = |k: &warpscope_core::kernel::Kernel| {
        let mut sim = launch(k, &LaunchOptions::default()).unwrap();
        (sim.run_to_end(), sim.state().metrics.warp_instructions)
    };
    assert_eq!(ran(&listing_kernel), ran(&ptx_kernel), "the listing runs as the PTX does");
    assert_eq!(ran(&ptx_kernel).0, StopReason::Exited);
    c.bench_function("double_loop/parse_kernel_ptx", |b| b.iter(|| parse_kernel(DOUBLE_PTX)));
    c.bench_function("double_loop/parse_ptx_translation_as_listing", |b| b.iter(|| parse_kernel(&translated)));
    // What the page does when the text changes: resolve the request, launch, and record the
    // whole run for the scrubber (the header's n = 2). The two runs are the same instructions.
    for (name, text) in [("double_loop/open_in_page_ptx", DOUBLE_PTX), ("double_loop/open_in_page_ptx_translation", translated.as_str())] {
        c.bench_function(name, |b| {
            b.iter(|| {
                let request = RunRequest { text: text.into(), record: true, ..RunRequest::default() };
                let mut recording = Recording::default();
                recording.start(request.resolve(), None).unwrap().expect("the run ends")
            })
        });
    }
    // Running it: warp instructions per second, as for the listing above.
    let mut probe = launch(&ptx_kernel, &opts(false)).unwrap();
    assert_eq!(probe.run_to_end(), StopReason::Exited);
    let mut ptx = c.benchmark_group("double_loop_n31_ptx");
    ptx.throughput(Throughput::Elements(probe.state().metrics.warp_instructions));
    // Against the listing it becomes: the same instructions, read by the assembler.
    for (name, k) in [("no_recording", &ptx_kernel), ("listing_no_recording", &listing_kernel)] {
        ptx.bench_function(name, |b| {
            b.iter_batched(
                || launch(k, &opts(false)).unwrap(),
                |mut sim| {
                    sim.run_to_end();
                    sim
                },
                BatchSize::SmallInput,
            )
        });
    }
    ptx.finish();
    // Real sm_90 SASS of the C double loop (nvdisasm -g), read and run under volta, against the
    // C double loop compiled for volta: both Volta code of the same loops, run by one model.
    let (sass_kernel, d) = parse_kernel(DOUBLE_SASS);
    assert!(d.iter().all(|d| !d.is_error()), "{d:?}");
    let volta = |record| LaunchOptions { model: Some(warpscope_core::model::ModelKind::Volta), ..opts(record) };
    let (c_volta, d) = warpscope_core::kernel::parse_kernel_with(
        DOUBLE_C,
        &warpscope_core::kernel::SourceOptions { target: Some(warpscope_core::compile::Target::Volta), ..Default::default() },
    );
    assert!(d.iter().all(|d| !d.is_error()), "{d:?}");
    c.bench_function("double_loop/parse_kernel_sass", |b| b.iter(|| parse_kernel(DOUBLE_SASS)));
    for (name, k) in [("sass", &sass_kernel), ("c_for_volta", &c_volta)] {
        let mut probe = launch(k, &volta(false)).unwrap();
        assert_eq!(probe.run_to_end(), StopReason::Exited, "{name}");
        let mut g = c.benchmark_group(format!("double_loop_n31_volta_{name}"));
        g.throughput(Throughput::Elements(probe.state().metrics.warp_instructions));
        g.bench_function("no_recording", |b| {
            b.iter_batched(
                || launch(k, &volta(false)).unwrap(),
                |mut sim| {
                    sim.run_to_end();
                    sim
                },
                BatchSize::SmallInput,
            )
        });
        g.finish();
    }
    // STRUCT's transform, as a struct run's load pays it: Figure 1 (two forward copies), the
    // goto out of two loops (two cuts and a copy) and a generated tangle of 676 instructions.
    let mut structure = c.benchmark_group("structure");
    for (name, text) in [
        ("tf_figure1", include_str!("../../examples/tf_figure1.sass")),
        ("goto_leaves_loop", GOTO_C),
        ("tangle_676", include_str!("struct_tangle.cu")),
    ] {
        let opts = warpscope_core::kernel::SourceOptions { target: Some(warpscope_core::compile::Target::Plain), ..Default::default() };
        let program = warpscope_core::kernel::parse_kernel_with(text, &opts).0.program;
        structure.bench_function(name, |b| b.iter(|| warpscope_core::structure::structure(&program).map(|s| s.program.len())));
    }
    structure.finish();
    c.bench_function("double_loop/cfg_facts", |b| b.iter(|| warpscope_core::analysis::cfg_facts(&kernel.program)));

    // Seeking back into a recorded run: nearest checkpoint, then replay.
    let mut recorded = launch(&kernel, &opts(true)).unwrap();
    recorded.run_to_end();
    let end = recorded.steps();
    c.bench_function("double_loop_n31/seek_random", |b| {
        let mut t = 1u64;
        b.iter(|| {
            t = (t * 6364136223846793005 + 1442695040888963407) % end.max(1);
            recorded.seek(t);
        })
    });

    // A whole figure sweep, as the CLI and the browser's worker run it: Figure 2 (the double
    // loop, n = 0..31, Kepler and Maxwell presets: 64 runs) and the H100 figure (the C double
    // loop compiled for volta, 32 runs; includes compiling the kernel).
    let fig2 = SweepRequest { models: vec!["kepler".into()], presets: vec!["kepler".into(), "maxwell".into()], ..SweepRequest::default() };
    let h100 = SweepRequest { models: vec!["volta".into()], presets: vec!["h100".into()], ..SweepRequest::default() };
    let mut sweeps = c.benchmark_group("sweep");
    sweeps.sample_size(10);
    for (name, text, request) in [("figure2_64_runs", DOUBLE, &fig2), ("h100_double_32_runs", DOUBLE_C, &h100)] {
        sweeps.bench_function(name, |b| {
            b.iter(|| {
                let sweep = Sweep::new(text, request).unwrap();
                (0..sweep.len()).map(|i| sweep.run(i).metrics.cycles).sum::<u64>()
            })
        });
    }
    sweeps.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
