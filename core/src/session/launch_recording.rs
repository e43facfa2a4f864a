//! A whole launch recorded for the page: every block run, the block on screen (the launch's
//! `block_idx=`, or the block where the launch failed) recorded step by step, and one warp of
//! it in focus (`warp=` at first). Its step is the block's: each is one warp instruction issued
//! by one of the block's warps. The focused warp's records are laid over the block's steps
//! (`RecordedLaunch::focus_log`), so the views of a warp run alone (lanes, stack, plots, event
//! strip, next event) read it the same way.

use alloc::vec::Vec;

use super::captions::Captions;
use super::counters::RunCounts;
use super::outcome::{Outcome, OutcomeKind};
use super::recording::Until;
use super::request::Resolved;
use crate::analysis::{cfg_facts, CfgFacts};
use crate::grid::{BlockTotals, Launcher, RecordedLaunch, Totals, WarpNow};
use crate::isa::Pc;
use crate::kernel::Kernel;
use crate::machine::{LaneMask, Memory};
use crate::model::{Issued, Reconvergence};
use crate::printf::OutputLine;
use crate::sim::{LaneState, Metrics, SimConfig, StepAccess, StepLog, StepRecord, WarpState};

/// A recorded launch with one warp of its block on screen in focus.
pub struct LaunchRecording {
    pub kernel: Kernel,
    pub facts: CfgFacts,
    launch: RecordedLaunch,
    focus: usize,
    /// The focused warp's records over the block's steps.
    log: StepLog,
    /// How the whole launch ended (its step the block's: where the end is in this block, else its last).
    pub outcome: Outcome,
    /// The whole launch's counts, and each block's, in blockIdx order (a block picker's summary).
    pub totals: Totals,
    pub blocks: Vec<BlockTotals>,
    /// What the block on screen printed, each line at the block's step that printed it and
    /// with the thread's index in the block for its lane.
    pub output: Vec<OutputLine>,
    /// What the launch warns of (a shared read no thread of its block had written), and a
    /// warning for each step or event note the focused warp never reaches.
    pub warnings: Vec<crate::Diagnostic>,
    /// Where the kernel's notes show: over the block's steps, events the focused warp's.
    pub captions: Captions,
    /// The buffers as the launch starts with them (the inputs).
    pub initial: Memory,
    /// Each warp of the block's counts at the block's end.
    pub end_metrics: Vec<Metrics>,
    /// The step whose memory access `access` is (the memory view's highlight), so that a seek
    /// to the step shown does not replay it again.
    access_at: Option<u64>,
    access: Option<StepAccess>,
    breakpoints: Vec<Pc>,
    /// The launch as it starts, until its counters are asked for (`counts`): counting runs
    /// every block again, so a load that never shows them never pays for it. Its memory is
    /// `initial`, given back when it runs (one copy of the buffers fewer held meanwhile).
    uncounted: Option<Launcher>,
    counts: RunCounts,
}

impl LaunchRecording {
    /// Runs the resolved kernel's whole launch, recording the block on screen: the launch's
    /// `block_idx=`, unless a block before it ended the launch (then that block, to show where).
    pub fn start(resolved: &Resolved) -> Result<LaunchRecording, Vec<crate::Diagnostic>> {
        let kernel = &resolved.kernel;
        let decl = kernel.launch();
        let mut focus = (decl.block_idx, decl.warp_idx as usize);
        // The inputs are evaluated once: the buffers as the launch starts are kept for the
        // inputs view, and the same launcher runs.
        let mut launcher = resolved.launcher()?;
        let initial = core::mem::take(&mut launcher.memory);
        let uncounted = Some(launcher.clone());
        launcher.memory = initial.clone();
        let mut launch = match RecordedLaunch::of(launcher, focus.0) {
            Ok(launch) => launch,
            Err(early) => {
                // The blocks before the one that failed all ended well: it can be recorded.
                focus = (early.end.block_idx, early.end.warp as usize);
                let failed = RecordedLaunch::of(resolved.launcher()?, focus.0);
                failed.map_err(|_| alloc::vec![crate::Diagnostic::error(crate::diag::Span::new(1, 1, 0), early.end.message.clone())])?
            }
        };
        launch.run_to_end();
        let end_metrics = (0..launch.warps()).map(|w| launch.warp(w).metrics.clone()).collect();
        let whole = launch.clone().finish();
        let before = launch.steps_before();
        let output = whole
            .output
            .iter()
            .filter(|l| l.block_idx == focus.0 && l.step > before)
            .map(|l| OutputLine { step: l.step - before, lane: Some(thread_in_block(l.thread_idx, decl.block)), text: l.text.clone() })
            .collect();
        let warnings = super::launch_warnings(kernel, &whole);
        // The page's step is the block's: an end in this block at its step there, else its last.
        let mut outcome = Outcome::of_launch(&whole);
        let in_block = whole.end.block_idx == focus.0 && whole.end.step > before;
        outcome.step = if in_block { (whole.end.step - before).min(launch.recorded()) } else { launch.recorded() };
        launch.seek(0);
        let focus_warp = focus.1.min(launch.warps().saturating_sub(1));
        let log = launch.focus_log(focus_warp);
        let (captions, note_warnings) = Captions::of_run(&kernel.notes, &log);
        let mut warnings = warnings;
        warnings.extend(note_warnings);
        Ok(LaunchRecording {
            kernel: kernel.clone(),
            facts: cfg_facts(&kernel.program),
            outcome,
            totals: whole.totals,
            blocks: whole.blocks.clone(),
            output,
            warnings,
            captions,
            initial,
            end_metrics,
            access_at: None,
            access: None,
            log,
            focus: focus_warp,
            launch,
            breakpoints: Vec::new(),
            uncounted,
            counts: RunCounts::default(),
        })
    }

