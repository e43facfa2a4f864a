//! The one run path: names resolved once, bad choices refused with the same words everywhere,
//! a recording's life, and outcomes placed where the user can act.

use alloc::collections::BTreeMap;
use alloc::string::String;

use super::*;
use crate::input::InputKind;
use crate::isa::Pc;
use crate::kernel::expr::Value;
use crate::model::{GroupOrder, ModelKind, PathOrder};
use crate::sim::event;

const SINGLE: &str = include_str!("../../../examples/single_loop.sass");
const LOOP_CU: &str = include_str!("../../../examples/loop_break.cu");

fn request(text: &str) -> RunRequest {
    RunRequest::of_text(text)
}

#[test]
fn choices_fall_back_to_the_kernel_then_the_defaults() {
    let r = request(SINGLE).resolve();
    assert!(r.ok(), "{:?}", r.all_diagnostics());
    assert_eq!((r.model, r.input), (ModelKind::Kepler, InputKind::Listing));
    assert_eq!(r.preset, "kepler");
    let with_header = LOOP_CU.replace("//@ model kepler", "//@ model volta");
    let r = request(&with_header).resolve();
    assert_eq!((r.model, r.input, r.preset.as_str()), (ModelKind::Volta, InputKind::C, "h100"));
    assert_eq!(r.kernel.compiled.as_ref().map(|c| c.target), Some(ModelKind::Volta.compile_target()));
    // A chosen model wins over the header, and C compiles for its target.
    let r = RunRequest {
        choices: RunChoices { path_order: Some("fall-through".into()), ..RunChoices::of_model("pdom") },
        ..request(&with_header)
    }
    .resolve();
    assert_eq!((r.model, r.options.path_order, r.options.group_order), (ModelKind::Pdom, PathOrder::FallThroughFirst, GroupOrder::H100));
    assert_eq!(r.kernel.compiled.as_ref().map(|c| c.target), Some(ModelKind::Pdom.compile_target()));
}

#[test]
fn unknown_names_are_refused_with_one_message_per_choice() {
    let bad = RunRequest {
        choices: RunChoices {
            model: Some("gt200".into()),
            preset: Some("fermi".into()),
            path_order: Some("both".into()),
            schedule: Some("sideways".into()),
            ..RunChoices::default()
        },
        input: Some("fortran".into()),
        ..request(SINGLE)
    };
    let r = bad.resolve();
    assert!(!r.ok());
    let messages: alloc::vec::Vec<&str> = r.choice_errors.iter().map(|e| e.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "unknown input language `fortran` chosen (known: listing, c, ptx, sass)",
            "unknown model `gt200` chosen (known: kepler, pdom, pdom-ssy, struct, tf-stack, tf-sandy, volta, mimd)",
            "unknown cost preset `fermi` chosen (known: kepler, maxwell, h100, h100-timed, tesla)",
            "unknown path order `both` chosen (known: taken, fall-through)",
            "unknown schedule `sideways` chosen (known: h100, lowest-pc, round-robin)",
        ]
    );
    // The header refuses with the same words, located on the name.
    let (_, d) = crate::kernel::parse_kernel("//@ model gt200\nEXIT\n");
    assert!(d[0].message.starts_with("unknown model `gt200` chosen (known: kepler"), "{:?}", d);
    assert_eq!((d[0].span.line, d[0].span.col), (1, 11));
}

