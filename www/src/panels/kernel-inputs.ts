//! The Kernel inputs panel: every buffer and scalar the kernel reads (declared by a `//@` line or
//! made for a C parameter that has none), the launch and, for a file of several kernels, which
//! one runs. A changed field writes its `//@` line into the kernel's text through the core's
//! `set_header` (the hook), so the text stays the one source of truth; "make automatic" removes
//! the line. What the user typed stays in its field until a run takes it: while the kernel has
//! errors the panel lists them and shows the inputs of the last run that worked. A param set in
//! the top bar shows the value the run uses, marked as the top bar's, with what its line says.
//! Not to be confused with `inputs.ts`, the top bar's fields.

import { editOf, fieldKey, dimsText, type Field } from '../header-fields';
import { html } from '../svg';
import type { BufferRow, DiagnosticView, HeaderEdit, InputsView, ParamRow, ProgramView } from '../generated/engine';
import * as programInputs from './program-inputs';
import type { ProgramInputsHooks } from './program-inputs';

export interface KernelInputsHooks extends ProgramInputsHooks {
  /** Writes a header edit into the editor's text (it re-runs the kernel). */
  edit(edit: HeaderEdit): void;
  /** Drops the top bar's value of a param: its line (or the made value) decides again. */
  dropTopBar(name: string): void;
}

export interface KernelInputsPanel {
  root: HTMLElement;
  /** What the user typed in each field (by `fieldKey`), kept through the next new run without
   * errors (which may be of the text before this field's commit) and dropped at the one after. */
  typed: Map<string, string>;
  /** Per typed field, the new runs without errors seen since it was typed. */
  typedRuns: Map<string, number>;
  /** The kernel's errors as of the last render: a typed value that has not run is marked. */
  errors: DiagnosticView[];
  /** The run's inputs as of the last render (a new run brings a new object). */
  view: InputsView | null;
  /** The params set in the top bar, which the run takes over their lines. */
  topBar: Readonly<Record<string, number>>;
  hooks: KernelInputsHooks;
}

