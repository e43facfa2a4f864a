//! Calibration: the timing model's parameters from the H100 microbenchmarks
//! (`calibration/h100/micro.cu`). Each parameter comes from one pair of measurements that
//! differ in little but the thing it prices (64 dependent FADDs against 32, a loop of 64 trips
//! against 32, ...): the fit runs the model on the real SASS of both kernels (`nvdisasm` of the
//! build the GPU ran) and takes the value whose predicted difference is nearest the measured one.
//! Differences cancel what both kernels share (the clock reads, loads still in flight when the
//! timed region starts). Parameters are fitted in the order of `STEPS`, twice over, so those
//! that share kernels settle.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::params::{Params, COUNT, P};
use crate::kernel::parse_kernel;
use crate::launch::{launch, LaunchOptions};
use crate::model::ModelKind;
use crate::sim::CostModel;

/// One measured microbenchmark run: thread 0's cycles, the median of its launches.
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    pub kernel: String,
    pub pattern: String,
    pub x: i64,
    pub cycles: f64,
}

/// Reads `raw.csv` (`kernel,pattern,x,t0_min,t0_median,...`).
pub fn read_raw(csv: &str) -> Result<Vec<Measured>, String> {
    let mut lines = csv.lines().filter(|l| !l.trim().is_empty());
    let header: Vec<&str> = lines.next().ok_or("the measurements are empty")?.split(',').collect();
    let col = |n: &str| header.iter().position(|c| *c == n).ok_or_else(|| format!("the header has no `{n}` column"));
    let (k, p, x, t) = (col("kernel")?, col("pattern")?, col("x")?, col("t0_median")?);
    lines
        .enumerate()
        .map(|(i, l)| {
            let c: Vec<&str> = l.split(',').collect();
            let cell = |j: usize| c.get(j).copied().ok_or_else(|| format!("line {}: too few columns", i + 2));
            Ok(Measured {
                kernel: cell(k)?.to_string(),
                pattern: cell(p)?.to_string(),
                x: cell(x)?.parse().map_err(|_| format!("line {}: x is not a whole number", i + 2))?,
                cycles: cell(t)?.parse().map_err(|_| format!("line {}: t0_median is not a number", i + 2))?,
            })
        })
        .collect()
}

/// One run of a microbenchmark: kernel, input pattern and x (as `micro.cu`'s `inputs` sets
/// them); what is read of it is thread 0's window.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Run {
    pub kernel: &'static str,
    pub pattern: &'static str,
    pub x: i64,
}

const fn run(kernel: &'static str, pattern: &'static str, x: i64) -> Run {
    Run { kernel, pattern, x }
}

/// A parameter, the two runs whose difference measures it and what they are.
pub struct Step {
    pub param: P,
    pub from: Run,
    pub to: Run,
    pub how: &'static str,
}

const fn step(param: P, from: Run, to: Run, how: &'static str) -> Step {
    Step { param, from, to, how }
}

