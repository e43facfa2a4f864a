//! Random listings of control instructions (token stack, convergence barriers, calls, barriers,
//! guarded exits, branches anywhere, `_sync` instructions with member masks) under every model and policy: a run may fault, deadlock or
//! hit its step limit, but never panics, issues only lanes of the warp, its stack view never
//! names an exited lane, every lane is issuing, waiting or exited at every step (`audit`), and a
//! step back then forward comes back to the same state.

use proptest::prelude::*;
use warpscope_core::kernel::parse_kernel;
use warpscope_core::model::{ModelKind, PathOrder, Reconvergence, Schedule};
use warpscope_core::sim::audit::lanes_conserved;
use warpscope_core::{launch, LaunchOptions};

const LINES: &[&str] = &[
    "IADD R1, R1, 0x1;",
    "ISETP.LT.AND P0, PT, R0, R1, PT;",
    "ISETP.EQ.AND P1, PT, R1, 0x3, PT;",
    "@P0 BRA `(L{});",
    "@!P1 BRA `(L{});",
    "BRA `(L{});",
    "SSY `(L{});",
    "SYNC;",
    "NOP.S;",
    "PBK `(L{});",
    "@P0 BRK;",
    "PCNT `(L{});",
    "@P1 CONT;",
    "CAL `(L{});",
    "RET;",
    "@P1 EXIT;",
    "BSSY B{}, `(L{});",
    "BSYNC B{};",
    "@P0 BREAK B{};",
    "WARPSYNC 0xffffffff;",
    "YIELD;",
    "BAR.SYNC 0x0;",
    "ST [R9], R1;",
    "LD R2, [R9];",
    "SHFL.BFLY PT, R1, R1, 0x1, 0x1f, 0xffffffff;",
    "@P0 VOTE.ANY R1, P1, PT, 0xff;",
    "WARPSYNC 0xff;",
];

fn listing(picks: &[(u8, u8)]) -> String {
    let n = picks.len();
    let mut text = String::from("//@ warp 8\n//@ buffer out: i32[8]\n//@ reg R9 = out + 4 * t\nS2R R0, SR_TID.X;\n");
    for (i, &(line, arg)) in picks.iter().enumerate() {
        let template = LINES[line as usize % LINES.len()];
        let target = arg as usize % n;
        let filled = template.replace("B{}", &format!("B{}", arg % 3)).replace("{}", &target.to_string());
        text += &format!("L{i}: {filled}\n");
    }
    text + "EXIT;\n"
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn no_model_panics_on_random_control_flow(picks in prop::collection::vec((any::<u8>(), any::<u8>()), 1..24), back_at in 1u64..400) {
        let text = listing(&picks);
        let (k, d) = parse_kernel(&text);
        prop_assume!(d.iter().all(|d| !d.is_error()));
        let mut runs: Vec<LaunchOptions> = ModelKind::ALL.iter().map(|&m| LaunchOptions { model: Some(m), ..LaunchOptions::default() }).collect();
        runs.push(LaunchOptions { model: Some(ModelKind::Pdom), path_order: PathOrder::FallThroughFirst, ..LaunchOptions::default() });
        runs.push(LaunchOptions { model: Some(ModelKind::PdomSsy), path_order: PathOrder::FallThroughFirst, ..LaunchOptions::default() });
        for s in [Schedule::LowestPc, Schedule::RoundRobin] {
            runs.push(LaunchOptions { model: Some(ModelKind::Volta), schedule: s, ..LaunchOptions::default() });
        }
        for opts in runs {
            let mut sim = launch(&k, &LaunchOptions { step_limit: 2_000, ..opts.clone() }).expect("launch");
            let mut exited = sim.state().machine.exited;
            prop_assert_eq!(lanes_conserved(sim.program(), sim.state(), exited), Ok(()), "{:?} at the start\n{}", opts.model, text);
            while let Some(i) = sim.step() {
                if sim.steps() == back_at {
                    let ahead = sim.state().clone();
                    sim.step_back();
                    prop_assert_eq!(sim.steps(), back_at - 1);
                    sim.step();
                    prop_assert!(sim.state() == &ahead, "{:?}: step back then forward differs at {}\n{}", opts.model, back_at, text);
                }
                let st = sim.state();
                let audit = lanes_conserved(sim.program(), st, exited);
                prop_assert_eq!(audit, Ok(()), "{:?} after step {}\n{}", opts.model, sim.steps(), text);
                exited = st.machine.exited;
                prop_assert_eq!(i.mask.0 & !st.machine.all_lanes().0, 0, "issued a lane outside the warp");
                for e in st.model.stack() {
                    prop_assert_eq!(e.mask.0 & st.machine.exited.0, 0, "{:?}: an exited lane in {:?}\n{}", opts.model, e, text);
                }
                if sim.steps() >= 2_000 {
                    break;
                }
            }
            sim.seek(0);
        }
    }
}
