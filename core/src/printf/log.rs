//! The machine's output log: plain data that checkpoints clone. Full chunks are shared
//! (`Arc`), so a clone copies at most one small chunk however much the run printed; the log
//! holds at most `MAX_RECORDS` records, then only notes the step where it was cut short.

use alloc::sync::Arc;
use alloc::vec::Vec;

/// The most records one run keeps (CUDA's printf buffer is 1 MiB by default and also drops
/// what does not fit).
pub const MAX_RECORDS: usize = 10_000;
/// The most argument words one `PRINTF` passes.
pub const MAX_WORDS: usize = 16;
/// Records per shared chunk.
const CHUNK: usize = 64;

/// One lane's `PRINTF`: the format's id in the program's table and the argument words.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Printed {
    /// The step that printed it (tagged by the simulator once the step ends).
    pub step: u64,
    pub lane: u8,
    pub words: u8,
    pub id: u16,
    pub args: [u32; MAX_WORDS],
}

impl Printed {
    /// The argument words passed.
    pub fn args(&self) -> &[u32] {
        &self.args[..(self.words as usize).min(MAX_WORDS)]
    }
}

/// Whether the log dropped records, and from which step.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
enum Cut {
    #[default]
    No,
    /// Dropped in the step now running (its number is not known yet).
    Now,
    At(u64),
}

#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct OutputLog {
    /// Full chunks, shared with the checkpoints that hold them.
    chunks: Vec<Arc<[Printed]>>,
    chunked: usize,
    /// The newest records; those from `tagged` on belong to the step now running.
    tail: Vec<Printed>,
    tagged: usize,
    cut: Cut,
    /// Something was printed or dropped since the last `seal`.
    fresh: bool,
}

impl OutputLog {
    pub fn len(&self) -> usize {
        self.chunked + self.tail.len()
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Appends one lane's record, or notes the cut when the log is full.
    pub fn push(&mut self, lane: u32, id: u16, args: &[u32]) {
        self.fresh = true;
        if self.len() >= MAX_RECORDS {
            if self.cut == Cut::No {
                self.cut = Cut::Now;
            }
            return;
        }
        let n = args.len().min(MAX_WORDS);
        let mut words = [0; MAX_WORDS];
        words[..n].copy_from_slice(&args[..n]);
        self.tail.push(Printed { step: 0, lane: lane as u8, words: n as u8, id, args: words });
    }

    /// Tags what the step that just ran printed with its number, and shares a full tail.
    #[inline(always)]
    pub fn seal(&mut self, step: u64) {
        if self.fresh {
            self.seal_fresh(step);
        }
    }

    #[cold]
    fn seal_fresh(&mut self, step: u64) {
        self.fresh = false;
        for r in &mut self.tail[self.tagged..] {
            r.step = step;
        }
        if self.cut == Cut::Now {
            self.cut = Cut::At(step);
        }
        if self.tail.len() >= CHUNK {
            self.chunked += self.tail.len();
            self.chunks.push(Arc::from(core::mem::take(&mut self.tail)));
        }
        self.tagged = self.tail.len();
    }

    /// Every record, in the order printed.
    pub fn records(&self) -> impl Iterator<Item = &Printed> + '_ {
        self.chunks.iter().flat_map(|c| c.iter()).chain(&self.tail)
    }

    /// The step whose records were the first dropped, if any were.
    pub fn truncated_at(&self) -> Option<u64> {
        match self.cut {
            Cut::At(s) => Some(s),
            _ => None,
        }
    }

    /// About how many bytes a clone copies.
    pub fn clone_bytes(&self) -> usize {
        self.tail.len() * core::mem::size_of::<Printed>() + self.chunks.len() * 16
    }
}
