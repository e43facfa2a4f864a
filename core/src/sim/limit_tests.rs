//! Runs that must end with a located message instead of spinning or growing: repeating states,
//! endless loops, a stack pushed in a loop, and checkpoints of a large state within the budget.

use alloc::format;

use super::*;
use crate::kernel::parse_kernel;
use crate::{launch, LaunchOptions};

fn sim_with(src: &str, opts: LaunchOptions) -> Sim {
    let (k, d) = parse_kernel(src);
    assert!(d.is_empty(), "{d:?}");
    launch(&k, &opts).expect("instantiate")
}

#[test]
fn a_repeating_state_is_a_deadlock_at_the_loop() {
    let mut s = sim_with("//@ warp 4\nNOP\nL: IADD R1, RZ, 0x1\nBRA L\nEXIT\n", LaunchOptions::default());
    let StopReason::Deadlock { pc, message } = s.run_to_end() else { panic!() };
    assert_eq!(pc, Pc(1), "the loop's head");
    assert!(s.steps() < 5_000, "found after {} steps", s.steps());
    assert!(message.contains("lanes 0-3 run the loop at 0x0008-0x0010 (lines 3-4)"), "{message}");
}

#[test]
fn replaying_a_recorded_repeat_never_finds_it_before_the_recorded_end() {
    let mut s = sim_with("//@ warp 4\nNOP\nL: IADD R1, RZ, 0x1\nBRA L\nEXIT\n", LaunchOptions::default());
    assert!(matches!(s.run_to_end(), StopReason::Deadlock { .. }));
    let end = s.steps();
    // A seek resets the watch, so a replay from here would sample at other steps than the run did.
    for t in [1, end / 3, end / 2 + 7, end - 1] {
        s.seek(t);
        let reason = s.run(&RunLimits { max_steps: Some(end - t), ..RunLimits::default() });
        assert_eq!((reason, s.steps()), (StopReason::Budget, end), "replayed from {t}");
        assert_eq!(s.state().status, Status::Running, "replayed from {t}");
    }
}

#[test]
fn a_loop_whose_state_changes_runs_to_the_step_limit_and_says_where() {
    let opts = LaunchOptions { step_limit: 50_000, ..LaunchOptions::default() };
    let mut s = sim_with("//@ warp 4\nNOP\nL: IADD R1, R1, 0x1\nBRA L\nEXIT\n", opts);
    assert_eq!(s.run_to_end(), StopReason::StepLimit);
    let site = s.loop_site().expect("looping");
    assert_eq!((site.head, site.last), (Pc(1), Pc(2)));
    let outcome = crate::session::Outcome::of(&s, &StopReason::StepLimit);
    let (head, message) = (outcome.pc.map(Pc), outcome.message);
    assert_eq!(head, Some(Pc(1)));
    assert!(message.contains("stopped after 50000 steps") && message.contains("(lines 3-4)"), "{message}");
}

#[test]
fn a_loop_that_reads_the_clock_is_not_taken_for_a_repeat() {
    // The registers repeat, but the clock decides when the loop ends.
    let src = "//@ warp 4\nL: S2R R2, SR_CLOCKLO\nISETP.LT.U32.AND P0, PT, R2, 0x3000, PT\nMOV R2, RZ\n@P0 BRA L\nEXIT\n";
    let mut s = sim_with(src, LaunchOptions::default());
    assert_eq!(s.run_to_end(), StopReason::Exited);
}

#[test]
fn a_stack_pushed_in_a_loop_faults_at_its_hard_limit() {
    let src = "//@ warp 4\n//@ stack limit=100\nL: SSY X\nBRA L\nX: EXIT\n";
    let mut s = sim_with(src, LaunchOptions::default());
    let StopReason::Fault { pc, message, .. } = s.run_to_end() else { panic!() };
    assert_eq!(pc, Pc(0), "the SSY that pushed past the limit");
    assert!(message.contains("101 entries deep, past its hard limit of 100"), "{message}");
}

