//! What a finished run warns of, beside the kernel's own diagnostics: a read of shared memory
//! that no lane of the warp had written. On a GPU the block's other warps may write it first (a
//! tiled matrix multiply loads its tiles so); warpscope runs one warp, which reads what shared
//! memory started with, and the results differ from the GPU's without a word.

use alloc::format;
use alloc::vec::Vec;

use crate::diag::{Diagnostic, Span};
use crate::kernel::Kernel;
use crate::machine::Machine;

/// The warnings of a whole launch: a thread read shared memory no thread of its block had
/// written.
pub fn launch_warnings(kernel: &Kernel, run: &crate::grid::LaunchRun) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let Some((block, thread, addr)) = run.unwritten_read else { return out };
    if let (Some((name, _)), Some(element)) = (run.memory.element_containing(addr), run.memory.element_name(addr)) {
        let span = kernel.buffers.iter().find(|b| b.name == name).map_or(Span::new(1, 1, 1), |b| b.len.span);
        out.push(Diagnostic::warning(
            span,
            format!(
                "thread ({}, {}, {}) of block ({}, {}, {}) read shared `{element}` before any thread of its block wrote it: on a GPU shared memory starts undefined (here it held what the inputs put there); is a __syncthreads() missing, or an index off?",
                thread[0], thread[1], thread[2], block[0], block[1], block[2]
            ),
        ));
    }
    out
}

/// The warnings of a run that ended in `end` (its final state).
pub fn run_warnings(kernel: &Kernel, end: &Machine) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if let Some(read) = end.unwritten_read {
        if let (Some((name, _)), Some(element)) = (end.memory.element_containing(read.addr), end.memory.element_name(read.addr)) {
            // At the array's declaration (a C kernel's `__shared__` line).
            let span = kernel.buffers.iter().find(|b| b.name == name).map_or(Span::new(1, 1, 1), |b| b.len.span);
            out.push(Diagnostic::warning(
                span,
                format!(
                    "lane {} read shared `{element}` before any lane of this warp wrote it: on a GPU another warp of the block may write it first, but warpscope runs this warp alone, so it read 0 (what shared memory starts with here) and later results may differ from the GPU's",
                    read.lane
                ),
            ));
        }
    }
    out
}
