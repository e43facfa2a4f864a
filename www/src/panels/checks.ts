//! The checks in the Problems panel: a button that runs compute-sanitizer's four tools on the
//! run (the core's `session::check`), then what they found, by tool, each finding with its two
//! lines (a click puts the editor there), both sides' threads and steps (a click shows that
//! launch and block at that step), and how many hazards it stands for; and the scrubber's marks
//! of the findings in the block shown. Formatting only: the findings are the core's.

import type { CheckReport, Finding, Side, Tool } from '../generated/engine';
import { html } from '../svg';
import type { StepMark } from './scrubber';

export interface ChecksHooks {
  /** Runs the checks on the run shown. */
  check(): void;
  /** Puts the editor's cursor on `line`. */
  jump(line: number): void;
  /** Shows step `step` of block `block` of launch `launch` (a program's, from 0; null: the
   * kernel alone), running that launch or block first if another shows. */
  show(launch: number | null, block: [number, number, number], step: number): void;
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
  initcheck: 'memory read before anything wrote it: shared memory no thread of the block wrote, device memory no copy or thread wrote',
  memcheck: 'an access outside every buffer, or misaligned',
};

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** A finding's one line: its lines and what it is. */
export function findingTitle(f: Finding): string {
  const count = f.count > 1 ? ` (${f.count} ${f.tool === 'racecheck' ? 'hazards' : 'times'})` : '';
  // racecheck's and initcheck's titles name their lines already.
  const lines = /\bline \d/.test(f.title) ? '' : `line ${f.first.line}: `;
  return `${lines}${f.title}${count}`;
}

/** Whether the views show side `s` of `f`: its launch and block. */
function isShown(f: Finding, s: Side, shown: Shown | null): boolean {
  return !!shown && (f.launch ?? null) === shown.launch && s.block.every((v, k) => v === shown.block[k]);
}

const dims = (b: readonly number[]) => `(${b.join(', ')})`;

/** A button to a side's step: in the block shown, `Step 12`; elsewhere it names the launch and
 * block it shows first. */
function stepButton(f: Finding, s: Side, which: string, shown: Shown | null, hooks: ChecksHooks): HTMLElement | null {
  if (s.step <= 0 || !shown) return null;
  const here = isShown(f, s, shown);
  const launch = f.launch ?? null;
  const where = here ? '' : `${launch !== null && launch !== shown.launch ? `launch ${launch + 1}, ` : ''}block ${dims(s.block)}, `;
  const text = `${where}step ${s.step}`;
  const b = html('button', { type: 'button', class: 'finding-step', 'data-testid': `finding-step-${which}` }, text[0].toUpperCase() + text.slice(1));
  b.title = here ? `the scrubber to step ${s.step}, the ${which} access` : `show ${where}and the scrubber at step ${s.step}, the ${which} access`;
  b.addEventListener('click', () => hooks.show(launch, [s.block[0], s.block[1], s.block[2]], s.step));
  return b;
}

/** The most findings marked on the scrubber (a run with thousands marks its first). */
const MAX_MARKS = 200;

/** The marks last made for a report, and for which block: the scrubber asks on every step. */
const madeMarks = new WeakMap<CheckReport, { shown: string; marks: StepMark[] }>();
const NO_MARKS: StepMark[] = [];

/** The scrubber's marks: each finding of the block shown at its second access's step (the one
 * that completes the hazard), else its first's. The same array while the report and the block
 * shown stay. */
export function marks(state: ChecksState, shown: Shown | null): StepMark[] {
  if (state.kind !== 'done' || !shown) return NO_MARKS;
  const key = JSON.stringify(shown);
  const made = madeMarks.get(state.report);
  if (made?.shown === key) return made.marks;
  const out: StepMark[] = [];
  for (const f of state.report.findings) {
    const side = [f.second, f.first].find((s) => s && s.step > 0 && isShown(f, s, shown));
    if (!side || out.length >= MAX_MARKS) continue;
    out.push({ step: side.step, severity: f.severity, label: `${f.tool}: ${findingTitle(f)}` });
  }
  madeMarks.set(state.report, { shown: key, marks: out });
  return out;
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
