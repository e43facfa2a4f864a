//! Generated race-free C kernels (each lane writes only its own elements) must end with the
//! same registers and memory for every target and model that runs them to completion: the
//! reconvergence code a target adds may change when lanes run, never what they compute.
//! The kepler model runs kepler and plain code, each with and without if-conversion, and every
//! other model runs the code its target gives it.

use proptest::prelude::*;
use warpscope_core::compile::Target;
use warpscope_core::kernel::{parse_kernel_with, SourceOptions};
use warpscope_core::model::{GroupOrder, ModelKind, PathOrder};
use warpscope_core::sim::StopReason;
use warpscope_core::{launch, LaunchOptions};

/// A small deterministic generator of structured kernels: ifs, bounded loops with break,
/// continue and goto out of them, switches, early returns, calls and short-circuit conditions.
struct Gen {
    state: u64,
    loops: u32,
    text: String,
}

impl Gen {
    fn next(&mut self, n: u32) -> u32 {
        // xorshift64*
        self.state ^= self.state >> 12;
        self.state ^= self.state << 25;
        self.state ^= self.state >> 27;
        ((self.state.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) % n as u64) as u32
    }

    fn var(&mut self) -> String {
        format!("x{}", self.next(4))
    }

    fn expr(&mut self, depth: u32) -> String {
        match if depth == 0 { self.next(3) } else { self.next(8) } {
            0 => self.var(),
            1 => "t".into(),
            2 => format!("{}", self.next(10)),
            3 | 4 => {
                let op = ["+", "-", "*", "&", "|", "^"][self.next(6) as usize];
                format!("({} {op} {})", self.expr(depth - 1), self.expr(depth - 1))
            }
            5 if self.next(2) == 0 => format!("({} << {})", self.expr(depth - 1), self.next(3)),
            5 => {
                let op = ["/", "%"][self.next(2) as usize];
                let k = [3, -3, 4, 7, -8, 10][self.next(6) as usize];
                format!("({} {op} ({k}))", self.expr(depth - 1))
            }
            6 => format!("({} ? {} : {})", self.cond(depth - 1), self.expr(depth - 1), self.expr(depth - 1)),
            _ => format!("f({}, {})", self.expr(depth - 1), self.expr(depth - 1)),
        }
    }

    fn cond(&mut self, depth: u32) -> String {
        match if depth == 0 { 0 } else { self.next(5) } {
            0 | 1 => {
                let op = ["<", "<=", ">", ">=", "==", "!="][self.next(6) as usize];
                format!("{} {op} {}", self.expr(depth.saturating_sub(1)), self.expr(depth.saturating_sub(1)))
            }
            2 => format!("({}) && ({})", self.cond(depth - 1), self.cond(depth - 1)),
            3 => format!("({}) || ({})", self.cond(depth - 1), self.cond(depth - 1)),
            _ => format!("!({})", self.cond(depth - 1)),
        }
    }

    fn line(&mut self, indent: usize, s: &str) {
        self.text.push_str(&"    ".repeat(indent));
        self.text.push_str(s);
        self.text.push('\n');
    }

    /// A statement; `in_loop` allows break and continue, `exit` names a label after the loop.
    fn stmt(&mut self, depth: u32, indent: usize, in_loop: bool, exit: Option<&str>) {
        let choice = if depth == 0 { self.next(3) } else { self.next(12) };
        match choice {
            0 => {
                let (v, e) = (self.var(), self.expr(2));
                self.line(indent, &format!("{v} = {e};"));
            }
            1 => {
                let (v, e) = (self.var(), self.expr(1));
                self.line(indent, &format!("{v} += {e};"));
            }
            2 => {
                let (k, e) = (self.next(3), self.expr(2));
                self.line(indent, &format!("out[t + {}] = {e};", 32 * k));
            }
            3 | 4 => {
                let c = self.cond(2);
                self.line(indent, &format!("if ({c}) {{"));
                self.block(depth - 1, indent + 1, in_loop, exit);
                if self.next(2) == 0 {
                    self.line(indent, "} else {");
                    self.block(depth - 1, indent + 1, in_loop, exit);
                }
                self.line(indent, "}");
            }
            5 | 6 => {
                self.loops += 1;
                let i = format!("i{}", self.loops);
                let label = format!("after{}", self.loops);
                let bound = self.expr(1);
                self.line(indent, &format!("for (int {i} = 0; {i} < ({bound} & 3) + 1; {i}++) {{"));
                self.block(depth - 1, indent + 1, true, Some(&label));
                self.line(indent, "}");
                self.line(indent, &format!("{label}:"));
                let v = self.var();
                self.line(indent, &format!("{v} = {v} + 1;"));
            }
            7 => {
                self.loops += 1;
                let d = format!("d{}", self.loops);
                let label = format!("after{}", self.loops);
                let bound = self.expr(1);
                self.line(indent, &format!("int {d} = 0;"));
                self.line(indent, "do {");
                self.line(indent + 1, &format!("{d}++;"));
                self.block(depth - 1, indent + 1, true, Some(&label));
                self.line(indent, &format!("}} while ({d} < ({bound} & 3));"));
                self.line(indent, &format!("{label}:"));
                self.line(indent + 1, ";");
            }
            8 => {
                let e = self.expr(1);
                self.line(indent, &format!("switch ({e} & 3) {{"));
                for case in ["case 0:", "case 1:", "case 2:", "default:"] {
                    self.line(indent, case);
                    self.block(depth - 1, indent + 1, in_loop, exit);
                    if self.next(3) > 0 {
                        self.line(indent + 1, "break;");
                    }
                }
                self.line(indent, "}");
            }
            9 if in_loop => {
                let c = self.cond(1);
                let jump = match (self.next(3), exit) {
                    (0, _) => "break;".to_string(),
                    (1, _) => "continue;".to_string(),
                    (_, Some(l)) => format!("goto {l};"),
                    (_, None) => "break;".to_string(),
                };
                self.line(indent, &format!("if ({c}) {jump}"));
            }
            10 => {
                let c = self.cond(1);
                if self.next(4) == 0 {
                    self.line(indent, &format!("if ({c}) return;"));
                }
            }
            _ => {
                let (v, e) = (self.var(), self.expr(2));
                self.line(indent, &format!("{v} = {e};"));
            }
        }
    }

