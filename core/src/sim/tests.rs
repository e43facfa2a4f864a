//! Token-stack semantics beyond the paper's loops, stop reasons, and seek.

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use proptest::prelude::*;

use super::*;
use crate::kernel::parse_kernel;
use crate::machine::LaneMask;
use crate::{launch, LaunchOptions};

fn sim_with(src: &str, opts: LaunchOptions) -> Sim {
    let (k, d) = parse_kernel(src);
    assert!(d.is_empty(), "{d:?}");
    launch(&k, &opts).expect("instantiate")
}

fn sim(src: &str) -> Sim {
    sim_with(src, LaunchOptions::default())
}

fn reg(s: &Sim, lane: u32, r: u8) -> u32 {
    s.state().machine.reg(lane, crate::isa::Reg(r))
}

#[test]
fn if_else_runs_taken_side_first_and_reconverges() {
    let src = "//@ warp 8\n//@ reg R0 = t\nISETP.LT.AND P0, PT, R0, 0x3, PT\nSSY X\n@P0 BRA THEN\nIADD R1, R1, 0x2\nSYNC\nTHEN: IADD R1, R1, 0x1\nSYNC\nX: IADD R2, R2, 0x1\nEXIT\n";
    let mut s = sim(src);
    let mut pcs = Vec::new();
    while let Some(i) = s.step() {
        pcs.push((i.pc.0, i.mask.0));
    }
    // Taken lanes 0-2 run THEN; its SYNC pops the DIV token and carries lanes 3-7 to the else side.
    assert_eq!(pcs, vec![(0, 0xff), (1, 0xff), (2, 0xff), (5, 0x07), (6, 0xf8), (3, 0xf8), (4, 0xff), (7, 0xff), (8, 0xff)]);
    assert_eq!(s.state().status, Status::Exited);
    assert_eq!((reg(&s, 0, 1), reg(&s, 5, 1), reg(&s, 5, 2)), (1, 2, 1));
    let m = &s.state().metrics;
    assert_eq!((m.pushes, m.pops, m.divergent_branches, m.max_stack_depth), (2, 2, 1, 2));
}

#[test]
fn break_parks_lanes_until_the_loop_ends() {
    // Lane t leaves the loop after t+1 iterations through BRK; the rest loop until i = 4.
    let src = "//@ warp 4\n//@ reg R0 = t\nPBK OUT\nL: IADD R1, R1, 0x1\nISETP.GT.AND P0, PT, R1, R0, PT\n@P0 BRK\nISETP.LT.AND P1, PT, R1, 0x4, PT\n@P1 BRA L\nBRK\nOUT: IADD R2, R1, 0x0\nEXIT\n";
    let mut s = sim(src);
    assert_eq!(s.run_to_end(), StopReason::Exited);
    for t in 0..4 {
        assert_eq!(reg(&s, t, 2), t + 1, "lane {t}");
    }
    assert!(s.state().model.stack().is_empty());
}

#[test]
fn continue_and_call_return() {
    let src = "//@ warp 2\n//@ reg R0 = t\nPCNT NEXT\n@P0 CONT\nIADD R1, R1, 0x10\nCONT\nNEXT: CAL F\nIADD R3, R3, 0x1\nEXIT\nF: IADD R2, R2, 0x5\nRET\n";
    let (k, _) = parse_kernel(src);
    let mut opts = LaunchOptions::default();
    opts.params.clear();
    let mut s = launch(&k, &opts).unwrap();
    assert_eq!(s.run_to_end(), StopReason::Exited);
    assert_eq!((reg(&s, 0, 1), reg(&s, 0, 2), reg(&s, 0, 3)), (0x10, 5, 1));
}

#[test]
fn exit_removes_lanes_from_every_token() {
    let src = "//@ warp 4\n//@ reg R0 = t\nISETP.LT.AND P0, PT, R0, 0x2, PT\nSSY X\n@P0 BRA A\nEXIT\nA: IADD R1, R1, 0x1\nSYNC\nX: IADD R2, R2, 0x1\nEXIT\n";
    let mut s = sim(src);
    assert_eq!(s.run_to_end(), StopReason::Exited);
    assert_eq!(s.state().machine.exited, LaneMask(0xf));
    assert_eq!((reg(&s, 0, 2), reg(&s, 3, 2)), (1, 0), "exited lanes never reach X");
}

