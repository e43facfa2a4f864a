import { exampleText, expect, markedInView, open, openCopiedLink, openExample, replaceText, seek, showTab, test } from './helpers';
import { makeLink } from './link-maker';

test('a permalink round-trips the exact state', async ({ page, browser }) => {
  await open(page);
  await openExample(page, 'single_loop.sass');
  await page.getByTestId('editor-content').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.insertText('\n// marker: permalink test');
  await expect(page.getByTestId('diag-summary')).toHaveText('');
  await page.getByTestId('param-n').fill('3');
  await page.getByTestId('preset').selectOption('maxwell');
  await seek(page, 131);
  await page.getByTestId('lane-select').fill('30');
  await page.getByTestId('lane-select').press('Enter');
  await expect(page.getByTestId('lane-select')).toHaveValue('30');
  const totalSteps = await page.getByTestId('step-label').getAttribute('data-total');
  const stack = await page.getByTestId('stack-entry').evaluateAll((els) => els.map((e) => e.textContent));
  // A fresh browser context: no saved work, only the link.
  const { other, ctx, problems } = await openCopiedLink(page, browser);
  await expect(other.getByTestId('step-label')).toHaveAttribute('data-step', '131');
  await expect(other.getByTestId('step-label')).toHaveAttribute('data-total', totalSteps!);
  await expect(other.getByTestId('param-n')).toHaveValue('3');
  await expect(other.getByTestId('preset')).toHaveValue('maxwell');
  await expect(other.getByTestId('lane-select')).toHaveValue('30');
  await expect(other.getByTestId('editor-content')).toContainText('marker: permalink test');
  expect(await other.getByTestId('stack-entry').evaluateAll((els) => els.map((e) => e.textContent))).toEqual(stack);
  expect(problems).toEqual([]);
  await ctx.close();
});

test('a corrupted, truncated or future link says so and leaves a usable editor', async ({ page }) => {
  await open(page, './#v1.q1YqSy0qzszPU7JSMlGyUiouSUzOTi0pLUlVqgUA');
  await expect(page.getByTestId('banner')).toContainText(/corrupted|cannot be opened/);
  await expect(page.getByTestId('kernel-title')).toContainText('Figure 3');
  // The same page with another fragment: read in place (a hashchange), each with its own message.
  await page.goto('./#v1.%%%');
  await expect(page.getByTestId('banner').filter({ hasText: 'corrupted: its data is not valid base64url' })).toHaveCount(1);
  await page.goto('./#v2.AAAA');
  await expect(page.getByTestId('banner').filter({ hasText: 'format v2' })).toHaveCount(1);
  // The editor still works: an edit runs.
  await replaceText(page, '//@ title still usable\nIADD R1, R1, 0x1;\nEXIT;\n');
  await expect(page.getByTestId('kernel-title')).toHaveText('still usable');
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-total', '2');
});

test('a kernel containing markup shows it as text and runs no script', async ({ page }) => {
  await open(page);
  const evil = '<img src=x onerror=alert(1)>';
  await replaceText(page, `//@ title ${evil}\n//@ about ${evil}\n//@ note step 1: ${evil}\nIADD R1, R1, 0x1;\n${evil}\nEXIT;\n`);
  await expect(page.getByTestId('diag-summary')).toContainText('error');
  // Fix the bad line: the note shows as a caption, the title as text.
  await replaceText(page, `//@ title ${evil}\n//@ note step 1: ${evil}\nIADD R1, R1, 0x1; // ${evil}\nEXIT;\n`);
  await expect(page.getByTestId('kernel-title')).toHaveText(evil);
  await seek(page, 1);
  await expect(page.getByTestId('caption')).toHaveText(evil);
  await expect(page.locator('img')).toHaveCount(0);
  await page.getByTestId('btn-examples').click();
  await expect(page.locator('#gallery img')).toHaveCount(0);
});

test('a reload keeps unsaved edits', async ({ page }) => {
  await open(page);
  await page.getByTestId('editor-content').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.insertText('\n// my unsaved edit');
  await page.getByTestId('param-n').fill('4');
  await page.waitForTimeout(500);
  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  // The editor draws only the lines near its view: go to the end, where the edit was made.
  await page.getByTestId('editor-content').click();
  await page.keyboard.press('Control+End');
  await expect(page.getByTestId('editor-content')).toContainText('my unsaved edit');
  await expect(page.getByTestId('param-n')).toHaveValue('4');
});

test('embed mode shows only the chosen panels with a read-only editor', async ({ page }) => {
  await open(page);
  await page.getByTestId('copy-link').click();
  await expect(page.getByTestId('copy-link')).toHaveAttribute('data-link', /#v1\./);
  const link = await page.getByTestId('copy-link').getAttribute('data-link');
  await open(page, `${link}&embed=editor,cfg,stack`);
  await expect(page.locator('[data-panel=cfg]')).toBeVisible();
  await expect(page.locator('[data-panel=stack]')).toBeVisible();
  await expect(page.locator('[data-panel=lanes]')).toBeHidden();
  await expect(page.locator('[data-panel=plot]')).toBeHidden();
  await expect(page.getByTestId('editor-content')).toHaveAttribute('contenteditable', 'false');
  await page.keyboard.press('End');
  await expect(page.getByTestId('step-label')).not.toHaveAttribute('data-step', '0');
});

test('a link to a late step: each code tab shown after it opens has the step\'s lines in view', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const link = makeLink({
    text: exampleText('examples/sass/hovland_paths.sm_90.sass'), step: 50,
    ptx: exampleText('examples/ptx/hovland_paths.ptx'), cuda: exampleText('examples/hovland_paths.cu'),
  });
  await open(page, link);
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-step', '50');
  // Behind the CUDA source tab when the link opened: they could not scroll then.
  for (const [title, host] of [['PTX', '#ptx'], ['Generated code', '#listing']]) {
    await showTab(page, title);
    await expect.poll(() => markedInView(page, host, 'current-line'), `${title}: the current line in view`).toBe(true);
  }
});
