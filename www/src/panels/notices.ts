//! The notice strip: every notice (the link question, a long run's progress, how a run ended, a
//! banner, a figure's "What to look at") shows in one reserved line under the top bar, so none
//! ever moves or covers a panel. One shows at a time, the newest first; ‹ › pages through the
//! others. A notice longer than the line opens over the panels when the user asks (more), and
//! closes on Esc, on a click elsewhere or on less. With no notice the line names the kernel.

import { html } from '../svg';

/** Sets `hidden` only when it changes: the strip watches `hidden`, and a write of the same value
 * would still wake it. */
function setHidden(el: HTMLElement, hidden: boolean): void {
  if (el.hidden !== hidden) el.hidden = hidden;
}

/** How urgent a notice is: a question waiting for the user, then failures, then how a run goes,
 * then information. */
function rank(el: HTMLElement): number {
  if (el.classList.contains('work-note')) return el.dataset.kind === 'question' ? 0 : 5;
  if (el.classList.contains('banner') || el.classList.contains('compile-note')) return el.classList.contains('info') ? 4 : 1;
  if (el.classList.contains('run-stop')) return 2;
  if (el.classList.contains('run-progress')) return 3;
  return 6;
}

export class NoticeStrip {
  private current: HTMLElement | null = null;
  private seen = new Set<HTMLElement>();
  private readonly pager: HTMLElement;
  private readonly count: HTMLElement;
  private readonly more: HTMLButtonElement;

  constructor(private readonly root: HTMLElement, private readonly idle: HTMLElement) {
    const prev = html('button', { type: 'button', 'aria-label': 'previous notice', 'data-testid': 'notice-prev' }, '‹');
    const next = html('button', { type: 'button', 'aria-label': 'next notice', 'data-testid': 'notice-next' }, '›');
    this.count = html('span', { class: 'notice-count', 'data-testid': 'notice-count', 'aria-live': 'polite' });
    this.more = html('button', { type: 'button', class: 'notice-more', 'data-testid': 'notice-more', 'aria-expanded': 'false' }, 'more');
    this.pager = html('div', { class: 'notice-pager' });
    this.pager.append(this.more, prev, this.count, next);
    root.append(this.pager);
    prev.addEventListener('click', () => this.step(-1));
    next.addEventListener('click', () => this.step(1));
    this.more.addEventListener('click', () => this.open(!root.classList.contains('open')));
    document.addEventListener('keydown', (e) => { if (e.key === 'Escape' && root.classList.contains('open')) this.open(false); });
    document.addEventListener('pointerdown', (e) => { if (!root.contains(e.target as Node)) this.open(false); });
    new MutationObserver(() => this.update()).observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ['hidden'] });
    new ResizeObserver(() => this.measure()).observe(root);
    this.update();
  }

  /** The notices shown, most urgent first (the order the pager walks them). */
  private items(): HTMLElement[] {
    const shown = (el: Element | null): el is HTMLElement => !!el && !(el as HTMLElement).hidden;
    const out: HTMLElement[] = [];
    for (const el of this.root.querySelectorAll<HTMLElement>('.work-note, .compile-note, .run-progress, .run-stop, .banner, .figure-note')) {
      // A part of the run-status strip counts only while the strip itself is shown.
      if (shown(el) && (!el.parentElement || shown(el.parentElement))) out.push(el);
    }
    return out.sort((a, b) => rank(a) - rank(b));
  }

  private update(): void {
    const items = this.items();
    const shown = this.current && items.includes(this.current) ? this.current : null;
    // The note that a kernel was kept aside is news, but not over a more urgent notice on screen
    // (the way an example's run ended, opened with it).
    const fresh = items.filter((el) => !this.seen.has(el) && !(shown && el.dataset.kind === 'aside' && rank(shown) < rank(el)));
    this.seen = new Set(items);
    // A notice that just appeared is the one to read (the most urgent of several); else the one
    // shown stays, else the most urgent.
    this.current = fresh[0] ?? shown ?? items[0] ?? null;
    this.mark(items);
  }

  private mark(items: HTMLElement[]): void {
    for (const el of this.root.querySelectorAll<HTMLElement>('[data-notice]')) delete el.dataset.notice;
    for (const el of items) el.dataset.notice = el === this.current ? 'current' : 'queued';
    // The containers of the current notice show; the idle line shows when there is none.
    for (const box of this.root.querySelectorAll<HTMLElement>('.banners, .run-status')) {
      box.classList.toggle('holds-current', !!this.current && box.contains(this.current));
    }
    setHidden(this.idle, !!this.current);
    this.root.dataset.count = String(items.length);
    setHidden(this.pager, items.length === 0);
    const count = items.length > 1 && this.current ? `${items.indexOf(this.current) + 1} of ${items.length}` : '';
    // Like `hidden`, text written only when it changes (the strip watches its children).
    if (this.count.textContent !== count) this.count.textContent = count;
    for (const b of this.pager.querySelectorAll<HTMLButtonElement>('button:not(.notice-more)')) setHidden(b, items.length < 2);
    this.measure();
  }

  private step(by: number): void {
    const items = this.items();
    if (!items.length) return;
    const i = this.current ? items.indexOf(this.current) : 0;
    this.current = items[(i + by + items.length) % items.length];
    this.open(false);
    this.mark(items);
  }

  /** "more" shows only when the current notice does not fit its line. */
  private measure(): void {
    const el = this.current;
    const open = this.root.classList.contains('open');
    // The notice itself, or a line in it, cut at the strip's edge.
    const over = (e: Element) => e.scrollHeight > e.clientHeight + 2 || e.scrollWidth > e.clientWidth + 2;
    const cut = !!el && (over(el) || [...el.querySelectorAll('p, span')].some(over));
    setHidden(this.more, !open && !cut);
  }

  private open(on: boolean): void {
    this.root.classList.toggle('open', on);
    this.more.textContent = on ? 'less' : 'more';
    this.more.setAttribute('aria-expanded', String(on));
    this.measure();
  }
}
