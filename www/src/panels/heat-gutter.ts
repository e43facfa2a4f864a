//! The heat column of the generated code: a CodeMirror gutter left of the breakpoints with, on
//! each instruction's line, a cell tinted by how hot the instruction is and its warp-level
//! executions (`heat.ts`), its tooltip every count under ncu's names. Off, the gutter goes.

import { Compartment, RangeSet, StateEffect, StateField, type Extension } from '@codemirror/state';
import { EditorView, GutterMarker, gutter } from '@codemirror/view';
import type { LineHeat } from '../heat';

class HeatMarker extends GutterMarker {
  constructor(readonly cell: LineHeat) { super(); }

  eq(other: GutterMarker): boolean {
    const c = (other as HeatMarker).cell;
    return other instanceof HeatMarker && c.label === this.cell.label && c.level === this.cell.level && c.title === this.cell.title;
  }

  toDOM(): Node {
    const el = document.createElement('span');
    el.className = this.cell.level === 0 ? 'heat-cell cold' : 'heat-cell';
    el.style.setProperty('--level', this.cell.level.toFixed(3));
    el.textContent = this.cell.label;
    el.title = this.cell.title;
    el.dataset.testid = 'heat-cell';
    el.dataset.line = String(this.cell.line);
    return el;
  }
}

// Sizes the column for the run's widest number, whatever lines are drawn: the column takes no
// more width from the code than the run needs (a warp's short run, "4"; a launch's, "12.3k").
class HeatSpacer extends GutterMarker {
  constructor(readonly text: string) { super(); }

  eq(other: GutterMarker): boolean {
    return other instanceof HeatSpacer && other.text === this.text;
  }

  toDOM(): Node {
    const el = document.createElement('span');
    el.className = 'heat-cell spacer';
    el.textContent = this.text;
    return el;
  }
}

const setCells = StateEffect.define<readonly LineHeat[]>();

/** The widest number of the cells shown, as zeros (digits are as wide as each other). */
const widestField = StateField.define<string>({
  create: () => '0',
  update(widest, tr) {
    for (const e of tr.effects) {
      if (e.is(setCells)) widest = '0'.repeat(Math.max(1, ...e.value.map((c) => c.label.length)));
    }
    return widest;
  },
});

const cellsField = StateField.define<RangeSet<GutterMarker>>({
  create: () => RangeSet.empty,
  update(set, tr) {
    set = set.map(tr.changes);
    for (const e of tr.effects) {
      if (!e.is(setCells)) continue;
      const lines = tr.state.doc.lines;
      const cells = [...e.value].filter((c) => c.line >= 1 && c.line <= lines).sort((a, b) => a.line - b.line);
      set = RangeSet.of(cells.map((c) => new HeatMarker(c).range(tr.state.doc.line(c.line).from)));
    }
    return set;
  },
});

const heatColumn = gutter({
  class: 'cm-heat-gutter', markers: (v) => v.state.field(cellsField),
  initialSpacer: (v) => new HeatSpacer(v.state.field(widestField)),
  updateSpacer: (spacer, update) => {
    const widest = update.state.field(widestField);
    return widest === (spacer as HeatSpacer).text ? spacer : new HeatSpacer(widest);
  },
});

/** Holds the column while heat shows. */
const slot = new Compartment();

/** The heat column's pieces, for a view's extensions (put first: the column is leftmost); it
 * shows once `showHeat` gives it cells. */
export function heatExtensions(): Extension {
  return [cellsField, widestField, slot.of([])];
}

/** Shows `cells` in `view`'s heat column (null: no column). */
export function showHeat(view: EditorView, cells: readonly LineHeat[] | null): void {
  const on = cells !== null;
  const effects: StateEffect<unknown>[] = [setCells.of(cells ?? [])];
  if (on !== (slot.get(view.state) === heatColumn)) effects.push(slot.reconfigure(on ? heatColumn : []));
  view.dispatch({ effects });
}
