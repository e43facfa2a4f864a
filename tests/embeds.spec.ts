// Embeds show what they promise at the Embed dialog's two slide sizes: Figure 3's walk-through at
// a step with three tokens on its stack, every panel it asks for. Geometry, not pixels.
import type { Page } from '@playwright/test';
import { exampleText, expect, expectCaptionMore, expectLaidOut, geometry, open, overlapping, seek, showTab, test } from './helpers';
import { makeLink } from './link-maker';

/** The stack's entries wholly in view in its panel (not cut by its edge nor scrolled away). */
async function stackEntriesInView(page: Page): Promise<number> {
  return page.locator('#stack').evaluate((el) => {
    const box = el.getBoundingClientRect();
    return [...el.querySelectorAll('[data-testid=stack-entry]')].filter((e) => {
      const r = e.getBoundingClientRect();
      return r.height > 0 && r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5 && r.left >= box.left - 0.5 && r.right <= box.right + 0.5;
    }).length;
  });
}

/** Where the graph's current block is against the graph's box, its zoom tools and its minimap. */
async function currentBlock(page: Page): Promise<{ inside: boolean; underTools: boolean; underMinimap: boolean }> {
  return page.locator('#cfg').evaluate((cfg) => {
    const rect = (sel: string) => cfg.querySelector(sel)!.getBoundingClientRect();
    const block = rect('.block.current .block-rect'), box = rect('.cfg-svg'), tools = rect('.cfg-tools');
    const map = cfg.querySelector('.cfg-minimap') as SVGElement;
    const m = map.getBoundingClientRect();
    const apart = (a: DOMRect, b: DOMRect) => a.right <= b.left + 0.5 || b.right <= a.left + 0.5 || a.bottom <= b.top + 0.5 || b.bottom <= a.top + 0.5;
    return {
      inside: block.left >= box.left - 0.5 && block.right <= box.right + 0.5 && block.top >= box.top - 0.5 && block.bottom <= box.bottom + 0.5,
      underTools: !apart(block, tools),
      underMinimap: getComputedStyle(map).display !== 'none' && m.width > 0 && !apart(block, m),
    };
  });
}

for (const [w, h] of [[800, 450], [640, 360]] as const) {
  test(`an embed at ${w}x${h} shows what it promises`, async ({ page }) => {
    await page.setViewportSize({ width: w, height: h });
    const link = makeLink({ text: exampleText('examples/fig3_walkthrough.sass'), step: 130 });
    await open(page, `./${link}&embed=caption,cfg,lanes,stack,plot`);
    // Inside the frame, clear of each other and of the bars, none too small to read; the lanes
    // have a group of their own where there is room, else a tab behind the stack.
    expectLaidOut(await geometry(page), `embed ${w}x${h}`, ['caption', 'cfg', 'stack', ...(w >= 800 ? ['lanes'] : [])], { w: 200, h: 80 });
    // The caption wraps inside its panel; the CFG's text is readable (follow mode, not a hairline).
    const caption = await page.getByTestId('caption').evaluate((el) => ({ sw: el.scrollWidth, cw: el.clientWidth }));
    expect(caption.sw).toBeLessThanOrEqual(caption.cw);
    const text = await page.locator('#cfg .instr').first().evaluate((el) => el.getBoundingClientRect().height);
    expect(text, 'CFG text height').toBeGreaterThanOrEqual(9);

    // The stack, three tokens deep: every entry in view, none cut, without a click.
    await expect(page.locator('#stack')).toBeVisible();
    await expect(page.getByTestId('stack-entry')).toHaveCount(3);
    expect(await stackEntriesInView(page), 'stack entries in view').toBe(3);

    // The graph follows the current block: all its lines in view, clear of the zoom tools and the
    // minimap, at this step and at another with the view moved there.
    for (const step of [130, 60]) {
      await seek(page, step);
      await expect.poll(() => currentBlock(page), `the current block at step ${step}`).toEqual({ inside: true, underTools: false, underMinimap: false });
    }
    // The edges' key takes no room from so small a graph until asked for, and says so.
    const legend = page.getByTestId('cfg-legend'), key = page.getByTestId('cfg-key');
    await expect(legend).toBeHidden();
    await expect(key).toHaveAttribute('aria-pressed', 'false');
    await key.click();
    await expect(legend).toBeVisible();
    await expect(key).toHaveAttribute('aria-pressed', 'true');
    await key.click();

    // The caption strip holds three lines of this step's long note: it says there is more.
    expect(await expectCaptionMore(page, `${w}x${h}`)).toBe(true);

    // The stack history, short here: its depth labels stay apart.
    await showTab(page, 'Stack history');
    await expect(page.getByTestId('plot-svg')).toBeVisible();
    expect(await page.locator('#plot .depth-tick').count()).toBeGreaterThanOrEqual(2);
    expect(await overlapping(page, '#plot .depth-tick'), 'depth labels on top of each other').toEqual([]);

    // The panels sharing a group are a tab away; the step controls are on screen.
    await showTab(page, 'Lanes');
    await expect(page.getByTestId('lanes-canvas')).toBeInViewport();
    await expect(page.getByTestId('btn-step')).toBeInViewport();
    await expect(page.getByTestId('embed-open')).toBeVisible();
  });
}
