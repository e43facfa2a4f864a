//! Device `printf` end to end: a C kernel printing inside a divergent branch, compiled for each
//! model's target and run under every model and path order. Every lane prints its own line;
//! the order of the lines is the order in which the model runs the lanes (the side of the
//! branch it runs first prints first, each step's lanes in lane order), as on a GPU, where the
//! order of printf output from different threads is not specified.

use std::path::Path;

use warpscope_core::compile::CompileOptions;
use warpscope_core::kernel::{parse_kernel_with, SourceOptions};
use warpscope_core::model::{GroupOrder, ModelKind, PathOrder};
use warpscope_core::printf::{lines, OutputLine};
use warpscope_core::sim::StopReason;
use warpscope_core::{launch, LaunchOptions};

fn example(name: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples").join(name)).unwrap()
}

/// The run's output under `model`, compiled for its target (with or without if-conversion).
fn output(text: &str, model: ModelKind, order: PathOrder, if_convert: bool) -> Vec<OutputLine> {
    let opts = SourceOptions { target: Some(model.compile_target()), if_convert: Some(if_convert), ..SourceOptions::default() };
    let (k, d) = parse_kernel_with(text, &opts);
    assert!(d.iter().all(|d| !d.is_error()), "{d:?}");
    let mut sim = launch(
        &k,
        &LaunchOptions { model: Some(model), path_order: order, group_order: GroupOrder::default(), ..LaunchOptions::default() },
    )
    .expect("launch");
    assert_eq!(sim.run_to_end(), StopReason::Exited, "{model:?}");
    lines(&sim.program().formats, &sim.state().machine.output)
}

/// What lane `t` of the example prints.
fn expected(t: u32) -> String {
    let sum: f32 = (0..=t).map(|i| i as f32 * 0.5).sum();
    if t.is_multiple_of(2) {
        format!("thread {t}: sum = {sum:.6}\n")
    } else {
        format!("thread {t} (odd): sum = {sum:.2}\n")
    }
}

#[test]
fn every_model_prints_every_lane_once_in_the_order_it_runs_them() {
    let text = example("printf_divergent.cu");
    let mut orders = std::collections::BTreeSet::new();
    for &model in ModelKind::ALL {
        for &order in PathOrder::ALL {
            for if_convert in [false, true] {
                let out = output(&text, model, order, if_convert);
                let what = format!("{} {} if-convert {if_convert}", model.name(), order.name());
                let mut by_lane: Vec<(u32, &str)> = out.iter().map(|l| (l.lane.expect("no truncation"), l.text.as_str())).collect();
                by_lane.sort();
                let want: Vec<(u32, String)> = (0..8).map(|t| (t, expected(t))).collect();
                assert_eq!(by_lane.iter().map(|(l, t)| (*l, t.to_string())).collect::<Vec<_>>(), want, "{what}");
                // Steps never go back, and the lanes of one step print in lane order.
                for w in out.windows(2) {
                    assert!(w[0].step < w[1].step || (w[0].step == w[1].step && w[0].lane < w[1].lane), "{what}: {w:?}");
                }
                orders.insert(out.iter().map(|l| l.lane.unwrap()).collect::<Vec<_>>());
            }
        }
    }
    // Stack models run one side, then the other; MIMD runs lane by lane: the orders differ.
    assert!(orders.contains(&vec![0, 2, 4, 6, 1, 3, 5, 7]) || orders.contains(&vec![1, 3, 5, 7, 0, 2, 4, 6]), "{orders:?}");
    assert!(orders.len() > 1, "{orders:?}");
}

#[test]
fn if_conversion_guards_printf_and_each_side_prints_in_one_step() {
    let text = example("printf_divergent.cu");
    let out = output(&text, ModelKind::Kepler, PathOrder::TakenFirst, true);
    let steps: std::collections::BTreeSet<u64> = out.iter().map(|l| l.step).collect();
    assert_eq!(steps.len(), 2, "one guarded PRINTF per side: {out:?}");
    let (k, _) = parse_kernel_with(&text, &SourceOptions { if_convert: Some(true), ..SourceOptions::default() });
    let listing = k.compiled.unwrap().listing;
    assert!(listing.contains("@P0 PRINTF") && listing.contains("@!P0 PRINTF"), "{listing}");
}

fn compile(src: &str) -> Vec<warpscope_core::Diagnostic> {
    warpscope_core::compile::compile(src, CompileOptions::default()).1
}

