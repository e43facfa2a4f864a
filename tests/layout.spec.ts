// The page fits every screen an instructor uses: at 1280x720, 1366x768, 1920x1080 and 768x1024,
// in every mode, every panel on screen is inside the window, clear of the others and of the
// fixed bars, with no sideways scroll; a notice never moves a panel; named layouts, closed panels,
// dragged borders and presentation mode behave and are kept (embeds at slide sizes: embeds.spec.ts).
// Geometry, not pixels.
import type { Page } from '@playwright/test';
import { exampleText, expect, expectCaptionMore, expectLaidOut, geometry, open, openExample, openFigure, overlapping, seek, showTab, test, type Geometry, useLayout } from './helpers';
import { makeLink } from './link-maker';

const SIZES = [[1280, 720], [1366, 768], [1920, 1080], [768, 1024]] as const;

async function compareOn(page: Page, on: boolean): Promise<void> {
  if ((await page.getByTestId('btn-compare').getAttribute('aria-pressed') === 'true') !== on) await page.getByTestId('btn-compare').click();
}

for (const [w, h] of SIZES) {
  test(`every mode is laid out inside the window at ${w}x${h}`, async ({ page }) => {
    await page.setViewportSize({ width: w, height: h });
    await open(page);
    expectLaidOut(await geometry(page), `${w}x${h} one run`, ['caption', 'cfg', 'lanes', 'stack', 'plot']);
    await openExample(page, 'double_loop.cu');
    await seek(page, 150);
    // The generated code has a group of its own where there is room, else a tab beside the source.
    expectLaidOut(await geometry(page), `${w}x${h} C kernel`, ['caption', 'cfg', 'lanes', 'stack', 'plot', ...(w >= 1280 ? ['listing'] : [])]);
    // A C kernel under pdom adds the path order to the top bar: it wraps, never overflows.
    await page.getByTestId('model').selectOption('pdom');
    await expect(page.getByTestId('path-order')).toBeVisible();
    const top = await page.locator('.topbar').evaluate((el) => ({ sw: el.scrollWidth, cw: el.clientWidth }));
    expect(top.sw, `top bar fits at ${w}x${h}`).toBeLessThanOrEqual(top.cw);
    expectLaidOut(await geometry(page), `${w}x${h} C kernel under pdom`, ['cfg', 'lanes']);
    await compareOn(page, true);
    await expect(page.getByTestId('compare-table')).toBeVisible();
    expectLaidOut(await geometry(page), `${w}x${h} compare`, ['side-a', 'side-b']);
    // Each side's graph keeps room to be read.
    for (const side of ['a', 'b']) {
      const box = await page.getByTestId(`side-${side}`).locator('.p-cfg').boundingBox();
      expect(box!.height, `side ${side}'s CFG height at ${w}x${h}`).toBeGreaterThanOrEqual(150);
    }
    await compareOn(page, false);
    await page.getByTestId('btn-sweep').click();
    await expect(page.getByTestId('sweep-view')).toBeVisible();
    expectLaidOut(await geometry(page), `${w}x${h} sweep`, ['sweep', 'sweep-settings']);
  });
}

test('the reconvergence stack shows its whole if/else stack at 1280x720, and the metrics all their rows', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await open(page);
  await openExample(page, 'if_else.sass');
  // The deepest moment of the run: every entry of the stack is in view, none cut.
  const total = Number(await page.getByTestId('step-label').getAttribute('data-total'));
  let deepest = 0, at = 0;
  for (let t = 1; t <= total; t++) {
    await seek(page, t);
    const n = await page.getByTestId('stack-entry').count();
    if (n > deepest) { deepest = n; at = t; }
  }
  await seek(page, at);
  expect(deepest).toBeGreaterThanOrEqual(2);
  const cut = await page.locator('#stack').evaluate((el) => {
    const box = el.getBoundingClientRect();
    return [...el.querySelectorAll('[data-testid=stack-entry]')].filter((e) => e.getBoundingClientRect().bottom > box.bottom + 0.5).length;
  });
  expect(cut, `stack entries cut at step ${at}`).toBe(0);
});

