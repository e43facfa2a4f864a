// A kernel that does not compile says so plainly: a notice names the first error and what the
// views show, the summary under the editor's title opens the Problems panel, and each problem
// there puts the cursor on its line, even far down a long kernel.
import { expect, open, replaceText, test } from './helpers';

test('a failed compile names its first error, lists every problem, and jumps to each', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await open(page);
  await expect(page.getByTestId('compile-note')).toBeHidden();
  // A long kernel with errors on line 3 and far below (line 242): a run worked before, so the
  // views keep it and say so.
  const filler = Array.from({ length: 238 }, (_, i) => `NOP; // filler ${i}`);
  const text = ['//@ title Long kernel', 'IADD R1, R1, 0x1;', 'FROB R1, R2;', ...filler, 'BLORP R1;', 'EXIT;', ''].join('\n');
  expect(text.split('\n')[241]).toBe('BLORP R1;');
  await replaceText(page, text);
  const note = page.getByTestId('compile-note');
  await expect(note).toBeVisible();
  await expect(note).toContainText('The kernel does not compile (2 errors)');
  await expect(note).toContainText('the views show the last run that worked');
  await expect(page.getByTestId('first-error')).toContainText('line 3:');
  await expect(page.getByTestId('diag-summary')).toContainText('2 errors: showing the last run that worked · line 3:');
  // The last run's views are dimmed (the editor is not), so nobody takes them for this kernel.
  const opacity = (panel: string) => page.locator(`section[data-panel="${panel}"]`).evaluate((el) => Number(getComputedStyle(el).opacity));
  expect(await opacity('cfg')).toBeLessThan(0.5);
  expect(await opacity('lanes')).toBeLessThan(0.5);
  expect(await opacity('editor')).toBe(1);

  // The summary opens the list: errors in line order, each with its place and message.
  await page.getByTestId('diag-summary').click();
  const rows = page.getByTestId('problem');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toHaveAttribute('data-line', '3');
  await expect(rows.nth(1)).toHaveAttribute('data-line', '242');
  await expect(rows.nth(0)).toBeFocused();
  // A click puts the cursor on line 242, scrolled into view.
  await rows.nth(1).click();
  await expect(page.getByTestId('editor-content')).toBeFocused();
  const cursorLine = await page.evaluate(() => {
    const sel = window.getSelection();
    const line = sel?.anchorNode?.parentElement?.closest('.cm-line');
    return line ? [...document.querySelectorAll('#editor .cm-line')].indexOf(line) : -1;
  });
  expect(cursorLine).toBeGreaterThanOrEqual(0);
  await expect(page.locator('#editor .cm-line', { hasText: 'BLORP R1;' })).toBeInViewport();
  // "Show line" in the notice does the same for the first error.
  await page.getByTestId('first-error-show').click();
  await expect(page.locator('#editor .cm-line', { hasText: 'FROB R1, R2;' })).toBeInViewport();

  // Fixed: the notice goes, the panel says there is nothing to fix.
  await replaceText(page, '//@ title Fixed\nIADD R1, R1, 0x1;\nEXIT;\n');
  await expect(note).toBeHidden();
  await expect(page.getByTestId('diag-summary')).toBeHidden();
  expect(await opacity('cfg')).toBe(1);
  await expect(page.getByTestId('problems-none')).toBeAttached();
});

test('a kernel that never compiled says nothing runs until it does', async ({ page }) => {
  await open(page);
  await replaceText(page, '//@ title Broken from the start\nFROB R1, R2;\nEXIT;\n');
  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('compile-note')).toContainText('nothing runs until it does');
  await expect(page.getByTestId('diag-summary')).toContainText('1 error in the kernel: fix it to run it');
});
