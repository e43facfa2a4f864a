//! Metrics panel: the engine's counters after the current step and for the whole run.

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
  root.replaceChildren(table);
}
