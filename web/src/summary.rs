//! Summaries of a run's step records for the page, so that JS never holds a per-step series (the
//! three whole-run series of a 50 M-step run were 150 MB): the stack plot's depth per column and
//! its spill and fill marks, and the scrubber strip's event marks. Each is reduced the way the
//! panel draws it, so that a short run's pictures are what they were when JS reduced whole
//! series. Each reads the records' segment summaries (`StepLog::segments`) and decodes only
//! the segments it must look into: a whole segment inside a column, or one without the events sought,
//! is never decoded (three passes over the 50 M records took about a second when a run ended).

use warpscope_core::sim::timeline::RECORD_SEGMENT;
use warpscope_core::sim::{event, StepLog};

/// The x of step `k` on an axis of `n` steps from `left`, `width` wide (the plot's and the
/// figure's scale, evaluated as they evaluate it).
fn x_of(k: usize, n: usize, left: f64, width: f64) -> f64 {
    left + if n == 0 { 0.0 } else { (k as f64 / n as f64) * width }
}

/// The depth path over the first `n` records in `columns` columns: every step's depth when there
/// are at most two steps a column, else `[last step, max, min, last depth]` for each column.
pub(crate) fn depth_columns(t: &StepLog, n: usize, columns: usize) -> Vec<u32> {
    if n <= columns * 2 {
        return t.iter().take(n).map(|r| r.depth as u32).collect();
    }
    let per = n as f64 / columns as f64;
    let mut out = Vec::with_capacity(columns * 4);
    let mut k = 0;
    for c in 0..columns {
        let end = n.min(((c + 1) as f64 * per).floor() as usize);
        let (lo, hi, last) = depth_range(t, k, end);
        out.extend([end as u32, hi, lo, last]);
        k = end.max(k);
    }
    out
}

/// The least, greatest and last depth of records `from..to` (`u32::MAX, 0, 0` for none): whole
/// segments from their summaries, the parts of segments at either end decoded.
fn depth_range(t: &StepLog, from: usize, to: usize) -> (u32, u32, u32) {
    let segments = t.segments();
    let (mut lo, mut hi, mut last) = (u32::MAX, 0, 0);
    let mut k = from;
    while k < to {
        let segment = k / RECORD_SEGMENT;
        let end = (segment + 1) * RECORD_SEGMENT;
        if k.is_multiple_of(RECORD_SEGMENT) && end <= to {
            let b = segments[segment];
            (lo, hi, last) = (lo.min(b.min_depth as u32), hi.max(b.max_depth as u32), b.last_depth as u32);
            k = end;
        } else {
            let stop = end.min(to);
            for r in t.iter_from(k).take(stop - k) {
                last = r.depth as u32;
                (lo, hi) = (lo.min(last), hi.max(last));
            }
            k = stop;
        }
    }
    (lo, hi, last)
}

/// The steps that spill or fill, at most one per `gap` units of x (closer marks could not be told
/// apart), as `[step, 1 for a spill else 0, depth after it]`.
pub(crate) fn stack_marks(t: &StepLog, n: usize, left: f64, width: f64, gap: f64) -> Vec<u32> {
    let bits = event::SPILL | event::FILL;
    let mut out = Vec::new();
    let mut last_x = f64::NEG_INFINITY;
    for (k, r) in t.records_in_segments_with(bits, 0, n) {
        if r.events & bits == 0 {
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

/// The scrubber strip's marks over `span` steps of the events of `runs` together (a step's bits
/// ORed over the runs; a run that ended has none), `[row, step]` each: a row's marks at least a
/// pixel apart on a strip `width` pixels wide whose marks run `inset` in from each end. A fourth
/// row marks `releases`, the steps at which a launch's barrier released its block's warps.
pub(crate) fn strip_marks(runs: &[&StepLog], releases: &[u64], span: usize, inset: f64, width: f64) -> Vec<u32> {
    let any = STRIP_ROWS.iter().fold(0, |a, b| a | b);
    let mut marks = StripMarks { out: Vec::new(), last: [-2.0; STRIP_ROWS.len() + 1], span, inset, width };
    let mut events = [0u16; RECORD_SEGMENT];
    for segment in 0..span.div_ceil(RECORD_SEGMENT) {
        let together = runs.iter().fold(0, |a, t| a | t.segments().get(segment).map_or(0, |b| b.events));
        if together & any == 0 {
            continue;
        }
        let start = segment * RECORD_SEGMENT;
        let len = RECORD_SEGMENT.min(span - start);
        events[..len].fill(0);
        for t in runs {
            for (e, r) in events.iter_mut().zip(t.iter_from(start).take(len)) {
                *e |= r.events;
            }
        }
        for (i, &ev) in events[..len].iter().enumerate() {
            for (row, bits) in STRIP_ROWS.iter().enumerate() {
                if ev & bits != 0 {
                    marks.add(row, start + i + 1);
                }
            }
        }
    }
    for &t in releases.iter().filter(|&&t| t as usize <= span) {
        marks.add(STRIP_ROWS.len(), t as usize);
    }
    marks.out
}

/// The strip's marks as they are placed, and where each row's last one is.
struct StripMarks {
    out: Vec<u32>,
    last: [f64; STRIP_ROWS.len() + 1],
    span: usize,
    inset: f64,
    width: f64,
}

impl StripMarks {
    /// A mark of `row` at `step`, unless the row's last is less than a pixel before it.
    fn add(&mut self, row: usize, step: usize) {
        let x = x_of(step, self.span, self.inset, self.width - 2.0 * self.inset);
        if x - self.last[row] >= 1.0 {
            self.last[row] = x;
            self.out.extend([row as u32, step as u32]);
        }
    }
}
