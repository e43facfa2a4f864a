//! A launch recorded for the views: the block on screen stepped one warp instruction at a time,
//! which warp issued each step and its record kept (each warp's records in a `StepLog` of its
//! own, where one step differs little from the warp's step before), checkpoints of the whole
//! block (its warps, its barriers, the launch's memory) so that any step of any warp is
//! reachable by seek, which replays from the nearest checkpoint. The blocks before it run first,
//! unrecorded (the global memory it starts from is theirs); `finish` runs the blocks after it.

use alloc::boxed::Box;
use alloc::sync::Arc;
use alloc::vec::Vec;

mod focus;
mod writers;

pub use writers::SharedWrite;

use super::{LaunchRun, Launcher};
use crate::block::{Block, BlockEnd, StepWatch};
use crate::diag::Diagnostic;
use crate::kernel::Kernel;
use crate::launch::LaunchOptions;
use crate::machine::{LaneMask, Memory};
use crate::model::{Issued, Reconvergence};
use crate::sim::{StepLog, StepRecord, WarpState};

/// Which warp issued each step: a byte a step for blocks of up to 256 warps (every block of 32
/// lanes and more), two for more.
#[derive(Clone, Debug)]
enum Issuers {
    Byte(Vec<u8>),
    Wide(Vec<u16>),
}

impl Issuers {
    fn for_warps(warps: usize) -> Issuers {
        if warps <= 256 {
            Issuers::Byte(Vec::new())
        } else {
            Issuers::Wide(Vec::new())
        }
    }
    fn len(&self) -> usize {
        match self {
            Issuers::Byte(v) => v.len(),
            Issuers::Wide(v) => v.len(),
        }
    }
    fn push(&mut self, w: usize) {
        match self {
            Issuers::Byte(v) => v.push(w as u8),
            Issuers::Wide(v) => v.push(w as u16),
        }
    }
    fn get(&self, i: usize) -> Option<usize> {
        match self {
            Issuers::Byte(v) => v.get(i).map(|&w| w as usize),
            Issuers::Wide(v) => v.get(i).map(|&w| w as usize),
        }
    }
    fn bytes(&self) -> usize {
        match self {
            Issuers::Byte(v) => v.len(),
            Issuers::Wide(v) => 2 * v.len(),
        }
    }
}

/// What a warp of the block on screen is doing at a step.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum WarpDoing {
    /// It issued the step.
    Issuing,
    /// It can issue; another warp did.
    Ready,
    /// Its live lanes wait at one of the block's barriers.
    AtBarrier,
    Exited,
    /// It faulted or deadlocked.
    Failed,
}

/// One warp of the block on screen at the current step.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct WarpNow {
    /// Its number in the block.
    pub warp: u32,
    pub doing: WarpDoing,
    /// Its lanes (a block's last warp may have fewer than the width) and those not exited.
    pub lanes: u32,
    pub live: u32,
    /// The lanes that ran the step, when it issued it.
    pub issued: u32,
    /// Where it issues next (or waits), and that instruction's source line.
    pub pc: Option<u32>,
    pub line: Option<u32>,
    /// The barrier its arrived lanes wait at.
    pub barrier: Option<u8>,
    /// Warp instructions it has issued so far.
    pub instructions: u64,
}

/// Steps between checkpoints of the block.
pub const CHECKPOINT_INTERVAL: u64 = 1024;

/// Words per page of a memory snapshot.
const PAGE: usize = 1024;

/// The launch's memory at a checkpoint: each buffer's words in pages, a page that has not
/// changed since the checkpoint before shared with it, so a checkpoint copies only the pages a
/// block's steps changed (global memory is most of a large launch's, and most of it stays put).
#[derive(Clone, Debug)]
struct Snapshot {
    /// The buffers, without their words.
    skeleton: Memory,
    pages: Vec<Vec<Arc<[u32]>>>,
}

impl Snapshot {
    fn take(memory: &Memory, before: Option<&Snapshot>) -> Snapshot {
        let pages = memory
            .words
            .iter()
            .enumerate()
            .map(|(k, words)| {
                words
                    .chunks(PAGE)
                    .enumerate()
                    .map(|(i, page)| match before.and_then(|b| b.pages.get(k)?.get(i)) {
                        Some(old) if **old == *page => old.clone(),
                        _ => Arc::from(page),
                    })
                    .collect()
            })
            .collect();
        Snapshot { skeleton: memory.without_words(), pages }
    }

