//! Help overlay: the keyboard shortcuts (they never fire while typing in the editor or a field;
//! a focused select gives up only ← and →: `controls.ts`), and the reconvergence models the engine
//! offers, one line each.

import { modelInfo } from '../model-info';
import { html } from '../svg';

export const SHORTCUTS: [string, string][] = [
  ['Space', 'play / pause'],
  ['→ / ←', 'step forward / back'],
  ['Shift + → / ←', 'next / previous divergence'],
  ['Home / End', 'start / end of the run'],
  ['B', 'run to the next breakpoint'],
  ['F', 'fit the CFG to its panel (never below readable text: the minimap shows the rest)'],
  ['+ / - / 0', 'zoom the focused CFG in, out, or fit it (also Ctrl + wheel)'],
  ['?', 'this help (open / close)'],
  ['Esc', 'close dialogs'],
];

/** `models`: the engine's model names (none before the first load). */
export function render(dialog: HTMLDialogElement, models: string[] = []): void {
  const table = html('table', { class: 'shortcuts' });
  for (const [k, what] of SHORTCUTS) {
    const tr = html('tr');
    tr.append(html('th', {}, ''), html('td', {}, what));
    const keys = tr.firstElementChild!;
    // "+" joins two keys ("Shift + →"); at the start it is the key itself.
    k.split(' ').forEach((part, i) => keys.append(part === '/' || (part === '+' && i > 0) ? ` ${part} ` : html('kbd', {}, part)));
    table.append(tr);
  }
  const close = html('button', { type: 'button', class: 'dialog-close', 'aria-label': 'close' }, '✕');
  close.addEventListener('click', () => dialog.close());
  const where = html('p', { class: 'muted' }, 'They never fire while you type in the editor or a field. After a pick from a list, ← and → step the run; ↑ and ↓ still choose from the list.');
  const tip = html('p', { class: 'muted' }, 'Click the narrow gutter left of the line numbers, or an instruction in the control-flow graph, to set or clear a breakpoint.');
  const parts: HTMLElement[] = [close, html('h2', {}, 'Keyboard shortcuts'), table, where, tip];
  if (models.length) {
    const list = html('table', { class: 'shortcuts models-help', 'data-testid': 'models-help' });
    for (const m of models) {
      const tr = html('tr');
      tr.append(html('th', { class: 'mono' }, m), html('td', {}, modelInfo(m).summary));
      list.append(tr);
    }
    const how = html('p', { class: 'muted' }, 'Press "compare" to run two of them side by side on the same kernel, with one scrubber and a table of their metrics.');
    parts.push(html('h2', {}, 'Reconvergence models'), list, how);
  }
  dialog.replaceChildren(...parts);
}
