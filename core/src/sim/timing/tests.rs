//! The timing rules on small listings with chosen parameters (not the calibrated ones), so each
//! expected cycle count can be worked out by hand.

use alloc::format;
use alloc::string::String;

use super::params::{Params, P};
use crate::kernel::parse_kernel;
use crate::launch::{launch, LaunchOptions};
use crate::model::ModelKind;
use crate::sim::{CostModel, Sim, StopReason};

/// Parameters where everything costs one cycle but what a test sets.
fn params(set: &[(P, u16)]) -> Params {
    let mut p = Params::ZERO;
    for &q in P::ALL {
        p.set(q, if q.name().starts_with("interval.") { 1 } else { 0 });
    }
    for &(q, v) in set {
        p.set(q, v);
    }
    p
}

fn sim(body: &str, p: Params) -> Sim {
    let text = format!("//@ model volta\n//@ warp 32\n//@ buffer out: i32[64]\n{body}");
    let (kernel, diags) = parse_kernel(&text);
    assert!(diags.iter().all(|d| !d.is_error()), "{diags:?}");
    let opts = LaunchOptions {
        model: Some(ModelKind::Volta),
        cost: Some(CostModel { timing: Some(p), ..CostModel::H100 }),
        ..LaunchOptions::default()
    };
    launch(&kernel, &opts).unwrap()
}

fn window(body: &str, p: Params) -> u64 {
    let mut s = sim(body, p);
    assert_eq!(s.run_to_end(), StopReason::Exited);
    s.state().metrics.clock_window()
}

#[test]
fn a_dependent_chain_waits_each_result_and_independent_work_does_not() {
    let p = params(&[(P::LatFp32, 4)]);
    // CS2R at 0; the FADDs at 1, 5, 9 (each waits 4 for the one before); CS2R at 10.
    let chain = "CS2R R0, SR_CLOCKLO;\nFADD R4, R4, R4;\nFADD R4, R4, R4;\nFADD R4, R4, R4;\nCS2R R2, SR_CLOCKLO;\nEXIT;\n";
    assert_eq!(window(chain, p), 10);
    let independent = "CS2R R0, SR_CLOCKLO;\nFADD R4, R4, R4;\nFADD R5, R5, R5;\nFADD R6, R6, R6;\nCS2R R2, SR_CLOCKLO;\nEXIT;\n";
    assert_eq!(window(independent, p), 4);
}

#[test]
fn a_busy_pipe_spaces_its_instructions() {
    let p = params(&[(P::IntervalMufu, 8)]);
    let body = "CS2R R0, SR_CLOCKLO;\nMUFU.EX2 R4, R10;\nMUFU.EX2 R5, R10;\nMUFU.EX2 R6, R10;\nCS2R R2, SR_CLOCKLO;\nEXIT;\n";
    // MUFUs at 1, 9, 17; the clock read at 18.
    assert_eq!(window(body, p), 18);
}

#[test]
fn the_clock_reads_the_issue_cycle() {
    let p = params(&[(P::LatFp32, 4)]);
    let mut s = sim("FADD R4, R4, R4;\nFADD R4, R4, R4;\nCS2R R2, SR_CLOCKLO;\nEXIT;\n", p);
    s.run_to_end();
    // FADDs at 0 and 4; the clock read issues at 5, and lane 0's R2 holds 5.
    assert_eq!(s.state().machine.reg(0, crate::isa::Reg(2)), 5);
    assert_eq!(s.state().metrics.clock_reads, Some((5, 5)));
}

#[test]
fn a_branch_is_resolved_by_its_predicate_and_costs_its_direction() {
    let p = params(&[(P::LatInt, 4), (P::ResolveTaken, 20), (P::BranchTaken, 3)]);
    // ISETP at 1; the BRA issues at 2 but its target waits for the predicate: 1 + 20 = 21.
    let body = "CS2R R0, SR_CLOCKLO;\nISETP.GE.AND P0, PT, R1, RZ, PT;\n@P0 BRA `(.L_x_1);\nNOP;\n.L_x_1:\nCS2R R2, SR_CLOCKLO;\nEXIT;\n";
    assert_eq!(window(body, p), 21);
    let ready = params(&[(P::BranchTaken, 3)]);
    let body = "CS2R R0, SR_CLOCKLO;\n@PT BRA `(.L_x_1);\nNOP;\n.L_x_1:\nCS2R R2, SR_CLOCKLO;\nEXIT;\n";
    // The BRA at 1 jumps; its target issues 3 later.
    assert_eq!(window(body, ready), 4);
}

#[test]
fn global_loads_take_l2_unless_evicted() {
    let p = params(&[(P::LatL2, 300), (P::LatDram, 700)]);
    let body = "//@ buffer data: i32[32]\n//@ reg R8 = data\nCS2R R0, SR_CLOCKLO;\nLDG.E R4, [R8];\nIADD3 R5, R4, 1, RZ;\nCS2R R2, SR_CLOCKLO;\nEXIT;\n";
    // The load at 1; its use waits 300; the clock read one later.
    assert_eq!(window(body, p), 302);
    let mut s = sim(body, p);
    let (base, len) = s.state().machine.memory.buffers.iter().find(|b| b.name == "data").map(|b| (b.base, b.len)).unwrap();
    s.timing_mut().unwrap().evict(base, base + 4 * len);
    s.run_to_end();
    assert_eq!(s.state().metrics.clock_window(), 702);
}