    fn restore(&self) -> Memory {
        let words = self.pages.iter().map(|pages| pages.iter().flat_map(|p| p.iter().copied()).collect()).collect();
        self.skeleton.clone().with_words(words)
    }

    /// Bytes of the pages not shared with `before`.
    fn own_bytes(&self, before: Option<&Snapshot>) -> usize {
        let shared = |k: usize, i: usize, p: &Arc<[u32]>| before.and_then(|b| b.pages.get(k)?.get(i)).is_some_and(|o| Arc::ptr_eq(o, p));
        self.pages
            .iter()
            .enumerate()
            .flat_map(|(k, ps)| ps.iter().enumerate().map(move |(i, p)| (k, i, p)))
            .filter(|&(k, i, p)| !shared(k, i, p))
            .map(|(_, _, p)| 4 * p.len())
            .sum()
    }
}

/// What a checkpoint restores: the block and the launch's memory after `step` of its steps, and
/// how many printf records the launch held then.
#[derive(Clone, Debug)]
struct Checkpoint {
    step: u64,
    block: Block,
    memory: Snapshot,
    printed: usize,
}

/// A launch with its block on screen recorded.
#[derive(Clone, Debug)]
pub struct RecordedLaunch {
    launcher: Launcher,
    block: Block,
    block_idx: [u32; 3],
    /// The launch's steps before this block began.
    before: u64,
    /// The block's steps taken: the state is the one after `step` steps.
    step: u64,
    /// Which warp issued each of the block's steps.
    issuers: Issuers,
    /// Each warp's step records, in its own order.
    records: Vec<StepLog>,
    checkpoints: Vec<Checkpoint>,
    /// How the block ended and after how many of its steps, once it has.
    end: Option<(u64, BlockEnd)>,
    /// The launch's printf records when the block began.
    printed_before: usize,
    /// The block's steps (1-based) at which a barrier released its warps, in order.
    releases: Vec<u64>,
    /// Who wrote the block's shared memory, step by step.
    writes: writers::SharedWrites,
}

impl RecordedLaunch {
    /// `kernel`'s launch under `opts` with the block at `focus` to be recorded: the blocks before
    /// it have run. `None` for the launch's results when a block before it did not end well.
    pub fn new(kernel: &Kernel, opts: &LaunchOptions, focus: [u32; 3]) -> Result<Result<RecordedLaunch, Box<LaunchRun>>, Vec<Diagnostic>> {
        Ok(RecordedLaunch::of(Launcher::new(kernel, opts)?, focus))
    }

    /// `new`'s launch from a launcher made already (its inputs evaluated once).
    pub fn of(mut launcher: Launcher, focus: [u32; 3]) -> Result<RecordedLaunch, Box<LaunchRun>> {
        let blocks: Vec<[u32; 3]> = launcher.code.blocks().collect();
        for &block_idx in blocks.iter().take_while(|&&b| b != focus) {
            if !launcher.run_whole(block_idx, None) {
                return Err(Box::new(launcher.finish()));
            }
        }
        let block = launcher.start_block(focus);
        let warps = block.warps.len();
        let first = Checkpoint {
            step: 0,
            block: block.clone(),
            memory: Snapshot::take(&launcher.memory, None),
            printed: launcher.printout.records.len(),
        };
        Ok(RecordedLaunch {
            before: launcher.run.totals.steps,
            printed_before: launcher.printout.records.len(),
            launcher,
            block,
            block_idx: focus,
            step: 0,
            issuers: Issuers::for_warps(warps),
            records: (0..warps).map(|_| StepLog::default()).collect(),
            checkpoints: alloc::vec![first],
            end: None,
            releases: Vec::new(),
            writes: writers::SharedWrites::default(),
        })
    }

