//! STRUCT: the structural transform on the examples, the teaching corpus and random control
//! flow. Its output is structured, computes what the input computes under every model, and a
//! structured program comes out unchanged. `core/tests/golden/structure.txt` records, per
//! example, whether it is structured and what the transform did (`UPDATE_GOLDEN=1` rewrites it).

mod support;

use support::kernels::{kernels, root};

use proptest::prelude::*;
use warpscope_core::kernel::{parse_kernel_with, Kernel, SourceOptions};
use warpscope_core::model::ModelKind;
use warpscope_core::sim::{RunReport, Sim, StopReason};
use warpscope_core::structure::{is_structured, structure};
use warpscope_core::{launch, LaunchOptions};

/// The kernel read as `model` reads it (STRUCT: transformed).
fn read(name: &str, model: ModelKind) -> Kernel {
    let text = std::fs::read_to_string(root().join(name)).unwrap();
    let opts =
        SourceOptions { target: Some(model.compile_target()), structural: Some(model == ModelKind::Struct), ..SourceOptions::default() };
    let (k, d) = parse_kernel_with(&text, &opts);
    assert!(!d.iter().any(|d| d.is_error()), "{name}: {d:?}");
    k
}

fn run(k: &Kernel, model: ModelKind) -> (Sim, StopReason) {
    let mut sim = launch(k, &LaunchOptions { model: Some(model), step_limit: 300_000, ..LaunchOptions::default() }).unwrap();
    let stop = sim.run_to_end();
    (sim, stop)
}

/// Whether the transform copied a `BAR.SYNC` or an instruction with a member mask.
fn copies_a_sync(s: &warpscope_core::structure::Structured) -> bool {
    let syncs = |p: &warpscope_core::Program| {
        p.instrs.iter().filter(|i| matches!(i.op, warpscope_core::isa::Op::BarSync { .. }) || i.op.member_mask().is_some()).count()
    };
    syncs(&s.program) > syncs(&s.original)
}

#[test]
fn every_example_is_classified_and_transformed_as_recorded() {
    let mut out = String::from("# kernel: structured? | forward copies, backward copies, cuts | instructions before -> after\n");
    for name in kernels() {
        let k = read(&name, ModelKind::Struct);
        let s = k.structured.as_ref().expect("read for struct");
        let c = s.counts;
        let shape = if is_structured(&s.original) { "structured" } else { "unstructured" };
        out += &format!(
            "{name}: {shape} | {} forward, {} backward, {} cut | {} -> {}\n",
            c.forward_copies, c.backward_copies, c.cuts, c.instructions_before, c.instructions_after
        );
    }
    let path = root().join("core/tests/golden/structure.txt");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, &out).unwrap();
    }
    let want = std::fs::read_to_string(&path).expect("golden file (UPDATE_GOLDEN=1 writes it)");
    assert_eq!(out, want, "UPDATE_GOLDEN=1 rewrites core/tests/golden/structure.txt");
}

/// The check fails on every unstructured input and passes on every output; the output computes
/// the same memory as the input under every model, and a structured input is returned as it was.
#[test]
fn outputs_are_structured_and_compute_what_the_inputs_compute() {
    let mut unstructured = 0;
    for name in kernels() {
        let k = read(&name, ModelKind::Struct);
        let s = k.structured.clone().unwrap();
        assert!(is_structured(&s.program), "{name}:\n{}", s.listing);
        if is_structured(&s.original) {
            assert_eq!(s.program, s.original, "{name} is structured and must come out unchanged");
            continue;
        }
        unstructured += 1;
        assert!(!s.unchanged(), "{name}");
        let plain = read(&name, ModelKind::Pdom);
        let transformed = Kernel { program: s.program.clone(), structured: None, ..plain.clone() };
        // Under each model the transform's output ends as the input does, with the same memory
        // (token-stack models refuse real SASS's barriers either way).
        for &model in ModelKind::ALL.iter().filter(|&&m| m != ModelKind::Struct) {
            let (want, want_stop) = run(&plain, model);
            let (got, stop) = run(&transformed, model);
            match want_stop {
                // A copied barrier (or `_sync` instruction) is two instructions: lanes that reach
                // different copies wait apart, the deadlock of the paper's Figure 2 (tf_barrier),
                // or miss the lanes their member mask names.
                StopReason::Exited if copies_a_sync(&s) && matches!(stop, StopReason::Deadlock { .. } | StopReason::Fault { .. }) => {}
                StopReason::Exited => {
                    assert_eq!(stop, StopReason::Exited, "{name} under {model:?}\n{}", s.listing);
                    assert_eq!(got.state().machine.memory, want.state().machine.memory, "{name} under {model:?}");
                }
                _ => assert!(
                    !matches!(stop, StopReason::Exited) || model == ModelKind::Mimd,
                    "{name} under {model:?}: {want_stop:?} became {stop:?}"
                ),
            }
        }
    }
    assert!(unstructured >= 6, "only {unstructured} unstructured kernels");
}

/// Figure 1: STRUCT runs at least as many warp instructions as PDOM (its copies keep the paths
/// apart that PDOM keeps apart) and more than TF-STACK, and the report counts its copies and
/// measures it against the original's MIMD minimum.
#[test]
fn figure_1_struct_runs_at_least_what_pdom_runs_and_more_than_tf_stack() {
    let warp = |model| {
        let k = read("examples/tf_figure1.sass", model);
        let (sim, stop) = run(&k, model);
        assert_eq!(stop, StopReason::Exited);
        RunReport::of(&sim)
    };
    let (pdom, tf, st) = (warp(ModelKind::Pdom), warp(ModelKind::TfStack), warp(ModelKind::Struct));
    assert_eq!((pdom.warp_instructions, tf.warp_instructions), (26, 19));
    assert!(st.warp_instructions >= pdom.warp_instructions && st.warp_instructions > tf.warp_instructions, "{}", st.warp_instructions);
    assert_eq!(st.mimd_warp_instructions, 19, "the minimum is the original kernel's");
    let t = st.transforms.expect("struct reports its transforms");
    assert!(t.forward_copies > 0 && t.instructions_after > t.instructions_before);
    assert!(pdom.transforms.is_none());
}

