//! The checks in the Problems panel: a button that runs compute-sanitizer's four tools on the
//! run (the core's `session::check`), then what they found, by tool, each finding with its two
//! lines (a click puts the editor there), both sides' threads and steps, and how many hazards it
//! stands for. Formatting only: the findings are the core's.

import type { CheckReport, Finding, Side, Tool } from '../generated/engine';
import { html } from '../svg';

export interface ChecksHooks {
  /** Runs the checks on the run shown. */
  check(): void;
  /** Puts the editor's cursor on `line`. */
  jump(line: number): void;
  /** Moves the run to step `t` of the block shown. */
  seek(t: number): void;
}

/** Which launch (of a program's; null: the kernel alone) and block the views show: a finding's
 * steps there are steps of the scrubber. */
export interface Shown {
  launch: number | null;
  block: [number, number, number];
}

/** The checks of the text on screen, or why there are none. */
export type ChecksState = { kind: 'none' } | { kind: 'done'; report: CheckReport } | { kind: 'failed' };

const TOOLS: Tool[] = ['racecheck', 'synccheck', 'initcheck', 'memcheck'];
const ABOUT: Record<Tool, string> = {
  racecheck: 'two threads of a block touch one location, one writing, with no barrier between',
  synccheck: 'barriers the threads of a block do not meet alike',
  initcheck: 'shared memory read before any thread of the block wrote it',
  memcheck: 'an access outside every buffer',
};

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** A finding's one line: its lines and what it is. */
export function findingTitle(f: Finding): string {
  const count = f.count > 1 ? ` (${f.count} ${f.tool === 'racecheck' ? 'hazards' : 'times'})` : '';
  // racecheck's and initcheck's titles name their lines already.
  const lines = /\bline \d/.test(f.title) ? '' : `line ${f.first.line}: `;
  return `${lines}${f.title}${count}`;
}

/** A button to a side's step, when the views show its launch and block. */
function stepButton(f: Finding, s: Side, which: string, shown: Shown | null, hooks: ChecksHooks): HTMLElement | null {
  const here = shown && s.step > 0 && (f.launch ?? null) === shown.launch && s.block.every((v, k) => v === shown.block[k]);
  if (!here) return null;
  const b = html('button', { type: 'button', class: 'finding-step', 'data-testid': `finding-step-${which}` }, `Step ${s.step}`);
  b.title = `the scrubber to step ${s.step}, the ${which} access`;
  b.addEventListener('click', () => hooks.seek(s.step));
  return b;
}

function findingRow(f: Finding, shown: Shown | null, hooks: ChecksHooks): HTMLElement {
  const li = html('li', { class: `finding sev-${f.severity}`, 'data-testid': 'finding', 'data-tool': f.tool, 'data-line': f.first.line });
  const head = html('button', { type: 'button', class: 'finding-head' });
  head.append(html('span', { class: 'problem-sev' }, f.severity), html('span', { class: 'problem-msg' }, findingTitle(f)));
  head.addEventListener('click', () => hooks.jump(f.first.line));
  li.append(head, html('p', { class: 'finding-msg' }, `${f.kernel}: ${f.message}`));
  const tools = html('p', { class: 'finding-tools' });
  if (f.second && f.second.line !== f.first.line) {
    const other = html('button', { type: 'button', class: 'finding-other', 'data-testid': 'finding-second' }, `Show line ${f.second.line}`);
    other.addEventListener('click', () => hooks.jump(f.second!.line));
    tools.append(other);
  }
  for (const [s, which] of [[f.first, 'first'], [f.second, 'second']] as const) {
    const b = s ? stepButton(f, s, which, shown, hooks) : null;
    if (b) tools.append(b);
  }
  if (tools.childElementCount) li.append(tools);
  return li;
}

/** Renders the checks' section at the end of the Problems panel `panel`. */
export function render(panel: HTMLElement, state: ChecksState, shown: Shown | null, hooks: ChecksHooks): void {
  let section = panel.querySelector<HTMLElement>(':scope > section.checks');
  const key = JSON.stringify([state, shown]);
  if (section?.dataset.key === key) return;
  if (!section) {
    section = html('section', { class: 'checks', 'data-testid': 'checks' });
    panel.append(section);
  }
  section.dataset.key = key;
  const run = html('button', { type: 'button', class: 'checks-run', 'data-testid': 'checks-run' }, 'Check for races and memory bugs');
  run.title = "compute-sanitizer's racecheck, synccheck, initcheck and memcheck on every launch of the run";
  run.addEventListener('click', hooks.check);
  if (state.kind === 'none') {
    section.replaceChildren(run);
    return;
  }
  if (state.kind === 'failed') {
    section.replaceChildren(run, html('p', { class: 'muted' }, 'The checks did not run: the kernel does not compile or launch (see above).'));
    return;
  }
  const { report } = state;
  const summary = html('p', { class: 'checks-summary', 'data-testid': 'checks-summary' },
    report.findings.length
      ? `${plural(report.findings.length, 'finding')} under ${report.model}`
      : `No finding under ${report.model}: no race, barrier, uninitialised read or bad access in this run.`);
  const parts: HTMLElement[] = [run, summary];
  for (const tool of TOOLS) {
    const of = report.findings.filter((f) => f.tool === tool);
    if (!of.length) continue;
    parts.push(html('h4', { class: 'checks-tool', title: ABOUT[tool] }, `${tool} · ${plural(of.length, 'finding')}`));
    const ul = html('ul', { class: 'findings' });
    of.forEach((f) => ul.append(findingRow(f, shown, hooks)));
    parts.push(ul);
  }
  for (const note of report.unchecked) parts.push(html('p', { class: 'muted' }, note));
  section.replaceChildren(...parts);
}