    /// Steps the block has taken so far (the state is the one after them).
    pub fn steps(&self) -> u64 {
        self.step
    }
    /// Steps recorded: how far the block ran.
    pub fn recorded(&self) -> u64 {
        self.issuers.len() as u64
    }
    pub fn block_idx(&self) -> [u32; 3] {
        self.block_idx
    }
    /// The block's warps at the current step.
    pub fn warps(&self) -> usize {
        self.block.warps.len()
    }
    /// Warp `w` at the current step (its memory is the launch's, lent while it issues: empty here).
    pub fn warp(&self, w: usize) -> &WarpState {
        &self.block.warps[w].state
    }
    /// The program every warp runs.
    pub fn program(&self) -> &crate::program::Program {
        &self.launcher.code.program
    }
    /// The launch's memory at the current step.
    pub fn memory(&self) -> &Memory {
        &self.launcher.memory
    }
    /// Which warp issued step `t` (1-based) of the block.
    pub fn issuer(&self, t: u64) -> Option<usize> {
        self.issuers.get(t.checked_sub(1)? as usize)
    }
    /// The block's step (1-based) at which warp `w` next issues after the current one, for
    /// stepping that follows one warp; `None` when it issues no more.
    pub fn next_issue_of(&self, w: usize) -> Option<u64> {
        (self.step..self.recorded()).find(|&i| self.issuers.get(i as usize) == Some(w)).map(|i| i + 1)
    }
    /// The block's step at which warp `w` last issued before the current one.
    pub fn prev_issue_of(&self, w: usize) -> Option<u64> {
        (0..self.step.saturating_sub(1)).rev().find(|&i| self.issuers.get(i as usize) == Some(w)).map(|i| i + 1)
    }

    /// Warp `w`'s step records.
    pub fn records(&self, w: usize) -> &StepLog {
        &self.records[w]
    }
    /// Bytes the block's record takes (the issuers and what every warp's step log holds),
    /// besides the checkpoints, the shared-memory writes and the room the logs' chunks have
    /// allocated.
    pub fn record_bytes(&self) -> usize {
        self.issuers.bytes() + self.records.iter().map(StepLog::used_bytes).sum::<usize>()
    }
    /// The block's recorded steps (1-based) at which a barrier released its warps.
    pub fn releases(&self) -> &[u64] {
        &self.releases
    }
    /// The last write of each element `from..to` of shared buffer `buffer` up to the current
    /// step, if any.
    pub fn shared_writers(&self, buffer: u32, from: u32, to: u32) -> Vec<Option<SharedWrite>> {
        self.writes.last_writes(self.step, buffer, from, to)
    }
    /// The step from which the block's shared-memory writes were no longer kept, if the log
    /// filled (`MAX_SHARED_WRITES`).
    pub fn shared_writes_cut_at(&self) -> Option<u64> {
        self.writes.cut_at()
    }
    /// How the block ended, once it has.
    pub fn end(&self) -> Option<&BlockEnd> {
        self.end.as_ref().map(|(_, e)| e)
    }

    /// Every warp of the block at the current step.
    pub fn warps_now(&self) -> Vec<WarpNow> {
        use crate::block::WarpWait;
        let issuer = self.issuer(self.step);
        let program = &self.launcher.code.program;
        self.block
            .warps
            .iter()
            .enumerate()
            .map(|(w, warp)| {
                let st = &warp.state;
                let m = &st.machine;
                let issued = if issuer == Some(w) { self.last_issued(w).map_or(0, |r| LaneMask(r.mask).count()) } else { 0 };
                let doing = match warp.wait {
                    WarpWait::Ended if st.status == crate::sim::Status::Exited => WarpDoing::Exited,
                    WarpWait::Ended => WarpDoing::Failed,
                    WarpWait::Barrier => WarpDoing::AtBarrier,
                    WarpWait::Ready if issuer == Some(w) => WarpDoing::Issuing,
                    WarpWait::Ready => WarpDoing::Ready,
                };
                let pc = st.model.pc().filter(|_| doing != WarpDoing::Exited);
                WarpNow {
                    warp: w as u32,
                    doing,
                    lanes: m.width,
                    live: m.live_lanes().count(),
                    issued,
                    pc: pc.map(|p| p.0),
                    line: pc.and_then(|p| program.line(p)),
                    barrier: warp.at.map(|a| a.id),
                    instructions: st.metrics.warp_instructions,
                }
            })
            .collect()
    }

    /// The record of warp `w`'s last step so far.
    fn last_issued(&self, w: usize) -> Option<StepRecord> {
        let own = self.block.warps[w].state.metrics.steps as usize;
        own.checked_sub(1).and_then(|i| self.records[w].get(i))
    }

