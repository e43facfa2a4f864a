//! The Kernel inputs panel for a whole program's launch: what `main()` gave the launch shown
//! (its sizes, its arguments, the device memory as the launch found it), read-only and marked
//! with the host line that launched it, and the launch picker over every launch `main()` made.
//! A file with `main()` run as a kernel alone offers to run `main()` again. The values are the
//! engine's (`InputsView.device`, `ProgramView.launches`); this file only lays them out.

import { html } from '../svg';
import type { DeviceBufferRow, InputsView, ProgramLaunch, ProgramView } from '../generated/engine';

export interface ProgramInputsHooks {
  /** Shows a line of the file in the editor. */
  jump(line: number): void;
  /** Shows launch `k` (from 0) of the program. */
  launch(k: number): void;
  /** Runs the kernel alone (`true`), or `main()` again (`false`). */
  kernelOnly(on: boolean): void;
}

const dims = (d: number[]) => (d[1] === 1 && d[2] === 1 ? `${d[0]}` : `(${d.join(', ')})`);

/** How the picker names a launch: its number, kernel, sizes and host line. */
export function launchLabel(l: ProgramLaunch, k: number): string {
  const end = l.end === 'exited' ? '' : ` · ${l.end}`;
  return `#${k + 1} ${l.kernel}<<<${dims(l.grid)}, ${dims(l.block)}>>> · line ${l.line}${end}`;
}

/** An argument's value as `main` passed it: a pointer names the buffer it points into. */
export function argumentText(value: number | null, device: DeviceBufferRow[]): string {
  if (value === null) return '–';
  const into = device.find((b) => value >= b.base && value < b.base + Math.max(1, b.bytes));
  if (!into) return String(value);
  const at = value - into.base;
  return at === 0 ? `→ ${into.name}` : `→ ${into.name} + ${at} bytes`;
}

function lineLink(line: number, hooks: ProgramInputsHooks): HTMLElement {
  const a = html('button', { type: 'button', class: 'linklike', 'data-testid': 'pi-line' }, `line ${line}`);
  a.addEventListener('click', () => hooks.jump(line));
  return a;
}

function picker(program: ProgramView, hooks: ProgramInputsHooks): HTMLElement {
  const select = html('select', { 'data-testid': 'launch-picker', 'aria-label': 'The launch shown' });
  program.launches.forEach((l, k) => {
    const option = html('option', { value: String(k) }, launchLabel(l, k));
    option.disabled = !l.viewable;
    option.selected = program.shown === k;
    select.append(option);
  });
  select.addEventListener('change', () => hooks.launch(Number(select.value)));
  const label = html('label', { class: 'field pi-picker' });
  label.append(html('span', {}, `Launch (${program.launches.length} made by main())`), select);
  return label;
}

function table(caption: string, testid: string, head: string[], rows: HTMLElement[]): HTMLElement {
  const t = html('table', { class: 'ki-table', 'data-testid': testid });
  t.append(html('caption', {}, caption));
  const tr = html('tr');
  for (const h of head) tr.append(html('th', { scope: 'col' }, h));
  const thead = html('thead');
  const tbody = html('tbody');
  thead.append(tr);
  tbody.append(...rows);
  t.append(thead, tbody);
  return t;
}

function row(cells: string[]): HTMLElement {
  const tr = html('tr');
  for (const c of cells) tr.append(html('td', { class: 'mono' }, c));
  return tr;
}

/** The read-only inputs of the launch shown, with the picker. */
export function render(root: HTMLElement, v: InputsView, program: ProgramView, hooks: ProgramInputsHooks): void {
  const shown = program.shown === null ? null : program.launches[program.shown];
  const head = html('p', { class: 'pi-head', 'data-testid': 'pi-set-by-main' });
  head.append('Set by main() at ', lineLink(v.set_by_main ?? shown?.line ?? 1, hooks), ': read-only (edit main() to change them).');
  const alone = html('button', { type: 'button', class: 'small', 'data-testid': 'pi-kernel-only' }, 'Run the kernel alone');
  alone.title = 'Run the kernel by itself with //@ inputs or made-up ones, as for a file without main()';
  alone.addEventListener('click', () => hooks.kernelOnly(true));
  const parts: HTMLElement[] = [head, picker(program, hooks)];
  if (shown) {
    parts.push(table('Launch', 'pi-launch', ['grid', 'block', 'shared bytes'], [row([dims(shown.grid), dims(shown.block), String(shown.shared)])]));
  }
  if (v.arguments.length) {
    parts.push(table('Arguments', 'pi-arguments', ['name', 'value'], v.arguments.map((a) => row([a.name, argumentText(a.value, v.device)]))));
  }
  if (v.device.length) {
    parts.push(table('Device memory as the launch found it', 'pi-device', ['name', 'type', 'length', 'first values'],
      v.device.map((b) => row([b.name, b.elem, String(b.elements), b.first.join(', ') + (b.elements > b.first.length ? ', …' : '')]))));
  }
  parts.push(alone);
  root.replaceChildren(...parts);
}

/** A file with `main()` run as a kernel alone: the way back to running `main()`. */
export function aloneNote(hooks: ProgramInputsHooks): HTMLElement {
  const p = html('p', { class: 'pi-head', 'data-testid': 'pi-alone' }, 'This file has main(); its kernel runs alone here, with the inputs below. ');
  const back = html('button', { type: 'button', class: 'small', 'data-testid': 'pi-run-main' }, 'Run main()');
  back.addEventListener('click', () => hooks.kernelOnly(false));
  p.append(back);
  return p;
}
