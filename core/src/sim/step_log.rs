//! The recorded steps, stored as what changes from one step to the next: usually nothing but
//! the pc, which moves to the next instruction, so most steps take one byte.
//!
//! Each step is a header byte and the fields it says changed:
//!
//! - bits 0-2, the pc: 0 the next instruction; 1-6 the previous pc plus -2..=3 (a lane of a
//!   per-lane model at the pc before, a short jump); 7 a zigzag LEB128 distance from the next
//!   instruction follows;
//! - bits 3-4, the mask: 0 the same; 1 the previous one shifted up a lane (MIMD's round-robin);
//!   2 one lane, whose number follows in a byte; 3 the XOR with the previous mask follows, LEB128;
//! - bit 5: the depth changed, the zigzag LEB128 difference follows;
//! - bit 6: the step has events, a byte of event bits follows.
//!
//! Bytes go into chunks that never move (no growing vector's copies); a step is never split
//! across chunks. Every `SEGMENT` steps the index keeps where the segment starts and the record
//! before it, so the record of any step is at most `SEGMENT - 1` decodes away; and each segment's
//! summary (`SegmentSummary`) lets a pass over a long run skip the segments it need not decode.

use alloc::vec::Vec;

use super::timeline::StepRecord;

/// Steps per index entry (and per `SegmentSummary`).
pub const SEGMENT: usize = 256;
/// Bytes per chunk.
const CHUNK: usize = 64 << 10;
/// The most bytes one step takes: header, pc (5), mask (10), depth (3), events (1).
const MAX_STEP: usize = 20;

/// The record "before" the first step: its pc is one before 0, so the first step at pc 0 is
/// "the next instruction".
const START: StepRecord = StepRecord { mask: 0, pc: u32::MAX, depth: 0, events: 0 };

/// What a segment of `SEGMENT` steps holds, kept as they are pushed: the range and the last of its
/// depths and every event bit of its steps.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct SegmentSummary {
    pub min_depth: u16,
    pub max_depth: u16,
    pub last_depth: u16,
    pub events: u16,
}

impl SegmentSummary {
    fn of(r: &StepRecord) -> SegmentSummary {
        SegmentSummary { min_depth: r.depth, max_depth: r.depth, last_depth: r.depth, events: r.events }
    }
    fn take(&mut self, r: &StepRecord) {
        self.min_depth = self.min_depth.min(r.depth);
        self.max_depth = self.max_depth.max(r.depth);
        self.last_depth = r.depth;
        self.events |= r.events;
    }
}

#[derive(Clone, Debug)]
pub struct StepLog {
    /// The full chunks.
    chunks: Vec<Vec<u8>>,
    /// The chunk being written, after the full ones (a field of its own: the usual step's check
    /// for room reads it directly, not through `chunks`). No capacity before the first step.
    open: Vec<u8>,
    /// Per segment: (chunk, offset) of its first step, and the record before it.
    index: Vec<(u32, u32, StepRecord)>,
    /// Per segment (the last one perhaps partly filled): its summary. A step of `push`'s inline
    /// case changes none (its depth is the step before's, in the same segment, and it has no events).
    segments: Vec<SegmentSummary>,
    len: usize,
    /// The record of the last step (`START` before the first).
    last: StepRecord,
}

impl Default for StepLog {
    fn default() -> StepLog {
        StepLog { chunks: Vec::new(), open: Vec::new(), index: Vec::new(), segments: Vec::new(), len: 0, last: START }
    }
}

impl StepLog {
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes the log holds in memory (allocated chunks and the index).
    pub fn bytes(&self) -> usize {
        self.chunks.iter().chain([&self.open]).map(Vec::capacity).sum::<usize>()
            + self.index.capacity() * core::mem::size_of::<(u32, u32, StepRecord)>()
            + self.segments.capacity() * core::mem::size_of::<SegmentSummary>()
    }

    /// Bytes the records take (the chunks' bytes written and the index), however much room the
    /// chunks have allocated.
    pub fn used_bytes(&self) -> usize {
        self.chunks.iter().chain([&self.open]).map(Vec::len).sum::<usize>()
            + self.index.len() * core::mem::size_of::<(u32, u32, StepRecord)>()
            + self.segments.len() * core::mem::size_of::<SegmentSummary>()
    }

