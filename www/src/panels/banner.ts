//! Banners: visible messages for failures (a broken link, an engine error), dismissable, never
//! blocking the editor. Messages are text, never markup.

import { html } from '../svg';

export type BannerKind = 'error' | 'info';

export function show(root: HTMLElement, message: string, kind: BannerKind = 'error'): void {
  // The same message again (e.g. a repeated engine error while playing) is not stacked.
  for (const el of root.children) if ((el as HTMLElement).dataset.message === message) return;
  const b = html('div', { class: `banner ${kind}`, role: kind === 'error' ? 'alert' : 'status', 'data-testid': 'banner', 'data-message': message });
  const close = html('button', { type: 'button', 'aria-label': 'dismiss' }, '✕');
  close.addEventListener('click', () => b.remove());
  b.append(html('span', {}, message), close);
  root.append(b);
  while (root.children.length > 3) root.firstElementChild!.remove();
}
