//! The sweep's progress: a bar, "k / N runs" and how the sweep stands, with Cancel while it
//! runs. Built once and updated in place, so Cancel stays clickable while progress streams in.

import { html } from '../svg';

export type SweepStatus = 'idle' | 'preparing' | 'running' | 'done' | 'cancelled' | 'failed' | 'rerunning';

export interface ProgressPanel { root: HTMLElement; bar: HTMLProgressElement; label: HTMLElement; cancel: HTMLButtonElement }

export function create(root: HTMLElement, cancel: () => void): ProgressPanel {
  const bar = html('progress', { max: 1, value: 0, 'aria-label': 'sweep progress' });
  const label = html('span', { class: 'sweep-status', 'data-testid': 'sweep-progress', 'data-status': 'idle', 'aria-live': 'polite' });
  const button = html('button', { type: 'button', 'data-testid': 'sweep-cancel' }, 'Cancel');
  button.addEventListener('click', cancel);
  root.replaceChildren(bar, label, button);
  return { root, bar, label, cancel: button };
}

const WORDS: Record<SweepStatus, string> = {
  idle: 'not run yet', preparing: 'preparing', running: 'running', done: 'done', cancelled: 'cancelled',
  failed: 'stopped by an error', rerunning: 'handing the kept points to the engine',
};

/** `stale`: the kernel or the params held fixed changed since this sweep ran. */
export function render(p: ProgressPanel, status: SweepStatus, done: number, total: number, stale: boolean): void {
  p.bar.max = Math.max(1, total);
  p.bar.value = done;
  const note = stale ? ' · the kernel or its inputs changed since: press Run to redo it' : '';
  p.label.textContent = status === 'idle' ? 'Not run yet: choose the settings and press Run.' : `${done} / ${total} runs · ${WORDS[status]}${note}`;
  Object.assign(p.label.dataset, { status, done: String(done), total: String(total) });
  p.label.classList.toggle('bad', status === 'failed' || status === 'cancelled');
  p.cancel.hidden = status !== 'running' && status !== 'preparing';
}
