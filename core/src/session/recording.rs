//! A recorded run and its life: loaded whole or in chunks (`resume`, `stop`), then replayed
//! (`seek`, `run_until`) and summarised (its notes placed once it ends, the report computed
//! once). The page's `Session` and the report worker hold one and only forward to it.

use alloc::vec::Vec;

use super::captions::Captions;
use super::counters::RunCounts;
use super::outcome::{Outcome, OutcomeKind};
use super::request::Resolved;
use crate::analysis::{cfg_facts, CfgFacts};
use crate::isa::Pc;
use crate::kernel::Kernel;
use crate::printf::OutputLine;
use crate::sim::{event, LaneState, Metrics, RunLimits, RunReport, Sim, StopReason};

/// A finished (or stopped) run, rewound for replay.
pub struct Loaded {
    pub kernel: Kernel,
    pub facts: CfgFacts,
    pub sim: Sim,
    /// Steps the run took.
    pub total: u64,
    /// How it ended.
    pub outcome: Outcome,
    /// The metrics at its end.
    pub end_metrics: Metrics,
    /// Where the kernel's notes show in this run.
    pub captions: Captions,
    /// What the run warns of (`run_warnings`: a shared read no lane of the warp had written),
    /// and a warning for each step or event note it never reaches, on the note's line.
    pub warnings: Vec<crate::Diagnostic>,
    /// What the run printed (`printf`), formatted once, in step order.
    pub output: Vec<OutputLine>,
    /// The comparison metrics of the whole run, computed on first request (the MIMD reference).
    report: Option<RunReport>,
    /// The run's ncu counters, counted on first request (a replay of the whole run).
    counts: Option<RunCounts>,
}

impl Loaded {
    /// The lines printed up to and including step `step`.
    pub fn output_until(&self, step: u64) -> &[OutputLine] {
        &self.output[..self.output.partition_point(|l| l.step <= step)]
    }
}

/// A run still going: `resume` continues it, `stop` keeps what it has.
struct Pending {
    kernel: Kernel,
    sim: Sim,
    /// The step it ends at as stopped (a stopped run loaded again).
    stop_at: Option<u64>,
}

impl Pending {
    /// Runs at most `budget` more steps (`None`: no budget): how the run ended, or `None` while
    /// it goes on.
    fn run(&mut self, budget: Option<u64>) -> Option<Outcome> {
        let left = self.stop_at.map(|s| s.saturating_sub(self.sim.steps()));
        let max_steps = match (budget, left) {
            (Some(b), Some(l)) => Some(b.min(l)),
            (b, l) => b.or(l),
        };
        let end = self.sim.run(&RunLimits { max_steps, ..RunLimits::default() });
        if end != StopReason::Budget {
            return Some(Outcome::of(&self.sim, &end));
        }
        let stopped = self.stop_at.is_some_and(|s| self.sim.steps() >= s);
        stopped.then(|| Outcome::stopped(&self.sim))
    }
}

/// What `run_until` stops at, besides the end of the recording and breakpoints.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Until {
    /// Only the end of the recording (breakpoints ignored).
    End,
    /// Breakpoints only.
    Breakpoint,
    /// A step with any of these event bits (`sim::event`), or a breakpoint.
    Events(u16),
}

impl Until {
    /// `end`, `breakpoint`, `divergence`, `reconvergence`, `spill`, `fill` or `event` (any).
    pub fn from_name(name: &str) -> Option<Until> {
        Some(match name {
            "end" => Until::End,
            "breakpoint" => Until::Breakpoint,
            "divergence" => Until::Events(event::DIVERGE),
            "reconvergence" => Until::Events(event::RECONVERGE),
            "spill" => Until::Events(event::SPILL),
            "fill" => Until::Events(event::FILL),
            "event" => Until::Events(event::DIVERGE | event::RECONVERGE | event::SPILL | event::FILL),
            _ => return None,
        })
    }
}

