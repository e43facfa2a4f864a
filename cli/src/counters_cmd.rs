//! `counters`: Nsight Compute's per-instruction counters over the whole launch
//! (`warpscope_core::counters`), every launch of a program or `--launch N`'s, as a table, as
//! CSV keyed by address and line (ncu's source page's columns), or as JSON.

use std::process::ExitCode;

use warpscope_core::counters::Counts;
use warpscope_core::session::counters::{counters as count, LaunchCounts, COUNTER_NAMES};

use crate::load::{render, Common};

/// The counts in `COUNTER_NAMES`' order.
fn values(c: &Counts) -> [u64; 5] {
    [c.inst_executed, c.thread_inst_executed, c.thread_inst_executed_pred_on, c.branch_targets, c.branch_targets_divergent]
}

/// A CSV field, quoted (an instruction's text has commas).
fn quoted(s: &str) -> String {
    format!("\"{}\"", s.replace('"', "\"\""))
}

pub fn counters(common: &Common, csv: bool, json: bool) -> Result<ExitCode, String> {
    let (request, r) = common.resolve(false)?;
    let file = common.source_name();
    let launches = count(&r, common.launch.map(|n| n - 1)).map_err(|d| render(&file, &request.text, &d).trim_end().to_string())?;
    if json {
        out!("{}", serde_json::to_value(&launches).map_err(|e| e.to_string())?);
    } else if csv {
        print_csv(&launches);
    } else {
        print_table(&launches, &file, r.model.name());
    }
    Ok(ExitCode::SUCCESS)
}

fn print_csv(launches: &[LaunchCounts]) {
    let names: Vec<String> = COUNTER_NAMES.iter().map(|n| quoted(n.title)).collect();
    out!("\"Launch\",\"Kernel\",\"Address\",\"Line\",\"Source\",{}", names.join(","));
    for l in launches {
        let launch = l.launch.map_or(0, |k| k + 1);
        for i in &l.instructions {
            let v: Vec<String> = values(&i.counts).iter().map(u64::to_string).collect();
            out!("{launch},{},\"{:#06x}\",{},{},{}", quoted(&l.kernel), i.addr, i.line, quoted(&i.text), v.join(","));
        }
    }
}

fn print_table(launches: &[LaunchCounts], file: &str, model: &str) {
    out!("# ncu's source counters of {file} under {model}: per instruction, then the launch's totals (ncu's metric names)");
    for l in launches {
        let which = l.launch.map_or_else(String::new, |k| format!(" (launch {})", k + 1));
        out!("== {}{which}: {}", l.kernel, l.end);
        out!(
            "  {:<7} {:>5} {:>10} {:>12} {:>12} {:>8} {:>8}  instruction",
            "address",
            "line",
            "inst",
            "threads",
            "pred on",
            "targets",
            "diverg."
        );
        for i in &l.instructions {
            let [a, b, c, d, e] = values(&i.counts);
            out!("  {:#06x}  {:>5} {a:>10} {b:>12} {c:>12} {d:>8} {e:>8}  {}", i.addr, i.line, i.text);
        }
        // The metrics count a released BSYNC's waiting threads again, and a conditional
        // branch's threads as predicated on only where its condition held too
        // (`Counts::metrics`); the source page does neither.
        for (name, v) in COUNTER_NAMES.iter().zip(l.total.metrics()) {
            out!("  {:<50} {v}", format!("{}.sum", name.metric));
        }
    }
}