/** The notices of each kind, one at a time: the panels stay exactly where they were. */
test('no notice moves a panel: copy link, a breakpoint stop, a deadlock, a broken link, the link question, a figure note', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const same = (a: Geometry, b: Geometry, what: string) => {
    expect(Object.keys(b.panels).sort(), `panels after ${what}`).toEqual(Object.keys(a.panels).sort());
    for (const [name, box] of Object.entries(a.panels)) expect(b.panels[name], `${name} after ${what}`).toEqual(box);
  };
  await open(page);
  await openExample(page, 'single_loop.sass');
  const before = await geometry(page);
  await page.getByTestId('copy-link').click();
  await expect(page.getByTestId('banner')).toBeVisible();
  same(before, await geometry(page), 'copy link');
  // A breakpoint on the loop's branch (the gutter of its line), then run to it.
  const lineNo = exampleText('examples/single_loop.sass').split('\n').findIndex((l) => l.includes('/*0118*/')) + 1;
  const line = page.locator('#editor .cm-line').nth(lineNo - 1);
  await line.scrollIntoViewIfNeeded();
  const box = (await line.boundingBox())!;
  const gutter = (await page.locator('#editor .cm-bp-gutter').boundingBox())!;
  await page.mouse.click(gutter.x + gutter.width / 2, box.y + box.height / 2);
  await expect(page.locator('#editor .cm-bp-gutter .bp-dot')).toHaveCount(1);
  await page.getByTestId('btn-home').click();
  await page.getByTestId('btn-continue').click();
  await expect(page.getByTestId('banner').filter({ hasText: 'Stopped' })).toBeVisible();
  same(before, await geometry(page), 'a breakpoint stop');
  // The pager walks the notices (the stop and a link copied after it); "more" opens one over the
  // panels and Esc closes it.
  await page.getByTestId('copy-link').click();
  await expect(page.getByTestId('notice-count')).toHaveText(/of 2/);
  await page.getByTestId('notice-next').click();
  await expect(page.getByTestId('banner').filter({ hasText: 'Stopped' })).toBeVisible();

  await openExample(page, 'spin_lock.cu');
  // Once its run has ended (a C kernel's generated code takes its place in the dock first).
  await expect(page.getByTestId('run-stop')).toBeVisible();
  await expect(page.getByTestId('listing')).toBeVisible();
  // The editor's summary line follows the new kernel's diagnostics a moment later: measure once
  // the page has settled (two reads apart agree), so only the notice can move anything after.
  let spin = await geometry(page);
  for (let k = 0; k < 20; k++) {
    await page.waitForTimeout(150);
    const again = await geometry(page);
    if (JSON.stringify(again) === JSON.stringify(spin)) break;
    spin = again;
  }
  await page.getByTestId('notice-more').click();
  await expect(page.locator('.run-stop-text')).toBeInViewport();
  same(spin, await geometry(page), 'a deadlock opened in full');
  await page.keyboard.press('Escape');

  // A figure's "What to look at": the plot the note names stays uncovered, above the scrubber.
  await page.goto('about:blank');
  await open(page);
  await openFigure(page, 'bs-fig5', false);
  await expect(page.getByTestId('figure-note')).toBeVisible();
  const fig = await geometry(page);
  expectLaidOut(fig, 'the bs-fig5 figure note', ['plot']);

  // A broken link and the question a link asks over the user's own kernel.
  await page.goto('about:blank');
  await open(page, './#v1.q1YqSy0qzszPU7JSMlGyUiouSUzOTi0pLUlVqgUA');
  await expect(page.getByTestId('banner')).toBeVisible();
  expectLaidOut(await geometry(page), 'a broken link', ['cfg', 'stack', 'plot']);
  await page.getByTestId('editor-content').click();
  await page.keyboard.insertText('// mine\n');
  await page.waitForTimeout(400);
  await page.goto('about:blank');
  await open(page, `./${makeLink({ text: exampleText('examples/if_else.cu') })}`);
  await expect(page.getByTestId('link-question')).toBeVisible();
  expectLaidOut(await geometry(page), 'the link question', ['cfg', 'stack', 'plot']);
});

