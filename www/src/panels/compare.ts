//! Compare view: two models side by side on one kernel. Each side has its model choice (side B
//! also a cost preset, the left side's unless picked), how its run ended (a deadlock in full),
//! which step it shows, and its own CFG, lanes and stack panels (the same panels as the main
//! view, two instances). The metrics table, one column per model, sits under the editor; cells
//! where the models differ are highlighted, and its header names each column's cost preset.

import { compareRows, presetCaveat, type CompareRow } from '../compare-table';
import { modelInfo } from '../model-info';
import { compactLayoutOf, originalGraphOf, type Run } from '../run';
import { html } from '../svg';
import type { LoadResult, ReportView, StateView } from '../generated/engine';
import type { Example } from '../examples';
import * as cfgPanel from './cfg';
import { modelFields, modelFieldsKey, refreshModelFields, type ModelHooks } from './inputs';
import * as lanes from './lanes';
import * as stack from './stack';

export const SIDE_NAMES = ['a', 'b'] as const;

export interface SidePanel {
  name: (typeof SIDE_NAMES)[number];
  root: HTMLElement;
  fields: HTMLElement;
  /** Side B's cost preset select (empty on side A: the top bar's preset is side A's). */
  preset: HTMLElement;
  /** Side B's kernel select (empty on side A). */
  kernel: HTMLElement;
  step: HTMLElement;
  summary: HTMLElement;
  status: HTMLElement;
  cfg: cfgPanel.CfgPanel;
  lanes: lanes.LanePanel;
  stack: HTMLElement;
  hooks: SideHooks;
}

export interface SideHooks extends ModelHooks {
  /** Side B's own cost preset; null: the left side's. */
  preset?(name: string | null): void;
  /** Side B's kernel: an example's file (run under side A's model), or null for side A's kernel. */
  kernel?(file: string | null): void;
}

/** What side B runs: side A's kernel (null), or another kernel's text, which `examples` may name. */
export interface KernelChoice { text: string | null; examples: Example[] }

/** Side B's preset choice: its own (null: the left side's) and the left side's as the engine ran it. */
export interface PresetChoice { own: string | null; left: string }

function section(cls: string, title: string, body: HTMLElement): HTMLElement {
  const s = html('section', { class: `panel ${cls}` });
  s.append(html('h2', {}, title), body);
  return s;
}

export function createSide(root: HTMLElement, name: SidePanel['name'], hooks: SideHooks): SidePanel {
  root.classList.add('side');
  root.dataset.testid = `side-${name}`;
  const head = html('div', { class: 'panel side-head' });
  // The model fields and side B's preset flow as one row of fields.
  const fields = html('div', { class: 'side-model' });
  const preset = html('div', { class: 'side-preset' });
  const kernel = html('div', { class: 'side-kernel' });
  const summary = html('p', { class: 'side-summary muted small', 'data-testid': `side-${name}-summary` });
  const step = html('span', { class: 'side-step', 'data-testid': `side-${name}-step` });
  const status = html('div', { class: 'side-status', 'data-testid': `side-${name}-status`, 'aria-live': 'polite' });
  const line = html('div', { class: 'side-fields' });
  line.append(kernel, fields, preset);
  head.append(line, summary, status);
  const cfgHost = html('div', { class: 'cfg-host' });
  const lanesHost = html('div', { class: 'lanes-host' });
  const stackHost = html('div', { 'data-testid': `side-${name}-stack`, class: 'scroll-region', tabindex: 0, role: 'region', 'aria-label': `${name === 'a' ? 'left' : 'right'} model's control state` });
  root.replaceChildren(
    head,
    section('p-cfg', 'Control-flow graph', cfgHost),
    section('p-lanes', 'Lanes', lanesHost),
    section('p-stack', 'Control state', stackHost),
  );
  return {
    name, root, fields, preset, kernel, step, summary, status, stack: stackHost, hooks,
    // Compact blocks have no instruction rows to click: breakpoints are set in the editor.
    cfg: cfgPanel.create(cfgHost, () => {}, { legend: false }),
    lanes: lanes.create(lanesHost),
  };
}

