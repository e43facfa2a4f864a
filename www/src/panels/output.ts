//! Output panel: what the kernel's printf printed up to the current step, one row per lane and
//! call, tagged with the step and the lane. The rows of the step shown are highlighted, the
//! chosen lane's emphasised; a click seeks to a row's step. The list is virtual (only the rows
//! in view exist), so a run that printed 10,000 lines scrolls and steps as fast as one that
//! printed ten. The lines and their steps are the engine's (`Session.output`); this file only
//! cuts them at the step and draws them.

import { html, watchSize, type Watched } from '../svg';
import type { OutputLine, ProgramView } from '../generated/engine';

export interface OutputPanel {
  /** A whole program's output: what it printed as a terminal shows it, and how it ended. */
  program: HTMLDetailsElement;
  programText: HTMLElement;
  programEnd: HTMLElement;
  summary: HTMLElement;
  laneOnly: HTMLInputElement;
  laneOnlyText: HTMLElement;
  scroller: HTMLElement;
  spacer: HTMLElement;
  rows: HTMLElement;
  probe: HTMLElement;
  size: Watched;
  /** One row's height in pixels, measured when the panel's size changes. */
  rowPx: number;
  /** What the last render drew, so a scroll redraws only the rows. */
  view: View;
  /** The run's lines whose lane is `lane` (for "this lane only"), computed once per run and lane. */
  mine: { lines: OutputLine[] | null; lane: number; index: number[] };
  /** The step followed by the scroll position: a new step scrolls its lines into view. */
  followed: number;
  seek: (step: number) => void;
}

interface View { lines: OutputLine[]; shown: number[]; step: number; lane: number }

const EMPTY: View = { lines: [], shown: [], step: 0, lane: 0 };

export function create(root: HTMLElement): OutputPanel {
  const laneOnly = html('input', { type: 'checkbox', 'data-testid': 'output-lane-only' });
  const laneOnlyText = html('span', {}, 'this lane only');
  const label = html('label', { class: 'field output-filter' });
  label.append(laneOnly, laneOnlyText);
  const summary = html('span', { class: 'muted small output-summary', 'data-testid': 'output-summary', 'aria-live': 'polite' });
  const head = html('div', { class: 'output-head' });
  head.append(summary, label);
  const program = html('details', { class: 'output-program', 'data-testid': 'program-output' });
  program.open = true;
  const programEnd = html('summary', { 'data-testid': 'program-end' });
  const programText = html('pre', { class: 'output-program-text mono', tabindex: 0, 'aria-label': 'what the program printed' });
  program.append(programEnd, programText);
  program.hidden = true;
  const scroller = html('div', {
    class: 'output-scroll scroll-region', tabindex: 0, role: 'region', 'aria-label': 'printf output up to this step', 'data-testid': 'output',
  });
  const spacer = html('div', { class: 'output-spacer' });
  const rows = html('div', { class: 'output-rows', role: 'list' });
  const probe = html('div', { class: 'output-row output-probe', 'aria-hidden': 'true' }, 'x');
  spacer.append(rows);
  scroller.append(spacer, probe);
  root.replaceChildren(program, head, scroller);
  const p: OutputPanel = {
    program, programText, programEnd, summary, laneOnly, laneOnlyText, scroller, spacer, rows, probe, size: { w: 0, h: 0, css: getComputedStyle(scroller) }, rowPx: 22,
    view: EMPTY, mine: { lines: null, lane: -1, index: [] }, followed: -1, seek: () => {},
  };
  // A panel brought forward (or resized) measures its rows again and shows the step's newest line.
  p.size = watchSize(scroller, () => {
    p.rowPx = Math.max(12, probe.getBoundingClientRect().height || p.rowPx);
    p.followed = -1;
    draw(p, p.view.lines, p.view.step, p.view.lane);
  });
  scroller.addEventListener('scroll', () => drawRows(p));
  laneOnly.addEventListener('change', () => { p.followed = -1; draw(p, p.view.lines, p.view.step, p.view.lane); });
  rows.addEventListener('click', (ev) => {
    const row = (ev.target as Element).closest<HTMLElement>('[data-step]');
    if (row) p.seek(Number(row.dataset.step));
  });
  return p;
}

/** The number of lines printed by steps up to `step` (lines are in step order). */
export function cut(lines: OutputLine[], step: number): number {
  let lo = 0, hi = lines.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (lines[mid].step <= step) lo = mid + 1; else hi = mid;
  }
  return lo;
}

