//! The counters (`counters`) of nvcc's own SASS, each launch run with what its program's
//! `main()` gave it, held to what Nsight Compute counted on the H100 (`examples/ncu/gpu`, made
//! by `scripts/h100_ncu.sh`: ncu 2025.3.1, H100 80GB HBM3): every launch's five metrics and
//! every instruction's source counters, under volta.

use std::path::PathBuf;

use warpscope_core::counters::{count_launch, Counters};
use warpscope_core::host::{relaunch, run_program_code, Code};
use warpscope_core::isa::{Op, Pc};
use warpscope_core::model::ModelKind;
use warpscope_core::program::Program;
use warpscope_core::LaunchOptions;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples/ncu")
}

/// The fields of a CSV line, each quoted (`"1,376"`) or not.
fn fields(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => out.push(std::mem::take(&mut cur)),
            c => cur.push(c),
        }
    }
    out.push(cur);
    out
}

/// ncu's number: thousands separated by commas; `-` or nothing is 0.
fn number(s: &str) -> u64 {
    let digits: String = s.chars().filter(|c| *c != ',').collect();
    digits.trim().parse().unwrap_or(0)
}

const METRICS: [&str; 5] = [
    "smsp__inst_executed.sum",
    "smsp__thread_inst_executed.sum",
    "smsp__thread_inst_executed_pred_on.sum",
    "smsp__sass_branch_targets.sum",
    "smsp__sass_branch_targets_threads_divergent.sum",
];

const SOURCE: [&str; 3] = ["Instructions Executed", "Thread Instructions Executed", "Predicated-On Thread Instructions Executed"];

/// Each launch's five metrics, in launch order (a header line, a units line, then a line each).
fn metrics(name: &str) -> Vec<[u64; 5]> {
    let text = std::fs::read_to_string(dir().join(format!("gpu/{name}.raw.csv"))).unwrap();
    let mut lines = text.lines();
    let header = fields(lines.next().unwrap());
    let cols: Vec<usize> = METRICS.iter().map(|m| header.iter().position(|h| h == m).unwrap()).collect();
    lines.skip(1).map(fields).map(|f| std::array::from_fn(|k| number(&f[cols[k]]))).collect()
}

/// Launch `k`'s source page: each instruction's offset in the kernel and its three counts (the
/// page's first section: ncu prints it twice).
fn source(name: &str, k: usize, launches: usize) -> Vec<(u32, String, [u64; 3])> {
    let file = if launches == 1 { format!("gpu/{name}.source.csv") } else { format!("gpu/{name}.source.{k}.csv") };
    let text = std::fs::read_to_string(dir().join(file)).unwrap();
    let mut lines = text.lines().skip(1);
    let header = fields(lines.next().unwrap());
    let col = |n: &str| header.iter().position(|h| h == n).unwrap();
    let cols = SOURCE.map(col);
    let mut rows = Vec::new();
    for f in lines.map(fields).take_while(|f| f[0] != "Kernel Name") {
        let addr = u64::from_str_radix(f[0].trim_start_matches("0x"), 16).unwrap();
        rows.push((addr, f[1].trim().to_string(), cols.map(|c| number(&f[c]))));
    }
    let base = rows.first().map_or(0, |r| r.0);
    rows.into_iter().map(|(a, text, c)| ((a - base) as u32, text, c)).collect()
}

/// The instruction at a dump's address (a sequence's first part).
fn at(program: &Program, addr: u32) -> Option<Pc> {
    (0..program.len() as u32).map(Pc).find(|&pc| program.addr(pc) == addr && !program.continues(pc))
}

struct Launch {
    name: String,
    k: usize,
    counters: Counters,
    program: Program,
}

/// Every launch of every program, counted.
fn counted() -> Vec<Launch> {
    let mut names: Vec<String> =
        std::fs::read_dir(dir()).unwrap().filter_map(|e| e.ok()?.file_name().to_str()?.strip_suffix(".cu").map(String::from)).collect();
    names.sort();
    assert!(names.len() >= 15, "the corpus has {} programs", names.len());
    let opts = LaunchOptions { model: Some(ModelKind::Volta), record: false, ..LaunchOptions::default() };
    let mut out = Vec::new();
    for name in names {
        let cuda = std::fs::read_to_string(dir().join(format!("{name}.cu"))).unwrap();
        let sass = std::fs::read_to_string(dir().join(format!("gpu/{name}.sass"))).unwrap();
        let code = Code { cuda: &cuda, sass: Some(&sass) };
        let run = run_program_code(code, &opts).unwrap_or_else(|d| panic!("{name}: {d:?}"));
        let gpu = std::fs::read_to_string(dir().join(format!("gpu/{name}.stdout"))).unwrap();
        assert_eq!(run.stdout, gpu, "{name} prints what it printed on the H100");
        for (k, l) in run.launches.iter().enumerate() {
            let (counters, launch) = count_launch(relaunch(code, l, &opts).unwrap());
            out.push(Launch { name: name.clone(), k, counters, program: launch.program });
        }
    }
    out
}

#[test]
fn every_launch_counts_what_ncu_counted_on_the_h100() {
    let launches = counted();
    let mut report = Vec::new();
    let mut rows_checked = 0;
    for l in &launches {
        let gpu = metrics(&l.name);
        let want = gpu[l.k];
        let t = l.counters.total();
        let got = t.metrics();
        let rows = source(&l.name, l.k, gpu.len());
        let sums: [u64; 3] = std::array::from_fn(|c| rows.iter().map(|r| r.2[c]).sum());
        if got != want {
            report.push(format!("{} launch {}: {got:?}, the H100 {want:?}", l.name, l.k));
        }
        // Each instruction, as the source page counts it: without the threads a released
        // `BSYNC` counts again (`Counts::thread_recounted`). Where the page counts fewer warp
        // instructions than the metric (bitonic_sort by 600, two of bfs's launches by 1 and 2),
        // its `BSYNC` and `EXIT` rows miss some issues, which the metric and the simulator's
        // totals have: those rows are not held.
        assert_eq!(sums[1] + t.thread_recounted, want[1], "{} launch {}: the page's threads and those counted again", l.name, l.k);
        let page_agrees = sums[0] == want[0];
        for (addr, text, counts) in &rows {
            let Some(pc) = at(&l.program, *addr) else {
                assert_eq!(counts[0], 0, "{} launch {}: {text} at {addr:#x} ran on the H100", l.name, l.k);
                continue;
            };
            let c = l.counters.by_pc[pc.index()];
            let mine = [c.inst_executed, c.thread_inst_executed, c.thread_inst_executed_pred_on];
            let reissued = matches!(l.program.get(pc).unwrap().op, Op::Bsync { .. } | Op::Exit);
            if mine != *counts && (page_agrees || !reissued) {
                report.push(format!("{} launch {} {addr:#06x} {text}: {mine:?}, the H100 {counts:?}", l.name, l.k));
            }
            rows_checked += 1;
        }
    }
    assert!(launches.len() >= 337 && rows_checked > 50_000, "{} launches, {rows_checked} instructions", launches.len());
    assert!(report.is_empty(), "{} differences:\n{}", report.len(), report.join("\n"));
}
