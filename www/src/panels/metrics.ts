//! Metrics panel: the engine's counters after the current step and for the whole run.

import { html } from '../svg';
import type { MetricsPair, MetricsView } from '../generated/engine';

type Key = Exclude<keyof MetricsView, 'block_counts' | 'instr_counts'>;
const ROWS: [Key, string][] = [
  ['steps', 'steps'],
  ['warp_instructions', 'warp instructions'],
  ['thread_instructions', 'thread instructions'],
  ['simd_efficiency', 'SIMD efficiency'],
  ['divergent_branches', 'divergent branches'],
  ['pushes', 'pushes'],
  ['pops', 'pops'],
  ['max_stack_depth', 'max stack depth'],
  ['spills', 'spills'],
  ['fills', 'fills'],
  ['cycles', 'cycles'],
];

function fmt(k: Key, v: number): string {
  return k === 'simd_efficiency' ? `${(v * 100).toFixed(1)} %` : v.toLocaleString('en-US');
}

export function render(root: HTMLElement, m: MetricsPair | null): void {
  if (!m) return;
  const table = html('table', { class: 'metrics', 'data-testid': 'metrics' });
  const head = html('tr');
  head.append(html('th', {}, ''), html('th', {}, 'now'), html('th', {}, 'whole run'));
  table.append(head);
  for (const [k, label] of ROWS) {
    const tr = html('tr', { 'data-metric': k });
    tr.append(html('th', { scope: 'row' }, label), html('td', {}, fmt(k, m.now[k])), html('td', {}, fmt(k, m.total[k])));
    table.append(tr);
  }
  root.replaceChildren(table);
}
