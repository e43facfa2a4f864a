//! Help overlay: the keyboard shortcuts (they never fire while typing in the editor or a field).

import { html } from '../svg';

export const SHORTCUTS: [string, string][] = [
  ['Space', 'play / pause'],
  ['→ / ←', 'step forward / back'],
  ['Shift + → / ←', 'next / previous divergence'],
  ['Home / End', 'start / end of the run'],
  ['B', 'run to the next breakpoint'],
  ['F', 'fit the CFG to its panel'],
  ['?', 'this help'],
  ['Esc', 'close dialogs'],
];

export function render(dialog: HTMLDialogElement): void {
  const table = html('table', { class: 'shortcuts' });
  for (const [k, what] of SHORTCUTS) {
    const tr = html('tr');
    tr.append(html('th', {}, ''), html('td', {}, what));
    const keys = tr.firstElementChild!;
    k.split(' ').forEach((part) => keys.append(part === '/' || part === '+' ? ` ${part} ` : html('kbd', {}, part)));
    table.append(tr);
  }
  const close = html('button', { type: 'button', class: 'dialog-close', 'aria-label': 'close' }, '✕');
  close.addEventListener('click', () => dialog.close());
  const tip = html('p', { class: 'muted' }, 'Click the narrow gutter left of the line numbers, or an instruction in the control-flow graph, to set or clear a breakpoint.');
  dialog.replaceChildren(close, html('h2', {}, 'Keyboard shortcuts'), table, tip);
}
