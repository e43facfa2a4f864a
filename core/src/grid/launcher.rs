//! A launch being run: its code and choices, the launch's memory and what it has counted so
//! far, block by block. `run_launch` runs every block through it; a recorded run steps the
//! block on screen one step at a time through the same `start_block` and `tally`.

use alloc::string::String;
use alloc::vec::Vec;

use super::warps::WarpMaker;
use super::{BlockTotals, LaunchEnd, LaunchLine, LaunchRun, Totals, WarpTotals};
use crate::block::{Block, BlockEnd, Printout, StepWatch, WarpScheduler};
use crate::diag::Diagnostic;
use crate::kernel::{Kernel, LaunchDecl};
use crate::launch::{prepare, LaunchOptions};
use crate::machine::{Launch, Memory, Space};
use crate::program::{PlainPcs, Program};
use crate::sim::{loop_site, SimConfig, Status, StopReason, WarpSteps};

/// What every block of a launch runs: the program and the run's choices.
#[derive(Clone, Debug)]
pub struct Code {
    pub program: Program,
    pub plain: PlainPcs,
    pub config: SimConfig,
    pub decl: LaunchDecl,
    pub scheduler: WarpScheduler,
    pub maker: WarpMaker,
    /// Each shared buffer's words as the inputs set them: every block starts with them.
    shared: Vec<(usize, Vec<u32>)>,
}

impl Code {
    pub fn steps(&self) -> WarpSteps<'_> {
        WarpSteps { program: &self.program, plain: &self.plain, config: &self.config, warp_width: self.maker.width }
    }

    /// Every block of the grid, in blockIdx order (x fastest).
    pub fn blocks(&self) -> impl Iterator<Item = [u32; 3]> + '_ {
        let g = self.decl.grid;
        (0..g[2]).flat_map(move |z| (0..g[1]).flat_map(move |y| (0..g[0]).map(move |x| [x, y, z])))
    }
}

/// What a launch runs besides its memory and warps: the program, the run's choices, the
/// launch's sizes and its params' values (as shown).
pub struct LaunchParts {
    pub program: Program,
    pub config: SimConfig,
    pub decl: LaunchDecl,
    pub scheduler: WarpScheduler,
    pub params: Vec<(String, crate::kernel::expr::Value)>,
}

/// A launch under way.
#[derive(Clone, Debug)]
pub struct Launcher {
    pub code: Code,
    /// The launch's memory, with the running block's shared memory in it.
    pub memory: Memory,
    pub printout: Printout,
    /// What the blocks run so far counted, and how the launch ended (`Exited` until it does not).
    pub run: LaunchRun,
}

impl Launcher {
    pub fn new(kernel: &Kernel, opts: &LaunchOptions) -> Result<Launcher, Vec<Diagnostic>> {
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
        let memory = core::mem::take(&mut first.memory);
        let per_thread =
            kernel.buffers.iter().filter(|b| b.per_thread()).filter_map(|b| memory.buffers.iter().position(|m| m.name == b.name));
        let maker = WarpMaker { first, width: kernel.warp_width, grid: decl.grid, block: decl.block, per_thread: per_thread.collect() };
        let parts = LaunchParts { program: p.program, config: p.config, decl, scheduler: opts.warp_scheduler, params: p.instance.params };
        Ok(Launcher::from_parts(parts, maker, memory))
    }

    /// A launch of `parts.program` on `memory`, its warps made by `maker` (a host program's
    /// launch: the device's memory, the registers its arguments set).
    pub fn from_parts(parts: LaunchParts, maker: WarpMaker, memory: Memory) -> Launcher {
        let LaunchParts { program, config, decl, scheduler, params } = parts;
        let shared = memory
            .buffers
            .iter()
            .enumerate()
            .filter(|(_, b)| b.space == Space::Shared)
            .map(|(k, _)| (k, memory.words[k].clone()))
            .collect();
        let run = LaunchRun {
            memory: Memory::default(),
            output: Vec::new(),
            output_cut_at: None,
            totals: Totals::default(),
            blocks: Vec::new(),
            warps: Vec::new(),
            end: LaunchEnd { reason: StopReason::Exited, block_idx: [0; 3], warp: 0, step: 0, pc: None, message: String::new() },
            params,
            width: maker.width,
            program: program.clone(),
            unwritten_read: None,
        };
        let plain = PlainPcs::of(&program, config.model.plain_branches());
        let code = Code { program, plain, config, decl, scheduler, maker, shared };
        Launcher { code, memory, printout: Printout::default(), run }
    }

    /// The block at `block_idx`, its warps made and its shared memory as the inputs set it.
    pub fn start_block(&mut self, block_idx: [u32; 3]) -> Block {
        let code = &self.code;
        for (k, words) in &code.shared {
            self.memory.restart(*k, words);
        }
        let warps = (0..code.maker.warps_per_block()).map(|w| code.maker.warp(&code.program, &code.config, block_idx, w, &mut self.memory));
        let warps = warps.collect();
        let g = code.decl.grid;
        let linear = (block_idx[2] as u64 * g[1] as u64 + block_idx[1] as u64) * g[0] as u64 + block_idx[0] as u64;
        Block::new(warps, code.scheduler, linear)
    }