/// The parameters in the order they are fitted.
pub const STEPS: &[Step] = &[
    step(P::LatFp32, run("fadd_32", "fixed", 32), run("fadd_64", "fixed", 64), "a chain of 64 dependent FADDs against 32"),
    step(P::LatInt, run("iadd_32", "int", 32), run("iadd_64", "int", 64), "a chain of 32 dependent IADD3s against 16"),
    step(P::LatImad, run("imad_32", "int", 32), run("imad_64", "int", 64), "a chain of 64 dependent IMADs against 32"),
    step(P::LatMufu, run("mufu_32", "fixed", 32), run("mufu_64", "fixed", 64), "a chain of 64 dependent MUFU.EX2s against 32"),
    step(
        P::LatConversion,
        run("i2f_16", "int", 16),
        run("i2f_32", "int", 32),
        "a chain of 32 I2FP/F2I pairs against 16 (I2FP runs on the FMA pipe)",
    ),
    step(P::LatBitcount, run("popc_32", "int", 32), run("popc_64", "int", 64), "a chain of 64 dependent POPCs against 32"),
    step(P::LatFp64, run("dadd_32", "int", 32), run("dadd_64", "int", 64), "a chain of 64 dependent DADDs against 32"),
    step(P::IntervalFp32, run("fadd_ind_4", "fixed", 4), run("fadd_ind_8", "fixed", 8), "8 independent FADD chains, 64 FADDs against 32"),
    step(P::IntervalInt, run("iadd_ind_4", "int", 4), run("iadd_ind_8", "int", 8), "8 independent IADD3 chains, 32 IADD3s against 16"),
    step(P::IntervalImad, run("imad_ind_4", "int", 4), run("imad_ind_8", "int", 8), "8 independent IMAD chains, 64 IMADs against 32"),
    step(P::IntervalMufu, run("mufu_ind_4", "fixed", 4), run("mufu_ind_8", "fixed", 8), "8 independent MUFU.EX2 chains, 64 against 32"),
    step(P::IntervalFp64, run("dadd_ind_4", "int", 4), run("dadd_ind_8", "int", 8), "8 independent DADD chains, 64 DADDs against 32"),
    step(P::LatShared, run("lds_16", "chase", 16), run("lds_32", "chase", 32), "a pointer chase through shared memory, 32 LDS against 16"),
    step(
        P::LatL2,
        run("ldg_l2_8", "chase", 8),
        run("ldg_l2_16", "chase", 16),
        "a pointer chase (ld.global.cg) over lines the host wrote before the launch, 16 steps against 8",
    ),
    step(
        P::LatDram,
        run("ldg_dram_8", "cold", 8),
        run("ldg_dram_16", "cold", 16),
        "a pointer chase over lines flushed out of L2 by a 256 MiB write, 16 steps against 8",
    ),
    step(
        P::IntervalMemory,
        run("ldg_ind_16", "chase", 16),
        run("ldg_ind_32", "chase", 32),
        "32 independent loads against 16 (a crude fit: 16 loads issue in 84 cycles, 32 in 417 to 428 from run to run)",
    ),
    step(P::LatSpecial, run("s2r_16", "int", 16), run("s2r_32", "int", 32), "a chain of 32 S2R SR_CLOCKLO + IADD3 links against 16"),
    step(P::LatWarp, run("shfl_16", "int", 16), run("shfl_32", "int", 32), "a chain of 32 dependent SHFL.IDX against 16"),
    step(P::LatVote, run("vote_16", "int", 16), run("vote_32", "int", 32), "a chain of 32 ISETP + VOTE.ANY links against 16"),
    step(P::Barrier, run("bar_8", "fixed", 8), run("bar_16", "fixed", 16), "16 BAR.SYNCs against 8, one warp"),
    step(
        P::IntervalClock,
        run("clock_only", "fixed", 0),
        run("clock_only", "fixed", 0),
        "two clock reads back to back (the absolute value)",
    ),
];

/// The costs of control flow, fitted together (no microbenchmark isolates one of them: a
/// branch's cost shows only with the instructions around it), each from where the search
/// starts and why.
pub const CONTROL: &[(P, u16, &str)] = &[
    (P::ResolveTaken, 23, "a rolled loop costs 27 cycles a trip: IADD3 to ISETP (4), ISETP to the loop's head"),
    (P::ResolveNotTaken, 20, "a branch that falls through on a fresh predicate costs about as much"),
    (P::BranchTaken, 12, "taken BRAs in a row whose predicate was ready long before: about 12 cycles each"),
    (P::BranchNotTaken, 1, "a BRA whose predicate was ready long before falls through at once"),
    (P::BranchInFlight, 8, "16 dependent FADDs inside an if cost about 10 cycles more than outside it"),
    (P::BranchInterval, 10, "taken BRAs in a row, each to the next, are 10 cycles apart"),
    (P::LineEnd, 5, "a loop whose head is the last slot of its 128-byte line costs 2 cycles more a trip"),
    (P::Bsync, 14, "ifs in a row whose branches jump to their BSYNCs: about 28 cycles each"),
    (P::BarrierToBssy, 34, "the first if after __syncthreads() costs 8 cycles more than those after it"),
    (P::Switch, 15, "each divergent loop exit adds 13 cycles"),
    (
        P::SwitchToBarrier,
        17,
        "an if whose one lane runs the body first costs about 20 cycles more than the lanes that skip it running first",
    ),
];

