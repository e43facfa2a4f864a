//! Every model on the same work, as `warpscope sweep FILE --param n=0..7 --model M` runs it: the
//! divergent loop (`divergent_loop.cu`, about 290,000 warp instructions per run) compiled for each
//! model's own target, eight runs, no recording. Criterion reports warp instructions per second
//! (elements/s; for mimd, thread instructions). `scripts/bench-models.sh` runs this and prints
//! the table of `docs/performance.md` with each model's ratio to kepler.
//!
//! Before timing, it prints what a recorded run of the same kernel (n = 7) keeps per step under
//! each model: the step records' bytes, and the checkpoints'.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use warpscope_core::launch;
use warpscope_core::model::ModelKind;
use warpscope_core::session::RunRequest;
use warpscope_core::sim::Sim;
use warpscope_core::sweep::{Sweep, SweepRequest};

const KERNEL: &str = include_str!("divergent_loop.cu");

fn request(model: ModelKind) -> SweepRequest {
    SweepRequest { param: "n".into(), from: 0, to: 7, models: vec![model.name().into()], ..SweepRequest::default() }
}

/// Warp instructions of the whole sweep (thread instructions under mimd: one lane per step).
fn run_all(sweep: &Sweep) -> u64 {
    (0..sweep.len()).map(|i| sweep.run(i).metrics.warp_instructions).sum()
}

/// `req` run to its end with recording, as the page runs it.
fn recorded(mut req: RunRequest) -> Sim {
    req.record = true;
    let r = req.resolve();
    assert!(r.ok(), "{:?}", r.all_diagnostics());
    let mut sim = launch(&r.kernel, &r.options).unwrap();
    sim.run_to_end();
    sim
}

fn recording_sizes() {
    eprintln!("recorded run, n = 7: model, steps, record bytes per step, checkpoint bytes");
    for &model in ModelKind::ALL {
        let mut req = RunRequest::of_text(KERNEL);
        req.choices.model = Some(model.name().into());
        req.params.insert("n".into(), 7.0);
        let sim = recorded(req);
        let t = sim.timeline();
        eprintln!(
            "  {:9} {:>10} {:>6.2} {:>12}",
            model.name(),
            t.len(),
            t.record_bytes() as f64 / t.len().max(1) as f64,
            t.checkpoint_bytes()
        );
    }
}

/// A seek anywhere in a 10 M-step recorded run (the default step limit): the nearest checkpoint
/// and a replay of at most one checkpoint interval (32,768 steps at this length).
fn seek_10m(c: &mut Criterion) {
    let mut sim = recorded(RunRequest::of_text(include_str!("../../tests/bench/endless_loop.cu")));
    let total = sim.steps();
    eprintln!(
        "10 M-step run: {total} steps, records {:.2} bytes a step, {} checkpoints every {} steps ({} bytes)",
        sim.timeline().record_bytes() as f64 / total as f64,
        sim.timeline().checkpoint_count(),
        sim.timeline().interval(),
        sim.timeline().checkpoint_bytes()
    );
    let mut x = 12345u64;
    c.bench_function("run_10m/seek_random", |b| {
        b.iter(|| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            sim.seek((x >> 33) % total);
            sim.steps()
        })
    });
}

fn bench(c: &mut Criterion) {
    seek_10m(c);
    recording_sizes();
    let mut group = c.benchmark_group("model_sweep");
    group.sample_size(10);
    for &model in ModelKind::ALL {
        let sweep = Sweep::new(KERNEL, &request(model)).unwrap();
        group.throughput(Throughput::Elements(run_all(&sweep)));
        group.bench_function(model.name(), |b| b.iter(|| run_all(&sweep)));
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