    /// Each segment's summary, in step order: segment `b` holds records `b * SEGMENT ..`.
    pub fn segments(&self) -> &[SegmentSummary] {
        &self.segments
    }

    /// Appends the next step. Inlined for its usual cases: nothing changed but the pc (the next
    /// instruction, or a jump: a plain branch that every lane takes), and no index entry is due.
    #[inline(always)]
    pub fn push(&mut self, r: StepRecord) {
        let prev = &self.last;
        if r.mask == prev.mask && r.depth == prev.depth && r.events == 0 && !self.len.is_multiple_of(SEGMENT) {
            let (prev_pc, next) = (prev.pc, prev.pc.wrapping_add(1));
            let chunk = &mut self.open;
            if chunk.len() + MAX_STEP <= chunk.capacity() {
                if r.pc == next {
                    chunk.push(0);
                } else {
                    push_pc(chunk, prev_pc, r.pc, 0);
                }
                // Only the pc changed. (Copying the whole record, built field by field just
                // before, stalled on a store-forwarding miss: a fifth of a recorded run's loop.)
                self.last.pc = r.pc;
                self.len += 1;
                return;
            }
        }
        self.push_any(r.mask, r.pc, r.depth, r.events);
    }

    /// Any step. Takes the fields, not the record: a record passed through memory, built field
    /// by field just before, was read back as one 16-byte load that stalled.
    #[inline(never)]
    fn push_any(&mut self, mask: u64, pc: u32, depth: u16, events: u16) {
        let r = StepRecord { mask, pc, depth, events };
        let prev = self.last;
        if self.open.len() + MAX_STEP > self.open.capacity() {
            let full = core::mem::replace(&mut self.open, Vec::with_capacity(CHUNK));
            if !full.is_empty() {
                self.chunks.push(full);
            }
        }
        let chunk_no = self.chunks.len();
        let chunk = &mut self.open;
        if self.len.is_multiple_of(SEGMENT) {
            self.index.push((chunk_no as u32, chunk.len() as u32, prev));
            self.segments.push(SegmentSummary::of(&r));
        } else if let Some(b) = self.segments.last_mut() {
            b.take(&r);
        }
        encode(chunk, &prev, &r);
        self.last = r;
        self.len += 1;
    }

    /// The record of step `i + 1`.
    pub fn get(&self, i: usize) -> Option<StepRecord> {
        self.iter_from(i).next()
    }

    /// Every record, in step order.
    pub fn iter(&self) -> Reader<'_> {
        self.reader_at_segment(0)
    }

    /// The records from the `i`th on (decoding at most `SEGMENT - 1` records to get there).
    pub fn iter_from(&self, i: usize) -> Reader<'_> {
        let mut reader = self.reader_at_segment(i / SEGMENT);
        for _ in 0..i % SEGMENT {
            reader.next();
        }
        reader
    }
    /// The records of indices `from..to` (step `k + 1` for index `k`) that may have one of the
    /// event bits `bits`, with their indices: the segments whose summary has none are passed over
    /// unread, so a caller still tests each record.
    pub fn records_in_segments_with(&self, bits: u16, from: usize, to: usize) -> impl Iterator<Item = (usize, StepRecord)> + '_ {
        let to = to.min(self.len());
        let from = from.min(to);
        let segments = self.segments();
        (from / SEGMENT..to.div_ceil(SEGMENT)).filter(move |&b| segments[b].events & bits != 0).flat_map(move |b| {
            let (start, end) = ((b * SEGMENT).max(from), ((b + 1) * SEGMENT).min(to));
            (start..end).zip(self.iter_from(start).take(end - start))
        })
    }
    /// The first step after step `step` with one of the event bits `bits`.
    pub fn next_event(&self, step: usize, bits: u16) -> Option<usize> {
        self.records_in_segments_with(bits, step, self.len()).find(|(_, r)| r.events & bits != 0).map(|(k, _)| k + 1)
    }
    /// The last step before step `step` with one of the event bits `bits` (searched backwards,
    /// as far as the nearest one).
    pub fn prev_event(&self, step: usize, bits: u16) -> Option<usize> {
        self.last_before(step.saturating_sub(1), |b| b.events & bits != 0, |r| r.events & bits != 0).map(|k| k + 1)
    }

    /// The index of the last record before index `end` that passes `test`, searched segment by
    /// segment backwards: as far back as the nearest match, not from the start. A segment whose
    /// summary fails `may_hold` holds no such record and is not read.
    pub fn last_before(&self, end: usize, may_hold: impl Fn(&SegmentSummary) -> bool, test: impl Fn(&StepRecord) -> bool) -> Option<usize> {
        // Each segment is read once: from its start to `stop`, the start of the segment after it.
        let mut stop = end.min(self.len);
        let mut segment = stop.checked_sub(1)? / SEGMENT;
        loop {
            let start = segment * SEGMENT;
            let found = if may_hold(&self.segments[segment]) {
                self.reader_at_segment(segment).take(stop - start).enumerate().filter(|(_, r)| test(r)).last()
            } else {
                None
            };
            if let Some((k, _)) = found {
                return Some(start + k);
            }
            stop = start;
            segment = segment.checked_sub(1)?;
        }
    }

    /// Chunk `i`: a full one, or the open one after them.
    fn chunk(&self, i: usize) -> &[u8] {
        self.chunks.get(i).unwrap_or(&self.open)
    }

    fn reader_at_segment(&self, segment: usize) -> Reader<'_> {
        let (chunk, offset, prev) = self.index.get(segment).copied().unwrap_or((0, 0, START));
        Reader { log: self, chunk: chunk as usize, offset: offset as usize, prev, left: self.len - (segment * SEGMENT).min(self.len) }
    }
}

