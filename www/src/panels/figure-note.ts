//! "What to look at": the strip under the top bar naming the paper's figure on screen and what it
//! shows, until it is closed or another example opens.

import { citation, type Figure } from '../figures';
import { html } from '../svg';

export function render(root: HTMLElement, figure: Figure | null, close: () => void): void {
  root.hidden = !figure;
  if (!figure) { root.replaceChildren(); return; }
  const text = html('div', { class: 'figure-note-text' });
  const head = html('p', { class: 'figure-note-head' });
  head.append(html('strong', {}, 'What to look at'), html('span', { class: 'muted' }, ` · ${citation(figure)}: ${figure.title}`));
  text.append(head, html('p', { 'data-testid': 'figure-look' }, figure.look));
  const x = html('button', { type: 'button', 'aria-label': 'close', 'data-testid': 'figure-note-close' }, '✕');
  x.addEventListener('click', close);
  root.replaceChildren(text, x);
}
