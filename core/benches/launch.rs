//! Whole launches against one warp alone (issue 44's speed targets), no recording:
//! - `one_warp`: `spin_one_warp.cu`, one warp looping (about 600,000 warp instructions);
//! - `launch_gto`, `launch_lrr`: `spin_launch.cu`, the same loop over 64 warps of 8 blocks
//!   (about as many warp instructions in all), under each warp scheduler;
//! - `vector_add_1m`: `vector_add_1m.cu`, 2^20 threads, its inputs evaluated and run to the end.
//!
//! Criterion reports warp instructions per second (elements/s) for the first three; the ratio
//! of a launch's to `one_warp`'s is the speed per warp instruction of a whole launch.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use warpscope_core::grid::run_launch;
use warpscope_core::launch;
use warpscope_core::session::{Resolved, RunRequest};

fn resolved(text: &str, model: &str, scheduler: &str) -> Resolved {
    let mut req = RunRequest::of_text(text);
    req.choices.model = Some(model.into());
    req.choices.warp_scheduler = Some(scheduler.into());
    let r = req.resolve();
    assert!(r.ok(), "{:?}", r.all_diagnostics());
    r
}

fn launches(c: &mut Criterion) {
    for model in ["kepler", "volta"] {
        let mut g = c.benchmark_group(format!("launch/{model}"));
        g.sample_size(10);
        let one = resolved(include_str!("spin_one_warp.cu"), model, "gto");
        let steps = {
            let mut sim = launch(&one.kernel, &one.options).unwrap();
            sim.run_to_end();
            sim.state().metrics.warp_instructions
        };
        g.throughput(Throughput::Elements(steps));
        g.bench_function("one_warp", |b| {
            b.iter(|| {
                let mut sim = launch(&one.kernel, &one.options).unwrap();
                sim.run_to_end();
                sim.steps()
            })
        });
        for scheduler in ["gto", "lrr"] {
            let r = resolved(include_str!("spin_launch.cu"), model, scheduler);
            let steps = run_launch(&r.kernel, &r.options).unwrap().totals.warp_instructions;
            g.throughput(Throughput::Elements(steps));
            g.bench_function(format!("launch_{scheduler}"), |b| b.iter(|| run_launch(&r.kernel, &r.options).unwrap().totals.steps));
        }
        let r = resolved(include_str!("vector_add_1m.cu"), model, "gto");
        g.throughput(Throughput::Elements(1 << 20));
        g.bench_function("vector_add_1m", |b| b.iter(|| run_launch(&r.kernel, &r.options).unwrap().totals.steps));
        g.finish();
    }
}

criterion_group!(benches, launches);
criterion_main!(benches);