export interface SideView {
  run: Run;
  state: StateView | null;
  /** The shared step, and the one this side shows (clamped to its run). */
  step: number;
  shown: number;
  /** The longest of the compared runs. */
  span: number;
  lane: number;
  /** A load of this side's model that failed (its last good run stays shown). */
  error: string | null;
  /** Side B's preset choice; null on side A. */
  preset: PresetChoice | null;
  fetch(from: number, to: number): Uint8Array;
  /** Lanes issued at steps from+1..=to (`Engine.issuedLanes`). */
  issued(from: number, to: number): Uint8Array;
  inspect(lane: number): StateView | null;
  select(lane: number): void;
}

/** Side B's cost preset: "as on the left" (the default: cycles then compare) or one of its own.
 * Rebuilt only for another list of presets, so the select keeps its focus across reloads. */
function renderPreset(p: SidePanel, presets: string[], choice: PresetChoice | null): void {
  const on = p.hooks.preset;
  if (!choice || !on) return;
  const key = JSON.stringify(presets);
  if (p.preset.dataset.key !== key) {
    p.preset.dataset.key = key;
    const wrap = html('label', { class: 'field', title: 'the costs side B\'s cycles are counted with: the left side\'s unless you pick another (cycles under two presets do not compare)' });
    const sel = html('select', { 'data-testid': `side-${p.name}-preset` });
    sel.append(new Option('', ''), ...presets.map((name) => new Option(name, name)));
    sel.addEventListener('change', () => on(sel.value || null));
    wrap.append(html('span', {}, 'cost preset'), sel);
    p.preset.replaceChildren(wrap);
  }
  const sel = p.preset.querySelector('select')!;
  sel.options[0].text = `as left (${choice.left})`;
  sel.value = choice.own ?? '';
}

/** A kernel's short name: its title up to the colon (`Strided reduction (Harris #2)`). */
export function kernelName(title: string | null, side: number): string {
  return title?.split(':')[0].trim() || `kernel ${SIDE_NAMES[side].toUpperCase()}`;
}

/** Side A's kernel, named where side B runs another (nothing otherwise). */
export function renderKernelName(p: SidePanel, title: string | null, shown: boolean): void {
  const text = shown ? kernelName(title, 0) : '';
  if (p.kernel.textContent === (text ? `kernel${text}` : '')) return;
  const field = html('span', { class: 'field' });
  field.append(html('span', {}, 'kernel'), html('b', { 'data-testid': `side-${p.name}-kernel-name` }, text));
  p.kernel.replaceChildren(...(text ? [field] : []));
}

/** Side B's kernel: "as left" (the default: one kernel under two models) or a gallery example,
 * run under side A's model (two kernels under one model: Harris's reductions #1 and #2). Built
 * once; its value follows `choice`. */
export function renderKernel(p: SidePanel, choice: KernelChoice): void {
  const on = p.hooks.kernel;
  if (!on) return;
  let sel = p.kernel.querySelector('select');
  if (!sel) {
    const wrap = html('label', { class: 'field', title: 'what side B runs: the left side\'s kernel under another model, or another kernel under the left side\'s model' });
    sel = html('select', { 'data-testid': `side-${p.name}-kernel` });
    sel.append(new Option('same as left', ''));
    const groups = new Map<string, HTMLOptGroupElement>();
    for (const e of choice.examples) {
      let g = groups.get(e.group);
      if (!g) { g = html('optgroup', { label: e.group }); groups.set(e.group, g); sel.append(g); }
      g.append(new Option(kernelName(e.title, 1), e.file));
    }
    sel.append(new Option('another kernel (from a link)', '(link)'));
    const picked = sel;
    picked.addEventListener('change', () => { if (picked.value !== '(link)') on(picked.value || null); });
    wrap.append(html('span', {}, 'kernel'), sel);
    p.kernel.replaceChildren(wrap);
  }
  const file = choice.text === null ? '' : choice.examples.find((e) => e.text === choice.text)?.file ?? '(link)';
  sel.value = file;
  sel.querySelector<HTMLOptionElement>('option[value="(link)"]')!.hidden = file !== '(link)';
}

/** The side's model choice as the engine last read it (also when that load failed); side B's
 * preset choice with it. */
