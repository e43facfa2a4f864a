//! Examples gallery: a dialog listing every bundled kernel with its title and about text, under
//! its group's heading.

import type { Example } from '../examples';
import { html } from '../svg';

export function render(dialog: HTMLDialogElement, examples: Example[], open: (e: Example) => void): void {
  const parts: HTMLElement[] = [];
  let list: HTMLElement | null = null;
  let group = '';
  for (const ex of examples) {
    if (!list || ex.group !== group) {
      group = ex.group;
      list = html('ul', { class: 'gallery' });
      parts.push(html('h3', { class: 'gallery-group' }, group), list);
    }
    const li = html('li');
    const b = html('button', { type: 'button', class: 'gallery-item', 'data-testid': `example-${ex.file}` });
    b.append(html('strong', {}, ex.title), html('span', { class: 'muted small mono' }, ex.file), html('span', { class: 'about' }, ex.about));
    b.addEventListener('click', () => { dialog.close(); open(ex); });
    li.append(b);
    list.append(li);
  }
  const close = html('button', { type: 'button', class: 'dialog-close', 'aria-label': 'close' }, '✕');
  close.addEventListener('click', () => dialog.close());
  dialog.replaceChildren(close, html('h2', {}, 'Examples'), ...parts);
}
