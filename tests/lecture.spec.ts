// The lecture layout at a 720p projector's size is read from the back of a room: every text in
// its panels (code, masks, captions, labels, the graph's and the canvases' own text) and the
// scrubber's legend at 20 px or more on screen, whichever panel its tab brings to the front.
import type { Page } from '@playwright/test';
import { expect, open, openExample, seek, showTab, test, useLayout } from './helpers';

const FLOOR_PX = 20;

/** Every text shown smaller than `FLOOR_PX` screen pixels: "panel: size px 'text'". */
async function smallText(page: Page): Promise<string[]> {
  return page.evaluate((floor) => {
    const out: string[] = [];
    const shown = (el: Element) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && !el.closest('[hidden]') && getComputedStyle(el).visibility !== 'hidden';
    };
    const where = (el: Element) => el.closest('[data-panel]')?.getAttribute('data-panel') ?? 'scrubber';
    const roots = [...document.querySelectorAll('.dock-panel'), ...document.querySelectorAll('.strip-legend')];
    for (const root of roots) {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const el = n.parentElement!;
        if (!n.textContent!.trim() || !shown(el)) continue;
        // SVG text scales with the drawing (the graph's zoom): its size on screen.
        const svgText = el instanceof SVGElement ? (el.closest('text') as SVGGraphicsElement | null) : null;
        const m = svgText?.getScreenCTM();
        const scale = m ? Math.hypot(m.a, m.b) : el.currentCSSZoom || 1;
        const px = parseFloat(getComputedStyle(el).fontSize) * scale;
        if (px < floor - 0.05) out.push(`${where(el)}: ${px.toFixed(1)} px '${n.textContent!.trim().slice(0, 40)}'`);
      }
    }
    // The canvases draw their own labels: the lane view says the size it used.
    for (const c of document.querySelectorAll<HTMLCanvasElement>('.dock-panel canvas[data-label-px]')) {
      const px = Number(c.dataset.labelPx) * (c.currentCSSZoom || 1);
      if (shown(c) && px < floor - 0.05) out.push(`${where(c)}: ${px.toFixed(1)} px canvas labels`);
    }
    return out;
  }, FLOOR_PX);
}

test('the lecture layout at 1280x720: every text in every panel at 20 px or more', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await open(page);
  await useLayout(page, 'lecture');
  // A C kernel (its generated code has a tab) at a step inside its loop, the stack two deep.
  await openExample(page, 'double_loop.cu');
  await seek(page, 150);
  const small = new Set<string>();
  const titles = await page.locator('#dock .dv-tabs-container > .dv-tab').allTextContents();
  expect(titles.length, 'the lecture layout keeps its other panels behind tabs').toBeGreaterThan(6);
  for (const title of titles) {
    await showTab(page, title);
    await page.waitForTimeout(100);
    for (const s of await smallText(page)) small.add(s);
  }
  expect([...small]).toEqual([]);
});
