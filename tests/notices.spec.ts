// The notice strip's notices leave when they are no longer news: a brief one (a link copied, a
// stop at a breakpoint) after a few seconds or at the next step or choice; a figure's "What to
// look at" with its kernel or its mode. Then the line names the kernel and how its run ended.
import { expect, open, openFigure, replaceText, test } from './helpers';

const brief = (page: import('@playwright/test').Page) => page.getByTestId('banner');

test('brief notices leave at the next step, or by themselves; the line then names the kernel and its run\'s end', async ({ page }) => {
  await open(page);
  const idle = page.getByTestId('kernel-title');
  await expect(idle).toBeVisible();
  // Copied: the next step sends it away, and the kernel's line is back.
  await page.getByTestId('copy-link').click();
  await expect(brief(page)).toBeVisible();
  await expect(idle).toBeHidden();
  await page.getByTestId('btn-step').click();
  await expect(brief(page)).toHaveCount(0);
  await expect(idle).toHaveText(/Figure 3/);
  await expect(page.getByTestId('run-end')).toHaveText(/\d+ steps, all lanes exited/);
  // Copied again, with nothing done after it: gone after a few seconds (the page's clock run on).
  await page.clock.install();
  await page.getByTestId('copy-link').click();
  await expect(brief(page)).toBeVisible();
  await page.clock.runFor(3000);
  await expect(brief(page), 'still there after 3 s').toBeVisible();
  await page.clock.runFor(4000);
  await expect(brief(page)).toHaveCount(0);
  await expect(idle).toBeVisible();
});

test('a stop at a breakpoint leaves when the run goes on to its end', async ({ page }) => {
  await open(page);
  // A breakpoint on the loop's branch (a click on its line in the graph), then run to it.
  await page.locator('.instr-row').filter({ has: page.locator('text.instr', { hasText: /^0118\s/ }) }).click();
  await page.getByTestId('btn-home').click();
  await page.getByTestId('btn-continue').click();
  await expect(brief(page).filter({ hasText: 'Stopped: breakpoint at' })).toBeVisible();
  await page.getByTestId('btn-end').click();
  await expect(brief(page)).toHaveCount(0);
  await expect(page.getByTestId('run-end')).toBeVisible();
});

test('a figure\'s "What to look at" leaves with its sweep, and with its kernel', async ({ page }) => {
  await open(page);
  const note = page.getByTestId('figure-note');
  await openFigure(page, 'bs-fig1', true);
  await expect(note).toBeVisible();
  await page.getByTestId('btn-sweep').click();
  await expect(note).toBeHidden();
  await openFigure(page, 'bs-fig5', false);
  await expect(note).toBeVisible();
  await replaceText(page, '//@ title Another kernel\nIADD R1, R1, 0x1;\nEXIT;\n');
  await expect(page.getByTestId('kernel-title')).toHaveText('Another kernel');
  await expect(note).toBeHidden();
});
