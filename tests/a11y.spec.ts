// Accessibility: axe-core (the engine behind Lighthouse and the browsers' audits) over every mode
// of the page (one run, compare, sweep, the gallery, help, the share dialog, an embed), with no
// serious or critical finding; and the controls reachable from the keyboard.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { exampleText, expect, open, openExample, showTab, test, useLayout } from './helpers';
import { makeLink } from './link-maker';

/** The serious and critical findings on the page as it is, one line each (rule, what, where). */
async function findings(page: Page): Promise<string[]> {
  const r = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${v.help} at ${n.target.join(' ')}`));
}

for (const [w, h] of [[1280, 720], [768, 1024]] as const) {
  test(`no serious accessibility findings in any mode at ${w}x${h}`, async ({ page }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width: w, height: h });
    await open(page);
    expect(await findings(page), 'one run (the default example)').toEqual([]);
    await openExample(page, 'double_loop.cu');
    await page.getByTestId('scrubber').fill('150');
    expect(await findings(page), 'a C kernel with its generated code').toEqual([]);
    await showTab(page, 'Kernel inputs');
    await expect(page.getByTestId('ki-launch')).toBeVisible();
    expect(await findings(page), 'the kernel inputs panel').toEqual([]);
    await page.getByTestId('btn-compare').click();
    await expect(page.getByTestId('compare-table')).toBeVisible();
    expect(await findings(page), 'compare mode').toEqual([]);
    await page.getByTestId('btn-compare').click();
    await page.getByTestId('btn-sweep').click();
    await expect(page.getByTestId('sweep-view')).toBeVisible();
    expect(await findings(page), 'sweep mode').toEqual([]);
    await page.getByTestId('btn-sweep').click();
    // The dialogs and menus are the same at any size: checked once, at the projector's.
    if (w !== 1280) return;
    await page.getByTestId('btn-examples').click();
    expect(await findings(page), 'the gallery').toEqual([]);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'help' }).click();
    expect(await findings(page), 'help').toEqual([]);
    await page.keyboard.press('Escape');
    await page.getByTestId('btn-share').click();
    await expect(page.getByTestId('embed-snippet')).not.toHaveValue('');
    expect(await findings(page), 'the share dialog').toEqual([]);
    await page.keyboard.press('Escape');
    await page.getByTestId('layout-menu').click();
    expect(await findings(page), 'the layout menu').toEqual([]);
  });
}

test('no serious accessibility findings in embeds, in the lecture and research layouts, nor with notices showing', async ({ page }) => {
  test.setTimeout(60_000);
  const link = makeLink({ text: exampleText('examples/fig3_walkthrough.sass'), step: 60 });
  for (const [w, h] of [[800, 450], [640, 360]] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.goto('about:blank');
    await open(page, `./${link}&embed=caption,cfg,lanes,stack,plot`);
    expect(await findings(page), `an embed at ${w}x${h}`).toEqual([]);
  }
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('about:blank');
  await open(page);
  for (const layout of ['lecture', 'research']) {
    await useLayout(page, layout);
    await openExample(page, 'double_loop.cu');
    await page.getByTestId('scrubber').fill('150');
    expect(await findings(page), `the ${layout} layout`).toEqual([]);
  }
  await page.goto('about:blank');
  await open(page, './#v1.q1YqSy0qzszPU7JSMlGyUiouSUzOTi0pLUlVqgUA');
  await expect(page.getByTestId('banner')).toBeVisible();
  await openExample(page, 'spin_lock.cu');
  await expect(page.getByTestId('run-stop')).toBeVisible();
  expect(await findings(page), 'a banner and a deadlock notice').toEqual([]);
});

test('every control is reachable from the keyboard, and the panels that scroll take the focus', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await open(page);
  // Tab through the page: every button, field and menu of the top bar, the panels' tools and the
  // scrubber come in turn.
  const reached = new Set<string>();
  for (let i = 0; i < 120; i++) {
    await page.keyboard.press('Tab');
    const id = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return el?.dataset.testid ?? el?.getAttribute('aria-label') ?? el?.id ?? '';
    });
    if (id) reached.add(id);
  }
  for (const id of ['btn-examples', 'btn-compare', 'btn-sweep', 'copy-link', 'btn-share', 'layout-menu', 'settings', 'export-menu',
    'panel-info', 'panel-present', 'scrubber', 'btn-play', 'speed']) {
    expect([...reached], `${id} reached by Tab`).toContain(id);
  }
  // The panels whose content scrolls can be scrolled from the keyboard: they take the focus.
  for (const sel of ['#metrics', '#stack', '#caption']) {
    await expect(page.locator(sel), `${sel} focusable`).toHaveAttribute('tabindex', '0');
  }
});
