//! Every reconvergence model on the thread-frontier paper's cases and on every example: the
//! paper's Figure 1 block counts and frontiers, the barrier of Figure 2, the spin lock, the
//! H100's order of divergent sides, the course notes' stack operations, and identical final
//! memory across models for race-free kernels.

use std::path::{Path, PathBuf};

use warpscope_core::analysis::cfg_facts;
use warpscope_core::cfg::BlockId;
use warpscope_core::kernel::{parse_kernel_with, SourceOptions};
use warpscope_core::model::{EntryKind, GroupOrder, ModelKind, PathOrder, Reconvergence};
use warpscope_core::sim::{RunReport, Sim, StopReason};
use warpscope_core::{launch, LaunchOptions};

fn examples_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples")
}

fn example(name: &str) -> String {
    std::fs::read_to_string(examples_dir().join(name)).unwrap()
}

fn sim_with(text: &str, model: ModelKind, opts: LaunchOptions) -> Sim {
    let (k, d) =
        parse_kernel_with(text, &SourceOptions { target: Some(model.compile_target()), if_convert: None, ..SourceOptions::default() });
    assert!(d.iter().all(|d| !d.is_error()), "{d:?}");
    launch(&k, &LaunchOptions { model: Some(model), step_limit: 200_000, ..opts }).unwrap()
}

fn run(text: &str, model: ModelKind) -> (Sim, StopReason) {
    let mut sim = sim_with(text, model, LaunchOptions::default());
    let r = sim.run_to_end();
    (sim, r)
}

fn block_counts(sim: &Sim) -> Vec<u64> {
    sim.state().metrics.block_counts(&cfg_facts(sim.program()).graph)
}

#[test]
fn figure_1_pdom_runs_bb3_to_bb5_twice_thread_frontiers_once() {
    let text = example("tf_figure1.sass");
    for model in [ModelKind::Pdom, ModelKind::PdomSsy, ModelKind::Kepler] {
        let (sim, r) = run(&text, model);
        assert_eq!(r, StopReason::Exited);
        let c = block_counts(&sim);
        assert_eq!(&c[1..6], &[1, 1, 2, 2, 2], "{model:?}: BB1..BB5");
    }
    for model in [ModelKind::TfStack, ModelKind::TfSandy] {
        let (sim, r) = run(&text, model);
        assert_eq!(r, StopReason::Exited);
        assert_eq!(&block_counts(&sim)[1..7], &[1, 1, 1, 1, 1, 1], "{model:?}: BB1..BB5 and Exit");
        assert_eq!(RunReport::of(&sim).code_expansion(), 0.0, "{model:?} reaches the MIMD minimum");
    }
    // Every model leaves each lane's path: T0 1345, T1 12, T2 1235, T3 1234.
    for &model in ModelKind::ALL {
        let (sim, _) = run(&text, model);
        assert_eq!(sim.state().machine.memory.words[0], [1345, 12, 1235, 1234], "{model:?}");
    }
}

#[test]
fn figure_1_thread_frontiers() {
    let (k, _) = parse_kernel_with(&example("tf_figure1.sass"), &SourceOptions::default());
    let facts = cfg_facts(&k.program);
    let ids = |b: u32| facts.frontiers[b as usize].iter().map(|x: &BlockId| x.0).collect::<Vec<_>>();
    // BB6 is the paper's Exit block.
    assert_eq!(ids(1), [] as [u32; 0]);
    assert_eq!(ids(2), [3]);
    assert_eq!(ids(3), [6]);
    assert_eq!(ids(4), [5, 6]);
    assert_eq!(ids(5), [6]);
}

/// The paper's first property: while a block runs, every waiting lane is in its frontier.
#[test]
fn waiting_lanes_stay_in_the_frontier() {
    for name in ["tf_figure1.sass", "tf_exception.cu", "tf_short_circuit.cu", "tf_barrier.cu"] {
        for model in [ModelKind::TfStack, ModelKind::TfSandy] {
            let mut sim = sim_with(&example(name), model, LaunchOptions::default());
            let facts = cfg_facts(sim.program());
            loop {
                let st = sim.state();
                if let Some(pc) = st.model.pc() {
                    let running = facts.graph.block_at(pc).unwrap();
                    for e in st.model.stack().iter().filter(|e| e.kind == EntryKind::Wait) {
                        let at = facts.graph.block_at(e.pc).unwrap();
                        assert!(
                            facts.frontiers[running.index()].contains(&at),
                            "{name} {model:?}: lanes wait at {at}, outside the frontier of {running}"
                        );
                    }
                }
                if sim.step().is_none() {
                    break;
                }
            }
            assert_eq!(sim.run_to_end(), StopReason::Exited, "{name} {model:?}");
        }
    }
}

