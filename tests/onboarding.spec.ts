// Onboarding: the first-visit tour (only on a first, plain visit; each callout beside its panel
// and inside the window; Next, Back, Skip, Esc; focus back where it was) and the help dialog
// (the panels, the glossary from the engine with each model's words, the stack legend opening it
// at the same words). Screenshots go to SHOTS_DIR (/tmp/shots) for a human to look at.
import { mkdirSync } from 'node:fs';
import { expect, exampleText, open, openExample, seek, test, TOURED_KEY, type Box } from './helpers';
import { makeLink } from './link-maker';
import type { Page } from '@playwright/test';

const dir = process.env.SHOTS_DIR ?? '/tmp/shots';
mkdirSync(dir, { recursive: true });

const SIZES = [{ width: 1280, height: 720 }, { width: 768, height: 1024 }];
const tour = (page: Page) => page.getByTestId('tour');

async function box(page: Page, selector: string): Promise<Box> {
  return page.locator(selector).evaluate((el) => { const r = el.getBoundingClientRect(); return { x: r.x, y: r.y, w: r.width, h: r.height }; });
}

const inside = (b: Box, w: number, h: number) => b.x >= 0 && b.y >= 0 && b.x + b.w <= w + 0.5 && b.y + b.h <= h + 0.5;