    /// The whole launch's ncu counters (every block's warps), per pc: counted the first time
    /// they are asked for, then kept.
    pub fn counts(&mut self) -> &RunCounts {
        if let Some(mut launcher) = self.uncounted.take() {
            launcher.memory = self.initial.clone();
            self.counts = RunCounts::of_launch(launcher);
        }
        &self.counts
    }

    /// The recorded launch (its block on screen, every warp of it).
    pub fn launch(&self) -> &RecordedLaunch {
        &self.launch
    }
    /// The warp in focus.
    pub fn focused(&self) -> usize {
        self.focus
    }
    /// Puts warp `w` of the block in focus (a warp the block does not have: no change).
    pub fn focus(&mut self, w: usize) -> usize {
        if w < self.launch.warps() && w != self.focus {
            self.focus = w;
            self.log = self.launch.focus_log(w);
            self.captions = Captions::of_run(&self.kernel.notes, &self.log).0;
        }
        self.focus
    }
    /// The configuration every warp runs under.
    pub fn config(&self) -> &SimConfig {
        self.launch.config()
    }
    /// The focused warp's counts at the block's end.
    pub fn end_metrics_now(&self) -> &Metrics {
        &self.end_metrics[self.focus]
    }
    /// The focused warp's records over the block's steps.
    pub fn log(&self) -> &StepLog {
        &self.log
    }
    /// The focused warp now.
    pub fn warp(&self) -> &WarpState {
        self.launch.warp(self.focus)
    }
    /// The focused warp's record of the current step, if it issued it.
    pub fn record_now(&self) -> Option<StepRecord> {
        self.launch.record_now(self.focus)
    }
    /// The launch's memory now: global memory and the block's shared memory.
    pub fn memory(&self) -> &Memory {
        self.launch.memory()
    }
    /// Every warp of the block now.
    pub fn warps_now(&self) -> Vec<WarpNow> {
        self.launch.warps_now()
    }
    /// The block's steps recorded.
    pub fn total(&self) -> u64 {
        self.launch.recorded()
    }
    pub fn current(&self) -> u64 {
        self.launch.steps()
    }
    pub fn seek(&mut self, t: u64) -> u64 {
        let t = t.min(self.total());
        if self.access_at != Some(t) || self.current() != t {
            self.access = self.launch.seek_with_access(t);
            self.access_at = Some(t);
        }
        self.current()
    }
    /// The block on screen as CSV, a row per step (`trace::block_csv`); the current step stays.
    pub fn trace_csv(&mut self) -> alloc::string::String {
        let now = self.current();
        let csv = crate::trace::block_csv(&mut self.launch);
        self.access_at = None;
        self.seek(now);
        csv
    }
    /// What the current step did to memory: its instruction's access, for the lanes that ran it.
    pub fn step_access(&self) -> Option<&StepAccess> {
        self.access.as_ref()
    }

    /// The focused warp's lanes for the instruction it issues next; its live lanes all wait
    /// while it waits at a barrier.
    pub fn next_lane_states(&self) -> Vec<LaneState> {
        let st = self.warp();
        let mut lanes = st.next_lane_states(self.launch.program());
        if self.launch.at_barrier(self.focus) {
            for s in lanes.iter_mut().filter(|s| **s != LaneState::Exited) {
                *s = LaneState::Waiting;
            }
        }
        lanes
    }

    /// The focused warp's lane states at steps `from + 1 ..= to` of the block, W per step: its
    /// lanes' parts where it issued, waiting (or exited) where another warp did. Replays the
    /// window, then returns to the current step.
    pub fn lane_window(&mut self, from: u64, to: u64) -> Vec<LaneState> {
        let (focus, width) = (self.focus, self.warp().machine.width);
        let mut out = Vec::new();
        self.replay_window(from, to, |_, exited, w, issued| {
            let (mask, work) = if w == focus { (issued.mask, issued.work) } else { (LaneMask::EMPTY, LaneMask::EMPTY) };
            out.extend((0..width).map(|l| LaneState::of(l, mask, work, exited)));
        });
        out
    }

