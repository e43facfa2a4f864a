//! Register panel: the selected lane's registers and predicates after the current step.

import { html } from '../svg';
import type { StateView } from '../generated/engine';

export function render(root: HTMLElement, st: StateView | null, lane: number, width: number, select: (lane: number) => void): void {
  const head = html('label', { class: 'field' });
  const input = html('input', { type: 'number', min: 0, max: Math.max(0, width - 1), value: lane, 'data-testid': 'lane-select' });
  input.addEventListener('change', () => {
    const v = input.valueAsNumber;
    if (Number.isInteger(v) && v >= 0 && v < width) select(v);
  });
  const state = st?.lanes[lane]?.state ?? '';
  head.append(html('span', {}, 'lane'), input, html('span', { class: `lane-state st-${state}` }, state));
  const table = html('div', { class: 'regs mono', 'data-testid': 'registers' });
  for (const r of st?.registers ?? []) {
    const cell = html('span', { class: 'reg', title: `${r.name} = ${r.hex} = ${r.int} (as float: ${r.float})` });
    cell.append(html('b', {}, r.name), document.createTextNode(` ${r.hex} ${r.int}`));
    table.append(cell);
  }
  const preds = html('div', { class: 'preds mono' });
  for (const p of st?.predicates ?? []) preds.append(html('span', { class: p.value ? 'pred on' : 'pred' }, `${p.name}=${p.value ? 1 : 0}`));
  if (document.activeElement?.getAttribute('data-testid') === 'lane-select') return; // don't fight typing
  root.replaceChildren(head, table, preds);
}