#[test]
fn figure_2_barrier_deadlocks_on_stacks_and_completes_at_thread_frontiers() {
    let text = example("tf_barrier.cu");
    for model in [ModelKind::Kepler, ModelKind::Pdom, ModelKind::PdomSsy] {
        let (_, r) = run(&text, model);
        let StopReason::Deadlock { message, .. } = r else { panic!("{model:?}: {r:?}") };
        assert!(message.contains("BAR.SYNC") && message.contains("lanes 1, 3, 5, 7 arrived"), "{model:?}: {message}");
        assert!(message.contains("lanes 0, 2, 4, 6"), "{model:?}: {message}");
    }
    for model in [ModelKind::TfStack, ModelKind::TfSandy, ModelKind::Volta, ModelKind::Mimd] {
        let (sim, r) = run(&text, model);
        assert_eq!(r, StopReason::Exited, "{model:?}");
        // out[t] = v + 1 with v = (t+1)*10 for even t, t+1+100 for odd t.
        let want: Vec<u32> = (0..8).map(|t| if t % 2 == 0 { (t + 1) * 10 + 1 } else { t + 1 + 100 + 1 }).collect();
        assert_eq!(sim.state().machine.memory.words[1], want, "{model:?}");
    }
}

#[test]
fn spin_lock_deadlocks_on_stacks_and_completes_on_volta_with_yield() {
    let text = example("spin_lock.cu");
    // Each stack model finds the repeating state and says who waits where, instead of spinning.
    for (model, held_by) in [
        (ModelKind::Kepler, "SYNC"),
        (ModelKind::Pdom, "RECONV"),
        (ModelKind::PdomSsy, "SYNC"),
        (ModelKind::TfStack, "WAIT"),
        (ModelKind::TfSandy, "WAIT"),
    ] {
        let (sim, r) = run(&text, model);
        let StopReason::Deadlock { pc, message } = &r else { panic!("{model:?}: {r:?}") };
        assert!(sim.steps() < 20_000, "{model:?} found it after {} steps", sim.steps());
        assert!(message.contains("lanes 1-31 run the loop"), "{model:?}: {message}");
        assert!(message.contains("lane 0 waits at") && message.contains(&format!("held by a {held_by} entry")), "{model:?}: {message}");
        assert_eq!(sim.program().line(*pc), Some(13), "{model:?}: the loop's line");
    }
    let (k, _) = parse_kernel_with(
        &text,
        &SourceOptions { target: Some(ModelKind::Volta.compile_target()), if_convert: None, ..SourceOptions::default() },
    );
    assert!(k.program.instrs.iter().any(|i| i.text.starts_with("YIELD")), "the volta code yields in the spin loop");
    for schedule in [GroupOrder::H100, GroupOrder::LowestPc, GroupOrder::RoundRobin] {
        let mut sim = sim_with(&text, ModelKind::Volta, LaunchOptions { group_order: schedule, ..LaunchOptions::default() });
        assert_eq!(sim.run_to_end(), StopReason::Exited, "{schedule:?}");
        let mem = &sim.state().machine.memory.words;
        assert_eq!((mem[0][0], mem[1][0]), (0, 32), "{schedule:?}: lock released, every lane counted once");
    }
}

/// The H100 rule (REPORT 2c): the side with fewer lanes runs first; on a tie the fall-through side.
#[test]
fn volta_runs_the_smaller_side_first_and_fall_through_on_a_tie() {
    for (k, first_is_low) in [(5, true), (27, false), (16, true)] {
        let text = format!(
            "//@ warp 32\n//@ model volta\nS2R R0, SR_TID.X;\nISETP.GE.AND P0, PT, R0, {k:#x}, PT;\nBSSY B0, `(J);\n@P0 BRA `(HI);\nLO: MOV R1, 0x1;\nBRA `(S);\nHI: MOV R1, 0x2;\nS: BSYNC B0;\nJ: EXIT;\n"
        );
        let mut sim = sim_with(&text, ModelKind::Volta, LaunchOptions::default());
        let low = (1u64 << k) - 1;
        let mut first = None;
        while let Some(i) = sim.step() {
            if i.mask.0 != u32::MAX as u64 && first.is_none() {
                first = Some(i.mask.0);
            }
        }
        assert_eq!(first, Some(if first_is_low { low } else { !low & u32::MAX as u64 }), "k = {k}");
    }
}

