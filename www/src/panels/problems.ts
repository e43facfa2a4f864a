//! Problems: every diagnostic of the kernel, where it is and what it says, so an error on line 242
//! of 300 is found without hovering. Three views of the same list: the Problems panel (each row
//! jumps to its place in the editor), the summary under the editor's title (a button that opens
//! the panel), and while the kernel does not compile a notice that says what the views show and
//! names the first error.

import type { DiagnosticView } from '../generated/engine';
import { html } from '../svg';

export interface ProblemsHooks {
  /** Puts the editor's cursor on the problem and shows it. */
  jump(d: DiagnosticView): void;
  /** Brings the Problems panel forward, its first row focused. */
  openPanel(): void;
}

export interface ProblemsViews {
  panel: HTMLElement;
  summary: HTMLButtonElement;
  note: HTMLElement;
}

/** How each severity is named (a note needs no change: skipped host code, the kernel run). */
const SEVERITY_WORD: Record<DiagnosticView['severity'], string> = { error: 'error', warning: 'warning', info: 'note' };
const RANK: Record<DiagnosticView['severity'], number> = { error: 0, warning: 1, info: 2 };

/** Errors first, then warnings, then notes; each by place. */
export function sorted(diags: readonly DiagnosticView[]): DiagnosticView[] {
  const rank = (d: DiagnosticView) => RANK[d.severity];
  return [...diags].sort((a, b) => rank(a) - rank(b) || a.line - b.line || a.col - b.col);
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
export const where = (d: DiagnosticView) => `line ${d.line}:${d.col}`;

/** The summary's words: the counts, what the views show, the first error. */
export function summaryText(diags: readonly DiagnosticView[], hasRun: boolean): string {
  const errors = diags.filter((d) => d.severity === 'error').length;
  const warnings = diags.filter((d) => d.severity === 'warning').length;
  const notes = diags.length - errors - warnings;
  if (errors === 0) return [warnings ? plural(warnings, 'warning') : '', notes ? plural(notes, 'note') : ''].filter(Boolean).join(', ');
  const state = hasRun ? ': showing the last run that worked' : ` in the kernel: fix ${errors > 1 ? 'them' : 'it'} to run it`;
  const first = sorted(diags)[0];
  return `${plural(errors, 'error')}${state} · ${where(first)}: ${first.message}`;
}

export function render(v: ProblemsViews, diags: readonly DiagnosticView[], hasRun: boolean, hooks: ProblemsHooks): void {
  const list = sorted(diags);
  const key = JSON.stringify([list, hasRun]);
  if (v.panel.dataset.key === key) return;
  v.panel.dataset.key = key;
  const errors = list.filter((d) => d.severity === 'error');

  v.summary.textContent = summaryText(list, hasRun);
  v.summary.hidden = list.length === 0;
  v.summary.classList.toggle('has-errors', errors.length > 0);
  v.summary.title = list.length ? 'list every problem (the Problems panel)' : '';

  if (list.length === 0) {
    v.panel.replaceChildren(html('p', { class: 'muted problems-none', 'data-testid': 'problems-none' }, 'No problems: the kernel compiles and runs.'));
  } else {
    const ul = html('ul', { class: 'problems', 'data-testid': 'problems' });
    for (const d of list) {
      const b = html('button', { type: 'button', class: `problem sev-${d.severity}`, 'data-testid': 'problem', 'data-line': d.line });
      b.append(html('span', { class: 'problem-sev' }, SEVERITY_WORD[d.severity]), html('span', { class: 'problem-where mono' }, where(d)),
        html('span', { class: 'problem-msg' }, d.message));
      b.addEventListener('click', () => hooks.jump(d));
      const li = html('li');
      li.append(b);
      ul.append(li);
    }
    v.panel.replaceChildren(ul);
  }

  // The notice: only while the kernel does not compile.
  v.note.hidden = errors.length === 0;
  if (errors.length === 0) { v.note.replaceChildren(); return; }
  const first = errors[0];
  const text = html('p', { class: 'compile-note-text' });
  text.append(html('strong', {}, `The kernel does not compile (${plural(errors.length, 'error')}): `),
    document.createTextNode(hasRun ? 'the views show the last run that worked. ' : 'nothing runs until it does. '),
    html('span', { 'data-testid': 'first-error' }, `${where(first)}: ${first.message}`));
  const show = html('button', { type: 'button', 'data-testid': 'first-error-show' }, `Show line ${first.line}`);
  show.addEventListener('click', () => hooks.jump(first));
  const all = html('button', { type: 'button', 'data-testid': 'problems-open' }, 'All problems');
  all.addEventListener('click', hooks.openPanel);
  v.note.replaceChildren(text, show, all);
}