/// The control-flow microbenchmarks the control costs are fitted to, every run whole.
pub const CONTROL_RUNS: &[Run] = &[
    run("loop_fadd", "uniform", 0),
    run("loop_fadd", "uniform", 1),
    run("loop_fadd", "uniform", 2),
    run("loop_fadd", "uniform", 8),
    run("loop_fadd", "uniform", 32),
    run("loop_fadd", "uniform", 64),
    run("loop_pad@mid", "uniform", 32),
    run("loop_pad@mid", "uniform", 64),
    run("loop_pad@end", "uniform", 32),
    run("loop_pad@end", "uniform", 64),
    run("bra_uniform_8", "uniform", 1),
    run("bra_uniform_16", "uniform", 1),
    run("ifonly_32", "lanes_lt_k", 0),
    run("ifonly_32", "lanes_lt_k", 32),
    run("ifonly_32", "lanes_lt_k", 1),
    run("ifonly_32", "lanes_lt_k", 17),
    run("ifelse_16", "lanes_lt_k", 0),
    run("ifelse_16", "lanes_lt_k", 32),
    run("ifelse_16", "lanes_lt_k", 1),
    run("ifelse_16", "lanes_lt_k", 16),
    run("ifelse_32", "lanes_lt_k", 1),
    run("loop_fadd", "table1", 0),
    run("loop_fadd", "table1", 1),
    run("loop_fadd", "table1", 2),
    run("loop_fadd", "table1", 31),
    run("loop_fadd8", "uniform", 1),
    run("loop_fadd8", "uniform", 8),
    run("bra_uniform_8", "uniform", 0),
    run("seqif_1", "q", 0),
    run("seqif_1", "q", 2000),
    run("seqif_2", "q", 0),
    run("seqif_2", "q", 2000),
    run("seqif_4", "q", 0),
    run("seqif_4", "q", 2000),
    run("seqif_8", "q", 0),
    run("seqif_8", "q", 2000),
    run("depif_1", "q", 0),
    run("depif_1", "q", 2130706432),
    run("depif_2", "q", 0),
    run("depif_2", "q", 2130706432),
    run("depif_4", "q", 0),
    run("depif_4", "q", 2130706432),
    run("depif_8", "q", 0),
    run("depif_8", "q", 2130706432),
    run("tl_depif", "q", 0),
    run("tl_depif", "q", 2130706432),
];

/// Runs no parameter is fitted to: the checks a fit is judged by.
pub const HELD_OUT: &[Run] = &[
    run("fmul_32", "fixed", 32),
    run("fmul_64", "fixed", 64),
    run("ffma_64", "fixed", 64),
    run("lop3_32", "int", 32),
    run("shf_64", "int", 64),
    run("setp_32", "int", 32),
    run("dfma_64", "int", 64),
    run("bra_uniform_16", "uniform", 0),
    run("loop_fadd8", "uniform", 32),
    run("loop_fadd", "groups", 8),
    run("loop_fadd", "groups", 31),
    run("ifonly_32", "lanes_lt_k", 31),
    run("ifelse_32", "lanes_lt_k", 16),
    run("hold_threeway", "three", 4),
    run("hold_threeway", "three", 16),
    run("hold_threeway", "three", 24),
    run("hold_loop_if", "loop_if", 16),
    run("hold_nested_break", "break", 8),
    run("hold_nested_break", "break", 24),
    run("hold_mixed_unrolled", "mixed", 5),
    run("hold_mixed_unrolled", "mixed", 31),
    run("hold_mixed_unrolled", "mixed", 37),
    run("hold_loop4", "table1", 8),
    run("hold_loop4", "table1", 31),
    run("hold_switch4", "uniform", 2),
    run("hold_switch4", "uniform", 4),
    run("parked_loop", "parked", 0),
    run("parked_loop", "unparked", 0),
    run("parked_loop", "parked", 1),
    run("parked_loop", "unparked", 1),
    run("parked_loop", "parked", 2),
    run("parked_loop", "unparked", 2),
    run("parked_loop", "parked", 4),
    run("parked_loop", "unparked", 4),
    run("parked_loop", "parked", 8),
    run("parked_loop", "unparked", 8),
    run("tl_parked", "parked", 0),
    run("tl_parked", "parked", 1),
    run("tl_parked", "parked", 2),
    run("tl_parked", "parked", 4),
    run("tl_parked", "parked", 8),
    run("unr_ffma_outer", "uniform", 0),
    run("unr_ffma_outer", "uniform", 1),
    run("unr_ffma_outer", "uniform", 3),
    run("unr_ffma_outer", "uniform", 4),
    run("unr_ffma_outer", "uniform", 8),
    run("unr_ffma_outer", "uniform", 12),
    run("unr_ffma_outer", "uniform", 16),
    run("unr_ffma_outer", "uniform", 20),
    run("unr_ffma_outer", "uniform", 32),
    run("unr_ffma_outer", "table1", 0),
    run("unr_ffma_outer", "table1", 1),
    run("unr_ffma_outer", "table1", 8),
    run("unr_ffma_outer", "table1", 22),
    run("unr_ffma_outer", "table1", 31),
    run("tl_threeway", "three", 0),
    run("tl_threeway", "three", 4),
    run("tl_threeway", "three", 16),
    run("tl_threeway", "three", 24),
    // Measured after the rule for parked lanes, to test it.
    run("join_loop", "join", 1),
    run("join_loop", "join", 2),
    run("join_loop", "join", 3),
    run("join_loop", "join", 6),
    run("join_loop", "join_few", 1),
    run("join_loop", "join_few", 2),
    run("join_loop", "join_few", 3),
    run("join_loop", "join_few", 6),
    run("join_loop", "early", 1),
    run("join_loop", "early", 2),
    run("join_loop", "early", 3),
    run("join_loop", "early", 6),
    run("join_loop", "early_few", 1),
    run("join_loop", "early_few", 2),
    run("join_loop", "early_few", 3),
    run("join_loop", "early_few", 6),
];

