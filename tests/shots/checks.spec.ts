// The checks in the Problems panel, at the sizes users have: a buggy program's findings
// (examples/sanitizer/transpose_stale_tile.cu); asserts nothing (`npm run shots`).
import { readFileSync } from 'node:fs';
import { open, replaceText, showTab, test } from '../helpers';

const out = process.env.SHOTS_DIR ?? '/tmp/shots';

test('the checks of a buggy program', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await open(page);
  await replaceText(page, readFileSync('examples/sanitizer/transpose_stale_tile.cu', 'utf8'));
  await page.waitForTimeout(1500);
  await showTab(page, 'Problems');
  await page.getByTestId('checks-run').click();
  await page.getByTestId('checks-summary').waitFor();
  for (const [w, h] of [[1280, 720], [1920, 1080], [768, 1024]]) {
    await page.setViewportSize({ width: w, height: h });
    await page.waitForTimeout(500);
    await page.screenshot({ path: `${out}/checks-${w}x${h}.png` });
    // The panel presented, as a class would read the findings.
    await page.locator('.dv-groupview', { has: page.locator('[data-dock-panel=problems]') }).getByTestId('panel-present').click();
    await page.waitForTimeout(500);
    await page.screenshot({ path: `${out}/checks-presented-${w}x${h}.png` });
    await page.keyboard.press('Escape');
  }
});