/// The course notes' operations: SSY pops one entry and pushes two; a divergent BRA pops one and
/// pushes two; SYNC pops.
#[test]
fn pdom_ssy_follows_the_course_notes() {
    let mut sim = sim_with(&example("if_else.sass"), ModelKind::PdomSsy, LaunchOptions::default());
    let mut depths = Vec::new();
    while let Some(i) = sim.step() {
        let text = &sim.program().instrs[i.pc.index()].text;
        depths.push((text.split_whitespace().next().unwrap_or("").to_string(), sim.state().model.depth()));
    }
    let at = |op: &str| depths.iter().filter(|(o, _)| o == op).map(|(_, d)| *d).collect::<Vec<_>>();
    assert_eq!(at("SSY"), [2]);
    assert_eq!(at("@!P0"), [3]);
    assert_eq!(at("SYNC"), [2, 1]);
}

#[test]
fn pdom_path_order_is_a_policy() {
    let text = example("tf_figure1.sass");
    for (order, first_lanes) in [(PathOrder::TakenFirst, 0b0001u64), (PathOrder::FallThroughFirst, 0b1110)] {
        let mut sim = sim_with(&text, ModelKind::Pdom, LaunchOptions { path_order: order, ..LaunchOptions::default() });
        let first = std::iter::from_fn(|| sim.step()).find(|i| i.mask.0 != 0b1111).unwrap();
        assert_eq!(first.mask.0, first_lanes, "{order:?}");
    }
}

/// Kernels without races end with the same memory under every model that finishes them.
#[test]
fn final_memory_is_the_same_under_every_model() {
    let mut names: Vec<String> = std::fs::read_dir(examples_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter(|n| n.ends_with(".cu") || n.ends_with(".sass"))
        .collect();
    names.sort();
    let mut compared = 0;
    for name in names {
        let text = example(&name);
        let (reference, r) = run(&text, ModelKind::Mimd);
        if r != StopReason::Exited {
            continue;
        }
        for &model in ModelKind::ALL {
            let (sim, r) = run(&text, model);
            match r {
                StopReason::Exited => {
                    assert_eq!(sim.state().machine.memory, reference.state().machine.memory, "{name} under {model:?}");
                    compared += 1;
                }
                // Deadlocks and endless spins are the point of some examples (checked above).
                StopReason::Deadlock { .. } | StopReason::StepLimit => {}
                other => panic!("{name} under {model:?}: {other:?}"),
            }
        }
    }
    assert!(compared > 80, "only {compared} runs compared");
}

/// Sandy Bridge's conservative branch walks a frontier block where no lane waits: counted.
#[test]
fn tf_sandy_counts_instructions_issued_with_no_lane() {
    let text = example("tf_conservative.sass");
    let mut sim = sim_with(&text, ModelKind::TfSandy, LaunchOptions::default());
    let empty: Vec<u32> = std::iter::from_fn(|| sim.step()).filter(|i| i.mask.0 == 0).map(|i| i.pc.0).collect();
    assert_eq!(empty.len(), 3, "the three instructions of BB3");
    assert_eq!(sim.state().metrics.idle_instructions, 3);
    let (stack_sim, r) = run(&text, ModelKind::TfStack);
    assert_eq!(r, StopReason::Exited);
    assert_eq!(stack_sim.state().metrics.idle_instructions, 0);
    assert_eq!(sim.state().machine.memory, stack_sim.state().machine.memory);
}

/// A pop that would leave lanes behind faults where it happens, naming them: lane 0 branches to
/// a SYNC with no SSY before it, so the DIV token it pops is the only one, and nothing holds lane
/// 0. Until that step the lane is at the SYNC (the lane audit holds at every step).
#[test]
fn kepler_pop_that_loses_lanes_faults_naming_them() {
    let text = "//@ warp 4\n\
        S2R R0, SR_TID.X;\n\
        ISETP.LT.AND P0, PT, R0, 0x1, PT;\n\
        @P0 BRA `(L_sync);\n\
        EXIT;\n\
L_sync: SYNC;\n\
        EXIT;\n";
    let mut sim = sim_with(text, ModelKind::Kepler, LaunchOptions::default());
    let mut exited = sim.state().machine.exited;
    while sim.step().is_some() {
        let audit = warpscope_core::sim::audit::lanes_conserved(sim.program(), sim.state(), exited);
        assert_eq!(audit, Ok(()), "after step {}", sim.steps());
        exited = sim.state().machine.exited;
    }
    let stop = sim.run_to_end();
    let StopReason::Fault { pc, message, .. } = stop else { panic!("{stop:?}") };
    assert_eq!(sim.program().instrs[pc.index()].text, "SYNC");
    assert!(message.contains("pops a DIV token, but lane 0, which reached it, is on no token below"), "{message}");
}