#[test]
fn params_are_checked_and_stale_ones_dropped_only_when_asked() {
    let mut params = BTreeMap::new();
    params.insert(String::from("n"), 5.0);
    params.insert(String::from("renamed"), 1.0);
    let r = RunRequest { params: params.clone(), stale_params: StaleParams::Drop, ..request(SINGLE) }.resolve();
    assert!(r.ok());
    assert_eq!(r.options.params, [(String::from("n"), Value::Int(5))]);
    assert_eq!((r.params[0].name.as_str(), r.params[0].default, r.params[0].value), ("n", Value::Int(2), Value::Int(5)));
    // Refused (the CLI): kept, so launching names the unknown param.
    let r = RunRequest { params, ..request(SINGLE) }.resolve();
    let err = crate::launch(&r.kernel, &r.options).err().expect("unknown param");
    assert!(err[0].message.contains("unknown param `renamed`"), "{:?}", err);
    // An integer param (the loop's trips) takes whole numbers a JS number holds exactly; one
    // whose default is a float takes fractions too.
    let one = |text: &str, v: f64| RunRequest { params: BTreeMap::from([(String::from("n"), v)]), ..request(text) }.resolve();
    for v in [1.5, 2f64.powi(60), 1e30] {
        let r = one(SINGLE, v);
        assert!(!r.ok());
        assert!(r.diagnostics[0].message.contains("is not an integer between -2^53 and 2^53"), "{:?}", r.diagnostics);
        assert_eq!(r.diagnostics[0].span.line, 9, "at the param's line");
    }
    let scale = "//@ param n = 0.5\n//@ reg R0 = n\nEXIT\n";
    assert_eq!(one(scale, 1.5).options.params, [(String::from("n"), Value::Float(1.5))]);
    assert_eq!(one(scale, 3.0).options.params, [(String::from("n"), Value::Int(3))]);
    assert!(one(scale, f64::INFINITY).diagnostics[0].message.contains("is not a finite number"));
}

#[test]
fn step_limits_of_recorded_runs_stay_in_range() {
    for (limit, ok) in [(999.0, false), (1000.0, true), (50_000_000.0, true), (50_000_001.0, false), (1500.5, false)] {
        let r = RunRequest { step_limit: Some(limit), record: true, ..request(SINGLE) }.resolve();
        assert_eq!(r.ok(), ok, "{limit}");
    }
    // An unrecorded run (the CLI) takes any whole number of steps.
    assert!(RunRequest { step_limit: Some(10.0), ..request(SINGLE) }.resolve().ok());
}

#[test]
fn the_stack_choice_starts_from_the_kernels_own() {
    let text = alloc::format!("//@ stack capacity=8 chunk=2 limit=300\n{SINGLE}");
    let r = RunRequest { stack: StackChoice { capacity: Some(4), ..StackChoice::default() }, ..request(&text) }.resolve();
    let st = r.options.stack.expect("chosen");
    assert_eq!((st.capacity, st.chunk, st.limit), (4, 2, 300));
    let r = RunRequest { stack: StackChoice { capacity: Some(1), chunk: Some(2), limit: None }, ..request(&text) }.resolve();
    assert!(r.choice_errors[0].message.contains("chunk at most capacity"));
}

#[test]
fn a_recording_loads_in_chunks_stops_and_ends_stopped_when_loaded_again() {
    let endless = "//@ warp 4\nL: IADD R1, R1, 0x1\nBRA L\nEXIT\n";
    let req = RunRequest { record: true, ..request(endless) };
    let mut rec = Recording::new();
    assert_eq!(rec.start(req.resolve(), Some(1000)).expect("launches"), None, "still running");
    assert!(rec.running());
    assert!(rec.resume(500).running);
    let stopped = rec.stop();
    let end = stopped.end.expect("stopped");
    assert_eq!((end.kind, end.step), (OutcomeKind::Stopped, 1500));
    assert_eq!(end.line, Some(2), "placed at the loop's head");
    assert_eq!((rec.total(), rec.current()), (1500, 0));
    // Loaded again with stop_at, it ends the same way, whole or in chunks.
    let again = RunRequest { stop_at: Some(1500.0), ..req };
    let mut whole = Recording::new();
    assert_eq!(whole.start(again.resolve(), None).unwrap().map(|o| (o.kind, o.step)), Some((OutcomeKind::Stopped, 1500)));
    assert_eq!(whole.run_until(Until::End, None).map(|o| o.kind), Some(OutcomeKind::Stopped));
}