/// One kernel's recorded run, and a newer one still loading.
#[derive(Default)]
pub struct Recording {
    loaded: Option<Loaded>,
    /// A newer run than `loaded`, still running (views show `loaded` meanwhile).
    pending: Option<Pending>,
    breakpoints: Vec<Pc>,
}

/// How far a chunked load has got.
#[derive(Clone, PartialEq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Progress {
    pub running: bool,
    pub steps: u64,
    /// How the run ended, once it has.
    pub end: Option<Outcome>,
}

impl Recording {
    pub fn new() -> Recording {
        Recording::default()
    }

    /// Starts the resolved run: at most `chunk` steps now (`None`: to its end). `None` while it
    /// goes on (`resume`); the views keep showing the last loaded run meanwhile.
    pub fn start(&mut self, resolved: Resolved, chunk: Option<u64>) -> Result<Option<Outcome>, Vec<crate::Diagnostic>> {
        let sim = crate::launch(&resolved.kernel, &resolved.options)?;
        let mut run = Pending { kernel: resolved.kernel, sim, stop_at: resolved.stop_at };
        self.pending = None;
        match run.run(chunk.map(|c| c.max(1))) {
            None => {
                self.pending = Some(run);
                Ok(None)
            }
            Some(end) => {
                self.finish(run, end.clone());
                Ok(Some(end))
            }
        }
    }

    /// Runs the pending run `budget` more steps.
    pub fn resume(&mut self, budget: u64) -> Progress {
        let Some(mut p) = self.pending.take() else { return Progress { running: false, steps: 0, end: None } };
        let ended = p.run(Some(budget.max(1)));
        let steps = p.sim.steps();
        match ended {
            None => {
                self.pending = Some(p);
                Progress { running: true, steps, end: None }
            }
            Some(end) => {
                self.finish(p, end.clone());
                Progress { running: false, steps, end: Some(end) }
            }
        }
    }

    /// Ends the pending run where it is: the views show the steps run so far.
    pub fn stop(&mut self) -> Progress {
        let Some(p) = self.pending.take() else { return Progress { running: false, steps: 0, end: None } };
        let end = Outcome::stopped(&p.sim);
        let steps = p.sim.steps();
        self.finish(p, end.clone());
        Progress { running: false, steps, end: Some(end) }
    }

    /// Keeps a run that ended (or was stopped) as the loaded one, rewound to step 0.
    fn finish(&mut self, run: Pending, outcome: Outcome) {
        let Pending { kernel, mut sim, .. } = run;
        let (total, end_metrics) = (sim.steps(), sim.state().metrics.clone());
        let output = sim.output();
        let mut warnings = super::run_warnings(&kernel, &sim.state().machine);
        sim.seek(0);
        let facts = cfg_facts(&kernel.program);
        let (captions, note_warnings) = Captions::of_run(&kernel.notes, sim.timeline().log());
        warnings.extend(note_warnings);
        self.loaded =
            Some(Loaded { kernel, facts, sim, total, outcome, end_metrics, captions, warnings, output, report: None, counts: None });
    }

    /// True while a chunked load has not ended.
    pub fn running(&self) -> bool {
        self.pending.is_some()
    }
    pub fn loaded(&self) -> Option<&Loaded> {
        self.loaded.as_ref()
    }
    pub fn total(&self) -> u64 {
        self.loaded.as_ref().map_or(0, |l| l.total)
    }
    /// The step the replay is at.
    pub fn current(&self) -> u64 {
        self.loaded.as_ref().map_or(0, |l| l.sim.steps())
    }

    /// Goes to the state after `t` steps, clamped to the recorded run; the step it is at.
    pub fn seek(&mut self, t: u64) -> u64 {
        if let Some(l) = self.loaded.as_mut() {
            l.sim.seek(t.min(l.total));
        }
        self.current()
    }

