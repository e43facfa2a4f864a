//! Kernel inputs: one number field per `//@ param`, the reconvergence model and cost preset
//! choices the engine offers, and for a C kernel whether to if-convert short branches. A change
//! re-runs at once.

import { html } from '../svg';
import type { CompiledView, LoadResult } from '../views';

export interface InputHooks {
  param(name: string, value: number): void;
  model(name: string): void;
  preset(name: string): void;
  ifConvert(on: boolean): void;
}

function select(label: string, testid: string, options: string[], value: string, on: (v: string) => void): HTMLElement {
  const wrap = html('label', { class: 'field' });
  const sel = html('select', { 'data-testid': testid });
  for (const o of options) sel.append(new Option(o, o, false, o === value));
  sel.addEventListener('change', () => on(sel.value));
  wrap.append(html('span', {}, label), sel);
  return wrap;
}

function checkbox(label: string, testid: string, title: string, value: boolean, on: (v: boolean) => void): HTMLElement {
  const wrap = html('label', { class: 'field', title });
  const box = html('input', { type: 'checkbox', 'data-testid': testid });
  box.checked = value;
  box.addEventListener('change', () => on(box.checked));
  wrap.append(box, html('span', {}, label));
  return wrap;
}

export function render(root: HTMLElement, r: LoadResult | null, compiled: CompiledView | null, hooks: InputHooks): void {
  if (!r) return;
  // Same fields as before: only refresh values, so typing in a field keeps its focus.
  const key = JSON.stringify([r.params.map((p) => p.name), r.models, r.presets, compiled !== null]);
  if (root.dataset.key === key) {
    for (const p of r.params) {
      const input = root.querySelector<HTMLInputElement>(`input[data-param="${CSS.escape(p.name)}"]`);
      if (input && document.activeElement !== input) input.value = String(p.value);
    }
    for (const [id, v] of [['model', r.model], ['preset', r.preset]]) {
      const sel = root.querySelector<HTMLSelectElement>(`select[data-testid="${id}"]`);
      if (sel) sel.value = v;
    }
    const box = root.querySelector<HTMLInputElement>('input[data-testid="if-convert"]');
    if (box && compiled) box.checked = compiled.if_convert;
    return;
  }
  root.dataset.key = key;
  const fields: HTMLElement[] = [];
  for (const p of r.params) {
    const wrap = html('label', { class: 'field', title: `default ${p.default}` });
    const input = html('input', { type: 'number', step: 1, value: p.value, 'data-param': p.name, 'data-testid': `param-${p.name}` });
    input.addEventListener('input', () => {
      // Not a number at all (empty, "-"): wait for more typing. Anything else goes to the engine,
      // which answers a non-integer or out-of-range value with an error at the param's line.
      const v = input.valueAsNumber;
      input.classList.toggle('invalid', !Number.isSafeInteger(v));
      if (Number.isFinite(v)) hooks.param(p.name, v);
    });
    wrap.append(html('span', { class: 'mono' }, p.name), input);
    fields.push(wrap);
  }
  if (r.params.length === 0) fields.push(html('span', { class: 'muted' }, 'no params'));
  fields.push(select('model', 'model', r.models, r.model, hooks.model));
  fields.push(select('cost preset', 'preset', r.presets, r.preset, hooks.preset));
  if (compiled) {
    fields.push(checkbox('if-convert', 'if-convert', 'compile short if/else branches to predicated instructions instead of a branch with a reconvergence point',
      compiled.if_convert, hooks.ifConvert));
  }
  root.replaceChildren(...fields);
}
