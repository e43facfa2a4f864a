//! Summaries of a run's step records for the page, so that JS never holds a per-step series (the
//! three whole-run series of a 50 M-step run were 150 MB): the stack plot's depth per column and
//! its spill and fill marks, the scrubber strip's event marks, event searches and the lanes issued
//! in a window. Each is one pass over the records, reduced the way the panel draws it, so that
//! a short run's pictures are what they were when JS reduced whole series.

use warpscope_core::sim::{event, StepRecord};

/// The x of step `k` on an axis of `n` steps from `left`, `width` wide (the plot's and the
/// figure's scale, evaluated as they evaluate it).
fn x_of(k: usize, n: usize, left: f64, width: f64) -> f64 {
    left + if n == 0 { 0.0 } else { (k as f64 / n as f64) * width }
}

/// The depth path over `n` steps in `columns` columns: every step's depth when there are at most
/// two steps a column, else `[last step, max, min, last depth]` for each column.
pub(crate) fn depth_columns(records: impl Iterator<Item = StepRecord>, n: usize, columns: usize) -> Vec<u32> {
    let mut depths = records.take(n).map(|r| r.depth as u32);
    if n <= columns * 2 {
        return depths.collect();
    }
    let per = n as f64 / columns as f64;
    let mut out = Vec::with_capacity(columns * 4);
    let mut k = 0;
    for c in 0..columns {
        let end = n.min(((c + 1) as f64 * per).floor() as usize);
        let (mut lo, mut hi, mut last) = (u32::MAX, 0, 0);
        while k < end {
            last = depths.next().unwrap_or(0);
            (lo, hi) = (lo.min(last), hi.max(last));
            k += 1;
        }
        out.extend([end as u32, hi, lo, last]);
    }
    out
}

/// The steps that spill or fill, at most one per `gap` units of x (closer marks could not be told
/// apart), as `[step, 1 for a spill else 0, depth after it]`.
pub(crate) fn stack_marks(records: impl Iterator<Item = StepRecord>, n: usize, left: f64, width: f64, gap: f64) -> Vec<u32> {
    let mut out = Vec::new();
    let mut last_x = f64::NEG_INFINITY;
    for (k, r) in records.take(n).enumerate() {
        if r.events & (event::SPILL | event::FILL) == 0 {
            continue;
        }
        let at = x_of(k + 1, n, left, width);
        if at - last_x < gap {
            continue;
        }
        last_x = at;
        out.extend([k as u32 + 1, (r.events & event::SPILL != 0) as u32, r.depth as u32]);
    }
    out
}

/// The scrubber strip's rows: divergences, reconvergences, spills and fills.
const STRIP_ROWS: [u16; 3] = [event::DIVERGE, event::RECONVERGE, event::SPILL | event::FILL];

/// The scrubber strip's marks over `span` steps of `events`, `[row, step]` each: a row's marks at
/// least a pixel apart on a strip `width` pixels wide whose marks run `inset` in from each end.
pub(crate) fn strip_marks(events: impl Iterator<Item = u16>, span: usize, inset: f64, width: f64) -> Vec<u32> {
    let mut out = Vec::new();
    let mut last = [-2.0f64; 3];
    for (k, ev) in events.take(span).enumerate() {
        for (row, bits) in STRIP_ROWS.iter().enumerate() {
            if ev & bits == 0 {
                continue;
            }
            let x = inset + ((k + 1) as f64 / span as f64) * (width - 2.0 * inset);
            if x - last[row] < 1.0 {
                continue;
            }
            last[row] = x;
            out.extend([row as u32, k as u32 + 1]);
        }
    }
    out
}