#[test]
fn checkpoints_of_a_large_state_stay_within_the_budget_and_seek_stays_exact() {
    // 1 Mi words of memory (4 MiB per checkpoint) and a 24 MiB budget: 5 checkpoints, not 512.
    let src = "//@ warp 4\n//@ buffer big: i32[1048576]\n//@ reg R2 = big + 4 * t\nL: IADD R1, R1, 0x1\nST.E [R2], R1\nISETP.LT.AND P0, PT, R1, 0x4000, PT\n@P0 BRA L\nEXIT\n";
    let (k, _) = parse_kernel(src);
    let mut s = launch(&k, &LaunchOptions::default()).unwrap();
    let mut config = *s.config();
    config.trace_budget = 24 << 20;
    s = Sim::new(s.program().clone(), s.state().machine.clone(), config);
    assert_eq!(s.run_to_end(), StopReason::Exited);
    assert_eq!(s.timeline().max_checkpoints(), 5);
    assert!(s.timeline().checkpoint_count() <= 5, "{}", s.timeline().checkpoint_count());
    let mut fresh = Sim::new(s.program().clone(), s.timeline().checkpoint_before(0).machine.clone(), config);
    for t in [0, 1, 12_345, 40_000, s.steps() - 1] {
        while fresh.steps() < t {
            fresh.step();
        }
        s.seek(t);
        assert!(s.state() == fresh.state(), "{}", format!("seek({t}) differs"));
    }
}

#[test]
fn running_past_the_end_is_a_fault_at_the_last_instruction_under_every_model() {
    use crate::model::ModelKind;
    let src = "//@ warp 4\n//@ reg R0 = t\nISETP.LT.AND P0, PT, R0, 0x2, PT\n@P0 EXIT\nIADD R1, R1, 0x1\n";
    for &model in ModelKind::ALL {
        let mut s = sim_with(src, LaunchOptions { model: Some(model), ..LaunchOptions::default() });
        let StopReason::Fault { pc, message, .. } = s.run_to_end() else { panic!("{model:?}") };
        assert_eq!(pc, Pc(2), "{model:?}");
        // MIMD runs one lane at a time, so lane 2 falls off alone.
        let lanes = if model == ModelKind::Mimd { "lane 2 ran" } else { "lanes 2-3 ran" };
        assert!(message.contains(&format!("{lanes} past the end of the code")) && message.contains("line 5"), "{model:?}: {message}");
        assert!(message.ends_with("says `//@ excerpt` and its lanes exit there)"), "the way out is named: {message}");
    }
    // A listing marked as an excerpt of a kernel lets its lanes leave at the end.
    for &model in ModelKind::ALL {
        let mut s = sim_with(&format!("//@ excerpt\n{src}"), LaunchOptions { model: Some(model), ..LaunchOptions::default() });
        assert_eq!(s.run_to_end(), StopReason::Exited, "{model:?}");
    }
}

#[test]
fn lanes_whose_guard_fails_at_a_last_predicated_exit_run_past_the_end() {
    // Lanes 0-1 exit; lanes 2-3 skip the EXIT, which is the last instruction.
    use crate::model::ModelKind;
    let src = "//@ warp 4\n//@ reg R1 = t\nISETP.LT.AND P0, PT, R1, 0x2, PT\n@P0 EXIT\n";
    for &model in ModelKind::ALL {
        let opts = LaunchOptions { model: Some(model), ..LaunchOptions::default() };
        let mut s = sim_with(src, opts);
        let StopReason::Fault { pc, message, .. } = s.run_to_end() else { panic!("{model:?}: {:?}", s.state().status) };
        assert_eq!(pc, Pc(1), "{model:?}");
        let lanes = if model == ModelKind::Mimd { "lane 2 ran" } else { "lanes 2-3 ran" };
        assert!(message.contains(&format!("{lanes} past the end of the code")), "{model:?}: {message}");
    }
}