    /// `seek(t)` and the lane states of steps `from + 1 ..= to` (the lane view's window around
    /// `t`, `Sim::lane_window`) in one call, so one replay can serve both: a seek that must replay
    /// from a checkpoint anyway (backwards, or past a nearer checkpoint) stops at the window's
    /// start, the window is replayed from there and `t` is reached from there. A short step
    /// forward (playing) goes straight to `t`.
    pub fn seek_with_lanes(&mut self, t: u64, from: u64, to: u64) -> (u64, Vec<LaneState>) {
        let Some(l) = self.loaded.as_mut() else { return (0, Vec::new()) };
        let t = t.min(l.total);
        let now = l.sim.steps();
        let replays = t < now || l.sim.timeline().checkpoint_before(t).metrics.steps > now;
        let lanes = if replays || now <= from.min(t) {
            l.sim.seek(from.min(t));
            let lanes = l.sim.lane_window(from, to);
            l.sim.seek(t);
            lanes
        } else {
            l.sim.seek(t);
            l.sim.lane_window(from, to)
        };
        (self.current(), lanes)
    }

    pub fn set_breakpoints(&mut self, pcs: Vec<Pc>) {
        self.breakpoints = pcs;
    }

    /// Replays forward, within the recorded run, until `until` happens or `max_steps` pass;
    /// breakpoints stop every kind but `End`. `None` when nothing is loaded.
    pub fn run_until(&mut self, until: Until, max_steps: Option<u64>) -> Option<Outcome> {
        let l = self.loaded.as_mut()?;
        let left = l.total - l.sim.steps();
        let mut budget = max_steps.map_or(left, |m| m.min(left));
        // Without breakpoints, the recorded events say where the run stops: a seek there instead
        // of every step between ("next divergence" over 50 M recorded steps took a second). With
        // none in reach, a seek to the budget's end, where the run below says why it stops.
        if let (Until::Events(bits), true) = (until, self.breakpoints.is_empty()) {
            let now = l.sim.steps();
            let t = l.sim.timeline();
            let hit = t.next_event(now as usize, bits).map(|k| k as u64).filter(|&k| k <= now + budget);
            if let Some(k) = hit {
                let events = t.record_at(k as usize - 1).map_or(0, |r| r.events) & bits;
                l.sim.seek(k);
                return Some(Outcome::of(&l.sim, &StopReason::Event(events)));
            }
            l.sim.seek(now + budget);
            budget = 0;
        }
        let (breakpoints, stop_on) = match until {
            Until::End => (Vec::new(), 0),
            Until::Breakpoint => (self.breakpoints.clone(), 0),
            Until::Events(bits) => (self.breakpoints.clone(), bits),
        };
        let reason = l.sim.run(&RunLimits { max_steps: Some(budget), breakpoints, stop_on });
        Some(match reason {
            StopReason::Budget if l.sim.steps() >= l.total => match l.outcome.kind {
                OutcomeKind::Exited | OutcomeKind::StepLimit => Outcome::end_of_recording(&l.sim),
                _ => l.outcome.clone(),
            },
            r => Outcome::of(&l.sim, &r),
        })
    }

    /// The thread-frontier paper's metrics of the whole run, with the run they describe; the
    /// first call runs the MIMD reference, later calls reuse it.
    pub fn report(&mut self) -> Option<(&Loaded, &RunReport)> {
        let l = self.loaded.as_mut()?;
        if l.report.is_none() {
            let now = l.sim.steps();
            l.sim.seek(l.total);
            l.report = Some(RunReport::of(&l.sim));
            l.sim.seek(now);
        }
        let l = &*l;
        Some((l, l.report.as_ref()?))
    }

    /// The loaded run's ncu counters per pc; the first call replays the run to count them,
    /// later calls reuse them.
    pub fn counts(&mut self) -> Option<&RunCounts> {
        let l = self.loaded.as_mut()?;
        Some(l.counts.get_or_insert_with(|| RunCounts::of_warp(&l.sim, l.total)))
    }
}