export function create(root: HTMLElement, hooks: KernelInputsHooks): KernelInputsPanel {
  return { root, typed: new Map(), typedRuns: new Map(), errors: [], view: null, topBar: {}, hooks };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** A text field that writes its header line when changed (Enter or leaving it). */
function field(p: KernelInputsPanel, v: InputsView, f: Field, value: string, label: string, cls = ''): HTMLInputElement {
  const key = fieldKey(f);
  const shown = p.typed.get(key) ?? value;
  const input = html('input', {
    type: 'text', class: `ki-field mono ${cls}`, value: shown, spellcheck: 'false', autocomplete: 'off',
    'aria-label': label, 'data-field': key, 'data-testid': `ki-${key.split(':').filter(Boolean).join('-')}`,
  });
  input.title = label;
  if (p.typed.has(key) && p.errors.length) {
    input.classList.add('invalid');
    input.setAttribute('aria-invalid', 'true');
    input.title = `not run yet: ${p.errors[0].message} (line ${p.errors[0].line})`;
  }
  const commit = () => {
    // A field taken out by a rebuild while typed in gets a `change` (Chrome): its text lives on
    // in the new field, uncommitted.
    if (input.dataset.retired || input.value === input.dataset.sent) return;
    // The latest run's inputs, not those this field was drawn with (a rebuild may be on its way).
    const result = editOf(p.view ?? v, f, input.value, p.typed);
    if ('error' in result) {
      input.classList.add('invalid');
      input.title = result.error;
      input.setAttribute('aria-invalid', 'true');
      return;
    }
    input.dataset.sent = input.value;
    p.typed.set(key, input.value);
    p.typedRuns.set(key, 0);
    // After the focus has moved on (Tab), so the re-render can keep it where it went.
    setTimeout(() => p.hooks.edit(result.edit), 0);
  };
  input.addEventListener('change', commit);
  // Text carried over by a rebuild was set by script, and Chrome fires no `change` for it: Enter
  // or leaving the field commits it all the same (CI saw an Enter do nothing after a rebuild).
  const commitCarried = () => { if (input.value !== input.defaultValue) commit(); };
  input.addEventListener('keydown', (e) => { if (e.key === 'Enter') commitCarried(); });
  input.addEventListener('blur', commitCarried);
  return input;
}

function lineButton(p: KernelInputsPanel, auto: boolean, line: number, made: string): HTMLElement {
  const text = auto ? 'auto' : `line ${line}`;
  const title = auto ? `${made} (line ${line}): no //@ line yet; editing a field writes one` : `from the //@ line ${line}: show it in the editor`;
  const b = html('button', { type: 'button', class: `ki-line small${auto ? ' auto' : ''}`, title, 'data-testid': 'ki-source' }, text);
  b.addEventListener('click', () => p.hooks.jump(line));
  return b;
}

function autoButton(p: KernelInputsPanel, edit: HeaderEdit, what: string): HTMLElement {
  const b = html('button', { type: 'button', class: 'ki-auto small', title: `make automatic: remove the //@ line of ${what}`, 'data-testid': 'ki-make-auto' }, 'make auto');
  b.addEventListener('click', () => p.hooks.edit(edit));
  return b;
}

/** The badge of a buffer that holds a declared variable: which memory it is. */
const DECLARED_BADGES: Record<string, [string, string]> = {
  __shared__: ['shared', 'a __shared__ variable: the block\'s shared memory'],
  __constant__: ['constant', 'a __constant__ variable: global memory the kernel only reads (the host writes it with cudaMemcpyToSymbol)'],
  __device__: ['device', 'a __device__ variable: global memory of the whole program, zero unless initialised'],
};

function bufferRows(p: KernelInputsPanel, v: InputsView, b: BufferRow): HTMLElement[] {
  const name = html('th', { scope: 'row', class: 'mono' }, b.name);
  const declared = b.declared ?? (b.shared ? '__shared__' : null);
  const badge = declared === null ? undefined : DECLARED_BADGES[declared];
  if (badge) name.append(html('span', { class: 'ki-badge', title: badge[1] }, badge[0]));
  const len = html('td');
  const init = html('td');
  if (declared !== null && b.auto) {
    // Its size is the declaration's: edit the C to change it.
    len.append(html('span', { class: 'mono', title: `the size of its ${declared} declaration` }, b.len));
  } else {
    len.append(field(p, v, { kind: 'buffer', name: b.name, part: 'len' }, b.len, `length of ${b.name}`, 'ki-len'));
  }
  if (b.shared) {
    init.append(html('span', { class: 'muted' }, 'uninitialised'));
  } else {
    init.append(field(p, v, { kind: 'buffer', name: b.name, part: 'init' }, b.init, `initialiser of ${b.name}: an expression of i, or a list [1, 2, 3]`));
  }
  const from = html('td', { class: 'ki-from' });
  from.append(lineButton(p, b.auto, b.line, declared !== null ? `declared ${declared}` : 'made for the C parameter'));
  if (!b.auto) from.append(autoButton(p, { remove: { header: 'buffer', name: b.name } }, b.name));
  const row = html('tr', { 'data-buffer': b.name, 'data-testid': 'ki-buffer' });
  row.append(name, html('td', { class: 'mono' }, b.elem), len, init, from);
  const values = b.first.join(', ') + (b.elements > b.first.length ? ', …' : '');
  const note = html('tr', { class: 'ki-values' });
  note.append(html('td', { colspan: 5, class: 'muted small mono', 'data-testid': 'ki-values' }, `${plural(b.elements, 'element')}${values ? `: ${values}` : ''}`));
  return [row, note];
}

/** A param's row: the value the run uses in its field and, below, a note when that is not what
 * the field would say by itself: a top-bar value over the line, or a line's expression. */
function paramRows(p: KernelInputsPanel, v: InputsView, r: ParamRow): HTMLElement[] {
  const row = html('tr', { 'data-param': r.name, 'data-testid': 'ki-param' });
  const name = html('th', { scope: 'row', class: 'mono' }, r.name);
  const said = r.auto ? `made for the C parameter: ${r.default}` : `line ${r.line} says ${r.name} = ${r.default}`;
  // One value on screen: the top bar's, when the run takes it over the line.
  const topBar = r.value !== null && r.name in p.topBar;
  const value = html('td');
  const input = field(p, v, { kind: 'param', name: r.name }, topBar ? String(r.value) : r.default, `value of ${r.name}`, 'ki-len');
  value.append(input);
  if (topBar) {
    name.append(html('span', { class: 'ki-badge', title: `set in the top bar; ${said}` }, 'top bar'));
    input.title = `value of ${r.name}, set in the top bar (${said}); a change writes it to the kernel's //@ line`;
  }
  const from = html('td', { class: 'ki-from' });
  from.append(lineButton(p, r.auto, r.line, 'made for the C parameter: the launch\'s thread count'));
  if (!r.auto) from.append(autoButton(p, { remove: { header: 'param', name: r.name } }, r.name));
  row.append(name, value, from);
  const note = html('td', { colspan: 3, class: 'muted small', 'data-testid': 'ki-param-note' });
  if (topBar) {
    const line = r.auto ? `the made value ${r.default}` : `line ${r.line}'s ${r.name} = ${r.default}`;
    const use = html('button', { type: 'button', class: 'ki-auto small', title: `drop the top bar's value: run with ${line}`, 'data-testid': 'ki-use-line' }, `use ${r.default}`);
    use.addEventListener('click', () => p.hooks.dropTopBar(r.name));
    note.append(`Set to ${r.value} in the top bar; ${said}. `, use);
  } else if (r.value !== null && r.default.trim() !== String(r.value)) {
    // An expression (a made value, `W * 2`): what it comes to.
    note.append(`runs with ${r.value}`);
  } else {
    return [row];
  }
  const noteRow = html('tr', { class: 'ki-param-note' });
  noteRow.append(note);
  return [row, noteRow];
}

function table(caption: string, cls: string, head: string[], rows: HTMLElement[]): HTMLElement {
  const t = html('table', { class: `ki-table ${cls}` });
  t.append(html('caption', {}, caption));
  const tr = html('tr');
  for (const h of head) tr.append(html('th', { scope: 'col' }, h));
  const thead = html('thead');
  thead.append(tr);
  const body = html('tbody');
  body.append(...rows);
  t.append(thead, body);
  return t;
}

function launchPart(p: KernelInputsPanel, v: InputsView, wholeLaunch: boolean): HTMLElement {
  const l = v.launch;
  const box = html('fieldset', { class: 'ki-launch', 'data-testid': 'ki-launch' });
  box.append(html('legend', {}, 'Launch'));
  const fields = html('div', { class: 'ki-launch-fields' });
  const part = (label: string, f: Field & { kind: 'launch' }, value: string, title: string) => {
    const wrap = html('label', { class: 'field' });
    wrap.append(html('span', {}, label), field(p, v, f, value, title, 'ki-dim'));
    fields.append(wrap);
  };
  part('grid', { kind: 'launch', part: 'grid' }, dimsText(l.grid), 'grid: blocks in the launch (256, 16x16)');
  part('block', { kind: 'launch', part: 'block' }, dimsText(l.block), 'block: threads per block (256, 16x16)');
  part('block idx', { kind: 'launch', part: 'block_idx' }, dimsText(l.block_idx, 0), 'block idx: the block the views show');
  part('warp', { kind: 'launch', part: 'warp' }, String(l.warp_idx), 'warp: the warp of that block the views show first');
  const last = l.first_thread + l.lanes - 1;
  const block = dimsText(l.block_idx, 0);
  const where = html('p', { class: 'muted small', 'data-testid': 'ki-launch-note' }, wholeLaunch
    ? `Every warp of the launch runs. The views show block ${block} (the blocks before it have run, those after it run next) and its warp ${l.warp_idx} (threads ${l.first_thread}-${last}) first; the Warps panel focuses another.`
    : `Lanes 0-${l.lanes - 1} are threads ${l.first_thread}-${last} of block ${block}; the other warps do not run.`);
  const from = html('p', { class: 'ki-from' });
  if (l.line !== null) {
    from.append(lineButton(p, false, l.line, ''), autoButton(p, { remove: { header: 'launch' } }, 'the launch'));
  } else {
    from.append(html('span', { class: 'muted small' }, 'default: one block of one warp'));
  }
  box.append(fields, where, from);
  return box;
}

function kernelPart(p: KernelInputsPanel, v: InputsView): HTMLElement {
  const wrap = html('label', { class: 'field ki-kernel' });
  const sel = html('select', { 'data-testid': 'ki-kernel', 'aria-label': 'which kernel runs' });
  for (const k of v.kernels) sel.append(new Option(k, k, false, k === v.kernel));
  sel.addEventListener('change', () => p.hooks.edit({ set: { header: 'kernel', name: sel.value } }));
  wrap.append(html('span', {}, 'kernel'), sel);
  if (v.kernel_line !== null) wrap.append(lineButton(p, false, v.kernel_line, ''));
  return wrap;
}

/** Errors stop the run: say so, list them (each shows its line), keep the typed values. */
function problemsPart(p: KernelInputsPanel, errors: DiagnosticView[]): HTMLElement {
  const box = html('div', { class: 'ki-problems', role: 'status', 'data-testid': 'ki-problems' });
  box.append(html('p', {}, `Not run: the kernel has ${plural(errors.length, 'error')}. The table shows the inputs of the last run that worked.`));
  const ul = html('ul');
  for (const d of errors.slice(0, 5)) {
    const b = html('button', { type: 'button', class: 'ki-problem small' }, `line ${d.line}: ${d.message}`);
    b.addEventListener('click', () => p.hooks.jump(d.line));
    const li = html('li');
    li.append(b);
    ul.append(li);
  }
  box.append(ul);
  return box;
}

/** What the panel draws: the run's inputs, the kernel's diagnostics, the top bar's param values
 * and whether its fields take edits. */
export interface KernelInputsState {
  inputs: InputsView | null;
  diagnostics: readonly DiagnosticView[];
  topBar: Readonly<Record<string, number>>;
  editable: boolean;
  /** The run is the kernel's whole launch (every warp runs), not one warp alone. */
  wholeLaunch: boolean;
  /** A whole program's run, whose launch the inputs are; null for a kernel run alone. */
  program: ProgramView | null;
  /** The file's `main()` was set aside: its kernel runs alone. */
  kernelOnly: boolean;
}

export function render(p: KernelInputsPanel, state: KernelInputsState): void {
  const { inputs: v, diagnostics, topBar, editable, wholeLaunch, program, kernelOnly } = state;
  const errors = diagnostics.filter((d) => d.severity === 'error');
  // New runs that took the kernel as it is: the fields show what they read. Not at any render
  // without errors (one between a field's commit and its run, a progress or compare update, kept
  // the old inputs), nor at the first new run after the commit, which may be of the text before
  // it: either dropped the typed value, and a sibling committed next wrote its line without it
  // (CI saw `grid=1 block=64` after grid 2, then block 64, were entered).
  if (errors.length === 0 && v !== p.view) {
    for (const [key, runs] of p.typedRuns) {
      if (runs >= 1) {
        p.typed.delete(key);
        p.typedRuns.delete(key);
      } else {
        p.typedRuns.set(key, runs + 1);
      }
    }
  }
  p.view = v;
  p.errors = errors;
  p.topBar = topBar;
  const key = JSON.stringify([v, errors, topBar, editable, wholeLaunch, [...p.typed], program?.shown, program?.launches.length, kernelOnly]);
  if (p.root.dataset.key === key) return;
  p.root.dataset.key = key;
  // A program's launch: what main() set, read-only, with the launch picker.
  if (v && program && v.set_by_main !== null) {
    programInputs.render(p.root, v, program, p.hooks);
    for (const el of p.root.querySelectorAll<HTMLElement>('select, button')) el.toggleAttribute('disabled', !editable || el.hasAttribute('disabled'));
    return;
  }
  const typing = typingIn(p.root);
  const parts: HTMLElement[] = [];
  if (errors.length) parts.push(problemsPart(p, errors));
  if (kernelOnly) parts.push(programInputs.aloneNote(p.hooks));
  if (!v) {
    parts.push(html('p', { class: 'muted' }, 'No run yet: the inputs show once the kernel runs.'));
    p.root.replaceChildren(...parts);
    return;
  }
  parts.push(html('p', { class: 'muted small ki-about' },
    'A changed field writes its //@ line into the kernel and runs it (Ctrl+Z in the editor undoes).'));
  if (v.kernels.length > 1) parts.push(kernelPart(p, v));
  if (v.buffers.length) {
    parts.push(table('Buffers', 'ki-buffers', ['name', 'type', 'length', 'initialiser', 'from'], v.buffers.flatMap((b) => bufferRows(p, v, b))));
  }
  if (v.params.length) {
    parts.push(table('Scalars', 'ki-scalars', ['name', 'value', 'from'], v.params.flatMap((r) => paramRows(p, v, r))));
  }
  if (!v.buffers.length && !v.params.length) parts.push(html('p', { class: 'muted' }, 'This kernel reads no buffers or params.'));
  parts.push(launchPart(p, v, wholeLaunch));
  for (const el of p.root.querySelectorAll<HTMLInputElement>('input')) el.dataset.retired = 'true';
  p.root.replaceChildren(...parts);
  for (const el of p.root.querySelectorAll<HTMLElement>('input, select')) el.toggleAttribute('disabled', !editable);
  if (typing) resumeTyping(p.root, typing);
}

/** The field of the panel that has the focus: its text (typed, perhaps not committed yet) and
 * where the cursor is. */
interface Typing {
  field: string;
  /** The text typed and not committed (Enter or leaving the field commits), else null. */
  text: string | null;
  selection: [number, number] | null;
}

function typingIn(root: HTMLElement): Typing | null {
  const el = document.activeElement;
  if (!(el instanceof HTMLElement) || !root.contains(el) || !el.dataset.field) return null;
  if (!(el instanceof HTMLInputElement)) return { field: el.dataset.field, text: null, selection: null };
  const selection: [number, number] | null = el.selectionStart === null ? null : [el.selectionStart, el.selectionEnd ?? el.selectionStart];
  return { field: el.dataset.field, text: el.value !== el.defaultValue ? el.value : null, selection };
}

/** A rebuild of the panel while the user types in a field: the same field keeps the focus, the
 * text not yet committed and the cursor (a run that ends meanwhile must not take them). */
function resumeTyping(root: HTMLElement, t: Typing): void {
  const el = root.querySelector<HTMLElement>(`[data-field="${CSS.escape(t.field)}"]`);
  if (!el || el.hasAttribute('disabled')) return;
  el.focus();
  if (!(el instanceof HTMLInputElement)) return;
  if (t.text !== null) el.value = t.text;
  if (t.selection) el.setSelectionRange(Math.min(t.selection[0], el.value.length), Math.min(t.selection[1], el.value.length));
}
