//! Notes placed in runs: the one-pass placer against a simple reference, moments and their
//! ends, the warnings for notes a run misses, and the if/else walkthrough under two models.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use proptest::prelude::*;

use super::*;
use crate::diag::Span;
use crate::kernel::parse_kernel;
use crate::model::ModelKind;
use crate::session::{Recording, RunChoices, RunRequest};
use crate::sim::event::{DIVERGE, EXIT, FILL, PUSH, RECONVERGE, SPILL};

const FULL: u64 = 0xFFFF_FFFF;

fn rec(events: u16, mask: u64) -> StepRecord {
    StepRecord { mask, pc: 0, depth: 0, events }
}

fn note(target: NoteTarget, text: &str, line: u32) -> Note {
    Note { target, text: text.to_string(), span: Span::new(line, 10, 5) }
}

fn place(notes: &[Note], records: &[StepRecord]) -> Placement {
    let mut p = Placer::new(notes);
    records.iter().for_each(|r| p.add(r));
    p.finish(records.len() as u64)
}

fn captions(notes: &[Note], records: &[StepRecord]) -> Captions {
    Captions::new(notes, &place(notes, records).steps, |i| records.get(i).copied())
}

/// The obvious way: for each note, count events from the start of the run; a join scans on from
/// its divergence for the first step that issues every lane the divergence split.
fn reference(notes: &[Note], records: &[StepRecord]) -> Vec<Option<u64>> {
    let nth_step = |b: u16, nth: u32| records.iter().enumerate().filter(|(_, r)| r.events & b != 0).nth(nth as usize - 1).map(|(i, _)| i);
    notes
        .iter()
        .map(|n| match n.target {
            NoteTarget::Step(s) => Some(s).filter(|s| *s <= records.len() as u64),
            NoteTarget::Instr(_) => None,
            NoteTarget::Event(NoteEvent::Join, nth) => {
                let d = nth_step(DIVERGE, nth)?;
                let split = records[d].mask;
                (d + 1..records.len()).find(|&j| split & !records[j].mask == 0).map(|j| j as u64 + 1)
            }
            NoteTarget::Event(kind, nth) => nth_step(bit(kind).unwrap(), nth).map(|i| i as u64 + 1),
        })
        .collect()
}

fn arb_record() -> impl Strategy<Value = StepRecord> {
    let bits = prop::sample::select(alloc::vec![0, 0, 0, DIVERGE, RECONVERGE, SPILL, FILL, EXIT, PUSH, DIVERGE | PUSH, RECONVERGE | FILL]);
    let mask = prop::sample::select(alloc::vec![0b1111u64, 0b0011, 0b1100, 0b0001, 0b0110, 0b1000]);
    (bits, mask).prop_map(|(e, m)| rec(e, m))
}

fn arb_note() -> impl Strategy<Value = Note> {
    let target = prop_oneof![
        (0u64..70).prop_map(NoteTarget::Step),
        (prop::sample::select(NoteEvent::ALL.to_vec()), 1u32..8).prop_map(|(k, n)| NoteTarget::Event(k, n)),
    ];
    target.prop_map(|t| note(t, "n", 1))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]
    /// The one-pass placer puts every note where counting from the start does.
    #[test]
    fn the_placer_agrees_with_the_reference(records in prop::collection::vec(arb_record(), 0..60), notes in prop::collection::vec(arb_note(), 0..12)) {
        prop_assert_eq!(place(&notes, &records).steps, reference(&notes, &records));
    }

    /// Every moment starts at its note's step, ends after it, within `NOTE_SPAN` steps and
    /// before the next moment, and the caption at a step is the moment that covers it.
    #[test]
    fn moments_are_short_and_never_overlap(records in prop::collection::vec(arb_record(), 0..400), notes in prop::collection::vec(arb_note(), 0..12)) {
        let c = captions(&notes, &records);
        for w in c.moments().windows(2) {
            prop_assert!(w[0].end <= w[1].step);
        }
        for m in c.moments() {
            prop_assert!(m.step < m.end && m.end - m.step <= NOTE_SPAN);
            prop_assert_eq!(c.at(m.step, None), Some(m.text.clone()));
        }
    }
}

