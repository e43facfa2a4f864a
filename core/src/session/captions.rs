//! Where each `//@ note` shows in a recorded run, and which notes the run never reaches.
//!
//! A step note shows at its step. An event note (`div 2`, `join 1`, ...) shows at the step where
//! this run has that event, found in one pass over the run's step records (`Placer`), so a
//! walkthrough keeps its places when the model, and with it the step numbers, changes.
//!
//! Each shows for its moment: from its step until the next note's step, the warp's next
//! divergence, reconvergence, spill, fill or exit, or `NOTE_SPAN` steps, whichever comes first.
//! A caption tells what just happened and leaves when something else happens, never lingering
//! to the end of a long run. An instruction note shows whenever its instruction is the next to
//! issue. A step or event note that this run never reaches is a warning on its line that says
//! how many there are.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::diag::Diagnostic;
use crate::isa::Pc;
use crate::kernel::{Note, NoteEvent, NoteTarget};
use crate::sim::{event, StepLog, StepRecord};

/// The most steps a caption stays: a long uniform loop must not keep one on screen.
pub const NOTE_SPAN: u64 = 256;

/// The record bits of the events notes name (a join is found from masks: it has none); the
/// same events end a moment.
const NAMED_EVENTS: u16 = event::DIVERGE | event::RECONVERGE | event::SPILL | event::FILL | event::EXIT;

/// The record bit of an event kind.
fn bit(kind: NoteEvent) -> Option<u16> {
    match kind {
        NoteEvent::Div => Some(event::DIVERGE),
        NoteEvent::Reconverge => Some(event::RECONVERGE),
        NoteEvent::Join => None,
        NoteEvent::Spill => Some(event::SPILL),
        NoteEvent::Fill => Some(event::FILL),
        NoteEvent::Exit => Some(event::EXIT),
    }
}

/// Finds the steps of the events that notes name in one pass over a run: `add` each step's
/// record in order, then `finish`. Work per step is a map lookup per event it has, plus a mask
/// test per divergence whose join a note waits for (at most `MAX_JOIN_NOTES`).
pub struct Placer<'a> {
    notes: &'a [Note],
    /// The notes waiting for the nth event of a kind.
    wanted: BTreeMap<(NoteEvent, u32), Vec<usize>>,
    /// Events of each kind so far, indexed by `NoteEvent as usize` (`ALL` order).
    counts: [u64; NoteEvent::ALL.len()],
    /// Divergences whose join a note waits for: their number and the lanes they split.
    open_joins: Vec<(u32, u64)>,
    /// Where each note shows (by note), as found so far.
    steps: Vec<Option<u64>>,
    /// Steps added.
    step: u64,
}

/// Where each note of a kernel shows in one run.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Placement {
    /// By note: the step it shows at; `None` for instruction notes and notes the run misses.
    pub steps: Vec<Option<u64>>,
    /// A warning, on its line, for each step or event note the run never reaches.
    pub warnings: Vec<Diagnostic>,
}

impl<'a> Placer<'a> {
    pub fn new(notes: &'a [Note]) -> Placer<'a> {
        let mut wanted: BTreeMap<_, Vec<usize>> = BTreeMap::new();
        for (i, n) in notes.iter().enumerate() {
            if let NoteTarget::Event(kind, nth) = n.target {
                wanted.entry((kind, nth)).or_default().push(i);
            }
        }
        Placer { notes, wanted, counts: [0; NoteEvent::ALL.len()], open_joins: Vec::new(), steps: alloc::vec![None; notes.len()], step: 0 }
    }

    /// True when some note names an event: only then do the records matter.
    pub fn needs_records(&self) -> bool {
        !self.wanted.is_empty()
    }

    /// The record of the next step (the first call: step 1).
    pub fn add(&mut self, r: &StepRecord) {
        self.step += 1;
        if !self.open_joins.is_empty() {
            let mut joined = Vec::new();
            self.open_joins.retain(|&(nth, split)| {
                let together = split & !r.mask == 0;
                if together {
                    joined.push(nth);
                }
                !together
            });
            for nth in joined {
                self.found(NoteEvent::Join, nth);
            }
        }
        if r.events & NAMED_EVENTS == 0 {
            return;
        }
        for kind in NoteEvent::ALL {
            if bit(kind).is_some_and(|b| r.events & b != 0) {
                self.counts[kind as usize] += 1;
                let Ok(nth) = u32::try_from(self.counts[kind as usize]) else { continue };
                self.found(kind, nth);
                if kind == NoteEvent::Div && self.wanted.contains_key(&(NoteEvent::Join, nth)) {
                    self.open_joins.push((nth, r.mask));
                }
            }
        }
    }

    fn found(&mut self, kind: NoteEvent, nth: u32) {
        for &i in self.wanted.get(&(kind, nth)).into_iter().flatten() {
            self.steps[i] = Some(self.step);
        }
    }

    /// Where each note shows in a run of `total` steps, and a warning for each it misses.
    pub fn finish(mut self, total: u64) -> Placement {
        let mut warnings = Vec::new();
        for (i, n) in self.notes.iter().enumerate() {
            match n.target {
                NoteTarget::Step(s) if s <= total => self.steps[i] = Some(s),
                NoteTarget::Step(_) => warnings.push(Diagnostic::warning(
                    n.span,
                    format!("`{}` never comes: this run ends after {total} step{}", n.target, if total == 1 { "" } else { "s" }),
                )),
                NoteTarget::Event(kind, nth) if self.steps[i].is_none() => {
                    warnings.push(Diagnostic::warning(n.span, format!("`{}` never happens: {}", n.target, self.why_missed(kind, nth))))
                }
                _ => {}
            }
        }
        Placement { steps: self.steps, warnings }
    }

    /// "this run has only 1 divergence", or why a join never came.
    fn why_missed(&self, kind: NoteEvent, nth: u32) -> String {
        let counted = if kind == NoteEvent::Join { NoteEvent::Div } else { kind };
        match self.counts[counted as usize] {
            0 => format!("this run has no {}", counted.noun(1)),
            c if c < u64::from(nth) => format!("this run has only {c} {}", counted.noun(c)),
            _ => format!("the lanes that divergence {nth} split never issue together again in this run"),
        }
    }
}

/// A step or event note's place in a run: shown at steps `step..end`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Moment {
    pub step: u64,
    pub end: u64,
    /// The notes that show at this step, a line each, in the order written.
    pub text: String,
}

