//! Bialas & Strzelecki, reproduced: push counts, stack depths, instruction counts, Kepler
//! cycle differences and spills for every n = 0..31, and the Figure 3 walk-through.

use warpscope_core::kernel::parse_kernel;
use warpscope_core::model::Reconvergence;
use warpscope_core::sim::{Metrics, Sim, StopReason};
use warpscope_core::trace::{header, step_line};
use warpscope_core::{launch, LaunchOptions};

const SINGLE: &str = include_str!("../../examples/single_loop.sass");
const DOUBLE: &str = include_str!("../../examples/double_loop.sass");

fn sim(src: &str, n: i64) -> Sim {
    let (k, d) = parse_kernel(src);
    assert!(d.is_empty(), "{d:?}");
    let opts = LaunchOptions { params: vec![("n".into(), n.into())], ..LaunchOptions::default() };
    launch(&k, &opts).expect("instantiate")
}

fn run(src: &str, n: i64) -> Metrics {
    let mut s = sim(src, n);
    assert_eq!(s.run_to_end(), StopReason::Exited, "n = {n}");
    s.state().metrics.clone()
}

#[test]
fn single_loop_pushes_depth_and_instructions() {
    let base = run(SINGLE, 0);
    for n in 0..32u64 {
        let m = run(SINGLE, n as i64);
        assert_eq!(m.pushes, n + 1, "pushes at n = {n}");
        assert_eq!(m.max_stack_depth, n + 1, "max depth at n = {n}");
        assert_eq!(m.warp_instructions - base.warp_instructions, n, "extra instructions at n = {n}");
        assert_eq!(m.divergent_branches, n);
    }
}

#[test]
fn double_loop_pushes_and_depth() {
    for n in 0..32u64 {
        let m = run(DOUBLE, n as i64);
        assert_eq!(m.pushes, n * (65 - n) / 2 + 33, "pushes at n = {n}");
        assert_eq!(m.max_stack_depth, n + 2, "max depth at n = {n}");
    }
}

/// Spills when the stack first exceeds 16 entries, then one more every 4 entries.
fn expected_spills(depth: u64) -> u64 {
    if depth <= 16 {
        0
    } else {
        (depth - 16).div_ceil(4)
    }
}

#[test]
fn kepler_cycles_grow_32_per_divergent_lane_then_spill_every_4() {
    let base = run(SINGLE, 0);
    for n in 0..32u64 {
        let m = run(SINGLE, n as i64);
        let spills = expected_spills(n + 1);
        assert_eq!(m.spills, spills, "spills at n = {n}");
        assert_eq!(m.fills, spills, "fills at n = {n}");
        if n <= 15 {
            assert_eq!(m.cycles - base.cycles, 32 * n, "cycles at n = {n}");
        } else {
            assert_eq!(m.cycles - base.cycles, 32 * n + 84 * spills, "cycles at n = {n}");
        }
    }
    assert_eq!(run(SINGLE, 16).spills, 1);
    assert_eq!(run(SINGLE, 19).spills, 1);
    assert_eq!(run(SINGLE, 20).spills, 2);
}

/// The double loop reaches depth n + 2 once per outer iteration, so it spills (and fills back)
/// again and again as soon as n + 2 > 16 (the extra branch instructions of Figure 6).
#[test]
fn double_loop_spills_once_the_stack_outgrows_16_entries() {
    for n in 0..32u64 {
        let m = run(DOUBLE, n as i64);
        assert_eq!(m.spills, m.fills, "n = {n}");
        if n + 2 <= 16 {
            assert_eq!(m.spills, 0, "n = {n}");
        } else {
            assert!(m.spills > 0, "n = {n}");
        }
    }
}

fn trace_text(src: &str, n: i64) -> String {
    let mut s = sim(src, n);
    let mut out = header(&s);
    out.push('\n');
    while let Some(issued) = s.step() {
        out += &step_line(&s, &issued);
        out.push('\n');
    }
    out
}

/// The golden trace is data: refresh with `UPDATE_GOLDEN=1 cargo test`.
#[test]
fn figure3_walkthrough_golden_trace() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/fig3_single_loop_n2.trace");
    let actual = trace_text(SINGLE, 2);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(path, &actual).unwrap();
    }
    let expected = std::fs::read_to_string(path).expect("golden file; run with UPDATE_GOLDEN=1 to create it");
    assert_eq!(actual, expected, "trace differs from {path}");
}

/// The stack states of Figure 3.1 to 3.7, in order.
#[test]
fn figure3_stack_states_in_order() {
    let full = "SYNC 0xFFFFFFFF 0x0128";
    let d31 = "DIV 0x80000000 0x0120";
    let d30 = "DIV 0x40000000 0x0120";
    let states = [
        String::from("-"),
        full.to_string(),
        format!("{full} | {d31}"),
        format!("{full} | {d31} | {d30}"),
        format!("{full} | {d31}"),
        full.to_string(),
        String::from("-"),
    ];
    let mut s = sim(SINGLE, 2);
    let mut seen = vec![warpscope_core::trace::stack_text(s.program(), &s.state().model.stack(), 32)];
    while s.step().is_some() {
        let now = warpscope_core::trace::stack_text(s.program(), &s.state().model.stack(), 32);
        if seen.last() != Some(&now) {
            seen.push(now);
        }
    }
    assert_eq!(seen, states);
}