/// Decodes records in order.
pub struct Reader<'a> {
    log: &'a StepLog,
    chunk: usize,
    offset: usize,
    prev: StepRecord,
    left: usize,
}

impl Iterator for Reader<'_> {
    type Item = StepRecord;

    #[inline]
    fn next(&mut self) -> Option<StepRecord> {
        if self.left == 0 {
            return None;
        }
        let mut bytes = &self.log.chunk(self.chunk)[self.offset..];
        if bytes.is_empty() {
            self.chunk += 1;
            self.offset = 0;
            bytes = self.log.chunk(self.chunk);
        }
        let (r, used) = decode(bytes, &self.prev);
        self.offset += used;
        self.prev = r;
        self.left -= 1;
        Some(r)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

/// The header of a step whose pc moved from `prev` to `pc` (with the other fields' bits `rest`),
/// and the pc's distance after it when it is far.
#[inline(always)]
fn push_pc(out: &mut Vec<u8>, prev: u32, pc: u32, rest: u8) {
    let next = prev.wrapping_add(1);
    let delta = pc.wrapping_sub(prev) as i32;
    if pc == next {
        out.push(rest);
    } else if (-2..=3).contains(&delta) {
        out.push((delta + 3) as u8 | rest);
    } else {
        out.push(7 | rest);
        leb128(out, zigzag(pc.wrapping_sub(next) as i32 as i64));
    }
}

#[inline(always)]
fn encode(out: &mut Vec<u8>, prev: &StepRecord, r: &StepRecord) {
    let (mask_code, mask_extra) = if r.mask == prev.mask {
        (0u8, 0u64)
    } else if r.mask == prev.mask << 1 {
        (1, 0)
    } else if r.mask.count_ones() == 1 {
        (2, r.mask.trailing_zeros() as u64)
    } else {
        (3, r.mask ^ prev.mask)
    };
    let depth_changed = r.depth != prev.depth;
    push_pc(out, prev.pc, r.pc, mask_code << 3 | (depth_changed as u8) << 5 | ((r.events != 0) as u8) << 6);
    match mask_code {
        2 => out.push(mask_extra as u8),
        3 => leb128(out, mask_extra),
        _ => {}
    }
    if depth_changed {
        leb128(out, zigzag(r.depth as i64 - prev.depth as i64));
    }
    if r.events != 0 {
        out.push(r.events as u8);
    }
}

#[inline(always)]
fn decode(bytes: &[u8], prev: &StepRecord) -> (StepRecord, usize) {
    let header = bytes[0];
    let mut at = 1;
    let next = prev.pc.wrapping_add(1);
    let pc = match header & 7 {
        0 => next,
        7 => {
            let (v, n) = read_leb128(&bytes[at..]);
            at += n;
            next.wrapping_add(unzigzag(v) as i32 as u32)
        }
        c => prev.pc.wrapping_add((c as i32 - 3) as u32),
    };
    let mask = match header >> 3 & 3 {
        0 => prev.mask,
        1 => prev.mask << 1,
        2 => {
            at += 1;
            1u64 << (bytes[at - 1] & 63)
        }
        _ => {
            let (v, n) = read_leb128(&bytes[at..]);
            at += n;
            prev.mask ^ v
        }
    };
    let depth = if header & 1 << 5 != 0 {
        let (v, n) = read_leb128(&bytes[at..]);
        at += n;
        (prev.depth as i64 + unzigzag(v)) as u16
    } else {
        prev.depth
    };
    let events = if header & 1 << 6 != 0 {
        at += 1;
        bytes[at - 1] as u16
    } else {
        0
    };
    (StepRecord { mask, pc, depth, events }, at)
}

fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}
fn unzigzag(v: u64) -> i64 {
    (v >> 1) as i64 ^ -((v & 1) as i64)
}