/// The captions of one run: moments by step, and instruction notes.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Captions {
    /// By step; no two start at the same step.
    moments: Vec<Moment>,
    /// Each noted instruction with its notes' text.
    instrs: Vec<(Pc, String)>,
    /// By note: the step its moment starts at, if it has one in this run.
    placed: Vec<Option<u64>>,
}

impl Captions {
    /// Places `notes` in a recorded run (its step records: a warp's, or a launch's focused
    /// warp's over its block's steps): its captions, and a warning for each step or event note
    /// that the run never reaches.
    pub fn of_run(notes: &[Note], records: &StepLog) -> (Captions, Vec<Diagnostic>) {
        let mut placer = Placer::new(notes);
        if placer.needs_records() {
            records.iter().for_each(|r| placer.add(&r));
        }
        let placement = placer.finish(records.len() as u64);
        (Captions::new(notes, &placement.steps, |i| records.get(i)), placement.warnings)
    }

    /// The captions of `notes` shown at `placed` (by note), each moment ended by the run's
    /// records (`record(i)`: the record of step i + 1) as the module doc says.
    pub fn new(notes: &[Note], placed: &[Option<u64>], record: impl Fn(usize) -> Option<StepRecord>) -> Captions {
        let mut starts: Vec<(u64, usize)> = placed.iter().enumerate().filter_map(|(i, s)| s.map(|s| (s, i))).collect();
        starts.sort_unstable();
        let mut moments: Vec<Moment> = Vec::new();
        for (step, i) in starts {
            match moments.last_mut() {
                Some(m) if m.step == step => {
                    m.text.push('\n');
                    m.text.push_str(&notes[i].text);
                }
                _ => moments.push(Moment { step, end: step, text: notes[i].text.clone() }),
            }
        }
        let nexts: Vec<u64> = moments.iter().skip(1).map(|m| m.step).chain([u64::MAX]).collect();
        for (m, next) in moments.iter_mut().zip(nexts) {
            let cap = m.step.saturating_add(NOTE_SPAN).min(next);
            let ends = |s: &u64| record(*s as usize - 1).is_some_and(|r| r.events & NAMED_EVENTS != 0);
            m.end = (m.step + 1..cap).find(ends).unwrap_or(cap);
        }
        let mut instrs: Vec<(Pc, String)> = Vec::new();
        for n in notes {
            let NoteTarget::Instr(pc) = n.target else { continue };
            match instrs.iter_mut().find(|(p, _)| *p == pc) {
                Some((_, text)) => {
                    text.push('\n');
                    text.push_str(&n.text);
                }
                None => instrs.push((pc, n.text.clone())),
            }
        }
        Captions { moments, instrs, placed: placed.to_vec() }
    }

    /// The caption after `step` steps, with `next` the instruction about to issue: the moment
    /// that lasts through this step and the instruction's note, either or both.
    pub fn at(&self, step: u64, next: Option<Pc>) -> Option<String> {
        let i = self.moments.partition_point(|m| m.step <= step);
        let moment = i.checked_sub(1).map(|i| &self.moments[i]).filter(|m| step < m.end);
        let instr = next.and_then(|pc| self.instrs.iter().find(|(p, _)| *p == pc));
        match (moment, instr) {
            (Some(m), Some((_, t))) => Some(format!("{}\n\n{t}", m.text)),
            (Some(m), None) => Some(m.text.clone()),
            (None, Some((_, t))) => Some(t.clone()),
            (None, None) => None,
        }
    }

    /// Every moment, by step.
    pub fn moments(&self) -> &[Moment] {
        &self.moments
    }

    /// The moment of the kernel's `note`th note (shared with notes at the same step); `None`
    /// for an instruction note and a note the run never reaches.
    pub fn moment_of(&self, note: usize) -> Option<&Moment> {
        let step = (*self.placed.get(note)?)?;
        self.moments.binary_search_by_key(&step, |m| m.step).ok().map(|i| &self.moments[i])
    }
}

#[cfg(test)]
mod tests;
