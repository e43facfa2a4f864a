//! Sweep settings: the param on the x axis and its range, the models and cost presets (one
//! series each), an optional second param splitting every series by value, and Run. The other
//! params stay as set in the top bar. The form is rebuilt only when its options or the settings
//! change from outside (a figure, a link, another kernel), so typing keeps the focus.

import { modelInfo } from '../model-info';
import { formatValues, parseValues, runCount } from '../sweep/request';
import { html } from '../svg';
import type { LoadResult, SweepRequest } from '../generated/engine';

export interface SettingsHooks {
  change(request: SweepRequest): void;
  run(): void;
}

export interface SettingsPanel {
  root: HTMLElement;
  /** The settings the form shows (its own edits included). */
  request: SweepRequest | null;
  key: string;
  splitText: string;
  runButton: HTMLButtonElement | null;
  summary: HTMLElement | null;
}

export function create(root: HTMLElement): SettingsPanel {
  return { root, request: null, key: '', splitText: '', runButton: null, summary: null };
}

function numberField(label: string, testid: string, value: number, on: (v: number | null) => void): HTMLElement {
  const wrap = html('label', { class: 'field' });
  const input = html('input', { type: 'number', step: 1, value, 'data-testid': testid });
  input.addEventListener('input', () => {
    const v = input.valueAsNumber;
    const ok = Number.isSafeInteger(v);
    input.classList.toggle('invalid', !ok);
    on(ok ? v : null);
  });
  wrap.append(html('span', {}, label), input);
  return wrap;
}

function checkboxes(legend: string, testid: string, options: string[], chosen: string[], hint: string,
  describe: (o: string) => string, on: (chosen: string[]) => void): HTMLElement {
  const set = html('fieldset', { class: 'sweep-checks', 'data-testid': testid });
  set.append(html('legend', {}, legend));
  const boxes = options.map((o) => {
    const label = html('label', { title: describe(o) });
    const box = html('input', { type: 'checkbox', value: o, 'data-testid': `${testid}-${o}` });
    box.checked = chosen.includes(o);
    box.addEventListener('change', () => on(boxes.filter((b) => b.checked).map((b) => b.value)));
    label.append(box, html('span', { class: 'mono' }, o));
    set.append(label);
    return box;
  });
  set.append(html('span', { class: 'muted small sweep-hint' }, hint));
  return set;
}

/** What stops a Run, or '' when the settings can run. */
function problem(r: SweepRequest, splitText: string): string {
  if (!Number.isSafeInteger(r.from) || !Number.isSafeInteger(r.to)) return 'the range needs two whole numbers';
  if (r.to < r.from) return `the range ${r.from}..${r.to} goes downwards`;
  if (r.split) { const v = parseValues(splitText); if (typeof v === 'string') return `split values: ${v}`; }
  return '';
}

export function render(p: SettingsPanel, load: LoadResult | null, request: SweepRequest | null, hooks: SettingsHooks): void {
  const names = load?.params.map((q) => q.name) ?? [];
  const key = JSON.stringify([names, load?.models, load?.presets, request]);
  if (key !== p.key) build(p, load, request, hooks);
  p.key = key;
  update(p, load);
}

