//! Register panel: the selected lane's registers and predicates after the current step. The lane
//! box is built once, so it keeps its focus and its text across renders: each lane typed shows at
//! once, and the box is written to only while the user is not typing in it.

import { html } from '../svg';
import type { StateView } from '../generated/engine';

export interface RegistersPanel {
  lane: HTMLInputElement;
  laneState: HTMLElement;
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
    lane, laneState: html('span', { class: 'lane-state' }), table: html('div', { class: 'regs mono', 'data-testid': 'registers' }),
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
  root.replaceChildren(head, p.table, p.preds);
  return p;
}

function showLane(p: RegistersPanel): void {
  p.lane.value = String(p.shown);
  p.lane.classList.remove('invalid');
}

export function render(p: RegistersPanel, st: StateView | null, lane: number, width: number, select: (lane: number) => void): void {
  Object.assign(p, { shown: lane, width, select });
  p.lane.max = String(Math.max(0, width - 1));
  if (document.activeElement !== p.lane) showLane(p);
  const state = st?.lanes[lane]?.state ?? '';
  p.laneState.className = `lane-state st-${state}`;
  p.laneState.textContent = state;
  p.table.replaceChildren(...(st?.registers ?? []).map((r) => {
    const cell = html('span', { class: 'reg', title: `${r.name} = ${r.hex} = ${r.int} (as float: ${r.float})` });
    cell.append(html('b', {}, r.name), document.createTextNode(` ${r.hex} ${r.int}`));
    return cell;
  }));
  p.preds.replaceChildren(...(st?.predicates ?? []).map((q) => html('span', { class: q.value ? 'pred on' : 'pred' }, `${q.name}=${q.value ? 1 : 0}`)));
}
