//! A kernel's whole launch: every block of its grid, one after another in blockIdx order (x
//! fastest; blocks cannot wait for each other, so that is a schedule a GPU may run), each block
//! running all its warps (`block`). Global and constant memory and printf's output belong to the
//! launch; each block starts with its shared memory as the inputs set it.
//!
//! This run records no steps: it gives the launch's results (every buffer, what it printed, how
//! it ended) and its counts per warp, per block and in all.

mod launcher;
mod recorded;
mod totals;
mod warps;

pub use launcher::{Code, LaunchParts, Launcher};
pub use recorded::{RecordedLaunch, SharedWrite, WarpDoing, WarpNow, CHECKPOINT_INTERVAL};
pub use totals::Totals;
pub use warps::WarpMaker;

use alloc::string::String;
use alloc::vec::Vec;

use crate::block::StepWatch;
use crate::diag::Diagnostic;
use crate::isa::Pc;
use crate::kernel::expr::Value;
use crate::kernel::Kernel;
use crate::launch::LaunchOptions;
use crate::machine::Memory;
use crate::model::Issued;
use crate::program::Program;
use crate::sim::{StopReason, WarpState};

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
    Ok(run_launcher(Launcher::new(kernel, opts)?))
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
    watch: Option<&mut dyn FnMut(&LaunchStep)>,
) -> Result<LaunchRun, Vec<Diagnostic>> {
    Ok(run_launcher_watched(Launcher::new(kernel, opts)?, watch))
}

/// Runs every block of `launcher`'s launch, each step taken alone and shown to `watch`.
pub fn run_launcher_watched(mut launcher: Launcher, mut watch: Option<&mut dyn FnMut(&LaunchStep)>) -> LaunchRun {
    // The watcher's view of the code, apart from the launcher that steps.
    let program = if watch.is_some() { launcher.code.program.clone() } else { Program::default() };
    let blocks: Vec<[u32; 3]> = launcher.code.blocks().collect();
    let watching_any = watch.is_some();
    for block_idx in blocks {
        let mut each = |step: u64, warp: usize, issued: &Issued, state: &WarpState| {
            if let Some(w) = watch.as_deref_mut() {
                w(&LaunchStep { step, block_idx, warp, issued, state, program: &program });
            }
        };
        let watching = if watching_any { Some(&mut each as &mut StepWatch) } else { None };
        if !launcher.run_whole(block_idx, watching) {
            break;
        }
    }
    launcher.finish()
}

/// Runs every block of a launch made elsewhere (a host program's), and gives its results.
pub fn run_launcher(mut launcher: Launcher) -> LaunchRun {
    let blocks: Vec<[u32; 3]> = launcher.code.blocks().collect();
    for block_idx in blocks {
        if !launcher.run_whole(block_idx, None) {
            break;
        }
    }
    launcher.finish()
}
