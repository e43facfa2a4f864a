//! The per-instruction counters (`crate::counters`) of a resolved request: every launch of its
//! program, each from what `main` gave it, or its kernel's launch alone; each instruction with
//! its address and line, as ncu's source page lists them. The CLI's `counters` comes here.
//! `RunCounts` are the counters of the run the page shows, per pc: a whole launch's (every
//! block), or one warp's recorded run replayed; the page's heat column reads them.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::request::Resolved;
use crate::counters::{count_launch, Counters, Counts};
use crate::diag::Diagnostic;
use crate::grid::Launcher;
use crate::isa::Pc;
use crate::program::Program;
use crate::sim::Sim;

/// ncu's name of one count: its source page's column and its metric.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CounterName {
    /// The `Counts` field it names.
    #[cfg_attr(feature = "ts", ts(type = "keyof Counts"))]
    pub field: &'static str,
    pub title: &'static str,
    /// The metric whose `.sum` is the launch's total.
    pub metric: &'static str,
}

/// ncu's names of the counts shown, in `Counts`' order (`thread_branch_condition_off` is ours:
/// ncu has no column of its own for it).
pub const COUNTER_NAMES: [CounterName; 5] = [
    CounterName { field: "inst_executed", title: "Instructions Executed", metric: "smsp__inst_executed" },
    CounterName { field: "thread_inst_executed", title: "Thread Instructions Executed", metric: "smsp__thread_inst_executed" },
    CounterName {
        field: "thread_inst_executed_pred_on",
        title: "Predicated-On Thread Instructions Executed",
        metric: "smsp__thread_inst_executed_pred_on",
    },
    CounterName { field: "branch_targets", title: "Branch Targets", metric: "smsp__sass_branch_targets" },
    CounterName {
        field: "branch_targets_divergent",
        title: "Divergent Branch Targets",
        metric: "smsp__sass_branch_targets_threads_divergent",
    },
];

/// The counters of the run on screen, by pc of the program it runs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RunCounts {
    /// Each pc's counts; none for a later part of a SASS instruction's sequence, whose
    /// instruction is counted at the sequence's first part (ncu has one row per SASS address).
    pub by_pc: Vec<Option<Counts>>,
    pub total: Counts,
    /// Counted over the whole launch (every warp of every block), not one warp alone.
    pub whole_launch: bool,
}

impl RunCounts {
    /// Runs `launcher`'s launch again from its start, every block, counting each step.
    pub fn of_launch(launcher: Launcher) -> RunCounts {
        let (counters, run) = count_launch(launcher);
        RunCounts::new(&run.program, &counters, true)
    }

    /// A warp run alone, counted by replaying its first `steps` recorded steps (the recording is
    /// left as it is; a run that recorded nothing counts nothing).
    pub fn of_warp(sim: &Sim, steps: u64) -> RunCounts {
        let program = sim.program();
        let mut counters = Counters::new(program);
        // The replay shows each step as a launch's watch does: what issued, the warp after it.
        sim.replay(0, steps, |issued, _, st| counters.count_issued(program, issued, st));
        RunCounts::new(program, &counters, false)
    }

    fn new(program: &Program, counters: &Counters, whole_launch: bool) -> RunCounts {
        let by_pc = counters.by_pc.iter().enumerate().map(|(k, c)| (!program.continues(Pc(k as u32))).then_some(*c)).collect();
        RunCounts { by_pc, total: counters.total(), whole_launch }
    }
}

/// One instruction's counts, where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct InstructionCounts {
    /// Its address (a SASS dump's own; else the listing's, 8 bytes apart).
    pub addr: u32,
    /// Its source line (0: none).
    pub line: u32,
    pub text: String,
    pub counts: Counts,
}

/// One launch's counters.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct LaunchCounts {
    pub kernel: String,
    /// Which of a program's launches (from 0); none for a kernel run alone.
    pub launch: Option<u32>,
    /// How the launch ended (`exited`, or why not: counts of a launch cut short are its steps'
    /// so far).
    pub end: String,
    pub instructions: Vec<InstructionCounts>,
    pub total: Counts,
}

/// The counters of `r`'s run: each launch of its program (only `launch`, from 0, if given), or
/// its kernel's launch.
pub fn counters(r: &Resolved, launch: Option<u32>) -> Result<Vec<LaunchCounts>, Vec<Diagnostic>> {
    let Some(p) = &r.program else {
        let compiled = r.kernel.compiled.as_ref().and_then(|c| c.kernels.first().cloned());
        let name = r.kernel.kernel_name.as_ref().map(|(n, _)| n.clone()).or(compiled).unwrap_or_else(|| String::from("kernel"));
        return Ok(alloc::vec![of_launch(Launcher::new(&r.kernel, &r.options)?, name, None)]);
    };
    let mut out = Vec::new();
    for (k, l) in p.run.launches.iter().enumerate().filter(|(k, _)| launch.is_none_or(|n| n as usize == *k)) {
        let at = crate::diag::Span::new(l.line.max(1), 1, 1);
        let launcher = crate::host::relaunch(p.code(), l, &r.options).map_err(|why| alloc::vec![Diagnostic::error(at, why)])?;
        out.push(of_launch(launcher, l.kernel.clone(), Some(k as u32)));
    }
    if out.is_empty() {
        let message = match launch {
            Some(n) => format!("the program made {} launches: there is no launch {}", p.run.launches.len(), n + 1),
            None => String::from("`main()` made no launch"),
        };
        return Err(alloc::vec![Diagnostic::error(crate::diag::Span::new(1, 1, 1), message)]);
    }
    Ok(out)
}

fn of_launch(launcher: Launcher, kernel: String, launch: Option<u32>) -> LaunchCounts {
    let (counters, run) = count_launch(launcher);
    let program = &run.program;
    // A part of a real SASS instruction's sequence is counted with its first, at its address.
    let instructions = (0..program.len() as u32)
        .map(Pc)
        .filter(|&pc| !program.continues(pc))
        .map(|pc| {
            let text = program.get(pc).map_or_else(String::new, |x| x.text.clone());
            InstructionCounts { addr: program.addr(pc), line: program.line(pc).unwrap_or(0), text, counts: counters.by_pc[pc.index()] }
        })
        .collect();
    LaunchCounts { kernel, launch, end: String::from(run.end.reason.name()), instructions, total: counters.total() }
}