export function renderFields(p: SidePanel, r: LoadResult, preset: PresetChoice | null = null): void {
  renderPreset(p, r.presets, preset);
  const key = modelFieldsKey(r);
  if (p.fields.dataset.key === key) {
    refreshModelFields(p.fields, r, `side-${p.name}-`);
  } else {
    p.fields.dataset.key = key;
    p.fields.replaceChildren(...modelFields(r, p.hooks, `side-${p.name}-`));
  }
  const info = modelInfo(r.model);
  p.summary.textContent = info.short;
  p.summary.title = info.summary;
}

/** Where this side is: its step, and how its run ended (a deadlock in full, wrapped). */
function renderStatus(p: SidePanel, v: SideView): void {
  const end = v.run.load.end;
  const total = v.run.total;
  p.step.dataset.step = String(v.shown);
  p.step.dataset.total = String(total);
  p.step.textContent = `step ${v.shown} / ${total}`;
  p.step.classList.toggle('clamped', v.step > total);
  p.step.title = v.step > total ? `this run ended at step ${total}; the other runs on to ${v.span}` : '';
  const line = html('div', { class: 'side-line' });
  line.append(p.step);
  const parts: HTMLElement[] = [line];
  if (end && end.kind !== 'exited') {
    line.append(html('span', { class: 'side-end bad' }, `${end.kind.replace(/_/g, ' ')} at step ${end.step}`));
    // The whole message, wrapped: a deadlock says which lanes wait where.
    parts.push(html('div', { class: 'side-banner bad', role: 'alert', 'data-testid': `side-${p.name}-banner` }, end.message));
  } else if (end) {
    const note = v.step > total ? `: the other side runs on to ${v.span}` : '';
    line.append(html('span', { class: 'side-end', 'data-testid': `side-${p.name}-banner` }, `all lanes exit at step ${end.step}${note}`));
  }
  if (v.error) parts.push(html('div', { class: 'side-banner bad', role: 'alert' }, v.error));
  p.status.replaceChildren(...parts);
}

export function renderSide(p: SidePanel, v: SideView): void {
  // The lanes panel's height follows the warp's width (a 4-lane warp needs little).
  p.root.style.setProperty('--lane-rows', String(v.run.load.width));
  renderFields(p, v.run.load, v.preset);
  renderStatus(p, v);
  const r = v.run;
  cfgPanel.render(p.cfg, r.cfg, compactLayoutOf(r), v.state, [], originalGraphOf(r, true));
  lanes.render(p.lanes, {
    width: r.load.width, total: r.total, step: v.shown, lane: v.lane, idle: r.idleSteps > 0,
    fetch: v.fetch, issued: v.issued, inspect: v.inspect, select: v.select,
  });
  stack.render(p.stack, v.state, {
    model: r.load.model, capacity: r.load.stack_capacity, depth: v.shown > 0 ? r.plot.depthAt(v.shown) : null,
  });
}

/** The graph whose blocks a run's report counts: under STRUCT the kernel before its transform
 * (copies are counted as the block they copy), else the one it ran. */
const countedCfg = (r: Run) => r.original ?? r.cfg;

/** The same program on both sides (same instructions; STRUCT's before its transform), so their
 * blocks can be compared. */
export function sameProgram(a: Run, b: Run): boolean {
  const x = countedCfg(a).instrs, y = countedCfg(b).instrs;
  return x.length === y.length && x.every((ins, i) => ins.text === y[i].text && ins.addr === y[i].addr);
}

/** Under a column's model name: the policy it ran with, if it reads one. */
function policyLabel(r: Run): string | null {
  const policy = modelInfo(r.load.model).policy;
  return policy === 'path-order' ? `${r.load.path_order} first` : policy === 'schedule' ? `schedule ${r.load.schedule}` : null;
}

/** While the reports are computed (off the page's thread: the MIMD reference of a run that
 * stopped early gets that run's own step budget, so this takes seconds at most). */
export function renderTableWaiting(root: HTMLElement, runs: Run[]): void {
  const early = runs.some((r) => r.load.end?.kind !== 'exited');
  root.replaceChildren(html('p', { class: 'muted', 'data-testid': 'compare-waiting' }, `Computing the comparison…${early
    ? ' For a run that did not finish, the MIMD reference runs as many steps as that run did: seconds at most. Everything else works meanwhile.' : ''}`));
}

/** The table; a report that is a string says why that run has none. `kernels`: the columns run
 * two kernels (under one model), so each is headed by its kernel's title. */