#[test]
fn a_step_limit_is_placed_at_the_loop_head_in_every_front_end() {
    let text = "//@ param n = 0\nNOP\nloop:\n  IADD R1, R1, 0x1\n  BRA loop;\nEXIT\n";
    let r = RunRequest { step_limit: Some(100.0), ..request(text) }.resolve();
    let mut sim = crate::launch(&r.kernel, &r.options).unwrap();
    let reason = sim.run_to_end();
    let o = Outcome::of(&sim, &reason);
    assert_eq!((o.kind, o.line, o.addr), (OutcomeKind::StepLimit, Some(4), Some(0x8)));
    assert!(o.summary.starts_with("stopped after 100 steps (step limit) at 0x0008 (line 4)"), "{}", o.summary);
    // The sweep's stop is the same outcome.
    let sweep = crate::sweep::SweepRequest { step_limit: Some(100), from: 0, to: 0, ..Default::default() };
    let p = crate::sweep::Sweep::new(text, &sweep).unwrap().run(0);
    assert_eq!(p.stop.line, Some(4));
}

#[test]
fn a_recording_keeps_what_the_run_printed_and_cuts_it_at_a_step() {
    let text = include_str!("../../../examples/printf_divergent.cu");
    let mut rec = Recording::new();
    rec.start(request(text).resolve(), Some(10)).expect("launches");
    while rec.running() {
        rec.resume(7);
    }
    let l = rec.loaded().expect("loaded");
    assert_eq!(l.output.len(), 8);
    assert_eq!(l.output_until(0), []);
    let first = l.output[0].step;
    assert!(!l.output_until(first).is_empty() && l.output_until(first).iter().all(|x| x.step == first));
    assert_eq!(l.output_until(l.total).len(), 8);
    // The lines are the state's: after seeking to a step, the machine's log says the same.
    let mid = l.output[5].step;
    rec.seek(mid);
    let l = rec.loaded().unwrap();
    assert_eq!(l.sim.output(), l.output_until(mid));
}

#[test]
fn seek_with_lanes_is_a_seek_and_the_lane_window_around_it() {
    // Lanes leave a divergent loop one by one, over several checkpoints (every 1,024 steps).
    let text = "//@ warp 8\n//@ buffer out: i32[8]\n__global__ void k(int* out) {\n  int t = threadIdx.x, s = 0;\n  \
                for (int i = 0; i < 300 + 40 * t; i++) {\n    if ((i + t) % 3 == 0) s += 1; else s ^= i;\n  }\n  out[t] = s;\n}\n";
    let req = RunRequest { record: true, ..request(text) };
    let (mut both, mut apart) = (Recording::new(), Recording::new());
    both.start(req.clone().resolve(), None).expect("launches");
    apart.start(req.resolve(), None).expect("launches");
    let total = both.total();
    assert!(total > 3000, "{total} steps");
    let (t, third) = (total / 2, total / 3);
    // Window around, before, after and past the end of the step; a step past the end; and short
    // steps forward, as playing takes them.
    for (t, from, to) in [
        (t, t - 40, t + 60),
        (t + 3, t - 40, t + 60),
        (t + 9, t + 1, t + 70),
        (3, 0, 50),
        (total, total - 10, total),
        (third, third + 5, third + 30),
        (10, 0, total + 100),
        (total + 7, 0, 20),
    ] {
        let (at, lanes) = both.seek_with_lanes(t, from, to);
        assert_eq!(at, apart.seek(t), "step {t}");
        let sim = &apart.loaded().unwrap().sim;
        assert_eq!(lanes, sim.lane_window(from, to), "lanes of {from}..{to}");
        assert_eq!(both.loaded().unwrap().sim.state(), sim.state(), "state at {t}");
    }
}