/// Held-out runs of a kernel and pattern at every x from the first number to the second.
pub const HELD_OUT_SPANS: &[(&str, &str, i64, i64)] = &[("unr_ffma", "uniform", 0, 40), ("unr_ffma", "table1", 0, 31)];

/// Every held-out run: `HELD_OUT`, then `HELD_OUT_SPANS` run by run.
pub fn held_out() -> impl Iterator<Item = Run> {
    let spans = HELD_OUT_SPANS.iter().flat_map(|&(kernel, pattern, from, to)| (from..=to).map(move |x| run(kernel, pattern, x)));
    HELD_OUT.iter().copied().chain(spans)
}

/// Parameters no microbenchmark here separates, with the value taken and why.
pub const ASSUMED: &[(P, u16, &str)] = &[
    (P::LatConstant, 30, "assumed, not measured: LDC runs before every timed region here"),
    (P::LatClock, 2, "assumed, not measured: no timed instruction reads a CS2R's result; two reads are 2 cycles apart (interval.clock)"),
    (P::Bssy, 1, "assumed: BSSY's own cost is inside bsync's, which the same kernels measure"),
];

/// A value every parameter starts from, before the fit reaches it.
fn start() -> Params {
    let mut p = Params::ZERO;
    for &q in P::ALL {
        p.set(q, 1);
    }
    for &(q, v, _) in ASSUMED {
        p.set(q, v);
    }
    for q in [P::LatFp32, P::LatInt, P::LatImad, P::LatFp64, P::LatShared] {
        p.set(q, 4);
    }
    p
}

/// Sets one `micro.cu` input pattern's lane values: in[t] = p, in[32 + t] = q (`micro.cu`'s
/// `inputs`, written as buffer expressions).
fn inputs(pattern: &str) -> Option<(&'static str, &'static str)> {
    Some(match pattern {
        "fixed" => ("1065353223", "1065351538"),
        "int" => ("3 + t", "7 * t + 1"),
        "chase" => ("0", "0"),
        "cold" => ("0", "4096"),
        "uniform" => ("x", "x"),
        "lanes_lt_k" => ("x", "0"),
        "table1" => ("t < 32 - x ? 32 : 32 - (t - (31 - x))", "0"),
        "groups" => ("t == 0 || x == 0 ? 32 : 32 - t % (x + 1)", "0"),
        "three" => ("x", "x + 8"),
        "loop_if" => ("16", "x"),
        "break" => ("8", "x + (t & 7)"),
        "mixed" => ("x", "t"),
        "q" => ("0", "x"),
        "parked" => ("4 + (t > 31 - x ? t - (31 - x) : 0)", "t >= 16 ? 1 : 0"),
        "unparked" => ("4 + (t > 31 - x ? t - (31 - x) : 0)", "1"),
        "join" => ("t < 16 ? 0 : 4 + (t > 31 - x ? t - (31 - x) : 0)", "0"),
        "join_few" => ("t < 8 ? 0 : 4 + (t > 31 - x ? t - (31 - x) : 0)", "0"),
        "early" => ("t < 16 ? 0 : 8 - (t > 31 - x ? t - (31 - x) : 0)", "0"),
        "early_few" => ("t < 8 ? 0 : 8 - (t > 31 - x ? t - (31 - x) : 0)", "0"),
        _ => return None,
    })
}

