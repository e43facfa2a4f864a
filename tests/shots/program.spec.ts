// A whole program pasted (examples/programs/bfs.cu): its output, its launches and the inputs
// main() gave the launch shown, at the sizes users have; asserts nothing (`npm run shots`).
import { readFileSync } from 'node:fs';
import { open, replaceText, showTab, test } from '../helpers';

const out = process.env.SHOTS_DIR ?? '/tmp/shots';

test('a whole program: its output, launches and inputs', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await open(page);
  await replaceText(page, readFileSync('examples/programs/bfs.cu', 'utf8'));
  await page.waitForTimeout(2000);
  for (const [w, h] of [[1280, 720], [1920, 1080], [768, 1024]]) {
    await page.setViewportSize({ width: w, height: h });
    await showTab(page, 'Output');
    await page.getByTestId('program-output').waitFor();
    await page.screenshot({ path: `${out}/program-output-${w}x${h}.png` });
    await showTab(page, 'Kernel inputs');
    await page.getByTestId('launch-picker').selectOption('3');
    await page.waitForTimeout(800);
    await page.screenshot({ path: `${out}/program-inputs-${w}x${h}.png` });
  }
});

test('a whole program embedded: its launch, the CFG and its output', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await open(page);
  await replaceText(page, readFileSync('examples/programs/bfs.cu', 'utf8'));
  await showTab(page, 'Kernel inputs');
  await page.getByTestId('launch-picker').selectOption('2');
  await page.waitForTimeout(1000);
  await page.getByTestId('copy-link').click();
  const link = await page.getByTestId('copy-link').getAttribute('data-link');
  for (const [w, h] of [[800, 450], [640, 360]]) {
    await page.setViewportSize({ width: w, height: h });
    await open(page, `${link}&embed=cfg,output`);
    await page.keyboard.press('End');
    await page.waitForTimeout(1500);
    await page.screenshot({ path: `${out}/program-embed-${w}x${h}.png` });
  }
});