const BODY: &[&str] = &[
    "LOP.AND R5, R0, 0x{m};\n ISETP.NE.AND P0, PT, R5, RZ, PT;\n @P0 BRA L{t};",
    "ISETP.GT.AND P0, PT, R0, 0x{m};\n @P0 BRA L{t};",
    "BRA L{t};",
    "LOP.AND R5, R0, 0x{m};\n ISETP.EQ.AND P0, PT, R5, 0x1, PT;\n @P0 BRA END;",
    "",
    "ISETP.EQ.AND P0, PT, R0, 0x{m};\n @P0 BRA OUT;",
];

/// Blocks that branch forward and back on each lane's id: a counter that grows in every block
/// ends every loop, and a hash of the path each lane took is stored at the end.
fn random_cfg(picks: &[(u8, u8, u8)]) -> String {
    let n = picks.len();
    let mut text =
        String::from("//@ warp 8\n//@ buffer out: i32[8]\n//@ reg R9 = out + 4 * t\nS2R R0, SR_TID.X;\nMOV R1, RZ;\nMOV R3, 0x1;\n");
    for (i, &(kind, to, mask)) in picks.iter().enumerate() {
        let t = to as usize % n;
        let mut body = BODY[kind as usize % BODY.len()].replace("{m}", &format!("{:x}", mask % 8)).replace("{t}", &t.to_string());
        if t <= i && body.contains("BRA L") {
            // Back edges only while the counter is small: every loop ends.
            body = format!("ISETP.LT.AND P1, PT, R1, 0x18, PT;\n @!P1 BRA L{};\n {body}", (i + 1).min(n));
            body = body.replace("\n BRA L", "\n @P1 BRA L");
        }
        text += &format!("L{i}: IADD R1, R1, 0x1;\n IMAD R3, R3, 0x3, R1;\n {body}\n");
    }
    text += &format!("L{n}: NOP;\nOUT: IADD R3, R3, 0x7;\nEND: ST [R9], R3;\nEXIT;\n");
    text
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Random control flow: the output is structured, computes what the input computes (under
    /// PDOM, against each lane on its own), and a structured input comes back unchanged.
    #[test]
    fn random_control_flow_comes_out_structured(picks in prop::collection::vec((any::<u8>(), any::<u8>(), any::<u8>()), 1..14)) {
        let text = random_cfg(&picks);
        let (k, d) = parse_kernel_with(&text, &SourceOptions::default());
        prop_assert!(!d.iter().any(|d| d.is_error()), "{:?}\n{}", d, text);
        let s = match structure(&k.program) {
            Ok(s) => s,
            Err(e) => {
                prop_assert!(e.line >= 1 && e.message.contains("limit"), "{:?}\n{}", e, text);
                return Ok(());
            }
        };
        prop_assert!(is_structured(&s.program), "{}\n{}", text, s.listing);
        if is_structured(&k.program) {
            prop_assert_eq!(&s.program, &k.program);
        }
        let (reference, stop) = run(&k, ModelKind::Mimd);
        prop_assert_eq!(stop, StopReason::Exited, "{}", text);
        let transformed = Kernel { program: s.program.clone(), ..k.clone() };
        for model in [ModelKind::Pdom, ModelKind::Mimd] {
            let (sim, stop) = run(&transformed, model);
            prop_assert_eq!(stop, StopReason::Exited, "{:?}\n{}\n{}", model, text, s.listing);
            prop_assert_eq!(&sim.state().machine.memory, &reference.state().machine.memory, "{:?}\n{}\n{}", model, text, s.listing);
        }
    }
}

/// The numbers `docs/reconvergence.md` and the examples' about texts give: warp instructions
/// under pdom, struct and tf-stack, and STRUCT's transforms (forward, backward, cut).
#[test]
fn the_unstructured_examples_reproduce_what_the_docs_claim() {
    let cases = [
        ("tf_figure1.sass", [26, 28, 19], [2, 0, 0]),
        ("tf_exception.cu", [29, 29, 21], [1, 0, 0]),
        ("tf_short_circuit.cu", [23, 24, 19], [1, 0, 0]),
        ("switch.cu", [22, 22, 20], [1, 0, 0]),
        ("loop_break.cu", [39, 57, 39], [0, 0, 1]),
        ("goto_leaves_loop.cu", [165, 225, 165], [1, 0, 2]),
    ];
    for (name, warp, transforms) in cases {
        let got: Vec<u64> = [ModelKind::Pdom, ModelKind::Struct, ModelKind::TfStack]
            .iter()
            .map(|&m| {
                let (sim, stop) = run(&read(&format!("examples/{name}"), m), m);
                assert_eq!(stop, StopReason::Exited, "{name} {m:?}");
                sim.state().metrics.warp_instructions
            })
            .collect();
        assert_eq!(got, warp, "{name}: pdom, struct, tf-stack");
        let c = read(&format!("examples/{name}"), ModelKind::Struct).structured.unwrap().counts;
        assert_eq!([c.forward_copies, c.backward_copies, c.cuts], transforms, "{name}");
    }
}