fn leb128(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}
fn read_leb128(bytes: &[u8]) -> (u64, usize) {
    let mut v = 0u64;
    for (i, &b) in bytes.iter().enumerate().take(10) {
        v |= ((b & 0x7f) as u64) << (7 * i);
        if b & 0x80 == 0 {
            return (v, i + 1);
        }
    }
    (v, bytes.len().min(10))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn arb_record() -> impl Strategy<Value = StepRecord> {
        // Mostly small changes, as runs have them, and any value at all.
        let pc = prop_oneof![0u32..40, any::<u32>()];
        let mask = prop_oneof![Just(u64::MAX), Just(0xffff_ffff), (0u32..64).prop_map(|l| 1u64 << l), any::<u64>()];
        let depth = prop_oneof![0u16..4, any::<u16>()];
        (pc, mask, depth, 0u16..128).prop_map(|(pc, mask, depth, events)| StepRecord { mask, pc, depth, events })
    }

    proptest! {
        /// Every record reads back, in order and one at a time, whatever the steps.
        #[test]
        fn reads_back_what_was_pushed(records in proptest::collection::vec(arb_record(), 0..700)) {
            let mut log = StepLog::default();
            for &r in &records {
                log.push(r);
            }
            prop_assert_eq!(log.len(), records.len());
            prop_assert!(log.iter().eq(records.iter().copied()));
            for (i, &r) in records.iter().enumerate() {
                prop_assert_eq!(log.get(i), Some(r));
            }
            prop_assert_eq!(log.get(records.len()), None);
            for i in [0, 1, 255, 256, 257, records.len() / 2, records.len()] {
                prop_assert!(log.iter_from(i).eq(records.iter().skip(i).copied()), "from {}", i);
                let naive = records.iter().take(i).rposition(|r| r.events & 1 != 0);
                prop_assert_eq!(log.last_before(i, |b| b.events & 1 != 0, |r| r.events & 1 != 0), naive, "before {}", i);
            }
            // Each segment's summary is its records reduced (the reference: every record looked at).
            let want: Vec<SegmentSummary> = records.chunks(SEGMENT).map(|c| {
                c.iter().skip(1).fold(SegmentSummary::of(&c[0]), |mut b, r| { b.take(r); b })
            }).collect();
            prop_assert_eq!(log.segments(), &want[..]);
        }
    }

    /// A straight run of steps takes a byte each, across chunk boundaries, and reads back.
    #[test]
    fn straight_steps_take_a_byte() {
        let mut log = StepLog::default();
        let n = 3 * CHUNK;
        for i in 0..n {
            log.push(StepRecord { mask: 0xffff_ffff, pc: i as u32, depth: 1, events: 0 });
        }
        // The first step says the mask and the depth.
        let used: usize = log.chunks.iter().chain([&log.open]).map(Vec::len).sum();
        assert!(used <= n + 8, "{used} bytes for {n} steps");
        assert_eq!(log.get(n - 1).map(|r| r.pc), Some(n as u32 - 1));
        assert_eq!(log.iter().count(), n);
    }
}
