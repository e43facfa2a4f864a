//! `//@ note` captions as written. A note is tied to a step (`step 5`), to an event of the run
//! (`div 2`: the second divergence), or to an instruction (an address or a label). Instructions
//! are found here once the program is assembled; where a step or event note shows in a run is
//! decided against the recorded run (`session::captions`), because the same event happens at
//! different steps under different models.

use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::header::Line;
use crate::diag::{Diagnostic, Span};
use crate::isa::Pc;
use crate::program::Program;

/// Different `join N` targets a kernel may name: each is watched over the rest of the run, so a
/// pasted kernel with thousands of them would stall the page.
pub const MAX_JOIN_NOTES: usize = 32;

/// An event of a run that a note can name; they count from 1 in run order.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub enum NoteEvent {
    /// A branch split the active lanes.
    Div,
    /// The model brought back lanes it had split off (a DIV or SYNC pop, a path rejoining).
    Reconverge,
    /// The lanes that the divergence of the same number split issue together again.
    Join,
    /// The on-chip stack spilled entries to memory.
    Spill,
    /// Spilled entries came back on chip.
    Fill,
    /// Lanes left the kernel.
    Exit,
}

impl NoteEvent {
    pub const ALL: [NoteEvent; 6] =
        [NoteEvent::Div, NoteEvent::Reconverge, NoteEvent::Join, NoteEvent::Spill, NoteEvent::Fill, NoteEvent::Exit];

    /// The word a note names it by.
    pub fn name(self) -> &'static str {
        match self {
            NoteEvent::Div => "div",
            NoteEvent::Reconverge => "reconverge",
            NoteEvent::Join => "join",
            NoteEvent::Spill => "spill",
            NoteEvent::Fill => "fill",
            NoteEvent::Exit => "exit",
        }
    }

    pub fn named(word: &str) -> Option<NoteEvent> {
        NoteEvent::ALL.into_iter().find(|e| e.name() == word)
    }

    /// What `count` of them are called in a message ("1 divergence", "2 spills").
    pub fn noun(self, count: u64) -> &'static str {
        let (one, many) = match self {
            NoteEvent::Div => ("divergence", "divergences"),
            NoteEvent::Reconverge => ("reconvergence", "reconvergences"),
            NoteEvent::Join => ("join", "joins"),
            NoteEvent::Spill => ("spill", "spills"),
            NoteEvent::Fill => ("fill", "fills"),
            NoteEvent::Exit => ("exit", "exits"),
        };
        if count == 1 {
            one
        } else {
            many
        }
    }
}

/// What a `//@ note` caption is tied to.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum NoteTarget {
    /// Shown from this step, for its moment (`session::captions`).
    Step(u64),
    /// Shown from the step of the `nth` event of this kind (counting from 1), for its moment.
    Event(NoteEvent, u32),
    /// Shown whenever this instruction is the next to issue.
    Instr(Pc),
}

impl core::fmt::Display for NoteTarget {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            NoteTarget::Step(s) => write!(f, "step {s}"),
            NoteTarget::Event(kind, nth) => write!(f, "{} {nth}", kind.name()),
            NoteTarget::Instr(pc) => write!(f, "pc {}", pc.0),
        }
    }
}

/// `//@ note step 5: text`, `//@ note div 1: text`, `//@ note 0x0128: text` or
/// `//@ note L1: text`. Consecutive notes with the same target join into one caption, a line each.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Note {
    pub target: NoteTarget,
    pub text: String,
    /// Where the target is written, on the note's first line: what a warning about it points at.
    pub span: Span,
}

/// A note's target as written: instructions are looked up after assembly.
#[derive(Clone, PartialEq, Eq, Debug)]
enum RawTarget {
    Step(u64),
    Event(NoteEvent, u32),
    Addr(u32),
    Label(String),
}

pub(super) struct RawNote {
    target: RawTarget,
    span: Span,
    text: String,
}

fn event_words() -> String {
    NoteEvent::ALL.iter().map(|e| format!("`{} N`", e.name())).collect::<Vec<_>>().join(", ")
}

