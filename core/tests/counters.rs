//! ncu's per-instruction counters (`counters`): a small launch counted by hand, and the totals of
//! real programs' launches equal to what the launch itself counts (`grid::Totals`, summed by
//! another path) under a stack model and volta.

use warpscope_core::counters::{count_launch, Counts};
use warpscope_core::grid::Launcher;
use warpscope_core::host::{relaunch, run_program, Code};
use warpscope_core::isa::Pc;
use warpscope_core::model::ModelKind;
use warpscope_core::LaunchOptions;

/// Two blocks of two warps; in each block's first warp lanes 0-7 take the `if`.
const KERNEL: &str = "//@ launch grid=2 block=64\n//@ buffer out: i32[128]\n__global__ void k(int *out)\n{\n    int t = threadIdx.x;\n    int v = 0;\n    if (t < 8)\n        v = 1;\n    out[blockIdx.x * 64 + t] = v;\n}\n";

#[test]
fn a_small_launch_counts_what_a_hand_count_says() {
    let (kernel, d) = warpscope_core::kernel::parse_kernel(KERNEL);
    assert!(d.iter().all(|d| !d.is_error()), "{d:?}");
    let opts = LaunchOptions { model: Some(ModelKind::Pdom), ..LaunchOptions::default() };
    let (counters, run) = count_launch(Launcher::new(&kernel, &opts).unwrap());
    let program = &run.program;
    let at = |word: &str| {
        let pc = (0..program.len() as u32).map(Pc).find(|&pc| program.get(pc).unwrap().text.contains(word)).unwrap();
        counters.by_pc[pc.index()]
    };
    // The branch skips the `if` for the lanes whose `t < 8` is false: 24 lanes of each block's
    // first warp (divergent), all 32 of the second; one target an execution, as ncu counts.
    let branch = at("BRA");
    assert_eq!(
        branch,
        Counts {
            inst_executed: 4,
            thread_inst_executed: 128,
            thread_inst_executed_pred_on: 2 * 24 + 2 * 32,
            branch_targets: 4,
            branch_targets_divergent: 2,
            thread_branch_condition_off: 0,
            thread_recounted: 0,
        }
    );
    let taken = at("MOV R4, 0x1");
    assert_eq!((taken.inst_executed, taken.thread_inst_executed, taken.thread_inst_executed_pred_on), (2, 16, 16));
    let exit = at("EXIT");
    assert_eq!((exit.inst_executed, exit.thread_inst_executed, exit.branch_targets), (4, 128, 0));
}

#[test]
fn a_programs_totals_are_what_its_launches_count() {
    for name in ["bfs_levels", "probe_loop_break", "histogram_shared"] {
        let text = std::fs::read_to_string(format!("{}/../examples/ncu/{name}.cu", env!("CARGO_MANIFEST_DIR"))).unwrap();
        for model in [ModelKind::Pdom, ModelKind::Volta] {
            let opts = LaunchOptions { model: Some(model), ..LaunchOptions::default() };
            let program = run_program(&text, &opts).unwrap_or_else(|d| panic!("{name}: {d:?}"));
            for l in program.launches.iter().take(2) {
                let (counters, run) = count_launch(relaunch(Code::cuda(&text), l, &opts).unwrap());
                let total = counters.total();
                let what = format!("{name} under {}", model.name());
                assert_eq!(total.inst_executed, run.totals.warp_instructions, "{what}");
                assert_eq!(total.thread_inst_executed, run.totals.thread_instructions, "{what}");
                // A guarded branch's threads whose guard failed are not predicated on.
                assert!(total.thread_inst_executed_pred_on <= run.totals.thread_instructions_pred_on, "{what}");
                assert!(total.branch_targets_divergent <= total.branch_targets, "{what}");
            }
        }
    }
}