function build(p: SettingsPanel, load: LoadResult | null, request: SweepRequest | null, hooks: SettingsHooks): void {
  p.request = request;
  if (!load || !request) {
    p.root.replaceChildren(html('p', { class: 'muted' }, load ? 'This kernel has no //@ param to sweep: add one (e.g. //@ param n = 2) and use it in the inputs.' : 'Load a kernel that runs first.'));
    p.runButton = p.summary = null;
    return;
  }
  p.splitText = request.split ? formatValues(request.split.values) : '2, 4';
  const emit = (patch: Partial<SweepRequest>, rebuild = false) => {
    p.request = { ...p.request!, ...patch };
    p.key = JSON.stringify([load.params.map((q) => q.name), load.models, load.presets, p.request]);
    hooks.change(p.request);
    if (rebuild) build(p, load, p.request, hooks);
    update(p, load);
  };
  const names = load.params.map((q) => q.name);
  const paramSel = html('select', { 'data-testid': 'sweep-param' });
  for (const n of names) paramSel.append(new Option(n, n, false, n === request.param));
  // The split param cannot be the x param too: the split choices are rebuilt without it.
  paramSel.addEventListener('change', () => emit({ param: paramSel.value, split: p.request!.split?.param === paramSel.value ? null : p.request!.split }, true));
  const xRow = html('div', { class: 'sweep-row' });
  const paramField = html('label', { class: 'field', title: 'the param on the x axis: one run per value' });
  paramField.append(html('span', {}, 'x'), paramSel);
  xRow.append(paramField,
    numberField('from', 'sweep-from', request.from, (v) => emit({ from: v ?? NaN })),
    numberField('to', 'sweep-to', request.to, (v) => emit({ to: v ?? NaN })));

  const models = checkboxes('models', 'sweep-models', load.models, request.models, 'none ticked: the kernel\'s own',
    (m) => `${m}: ${modelInfo(m).summary}`, (models) => emit({ models }));
  const presets = checkboxes('cost presets', 'sweep-presets', load.presets, request.presets, 'none ticked: each model\'s own',
    (pr) => `the ${pr} cost preset`, (presets) => emit({ presets }));

  const splitRow = html('div', { class: 'sweep-row' });
  const splitSel = html('select', { 'data-testid': 'sweep-split' });
  splitSel.append(new Option('none', ''));
  for (const n of names.filter((n) => n !== request.param)) splitSel.append(new Option(n, n, false, n === request.split?.param));
  const values = html('input', { type: 'text', value: p.splitText, 'data-testid': 'sweep-split-values', placeholder: '1, 2 or 0..3', size: 10 });
  values.disabled = !request.split;
  const splitTo = (param: string) => {
    const v = parseValues(p.splitText);
    values.classList.toggle('invalid', param !== '' && typeof v === 'string');
    return param ? { param, values: typeof v === 'string' ? [] : v } : null;
  };
  splitSel.addEventListener('change', () => { values.disabled = !splitSel.value; emit({ split: splitTo(splitSel.value) }); });
  values.addEventListener('input', () => { p.splitText = values.value; emit({ split: splitTo(splitSel.value) }); });
  const splitField = html('label', { class: 'field', title: 'a second param: every series splits into one per value' });
  splitField.append(html('span', {}, 'split by'), splitSel);
  const valuesField = html('label', { class: 'field' });
  valuesField.append(html('span', {}, 'values'), values);
  splitRow.append(splitField, valuesField);

  const fixed = html('p', { class: 'muted small sweep-fixed', 'data-testid': 'sweep-fixed' });
  const runRow = html('div', { class: 'sweep-row sweep-run-row' });
  p.runButton = html('button', { type: 'button', class: 'primary', 'data-testid': 'sweep-run' }, 'Run');
  p.runButton.addEventListener('click', () => hooks.run());
  p.summary = html('span', { class: 'small', 'data-testid': 'sweep-summary' });
  runRow.append(p.runButton, p.summary);
  p.root.replaceChildren(xRow, models, presets, splitRow, fixed, runRow);
}

/** The Run button's state, the run count and the fixed params, without rebuilding. */
function update(p: SettingsPanel, load: LoadResult | null): void {
  const r = p.request;
  if (!r || !load || !p.runButton || !p.summary) return;
  const why = problem(r, p.splitText);
  p.runButton.disabled = why !== '';
  p.summary.textContent = why || `${runCount(r)} runs`;
  p.summary.classList.toggle('bad', why !== '');
  const others = load.params.filter((q) => q.name !== r.param && q.name !== r.split?.param);
  const fixed = p.root.querySelector('[data-testid=sweep-fixed]');
  if (fixed) fixed.textContent = others.length ? `Held fixed (top bar): ${others.map((q) => `${q.name} = ${q.value}`).join(', ')}` : '';
}
