//! The generated-code pane: a read-only CodeMirror view of a C kernel's compiled listing, with
//! the current instruction's line, lines linked to the C line under the pointer, breakpoints,
//! and a header naming the target and whether short branches were if-converted.

import { EditorState } from '@codemirror/state';
import { EditorView, lineNumbers } from '@codemirror/view';
import { sassHighlighting } from '../highlight';
import { lineExtensions, markEffects, reveal, type LineHooks, type LineMarks } from './code-lines';

export { reveal, showLinked } from './code-lines';

export interface ListingPanel {
  view: EditorView;
  info: HTMLElement;
  /** The text and marks the view shows, as `render` last set them. */
  shown?: { doc: EditorView['state']['doc']; marks: string };
}

export function create(parent: HTMLElement, info: HTMLElement, hooks: LineHooks): ListingPanel {
  const view = new EditorView({
    parent,
    state: EditorState.create({
      extensions: [
        lineExtensions(hooks), lineNumbers(), sassHighlighting,
        EditorState.readOnly.of(true), EditorView.editable.of(false),
        // Long branch targets wrap rather than hide behind a horizontal scroll.
        EditorView.lineWrapping,
        // Focusable even when read-only (an embed, the generated code), so the keyboard can scroll it.
        EditorView.contentAttributes.of({ tabindex: '0', 'aria-label': 'generated code', 'data-testid': 'listing-content' }),
      ],
    }),
  });
  return { view, info };
}

/** The compiler indents instructions by 8 columns; 2 keep labels apart and save width. */
export function displayText(listing: string): string {
  return listing.replace(/^ {8}/gm, '  ').replace(/\n$/, '');
}

export interface ListingData extends LineMarks {
  text: string;
  /** The header line: target, if-conversion and how the last toggle changed the code. */
  info: string;
}

export function render(p: ListingPanel, data: ListingData): void {
  const doc = p.view.state.doc;
  const changes = doc.toString() === data.text ? undefined : { from: 0, to: doc.length, insert: data.text };
  // A seek that keeps the line and the breakpoints changes nothing: no transaction.
  const marks = `${data.current}|${data.breakpoints.join(',')}`;
  if (changes || p.shown?.doc !== doc || p.shown.marks !== marks) p.view.dispatch({ changes, effects: markEffects(data) });
  p.shown = { doc: p.view.state.doc, marks };
  if (p.info.textContent !== data.info) {
    p.info.textContent = data.info;
    p.info.title = data.info;
  }
  reveal(p.view, data.current);
}