/// The part of an `nvdisasm -c` dump that holds `kernel` (its section, with the dump's lines
/// before the first section: the target).
pub fn function_of(sass: &str, kernel: &str) -> Option<String> {
    let mangled = format!(".text._Z{}{}P", kernel.len(), kernel);
    let starts: Vec<usize> = sass.match_indices("//----------").map(|(i, _)| i).collect();
    let first = *starts.first()?;
    let at = starts.iter().position(|&i| sass[i..].lines().next().is_some_and(|l| l.contains(&mangled)))?;
    let end = starts.get(at + 1).copied().unwrap_or(sass.len());
    Some(format!("{}{}", &sass[..first], &sass[starts[at]..end]))
}

/// The warpscope kernel for one run: the header that sets its inputs, then the kernel's SASS.
/// `mem` holds the chase: every 32nd word of the first 4096 leads 32 words on (read before
/// the timed region), and from word 4096 the cold chase's 16 steps (never read before).
pub fn kernel_text(sass: &str, r: &Run) -> Result<String, String> {
    let (p, q) = inputs(r.pattern).ok_or_else(|| format!("unknown input pattern `{}`", r.pattern))?;
    let lane = |e: &str| e.replace('t', "(i % 32)");
    let sass = function_of(sass, r.kernel).ok_or_else(|| format!("the SASS has no kernel `{}`", r.kernel))?;
    Ok(format!(
        "//@ kernel {k}\n//@ model volta\n//@ warp 32\n//@ param x = {x}\n\
         //@ buffer arg0: i32[64] = i < 32 ? {p} : {q}\n//@ buffer arg1: f32[64]\n//@ buffer arg2: i64[256]\n\
         //@ buffer arg3: i32[4608] = i % 32 != 0 ? 0 : i < 4096 ? (i + 32) % 4096 : i - 4096 + 32\n{sass}",
        k = r.kernel,
        x = r.x,
        p = lane(p),
        q = lane(q),
    ))
}

/// A run ready to simulate: its kernel read once, for the many runs of a fit.
pub struct Prepared {
    pub run: Run,
    kernel: crate::kernel::Kernel,
}

impl Prepared {
    pub fn new(sass: &str, run: Run) -> Result<Prepared, String> {
        let run = Run { kernel: resolve(sass, run.kernel), ..run };
        let (kernel, diags) = parse_kernel(&kernel_text(sass, &run)?);
        if let Some(d) = diags.iter().find(|d| d.is_error()) {
            return Err(format!("{}: {}", run.kernel, d.message));
        }
        Ok(Prepared { run, kernel })
    }

    /// The cycles the model predicts between thread 0's clock reads.
    pub fn predict(&self, params: Params) -> Result<i64, String> {
        let r = &self.run;
        let cost = CostModel { timing: Some(params), ..CostModel::H100 };
        let opts = LaunchOptions { model: Some(ModelKind::Volta), cost: Some(cost), record: false, ..LaunchOptions::default() };
        let mut sim = launch(&self.kernel, &opts).map_err(|d| format!("{}: {}", r.kernel, d.first().map_or("", |d| d.message.as_str())))?;
        if r.pattern == "cold" {
            // The cold chase's words (from 4096 on) were flushed out of L2 by a 256 MiB write.
            let base = sim.state().machine.memory.buffers.iter().find(|b| b.name == "arg3").map(|b| (b.base, b.len));
            if let (Some((base, len)), Some(t)) = (base, sim.timing_mut()) {
                t.evict(base + 4 * 4096, base + 4 * len);
            }
        }
        match sim.run_to_end() {
            crate::sim::StopReason::Exited => {}
            other => return Err(format!("{}: the run ended with {}", r.kernel, other.name())),
        }
        Ok(sim.state().metrics.clock_window() as i64)
    }
}

