//! How a run ended, described once: the kind, the step, where (pc, address, line) and a
//! message, for every front end (the page's strip, the CLI's stop line and JSON, a sweep's
//! stops, the compare table). A run that did not end on its own (a loop at the step limit, a
//! run the user stopped) is placed at the head of the loop it was in, not wherever the warp
//! happened to be.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::diag::Diagnostic;
use crate::isa::Pc;
use crate::model::{ModelKind, Reconvergence};
use crate::sim::{RunReport, Sim, StopReason};

/// What ended a run (or paused a replay of it).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum OutcomeKind {
    /// Every lane exited: the whole kernel ran.
    Exited,
    Deadlock,
    Fault,
    /// The step limit ended a run that was still going (an endless loop?).
    StepLimit,
    /// The user stopped a long run; it keeps the steps it ran.
    Stopped,
    /// A replay reached a breakpoint.
    Breakpoint,
    /// A replay reached a step with one of the events asked for.
    Event,
    /// A call's own step budget ran out (the run goes on).
    Budget,
    /// A replay reached the end of the recorded run.
    EndOfRecording,
    /// The run could not start: its inputs did not evaluate (a sweep's param value, say).
    InputError,
}

impl OutcomeKind {
    pub fn name(self) -> &'static str {
        match self {
            OutcomeKind::Exited => "exited",
            OutcomeKind::Deadlock => "deadlock",
            OutcomeKind::Fault => "fault",
            OutcomeKind::StepLimit => "step_limit",
            OutcomeKind::Stopped => "stopped",
            OutcomeKind::Breakpoint => "breakpoint",
            OutcomeKind::Event => "event",
            OutcomeKind::Budget => "budget",
            OutcomeKind::EndOfRecording => "end_of_recording",
            OutcomeKind::InputError => "input_error",
        }
    }
}

/// One run's end.
#[derive(Clone, PartialEq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Outcome {
    pub kind: OutcomeKind,
    /// Steps run when it ended.
    pub step: u64,
    /// Where: the faulting or deadlocked instruction, a breakpoint, or a loop's head.
    pub pc: Option<u32>,
    /// The byte address of `pc` in the listing.
    pub addr: Option<u32>,
    /// The source line of `pc` (a C line for a C kernel).
    pub line: Option<u32>,
    /// Why, in full (empty for a budget).
    pub message: String,
    /// One line for lists and the CLI: `exited after 137 steps`, `fault at 0x0088 (line 12):
    /// ...`, `stopped after 50000 steps (step limit) at 0x0040 (line 7): ...`.
    pub summary: String,
}

impl Outcome {
    fn at(sim: &Sim, kind: OutcomeKind, pc: Option<Pc>, message: String) -> Outcome {
        Outcome::placed(sim.program(), sim.steps(), kind, pc, message)
    }

    /// An end of `kind` after `step` steps, at `pc` of `prog`.
    pub fn placed(prog: &crate::program::Program, step: u64, kind: OutcomeKind, pc: Option<Pc>, message: String) -> Outcome {
        let (addr, line) = (pc.map(|p| prog.addr(p)), pc.and_then(|p| prog.line(p)));
        let summary = match kind {
            OutcomeKind::Exited => format!("exited after {step} steps"),
            OutcomeKind::Budget => format!("paused after {step} steps"),
            _ => format!("{}{}: {message}", kind.name(), place(addr, line)),
        };
        Outcome { kind, step, pc: pc.map(|p| p.0), addr, line, message, summary }
    }

    /// How `sim`, just run, ended for `reason`.
    pub fn of(sim: &Sim, reason: &StopReason) -> Outcome {
        match reason {
            StopReason::Exited => Outcome::at(sim, OutcomeKind::Exited, None, String::from("all lanes exited")),
            StopReason::Deadlock { pc, message } => Outcome::at(sim, OutcomeKind::Deadlock, Some(*pc), message.clone()),
            StopReason::Fault { pc, message, .. } => Outcome::at(sim, OutcomeKind::Fault, Some(*pc), message.clone()),
            StopReason::Breakpoint(pc) => {
                Outcome::at(sim, OutcomeKind::Breakpoint, Some(*pc), format!("breakpoint at {:#06x}", sim.program().addr(*pc)))
            }
            StopReason::StepLimit => {
                let site = sim.loop_site();
                let looping = site.as_ref().map_or(String::new(), |s| format!(": {}", s.describe(sim.program())));
                let n = sim.steps();
                let message = format!("stopped after {n} steps (the step limit) with the warp still looping{looping}: an endless loop?");
                let mut o = Outcome::at(sim, OutcomeKind::StepLimit, site.map(|s| s.head), message);
                o.summary = format!("stopped after {n} steps (step limit){}{looping}; an endless loop?", place(o.addr, o.line));
                o
            }
            StopReason::Event(bits) => Outcome::at(sim, OutcomeKind::Event, sim.state().model.pc(), crate::trace::event_names(*bits)),
            StopReason::Budget => Outcome::at(sim, OutcomeKind::Budget, None, String::new()),
        }
    }

