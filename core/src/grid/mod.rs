//! A kernel's whole launch: every block of its grid, one after another in blockIdx order (x
//! fastest; blocks cannot wait for each other, so that is a schedule a GPU may run), each block
//! running all its warps (`block`). Global and constant memory and printf's output belong to the
//! launch; each block starts with its shared memory as the inputs set it.
//!
//! This run records no steps: it gives the launch's results (every buffer, what it printed, how
//! it ended) and its counts per warp, per block and in all.

mod totals;
mod warps;

pub use totals::Totals;

use alloc::string::String;
use alloc::vec::Vec;

use crate::block::{Block, BlockEnd, Printout, StepWatch};
use crate::diag::Diagnostic;
use crate::isa::Pc;
use crate::kernel::expr::Value;
use crate::kernel::Kernel;
use crate::launch::{prepare, LaunchOptions};
use crate::machine::{Launch, Memory, Space};
use crate::model::Issued;
use crate::program::{PlainPcs, Program};
use crate::sim::{loop_site, Status, StopReason, WarpState, WarpSteps};
use warps::WarpMaker;

/// One warp's counts, and where it sits.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct WarpTotals {
    pub block_idx: [u32; 3],
    /// Its number in its block.
    pub warp: u32,
    pub totals: Totals,
}

/// One block's counts.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct BlockTotals {
    pub block_idx: [u32; 3],
    pub totals: Totals,
    /// Times its barrier opened.
    pub barriers: u64,
}

/// One line a thread printed.
#[derive(Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct LaunchLine {
    /// The launch's step that printed it (1 for the first instruction issued).
    pub step: u64,
    pub block_idx: [u32; 3],
    pub thread_idx: [u32; 3],
    /// What it printed, as C would.
    pub text: String,
}

/// How a launch ended, and where: the block and warp whose step ended it (the last to run for
/// an exit).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct LaunchEnd {
    pub reason: StopReason,
    pub block_idx: [u32; 3],
    pub warp: u32,
    /// Launch steps when it ended.
    pub step: u64,
    /// Where: the failed instruction, or the head of the loop a warp was in at the step limit.
    pub pc: Option<Pc>,
    /// Why, in full, naming the block and warp.
    pub message: String,
}

/// A whole launch's results.
#[derive(Clone, Debug)]
pub struct LaunchRun {
    /// Every buffer at the end: global ones as the launch left them, shared ones as the last
    /// block that ran left them.
    pub memory: Memory,
    pub output: Vec<LaunchLine>,
    /// The launch step from which printf records were dropped (more than `MAX_RECORDS`).
    pub output_cut_at: Option<u64>,
    pub totals: Totals,
    pub blocks: Vec<BlockTotals>,
    pub warps: Vec<WarpTotals>,
    pub end: LaunchEnd,
    /// Each param's value.
    pub params: Vec<(String, Value)>,
    /// The warp width.
    pub width: u32,
    /// The program every warp ran.
    pub program: Program,
    /// The first read of a shared word no thread of its block had written: a block, a thread
    /// and the address.
    pub unwritten_read: Option<([u32; 3], [u32; 3], u32)>,
}

/// Runs `kernel`'s whole launch (`//@ launch grid= block=`) under `opts`.
pub fn run_launch(kernel: &Kernel, opts: &LaunchOptions) -> Result<LaunchRun, Vec<Diagnostic>> {
    run_launch_watched(kernel, opts, None)
}

/// One step of a watched launch.
pub struct LaunchStep<'a> {
    /// The launch's step number (1 for the first instruction issued).
    pub step: u64,
    pub block_idx: [u32; 3],
    /// The warp's number in its block.
    pub warp: usize,
    pub issued: &'a Issued,
    /// The warp after the step.
    pub state: &'a WarpState,
    pub program: &'a Program,
}

