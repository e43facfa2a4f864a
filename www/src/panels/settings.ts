//! The Settings menu: the step limit, after which a run stops (kept in the saved work). A value
//! outside the allowed range is marked and not used.

import { DEFAULT_STEP_LIMIT, STEP_LIMIT_RANGE } from '../store';
import { html } from '../svg';

export interface SettingsPanel { limit: HTMLInputElement }

const grouped = (n: number) => n.toLocaleString('en-US');

export function create(root: HTMLElement, value: number, changed: (stepLimit: number) => void): SettingsPanel {
  const limit = html('input', {
    type: 'number', min: STEP_LIMIT_RANGE.min, max: STEP_LIMIT_RANGE.max, step: 1000, value, 'data-testid': 'step-limit',
    'aria-describedby': 'step-limit-note',
  });
  const check = () => {
    const v = limit.valueAsNumber;
    const ok = Number.isSafeInteger(v) && v >= STEP_LIMIT_RANGE.min && v <= STEP_LIMIT_RANGE.max;
    limit.classList.toggle('invalid', !ok);
    return ok ? v : null;
  };
  limit.addEventListener('input', check);
  // On change (Enter or leaving the field), not per key: each value re-runs the kernel.
  limit.addEventListener('change', () => { const v = check(); if (v !== null) changed(v); });
  const field = html('label', { class: 'field' });
  field.append(html('span', {}, 'step limit'), limit);
  const note = html('p', { class: 'muted small settings-note', id: 'step-limit-note' },
    `A run stops after this many steps, so an endless loop ends. From ${grouped(STEP_LIMIT_RANGE.min)} to ` +
    `${grouped(STEP_LIMIT_RANGE.max)} (every step is kept for the scrubber); default ${grouped(DEFAULT_STEP_LIMIT)}.`);
  root.replaceChildren(field, note);
  return { limit };
}

/** Shows the limit in use (after a restore), unless the user is typing in the field. */
export function render(p: SettingsPanel, value: number): void {
  if (document.activeElement !== p.limit) {
    p.limit.value = String(value);
    p.limit.classList.remove('invalid');
  }
}