/// `//@ note <target>: text`, the target `step N`, `<event> N`, an address or a label.
pub(super) fn parse(line: &Line, rest: &str) -> Result<RawNote, Diagnostic> {
    let rest = rest.trim();
    let usage = || format!("expected `//@ note <target>: text`, the target `step N`, {}, an address or a label", event_words());
    let (target, text) = rest.split_once(':').ok_or_else(|| line.error(rest, usage()))?;
    let target = target.trim();
    let raw = match target.split_once(char::is_whitespace) {
        Some(("step", n)) => {
            let n = n.trim();
            RawTarget::Step(n.parse().map_err(|_| line.error(n, format!("`{n}` is not a step number")))?)
        }
        Some((word, n)) => {
            let Some(kind) = NoteEvent::named(word) else {
                return Err(
                    line.error(word, format!("unknown note target `{word}` (known: `step N`, {}, an address or a label)", event_words()))
                );
            };
            RawTarget::Event(kind, count(line, kind, n.trim())?)
        }
        None if target.starts_with("0x") => RawTarget::Addr(
            u32::from_str_radix(&target[2..], 16).map_err(|_| line.error(target, format!("`{target}` is not a hex address")))?,
        ),
        None if is_label(target) => RawTarget::Label(target.to_string()),
        None => return Err(line.error(if target.is_empty() { rest } else { target }, usage())),
    };
    Ok(RawNote { target: raw, span: line.span_of(target), text: text.trim().to_string() })
}

/// The `N` of `div N`: events count from 1.
fn count(line: &Line, kind: NoteEvent, n: &str) -> Result<u32, Diagnostic> {
    let first = format!("`{} 1` is the first {}", kind.name(), kind.noun(1));
    match n.parse::<u32>() {
        Ok(0) => Err(line.error(n, format!("events count from 1: {first}"))),
        Ok(n) => Ok(n),
        Err(_) => Err(line.error(n, format!("`{n}` is not a count: {first}"))),
    }
}

/// A label as the assembler reads one (`L1`, `.L_x_0`).
fn is_label(s: &str) -> bool {
    s.chars().next().is_some_and(|c| !c.is_ascii_digit()) && s.chars().all(crate::asm::is_label_char)
}

/// Ties notes to instructions, now that the program is assembled, and joins notes on
/// consecutive lines with the same target into one caption.
pub(super) fn resolve(raw: Vec<RawNote>, program: &Program, diags: &mut Vec<Diagnostic>) -> Vec<Note> {
    let mut notes: Vec<Note> = Vec::new();
    let mut prev: Option<(RawTarget, u32)> = None;
    let mut joins = BTreeSet::new();
    for n in raw {
        let target = match &n.target {
            RawTarget::Step(s) => NoteTarget::Step(*s),
            RawTarget::Event(NoteEvent::Join, nth) if !joins.contains(nth) && joins.len() >= MAX_JOIN_NOTES => {
                diags.push(Diagnostic::error(n.span, format!("a kernel may name at most {MAX_JOIN_NOTES} different joins")));
                continue;
            }
            RawTarget::Event(kind, nth) => {
                if *kind == NoteEvent::Join {
                    joins.insert(*nth);
                }
                NoteTarget::Event(*kind, *nth)
            }
            RawTarget::Addr(a) => match program.pc_of_addr(*a).filter(|pc| pc.index() < program.len()) {
                Some(pc) => NoteTarget::Instr(pc),
                None => {
                    diags.push(Diagnostic::error(n.span, "no instruction has this address"));
                    continue;
                }
            },
            RawTarget::Label(l) => match program.labels.iter().find(|(name, pc)| name == l && pc.index() < program.len()) {
                Some((_, pc)) => NoteTarget::Instr(*pc),
                None => {
                    diags.push(Diagnostic::error(n.span, unknown_label(l)));
                    continue;
                }
            },
        };
        let continues = prev.as_ref().is_some_and(|(t, l)| *t == n.target && *l + 1 == n.span.line);
        prev = Some((n.target, n.span.line));
        match notes.last_mut() {
            Some(last) if continues => {
                last.text.push('\n');
                last.text.push_str(&n.text);
            }
            _ => notes.push(Note { target, text: n.text, span: n.span }),
        }
    }
    notes
}

/// Why a label names nothing; a bare event word most likely lacks its count.
fn unknown_label(l: &str) -> String {
    match NoteEvent::named(l) {
        Some(kind) => format!("`{l}` needs a count: `{l} 1` is the first {}", kind.noun(1)),
        None if l == "step" => "`step` needs a number: `step 5` shows after 5 steps".to_string(),
        None => format!("no instruction has the label `{l}`"),
    }
}
