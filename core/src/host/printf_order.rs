//! The order a GPU's device `printf` lines reach the host in. Blocks run at once on a GPU, so
//! their lines interleave; the H100 (examples/experiments/printf_order.cu and its output)
//! prints each warp's k-th `printf` before any warp's (k+1)-th, among one round those of fewer
//! lanes first (a warp of 8 lanes writes its records sooner than one of 32), then by block and
//! warp, each warp's lanes in order. warpscope runs blocks one after another; this puts their
//! lines in that order.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use crate::grid::LaunchLine;

/// Where one warp's `printf` goes: its round, its lanes, its block and its warp.
type RunKey = (u64, usize, u64, u64);

/// The text of `lines` (a launch's, in the order it ran) in the order a GPU prints them.
/// `block` and `grid` are the launch's sizes.
pub fn gpu_order(lines: &[LaunchLine], grid: [u32; 3], block: [u32; 3]) -> Vec<String> {
    let linear = |i: [u32; 3], d: [u32; 3]| (i[2] as u64 * d[1] as u64 + i[1] as u64) * d[0] as u64 + i[0] as u64;
    // One `printf` run by one warp: the lines of one warp at one step.
    let mut runs: BTreeMap<(u64, u64, u64), Vec<&LaunchLine>> = BTreeMap::new();
    for l in lines {
        let warp = linear(l.thread_idx, block) / 32;
        runs.entry((linear(l.block_idx, grid), warp, l.step)).or_default().push(l);
    }
    // Each run's round: how many runs of its warp came before it.
    let mut keyed: Vec<(RunKey, Vec<&LaunchLine>)> = Vec::new();
    let mut round = 0;
    let mut last = None;
    for ((block, warp, _), run) in runs {
        round = if last == Some((block, warp)) { round + 1 } else { 0 };
        last = Some((block, warp));
        keyed.push(((round, run.len(), block, warp), run));
    }
    keyed.sort_by_key(|(key, _)| *key);
    keyed.into_iter().flat_map(|(_, run)| run.into_iter().map(|l| l.text.clone())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;

    fn line(step: u64, block: u32, thread: u32) -> LaunchLine {
        LaunchLine { step, block_idx: [block, 0, 0], thread_idx: [thread, 0, 0], text: format!("b{block} t{thread}\n") }
    }

    #[test]
    fn rounds_then_fewer_lanes_then_blocks_as_the_h100_printed_them() {
        // <<<2, 36>>>, one printf: block 0 ran whole before block 1, warp 0 before warp 1.
        let mut lines = Vec::new();
        for (b, start) in [(0u32, 0u64), (1, 10)] {
            lines.extend((0..32).map(|t| line(start + 1, b, t)));
            lines.extend((32..36).map(|t| line(start + 2, b, t)));
        }
        let got = gpu_order(&lines, [2, 1, 1], [36, 1, 1]);
        let want: Vec<String> = [(0, 32..36), (1, 32..36), (0, 0..32), (1, 0..32)]
            .into_iter()
            .flat_map(|(b, ts)| ts.map(move |t| format!("b{b} t{t}\n")))
            .collect();
        assert_eq!(got, want, "the warps of 4 lanes first, then those of 32, each round block by block");
    }
}
