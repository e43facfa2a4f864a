//! The kernel editor (CodeMirror 6): highlighting, inline diagnostics, the current instruction's
//! line, and a breakpoint gutter. The engine's facts (diagnostics, lines of instructions, the
//! current line) come in through `render`; edits go out through `onEdit`.

import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { bracketMatching } from '@codemirror/language';
import { setDiagnostics, lintGutter, type Diagnostic as CmDiagnostic } from '@codemirror/lint';
import { Compartment, EditorState, RangeSet, StateEffect, StateField, type Extension } from '@codemirror/state';
import {
  Decoration, EditorView, GutterMarker, gutter, highlightSpecialChars, keymap, lineNumbers, type DecorationSet,
} from '@codemirror/view';
import { sassHighlighting } from '../highlight';
import type { Diagnostic } from '../views';

export interface EditorData {
  diagnostics: Diagnostic[];
  /** 1-based line of the next instruction, or null when there is none. */
  currentLine: number | null;
  /** 1-based lines holding a breakpoint. */
  breakpointLines: number[];
  readOnly: boolean;
}

export interface EditorHooks {
  onEdit(text: string): void;
  /** A click in the breakpoint gutter on a 1-based line. */
  onToggleBreakpoint(line: number): void;
}

const setCurrent = StateEffect.define<number | null>();
const setBreakpoints = StateEffect.define<number[]>();
const currentDeco = Decoration.line({ class: 'cm-current-instr', attributes: { 'data-testid': 'current-line' } });

const currentField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(deco, tr) {
    deco = deco.map(tr.changes);
    for (const e of tr.effects) {
      if (!e.is(setCurrent)) continue;
      const n = e.value;
      deco = n && n <= tr.state.doc.lines ? Decoration.set([currentDeco.range(tr.state.doc.line(n).from)]) : Decoration.none;
    }
    return deco;
  },
  provide: (f) => EditorView.decorations.from(f),
});

class BreakpointMarker extends GutterMarker {
  toDOM(): Node {
    const dot = document.createElement('span');
    dot.className = 'bp-dot';
    dot.title = 'breakpoint (click to clear)';
    return dot;
  }
}
const bpMarker = new BreakpointMarker();

// Sizes the gutter without drawing a dot in its hidden spacer.
class SpacerMarker extends GutterMarker {
  toDOM(): Node {
    const s = document.createElement('span');
    s.className = 'bp-spacer';
    return s;
  }
}

const bpField = StateField.define<RangeSet<GutterMarker>>({
  create: () => RangeSet.empty,
  update(set, tr) {
    set = set.map(tr.changes);
    for (const e of tr.effects) {
      if (!e.is(setBreakpoints)) continue;
      const doc = tr.state.doc;
      const lines = [...new Set(e.value)].filter((n) => n >= 1 && n <= doc.lines).sort((a, b) => a - b);
      set = RangeSet.of(lines.map((n) => bpMarker.range(doc.line(n).from)));
    }
    return set;
  },
});

function breakpointGutter(hooks: EditorHooks): Extension {
  return [bpField, gutter({
    class: 'cm-bp-gutter',
    markers: (v) => v.state.field(bpField),
    initialSpacer: () => new SpacerMarker(),
    domEventHandlers: {
      mousedown(view, block) {
        hooks.onToggleBreakpoint(view.state.doc.lineAt(block.from).number);
        return true;
      },
    },
  })];
}

const readOnly = new Compartment();

export function create(parent: HTMLElement, text: string, hooks: EditorHooks): EditorView {
  return new EditorView({
    parent,
    state: EditorState.create({
      doc: text,
      extensions: [
        breakpointGutter(hooks), lineNumbers(), lintGutter(), history(), highlightSpecialChars(), bracketMatching(),
        keymap.of([...defaultKeymap, ...historyKeymap]), sassHighlighting, currentField,
        readOnly.of([]),
        EditorView.lineWrapping,
        EditorView.contentAttributes.of({ 'aria-label': 'kernel source', 'data-testid': 'editor-content' }),
        EditorView.updateListener.of((u) => { if (u.docChanged) hooks.onEdit(u.state.doc.toString()); }),
      ],
    }),
  });
}

/** Replaces the whole text (opening an example or a link); not an edit by the user. */
export function setText(view: EditorView, text: string): void {
  if (view.state.doc.toString() !== text) view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
}

function toCm(view: EditorView, d: Diagnostic): CmDiagnostic {
  const doc = view.state.doc;
  const line = doc.line(Math.min(Math.max(1, d.line), doc.lines));
  const from = Math.min(line.from + Math.max(0, d.col - 1), line.to);
  const to = Math.min(from + Math.max(1, d.len), line.to);
  return { from, to: Math.max(from, to), severity: d.severity, message: d.message };
}

export function render(view: EditorView, data: EditorData): void {
  const effects = [
    setCurrent.of(data.currentLine),
    setBreakpoints.of(data.breakpointLines),
    readOnly.reconfigure(data.readOnly ? [EditorState.readOnly.of(true), EditorView.editable.of(false)] : []),
  ];
  view.dispatch(setDiagnostics(view.state, data.diagnostics.map((d) => toCm(view, d))), { effects });
  view.dom.classList.toggle('read-only', data.readOnly);
}

/** Scrolls the current instruction into view without stealing focus. */
export function reveal(view: EditorView, line: number | null): void {
  if (!line || line > view.state.doc.lines) return;
  // Only the editor's own scroller moves: EditorView.scrollIntoView would also scroll the page
  // (in the one-column layout the page jumped to the editor on every step). Done in the editor's
  // measure cycle, when its line geometry is known.
  const pos = view.state.doc.line(line).from;
  view.requestMeasure({
    key: 'warpscope-reveal',
    read: (v) => {
      const block = v.lineBlockAt(pos), sc = v.scrollDOM;
      const top = block.top + v.documentTop - sc.getBoundingClientRect().top + sc.scrollTop;
      if (top < sc.scrollTop) return top - 8;
      if (top + block.height > sc.scrollTop + sc.clientHeight) return top + block.height - sc.clientHeight + 8;
      return null;
    },
    write: (scrollTop, v) => { if (scrollTop !== null) v.scrollDOM.scrollTop = scrollTop; },
  });
}