    /// The block's recorded steps as a warps x steps summary: for step `t` (1-based), entry
    /// `2 (t - 1)` is the warp that issued it and `2 (t - 1) + 1` the lanes that ran it.
    pub fn summary(&self) -> Vec<u16> {
        let mut readers: Vec<_> = self.records.iter().map(|r| r.iter()).collect();
        let mut out = Vec::with_capacity(2 * self.issuers.len());
        for i in 0..self.issuers.len() {
            let w = self.issuers.get(i).unwrap_or(0);
            let lanes = readers[w].next().map_or(0, |r| LaneMask(r.mask).count());
            out.push(w as u16);
            out.push(lanes as u16);
        }
        out
    }

    /// One step of the block: which warp issued what; `None` once the block has ended. A step
    /// past the recorded ones is recorded.
    pub fn step(&mut self) -> Option<(usize, Issued)> {
        if self.end.as_ref().is_some_and(|(at, _)| self.step >= *at) {
            return None;
        }
        if self.before + self.step >= self.launcher.code.config.step_limit {
            self.end = Some((self.step, BlockEnd::Budget));
            return None;
        }
        let mut seen = None;
        let mut each = |_: u64, w: usize, issued: &Issued, state: &WarpState| seen = Some((w, *issued, state.model.depth()));
        let watch: &mut StepWatch = &mut each;
        let first = self.before + self.step;
        let steps = self.launcher.code.steps();
        let fresh = self.step == self.recorded();
        if fresh {
            self.writes.prepare(&mut self.block, &mut self.launcher.memory, &self.launcher.code.program);
        }
        let released = self.block.barrier_releases;
        let (ran, end) = self.block.run(&steps, &mut self.launcher.memory, 1, first, &mut self.launcher.printout, Some(watch));
        self.step += ran;
        if let (Some((w, issued, depth)), true) = (seen, fresh && ran > 0) {
            self.issuers.push(w);
            self.records[w].push(StepRecord::new(&issued, depth));
            self.writes.note(self.step, w, issued.pc, issued.mask, &self.launcher.memory);
            if self.block.barrier_releases > released {
                self.releases.push(self.step);
            }
            if self.step.is_multiple_of(CHECKPOINT_INTERVAL) {
                self.checkpoint();
            }
        }
        if !matches!(end, BlockEnd::Budget) && self.end.is_none() {
            self.end = Some((self.step, end));
        }
        seen.map(|(w, i, _)| (w, i))
    }

    fn checkpoint(&mut self) {
        let printed = self.launcher.printout.records.len();
        let memory = Snapshot::take(&self.launcher.memory, self.checkpoints.last().map(|c| &c.memory));
        self.checkpoints.push(Checkpoint { step: self.step, block: self.block.clone(), memory, printed });
    }

    /// Bytes the checkpoints' memory pages take (a page shared with the checkpoint before
    /// counted once), and how many checkpoints there are.
    pub fn checkpoint_memory_bytes(&self) -> (usize, usize) {
        let mut before = None;
        let mut bytes = 0;
        for c in &self.checkpoints {
            bytes += c.memory.own_bytes(before);
            before = Some(&c.memory);
        }
        (bytes, self.checkpoints.len())
    }

    /// Runs the block to its end (or the launch's step limit), recording every step.
    pub fn run_to_end(&mut self) {
        while self.step().is_some() {}
    }

    /// Puts the block in the state after `t` of its steps (at most its end): the nearest
    /// checkpoint, then its steps replayed.
    pub fn seek(&mut self, t: u64) {
        let t = t.min(self.recorded().max(self.step));
        if t < self.step {
            let c = self.checkpoints.iter().rev().find(|c| c.step <= t).expect("a checkpoint at step 0").clone();
            self.block = c.block;
            self.launcher.memory = c.memory.restore();
            self.launcher.printout.records.truncate(c.printed);
            self.launcher.printout.cut_at = None;
            self.step = c.step;
        }
        while self.step < t {
            if self.step().is_none() {
                break;
            }
        }
    }

    /// The launch's results: the block run to its end, then every block after it.
    pub fn finish(mut self) -> LaunchRun {
        self.seek(self.recorded());
        self.run_to_end();
        let Some((ran, end)) = self.end.clone() else { unreachable!("run to its end") };
        let mut launcher = self.launcher;
        let mut block = self.block;
        if !launcher.tally(&mut block, self.block_idx, ran, end, self.printed_before) {
            return launcher.finish();
        }
        let blocks: Vec<[u32; 3]> = launcher.code.blocks().skip_while(|&b| b != self.block_idx).skip(1).collect();
        for block_idx in blocks {
            if !launcher.run_whole(block_idx, None) {
                break;
            }
        }
        launcher.finish()
    }
}
