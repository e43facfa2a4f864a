//! The run's status strip under the top bar: while a long run loads, how far it is with a Stop
//! button; once a run has ended early (deadlock, fault, step limit, stopped), the engine's whole
//! message, wrapped, with a button that shows the line it names (a loop's head, say).

import { html } from '../svg';
import type { Outcome } from '../generated/engine';

export interface RunStatusHooks {
  stop(): void;
  /** Shows the source line of the run's end (`Outcome.line`). */
  showLine(): void;
}

export interface RunStatusPanel {
  root: HTMLElement;
  progress: HTMLElement;
  bar: HTMLProgressElement;
  label: HTMLElement;
  end: HTMLElement;
  hooks: RunStatusHooks;
}

/** "950 steps", "12 k steps", "3.2 M steps". */
export function stepsText(n: number): string {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)} M steps`;
  if (n >= 1e4) return `${Math.round(n / 1e3)} k steps`;
  return `${n} step${n === 1 ? '' : 's'}`;
}

const HEADS: Partial<Record<Outcome['kind'], string>> = {
  deadlock: 'Deadlock', fault: 'Fault', step_limit: 'Step limit reached', stopped: 'Stopped',
};

/** The words for a run's end, or null when it needs no strip (it exited). */
export function endWords(end: Outcome | null): { head: string; message: string; hint: string } | null {
  const head = end && HEADS[end.kind];
  if (!end || !head) return null;
  const hint = end.kind === 'step_limit' ? 'Raise the step limit in Settings (⚙ in the top bar) to let it run longer.' : '';
  return { head, message: end.message, hint };
}

export function create(root: HTMLElement, hooks: RunStatusHooks): RunStatusPanel {
  const bar = html('progress', { max: 1, value: 0, 'aria-label': 'steps run' });
  const label = html('span', { class: 'run-progress-label' });
  const stop = html('button', { type: 'button', 'data-testid': 'stop-run', title: 'keep the steps run so far as the run' }, 'Stop');
  // A click leaves the focus where it was (typing in the editor goes on); Stop pressed from the
  // keyboard hands it to the notice of how the run ended, as the button hides with the run.
  stop.addEventListener('mousedown', (e) => e.preventDefault());
  stop.addEventListener('click', () => {
    const focused = document.activeElement === stop;
    hooks.stop();
    // Once the notice strip has made the end notice the one shown (it is hidden until then).
    if (focused) setTimeout(() => root.querySelector<HTMLElement>('[data-testid=stop-line]')?.focus(), 0);
  });
  const progress = html('div', { class: 'run-progress', 'data-testid': 'run-progress', role: 'status' });
  progress.append(bar, label, stop);
  const end = html('div', { class: 'run-stop', 'data-testid': 'run-stop', role: 'alert' });
  root.replaceChildren(progress, end);
  progress.hidden = end.hidden = true;
  root.hidden = true;
  return { root, progress, bar, label, end, hooks };
}

/** `running`: steps so far of each run still loading (side B in compare mode), null when none is. */
export function render(p: RunStatusPanel, running: { a: number | null; b: number | null }, limit: number, end: Outcome | null): void {
  const { a, b } = running;
  p.progress.hidden = a === null && b === null;
  if (!p.progress.hidden) {
    const most = Math.max(a ?? 0, b ?? 0);
    p.bar.max = limit;
    p.bar.value = Math.min(most, limit);
    const parts = b === null ? [stepsText(a ?? 0)] : [`left ${a === null ? 'done' : stepsText(a)}`, `right ${stepsText(b)}`];
    p.label.textContent = `Running… ${parts.join(' · ')} (stops at ${stepsText(limit)}); the views show the last finished run meanwhile.`;
    p.progress.dataset.steps = String(most);
  }
  const words = endWords(end);
  p.end.hidden = !words;
  if (words && end) {
    const key = JSON.stringify(end);
    if (p.end.dataset.key !== key) {
      p.end.dataset.key = key;
      p.end.dataset.kind = end.kind;
      const text = html('p', { class: 'run-stop-text' });
      text.append(html('strong', {}, `${words.head}: `), document.createTextNode(words.message));
      if (words.hint) text.append(html('span', { class: 'run-stop-hint' }, ` ${words.hint}`));
      const parts: HTMLElement[] = [text];
      if (end.line !== null) {
        const show = html('button', { type: 'button', 'data-testid': 'stop-line', title: 'show this line in the kernel' }, `Show line ${end.line}`);
        show.addEventListener('click', () => p.hooks.showLine());
        parts.push(show);
      }
      p.end.replaceChildren(...parts);
    }
  } else delete p.end.dataset.key;
  p.root.hidden = p.progress.hidden && p.end.hidden;
}