test('the share dialog builds an embed: panels, a slide size, the snippet and a live preview', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await open(page);
  await page.getByTestId('btn-share').click();
  const snippet = page.getByTestId('embed-snippet');
  await expect(snippet).toHaveValue(/^<iframe src="http:\/\/127\.0\.0\.1:\d+\/#v1\.[^"]+&amp;embed=caption,cfg,lanes,stack" width="800" height="450"/);
  await page.getByTestId('embed-panel-plot').check();
  await page.getByTestId('embed-size-640').check();
  await expect(snippet).toHaveValue(/&amp;embed=caption,cfg,lanes,stack,plot" width="640" height="360"/);
  // The preview is the embed itself, at the chosen size.
  const preview = page.frameLocator('[data-testid=embed-preview]');
  await expect(preview.getByTestId('caption')).toBeVisible();
  await expect(page.getByTestId('embed-preview')).toHaveAttribute('width', '640');
  // The link in the dialog opens the same state.
  const link = await page.getByTestId('share-link').inputValue();
  expect(link).toMatch(/#v1\./);
});

test('named layouts, closed panels and dragged borders are kept across a reload; presentation mode shows one panel', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await open(page);
  // Lecture: fewer groups, larger type.
  const groups = () => page.locator('#dock .dv-groupview').count();
  const study = await groups();
  await useLayout(page, 'lecture');
  await expect.poll(groups).toBeLessThan(study);
  await expect(page.locator('html')).toHaveAttribute('data-type', 'lecture');
  // The lecture's zoom and the dock's sizes settle over a few frames (a loaded run measured one
  // frame early once).
  await expect(async () => expectLaidOut(await geometry(page), 'lecture layout', ['caption', 'cfg', 'lanes', 'stack'])).toPass({ timeout: 3000 });
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-type', 'lecture');
  await useLayout(page, 'study');

  // Close the plot from its group's header; it stays closed after a reload; the menu brings it back.
  const plotGroup = page.locator('.dv-groupview', { has: page.locator('[data-dock-panel=plot]') });
  await plotGroup.getByTestId('panel-close').click();
  await expect(page.locator('[data-panel=plot]')).not.toBeAttached({ timeout: 2000 }).catch(() => {});
  expect(Object.keys((await geometry(page)).panels)).not.toContain('plot');
  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  expect(Object.keys((await geometry(page)).panels)).not.toContain('plot');
  await page.getByTestId('layout-menu').click();
  await page.getByTestId('show-plot').check();
  await expect.poll(async () => Object.keys((await geometry(page)).panels)).toContain('plot');

  // Drag the border between the first two columns; the new width is kept.
  const cfgX = (await geometry(page)).panels.cfg.x;
  const sash = page.locator('#dock .dv-sash').first();
  const s = (await sash.boundingBox())!;
  await page.mouse.move(s.x + s.width / 2, s.y + s.height / 2);
  await page.mouse.down();
  await page.mouse.move(s.x + s.width / 2 + 120, s.y + s.height / 2, { steps: 6 });
  await page.mouse.up();
  const moved = (await geometry(page)).panels.cfg.x;
  expect(Math.abs(moved - cfgX)).toBeGreaterThan(60);
  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await expect.poll(async () => Math.round((await geometry(page)).panels.cfg.x)).toBe(Math.round(moved));

  // Present the CFG: it takes the whole dock, in large type, the top bar gone; Esc ends it.
  const cfgGroup = page.locator('.dv-groupview', { has: page.locator('[data-dock-panel=cfg]') });
  await cfgGroup.getByTestId('panel-present').click();
  await expect(page.locator('html')).toHaveAttribute('data-presenting', 'cfg');
  await expect(page.locator('.topbar')).toBeHidden();
  const shown = await geometry(page);
  expect(shown.panels.cfg.w).toBeGreaterThan(1200);
  await expect(page.getByTestId('btn-step')).toBeInViewport();
  await page.keyboard.press('Escape');
  await expect(page.locator('html')).not.toHaveAttribute('data-presenting', /.*/);
  await expect(page.locator('.topbar')).toBeVisible();
});

