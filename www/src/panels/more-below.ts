//! A sign that a scrolling panel has more below: its bottom edge fades and a "more ↓" mark shows,
//! both gone once it is scrolled to the end. Without it a caption cut at the panel's edge (a
//! slide's embed, a projector) read as the whole text. A click on the mark scrolls a page down.

import { html } from '../svg';

/** Whether a region scrolled to `top` (pixels), `client` tall, holding `content`, hides some below. */
export function hasMore(top: number, client: number, content: number): boolean {
  // Fractional scroll positions leave a pixel or so at the end.
  return content - client - top > 1;
}

/** Marks `region` (a scrolling element inside a positioned panel) while it has more below. */
export function watch(region: HTMLElement): void {
  const mark = html('button', { type: 'button', class: 'more-below', 'data-testid': `${region.id}-more`, tabindex: -1, 'aria-hidden': 'true', hidden: '' }, 'more ↓');
  region.after(mark);
  mark.addEventListener('click', () => region.scrollBy({ top: region.clientHeight * 0.8, behavior: 'smooth' }));
  let frame = 0;
  const update = () => {
    if (frame) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      const more = hasMore(region.scrollTop, region.clientHeight, region.scrollHeight);
      if (mark.hidden === !more) return;
      mark.hidden = !more;
      region.classList.toggle('has-more', more);
    });
  };
  region.addEventListener('scroll', update, { passive: true });
  new ResizeObserver(update).observe(region);
  // A step changes the text, not the region's size.
  new MutationObserver(update).observe(region, { childList: true, subtree: true, characterData: true });
  update();
}