    /// What every warp of the block did at steps `from + 1 ..= to` (at most `LANE_WINDOW_MAX`),
    /// one `WarpCode` byte per warp per step, warp 0 first. Replays the window, then returns to
    /// the current step.
    pub fn warps_window(&mut self, from: u64, to: u64) -> Vec<u8> {
        let mut out = Vec::new();
        self.replay_window(from, to, |launch, _, issuer, issued| {
            // The warp that issued the step shows it, even where it then waits at a barrier.
            let lanes = WarpCode::ISSUED + issued.mask.count().min(64) as u8;
            out.extend(launch.warps_now().iter().enumerate().map(|(w, now)| if w == issuer { lanes } else { WarpCode::of(now) }));
        });
        out
    }

    /// Replays the block's steps `from + 1 ..= to` (at most `LANE_WINDOW_MAX`), showing each to
    /// `each` (the launch after it, the focused warp's exited lanes before it, the warp that
    /// issued it and what it issued), then returns to the current step.
    fn replay_window(&mut self, from: u64, to: u64, mut each: impl FnMut(&RecordedLaunch, LaneMask, usize, &Issued)) {
        let now = self.current();
        let to = to.min(self.total()).min(from.saturating_add(crate::sim::LANE_WINDOW_MAX));
        self.launch.seek(from);
        while self.launch.steps() < to {
            let exited = self.launch.warp(self.focus).machine.exited;
            let Some((w, issued)) = self.launch.step() else { break };
            each(&self.launch, exited, w, &issued);
        }
        self.launch.seek(now);
    }

    pub fn set_breakpoints(&mut self, pcs: Vec<Pc>) {
        self.breakpoints = pcs;
    }

    /// Replays forward within the recorded block until `until`: a step of the focused warp
    /// with one of its events, or any warp of the block about to issue at a breakpoint (that
    /// warp comes into focus; every kind but `End` stops there), within `max_steps`.
    pub fn run_until(&mut self, until: Until, max_steps: Option<u64>) -> Outcome {
        let now = self.current();
        let end = max_steps.map_or(self.total(), |m| (now + m).min(self.total()));
        let bits = match until {
            Until::Events(bits) => bits,
            _ => 0,
        };
        let event = (bits != 0).then(|| self.log.next_event(now as usize, bits).map(|k| k as u64).filter(|&k| k <= end)).flatten();
        let breakpoint = match until {
            Until::End => None,
            _ => self.launch.first_issue_at(&self.breakpoints, now, event.unwrap_or(end)),
        };
        let (t, kind, message) = if let Some((t, w)) = breakpoint {
            self.focus(w);
            self.seek(t);
            let addr = self.warp().model.pc().map_or(0, |p| self.launch.program().addr(p));
            (t, OutcomeKind::Breakpoint, alloc::format!("warp {w} at a breakpoint at {addr:#06x}"))
        } else if let Some(t) = event {
            self.seek(t);
            let events = self.log.get(t as usize - 1).map_or(0, |r| r.events) & bits;
            (t, OutcomeKind::Event, crate::trace::event_names(events))
        } else {
            self.seek(end);
            match self.outcome.kind {
                _ if end < self.total() => (end, OutcomeKind::Budget, alloc::string::String::new()),
                OutcomeKind::Exited | OutcomeKind::StepLimit => (end, OutcomeKind::EndOfRecording, "end of the block's run".into()),
                _ => return self.outcome.clone(),
            }
        };
        let pc = if kind == OutcomeKind::EndOfRecording || kind == OutcomeKind::Budget { None } else { self.warp().model.pc() };
        Outcome::placed(self.launch.program(), t, kind, pc, message)
    }
}

/// A thread's index within its block, x fastest.
fn thread_in_block(t: [u32; 3], block: [u32; 3]) -> u32 {
    t[0] + block[0] * (t[1] + block[1] * t[2])
}

/// A warp's part in one of its block's steps, as `warps_window` codes it in a byte.
pub struct WarpCode;

impl WarpCode {
    /// It could issue; another warp did.
    pub const READY: u8 = 0;
    /// Its live lanes wait at one of the block's barriers.
    pub const AT_BARRIER: u8 = 1;
    pub const EXITED: u8 = 2;
    /// It faulted or deadlocked.
    pub const FAILED: u8 = 3;
    /// It issued the step: this plus the lanes that ran it (0 to 64).
    pub const ISSUED: u8 = 64;

    fn of(w: &WarpNow) -> u8 {
        use crate::grid::WarpDoing;
        match w.doing {
            WarpDoing::Issuing => WarpCode::ISSUED + w.issued.min(64) as u8,
            WarpDoing::Ready => WarpCode::READY,
            WarpDoing::AtBarrier => WarpCode::AT_BARRIER,
            WarpDoing::Exited => WarpCode::EXITED,
            WarpDoing::Failed => WarpCode::FAILED,
        }
    }
}
