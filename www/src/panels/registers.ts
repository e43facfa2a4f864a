//! Register panel: the selected lane's C variables by name (for a C kernel: those in scope at the
//! lane's line, typed, each with the register that holds it, from the core), then its registers
//! and predicates after the current step. The lane box is built once, so it keeps its focus and
//! its text across renders: each lane typed shows at once, and the box is written to only while
//! the user is not typing in it.

import { html, setAttr, setText, syncList } from '../svg';
import type { StateView } from '../generated/engine';

export interface RegistersPanel {
  lane: HTMLInputElement;
  laneState: HTMLElement;
  vars: HTMLElement;
  table: HTMLElement;
  preds: HTMLElement;
  /** The lane shown and the warp's width, as of the last render. */
  shown: number;
  width: number;
  select: (lane: number) => void;
}

export function create(root: HTMLElement): RegistersPanel {
  const lane = html('input', { type: 'number', min: 0, value: 0, 'data-testid': 'lane-select', 'aria-label': 'lane' });
  const p: RegistersPanel = {
    lane, laneState: html('span', { class: 'lane-state' }),
    vars: html('div', { class: 'vars mono', 'data-testid': 'variables', role: 'table', 'aria-label': 'C variables of the selected lane' }),
    table: html('div', { class: 'regs mono', 'data-testid': 'registers' }),
    preds: html('div', { class: 'preds mono' }), shown: 0, width: 0, select: () => {},
  };
  // Every keystroke that makes a lane of this warp shows it; anything else is marked and waits.
  lane.addEventListener('input', () => {
    const v = lane.valueAsNumber, ok = Number.isInteger(v) && v >= 0 && v < p.width;
    lane.classList.toggle('invalid', !ok && lane.value !== '');
    if (ok && v !== p.shown) p.select(v);
  });
  // Leaving the box shows the lane on screen in it again (an empty or out-of-range entry is dropped).
  lane.addEventListener('blur', () => showLane(p));
  const head = html('label', { class: 'field' });
  head.append(html('span', {}, 'lane'), lane, p.laneState);
  root.replaceChildren(head, p.vars, p.table, p.preds);
  return p;
}

function showLane(p: RegistersPanel): void {
  if (p.lane.value !== String(p.shown)) p.lane.value = String(p.shown);
  p.lane.classList.remove('invalid');
}

export function render(p: RegistersPanel, st: StateView | null, lane: number, width: number, select: (lane: number) => void): void {
  Object.assign(p, { shown: lane, width, select });
  p.lane.max = String(Math.max(0, width - 1));
  if (document.activeElement !== p.lane) showLane(p);
  const state = st?.lanes[lane]?.state ?? '';
  p.laneState.className = `lane-state st-${state}`;
  setText(p.laneState, state);
  const vars = st?.variables ?? [];
  p.vars.hidden = vars.length === 0;
  // Each step changes values, rarely the rows: the nodes are kept and only their text changes.
  syncList(p.vars, vars, () => {
    const row = html('div', { class: 'var', role: 'row' });
    row.append(html('b', { role: 'cell' }), html('span', { role: 'cell', class: 'var-value' }), html('span', { role: 'cell', class: 'var-where' }));
    return row;
  }, (row, v) => {
    setAttr(row, 'title', `${v.ty} ${v.name} = ${v.value}, held in ${v.reg}`);
    const [name, value, where] = row.children;
    setText(name as HTMLElement, v.name);
    setText(value as HTMLElement, v.value);
    setText(where as HTMLElement, `${v.ty} · ${v.reg}`);
  });
  syncList(p.table, st?.registers ?? [], () => {
    const cell = html('span', { class: 'reg' });
    cell.append(html('b'), document.createTextNode(''));
    return cell;
  }, (cell, r) => {
    setAttr(cell, 'title', `${r.name} = ${r.hex} = ${r.int} (as float: ${r.float})`);
    setText(cell.firstChild as HTMLElement, r.name);
    const value = cell.lastChild as Text, text = ` ${r.hex} ${r.int}`;
    if (value.data !== text) value.data = text;
  });
  syncList(p.preds, st?.predicates ?? [], () => html('span'), (el, q) => {
    setAttr(el, 'class', q.value ? 'pred on' : 'pred');
    setText(el, `${q.name}=${q.value ? 1 : 0}`);
  });
}
