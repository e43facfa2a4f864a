//! The runs of a sweep that stopped early (deadlock, fault, step limit, bad input), listed under
//! the plot with their message and line; the plot draws them as hollow markers.

import { html } from '../svg';

export interface StoppedRun { x: number; series: string; message: string; line: number | null }

const SHOWN = 100;

export function render(root: HTMLElement, param: string, runs: StoppedRun[]): void {
  root.hidden = runs.length === 0;
  if (!runs.length) { root.replaceChildren(); return; }
  const list = html('ul', { class: 'sweep-stops', 'data-testid': 'sweep-stops' });
  for (const r of runs.slice(0, SHOWN)) {
    const li = html('li', { 'data-testid': 'sweep-stop' });
    li.append(html('strong', {}, `${param} = ${r.x}`), ` · ${r.series}: ${r.message}${r.line !== null ? ` (line ${r.line})` : ''}`);
    list.append(li);
  }
  const more = runs.length > SHOWN ? [html('p', { class: 'muted small' }, `… and ${runs.length - SHOWN} more (all are in the CSV).`)] : [];
  root.replaceChildren(html('h3', {}, `Runs that stopped early (${runs.length})`), list, ...more);
}