#[test]
fn barrier_in_divergent_code_is_a_deadlock_naming_lanes() {
    let src = "//@ warp 4\n//@ reg R0 = t\nISETP.LT.AND P0, PT, R0, 0x2, PT\nSSY X\n@P0 BRA A\nNOP\nSYNC\nA: BAR.SYNC\nSYNC\nX: EXIT\n";
    let mut s = sim(src);
    match s.run_to_end() {
        StopReason::Deadlock { pc, message } => {
            assert_eq!(pc.0, 5);
            assert!(message.contains("lanes 0-1 arrived") && message.contains("lanes 2-3"), "{message}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn pop_of_empty_stack_is_a_fault_not_a_panic() {
    let mut s = sim("NOP.S\n");
    assert!(matches!(s.run_to_end(), StopReason::Fault { .. }));
    let mut s = sim("BRK\n");
    assert!(matches!(s.run_to_end(), StopReason::Fault { message, .. } if message.contains("PBK")));
}

#[test]
fn out_of_bounds_store_is_a_fault() {
    let mut s = sim("//@ buffer a: i32[4]\n//@ reg R1 = a + 4 * t\nST [R1], R1\n");
    match s.run_to_end() {
        StopReason::Fault { message, .. } => assert!(message.contains("lane 4"), "{message}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn endless_loop_stops_at_the_step_limit() {
    let opts = LaunchOptions { step_limit: 1000, ..LaunchOptions::default() };
    let mut s = sim_with("L: BRA L\n", opts);
    assert_eq!(s.run_to_end(), StopReason::StepLimit);
    assert_eq!(s.steps(), 1000);
}

#[test]
fn breakpoints_and_event_stops() {
    let mut s = sim(include_str!("../../../examples/single_loop.sass"));
    let limits = RunLimits { breakpoints: vec![crate::isa::Pc(9)], ..RunLimits::default() };
    assert_eq!(s.run(&limits), StopReason::Breakpoint(crate::isa::Pc(9)));
    // Stepping one at a time (a player at low speed) stops at the breakpoint just the same, at
    // the same step, and the next run issues the instruction it stopped before.
    let mut by_one = sim(include_str!("../../../examples/single_loop.sass"));
    let one = RunLimits { max_steps: Some(1), ..limits.clone() };
    while by_one.run(&one) == StopReason::Budget {}
    assert_eq!(by_one.steps(), s.steps());
    by_one.run(&one);
    assert_eq!(by_one.steps(), s.steps() + 1);
    let limits = RunLimits { stop_on: event::SPILL | event::DIVERGE, ..RunLimits::default() };
    let mut s = sim(include_str!("../../../examples/single_loop.sass"));
    assert_eq!(s.run(&limits), StopReason::Event(event::DIVERGE));
}

fn double_loop(n: i64, record: bool) -> Sim {
    let opts = LaunchOptions { params: vec![(String::from("n"), n.into())], record, ..LaunchOptions::default() };
    sim_with(include_str!("../../../examples/double_loop.sass"), opts)
}

#[test]
fn run_to_end_seek_back_and_rerun_is_identical() {
    let mut s = double_loop(20, true);
    s.run_to_end();
    let end = s.state().clone();
    let records: Vec<_> = s.timeline().records().collect();
    s.seek(1234);
    assert_eq!(s.steps(), 1234);
    s.run_to_end();
    assert_eq!(*s.state(), end);
    assert!(s.timeline().records().eq(records.iter().copied()));
    s.seek(0);
    s.run_to_end();
    assert_eq!(*s.state(), end);
}

#[test]
fn step_back_undoes_one_step() {
    let mut s = double_loop(3, true);
    s.seek(500);
    let before = s.state().clone();
    s.step();
    s.step_back();
    assert_eq!(*s.state(), before);
}

#[test]
fn seek_to_the_step_before_a_failed_one_is_the_state_after_it() {
    // Steps, then a trap: what the trap leaves is not the state after those steps (the fuzzer's
    // finding: a seek to the last step kept the faulted state, a seek from elsewhere did not).
    let src = alloc::format!("//@ warp 32\n{}BPT.TRAP 0x1\nEXIT\n", "NOP\n".repeat(37));
    for &model in crate::model::ModelKind::ALL {
        let opts = LaunchOptions { model: Some(model), ..LaunchOptions::default() };
        let mut s = sim_with(&src, opts.clone());
        assert!(matches!(s.run_to_end(), StopReason::Fault { .. }), "{model:?}");
        let faulted = s.state().clone();
        let mut stepper = sim_with(&src, opts);
        for _ in 0..s.steps() {
            stepper.step();
        }
        s.seek(s.steps());
        assert_eq!(s.state(), stepper.state(), "{model:?}");
        // Running on from there fails the same way again.
        s.run_to_end();
        assert_eq!(s.state(), &faulted, "{model:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    /// seek(t) gives exactly the state of t single steps, from any position and in any order.
    #[test]
    fn seek_equals_single_steps(ts in proptest::collection::vec(0u64..5200, 1..4), record in any::<bool>()) {
        let mut seeker = double_loop(7, record);
        for t in ts {
            seeker.seek(t);
            let mut stepper = double_loop(7, false);
            for _ in 0..t {
                if stepper.step().is_none() { break; }
            }
            prop_assert_eq!(seeker.state(), stepper.state());
        }
    }
}

#[test]
fn a_lane_window_after_a_seek_is_the_one_replayed_from_the_checkpoint() {
    // A divergent loop long enough for checkpoints: the window replays from the state the seek
    // left when that is nearer, and must give what a replay from the checkpoint gives.
    let src = "//@ warp 8\n//@ reg R0 = t\nMOV R1, 0x0\nL: IADD R1, R1, 0x1\nISETP.LT.AND P0, PT, R1, 0x3e8, PT\nISETP.LT.AND P1, PT, R0, 0x4, PT\nSSY J\n@P1 BRA S\nIADD R2, R2, 0x1\nSYNC\nS: IADD R3, R3, 0x1\nSYNC\nJ: @P0 BRA L\nEXIT\n";
    let mut s = sim(src);
    s.run_to_end();
    let end = s.steps();
    assert!(end > 5000, "{end} steps");
    let mut fresh = sim(src);
    fresh.run_to_end();
    for t in [1, 777, 2048, 4097, end - 20] {
        s.seek(t);
        for (from, to) in [(t, t + 1), (t, t + 16), (t + 3, t + 19), (t - 1, t + 4)] {
            fresh.seek(0);
            assert_eq!(s.lane_window(from, to), fresh.lane_window(from, to), "window {from}..{to} after a seek to {t}");
        }
    }
}

#[test]
fn lane_window_agrees_with_the_state_about_to_issue() {
    // Guarded data instructions (masked lanes), divergence, and an early exit of some lanes.
    let src = "//@ warp 8\n//@ reg R0 = t\nISETP.LT.AND P0, PT, R0, 0x5, PT\n@!P0 IADD R1, R1, 0x1\nISETP.EQ.AND P1, PT, R0, 0x7, PT\n@P1 EXIT\nSSY X\n@P0 BRA T\nIADD R1, R1, 0x2\nSYNC\nT: IADD R1, R1, 0x1\nSYNC\nX: EXIT\n";
    let mut s = sim(src);
    s.run_to_end();
    let end = s.steps();
    let all = s.lane_window(0, end);
    assert_eq!(all.len() as u64, end * 8);
    for t in 0..end {
        s.seek(t);
        let next = s.next_lane_states();
        assert_eq!(next[..], all[(t * 8) as usize..(t * 8 + 8) as usize], "step {}", t + 1);
        assert_eq!(s.lane_window(t, t + 1), next, "a one-step window from step {t}");
        // Every lane that is not exited has a pc; active ones at the warp's pc.
        for l in 0..8 {
            match next[l as usize] {
                LaneState::Exited => assert_eq!(s.lane_pc(l), None),
                LaneState::Active | LaneState::Masked => assert_eq!(s.lane_pc(l), s.state().model.pc()),
                LaneState::Waiting => assert!(s.lane_pc(l).is_some(), "waiting lane {l} at step {t} has a resume pc"),
            }
        }
    }
    // Step 2 is `@!P0 IADD`: lanes 5-7 run it, lanes 0-4 are masked.
    assert_eq!(&all[8..16], &[LaneState::Masked; 5].iter().chain(&[LaneState::Active; 3]).copied().collect::<Vec<_>>()[..]);
    // After `@P1 EXIT` (step 4), lane 7 is exited in every later step.
    assert!((4..end as usize).all(|k| all[k * 8 + 7] == LaneState::Exited));
    // While the taken side (lanes 0-4) runs, lanes 5-6 wait on the stack at the else side's pc.
    s.seek(6);
    assert_eq!(s.next_lane_states()[5], LaneState::Waiting);
    assert_eq!(s.lane_pc(5).map(|pc| pc.0), Some(6));
}

#[test]
fn a_division_costs_the_sequence_it_stands_for() {
    let mut s = sim("//@ warp 4\n//@ reg R0 = t\nIDIV.S32 R1, R0, 0x3\nIREM.U32 R2, R0, 0x3\nIADD R3, R1, R2\nEXIT\n");
    assert_eq!(s.run_to_end(), StopReason::Exited);
    assert_eq!(s.state().machine.clock, 2 * crate::isa::DIVIDE_ISSUES as u64 + 2, "kepler preset: one cycle per issue");
    assert_eq!((reg(&s, 3, 1), reg(&s, 3, 2)), (1, 0));
}