/// `run_launch`, each step taken alone and shown to `watch` (the CLI's trace).
pub fn run_launch_watched(
    kernel: &Kernel,
    opts: &LaunchOptions,
    mut watch: Option<&mut dyn FnMut(&LaunchStep)>,
) -> Result<LaunchRun, Vec<Diagnostic>> {
    let mut decl = kernel.launch();
    let first_warp;
    let kernel = if decl.warp_idx != 0 {
        // Every warp is made from the first, whole one.
        decl.warp_idx = 0;
        let mut k = kernel.clone();
        k.launch = Some(decl);
        first_warp = k;
        &first_warp
    } else {
        kernel
    };
    let p = prepare(kernel, opts)?;
    let mut first = p.instance.machine;
    let mut memory = core::mem::take(&mut first.memory);
    let per_thread: Vec<usize> =
        kernel.buffers.iter().filter(|b| b.per_thread()).filter_map(|b| memory.buffers.iter().position(|m| m.name == b.name)).collect();
    let shared: Vec<(usize, Vec<u32>)> =
        memory.buffers.iter().enumerate().filter(|(_, b)| b.space == Space::Shared).map(|(k, _)| (k, memory.words[k].clone())).collect();
    let plain = PlainPcs::of(&p.program, p.config.model.plain_branches());
    let steps = WarpSteps { program: &p.program, plain: &plain, config: &p.config, warp_width: kernel.warp_width };
    let maker = WarpMaker {
        program: &p.program,
        config: &p.config,
        first,
        width: kernel.warp_width,
        grid: decl.grid,
        block: decl.block,
        per_thread,
    };
    let limit = p.config.step_limit;
    let mut run = LaunchRun {
        memory: Memory::default(),
        output: Vec::new(),
        output_cut_at: None,
        totals: Totals::default(),
        blocks: Vec::new(),
        warps: Vec::new(),
        end: LaunchEnd { reason: StopReason::Exited, block_idx: [0; 3], warp: 0, step: 0, pc: None, message: String::new() },
        params: p.instance.params,
        width: kernel.warp_width,
        program: p.program.clone(),
        unwritten_read: None,
    };
    let mut printout = Printout::default();
    'blocks: for bz in 0..decl.grid[2] {
        for by in 0..decl.grid[1] {
            for bx in 0..decl.grid[0] {
                let block_idx = [bx, by, bz];
                for (k, words) in &shared {
                    memory.restart(*k, words);
                }
                let warps = (0..maker.warps_per_block()).map(|w| maker.warp(block_idx, w, &mut memory)).collect();
                let linear = (bz as u64 * decl.grid[1] as u64 + by as u64) * decl.grid[0] as u64 + bx as u64;
                let mut block = Block::new(warps, opts.warp_scheduler, linear);
                let from = printout.records.len();
                let program = &p.program;
                let watching_any = watch.is_some();
                let mut each = |step: u64, warp: usize, issued: &Issued, state: &WarpState| {
                    if let Some(w) = watch.as_deref_mut() {
                        w(&LaunchStep { step, block_idx, warp, issued, state, program });
                    }
                };
                let watching = if watching_any { Some(&mut each as &mut StepWatch) } else { None };
                let (ran, end) = block.run(&steps, &mut memory, limit - run.totals.steps, run.totals.steps, &mut printout, watching);
                let step = run.totals.steps + ran;
                let mut block_totals = Totals::default();
                for (w, warp) in block.warps.iter().enumerate() {
                    let m = &warp.state.machine;
                    if let (None, Some(read)) = (run.unwritten_read, m.unwritten_read) {
                        run.unwritten_read = Some((block_idx, m.launch.thread_idx(read.lane), read.addr));
                    }
                    let totals = Totals::of_warp(&warp.state.metrics, warp.barrier_waits);
                    block_totals.add(&totals);
                    run.warps.push(WarpTotals { block_idx, warp: w as u32, totals });
                }
                run.totals.add(&block_totals);
                run.blocks.push(BlockTotals { block_idx, totals: block_totals, barriers: block.barrier_releases });
                for (step, w, r) in printout.records[from..].iter() {
                    let launch = Launch { grid: decl.grid, block: decl.block, block_idx, first_thread: w * maker.width };
                    let text = crate::printf::line(&p.program.formats, r).text;
                    run.output.push(LaunchLine { step: *step, block_idx, thread_idx: launch.thread_idx(r.lane as u32), text });
                }
                let ended = |reason, warp, pc, message| LaunchEnd { reason, block_idx, warp, step, pc, message };
                let at = |w: usize| alloc::format!("block ({bx}, {by}, {bz}), warp {w}");
                match end {
                    BlockEnd::Done => {
                        run.end = ended(StopReason::Exited, block.warps.len().saturating_sub(1) as u32, None, "every thread exited".into())
                    }
                    BlockEnd::Budget => {
                        let w = block.last().unwrap_or(0);
                        let warp = &mut block.warps[w];
                        warp.lend(&mut memory);
                        let site = loop_site(&p.program, &p.config, &warp.state, 4096);
                        warp.take_back(&mut memory);
                        let looping = site.as_ref().map_or(String::new(), |s| alloc::format!(": {}", s.describe(&p.program)));
                        let message = alloc::format!(
                            "stopped after {step} steps (the step limit) with {} still looping{looping}: an endless loop?",
                            at(w)
                        );
                        run.end = ended(StopReason::StepLimit, w as u32, site.map(|s| s.head), message);
                        break 'blocks;
                    }
                    BlockEnd::Stuck(why) => {
                        let w = block.last().unwrap_or(0);
                        let pc = block.warps.iter().find_map(|w| w.at.map(|a| a.pc));
                        let message = alloc::format!("block ({bx}, {by}, {bz}): {why}");
                        let reason = StopReason::Deadlock { pc: pc.unwrap_or_default(), message: message.clone() };
                        run.end = ended(reason, w as u32, pc, message);
                        break 'blocks;
                    }
                    BlockEnd::Failed(w) => {
                        let (reason, pc, message) = match &block.warps[w].state.status {
                            Status::Fault { pc, message } => (StopReason::Fault { pc: *pc, message: message.clone() }, *pc, message),
                            Status::Deadlock { pc, message } => (StopReason::Deadlock { pc: *pc, message: message.clone() }, *pc, message),
                            _ => unreachable!("a failed warp has a fault or a deadlock"),
                        };
                        let message = alloc::format!("{}: {message}", at(w));
                        run.end = ended(reason, w as u32, Some(pc), message);
                        break 'blocks;
                    }
                }
            }
        }
    }
    run.output_cut_at = printout.cut_at;
    run.memory = memory;
    Ok(run)
}