#[test]
fn seeking_restores_the_timing_as_stepping_reaches_it() {
    let p = Params::h100();
    let body = "//@ buffer data: i32[32] = i\nS2R R1, SR_LANEID;\nISETP.GE.AND P0, PT, R1, 4, PT;\nBSSY B0, `(.L_x_2);\n@P0 BRA `(.L_x_1);\nFADD R4, R4, R4;\nFADD R4, R4, R4;\n.L_x_1:\nBSYNC B0;\n.L_x_2:\nCS2R R2, SR_CLOCKLO;\nEXIT;\n";
    let mut whole = sim(body, p);
    whole.run_to_end();
    let end = whole.steps();
    for t in 0..=end {
        let mut stepped = sim(body, p);
        for _ in 0..t {
            stepped.step();
        }
        whole.seek(t);
        assert_eq!(whole.state().timing, stepped.state().timing, "step {t}");
        assert_eq!(whole.state().machine.clock, stepped.state().machine.clock, "step {t}");
    }
}

#[test]
fn a_branch_is_resolved_once_the_results_in_flight_are_written() {
    let p = params(&[(P::LatFp32, 4), (P::BranchInFlight, 5), (P::BranchTaken, 3)]);
    // FADD at 1 (result at 5); the BRA issues at 2 and jumps at 5 + 5 = 10, not 2 + 3.
    let body = "CS2R R0, SR_CLOCKLO;\nFADD R4, R4, R4;\n@PT BRA `(.L_x_1);\nNOP;\n.L_x_1:\nCS2R R2, SR_CLOCKLO;\nEXIT;\n";
    assert_eq!(window(body, p), 10);
}

#[test]
fn a_bsync_issues_once_the_results_in_flight_are_written() {
    let p = params(&[(P::LatFp32, 4), (P::BranchInFlight, 5), (P::Bsync, 2)]);
    // BSSY at 1, FADD at 2 (result at 6); BSYNC at 6 + 5 = 11; the clock read 2 later.
    let body = "CS2R R0, SR_CLOCKLO;\nBSSY B0, `(.L_x_1);\nFADD R4, R4, R4;\nBSYNC B0;\n.L_x_1:\nCS2R R2, SR_CLOCKLO;\nEXIT;\n";
    assert_eq!(window(body, p), 13);
}

#[test]
fn a_bssy_waits_for_the_barrier_before_it() {
    let p = params(&[(P::Barrier, 2), (P::BarrierToBssy, 30)]);
    // BAR.SYNC at 0, the clock read at 2, BSSY at 0 + 30, BSYNC at 31, the clock read at 32.
    let body = "BAR.SYNC.DEFER_BLOCKING 0x0;\nCS2R R0, SR_CLOCKLO;\nBSSY B0, `(.L_x_1);\nBSYNC B0;\n.L_x_1:\nCS2R R2, SR_CLOCKLO;\nEXIT;\n";
    assert_eq!(window(body, p), 30);
}

/// Lanes 30 and 31 run a loop (`trips`: R5's start) while the other lanes park at its BSYNC.
fn parked_loop(trips: &str) -> String {
    format!(
        "S2R R1, SR_LANEID;\nISETP.GE.AND P1, PT, R1, 30, PT;\n{trips}\nCS2R R0, SR_CLOCKLO;\nBSSY B0, `(.L_x_2);\n@!P1 BRA `(.L_x_1);\n.L_x_0:\nIADD3 R5, R5, -1, RZ;\nISETP.NE.AND P0, PT, R5, RZ, PT;\n@P0 BRA `(.L_x_0);\n.L_x_1:\nBSYNC B0;\n.L_x_2:\nCS2R R2, SR_CLOCKLO;\nEXIT;\n"
    )
}

#[test]
fn parked_lanes_that_join_a_group_which_blocks_cost_a_switch_and_a_bsync_at_the_release() {
    let p = params(&[(P::Switch, 10), (P::Bsync, 100)]);
    // Both lanes leave after 3 trips: CS2R at 0, BSSY 1, BRA 2 (the split), three trips of 3
    // (3..11), the BSYNC at 12 joins the parked lanes and releases them: 100 + a switch of 10;
    // the clock read at 122.
    assert_eq!(window(&parked_loop("MOV R5, 3;"), p), 122);
    // Lane 30 leaves after 2 trips (3..8): its BSYNC at 9 joins the parked lanes but blocks
    // (a switch of 10, and 10 more for the join); lane 31's trip at 29..31, its BSYNC at 32
    // releases: 100, and a switch and a BSYNC (110) for the parked lanes that joined at 9.
    assert_eq!(window(&parked_loop("IADD3 R5, R1, -28, RZ;"), p), 32 + 100 + 110);
}
