// The page both seek scripts measure: the app at `url` in a Chromium of its own, the 10 M-step run
// of tests/bench/endless_loop.cu loaded, the editor unfocused so the view follows the current
// instruction. Returns the browser and the page.
import { readFileSync } from 'node:fs';
import { chromium } from '@playwright/test';

const kernel = readFileSync(new URL('../tests/bench/endless_loop.cu', import.meta.url), 'utf8');

export async function openTenMillion(url) {
  // A browser each: Chromium runs a tab that is not in front at a lower priority.
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  await page.addInitScript(() => localStorage.setItem('warpscope.toured.v1', '1'));
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]');
  await page.getByTestId('editor-content').click();
  await page.keyboard.press('Control+a');
  await page.keyboard.insertText(kernel);
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="step-label"]')?.getAttribute('data-total')) >= 10_000_000,
    null, { timeout: 180_000, polling: 100 });
  await page.locator('#cfg').click({ position: { x: 5, y: 5 } });
  return { browser, page };
}
