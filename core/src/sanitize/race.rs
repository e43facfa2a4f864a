//! racecheck's shadow memory for one block: for each word its last writes (two, for stores of
//! its bytes apart) and up to two reads since, each with the thread, the barrier interval it was in and the step. Two accesses of
//! one byte by two threads race when at least one writes (two atomics do not) and nothing
//! orders them: no `__syncthreads()` between (the threads passed as many barriers), and for two
//! lanes of one warp, unless the model runs them in lockstep, no `__syncwarp()` either.

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::vec::Vec;

use crate::isa::AccessKind;
use crate::isa::Pc;

/// One lane's access as the check sees it: `thread` is its number in the block.
#[derive(Clone, Copy, Debug)]
pub struct Access {
    pub thread: u32,
    pub warp: u32,
    pub step: u64,
    pub pc: Pc,
    pub line: u32,
    pub kind: AccessKind,
    pub addr: u32,
    pub bytes: u32,
}

/// An access kept in the shadow: which bytes of its word, and the intervals it was in.
#[derive(Clone, Copy, Debug)]
struct Kept {
    access: Access,
    bytes: u8,
    epoch: u32,
    warp_epoch: u32,
}

#[derive(Clone, Default, Debug)]
struct Word {
    writes: [Option<Kept>; 2],
    reads: [Option<Kept>; 2],
}

/// Whether an access changes memory (a store or an atomic).
pub fn writes(kind: AccessKind) -> bool {
    kind != AccessKind::Read
}

/// Two accesses that race: the earlier first, at the byte address both touch.
#[derive(Clone, Copy, Debug)]
pub struct Hazard {
    pub first: Access,
    pub second: Access,
    pub addr: u32,
}

/// One block's shadow memory and each thread's barrier counts.
pub struct Shadow {
    lockstep: bool,
    words: BTreeMap<u32, Word>,
    /// Bytes of shared memory some thread of the block wrote (initcheck).
    written: BTreeSet<u32>,
    /// Per thread: block barriers passed, `__syncwarp`s passed.
    epochs: Vec<(u32, u32)>,
}

impl Shadow {
    pub fn new(lockstep: bool) -> Shadow {
        Shadow { lockstep, words: BTreeMap::new(), written: BTreeSet::new(), epochs: Vec::new() }
    }

    fn epochs_of(&mut self, thread: u32) -> &mut (u32, u32) {
        let t = thread as usize;
        if self.epochs.len() <= t {
            self.epochs.resize(t + 1, (0, 0));
        }
        &mut self.epochs[t]
    }

    /// `thread` arrived at a block barrier: what it does next is ordered after what every
    /// thread did before it.
    pub fn barrier(&mut self, thread: u32) {
        let e = self.epochs_of(thread);
        *e = (e.0 + 1, e.1 + 1);
    }

    /// `thread` passed a `__syncwarp()`.
    pub fn warp_sync(&mut self, thread: u32) {
        self.epochs_of(thread).1 += 1;
    }

    /// Whether some thread of the block wrote every byte of `bytes` at `addr`.
    pub fn written(&self, addr: u32, bytes: u32) -> bool {
        (addr..addr + bytes).all(|b| self.written.contains(&b))
    }

    /// Takes in `a` and gives the hazards it makes with what the shadow holds.
    pub fn access(&mut self, a: Access) -> Vec<Hazard> {
        let (epoch, warp_epoch) = *self.epochs_of(a.thread);
        if writes(a.kind) {
            self.written.extend(a.addr..a.addr + a.bytes);
        }
        let mut out = Vec::new();
        let first_word = a.addr & !3;
        let mut word = first_word;
        while word < a.addr + a.bytes {
            let lo = a.addr.max(word) - word;
            let hi = (a.addr + a.bytes).min(word + 4) - word;
            let bytes = ((1u16 << hi) - (1u16 << lo)) as u8;
            let kept = Kept { access: a, bytes, epoch, warp_epoch };
            let cell = self.words.entry(word).or_default();
            for p in cell.writes.iter().chain(cell.reads.iter()).flatten() {
                if p.bytes & bytes != 0 && races(p, &kept, self.lockstep) {
                    out.push(Hazard { first: p.access, second: a, addr: word + (p.bytes & bytes).trailing_zeros() });
                }
            }
            if writes(a.kind) {
                keep_write(cell, kept);
            } else {
                keep_read(cell, kept);
            }
            word += 4;
        }
        out
    }
}

