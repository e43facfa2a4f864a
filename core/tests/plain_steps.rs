//! The run's fast path for plain instructions (`Reconvergence::step_plain`) does exactly what
//! the models' whole steps do: on every example, corpus kernel and gallery PTX and SASS, under
//! every model, and on random control flow, the two give the same state, stop, step records
//! and checkpoints, and seeking (and the lane view's replay) gives the same state at any step.
//! The reference takes every step one at a time (`Sim::one_step_at_a_time`): it checks the run
//! loop's fast loop too, also when a run stops at events and budgets.

mod support;

use support::kernels::{kernels, root};

use proptest::prelude::*;
use warpscope_core::checks::control_listing;
use warpscope_core::kernel::{parse_kernel, parse_kernel_with, Kernel, SourceOptions};
use warpscope_core::model::ModelKind;
use warpscope_core::sim::{event, RunLimits, Sim, StepRecord, StopReason};
use warpscope_core::{launch, LaunchOptions};

const STEP_LIMIT: u64 = 200_000;

fn launched(k: &Kernel, model: ModelKind) -> Option<Sim> {
    let opts = LaunchOptions { model: Some(model), step_limit: STEP_LIMIT, record: true, ..LaunchOptions::default() };
    launch(k, &opts).ok()
}

/// Runs `k` under `model` with and without the fast path and checks they agree; false when it
/// does not launch.
fn agree(k: &Kernel, model: ModelKind, what: &str) -> bool {
    let Some(fast) = launched(k, model) else { return false };
    let slow = launched(k, model).expect("launched once").one_step_at_a_time();
    let (mut fast, mut slow) = (fast, slow);
    let (a, b) = (fast.run_to_end(), slow.run_to_end());
    assert_eq!(a, b, "{what} under {model:?}: the stop");
    assert_eq!(fast.state(), slow.state(), "{what} under {model:?}: the final state");
    let records = |s: &Sim| s.timeline().records().collect::<Vec<StepRecord>>();
    assert_eq!(records(&fast), records(&slow), "{what} under {model:?}: the step records");
    assert_eq!(fast.timeline().checkpoint_count(), slow.timeline().checkpoint_count(), "{what} under {model:?}");
    // Seeks replay from a checkpoint: a few steps across the run, each against the other's.
    let end = fast.steps();
    for t in [end / 3, end / 2 + 1, end.saturating_sub(1), 1] {
        fast.seek(t);
        slow.seek(t);
        assert_eq!(fast.state(), slow.state(), "{what} under {model:?}: the state after seeking to step {t}");
        // The lane view replays from a checkpoint on a copy of the state.
        let window = |s: &Sim| s.lane_window(t.saturating_sub(40), t + 8);
        assert_eq!(window(&fast), window(&slow), "{what} under {model:?}: the lane window at step {t}");
    }
    in_pieces_agree(k, model, what);
    true
}

/// `run` in pieces, as the player runs it (budgets, and stops at events): the fast loop stops
/// at the same step, for the same reason, as one step at a time, and leaves the same run.
fn in_pieces_agree(k: &Kernel, model: ModelKind, what: &str) {
    let mut fast = launched(k, model).expect("launched once");
    let mut slow = launched(k, model).expect("launched once").one_step_at_a_time();
    let stops = [event::DIVERGE | event::RECONVERGE, event::PUSH, event::POP | event::EXIT, 0];
    for round in 0..400 {
        let limits = RunLimits { max_steps: Some(1 + (round as u64 * 37) % 300), stop_on: stops[round % stops.len()], breakpoints: vec![] };
        let (a, b) = (fast.run(&limits), slow.run(&limits));
        assert_eq!(a, b, "{what} under {model:?}: the stop of piece {round}");
        assert_eq!(fast.steps(), slow.steps(), "{what} under {model:?}: the step piece {round} stopped at");
        if !matches!(a, StopReason::Budget | StopReason::Event(_)) {
            break;
        }
    }
    assert_eq!(fast.state(), slow.state(), "{what} under {model:?}: the state after the pieces");
    let records = |s: &Sim| s.timeline().records().collect::<Vec<StepRecord>>();
    assert_eq!(records(&fast), records(&slow), "{what} under {model:?}: the step records of the pieces");
}

#[test]
fn plain_steps_agree_with_whole_steps_on_every_kernel_and_model() {
    let mut compared = 0;
    for name in kernels() {
        let text = std::fs::read_to_string(root().join(&name)).unwrap();
        for &model in ModelKind::ALL {
            let opts = SourceOptions { target: Some(model.compile_target()), ..SourceOptions::default() };
            let (k, d) = parse_kernel_with(&text, &opts);
            if d.iter().any(|d| d.is_error()) {
                continue;
            }
            compared += agree(&k, model, &name) as usize;
        }
    }
    assert!(compared > 500, "only {compared} kernel and model pairs ran");
}

/// A plain instruction that faults (a load past the buffer) stops both the same way, at the
/// same pc and with the same model state, under every model.
#[test]
fn a_plain_instruction_that_faults_leaves_the_same_state() {
    let text = "//@ warp 8\n//@ buffer data: i32[4]\n//@ reg R2 = data\n\
        S2R R0, SR_TID.X;\n\
        ISETP.LT.AND P0, PT, R0, 0x2, PT;\n\
        SSY `(.L_end);\n\
   @!P0 BRA `(.L_else);\n\
        MOV32I R4, 0x1;\n\
        SYNC;\n\
.L_else:\n\
        ISCADD R1, R0, R2, 0x2;\n\
        LD R4, [R1+0x40];\n\
        IADD R4, R4, 0x1;\n\
        SYNC;\n\
.L_end:\n\
        EXIT;\n";
    let (k, d) = parse_kernel(text);
    assert!(d.iter().all(|d| !d.is_error()), "{d:?}");
    for &model in ModelKind::ALL {
        assert!(agree(&k, model, "the faulting load"), "{model:?}");
        let mut s = launched(&k, model).unwrap();
        assert_eq!(s.run_to_end().name(), "fault", "{model:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn plain_steps_agree_on_random_control_flow(picks in prop::collection::vec((any::<u8>(), any::<u8>()), 1..24)) {
        let text = control_listing(&picks);
        let (k, d) = parse_kernel(&text);
        prop_assume!(d.iter().all(|d| !d.is_error()));
        for &model in ModelKind::ALL {
            agree(&k, model, &text);
        }
    }
}