#[test]
fn event_kinds_index_their_counters_in_all_order() {
    for (i, k) in NoteEvent::ALL.into_iter().enumerate() {
        assert_eq!(k as usize, i);
        assert_eq!(NoteEvent::named(k.name()), Some(k));
    }
}

#[test]
fn a_moment_lasts_until_the_next_event_or_note_and_never_to_the_end() {
    // Steps 1-10: a divergence at 3, a push (not an event notes name) at 5, a reconvergence at 7.
    let mut records = alloc::vec![rec(0, FULL); 600];
    records[2] = rec(DIVERGE, FULL);
    records[4] = rec(PUSH, 0b11);
    records[6] = rec(RECONVERGE, 0b11);
    let notes = [
        note(NoteTarget::Step(0), "start", 1),
        note(NoteTarget::Step(2), "before the branch", 2),
        note(NoteTarget::Event(NoteEvent::Div, 1), "split", 3),
        note(NoteTarget::Event(NoteEvent::Reconverge, 1), "whole again", 4),
        note(NoteTarget::Instr(Pc(4)), "at pc 4", 5),
    ];
    let c = captions(&notes, &records);
    let at = |s| c.at(s, None);
    assert_eq!((at(0), at(1)), (Some("start".into()), Some("start".into())), "until the next note");
    assert_eq!(at(2).as_deref(), Some("before the branch"));
    assert_eq!(at(3).as_deref(), Some("split"));
    assert_eq!(at(6).as_deref(), Some("split"), "a push does not end it");
    assert_eq!(at(7).as_deref(), Some("whole again"));
    assert_eq!(at(7 + NOTE_SPAN - 1).as_deref(), Some("whole again"));
    assert_eq!(at(7 + NOTE_SPAN), None, "at most NOTE_SPAN steps, not to the end of the run");
    assert_eq!(c.at(5, Some(Pc(4))).as_deref(), Some("split\n\nat pc 4"), "a moment and an instruction note together");
    assert_eq!(c.at(400, Some(Pc(4))).as_deref(), Some("at pc 4"), "an instruction note whenever it is next");
    assert_eq!(c.at(400, Some(Pc(3))), None);
    // A divergence right after the note ends it.
    records[3] = rec(DIVERGE, 0b11);
    let c = captions(&notes, &records);
    assert_eq!((c.at(3, None).as_deref(), c.at(4, None)), (Some("split"), None));
}

#[test]
fn notes_at_one_step_show_together_in_the_order_written() {
    let records = [rec(0, FULL), rec(DIVERGE, FULL), rec(0, 1)];
    let notes = [note(NoteTarget::Event(NoteEvent::Div, 1), "the event", 1), note(NoteTarget::Step(2), "the step", 2)];
    assert_eq!(captions(&notes, &records).at(2, None).as_deref(), Some("the event\nthe step"));
}

#[test]
fn a_join_is_where_the_lanes_a_divergence_split_issue_together_again() {
    let records = [rec(DIVERGE, 0b1111), rec(DIVERGE, 0b0011), rec(0, 0b0001), rec(RECONVERGE, 0b0011), rec(0, 0b1100), rec(0, 0b1111)];
    let notes = [note(NoteTarget::Event(NoteEvent::Join, 1), "outer", 1), note(NoteTarget::Event(NoteEvent::Join, 2), "inner", 2)];
    assert_eq!(place(&notes, &records).steps, [Some(6), Some(4)]);
}

