// The page the seek scripts measure: the app at `url` in a Chromium of its own, the 10 M-step run
// of tests/bench/endless_loop.cu loaded, the editor unfocused so the view follows the current
// instruction (`openTenMillion`); and random seeks through its scrubber (`randomSeeks`).
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

/** `count` seeks to random steps through the scrubber, one a frame, the same steps every time.
 * With `forceLayout`, a listener after the app's forces style and layout inside each seek's
 * input event (so a trace of the event holds them). */
export function randomSeeks(page, count, forceLayout = false) {
  return page.evaluate(async ([count, forceLayout]) => {
    const range = document.querySelector('[data-testid="scrubber"]');
    if (forceLayout && !range.dataset.traced) {
      range.addEventListener('input', () => void document.body.getBoundingClientRect().height);
      range.dataset.traced = '1';
    }
    const total = Number(range.max);
    let x = 4242;
    for (let i = 0; i < count; i++) {
      x = (x * 1103515245 + 12345) % 2147483648;
      range.value = String(x % total);
      range.dispatchEvent(new Event('input', { bubbles: true }));
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    }
  }, [count, forceLayout]);
}
