//! Metrics panel: the engine's counters after the current step and for the whole run.

import { percent } from '../compare-table';
import { html } from '../svg';
import type { MetricInfo, MetricsPair, PointMetrics } from '../generated/engine';

// One formatter for every cell: `toLocaleString` builds a new one per call (a tenth of a seek).
const COUNT = new Intl.NumberFormat('en-US');

function fmt(info: MetricInfo, v: number): string {
  return info.ratio ? `${(v * 100).toFixed(1)} %` : COUNT.format(v);
}

/** The table last built in a root, so a step only changes the cells' text. */
interface Built { rows: MetricInfo[]; note: string; table: HTMLTableElement; cells: [Text, Text][] }
const built = new WeakMap<HTMLElement, Built>();

/** STRUCT: what the transform did to the kernel before the run (the paper's Table 5); '' otherwise. */
function transformNote(m: MetricsPair): string {
  const t = m.transforms;
  if (!t || m.static_expansion === null) return '';
  return `STRUCT's transform: ${t.forward_copies} forward copies, ${t.backward_copies} backward copies, ${t.cuts} cuts; `
    + `${t.instructions_before} → ${t.instructions_after} instructions (${percent(m.static_expansion, true)} static)`;
}

function build(root: HTMLElement, rows: MetricInfo[], note: string): Built {
  const table = html('table', { class: 'metrics', 'data-testid': 'metrics' });
  const head = html('tr');
  head.append(html('th', {}, ''), html('th', {}, 'now'), html('th', {}, 'whole run'));
  table.append(head);
  const cells: [Text, Text][] = [];
  for (const info of rows) {
    const now = document.createTextNode(''), total = document.createTextNode('');
    const tr = html('tr', { 'data-metric': info.name });
    const [a, b] = [html('td'), html('td')];
    a.append(now);
    b.append(total);
    tr.append(html('th', { scope: 'row' }, info.label), a, b);
    table.append(tr);
    cells.push([now, total]);
  }
  if (note) root.replaceChildren(table, html('p', { class: 'muted small metrics-transforms', 'data-testid': 'metrics-transforms' }, note));
  else root.replaceChildren(table);
  const b = { rows, note, table, cells };
  built.set(root, b);
  return b;
}

/** `rows`: the engine's metrics (`metric_infos()`), named and ordered once in the core. */
export function render(root: HTMLElement, m: MetricsPair | null, rows: MetricInfo[]): void {
  if (!m) return;
  const note = transformNote(m);
  let b = built.get(root);
  if (!b || b.rows !== rows || b.note !== note || root.firstChild !== b.table) b = build(root, rows, note);
  rows.forEach((info, i) => {
    const k = info.name as keyof PointMetrics;
    const [now, total] = b.cells[i];
    const [a, z] = [fmt(info, m.now[k]), fmt(info, m.total[k])];
    // Only the text that changed: an unchanged cell needs no new layout.
    if (now.data !== a) now.data = a;
    if (total.data !== z) total.data = z;
  });
}
