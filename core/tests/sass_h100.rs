//! nvcc's real sm_90 SASS of the H100 report's loop kernels (`core/tests/fixtures/sass/h100/`,
//! from `bench_loops.cu` by `scripts/sass.sh`) under the volta model, held to what the H100
//! measured (`../shared/reference/h100/REPORT.md`, section 1): `single_loop_nounroll` executes
//! `smsp__inst_executed` = 285 warp instructions at n = 0 and exactly 2 more per step of n (the
//! exiting group's own `BSYNC` in the preheat loop and in the timed loop), and ncu counts 2n
//! divergent branch targets.

use std::path::Path;

use warpscope_core::kernel::parse_kernel;
use warpscope_core::sim::StopReason;
use warpscope_core::{launch, LaunchOptions};

fn sass(name: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sass/h100").join(name)).unwrap()
}

/// The report's inputs (bench.cu's `table1_limits`, the paper's Table I): thread t loops 32
/// times, but for n > 0 threads 32 - n ... 31 leave after 31 ... 32 - n iterations.
fn limit(t: u32, n: u32) -> u32 {
    if t < 32 - n {
        32
    } else {
        63 - n - t
    }
}
fn run_single(n: u32) -> (u64, u64) {
    let header = format!(
        "//@ model volta\n//@ param n = {n}\n//@ buffer arg0: i32[32] = i < 32 - n ? 32 : 63 - n - i\n//@ buffer arg1: f32[32] = 0\n//@ buffer arg2: i64[64] = 0\n"
    );
    let (k, d) = parse_kernel(&(header + &sass("single_loop_nounroll.sass")));
    assert!(d.iter().all(|x| !x.is_error()), "{d:?}");
    let mut sim = launch(&k, &LaunchOptions::default()).unwrap();
    assert_eq!(sim.run_to_end(), StopReason::Exited);
    let m = &sim.state().metrics;
    // Each lane's sum: M additions of 1.3333f in each loop.
    let out = &sim.state().machine.memory.buffer("arg1").unwrap().1;
    for t in 0..32u32 {
        let laps = limit(t, n);
        let want = (0..2 * laps).fold(0.0f32, |s, _| s + 1.3333f32);
        assert_eq!(f32::from_bits(out[t as usize]), want, "lane {t}, n = {n}");
    }
    (m.warp_instructions, m.divergent_branches)
}

#[test]
fn single_loop_nounroll_executes_what_the_h100_counted() {
    for n in 0..32 {
        let (instructions, divergent) = run_single(n);
        assert_eq!(instructions, 285 + 2 * n as u64, "warp instructions at n = {n}");
        assert_eq!(divergent, 2 * n as u64, "divergent branches at n = {n}");
    }
}

/// `double_loop_nounroll` with M = N = the Table I limit: ncu counted
/// `smsp__sass_branch_targets_threads_divergent` = 2 n(65 - n)/2, twice the divergent part of the
/// paper's push count (1054 at n = 31).
#[test]
fn double_loop_nounroll_diverges_as_often_as_the_h100_counted() {
    for n in [0u32, 1, 2, 7, 16, 17, 30, 31] {
        let header = format!(
            "//@ model volta\n//@ param n = {n}\n//@ buffer arg0: i32[64] = i / 2 < 32 - n ? 32 : 63 - n - i / 2\n//@ buffer arg1: f32[32] = 0\n//@ buffer arg2: i64[64] = 0\n"
        );
        let (k, d) = parse_kernel(&(header + &sass("double_loop_nounroll.sass")));
        assert!(d.iter().all(|x| !x.is_error()), "{d:?}");
        let mut sim = launch(&k, &LaunchOptions::default()).unwrap();
        assert_eq!(sim.run_to_end(), StopReason::Exited);
        assert_eq!(sim.state().metrics.divergent_branches, (n * (65 - n)) as u64, "n = {n}");
        let out = &sim.state().machine.memory.buffer("arg1").unwrap().1;
        for t in 0..32u32 {
            let m = limit(t, n);
            let mut want = 0.0f32;
            for _ in 0..2 {
                for _ in 0..m {
                    for _ in 0..m {
                        want += 1.3333f32;
                    }
                    want += 2.3333f32;
                }
            }
            assert_eq!(f32::from_bits(out[t as usize]), want, "lane {t}, n = {n}");
        }
    }
}
