//! Examples gallery: a dialog listing the papers' figures (one click opens each: its kernel, its
//! sweep or its view, and what to look at), then every bundled kernel with its title and about
//! text, under its group's heading.

import type { Example } from '../examples';
import type { Figure } from '../figures';
import { html } from '../svg';

function figureKind(f: Figure): string {
  if (f.view?.compare) return `${f.view.model} beside ${f.view.compare}, compared`;
  if (f.view) return `stack history at ${Object.entries(f.view.params).map(([k, v]) => `${k} = ${v}`).join(', ')}`;
  const s = f.sweep!;
  const split = s.split ? `, split by ${s.split.param}` : '';
  return `sweep ${s.param ?? 'n'} = ${s.from ?? 0}..${s.to ?? 31}${split}${f.measured ? ', measured against predicted' : ''}`;
}

function figureList(figures: Figure[], pick: (f: Figure) => void): HTMLElement {
  const list = html('ul', { class: 'gallery figures' });
  for (const f of figures) {
    const b = html('button', { type: 'button', class: 'gallery-item', 'data-testid': `figure-${f.id}` });
    b.append(html('span', { class: 'figure-cite' }, `${f.paper} · ${f.figure}`), html('strong', {}, f.title),
      html('span', { class: 'muted small' }, `${figureKind(f)} · ${f.kernel}`));
    b.addEventListener('click', () => pick(f));
    const li = html('li');
    li.append(b);
    list.append(li);
  }
  return list;
}

export function render(dialog: HTMLDialogElement, examples: Example[], figures: Figure[],
  open: (e: Example) => void, openFigure: (f: Figure) => void): void {
  const parts: HTMLElement[] = [];
  if (figures.length) {
    parts.push(html('h3', { class: 'gallery-group' }, 'Papers\' figures: one click runs each'),
      figureList(figures, (f) => { dialog.close(); openFigure(f); }));
  }
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
