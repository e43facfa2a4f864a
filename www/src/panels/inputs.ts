//! Kernel inputs: one number field per `//@ param`, the reconvergence model (each with a
//! one-line description) and the policy it reads (PDOM path order, Volta schedule), the cost
//! preset choices the engine offers, and for a C kernel whether to if-convert short branches. A
//! change re-runs at once. In compare mode each side chooses its own model, so the top bar omits it;
//! in sweep mode the sweep chooses models and presets, so the top bar holds only the params.

import { modelInfo } from '../model-info';
import { html } from '../svg';
import type { CompiledView, LoadResult } from '../generated/engine';

export interface ModelHooks {
  model(name: string): void;
  pathOrder(name: string): void;
  schedule(name: string): void;
}

export interface InputHooks extends ModelHooks {
  param(name: string, value: number): void;
  preset(name: string): void;
  ifConvert(on: boolean): void;
}

function select(label: string, testid: string, options: string[], value: string, on: (v: string) => void,
  describe?: (o: string) => string): HTMLElement {
  const wrap = html('label', { class: 'field' });
  const sel = html('select', { 'data-testid': testid });
  for (const o of options) {
    const opt = new Option(o, o, false, o === value);
    if (describe) opt.title = describe(o);
    sel.append(opt);
  }
  if (describe) sel.title = describe(value);
  sel.addEventListener('change', () => on(sel.value));
  wrap.append(html('span', {}, label), sel);
  return wrap;
}

const describeModel = (m: string) => `${m}: ${modelInfo(m).summary}`;
const POLICY_TITLES = {
  'path-order': 'PDOM stacks: which side of a divergent branch runs first',
  schedule: 'Volta: which group of lanes the scheduler runs (h100: as measured on the H100)',
};

/** The model select and, for a model that reads one, its policy select; `prefix` keeps test ids apart. */
export function modelFields(r: LoadResult, hooks: ModelHooks, prefix = ''): HTMLElement[] {
  const fields = [select('model', `${prefix}model`, r.models, r.model, hooks.model, describeModel)];
  const policy = modelInfo(r.model).policy;
  if (policy === 'path-order') fields.push(select('path order', `${prefix}path-order`, r.path_orders, r.path_order, hooks.pathOrder, () => POLICY_TITLES[policy]));
  if (policy === 'schedule') fields.push(select('schedule', `${prefix}schedule`, r.schedules, r.schedule, hooks.schedule, () => POLICY_TITLES[policy]));
  return fields;
}

/** Field values as the engine used them, without rebuilding (so a focused field keeps its focus). */
export function refreshModelFields(root: HTMLElement, r: LoadResult, prefix = ''): void {
  for (const [id, v] of [['model', r.model], ['path-order', r.path_order], ['schedule', r.schedule]]) {
    const sel = root.querySelector<HTMLSelectElement>(`select[data-testid="${prefix}${id}"]`);
    if (sel) sel.value = v;
  }
  const model = root.querySelector<HTMLSelectElement>(`select[data-testid="${prefix}model"]`);
  if (model) model.title = describeModel(r.model);
}

/** A key that changes when the model fields must be rebuilt (another set of models or policy). */
export function modelFieldsKey(r: LoadResult): string {
  return JSON.stringify([r.models, r.path_orders, r.schedules, modelInfo(r.model).policy]);
}

function checkbox(label: string, testid: string, title: string, value: boolean, on: (v: boolean) => void): HTMLElement {
  const wrap = html('label', { class: 'field', title });
  const box = html('input', { type: 'checkbox', 'data-testid': testid });
  box.checked = value;
  box.addEventListener('change', () => on(box.checked));
  wrap.append(box, html('span', {}, label));
  return wrap;
}

/** Which view the inputs serve: the stepping view, compare mode or sweep mode. */
export type InputsMode = 'single' | 'compare' | 'sweep';

export function render(root: HTMLElement, r: LoadResult | null, compiled: CompiledView | null, hooks: InputHooks, mode: InputsMode): void {
  if (!r) return;
  // Same fields as before: only refresh values, so typing in a field keeps its focus.
  const key = JSON.stringify([r.params.map((p) => p.name), modelFieldsKey(r), r.presets, compiled !== null, mode]);
  if (root.dataset.key === key) {
    for (const p of r.params) {
      const input = root.querySelector<HTMLInputElement>(`input[data-param="${CSS.escape(p.name)}"]`);
      if (input && document.activeElement !== input) input.value = String(p.value);
    }
    refreshModelFields(root, r);
    const preset = root.querySelector<HTMLSelectElement>('select[data-testid="preset"]');
    if (preset) preset.value = r.preset;
    const box = root.querySelector<HTMLInputElement>('input[data-testid="if-convert"]');
    if (box && compiled) box.checked = compiled.if_convert;
    return;
  }
  root.dataset.key = key;
  const fields: HTMLElement[] = [];
  for (const p of r.params) {
    const wrap = html('label', { class: 'field', title: `default ${p.default}` });
    // A float kernel parameter takes 2.5; an integer one steps by 1 (the engine refuses a fraction).
    const step = p.float ? 'any' : 1;
    const input = html('input', { type: 'number', step, value: p.value, 'data-param': p.name, 'data-testid': `param-${p.name}` });
    input.addEventListener('input', () => {
      // Not a number at all (empty, "-"): wait for more typing. Anything else goes to the engine,
      // which answers an out-of-range value with an error at the param's line.
      const v = input.valueAsNumber;
      input.classList.toggle('invalid', !Number.isFinite(v));
      if (Number.isFinite(v)) hooks.param(p.name, v);
    });
    wrap.append(html('span', { class: 'mono' }, p.name), input);
    fields.push(wrap);
  }
  if (r.params.length === 0) fields.push(html('span', { class: 'muted' }, 'no params'));
  if (mode === 'single') fields.push(...modelFields(r, hooks));
  if (mode !== 'sweep') fields.push(select('cost preset', 'preset', r.presets, r.preset, hooks.preset));
  if (compiled) {
    fields.push(checkbox('if-convert', 'if-convert', 'compile short if/else branches to predicated instructions instead of a branch with a reconvergence point',
      compiled.if_convert, hooks.ifConvert));
  }
  root.replaceChildren(...fields);
}
