//! The kernel editor (CodeMirror 6): highlighting, inline diagnostics, the current instruction's
//! line, lines linked to the generated code (and a PTX kernel's CUDA source) under the pointer or
//! clicked, a breakpoint gutter, and a text pasted over everything (or opened) shown from where
//! its kernel starts, not from the host code at its end. The
//! engine's facts (diagnostics, lines of instructions, the current line) come in through
//! `render`; edits, gutter clicks, hovers and clicks go out through the hooks.

import { defaultKeymap, history, historyKeymap, isolateHistory } from '@codemirror/commands';
import { bracketMatching } from '@codemirror/language';
import { setDiagnostics, lintGutter, type Diagnostic as CmDiagnostic } from '@codemirror/lint';
import { Compartment, EditorState, type Text, type Transaction } from '@codemirror/state';
import { EditorView, highlightSpecialChars, keymap, lineNumbers } from '@codemirror/view';
import { textChange } from '../header-fields';
import { sassHighlighting } from '../highlight';
import type { DiagnosticView } from '../generated/engine';
import { lineExtensions, markEffects, pickLines, reveal, type LineHooks } from './code-lines';

export { reveal, showLinked } from './code-lines';

export interface EditorData {
  diagnostics: DiagnosticView[];
  /** 1-based line of the next instruction, or null when there is none. */
  currentLine: number | null;
  /** 1-based lines holding a breakpoint. */
  breakpointLines: number[];
  readOnly: boolean;
}

export interface EditorHooks extends LineHooks {
  onEdit(text: string): void;
  /** The user put the cursor on lines or selected them (a click, a drag, the arrow keys). */
  onPick(lines: number[]): void;
}

const readOnly = new Compartment();

export function create(parent: HTMLElement, text: string, hooks: EditorHooks): EditorView {
  return new EditorView({
    parent,
    state: EditorState.create({
      doc: text,
      extensions: [
        lineExtensions(hooks), lineNumbers(), lintGutter(), history(), highlightSpecialChars(), bracketMatching(),
        keymap.of([...defaultKeymap, ...historyKeymap]), sassHighlighting,
        readOnly.of([]),
        EditorView.lineWrapping,
        // Focusable even when read-only (an embed, the generated code), so the keyboard can scroll it.
        EditorView.contentAttributes.of({ tabindex: '0', 'aria-label': 'kernel source', 'data-testid': 'editor-content' }),
        pastedWhole,
        EditorView.updateListener.of((u) => {
          if (!u.docChanged) return;
          if (u.transactions.some(replacesAll)) newText.set(u.view, u.state.doc);
          hooks.onEdit(u.state.doc.toString());
        }),
        pickLines((lines) => hooks.onPick(lines)),
      ],
    }),
  });
}

/** Replaces the whole text (opening an example, a link or the user's own kernel) as one undo
 * step of its own, so Ctrl+Z brings back what was typed before. The editor shows its top. */
export function setText(view: EditorView, text: string): void {
  if (view.state.doc.toString() === text) return;
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, annotations: isolateHistory.of('full') });
  reveal(view, 1, 'top');
}

/** The texts that replaced a view's whole text (a paste over everything, an example or a link
 * opened): until edited, the first run of one shows where its kernel starts. */
const newText = new WeakMap<EditorView, Text>();

/** The transaction put a text of several lines in place of the whole one. */
function replacesAll(tr: Transaction): boolean {
  let changes = 0, whole = false;
  tr.changes.iterChanges((fromA, toA, _fromB, _toB, inserted) => {
    changes += 1;
    whole = fromA === 0 && toA === tr.startState.doc.length && inserted.lines > 1;
  });
  return changes === 1 && whole;
}

/** A paste (or a drop) over the whole text shows the top of the file, not the host code at its end
 * where the cursor is; typing on scrolls back to the cursor. */
const pastedWhole = EditorState.transactionExtender.of((tr) =>
  tr.isUserEvent('input') && replacesAll(tr) ? { effects: EditorView.scrollIntoView(0, { y: 'start' }) } : null);

/** The first run of a text that replaced the whole editor's: its step's line (the kernel's first,
 * at step 0) shows near the top, with the kernel's head above it, even in the focused editor. False
 * when the text is not such a new one, or was edited since. */
export function showNewKernel(view: EditorView, line: number | null): boolean {
  if (newText.get(view) !== view.state.doc) return false;
  newText.delete(view);
  reveal(view, line, 'top');
  return true;
}

/** Changes the text to `text` by its one differing part (an input's `//@` line), an undo step of
 * its own, so Ctrl+Z takes back just that edit. */
export function applyText(view: EditorView, text: string): void {
  const changes = textChange(view.state.doc.toString(), text);
  if (changes.from === changes.to && changes.insert === '') return;
  view.dispatch({ changes, annotations: isolateHistory.of('full'), userEvent: 'input.inputs', scrollIntoView: true });
}

/** Selects 1-based `line` (a source button shows where a value comes from), scrolls there and
 * focuses the editor. */
export function gotoLine(view: EditorView, line: number): void {
  const l = view.state.doc.line(Math.min(Math.max(1, line), view.state.doc.lines));
  view.dispatch({ selection: { anchor: l.from, head: l.to }, effects: EditorView.scrollIntoView(l.from, { y: 'center' }) });
  view.focus();
}

function toCm(view: EditorView, d: DiagnosticView): CmDiagnostic {
  const doc = view.state.doc;
  const line = doc.line(Math.min(Math.max(1, d.line), doc.lines));
  const from = Math.min(line.from + Math.max(0, d.col - 1), line.to);
  const to = Math.min(from + Math.max(1, d.len), line.to);
  return { from, to: Math.max(from, to), severity: d.severity, message: d.message };
}

/** Puts the cursor on a diagnostic's place, selects what it marks, scrolls there and focuses the
 * editor (a click in the Problems panel). */
export function jumpTo(view: EditorView, d: DiagnosticView): void {
  const { from, to } = toCm(view, d);
  view.dispatch({ selection: { anchor: from, head: to }, effects: EditorView.scrollIntoView(from, { y: 'center' }) });
  view.focus();
}

/** What `render` last gave each view, with the text it applied to: a seek that keeps the line,
 * the breakpoints and the diagnostics dispatches nothing (a transaction and a reconfigure per
 * seek were a tenth of its time). */
const shown = new WeakMap<EditorView, { doc: EditorView['state']['doc']; data: EditorData; marks: string }>();

export function render(view: EditorView, data: EditorData): void {
  const last = shown.get(view), doc = view.state.doc;
  const marks = `${data.currentLine}|${data.breakpointLines.join(',')}`;
  const same = last?.doc === doc;
  const effects = [
    ...(same && last.marks === marks ? [] : markEffects({ current: data.currentLine, breakpoints: data.breakpointLines })),
    ...(same && last.data.readOnly === data.readOnly ? [] : [readOnly.reconfigure(data.readOnly ? [EditorState.readOnly.of(true), EditorView.editable.of(false)] : [])]),
  ];
  const diagnostics = !same || last.data.diagnostics !== data.diagnostics;
  if (diagnostics) view.dispatch(setDiagnostics(view.state, data.diagnostics.map((d) => toCm(view, d))), { effects });
  else if (effects.length) view.dispatch({ effects });
  shown.set(view, { doc: view.state.doc, data, marks });
  view.dom.classList.toggle('read-only', data.readOnly);
}