/// `loop_pad@end` is the `loop_padK` whose loop starts in the last slot of a 128-byte line and
/// `loop_pad@mid` one whose loop starts mid-line: the padding that puts it there depends on the
/// build, so the SASS says which.
fn resolve(sass: &str, kernel: &'static str) -> &'static str {
    const PADS: [&str; 8] = ["loop_pad0", "loop_pad1", "loop_pad2", "loop_pad3", "loop_pad4", "loop_pad5", "loop_pad6", "loop_pad7"];
    let want = match kernel {
        "loop_pad@end" => 7,
        "loop_pad@mid" => 3,
        _ => return kernel,
    };
    // The loop's head: the label a BRA after it jumps back to; its slot in the 128-byte line.
    let slot = |name: &str| {
        let f = function_of(sass, name)?;
        let addr = |l: &str| l.trim().strip_prefix("/*").and_then(|a| a.split('*').next()).and_then(|a| u32::from_str_radix(a, 16).ok());
        let lines: Vec<&str> = f.lines().collect();
        let head = lines.iter().enumerate().find_map(|(i, l)| {
            let label = l.trim().strip_suffix(':').filter(|l| l.starts_with(".L_x_"))?;
            let at = lines[i + 1..].iter().find_map(|l| addr(l))?;
            let back = lines[i + 1..].iter().any(|l| l.contains("BRA") && l.contains(&format!("`({label})")));
            back.then_some(at)
        })?;
        Some(head % 128 / 16)
    };
    PADS.iter().find(|k| slot(k) == Some(want)).copied().unwrap_or(kernel)
}

/// One fitted parameter: its value, how it was measured and how well the model then agrees.
#[derive(Clone, Debug, PartialEq)]
pub struct Fitted {
    pub param: P,
    pub value: u16,
    pub how: String,
    /// The measured and predicted difference between the step's two runs (None if assumed).
    pub agreement: Option<(f64, i64)>,
}

/// Everything the fit reads of what the GPU measured (`raw.csv`; the timelines, `timeline.csv`,
/// are for reading by eye).
pub struct Measurements {
    pub raw: Vec<Measured>,
}

impl Measurements {
    pub fn read(raw: &str) -> Result<Measurements, String> {
        Ok(Measurements { raw: read_raw(raw)? })
    }

    /// What the GPU measured for a run.
    pub fn of(&self, r: &Run) -> Result<f64, String> {
        let missing = || format!("no measurement of {} ({} {})", r.kernel, r.pattern, r.x);
        self.raw.iter().find(|m| m.kernel == r.kernel && m.pattern == r.pattern && m.x == r.x).map(|m| m.cycles).ok_or_else(missing)
    }
}

/// The difference a step measures: `to - from`, or `to` alone when both are the same run.
fn difference(from: f64, to: f64, same: bool) -> f64 {
    if same {
        to
    } else {
        to - from
    }
}

/// How far the model is from the GPU over runs: the sum of squared relative errors (a short
/// run counts as much as a long one: the targets are relative).
fn total_error(runs: &[(Prepared, f64)], params: Params) -> Result<f64, String> {
    let mut sum = 0.0;
    for (r, want) in runs {
        let d = (r.predict(params)? as f64 - want) / want;
        sum += d * d;
    }
    Ok(sum)
}

/// One calibration run as the fit left it.
#[derive(Clone, Debug, PartialEq)]
pub struct Residual {
    pub run: Run,
    pub measured: f64,
    pub predicted: i64,
    /// A run no parameter was fitted to.
    pub held_out: bool,
}

/// Fits every parameter of `STEPS` from the measurements (the rest are `ASSUMED`): first each
/// from its own pair, in order, then all together, a cycle at a time, to the least squared relative
/// error over every run of every step.
pub fn fit(m: &Measurements, sass: &str) -> Result<(Params, Vec<Fitted>, Vec<Residual>), String> {
    let mut params = start();
    let prepare = |r: &Run| Prepared::new(sass, *r);
    let steps: Vec<(P, Prepared, Prepared, f64, bool, &str)> = STEPS
        .iter()
        .map(|s| {
            let (from, to) = (prepare(&s.from)?, prepare(&s.to)?);
            let same = s.from == s.to;
            let want = difference(m.of(&from.run)?, m.of(&to.run)?, same);
            Ok((s.param, from, to, want, same, s.how))
        })
        .collect::<Result<_, String>>()?;
    for _round in 0..2 {
        for (param, from, to, want, same, _) in &steps {
            let mut best: Option<(f64, u16)> = None;
            // A pipe is busy at least the cycle it issues in.
            let least = if param.name().starts_with("interval.") { 1 } else { 0 };
            for v in least..=1000u16 {
                params.set(*param, v);
                let got = difference(from.predict(params)? as f64, to.predict(params)? as f64, *same);
                let err = (got - want).abs();
                if best.is_none_or(|(e, _)| err < e) {
                    best = Some((err, v));
                }
                // Every parameter only adds cycles: past the measured difference, larger is worse.
                if got > want + 64.0 {
                    break;
                }
            }
            params.set(*param, best.map_or(0, |b| b.1));
        }
    }
    // The control costs together, a cycle at a time from where `CONTROL` starts them, to the
    // least squared relative error over the control-flow runs.
    for &(p, v, _) in CONTROL {
        params.set(p, v);
    }
    let runs: Vec<(Prepared, f64)> = CONTROL_RUNS
        .iter()
        .map(|r| {
            let p = prepare(r)?;
            let want = m.of(&p.run)?;
            Ok((p, want))
        })
        .collect::<Result<_, String>>()?;
    let mut error = total_error(&runs, params)?;
    for _pass in 0..40 {
        let mut improved = false;
        for &(param, ..) in CONTROL {
            for delta in [-4i32, -2, -1, 1, 2, 4] {
                let v = params.get(param) as i32 + delta;
                if v < 0 {
                    continue;
                }
                let mut trial = params;
                trial.set(param, v as u16);
                let e = total_error(&runs, trial)?;
                if e + 1e-9 < error {
                    (params, error, improved) = (trial, e, true);
                }
            }
        }
        if !improved {
            break;
        }
    }
    let mut out = Vec::new();
    for &p in P::ALL {
        if let Some((_, from, to, want, same, how)) = steps.iter().find(|s| s.0 == p) {
            let got = difference(from.predict(params)? as f64, to.predict(params)? as f64, *same);
            out.push(Fitted { param: p, value: params.get(p) as u16, how: how.to_string(), agreement: Some((*want, got as i64)) });
        } else if let Some(&(_, _, why)) = CONTROL.iter().find(|a| a.0 == p) {
            let how = format!("fitted with the other control costs to the control-flow runs (the search starts where {why})");
            out.push(Fitted { param: p, value: params.get(p) as u16, how, agreement: None });
        } else if let Some(&(_, v, why)) = ASSUMED.iter().find(|a| a.0 == p) {
            out.push(Fitted { param: p, value: v, how: why.to_string(), agreement: None });
        }
    }
    debug_assert_eq!(out.len(), COUNT);
    let mut residuals: Vec<Residual> = runs
        .iter()
        .map(|(r, want)| Ok(Residual { run: r.run, measured: *want, predicted: r.predict(params)?, held_out: false }))
        .collect::<Result<_, String>>()?;
    for r in held_out() {
        let p = prepare(&r)?;
        residuals.push(Residual { run: p.run, measured: m.of(&p.run)?, predicted: p.predict(params)?, held_out: true });
    }
    Ok((params, out, residuals))
}

/// The data file for fitted parameters: one `name cycles  # how` line each.
pub fn data_file(fitted: &[Fitted]) -> String {
    let mut s = String::from(
        "# warpscope's timing model of one warp on an NVIDIA H100 (sm_90): cycles by parameter.\n\
         # Written by `bash scripts/calibrate-h100.sh` from calibration/h100/raw.csv (measured on the GPU\n\
         # by calibration/h100/run.sh) and the SASS it ran; do not edit by hand. Each line: the\n\
         # parameter, its value, and the measurement it comes from, with the difference measured\n\
         # and the one the model then predicts, in cycles.\n",
    );
    for f in fitted {
        let agreement = f.agreement.map_or(String::new(), |(want, got)| format!(" (measured {want}, model {got})"));
        s.push_str(&format!("{:<30} {:>4}  # {}: {}{}\n", f.param.name(), f.value, f.param.doc(), f.how, agreement));
    }
    s
}
