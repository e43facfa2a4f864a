//! Banners: visible messages for failures (a broken link, an engine error), dismissable, never
//! blocking the editor. Messages are text, never markup. A brief one (a link copied, a stop at a
//! breakpoint) answers what the user just did: it leaves by itself after a few seconds, or at
//! the next step or choice, when what it said is no longer news.

import { html } from '../svg';

export type BannerKind = 'error' | 'info';
/** `kept` until dismissed, or `brief`. */
export type BannerLife = 'kept' | 'brief';

/** How long a brief banner stays; longer while the pointer or the focus is on the notice strip. */
export const BRIEF_MS = 6000;

export function show(root: HTMLElement, message: string, kind: BannerKind = 'error', life: BannerLife = 'kept'): void {
  for (const el of root.children) {
    if ((el as HTMLElement).dataset.message !== message) continue;
    // The same message again (e.g. a repeated engine error while playing) is not stacked; a brief
    // one said again is news again, with its time started over.
    if (life === 'kept') return;
    el.remove();
    break;
  }
  const b = html('div', { class: `banner ${kind}`, role: kind === 'error' ? 'alert' : 'status', 'data-testid': 'banner', 'data-message': message, 'data-life': life });
  const close = html('button', { type: 'button', 'aria-label': 'dismiss' }, '✕');
  close.addEventListener('click', () => b.remove());
  b.append(html('span', {}, message), close);
  root.append(b);
  while (root.children.length > 3) root.firstElementChild!.remove();
  if (life === 'brief') leaveLater(b);
}

/** Removes `b` after `BRIEF_MS`, unless the user is reading the strip it is in then. */
function leaveLater(b: HTMLElement): void {
  window.setTimeout(() => {
    const strip = b.closest<HTMLElement>('.notices') ?? b;
    const reading = strip.matches(':hover') || strip.contains(document.activeElement) || strip.classList.contains('open');
    if (reading) leaveLater(b); else b.remove();
  }, BRIEF_MS);
}

/** The brief banners leave: the user has moved on (stepped, changed the kernel or a choice). */
export function dropBrief(root: HTMLElement): void {
  for (const el of root.querySelectorAll('[data-life=brief]')) el.remove();
}