#[test]
fn format_problems_are_located_warnings_and_refusals_errors() {
    let d = compile("__global__ void k(float* a) {\n  int t = threadIdx.x;\n  printf(\"%d %f\\n\", a[t], t);\n}\n");
    let w: Vec<(u32, u32, bool, &str)> = d.iter().map(|d| (d.span.line, d.span.col, d.is_error(), d.message.as_str())).collect();
    assert_eq!(w.len(), 2, "{w:?}");
    assert_eq!((w[0].0, w[0].1, w[0].2), (3, 21, false), "{w:?}");
    assert!(w[0].3.contains("`%d` expects an argument of type `int`, but argument 2 has type `float`"), "{}", w[0].3);
    assert_eq!((w[1].0, w[1].1, w[1].2), (3, 27, false), "{w:?}");
    assert!(w[1].3.contains("`%f` expects an argument of type `double`, but argument 3 has type `int`"), "{}", w[1].3);

    let d = compile("__global__ void k() {\n  printf(\"%d %d\\n\", 1);\n  printf(\"%y\\n\");\n  printf(\"x\\n\", 2);\n}\n");
    let msgs: Vec<(u32, bool, &str)> = d.iter().map(|d| (d.span.line, d.is_error(), d.message.as_str())).collect();
    assert!(msgs.iter().all(|m| !m.1), "{msgs:?}");
    assert!(msgs.iter().any(|m| m.0 == 2 && m.2.contains("matching `int` argument")), "{msgs:?}");
    assert!(msgs.iter().any(|m| m.0 == 3 && m.2.contains("`%y`")), "{msgs:?}");
    assert!(msgs.iter().any(|m| m.0 == 4 && m.2.contains("too many arguments")), "{msgs:?}");

    for (src, says) in [
        ("__global__ void k(int* a) { const int f = 1; printf(a); }", "string literal"),
        ("__global__ void k() { printf(); }", "needs a format"),
        ("__global__ void k(int* a) { printf(\"%s\", a[0]); }", "`%s` prints a string literal"),
        ("__global__ void k() { printf(\"%d\", \"x\"); }", "printed with `%s`"),
        ("__global__ void k() { int x = \"s\"; }", "only be `printf`'s format"),
        ("__global__ void k() { printf(\"%f%f%f%f%f%f%f%f%f\", 1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0); }", "at most 16"),
    ] {
        let d = compile(src);
        assert!(d.iter().any(|d| d.is_error() && d.message.contains(says)), "{src}: {d:?}");
    }
}

/// `1.1f` is a float (printed as the float it is); `1.1` a double, exact, as C has them.
#[test]
fn promotions_literals_strings_and_wide_arguments_print_as_c_does() {
    let src =
        "//@ warp 2\n__global__ void k() {\n  int t = threadIdx.x;\n  unsigned u = 4000000000u;\n  bool b = t > 0;\n  float f = 1.1f;\n  \
               printf(\"%s[%d] %u %d %.10f %.10f %e %c%c|%5.1f|\\n\" \"%%\\n\", \"lane\", t, u, b, f, 1.1, -2.5, 'o', 'k', f);\n}\n";
    let (k, d) = parse_kernel_with(src, &SourceOptions::default());
    assert!(d.iter().all(|d| !d.is_error() && !d.message.contains("expects")), "{d:?}");
    let mut sim = launch(&k, &LaunchOptions::default()).unwrap();
    sim.run_to_end();
    let out = lines(&sim.program().formats, &sim.state().machine.output);
    let texts: Vec<&str> = out.iter().map(|l| l.text.as_str()).collect();
    assert_eq!(
        texts,
        [
            "lane[0] 4000000000 0 1.1000000238 1.1000000000 -2.500000e+00 ok|  1.1|\n%\n",
            "lane[1] 4000000000 1 1.1000000238 1.1000000000 -2.500000e+00 ok|  1.1|\n%\n"
        ]
    );
}

#[test]
fn a_printing_endless_loop_still_ends_as_a_deadlock() {
    // A lane spinning on a flag nobody sets, printing as it spins: the output is not part of
    // the state the repeat watch compares, so the loop is found as it is without printing.
    let src = "//@ warp 2\n//@ buffer flag: i32[1]\n__global__ void k(volatile int* flag) {\n  int n = 0;\n  while (flag[0] == 0) { printf(\"%d\\n\", n); }\n}\n";
    let (k, d) = parse_kernel_with(src, &SourceOptions::default());
    assert!(d.iter().all(|d| !d.is_error()), "{d:?}");
    let mut sim = launch(&k, &LaunchOptions { step_limit: 2_000_000, ..LaunchOptions::default() }).unwrap();
    let stop = sim.run_to_end();
    assert!(matches!(stop, StopReason::Deadlock { .. }), "{stop:?}");
    let out = lines(&sim.program().formats, &sim.state().machine.output);
    assert!(!out.is_empty() && out.len() <= warpscope_core::printf::MAX_RECORDS, "{}", out.len());
}

#[test]
fn a_long_run_keeps_the_first_records_and_says_where_it_cut() {
    let src = "//@ warp 4
__global__ void k() {
  for (int i = 0; i < 3000; i++) { printf(\"%d\\n\", i); }
}
";
    let (k, d) = parse_kernel_with(src, &SourceOptions::default());
    assert!(d.iter().all(|d| !d.is_error()), "{d:?}");
    let mut sim = launch(&k, &LaunchOptions::default()).unwrap();
    assert_eq!(sim.run_to_end(), StopReason::Exited);
    let out = lines(&sim.program().formats, &sim.state().machine.output);
    assert_eq!(out.len(), warpscope_core::printf::MAX_RECORDS + 1);
    assert_eq!(out[9_999].text, "2499\n");
    let last = out.last().unwrap();
    assert_eq!(last.lane, None);
    assert!(last.text.contains("output truncated") && last.step > out[9_999].step, "{last:?}");
    // Seeking back and forth gives the log of each step exactly.
    let total = sim.steps();
    let end = sim.state().machine.output.clone();
    sim.seek(total / 3);
    let third = sim.state().machine.output.len();
    sim.seek(total);
    assert_eq!(sim.state().machine.output, end);
    assert!(third < MAX && third > 0);
}
const MAX: usize = warpscope_core::printf::MAX_RECORDS;
