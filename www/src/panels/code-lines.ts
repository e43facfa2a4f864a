//! CodeMirror pieces shared by the kernel editor, the generated-code pane and the CUDA source: the
//! current instruction's line, lines linked to the one hovered or picked in another pane, a
//! breakpoint gutter, hover and pick reporting and scrolling the current line into view. Line
//! numbers are 1-based.

import { RangeSet, StateEffect, StateField, type EditorState, type Extension } from '@codemirror/state';
import { Decoration, EditorView, GutterMarker, gutter, type DecorationSet } from '@codemirror/view';

export interface LineHooks {
  /** A click in the breakpoint gutter on a line. */
  onToggleBreakpoint(line: number): void;
  /** The pointer is over a line (null: it left the text). */
  onHover(line: number | null): void;
}

const setCurrent = StateEffect.define<number[]>();
const setLinked = StateEffect.define<number[]>();
const setBreakpoints = StateEffect.define<number[]>();

const validLines = (state: EditorState, lines: number[]) =>
  [...new Set(lines)].filter((n) => n >= 1 && n <= state.doc.lines).sort((a, b) => a - b);

/** Line decorations set by an effect; each carries its line number for tests and styling. */
function lineField(effect: typeof setLinked, cls: string, testid: string) {
  return StateField.define<DecorationSet>({
    create: () => Decoration.none,
    update(deco, tr) {
      deco = deco.map(tr.changes);
      for (const e of tr.effects) {
        if (!e.is(effect)) continue;
        deco = Decoration.set(validLines(tr.state, e.value).map((n) =>
          Decoration.line({ class: cls, attributes: { 'data-testid': testid, 'data-line': String(n) } }).range(tr.state.doc.line(n).from)));
      }
      return deco;
    },
    provide: (f) => EditorView.decorations.from(f),
  });
}

const currentField = lineField(setCurrent, 'cm-current-instr', 'current-line');
const linkedField = lineField(setLinked, 'cm-linked', 'linked-line');

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
      if (e.is(setBreakpoints)) set = RangeSet.of(validLines(tr.state, e.value).map((n) => bpMarker.range(tr.state.doc.line(n).from)));
    }
    return set;
  },
});

/** The fields, the breakpoint gutter and hover reporting; put the gutter first in the list. */
export function lineExtensions(hooks: LineHooks): Extension {
  let hovered: number | null = null;
  const hover = (line: number | null) => {
    if (line !== hovered) hooks.onHover((hovered = line));
  };
  return [
    bpField, currentField, linkedField,
    gutter({
      class: 'cm-bp-gutter',
      markers: (v) => v.state.field(bpField),
      initialSpacer: () => new SpacerMarker(),
      domEventHandlers: {
        mousedown(view, block) {
          hooks.onToggleBreakpoint(view.state.doc.lineAt(block.from).number);
          return true;
        },
      },
    }),
    EditorView.domEventHandlers({
      mousemove(e, view) {
        const pos = view.posAtCoords({ x: e.clientX, y: e.clientY });
        hover(pos === null ? null : view.state.doc.lineAt(pos).number);
      },
      mouseleave() { hover(null); },
    }),
  ];
}

/** Calls `onPick` with the lines of the main selection when the user moves it (a click, a drag,
 * the arrow keys), not when the text or the page moves it. At most `MAX_PICKED` lines. */
export function pickLines(onPick: (lines: number[]) => void): Extension {
  return EditorView.updateListener.of((u) => {
    if (!u.selectionSet || !u.transactions.some((tr) => tr.isUserEvent('select'))) return;
    onPick(selectedLines(u.state));
  });
}

const MAX_PICKED = 200;

/** The lines the main selection covers (a selection ending at a line's start leaves that line out). */
export function selectedLines(state: EditorState): number[] {
  const { from, to } = state.selection.main;
  const first = state.doc.lineAt(from).number;
  let last = state.doc.lineAt(to).number;
  if (to > from && state.doc.line(last).from === to) last -= 1;
  const lines: number[] = [];
  for (let n = first; n <= Math.min(last, first + MAX_PICKED - 1); n++) lines.push(n);
  return lines;
}

export interface LineMarks {
  /** The current instruction's line (the PTX beside SASS: every line of its CUDA line). */
  current: number | readonly number[] | null;
  breakpoints: number[];
}

/** The effects that show `marks`, to dispatch with whatever else changes. */
export function markEffects(marks: LineMarks): StateEffect<unknown>[] {
  const current = marks.current === null ? [] : typeof marks.current === 'number' ? [marks.current] : [...marks.current];
  return [setCurrent.of(current), setBreakpoints.of(marks.breakpoints)];
}

/** Highlights `lines` as linked to the line hovered in the other pane. */
export function showLinked(view: EditorView, lines: number[]): void {
  view.dispatch({ effects: setLinked.of(lines) });
}

/** Where a reveal puts its line: at the nearer edge of the view when it is out of view (the
 * smallest scroll), or near the top with the lines above it (the top of the file when the line
 * fits under it), to show where a kernel starts. */
export type RevealAt = 'edge' | 'top';

/** Scrolls `line` (of several, the first) into view without stealing focus. A hidden view (a tab
 * behind another) cannot scroll: the app reveals the step's lines again when a panel is shown. */
export function reveal(view: EditorView, lines: number | readonly number[] | null, at: RevealAt = 'edge'): void {
  const line = lines === null || typeof lines === 'number' ? lines : lines[0] ?? null;
  if (!line || line > view.state.doc.lines) return;
  const id = {};
  latest.set(view, id);
  scrollTo(view, line, at, REVEAL_TRIES, id);
}

/** Each view's latest reveal: a later look of an earlier one gives way to it. */
const latest = new WeakMap<EditorView, object>();

/** Looks a reveal may take: lines drawn for the first time where it scrolled may be
 * taller than CodeMirror guessed (wrapped ones), which moves the line out of view again (a tab
 * shown after a link opened at a late step showed the lines above the step's). */
const REVEAL_TRIES = 3;

/** One look of reveal `id` at where `line` is, scrolling there when it is out of view. */
function scrollTo(view: EditorView, line: number, at: RevealAt, tries: number, id: object): void {
  // Only the editor's own scroller moves: EditorView.scrollIntoView would also scroll the page
  // (in the one-column layout the page jumped to the editor on every step). Done in the editor's
  // measure cycle, when its line geometry is known.
  view.requestMeasure({
    key: 'warpscope-reveal',
    read: (v) => {
      const sc = v.scrollDOM;
      if (sc.clientHeight === 0 || line > v.state.doc.lines) return null;
      const block = v.lineBlockAt(v.state.doc.line(line).from);
      const top = block.top + v.documentTop - sc.getBoundingClientRect().top + sc.scrollTop;
      if (at === 'top') {
        const want = top + block.height <= sc.clientHeight ? 0 : Math.round(top - sc.clientHeight / 4);
        return Math.abs(want - sc.scrollTop) > 1 ? want : null;
      }
      if (top < sc.scrollTop) return top - 8;
      if (top + block.height > sc.scrollTop + sc.clientHeight) return top + block.height - sc.clientHeight + 8;
      return null;
    },
    write: (scrollTop, v) => {
      if (scrollTop === null) return;
      v.scrollDOM.scrollTop = scrollTop;
      // Look again once the lines now in view are drawn and measured: in a later frame, since in
      // this measure cycle CodeMirror would scroll back to keep what it showed before in place.
      if (tries > 1) requestAnimationFrame(() => { if (latest.get(v) === id) scrollTo(v, line, at, tries - 1, id); });
    },
  });
}