/// Whether `p` (earlier) and `c` race: two threads, one of them writing (two atomics do not),
/// in the same barrier interval, and for lanes of one warp neither in lockstep, nor at the same
/// step, nor apart by a `__syncwarp()`.
fn races(p: &Kept, c: &Kept, lockstep: bool) -> bool {
    let (a, b) = (&p.access, &c.access);
    if a.thread == b.thread || !(writes(a.kind) || writes(b.kind)) || a.kind == AccessKind::Update && b.kind == AccessKind::Update {
        return false;
    }
    if p.epoch != c.epoch {
        return false;
    }
    a.warp != b.warp || !lockstep && a.step != b.step && p.warp_epoch == c.warp_epoch
}

/// Keeps a write: the bytes it covers are no longer the earlier writes' nor the reads' (those
/// raced it, or were ordered before it).
fn keep_write(cell: &mut Word, kept: Kept) {
    for slot in cell.writes.iter_mut().chain(cell.reads.iter_mut()) {
        if let Some(p) = slot {
            p.bytes &= !kept.bytes;
            if p.bytes == 0 {
                *slot = None;
            }
        }
    }
    let k = cell.writes.iter().position(Option::is_none).unwrap_or_else(|| oldest(&cell.writes));
    cell.writes[k] = Some(kept);
}

/// The slot of the older of two kept accesses.
fn oldest(two: &[Option<Kept>; 2]) -> usize {
    let step = |k: usize| two[k].map_or(0, |p| p.access.step);
    usize::from(step(1) < step(0))
}

/// Keeps a read: two of distinct threads are enough to find a later write by either's race.
fn keep_read(cell: &mut Word, kept: Kept) {
    let t = kept.access.thread;
    let slot = match cell.reads.iter().position(|r| r.is_some_and(|r| r.access.thread == t)) {
        Some(k) => k,
        // The older of the two gives way.
        None => cell.reads.iter().position(Option::is_none).unwrap_or_else(|| oldest(&cell.reads)),
    };
    cell.reads[slot] = Some(kept);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(thread: u32, warp: u32, step: u64, kind: AccessKind, addr: u32) -> Access {
        Access { thread, warp, step, pc: Pc(step as u32), line: step as u32, kind, addr, bytes: 4 }
    }

    #[test]
    fn a_barrier_orders_two_threads_and_lockstep_orders_one_warps_lanes() {
        let mut s = Shadow::new(true);
        assert!(s.access(at(0, 0, 1, AccessKind::Write, 0x100)).is_empty());
        // Another warp reads it in the same interval: a race.
        assert_eq!(s.access(at(40, 1, 2, AccessKind::Read, 0x100)).len(), 1);
        // A lane of the same warp, in lockstep: ordered by the warp's steps.
        assert!(s.access(at(3, 0, 3, AccessKind::Read, 0x100)).is_empty());
        for t in [0, 3, 40] {
            s.barrier(t);
        }
        assert!(s.access(at(3, 0, 4, AccessKind::Write, 0x100)).is_empty(), "after the barrier");
        // Without lockstep, lanes of one warp race unless a __syncwarp is between.
        let mut v = Shadow::new(false);
        v.access(at(0, 0, 1, AccessKind::Write, 0x200));
        assert_eq!(v.access(at(1, 0, 2, AccessKind::Read, 0x200)).len(), 1);
        v.warp_sync(1);
        v.warp_sync(2);
        assert!(v.access(at(2, 0, 3, AccessKind::Read, 0x200)).is_empty(), "thread 2 passed a __syncwarp since");
    }

    #[test]
    fn bytes_of_one_word_apart_do_not_race_and_atomics_do_not_race_each_other() {
        let mut s = Shadow::new(true);
        s.access(Access { bytes: 1, ..at(0, 0, 1, AccessKind::Write, 0x100) });
        assert!(s.access(Access { bytes: 1, ..at(40, 1, 2, AccessKind::Write, 0x101) }).is_empty());
        assert_eq!(s.access(at(41, 1, 3, AccessKind::Read, 0x100)).len(), 1, "a word read over both bytes");
        s.access(at(0, 0, 4, AccessKind::Update, 0x300));
        assert!(s.access(at(40, 1, 5, AccessKind::Update, 0x300)).is_empty());
        // A plain read races the atomic of another warp.
        assert_eq!(s.access(at(5, 0, 6, AccessKind::Read, 0x300)).len(), 1);
    }
}