export function renderTable(root: HTMLElement, runs: Run[], answers: (ReportView | string)[], kernels = false): void {
  const failed = answers.find((r): r is string => typeof r === 'string');
  if (failed !== undefined) {
    root.replaceChildren(html('p', { class: 'muted' }, `The engine could not compute the comparison: ${failed}.`));
    return;
  }
  const reports = answers as ReportView[];
  const same = runs.every((r) => sameProgram(runs[0], r));
  const presets = runs.map((r) => r.load.preset);
  const caveat = presetCaveat(presets);
  const rows = compareRows(reports, same ? countedCfg(runs[0]).blocks.map((b) => b.name) : null, presets);
  const table = html('table', { class: 'compare-table', 'data-testid': 'compare-table' });
  const head = html('tr');
  head.append(html('th', {}, ''), ...runs.map((r, i) => {
    const th = html('th', { scope: 'col', 'data-testid': `compare-col-${SIDE_NAMES[i]}` }, kernels ? kernelName(r.load.title, i) : r.load.model);
    if (kernels) th.append(html('span', { class: 'compare-policy' }, r.load.model));
    // The policy it ran with, and the cost preset its cycles are counted with.
    const policy = policyLabel(r);
    if (policy) th.append(html('span', { class: 'compare-policy' }, policy));
    th.append(html('span', { class: `compare-policy compare-preset${caveat ? ' bad' : ''}`, 'data-testid': `compare-preset-${SIDE_NAMES[i]}` }, `${r.load.preset} costs`));
    return th;
  }));
  table.append(head);
  const copies = runs.some((r) => r.original);
  const heads: Record<CompareRow['group'], string> = {
    run: '',
    code: 'the code each model runs: STRUCT transforms the kernel first',
    block: !same ? 'executions per block: each model runs its own compiled code here, so blocks are not compared'
      : copies ? 'executions per block of the kernel (MIMD minimum in brackets; STRUCT\'s copies count as the block they copy)'
      : 'executions per block (MIMD minimum in brackets)',
  };
  let group: CompareRow['group'] = 'run';
  for (const row of rows) {
    if (row.group !== group) {
      group = row.group;
      const sub = html('tr', { class: 'compare-sub' });
      sub.append(html('th', { colspan: runs.length + 1 }, heads[group]));
      table.append(sub);
    }
    const cls = row.differ ? 'differ' : row.caveat ? 'caveat' : '';
    const tr = html('tr', { 'data-row': row.key, 'data-testid': `compare-row-${row.key}`, class: cls });
    tr.append(html('th', { scope: 'row', title: row.caveat ? `${row.hint}: ${row.caveat}` : row.hint }, row.caveat ? `${row.label} ⚠` : row.label));
    // Words (`n/a (no MIMD minimum)`) may wrap, so a narrow panel keeps both columns; numbers never do.
    row.cells.forEach((c) => tr.append(html('td', { class: /[a-z]{2}/i.test(c) ? `${cls} words` : cls }, c)));
    table.append(tr);
  }
  const [a, b] = runs.map((r) => r.load);
  // Which costs the cycles row counts: one preset for both, or a warning that they differ.
  const presetNote = caveat
    ? html('p', { class: 'compare-presets bad', role: 'note', 'data-testid': 'compare-presets' },
      `⚠ Cycles are not comparable here: the left side (${a.model}) counts ${a.preset} costs, the right (${b.model}) ${b.preset} costs. Set side B's cost preset to "as left" to compare them.`)
    : html('p', { class: 'compare-presets muted small', 'data-testid': 'compare-presets' }, `Cycles: both sides under the ${presets[0]} cost preset.`);
  const notes: HTMLElement[] = [];
  if (reports.some((r) => !r.mimd_complete)) {
    notes.push(html('p', { class: 'muted small' }, 'The MIMD reference stopped early (a deadlock or the step limit): the minimums count only what it ran.'));
  }
  const launch = runs.some((r) => r.load.launch) ? ' Counts are the whole launch\'s: every warp of every block.' : '';
  notes.push(html('p', { class: 'muted small' }, `Highlighted: the ${kernels ? 'kernels' : 'models'} differ. Hover a row name for what it measures.${launch}`));
  root.replaceChildren(presetNote, table, ...notes);
}
