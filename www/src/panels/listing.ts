//! The generated-code pane: a read-only CodeMirror view of a C kernel's compiled listing, with
//! the current instruction's line, lines linked to the C line under the pointer, breakpoints,
//! the counters' heat column (`heat-gutter.ts`), and a header naming the target and whether
//! short branches were if-converted, with the heat's on/off button.

import { EditorState } from '@codemirror/state';
import { EditorView, lineNumbers } from '@codemirror/view';
import { heatButton, type HeatChoice, type LineHeat } from '../heat';
import { sassHighlighting } from '../highlight';
import { html, watchSize, type Watched } from '../svg';
import { lineExtensions, markEffects, reveal, type LineHooks, type LineMarks } from './code-lines';
import { heatExtensions, showHeat } from './heat-gutter';

export { reveal, showLinked } from './code-lines';

export interface ListingPanel {
  view: EditorView;
  info: HTMLElement;
  /** Turns the heat column on or off. */
  heat: HTMLButtonElement;
  /** The view's size: heat is asked for only while the pane is on screen. */
  size: Watched;
  /** The text and marks the view shows, as `render` last set them, and the heat's cells. */
  shown?: { doc: EditorView['state']['doc']; marks: string; heat: readonly LineHeat[] | null };
  last?: ListingData;
}

/** `onHeat`: the heat button was pressed. */
export function create(parent: HTMLElement, info: HTMLElement, hooks: LineHooks, onHeat: () => void): ListingPanel {
  // The header line: the target and its notes, then the heat button at the right.
  const head = html('div', { class: 'listing-head' });
  info.replaceWith(head);
  const heat = html('button', { type: 'button', class: 'heat-toggle', 'data-testid': 'listing-heat', 'aria-pressed': 'false' }, 'heat');
  heat.addEventListener('click', onHeat);
  head.append(info, heat);
  const view = new EditorView({
    parent,
    state: EditorState.create({
      extensions: [
        heatExtensions(), lineExtensions(hooks), lineNumbers(), sassHighlighting,
        EditorState.readOnly.of(true), EditorView.editable.of(false),
        // Long branch targets wrap rather than hide behind a horizontal scroll.
        EditorView.lineWrapping,
        // Focusable even when read-only (an embed, the generated code), so the keyboard can scroll it.
        EditorView.contentAttributes.of({ tabindex: '0', 'aria-label': 'generated code', 'data-testid': 'listing-content' }),
      ],
    }),
  });
  const p: ListingPanel = { view, info, heat, size: watchSize(parent, () => { if (p.last) renderHeat(p, p.last, false); }) };
  return p;
}

/** The compiler indents instructions by 8 columns; 2 keep labels apart and save width. */
export function displayText(listing: string): string {
  return listing.replace(/^ {8}/gm, '  ').replace(/\n$/, '');
}

export interface ListingData extends LineMarks {
  text: string;
  /** The header line: target, if-conversion and how the last toggle changed the code. */
  info: string;
  heat: HeatChoice<LineHeat>;
}

export function render(p: ListingPanel, data: ListingData): void {
  const doc = p.view.state.doc;
  const changes = doc.toString() === data.text ? undefined : { from: 0, to: doc.length, insert: data.text };
  // A seek that keeps the line and the breakpoints changes nothing: no transaction.
  const marks = `${data.current}|${data.breakpoints.join(',')}`;
  if (changes || p.shown?.doc !== doc || p.shown.marks !== marks) p.view.dispatch({ changes, effects: markEffects(data) });
  p.shown = { doc: p.view.state.doc, marks, heat: p.shown?.heat ?? null };
  p.last = data;
  // New text maps the old cells away: they are set again with it.
  renderHeat(p, data, !!changes);
  if (p.info.textContent !== data.info) {
    p.info.textContent = data.info;
    p.info.title = data.info;
  }
  reveal(p.view, data.current);
}

/** The heat column as `data` asks, while the pane is on screen (on a resize too: a pane shown
 * for the first time asks then). */
function renderHeat(p: ListingPanel, data: ListingData, textChanged: boolean): void {
  const words = heatButton(data.heat, 'each instruction\'s warp-level executions (Instructions Executed)');
  p.heat.setAttribute('aria-pressed', String(data.heat.on));
  if (p.heat.textContent !== words.text) p.heat.textContent = words.text;
  p.heat.title = words.title;
  const cells = data.heat.on && p.size.w > 0 ? data.heat.cells() : null;
  if (!p.shown || (!textChanged && p.shown.heat === cells)) return;
  showHeat(p.view, cells);
  p.shown.heat = cells;
}