    /// How a whole launch ended: its step, the block and warp whose step ended it, and where.
    pub fn of_launch(run: &crate::grid::LaunchRun) -> Outcome {
        let end = &run.end;
        let kind = match end.reason {
            StopReason::Exited => OutcomeKind::Exited,
            StopReason::Deadlock { .. } => OutcomeKind::Deadlock,
            StopReason::Fault { .. } => OutcomeKind::Fault,
            _ => OutcomeKind::StepLimit,
        };
        let prog = &run.program;
        let (addr, line) = (end.pc.map(|p| prog.addr(p)), end.pc.and_then(|p| prog.line(p)));
        let step = end.step;
        let summary = match kind {
            OutcomeKind::Exited => format!("exited after {step} steps"),
            OutcomeKind::StepLimit => format!("stopped after {step} steps (step limit){}: {}", place(addr, line), end.message),
            _ => format!("{}{}: {}", kind.name(), place(addr, line), end.message),
        };
        Outcome { kind, step, pc: end.pc.map(|p| p.0), addr, line, message: end.message.clone(), summary }
    }

    /// The user stopped the run here: placed at the loop it was in, if any.
    pub fn stopped(sim: &Sim) -> Outcome {
        let site = sim.loop_site();
        let where_ = site.as_ref().map_or(String::new(), |s| format!(" ({})", s.describe(sim.program())));
        let message = format!("you stopped the run after {} steps{where_}", sim.steps());
        Outcome::at(sim, OutcomeKind::Stopped, site.map(|s| s.head), message)
    }

    /// A replay reached the end of the recorded run (the warp's own end is the run's outcome).
    pub fn end_of_recording(sim: &Sim) -> Outcome {
        Outcome::at(sim, OutcomeKind::EndOfRecording, None, String::from("end of the run"))
    }

    /// The run could not start for these problems with its inputs.
    pub fn input_error(diags: &[Diagnostic]) -> Outcome {
        let message = diags.iter().map(|d| d.message.as_str()).collect::<Vec<_>>().join("; ");
        let line = diags.first().map(|d| d.span.line).filter(|l| *l > 0);
        let summary = format!("input_error: {message}");
        Outcome { kind: OutcomeKind::InputError, step: 0, pc: None, addr: None, line, message, summary }
    }

    /// The run covered the whole kernel, so metrics measured against the whole kernel (code
    /// expansion against the MIMD minimum) mean something.
    pub fn whole_run(&self) -> bool {
        self.kind == OutcomeKind::Exited
    }

    /// Warp instructions over the MIMD minimum, minus one, where that means something: a whole
    /// run, a complete reference, and a model other than the MIMD reference itself.
    pub fn code_expansion(&self, model: ModelKind, report: &RunReport) -> Option<f64> {
        self.no_code_expansion(model, report).is_none().then(|| report.code_expansion())
    }

    /// Why code expansion means nothing for this run, if it does not: a few words.
    pub fn no_code_expansion(&self, model: ModelKind, report: &RunReport) -> Option<&'static str> {
        if model == ModelKind::Mimd {
            Some("the reference")
        } else if !self.whole_run() {
            Some("stopped early")
        } else if !report.mimd_complete {
            Some("no MIMD minimum")
        } else {
            None
        }
    }
}

/// ` at 0x0088 (line 12)`, or less where less is known.
fn place(addr: Option<u32>, line: Option<u32>) -> String {
    match (addr, line) {
        (Some(a), Some(l)) => format!(" at {a:#06x} (line {l})"),
        (Some(a), None) => format!(" at {a:#06x}"),
        _ => String::new(),
    }
}