test('typing goes on while the layout changes under it: a C kernel run for the first time brings its listing', async ({ page }) => {
  await open(page);
  // Figure 3 is a listing: the dock has no panel for generated code.
  await expect(page.getByTestId('listing')).toBeHidden();
  await page.getByTestId('editor-content').click();
  await page.keyboard.press('Control+a');
  await page.keyboard.insertText('__global__ void k(int* out) {\n    if (threadIdx.x < 16) out[threadIdx.x] = 1;\n}\n');
  // Its run ends and the dock is laid out again with the listing; the editor keeps the focus.
  await expect(page.getByTestId('listing')).toBeVisible();
  await expect(page.getByTestId('editor-content')).toBeFocused();
  await page.keyboard.type('// still typing');
  await expect(page.getByTestId('editor-content')).toContainText('}// still typing');
});

/** The titles of the tabs on screen that their strip shows only in part (cut by its edge). */
async function cutTabs(page: Page): Promise<string[]> {
  return page.locator('#dock .dv-tabs-container > .dv-tab').evaluateAll((tabs) => tabs.filter((t) => {
    const r = t.getBoundingClientRect();
    if (r.width === 0 || getComputedStyle(t).visibility === 'hidden') return false;
    const strip = t.closest('.dv-tabs-container')!.getBoundingClientRect();
    return r.left < strip.left - 0.5 || r.right > strip.right + 0.5;
  }).map((t) => t.textContent ?? ''));
}

test('no tab shows part of its title in any named layout at 1280x720 and 768x1024: the rest wait in the overflow menu', async ({ page }) => {
  for (const [w, h] of [[1280, 720], [768, 1024]] as const) {
    await page.setViewportSize({ width: w, height: h });
    await open(page);
    await openExample(page, 'double_loop.cu');
    // The generated code's tab comes once the kernel has run.
    await expect(page.locator('#dock .dv-tab', { hasText: 'Generated code' })).toBeAttached();
    for (const layout of ['study', 'lecture', 'research']) {
      await useLayout(page, layout);
      await expect.poll(() => cutTabs(page), `tabs cut in ${layout} at ${w}x${h}`).toEqual([]);
    }
  }
});

test('the research layout at 1280x720 keeps the stack history\'s depth labels apart and shows a useful number of registers', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await open(page);
  await useLayout(page, 'research');
  await openExample(page, 'double_loop.cu');
  await seek(page, 150);
  await expect(page.getByTestId('plot-svg')).toBeVisible();
  expect(await page.locator('#plot .depth-tick').count()).toBeGreaterThanOrEqual(2);
  expect(await overlapping(page, '#plot .depth-tick'), 'depth labels on top of each other').toEqual([]);
  // The registers (behind a tab when the screen is short) show rows enough to read (a variable's
  // row is its cells: the row itself is display: contents).
  await showTab(page, 'Registers');
  const rows = await page.locator('#registers').evaluate((el) => {
    const box = el.getBoundingClientRect();
    return [...el.querySelectorAll('.var > b, .reg')].filter((r) => {
      const b = r.getBoundingClientRect();
      return b.height > 0 && b.top >= box.top - 0.5 && b.bottom <= box.bottom + 0.5;
    }).length;
  });
  expect(rows, 'registers and variables in view').toBeGreaterThanOrEqual(6);
});

test('a caption longer than its panel says there is more: the lecture layout at 1280x720, the portrait layout at 768x1024', async ({ page }) => {
  for (const [w, h] of [[1280, 720], [768, 1024]] as const) {
    await page.setViewportSize({ width: w, height: h });
    await open(page, `./${makeLink({ text: exampleText('examples/fig3_walkthrough.sass'), step: 60 })}`);
    await useLayout(page, 'lecture');
    expect(await expectCaptionMore(page, `lecture at ${w}x${h}`), `the caption overflows at ${w}x${h}`).toBe(true);
  }
});