export function render(
  p: OutputPanel, lines: OutputLine[], step: number, lane: number, seek: (step: number) => void, program: ProgramView | null = null,
): void {
  p.seek = seek;
  renderProgram(p, program);
  draw(p, lines, step, lane);
}

/** How a program's run ended, as its summary line says it. */
export function programEnd(v: ProgramView): string {
  const shown = v.shown === null ? '' : ` · below: launch ${v.shown + 1} of ${v.launches.length}, step by step`;
  if (v.exit !== null) return `main() printed this and exited with status ${v.exit}${shown}`;
  return `main() stopped at line ${v.failed_line}: ${v.failed}${shown}`;
}

/** The whole program's output (stdout, then stderr marked), or nothing for a kernel run alone. */
function renderProgram(p: OutputPanel, v: ProgramView | null): void {
  p.program.hidden = v === null;
  if (v === null) return;
  const key = JSON.stringify([v.stdout, v.stderr, v.exit, v.failed, v.shown]);
  if (p.program.dataset.key === key) return;
  p.program.dataset.key = key;
  p.programEnd.textContent = programEnd(v);
  const out = html('span', { 'data-testid': 'program-stdout' }, v.stdout);
  const err = html('span', { class: 'output-stderr', 'data-testid': 'program-stderr' }, v.stderr);
  p.programText.replaceChildren(out, err);
  if (!v.stdout && !v.stderr) p.programText.textContent = '(main() printed nothing)';
}

function draw(p: OutputPanel, lines: OutputLine[], step: number, lane: number): void {
  const n = cut(lines, step);
  let shown: number[];
  if (p.laneOnly.checked) {
    if (p.mine.lines !== lines || p.mine.lane !== lane) {
      p.mine = { lines, lane, index: lines.flatMap((l, i) => (l.lane === lane || l.lane === null ? [i] : [])) };
    }
    shown = p.mine.index.slice(0, cut(p.mine.index.map((i) => lines[i]), step));
  } else {
    shown = Array.from({ length: n }, (_, i) => i);
  }
  p.laneOnlyText.textContent = `lane ${lane} only`;
  const now = shown.filter((i) => lines[i].step === step && lines[i].lane !== null).length;
  p.summary.textContent = lines.length === 0 ? 'The kernel printed nothing (no printf ran).'
    : `${shown.length} of ${lines.length} lines by step ${step}${now ? ` · ${now} printed now` : ''}`;
  p.view = { lines, shown, step, lane };
  p.spacer.style.height = `${shown.length * p.rowPx}px`;
  // A new step brings its newest line into view, as a terminal follows its output.
  if (p.followed !== step) {
    p.followed = step;
    const bottom = shown.length * p.rowPx - p.scroller.clientHeight;
    p.scroller.scrollTop = Math.max(0, bottom);
  }
  drawRows(p);
}

/** Draws the rows in view (and a few around them). */
function drawRows(p: OutputPanel): void {
  const { lines, shown, step, lane } = p.view;
  p.spacer.style.height = `${shown.length * p.rowPx}px`;
  const first = Math.max(0, Math.floor(p.scroller.scrollTop / p.rowPx) - 5);
  const last = Math.min(shown.length, first + Math.ceil((p.size.h || 400) / p.rowPx) + 10);
  p.rows.style.transform = `translateY(${first * p.rowPx}px)`;
  const out: HTMLElement[] = [];
  for (let k = first; k < last; k++) {
    const l = lines[shown[k]];
    const cls = ['output-row', l.step === step ? 'now' : '', l.lane === lane ? 'mine' : '', l.lane === null ? 'note' : ''].filter(Boolean).join(' ');
    const text = l.text.endsWith('\n') ? l.text.slice(0, -1) : l.text;
    const row = html('div', { role: 'listitem', class: cls });
    const tag = l.lane === null ? `step ${l.step}` : `step ${l.step} · lane ${l.lane}`;
    const button = html('button', { type: 'button', 'data-step': l.step, title: `go to step ${l.step}` });
    button.append(html('span', { class: 'output-tag' }, tag), html('span', { class: 'output-text' }, text.replace(/\n/g, ' ⏎ ')));
    row.append(button);
    out.push(row);
  }
  p.rows.replaceChildren(...out);
}
