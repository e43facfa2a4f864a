//! synccheck's view of one block's barriers: where each thread met its k-th `__syncthreads()`.
//! Threads that meet one barrier from two lines (a `__syncthreads()` in each side of a branch)
//! are a divergent barrier; threads that exit without the barrier others waited at complete on
//! Volta and later (an exited thread counts as arrived) but deadlock a GPU before Volta.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::report::{Finding, Side, Tool};
use crate::diag::Severity;
use crate::isa::Pc;

/// Per barrier (the k-th each thread met), the lines it was met at and by which threads.
#[derive(Default)]
pub struct Barriers {
    met: Vec<BTreeMap<(u32, Pc), Vec<u32>>>,
    /// Barriers each thread met.
    count: BTreeMap<u32, usize>,
}

impl Barriers {
    pub fn arrive(&mut self, thread: u32, pc: Pc, line: u32) {
        let k = self.count.entry(thread).or_default();
        if self.met.len() <= *k {
            self.met.push(BTreeMap::new());
        }
        self.met[*k].entry((line, pc)).or_default().push(thread);
        *k += 1;
    }

    /// What the block's barriers break, once it has run: `threads`, the block's size; `ended`,
    /// whether every thread exited (else the threads missing at a barrier did not exit: the
    /// launch's own failure says where they are).
    pub fn findings(&self, block: [u32; 3], threads: u32, lockstep: bool, ended: bool) -> Vec<Finding> {
        let mut out = Vec::new();
        for (k, at) in self.met.iter().enumerate() {
            let mut lines = at.iter();
            let Some(((line, pc), first)) = lines.next() else { continue };
            if let Some(((other, other_pc), second)) = lines.next() {
                let message = format!(
                    "threads {} met their barrier {} at line {line} and threads {} at line {other}: one `__syncthreads()` must be reached by every thread of the block, not one in each side of a branch (what the threads see of each other's writes is undefined)",
                    ranges(first),
                    k + 1,
                    ranges(second)
                );
                out.push(finding(block, Severity::Error, "divergent barrier", message, (*line, *pc), Some((*other, *other_pc))));
                continue;
            }
            let arrived: usize = at.values().map(Vec::len).sum();
            if ended && (arrived as u32) < threads {
                let absent: Vec<u32> = (0..threads).filter(|t| !first.contains(t)).collect();
                let later = if lockstep { "here too, under this model" } else { "under kepler or pdom" };
                let message = format!(
                    "threads {} of the block exited without reaching the `__syncthreads()` at line {line} that threads {} waited at: Volta and later GPUs count exited threads as arrived, so it completes there, but a GPU before Volta deadlocks ({later}); put the barrier where every thread reaches it",
                    ranges(&absent),
                    ranges(first),
                );
                out.push(finding(block, Severity::Warning, "barrier not reached by every thread", message, (*line, *pc), None));
            }
        }
        out
    }
}

fn finding(block: [u32; 3], severity: Severity, title: &str, message: String, at: (u32, Pc), other: Option<(u32, Pc)>) -> Finding {
    let side =
        |(line, pc): (u32, Pc)| Side { block, warp: 0, thread: None, step: 0, pc: Some(pc), line, kind: None, addr: None, element: None };
    Finding {
        tool: Tool::Synccheck,
        severity,
        title: String::from(title),
        message,
        first: side(at),
        second: other.map(side),
        count: 1,
        kernel: String::new(),
        launch: None,
    }
}

/// `0-47, 50` for a list of thread numbers.
pub fn ranges(threads: &[u32]) -> String {
    let mut sorted = threads.to_vec();
    sorted.sort_unstable();
    let mut out = String::new();
    // Writing to a String cannot fail.
    let _ = crate::machine::write_ranges(&mut out, sorted.into_iter());
    out
}
