use alloc::string::String;
use alloc::vec::Vec;

use super::*;
use crate::kernel::parse_kernel;
use crate::model::ModelKind;
use crate::sim::Sim;
use crate::{launch, LaunchOptions};

/// Figure 1 of the thread-frontier paper, as `examples/tf_figure1.sass` writes it.
const FIGURE_1: &str = include_str!("../../../examples/tf_figure1.sass");

/// A loop left by `break` (two exit edges to one place) and by the loop test.
const BREAK_LOOP: &str = "//@ warp 4
//@ buffer out: i32[4]
//@ reg R10 = out
        S2R R0, SR_TID.X;
        MOV R1, RZ;
        ISCADD R9, R0, R10, 0x2;
L:      IADD R1, R1, 0x1;
        ISETP.EQ.AND P0, PT, R1, R0, PT;
   @P0  BRA OUT;
        ISETP.LT.AND P1, PT, R1, 0x3, PT;
   @P1  BRA L;
OUT:    ST [R9], R1;
        EXIT;
";

/// A jump into the middle of a loop: two entries.
const TWO_ENTRIES: &str = "//@ warp 4
//@ buffer out: i32[4]
//@ reg R10 = out
        S2R R0, SR_TID.X;
        MOV R1, RZ;
        ISCADD R9, R0, R10, 0x2;
        ISETP.EQ.AND P0, PT, R0, 0x1, PT;
   @P0  BRA MID;
TOP:    IADD R1, R1, 0x1;
MID:    IADD R1, R1, 0x10;
        ISETP.LT.AND P1, PT, R1, 0x40, PT;
   @P1  BRA TOP;
        ST [R9], R1;
        EXIT;
";

/// A loop with an early `EXIT` inside and a normal exit.
const EXIT_IN_LOOP: &str = "//@ warp 4
//@ buffer out: i32[4]
//@ reg R10 = out
        S2R R0, SR_TID.X;
        MOV R1, RZ;
        ISCADD R9, R0, R10, 0x2;
L:      IADD R1, R1, 0x1;
        ST [R9], R1;
        ISETP.EQ.AND P0, PT, R1, R0, PT;
   @P0  EXIT;
        ISETP.LT.AND P1, PT, R1, 0x2, PT;
   @P1  BRA L;
        IADD R1, R1, 0x64;
        ST [R9], R1;
        EXIT;
";

fn program(text: &str) -> Program {
    let (k, d) = parse_kernel(text);
    assert!(!d.iter().any(|d| d.is_error()), "{d:?}");
    k.program
}

fn run(text: &str, prog: Option<Program>, model: ModelKind) -> Sim {
    let (mut k, _) = parse_kernel(text);
    if let Some(p) = prog {
        k.program = p;
    }
    let mut sim = launch(&k, &LaunchOptions { model: Some(model), step_limit: 100_000, ..LaunchOptions::default() }).unwrap();
    sim.run(&crate::sim::RunLimits::default());
    assert_eq!(sim.state().status, crate::sim::Status::Exited, "{model:?}: {:?}\n{}", sim.state().status, listing_of(sim.program()));
    sim
}

fn listing_of(p: &Program) -> String {
    p.instrs.iter().enumerate().map(|(i, x)| alloc::format!("{i}: {}\n", x.text)).collect()
}

/// The transform's output is structured and computes what the input computes.
fn check(text: &str) -> Structured {
    let prog = program(text);
    assert!(!is_structured(&prog), "the input should be unstructured");
    let s = structure(&prog).unwrap();
    assert!(is_structured(&s.program), "not structured:\n{}", s.listing);
    let want = run(text, None, ModelKind::Mimd);
    for model in [ModelKind::Pdom, ModelKind::Mimd, ModelKind::TfStack] {
        let got = run(text, Some(s.program.clone()), model);
        assert_eq!(got.state().machine.memory, want.state().machine.memory, "{model:?}\n{}", s.listing);
    }
    s
}

#[test]
fn figure_1_is_unstructured_and_forward_copies_make_it_structured() {
    let s = check(FIGURE_1);
    assert_eq!((s.counts.backward_copies, s.counts.cuts), (0, 0));
    assert!(s.counts.forward_copies >= 1);
    assert!(s.nodes.iter().any(|n| n.name.ends_with('\'')), "{}", s.listing);
    // Every copied instruction runs the original's, on its source line.
    let prog = program(FIGURE_1);
    for (pc, o) in s.origin.iter().enumerate() {
        if let Some(o) = o {
            assert_eq!(s.program.lines[pc], prog.lines[o.index()]);
        }
    }
}

#[test]
fn a_loop_left_by_two_edges_is_cut() {
    let s = check(BREAK_LOOP);
    assert_eq!(s.counts.cuts, 1, "{}", s.listing);
    assert!(s.listing.contains("cut1.test"), "{}", s.listing);
}

#[test]
fn a_loop_entered_twice_is_copied_backward() {
    let s = check(TWO_ENTRIES);
    assert!(s.counts.backward_copies >= 1, "{}", s.listing);
}

#[test]
fn an_exit_inside_a_loop_is_cut_to_one_exit() {
    let s = check(EXIT_IN_LOOP);
    assert_eq!(s.counts.cuts, 1, "{}", s.listing);
    assert!(s.listing.contains("EXIT"), "{}", s.listing);
}

