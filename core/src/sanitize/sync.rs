//! synccheck's view of one block's barriers: where each thread met its k-th `__syncthreads()`.
//! Threads that meet one barrier from two lines (a `__syncthreads()` in each side of a branch)
//! are a divergent barrier; threads that exit without the barrier others waited at complete on
//! Volta and later (an exited thread counts as arrived) but deadlock a GPU before Volta. And
//! `__syncwarp()`s that release lanes waiting at different lines (`WarpSyncs`).

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::report::{Finding, Side, Tool};
use crate::diag::Severity;
use crate::isa::Pc;
use crate::machine::LaneMask;

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

/// A lane at a `__syncwarp()`: its pc, its line and the lanes its mask names.
type Waiting = (Pc, u32, LaneMask);

/// Where each lane of each warp waits at a `__syncwarp()` (its pc, line and mask), released as
/// volta releases them: a lane goes on once every live lane its mask names waits at one, at any
/// line. Lanes released together from different lines are a portability bug: Volta and later
/// let different `__syncwarp()`s meet, but before Volta the lanes a mask names must execute the
/// same one.
#[derive(Default)]
pub struct WarpSyncs {
    waiting: BTreeMap<u32, Vec<Option<Waiting>>>,
    /// Per pair of lines met together, the first example and how many times.
    met: BTreeMap<(u32, u32), (Finding, u64)>,
}

impl WarpSyncs {
    /// A new block: no lane waits.
    pub fn restart(&mut self) {
        self.waiting.clear();
    }

    /// `lanes` of `warp` (of `width`) arrive at the `__syncwarp()` at `pc` (`line`), waiting for
    /// `need`; `live` are the warp's lanes that have not exited.
    #[allow(clippy::too_many_arguments)]
    pub fn arrive(&mut self, block: [u32; 3], warp: u32, width: u32, lanes: LaneMask, live: LaneMask, pc: Pc, line: u32, need: LaneMask) {
        let waiting = self.waiting.entry(warp).or_insert_with(|| alloc::vec![None; width as usize]);
        for l in lanes.iter() {
            waiting[l as usize] = Some((pc, line, need));
        }
        let at = |l: u32| waiting.get(l as usize).copied().flatten();
        let released: Vec<u32> =
            (0..width).filter(|&l| at(l).is_some_and(|(_, _, n)| (n & live).iter().all(|o| at(o).is_some()))).collect();
        let mut meetings = Vec::new();
        for &l in &released {
            let Some((pc, line, need)) = at(l) else { continue };
            let other = (need & live).iter().find_map(|o| at(o).filter(|w| w.0 != pc));
            // Once per pair of sites, from the one first in the source (two on one line, by pc).
            let first = |o: &Waiting| (line, pc.0) < (o.1, o.0 .0);
            let counted = |pc: Pc| meetings.iter().any(|m: &((u32, Pc), (u32, Pc), LaneMask, LaneMask)| m.0 .1 == pc);
            if let Some((other_pc, other_line, _)) = other.filter(|o| first(o) && !counted(pc)) {
                meetings.push(((line, pc), (other_line, other_pc), lanes_at(waiting, pc), lanes_at(waiting, other_pc)));
            }
        }
        for &l in &released {
            waiting[l as usize] = None;
        }
        for (a, b, lanes_a, lanes_b) in meetings {
            self.meet(block, warp, a, b, lanes_a, lanes_b);
        }
    }

    fn meet(&mut self, block: [u32; 3], warp: u32, a: (u32, Pc), b: (u32, Pc), lanes_a: LaneMask, lanes_b: LaneMask) {
        if let Some((_, n)) = self.met.get_mut(&(a.0, b.0)) {
            *n += 1;
            return;
        }
        let message = format!(
            "in warp {warp} of block ({}, {}, {}), lanes {} waited at the `__syncwarp()` at line {} and lanes {} at the one at line {}, and each mask named the others: Volta and later GPUs let different `__syncwarp()`s meet (so does warpscope's volta), but before Volta the lanes a mask names must execute the same `__syncwarp()` (undefined there); call it once, where both paths have joined",
            block[0],
            block[1],
            block[2],
            crate::machine::LaneList(lanes_a),
            a.0,
            crate::machine::LaneList(lanes_b),
            b.0
        );
        let mut f = finding(block, Severity::Warning, "__syncwarp() met from two lines", message, a, Some(b));
        for side in [Some(&mut f.first), f.second.as_mut()].into_iter().flatten() {
            side.warp = warp;
        }
        self.met.insert((a.0, b.0), (f, 1));
    }

    /// The findings, each counting the times its lines met.
    pub fn findings(self) -> impl Iterator<Item = Finding> {
        self.met.into_values().map(|(mut f, n)| {
            f.count = n;
            f
        })
    }
}

/// The lanes of `waiting` that wait at `pc`.
fn lanes_at(waiting: &[Option<Waiting>], pc: Pc) -> LaneMask {
    waiting.iter().enumerate().filter(|(_, w)| w.is_some_and(|w| w.0 == pc)).fold(LaneMask::EMPTY, |m, (l, _)| m.with(l as u32))
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
