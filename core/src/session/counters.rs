//! The per-instruction counters (`crate::counters`) of a resolved request: every launch of its
//! program, each from what `main` gave it, or its kernel's launch alone; each instruction with
//! its address and line, as ncu's source page lists them. The CLI's `counters` comes here.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::request::Resolved;
use crate::counters::{count_launch, Counts};
use crate::diag::Diagnostic;

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
        return Ok(alloc::vec![of_launch(crate::grid::Launcher::new(&r.kernel, &r.options)?, name, None)]);
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

fn of_launch(launcher: crate::grid::Launcher, kernel: String, launch: Option<u32>) -> LaunchCounts {
    let (counters, run) = count_launch(launcher);
    let program = &run.program;
    // A part of a real SASS instruction's sequence is counted with its first, at its address.
    let instructions = (0..program.len() as u32)
        .map(crate::isa::Pc)
        .filter(|&pc| !program.continues(pc))
        .map(|pc| {
            let text = program.get(pc).map_or_else(String::new, |x| x.text.clone());
            InstructionCounts { addr: program.addr(pc), line: program.line(pc).unwrap_or(0), text, counts: counters.by_pc[pc.index()] }
        })
        .collect();
    LaunchCounts { kernel, launch, end: String::from(run.end.reason.name()), instructions, total: counters.total() }
}