/// `run_until` of events without breakpoints seeks to the step the recorded events name; with a
/// breakpoint that is never reached it replays every step (the reference). Both end alike: the
/// same outcome at the same step, for every kind of event, from any step, with and without a
/// budget, on kernels and models whose runs diverge, reconverge, spill and deadlock.
#[test]
fn run_until_events_seeks_where_replaying_every_step_stops() {
    let kernels = [
        SINGLE,
        LOOP_CU,
        include_str!("../../../examples/double_loop.sass"),
        include_str!("../../../examples/spin_lock.cu"),
        include_str!("../../../examples/tf_figure1.sass"),
    ];
    let kinds = [event::DIVERGE, event::RECONVERGE, event::SPILL | event::FILL, event::DIVERGE | event::RECONVERGE | event::EXIT];
    for text in kernels {
        for model in ["kepler", "pdom", "tf-sandy", "volta", "mimd"] {
            let req = RunRequest { record: true, choices: RunChoices::of_model(model), ..request(text) };
            let load = || {
                let mut rec = Recording::new();
                rec.start(req.resolve(), None).expect("launches");
                rec
            };
            let (mut fast, mut slow) = (load(), load());
            slow.set_breakpoints(alloc::vec![Pc(u32::MAX)]);
            let total = fast.total();
            for bits in kinds {
                for from in [0, 1, total / 3, total / 2, total.saturating_sub(1), total] {
                    for budget in [None, Some(5), Some(total / 4 + 1)] {
                        fast.seek(from);
                        slow.seek(from);
                        let (a, b) = (fast.run_until(Until::Events(bits), budget), slow.run_until(Until::Events(bits), budget));
                        assert_eq!(a, b, "{model}, events {bits:#x} from step {from}, budget {budget:?}");
                        assert_eq!(fast.current(), slow.current());
                    }
                }
            }
        }
    }
}

#[test]
fn a_program_that_fails_says_where_in_problems_and_still_shows_its_launch() {
    // The launch reads past its buffer; later the host code writes through a null pointer.
    let text = "#include <stdio.h>\n__global__ void k(int *a) { a[threadIdx.x + 64] = 1; }\nint main() {\n    int *d;\n    cudaMalloc(&d, 32 * sizeof(int));\n    k<<<1, 32>>>(d);\n    cudaDeviceSynchronize();\n    int *p = 0;\n    *p = 1;\n    return 0;\n}\n";
    let r = request(text).resolve();
    assert!(r.ok(), "warnings, not errors: {:?}", r.all_diagnostics());
    assert_eq!(r.kernel.kernel_name.as_ref().map(|(n, _)| n.as_str()), Some("k"), "the launch made before the failure is shown");
    let said = |line: u32, start: &str| {
        r.diagnostics.iter().any(|d| d.severity == crate::diag::Severity::Warning && d.span.line == line && d.message.starts_with(start))
    };
    assert!(said(6, "`k`'s launch failed"), "{:?}", r.diagnostics);
    assert!(said(9, "`main()` stopped at line 9"), "{:?}", r.diagnostics);
}

#[test]
fn a_program_already_run_is_taken_again_for_the_same_text_and_options() {
    let text = "#include <stdio.h>\n__global__ void k(int *a) { a[threadIdx.x] += 1; }\nint main() {\n    int *d;\n    cudaMalloc(&d, 32 * sizeof(int));\n    k<<<1, 32>>>(d);\n    k<<<1, 32>>>(d);\n    printf(\"two\\n\");\n    return 0;\n}\n";
    let mut earlier = request(text).resolve().program.expect("a program");
    assert_eq!((earlier.run.stdout.as_str(), earlier.shown), ("two\n", Some(0)));
    // Marked, to tell it from a new run of main().
    earlier.run.stdout = String::from("marked");
    let second = RunRequest { choices: RunChoices { launch: Some(1), ..RunChoices::default() }, ..request(text) };
    let p = second.resolve_after(Some(earlier.clone())).program.expect("a program");
    assert_eq!((p.run.stdout.as_str(), p.shown), ("marked", Some(1)), "taken again, its second launch shown");
    // Another model, or other text: main() runs again.
    let pdom = RunRequest { choices: RunChoices { launch: Some(1), ..RunChoices::of_model("pdom") }, ..request(text) };
    assert_eq!(pdom.resolve_after(Some(earlier.clone())).program.expect("a program").run.stdout, "two\n");
    let edited = text.replace("two", "2");
    assert_eq!(request(&edited).resolve_after(Some(earlier)).program.expect("a program").run.stdout, "2\n");
}