    /// Runs the block at `block_idx` from its start to its end and counts it (each step shown to
    /// `watch`, if any); whether the launch goes on to the next block.
    pub fn run_whole(&mut self, block_idx: [u32; 3], watch: Option<&mut StepWatch>) -> bool {
        let mut block = self.start_block(block_idx);
        let printed = self.printout.records.len();
        let (ran, end) = self.run_block(&mut block, watch);
        self.tally(&mut block, block_idx, ran, end, printed)
    }

    /// Runs `block` as far as the step limit allows (each step shown to `watch`, if any).
    pub fn run_block(&mut self, block: &mut Block, watch: Option<&mut StepWatch>) -> (u64, BlockEnd) {
        let left = self.code.config.step_limit - self.run.totals.steps;
        let (steps, first) = (self.code.steps(), self.run.totals.steps);
        block.run(&steps, &mut self.memory, left, first, &mut self.printout, watch)
    }

    /// Counts `block`, which ran `ran` steps after the launch's others and ended with `end`
    /// (its printf records from `printed` on); whether the launch goes on to the next block.
    pub fn tally(&mut self, block: &mut Block, block_idx: [u32; 3], ran: u64, end: BlockEnd, printed: usize) -> bool {
        let (code, run) = (&self.code, &mut self.run);
        let step = run.totals.steps + ran;
        let mut block_totals = Totals::default();
        for (w, warp) in block.warps.iter().enumerate() {
            let m = &warp.state.machine;
            if let (None, Some(read)) = (run.unwritten_read, m.unwritten_read) {
                run.unwritten_read = Some((block_idx, m.launch.thread_idx(read.lane), read.addr));
            }
            let totals = Totals::of_warp(&warp.state, warp.barrier_waits);
            block_totals.add(&totals);
            run.warps.push(WarpTotals { block_idx, warp: w as u32, totals });
        }
        run.totals.add(&block_totals);
        run.blocks.push(BlockTotals { block_idx, totals: block_totals, barriers: block.barrier_releases });
        let d = code.decl;
        for (step, w, r) in self.printout.records[printed..].iter() {
            let launch = Launch { grid: d.grid, block: d.block, block_idx, first_thread: w * code.maker.width };
            let text = crate::printf::line(&code.program.formats, r).text;
            run.output.push(LaunchLine { step: *step, block_idx, thread_idx: launch.thread_idx(r.lane as u32), text });
        }
        let ended = |reason, warp, pc, message| LaunchEnd { reason, block_idx, warp, step, pc, message };
        let [bx, by, bz] = block_idx;
        let at = |w: usize| alloc::format!("block ({bx}, {by}, {bz}), warp {w}");
        let last = block.last().unwrap_or(0);
        let done = end == BlockEnd::Done;
        run.end = match end {
            BlockEnd::Done => ended(StopReason::Exited, block.warps.len().saturating_sub(1) as u32, None, "every thread exited".into()),
            BlockEnd::Budget => {
                let warp = &mut block.warps[last];
                warp.lend(&mut self.memory);
                let site = loop_site(&code.program, &code.config, &warp.state, 4096);
                warp.take_back(&mut self.memory);
                let looping = site.as_ref().map_or(String::new(), |s| alloc::format!(": {}", s.describe(&code.program)));
                let message = alloc::format!(
                    "stopped after {step} steps (the step limit) with {} still looping{looping}: an endless loop?",
                    at(last)
                );
                ended(StopReason::StepLimit, last as u32, site.map(|s| s.head), message)
            }
            BlockEnd::Stuck(why) => {
                let pc = block.warps.iter().find_map(|w| w.at.map(|a| a.pc));
                let message = alloc::format!("block ({bx}, {by}, {bz}): {why}");
                ended(StopReason::Deadlock { pc: pc.unwrap_or_default(), message: message.clone() }, last as u32, pc, message)
            }
            BlockEnd::Failed(w) => {
                let (pc, message, fault) = match &block.warps[w].state.status {
                    Status::Fault { pc, message, access } => (*pc, message, Some(*access)),
                    Status::Deadlock { pc, message } => (*pc, message, None),
                    _ => unreachable!("a failed warp has a fault or a deadlock"),
                };
                let reason = match fault {
                    Some(access) => StopReason::Fault { pc, message: message.clone(), access },
                    None => StopReason::Deadlock { pc, message: message.clone() },
                };
                ended(reason, w as u32, Some(pc), alloc::format!("{}: {message}", at(w)))
            }
        };
        done
    }

    /// The launch's results, once no block is left to run.
    pub fn finish(mut self) -> LaunchRun {
        self.run.output_cut_at = self.printout.cut_at;
        self.run.memory = self.memory;
        self.run
    }
}