test.describe('the first-visit tour', () => {
  test.use({ toured: false });

  for (const size of SIZES) {
    test(`appears on a first visit at ${size.width}x${size.height}, steps through the page inside the window and ends`, async ({ page }) => {
      await page.setViewportSize(size);
      await open(page);
      await expect(tour(page)).toBeVisible();
      await expect(tour(page)).toHaveAttribute('aria-labelledby', 'tour-title');
      await expect(page.getByTestId('tour-next')).toBeFocused();
      await expect(page.getByTestId('tour-back')).toBeDisabled();
      const titles: string[] = [];
      for (let i = 0; i < 7; i++) {
        const title = await page.locator('#tour-title').textContent();
        titles.push(title!);
        // The callout sits beside its target, inside the window, and the ring is on the target.
        const callout = await box(page, '[data-testid="tour"]');
        expect(inside(callout, size.width, size.height), `${title} inside the window`).toBe(true);
        await page.screenshot({ path: `${dir}/tour-${i + 1}-${size.width}x${size.height}.png` });
        const next = page.getByTestId('tour-next');
        if ((await next.textContent()) === 'Done') break;
        await next.click();
      }
      expect(titles).toEqual(['The kernel', 'The control-flow graph', 'The lanes', 'The reconvergence stack', 'The stack history', 'Step through the run', 'Examples and help']);
      await page.getByTestId('tour-next').click();
      await expect(tour(page)).toHaveCount(0);
      expect(await page.evaluate((k) => localStorage.getItem(k), TOURED_KEY)).toBe('1');
      // The second visit has no tour.
      await page.reload();
      await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
      await page.waitForTimeout(300);
      await expect(tour(page)).toHaveCount(0);
    });
  }

  test('brings a panel behind a tab forward, goes back, and Esc skips it with the focus back where it was', async ({ page }) => {
    await page.setViewportSize({ width: 768, height: 1024 });
    await open(page);
    await expect(tour(page)).toBeVisible();
    await page.getByTestId('tour-next').click();
    await page.getByTestId('tour-next').click();
    await expect(page.locator('#tour-title')).toHaveText('The lanes');
    await expect(page.locator('#dock [data-panel="lanes"]')).toBeVisible();
    await page.getByTestId('tour-back').click();
    await expect(page.locator('#tour-title')).toHaveText('The control-flow graph');
    await expect(page.locator('#dock [data-panel="cfg"]')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(tour(page)).toHaveCount(0);
    // Started again from the help: the focus goes back to the page, and Skip ends it.
    await page.locator('#btn-help').click();
    await page.getByTestId('take-tour').click();
    await expect(page.getByTestId('help')).toBeHidden();
    await expect(tour(page)).toBeVisible();
    await page.getByTestId('tour-skip').click();
    await expect(tour(page)).toHaveCount(0);
    await expect(page.locator('#btn-help')).toBeFocused();
  });

  test('ends when the visitor takes over: Examples, a kernel and a model change go on without it', async ({ page }) => {
    await open(page);
    await expect(tour(page)).toBeVisible();
    // A click in the callout is the tour's own.
    await page.getByTestId('tour-next').click();
    await expect(page.locator('#tour-title')).toHaveText('The control-flow graph');
    // A click anywhere else ends it, and still does what it does.
    await page.getByTestId('btn-examples').click();
    await expect(tour(page)).toHaveCount(0);
    await expect(page.locator('.tour-ring')).toHaveCount(0);
    await page.getByTestId('example-if_else.cu').click();
    await expect(page.getByTestId('step-label')).toHaveAttribute('data-step', '0');
    await page.getByTestId('model').selectOption('volta');
    await expect(tour(page)).toHaveCount(0);
    expect(await page.evaluate((k) => localStorage.getItem(k), TOURED_KEY)).toBe('1');
  });

  test('skips a panel the user closed', async ({ page }) => {
    await open(page);
    await page.getByTestId('tour-skip').click();
    await page.getByTestId('layout-menu').click();
    await page.getByTestId('show-plot').uncheck();
    await page.keyboard.press('Escape');
    await page.locator('#btn-help').click();
    await page.getByTestId('take-tour').click();
    const titles: string[] = [];
    for (;;) {
      titles.push((await page.locator('#tour-title').textContent())!);
      const next = page.getByTestId('tour-next');
      const done = (await next.textContent()) === 'Done';
      await next.click();
      if (done) break;
    }
    expect(titles).not.toContain('The stack history');
    expect(titles).toHaveLength(6);
    await expect(tour(page)).toHaveCount(0);
  });

  test('never appears for a link, an embed, or someone with saved work', async ({ page }) => {
    const text = exampleText('examples/if_else.sass');
    for (const url of [`./${makeLink({ text })}`, `./${makeLink({ text, embed: ['editor', 'cfg', 'stack'] })}`]) {
      await page.goto('about:blank');
      await open(page, url);
      await page.waitForTimeout(300);
      await expect(tour(page), url).toHaveCount(0);
      expect(await page.evaluate((k) => localStorage.getItem(k), TOURED_KEY)).toBeNull();
    }
    await page.evaluate(() => { localStorage.clear(); localStorage.setItem('warpscope.work.v1', '{}'); });
    await page.goto('about:blank');
    await open(page);
    await page.waitForTimeout(300);
    await expect(tour(page)).toHaveCount(0);
  });
});

test.describe('the help', () => {
  test('shows the panels, the glossary with each model\'s words first, and the shortcuts', async ({ page }) => {
    await open(page);
    await openExample(page, 'if_else.sass');
    await page.keyboard.press('?');
    const help = page.getByTestId('help');
    await expect(help).toBeVisible();
    await expect(help.getByTestId('help-panels')).toContainText('Control-flow graph');
    await expect(help.getByTestId('help-panels')).toContainText('Reconvergence stack');
    // Pasting a kernel: what runs, what is made for it, and that a block barrier is this warp's alone.
    await expect(help.getByTestId('help-own-kernel')).toContainText('`__syncthreads()` is a barrier for this warp alone'.replace(/`/g, ''));
    await expect(help.getByTestId('help-shortcuts')).toContainText('next / previous divergence');
    const current = help.locator('.glossary-section.current');
    await expect(current.locator('h4')).toHaveText('Words of kepler');
    for (const word of ['SSY', 'SYNC', '.S', 'DIV', 'PBK', 'BRK']) {
      await expect(current.locator(`[data-word="${word}"]`).first(), word).toHaveAttribute('data-models', /\bkepler\b/);
    }
    await expect(current.locator('[data-word="BSSY"]')).toHaveCount(0);
    const volta = help.locator('.glossary-section[data-models="volta"]');
    for (const word of ['BSSY', 'BSYNC', 'WARPSYNC', 'BSYNC Bn', 'Bn']) await expect(volta.locator(`[data-word="${word}"]`), word).toHaveAttribute('data-models', 'volta');
    // The filter keeps only matching words.
    await help.getByTestId('glossary-filter').fill('BSYNC');
    await expect(volta.locator('[data-word="BSYNC"]')).toBeVisible();
    await expect(current.locator('[data-word="DIV"]')).toBeHidden();
    // ? is typed into the filter, not a toggle; Esc clears the filter, then closes.
    await page.keyboard.press('?');
    await expect(help.getByTestId('glossary-filter')).toHaveValue('BSYNC?');
    await page.keyboard.press('Escape');
    await expect(help.getByTestId('glossary-filter')).toHaveValue('');
    await page.keyboard.press('Escape');
    await expect(help).toBeHidden();
    // Under volta its words come first.
    await page.getByTestId('model').selectOption('volta');
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('?');
    await expect(help.locator('.glossary-section.current [data-word="BSSY"]')).toBeVisible();
    await expect(help.locator('.glossary-section.current [data-word="DIV"]')).toHaveCount(0);
    await page.keyboard.press('?');
    await expect(help).toBeHidden();
  });

  test('the stack legend says what a word means on focus and opens the glossary at the same words', async ({ page }) => {
    await open(page);
    await openExample(page, 'if_else.sass');
    await seek(page, 7);
    const entry = page.locator('#stack [data-testid="stack-entry"][data-kind="DIV"]');
    const title = (await entry.getAttribute('title'))!;
    const meaning = title.split('\n')[0].replace(/^DIV: /, '');
    const item = page.locator('#stack [data-testid="stack-legend-item"][data-term="DIV"]');
    await item.focus();
    await expect(page.getByTestId('stack-meaning')).toHaveText(`DIV: ${meaning}`);
    await page.screenshot({ path: `${dir}/stack-legend-focus.png` });
    // Stepping redraws the panel; the focused legend item keeps the focus.
    await page.keyboard.press('ArrowRight');
    await expect(page.getByTestId('step-label')).toHaveAttribute('data-step', '8');
    await page.keyboard.press('Enter');
    const help = page.getByTestId('help');
    await expect(help).toBeVisible();
    const term = help.locator('.glossary-section.current .glossary-term[data-word="DIV"]');
    await expect(term).toBeFocused();
    await expect(term.locator('.glossary-meaning')).toHaveText(meaning);
    await page.screenshot({ path: `${dir}/help-at-div.png` });
  });

  for (const size of SIZES) {
    test(`is readable at ${size.width}x${size.height}: it scrolls inside, and its parts are one click away`, async ({ page }) => {
      await page.setViewportSize(size);
      await open(page);
      await page.locator('#btn-help').click();
      const help = page.getByTestId('help');
      const b = await box(page, '[data-testid="help"]');
      expect(inside(b, size.width, size.height)).toBe(true);
      await page.screenshot({ path: `${dir}/help-${size.width}x${size.height}.png` });
      await help.getByRole('button', { name: 'Glossary' }).click();
      await expect(help.locator('#help-glossary-title')).toBeInViewport();
      await expect(help.locator('#help-glossary-title')).toBeFocused();
      await page.screenshot({ path: `${dir}/help-glossary-${size.width}x${size.height}.png` });
      await help.getByRole('button', { name: 'Keyboard shortcuts' }).click();
      await expect(help.locator('#help-shortcuts-title')).toBeInViewport();
      // The header with its buttons stays on screen.
      await expect(help.getByTestId('take-tour')).toBeInViewport();
    });
  }
});
