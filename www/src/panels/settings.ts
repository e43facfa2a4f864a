//! The Settings menu: the step limit, after which a run stops (kept in the saved work). A value
//! outside the allowed range is marked and not used.

import { StepLimit } from '../engine';
import { validStepLimit } from '../store';
import { html } from '../svg';

export interface SettingsPanel { limit: HTMLInputElement }

const grouped = (n: number) => n.toLocaleString('en-US');

export function create(root: HTMLElement, value: number, changed: (stepLimit: number) => void): SettingsPanel {
  const limit = html('input', {
    type: 'number', min: StepLimit.Min, max: StepLimit.Max, step: 1000, value, 'data-testid': 'step-limit',
    'aria-describedby': 'step-limit-note',
  });
  const check = () => {
    const v = validStepLimit(limit.valueAsNumber);
    limit.classList.toggle('invalid', v === null);
    return v;
  };
  limit.addEventListener('input', check);
  // On change (Enter or leaving the field), not per key: each value re-runs the kernel.
  limit.addEventListener('change', () => { const v = check(); if (v !== null) changed(v); });
  const field = html('label', { class: 'field' });
  field.append(html('span', {}, 'step limit'), limit);
  const note = html('p', { class: 'muted small settings-note', id: 'step-limit-note' },
    `A run stops after this many steps, so an endless loop ends. From ${grouped(StepLimit.Min)} to ` +
    `${grouped(StepLimit.Max)} (every step is kept for the scrubber); default ${grouped(StepLimit.Default)}.`);
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
