//! Kernel inputs: one number field per `//@ param`, and the reconvergence model and cost preset
//! choices the engine offers. A change re-runs at once.

import { html } from '../svg';
import type { LoadResult } from '../views';

export interface InputHooks {
  param(name: string, value: number): void;
  model(name: string): void;
  preset(name: string): void;
}

function select(label: string, testid: string, options: string[], value: string, on: (v: string) => void): HTMLElement {
  const wrap = html('label', { class: 'field' });
  const sel = html('select', { 'data-testid': testid });
  for (const o of options) sel.append(new Option(o, o, false, o === value));
  sel.addEventListener('change', () => on(sel.value));
  wrap.append(html('span', {}, label), sel);
  return wrap;
}

export function render(root: HTMLElement, r: LoadResult | null, hooks: InputHooks): void {
  if (!r) return;
  // Same fields as before: only refresh values, so typing in a field keeps its focus.
  const key = JSON.stringify([r.params.map((p) => p.name), r.models, r.presets]);
  if (root.dataset.key === key) {
    for (const p of r.params) {
      const input = root.querySelector<HTMLInputElement>(`input[data-param="${CSS.escape(p.name)}"]`);
      if (input && document.activeElement !== input) input.value = String(p.value);
    }
    for (const [id, v] of [['model', r.model], ['preset', r.preset]]) {
      const sel = root.querySelector<HTMLSelectElement>(`select[data-testid="${id}"]`);
      if (sel) sel.value = v;
    }
    return;
  }
  root.dataset.key = key;
  const fields: HTMLElement[] = [];
  for (const p of r.params) {
    const wrap = html('label', { class: 'field', title: `default ${p.default}` });
    const input = html('input', { type: 'number', step: 1, value: p.value, 'data-param': p.name, 'data-testid': `param-${p.name}` });
    input.addEventListener('input', () => {
      const v = Math.trunc(input.valueAsNumber);
      // Beyond 2^53 a number no longer round-trips through the engine's integer params.
      const ok = Number.isSafeInteger(v);
      input.classList.toggle('invalid', !ok);
      if (ok) hooks.param(p.name, v);
    });
    wrap.append(html('span', { class: 'mono' }, p.name), input);
    fields.push(wrap);
  }
  if (r.params.length === 0) fields.push(html('span', { class: 'muted' }, 'no params'));
  fields.push(select('model', 'model', r.models, r.model, hooks.model));
  fields.push(select('cost preset', 'preset', r.presets, r.preset, hooks.preset));
  root.replaceChildren(...fields);
}