    fn block(&mut self, depth: u32, indent: usize, in_loop: bool, exit: Option<&str>) {
        for _ in 0..1 + self.next(3) {
            self.stmt(depth, indent, in_loop, exit);
        }
    }
}

fn kernel(seed: u64) -> String {
    let mut g = Gen { state: seed | 1, loops: 0, text: String::new() };
    g.text.push_str("//@ buffer out: i32[128]\n");
    g.text.push_str("__device__ int f(int a, int b) {\n    int s = 0;\n    for (int k = 0; k < (a & 3); k++) {\n        s = s + b;\n    }\n    if (a > b) {\n        return s - a;\n    }\n    return s + (b & 7);\n}\n");
    g.text.push_str("__global__ void generated(int* out) {\n    int t = threadIdx.x;\n    int x0 = t;\n    int x1 = t * 3 + 1;\n    int x2 = 7;\n    int x3 = 0;\n");
    g.block(3, 1, false, None);
    g.line(1, "out[t + 96] = x0 + x1 + x2 + x3;");
    g.text.push_str("}\n");
    g.text
}

/// Final registers of every lane and every buffer word.
fn run(text: &str, target: Target, if_convert: bool) -> (Vec<u32>, Vec<u32>) {
    run_model(text, ModelKind::Kepler, target, if_convert)
}

fn run_model(text: &str, model: ModelKind, target: Target, if_convert: bool) -> (Vec<u32>, Vec<u32>) {
    run_with(text, LaunchOptions { model: Some(model), ..LaunchOptions::default() }, target, if_convert)
}

fn run_with(text: &str, opts: LaunchOptions, target: Target, if_convert: bool) -> (Vec<u32>, Vec<u32>) {
    let model = opts.model.unwrap_or(ModelKind::Kepler);
    let (k, d) = parse_kernel_with(text, &SourceOptions { target: Some(target), if_convert: Some(if_convert), ..SourceOptions::default() });
    assert!(d.iter().all(|d| !d.is_error()), "{d:?}\n{text}");
    let opts = LaunchOptions { step_limit: 1_000_000, ..opts };
    let mut sim = launch(&k, &opts).expect("launch");
    let stop = sim.run_to_end();
    assert_eq!(stop, StopReason::Exited, "{model:?} on {target:?} code, if-convert {if_convert}\n{text}");
    let m = &sim.state().machine;
    let regs =
        (0..32).flat_map(|lane| (0..200u8).map(move |r| (lane, r))).map(|(lane, r)| m.reg(lane, warpscope_core::isa::Reg(r))).collect();
    (regs, m.memory.words.concat())
}

/// Nested early returns can make STRUCT copy the rest of the kernel for every path: past its
/// growth limit it refuses with a located error (`core/tests/structure.rs`), and has no run.
fn past_struct_limit(text: &str) -> bool {
    let (k, _) =
        parse_kernel_with(text, &SourceOptions { target: Some(Target::Plain), if_convert: Some(false), ..SourceOptions::default() });
    warpscope_core::structure::structure(&k.program).is_err_and(|e| e.message.contains("past its limit"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 160, ..ProptestConfig::default() })]

    #[test]
    fn every_target_computes_the_same(seed in any::<u64>()) {
        let text = kernel(seed);
        for ifc in [false, true] {
            let (kr, km) = run(&text, Target::Kepler, ifc);
            let (pr, pm) = run(&text, Target::Plain, ifc);
            prop_assert_eq!(&km, &pm, "memory, if-convert {}\n{}", ifc, text);
            prop_assert_eq!(&kr, &pr, "registers, if-convert {}\n{}", ifc, text);
        }
        let (_, m0) = run(&text, Target::Kepler, false);
        let (_, m1) = run(&text, Target::Kepler, true);
        prop_assert_eq!(m0, m1, "memory with and without if-conversion\n{}", text);
    }

    #[test]
    fn every_model_computes_the_same(seed in any::<u64>()) {
        let text = kernel(seed);
        let (kr, km) = run(&text, Target::Kepler, false);
        for &model in ModelKind::ALL {
            if model == ModelKind::Struct && past_struct_limit(&text) {
                continue;
            }
            let (r, m) = run_model(&text, model, model.compile_target(), false);
            prop_assert_eq!(&km, &m, "memory under {:?}\n{}", model, text);
            // STRUCT's cuts keep their guards in registers the kernel never names.
            if model != ModelKind::Struct {
                prop_assert_eq!(&kr, &r, "registers under {:?}\n{}", model, text);
            }
        }
        // The policies change the order lanes run in, never the result.
        let pdom = LaunchOptions { model: Some(ModelKind::Pdom), path_order: PathOrder::FallThroughFirst, ..LaunchOptions::default() };
        prop_assert_eq!(&km, &run_with(&text, pdom, Target::Plain, false).1, "pdom fall-through first\n{}", text);
        for schedule in [GroupOrder::LowestPc, GroupOrder::RoundRobin] {
            let volta = LaunchOptions { model: Some(ModelKind::Volta), group_order: schedule, ..LaunchOptions::default() };
            prop_assert_eq!(&km, &run_with(&text, volta, Target::Volta, false).1, "volta {:?}\n{}", schedule, text);
        }
    }
}