#[test]
fn a_programs_launch_shows_the_block_chosen_and_warns_of_one_outside_its_grid() {
    let text = "__global__ void k(int *a) { a[blockIdx.x * 32 + threadIdx.x] = 1; }\nint main() {\n    int *d;\n    cudaMalloc(&d, 96 * sizeof(int));\n    k<<<3, 32>>>(d);\n    return 0;\n}\n";
    let pick =
        |block: [u32; 3]| RunRequest { choices: RunChoices { block: Some(block), ..RunChoices::default() }, ..request(text) }.resolve();
    let r = pick([2, 0, 0]);
    assert!(r.ok() && r.all_diagnostics().is_empty(), "{:?}", r.all_diagnostics());
    assert_eq!(r.kernel.launch().block_idx, [2, 0, 0]);
    let recording = LaunchRecording::start(&r).unwrap();
    assert_eq!(recording.launch().block_idx(), [2, 0, 0], "the block recorded step by step");
    let r = pick([3, 0, 0]);
    assert_eq!(r.kernel.launch().block_idx, [0, 0, 0]);
    let warned = r.diagnostics.iter().any(|d| d.message.starts_with("block (3, 0, 0) is not in the launch's grid (3, 1, 1)"));
    assert!(warned, "{:?}", r.diagnostics);
}

/// A warp's recorded run replayed for its counters counts each pc as the whole launch of the
/// same one-warp kernel counts it (`count_launch`), under every model: the replay shows each
/// step as the launch's watch does.
#[test]
fn a_warps_counts_are_its_launchs_counts() {
    let kernels = [
        SINGLE,
        LOOP_CU,
        include_str!("../../../examples/if_else.cu"),
        include_str!("../../../examples/sass/loop_break.sm_90.sass"),
        include_str!("../../../examples/sass/early_return.sm_90.sass"),
        include_str!("../../../examples/sass/switch.sm_90.sass"),
    ];
    for text in kernels {
        for model in ModelKind::ALL {
            let r = RunRequest { record: true, choices: RunChoices::of_model(model.name()), ..request(text) }.resolve();
            assert!(r.ok() && !r.whole_launch, "{model:?}: {:?}", r.all_diagnostics());
            let mut sim = crate::launch(&r.kernel, &r.options).unwrap();
            sim.run_to_end();
            let warp = counters::RunCounts::of_warp(&sim, sim.steps());
            let launch = counters::RunCounts::of_launch(r.launcher().unwrap());
            assert_eq!(warp.by_pc, launch.by_pc, "{model:?}");
            assert_eq!((warp.whole_launch, launch.whole_launch), (false, true));
        }
    }
}

/// A recording counts its run once, the first time asked; a launch's counts are its whole
/// launch's, every block.
#[test]
fn counts_are_counted_once_and_cover_the_whole_launch() {
    let mut rec = Recording::new();
    rec.start(RunRequest { record: true, ..request(SINGLE) }.resolve(), None).unwrap();
    rec.seek(3);
    let once = rec.counts().cloned().unwrap();
    assert_eq!(once.total.inst_executed, rec.total());
    assert_eq!(rec.current(), 3, "counting leaves the replay where it was");
    assert_eq!(rec.counts(), Some(&once));

    let text = "//@ launch grid=3 block=64\n//@ buffer out: i32[64]\n__global__ void k(int* out) { out[threadIdx.x] = 1; }\n";
    let r = RunRequest { record: true, ..request(text) }.resolve();
    assert!(r.ok() && r.whole_launch, "{:?}", r.all_diagnostics());
    let mut launch = LaunchRecording::start(&r).unwrap();
    let counts = launch.counts().clone();
    // Six warps (3 blocks of 2) each issue every instruction of a branch-free kernel once.
    assert!(counts.whole_launch);
    assert!(counts.by_pc.iter().flatten().all(|c| c.inst_executed == 6 && c.thread_inst_executed == 6 * 32), "{counts:?}");
    assert_eq!(counts.by_pc.iter().flatten().count(), counts.by_pc.len(), "a C kernel has no SASS sequences");
    assert_eq!(counts.total.inst_executed, launch.totals.warp_instructions);
}