#[test]
fn structured_programs_come_out_unchanged() {
    for name in ["if_else.sass", "double_loop.sass", "three_way_if_else.sass", "single_loop.sass", "hovland_if_else.sass"] {
        let text = std::fs::read_to_string(alloc::format!("{}/../examples/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap();
        let prog = program(&text);
        assert!(is_structured(&prog), "{name}");
        let s = structure(&prog).unwrap();
        assert!(s.unchanged(), "{name}");
        assert_eq!(s.program, prog, "{name}");
    }
}

#[test]
fn names_count_copies_with_primes() {
    let role = |copy| NodeRole::Block { block: crate::cfg::BlockId(3), copy };
    let names: Vec<String> = (0..5).map(|c| node_name(role(c))).collect();
    assert_eq!(names, ["BB3", "BB3'", "BB3''", "BB3'''", "BB3'4"]);
}

/// The review's cases (`testdata/`), each once a wrong answer under `struct`.
fn data(name: &str) -> String {
    std::fs::read_to_string(alloc::format!("{}/src/structure/testdata/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// The run of `text` read for `model` (STRUCT transformed at the read, as the app reads it).
fn read_run(text: &str, model: ModelKind) -> Sim {
    let opts = crate::kernel::SourceOptions { structural: Some(model == ModelKind::Struct), ..Default::default() };
    let (k, d) = crate::kernel::parse_kernel_with(text, &opts);
    assert!(!d.iter().any(|d| d.is_error()), "{d:?}");
    let mut sim = launch(&k, &LaunchOptions { model: Some(model), step_limit: 10_000, ..LaunchOptions::default() }).unwrap();
    sim.run(&crate::sim::RunLimits::default());
    sim
}

#[test]
fn a_brk_with_no_pbk_still_faults_after_a_cut() {
    let text = data("brk.sass");
    let (pdom, st) = (read_run(&text, ModelKind::Pdom), read_run(&text, ModelKind::Struct));
    assert!(matches!(pdom.state().status, crate::sim::Status::Fault { .. }));
    assert!(matches!(st.state().status, crate::sim::Status::Fault { .. }), "{:?}", st.state().status);
}

#[test]
fn a_call_past_the_end_stays_one() {
    let text = data("calend2.sass");
    let (mimd, st) = (read_run(&text, ModelKind::Mimd), read_run(&text, ModelKind::Struct));
    assert_eq!(st.state().status, crate::sim::Status::Exited);
    assert_eq!(st.state().machine.memory, mimd.state().machine.memory);
}

#[test]
fn the_guard_register_is_none_printf_or_an_input_reads() {
    let text = data("pf.sass");
    let lines = |s: &Sim| {
        let mut v: Vec<String> = s.output().into_iter().map(|l| l.text).collect();
        v.sort();
        v
    };
    assert_eq!(lines(&read_run(&text, ModelKind::Struct)), lines(&read_run(&text, ModelKind::Mimd)));
}

#[test]
fn a_pop_after_work_counts_once_and_reads_without_its_pop() {
    let text = data("pop.sass");
    let report = |m| crate::sim::RunReport::of(&read_run(&text, m));
    let (pdom, st) = (report(ModelKind::Pdom), report(ModelKind::Struct));
    assert_eq!(st.block_counts[..3], pdom.block_counts[..3], "the blocks before the copies");
    let s = structure(&program(&text)).unwrap();
    assert!(s.program.instrs.iter().all(|i| !i.text.contains(".S ")), "{}", s.listing);
}

#[test]
fn a_brx_sequence_counts_as_the_gpu_issues_it() {
    let text = data("brx.sass");
    let warp = |m| read_run(&text, m).state().metrics.warp_instructions;
    assert_eq!((warp(ModelKind::Pdom), warp(ModelKind::Struct)), (14, 15), "one copy's branch more");
}

#[test]
fn notes_name_the_kernels_labels_and_addresses_and_follow_the_block() {
    let text = data("note.sass");
    let opts = crate::kernel::SourceOptions { structural: Some(true), ..Default::default() };
    let (k, d) = crate::kernel::parse_kernel_with(&text, &opts);
    assert!(d.is_empty(), "{d:?}");
    let s = k.structured.clone().unwrap();
    for note in &k.notes {
        let crate::kernel::NoteTarget::Instr(pc) = note.target else { panic!("{note:?}") };
        assert_eq!(k.program.instrs[pc.index()].text, "IADD R1, R1, 0x1", "{note:?}\n{}", s.listing);
        assert_eq!(s.nodes[s.node_of[pc.index()] as usize].name, "BB1");
    }
    assert_eq!(k.notes.len(), 2);
}

#[test]
fn an_empty_kernel_runs_under_struct() {
    let (k, _) = parse_kernel("//@ warp 4\n// nothing\n");
    let mut sim = launch(&k, &LaunchOptions { model: Some(ModelKind::Struct), ..LaunchOptions::default() }).unwrap();
    sim.run(&crate::sim::RunLimits::default());
    assert_eq!(sim.state().status, crate::sim::Status::Exited);
}
