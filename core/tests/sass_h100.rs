//! nvcc's real sm_90 SASS of the H100 report's loop kernels (`core/tests/fixtures/sass/h100/`,
//! from `bench_loops.cu` by `scripts/sass.sh`) under the volta model, held to what the H100
//! measured (`../shared/reference/h100/REPORT.md`, section 1): `single_loop_nounroll` executes
//! `smsp__inst_executed` = 285 warp instructions at n = 0 and exactly 2 more per step of n (the
//! exiting group's own `BSYNC` in the preheat loop and in the timed loop), and ncu counts 2n
//! divergent branch targets; on the h100 cost preset the timed loop grows by the measured 13
//! cycles per step. The side that runs first after a split follows the report's section 2c.

use std::path::Path;

use warpscope_core::kernel::parse_kernel;
use warpscope_core::sim::{CostModel, StopReason};
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

/// A lane's two 64-bit words of `buffer` from word `2 * i`.
fn long_at(words: &[u32], i: usize) -> i64 {
    words[2 * i] as i64 | (words[2 * i + 1] as i64) << 32
}

/// The timed region (between the two `clock64()` reads, `CS2R SR_CLOCKLO`, which read the cost
/// model's cycle count) of `single_loop_nounroll` on the h100 preset grows by exactly 13 cycles
/// per step of n, as the H100 measured (REPORT.md section 1: T(n) - T(0) = 13.000 n, R^2 = 1).
#[test]
fn single_loop_nounroll_timed_region_costs_what_the_h100_measured() {
    let timed = |n: u32| {
        let header = format!(
            "//@ model volta\n//@ param n = {n}\n//@ buffer arg0: i32[32] = i < 32 - n ? 32 : 63 - n - i\n//@ buffer arg1: f32[32] = 0\n//@ buffer arg2: i64[64] = 0\n"
        );
        let (k, d) = parse_kernel(&(header + &sass("single_loop_nounroll.sass")));
        assert!(d.iter().all(|x| !x.is_error()), "{d:?}");
        let options = LaunchOptions { cost: CostModel::preset("h100"), ..Default::default() };
        let mut sim = launch(&k, &options).unwrap();
        assert_eq!(sim.run_to_end(), StopReason::Exited);
        let timer = &sim.state().machine.memory.buffer("arg2").unwrap().1;
        let spans: Vec<i64> = (0..32).map(|t| long_at(timer, 2 * t + 1) - long_at(timer, 2 * t)).collect();
        assert!(spans.iter().all(|&s| s == spans[0]), "n = {n}: every lane reads the same clocks: {spans:?}");
        spans[0]
    };
    let base = timed(0);
    for n in 1..32 {
        assert_eq!(timed(n) - base, 13 * n as i64, "T({n}) - T(0)");
    }
}

/// Which side of a divergent if/else runs first, asked as the report's bench3.cu asked it (section
/// 2c): each lane writes the clock as its side starts. Measured rule: the side with fewer lanes
/// first; on a tie the fall-through side. Which lanes, only how many, matters.
#[test]
fn the_side_with_fewer_lanes_runs_first_as_on_the_h100() {
    let listing = sass("side_order.sass");
    // Side A adds 1.0001f; the fall-through side is the one whose code comes first.
    let a_line = listing.find("FADD R0, R0, 1.0001").unwrap();
    let b_line = listing.find("FADD R0, R0, 0.9998").unwrap();
    let a_falls_through = a_line < b_line;
    let mut masks: Vec<u32> = (0..=32).map(|k| if k == 32 { u32::MAX } else { (1u32 << k) - 1 }).collect();
    masks.extend([0xaaaa_aaaa, 0x5555_5555, 0xffff_0000, 0x8000_0000, 0x7fff_ffff, 0x0f0f_0f0f, 0xf0f0_f0f0]);
    let mut seed = 0x2545_f491u32;
    for _ in 0..64 {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        masks.push(seed);
    }
    for mask in masks {
        let header =
            format!("//@ model volta\n//@ buffer arg0: u32[1] = {mask}\n//@ buffer arg1: f32[32] = 0\n//@ buffer arg2: i64[64] = -1\n");
        let (k, d) = parse_kernel(&(header + &listing));
        assert!(d.iter().all(|x| !x.is_error()), "{d:?}");
        let mut sim = launch(&k, &LaunchOptions::default()).unwrap();
        assert_eq!(sim.run_to_end(), StopReason::Exited);
        let entered = &sim.state().machine.memory.buffer("arg2").unwrap().1;
        let a: Vec<i64> = (0..32).filter(|t| mask >> t & 1 == 1).map(|t| long_at(entered, t)).collect();
        let b: Vec<i64> = (0..32).filter(|t| mask >> t & 1 == 0).map(|t| long_at(entered, 32 + t)).collect();
        if a.is_empty() || b.is_empty() {
            continue;
        }
        assert!(a.iter().all(|&c| c == a[0]) && b.iter().all(|&c| c == b[0]), "mask {mask:#010x}: each side starts together");
        let a_first = a[0] < b[0];
        let want = match a.len().cmp(&b.len()) {
            core::cmp::Ordering::Less => true,
            core::cmp::Ordering::Greater => false,
            core::cmp::Ordering::Equal => a_falls_through,
        };
        assert_eq!(a_first, want, "mask {mask:#010x}: {} lanes take side A, {} side B", a.len(), b.len());
    }
}
