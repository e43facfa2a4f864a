//! Metrics panel: the engine's counters after the current step and for the whole run.

import { percent } from '../compare-table';
import { html } from '../svg';
import type { MetricInfo, MetricsPair, PointMetrics } from '../generated/engine';

function fmt(info: MetricInfo, v: number): string {
  return info.ratio ? `${(v * 100).toFixed(1)} %` : v.toLocaleString('en-US');
}

/** `rows`: the engine's metrics (`metric_infos()`), named and ordered once in the core. */
export function render(root: HTMLElement, m: MetricsPair | null, rows: MetricInfo[]): void {
  if (!m) return;
  const table = html('table', { class: 'metrics', 'data-testid': 'metrics' });
  const head = html('tr');
  head.append(html('th', {}, ''), html('th', {}, 'now'), html('th', {}, 'whole run'));
  table.append(head);
  for (const info of rows) {
    const k = info.name as keyof PointMetrics;
    const tr = html('tr', { 'data-metric': k });
    tr.append(html('th', { scope: 'row' }, info.label), html('td', {}, fmt(info, m.now[k])), html('td', {}, fmt(info, m.total[k])));
    table.append(tr);
  }
  const t = m.transforms;
  if (t && m.static_expansion !== null) {
    // STRUCT: what the transform did to the kernel before the run (the paper's Table 5).
    const note = html('p', { class: 'muted small metrics-transforms', 'data-testid': 'metrics-transforms' },
      `STRUCT's transform: ${t.forward_copies} forward copies, ${t.backward_copies} backward copies, ${t.cuts} cuts; `
      + `${t.instructions_before} → ${t.instructions_after} instructions (${percent(m.static_expansion, true)} static)`);
    root.replaceChildren(table, note);
    return;
  }
  root.replaceChildren(table);
}
