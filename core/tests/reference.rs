//! The MIMD reference (the fewest fetches of each instruction) computed with lanes grouped by pc
//! equals the reference as defined, one lane per step: on every example, corpus kernel and
//! gallery PTX and SASS under each compile target, and on random control flow.

mod support;

use support::kernels::{kernels, root};

use proptest::prelude::*;
use warpscope_core::checks::control_listing;
use warpscope_core::kernel::{parse_kernel, parse_kernel_with, Kernel, SourceOptions};
use warpscope_core::model::ModelKind;
use warpscope_core::sim::reference::{grouped, one_lane_at_a_time};
use warpscope_core::sim::IdealFetches;
use warpscope_core::{launch, LaunchOptions};

/// The grouped reference of `k`, when it gives one, and the reference as defined, with the
/// budget `RunReport` gives a finished run.
fn both(k: &Kernel) -> Option<(IdealFetches, IdealFetches)> {
    let sim = launch(k, &LaunchOptions { record: false, ..LaunchOptions::default() }).ok()?;
    let machine = sim.state().machine.clone();
    let budget = 1 << 20;
    let fast = grouped(sim.program(), machine.clone(), sim.config(), budget)?;
    let slow = one_lane_at_a_time(sim.program(), machine, sim.config(), budget);
    Some((fast, slow))
}

#[test]
fn grouped_lanes_give_the_reference_on_every_example() {
    let mut compared = 0;
    for name in kernels() {
        let text = std::fs::read_to_string(root().join(&name)).unwrap();
        for model in [ModelKind::Kepler, ModelKind::Pdom, ModelKind::Volta] {
            let opts = SourceOptions { target: Some(model.compile_target()), ..SourceOptions::default() };
            let (k, d) = parse_kernel_with(&text, &opts);
            if d.iter().any(|d| d.is_error()) {
                continue;
            }
            let Some((fast, slow)) = both(&k) else { continue };
            assert_eq!(fast, slow, "{name} compiled for {model:?}");
            compared += 1;
        }
    }
    // Most kernels take the grouped path (the others have shuffles, atomics, barriers, clocks or
    // lanes that share memory).
    assert!(compared > 100, "only {compared} kernels took the grouped path");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn grouped_lanes_give_the_reference_on_random_control_flow(picks in prop::collection::vec((any::<u8>(), any::<u8>()), 1..24)) {
        let text = control_listing(&picks);
        let (k, d) = parse_kernel(&text);
        prop_assume!(d.iter().all(|d| !d.is_error()));
        if let Some((fast, slow)) = both(&k) {
            prop_assert_eq!(fast, slow, "{}", text);
        }
    }
}
