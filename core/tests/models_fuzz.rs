//! Random listings of control instructions (token stack, convergence barriers, calls, barriers,
//! guarded exits, branches anywhere, `_sync` instructions with member masks) under every model and policy: a run may fault, deadlock or
//! hit its step limit, but never panics, issues only lanes of the warp, its stack view never
//! names an exited lane, every lane is issuing, waiting or exited at every step (`audit`), and a
//! step back then forward comes back to the same state.

use proptest::prelude::*;
use warpscope_core::checks::control_listing as listing;
use warpscope_core::kernel::parse_kernel;
use warpscope_core::model::{GroupOrder, ModelKind, PathOrder, Reconvergence};
use warpscope_core::sim::audit::lanes_conserved;
use warpscope_core::{launch, LaunchOptions};

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
        for s in [GroupOrder::LowestPc, GroupOrder::RoundRobin] {
            runs.push(LaunchOptions { model: Some(ModelKind::Volta), group_order: s, ..LaunchOptions::default() });
        }
        for opts in runs {
            let mut sim = match launch(&k, &LaunchOptions { step_limit: 2_000, ..opts.clone() }) {
                Ok(sim) => sim,
                // STRUCT refuses code it cannot restructure (a call into the kernel's own code),
                // at a line of the text.
                Err(d) => {
                    prop_assert_eq!(opts.model, Some(ModelKind::Struct), "{:?}\n{}", d, text);
                    prop_assert!(d.iter().all(|d| d.span.line >= 1 && d.span.line as usize <= text.lines().count()), "{:?}", d);
                    continue;
                }
            };
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