#[test]
fn a_note_the_run_never_reaches_is_a_located_warning_that_says_why() {
    let records = [rec(DIVERGE, 0b11), rec(0, 0b01), rec(EXIT, 0b01)];
    let notes = [
        note(NoteTarget::Event(NoteEvent::Div, 2), "a", 3),
        note(NoteTarget::Event(NoteEvent::Spill, 1), "b", 4),
        note(NoteTarget::Event(NoteEvent::Join, 1), "c", 5),
        note(NoteTarget::Event(NoteEvent::Join, 3), "d", 6),
        note(NoteTarget::Step(9), "e", 7),
        note(NoteTarget::Event(NoteEvent::Exit, 1), "f", 8),
        note(NoteTarget::Step(3), "g", 9),
    ];
    let p = place(&notes, &records);
    let got: Vec<(u32, String)> = p.warnings.iter().map(|d| (d.span.line, d.message.clone())).collect();
    let want = [
        (3, "`div 2` never happens: this run has only 1 divergence"),
        (4, "`spill 1` never happens: this run has no spill"),
        (5, "`join 1` never happens: the lanes that divergence 1 split never issue together again in this run"),
        (6, "`join 3` never happens: this run has only 1 divergence"),
        (7, "`step 9` never comes: this run ends after 3 steps"),
    ];
    assert_eq!(got, want.map(|(l, m)| (l, String::from(m))));
    assert!(p.warnings.iter().all(|d| !d.is_error() && d.span.col == 10), "warnings, at the target");
    assert_eq!(p.steps[5..], [Some(3), Some(3)]);
}

/// The issue's case: the if/else in C branches at step 5 under kepler (SSY first) and at step 4
/// under pdom; `div 1` finds it under both and leaves when the first side is done.
#[test]
fn the_same_event_note_lands_at_each_models_step() {
    let text = include_str!("../../../../examples/if_else.cu");
    let (k, d) = parse_kernel(text);
    assert!(d.is_empty(), "{d:?}");
    let div = k.notes.iter().find(|n| n.target == NoteTarget::Event(NoteEvent::Div, 1)).expect("the example names `div 1`");
    for (model, branch) in [(ModelKind::Kepler, 5), (ModelKind::Pdom, 4)] {
        let mut recording = Recording::new();
        let resolved = RunRequest { choices: RunChoices::of_model(model.name()), record: true, ..RunRequest::of_text(text) }.resolve();
        recording.start(resolved, None).expect("runs");
        let l = recording.loaded().expect("loaded");
        assert!(l.warnings.is_empty(), "{model:?}: {:?}", l.warnings);
        let shown = |s| l.captions.at(s, None).is_some_and(|c| c.contains(&div.text));
        assert!(!shown(branch - 1) && shown(branch) && shown(branch + 3), "{model:?}: shown from step {branch}");
        assert!(!shown(branch + 10), "{model:?}: gone once the first side is done");
    }
}

/// The Figure 3 walkthrough names its events: at n = 2 its captions start at the paper's states
/// (the steps it used to name), and at other n they still find every event.
#[test]
fn the_figure_3_walkthrough_keeps_its_states_when_n_changes() {
    let text = include_str!("../../../../examples/fig3_walkthrough.sass");
    let run = |n: f64| {
        let mut recording = Recording::new();
        let params = [(String::from("n"), n)].into_iter().collect();
        recording.start(RunRequest { params, record: true, ..RunRequest::of_text(text) }.resolve(), None).expect("runs");
        recording
    };
    let r = run(2.0);
    let l = r.loaded().expect("loaded");
    assert!(l.warnings.is_empty(), "{:?}", l.warnings);
    let starts: Vec<u64> = l.captions.moments().iter().map(|m| m.step).collect();
    assert_eq!(starts, [0, 2, 3, 125, 129, 134, 135, 136]);
    assert!(l.captions.at(136, None).is_some_and(|c| c.starts_with("Figure 3.7.")));
    for n in [3.0, 8.0] {
        assert!(run(n).loaded().expect("loaded").warnings.is_empty(), "n = {n}");
    }
}
