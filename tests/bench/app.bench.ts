// The browser benchmarks behind docs/performance.md (`npm run bench:app`): measures and prints
// figures, asserts no timings. The engine alone comes from the benchmark page (bench.html); the
// app's own figures come from driving the built app as a user does: page load to interactive,
// scrubbing a run of over a million steps (seek plus redraw of every panel), and playing it at
// full speed (frames per second).

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';

interface Figure { name: string; value: number; unit: string }
const figures: Figure[] = [];
const add = (name: string, value: number, unit: string) => figures.push({ name, value, unit });

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))];

async function ready(page: Page): Promise<void> {
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
}

test.describe.configure({ mode: 'serial' });

test.afterAll(() => {
  const width = Math.max(...figures.map((f) => f.name.length));
  console.log(figures.map((f) => `${f.name.padEnd(width)}  ${f.value.toFixed(f.value < 10 ? 3 : 1)} ${f.unit}`).join('\n'));
  mkdirSync('target', { recursive: true });
  writeFileSync('target/browser-bench.json', JSON.stringify(figures, null, 2));
});

test('engine benchmark page', async ({ page }) => {
  await page.goto('./bench.html');
  await expect(page.locator('#status')).toHaveText('done', { timeout: 120_000 });
  const results = await page.evaluate(() => (window as unknown as { benchResults: Figure[] }).benchResults);
  for (const r of results) add(`engine: ${r.name}`, r.value, r.unit);
});

test('page interactive', async ({ page }) => {
  // A first visit (the default example), then reloads with a warm HTTP cache.
  const times: number[] = [];
  for (let i = 0; i < 7; i++) {
    if (i === 0) await page.goto('./'); else await page.reload();
    await ready(page);
    times.push(await page.evaluate(() => performance.getEntriesByName('warpscope:interactive')[0].startTime));
  }
  add('app: navigation to interactive, first load', times[0], 'ms');
  add('app: navigation to interactive, reload (median of 6)', median(times.slice(1)), 'ms');
});

test('scrubbing and playing a run of over a million steps', async ({ page }) => {
  // Not a first visit: the tour would cover the panels this drives.
  await page.addInitScript(() => localStorage.setItem('warpscope.toured.v1', '1'));
  await page.goto('./');
  await ready(page);
  // Load the long kernel as a user would: replace the editor's text.
  await page.getByTestId('editor-content').click();
  await page.keyboard.press('Control+a');
  await page.keyboard.insertText(readFileSync('tests/bench/long_run.sass', 'utf8'));
  await expect.poll(async () => Number(await page.getByTestId('step-label').getAttribute('data-total')), { timeout: 30_000 })
    .toBeGreaterThan(1_000_000);
  // Let the editor lose focus so the view follows the current instruction as it would.
  await page.locator('#cfg').click({ position: { x: 5, y: 5 } });

  // Seek: set the slider and fire its input event (the app's own handler seeks and redraws every
  // panel synchronously), then force style and layout. `toFrame` also waits for the next frame.
  const seek = await page.evaluate(async () => {
    const range = document.querySelector<HTMLInputElement>('[data-testid="scrubber"]')!;
    const total = Number(range.max);
    const js: number[] = [], toFrame: number[] = [];
    let x = 12345;
    for (let i = 0; i < 120; i++) {
      x = (x * 1103515245 + 12345) % 2147483648;
      const t0 = performance.now();
      range.value = String(x % total);
      range.dispatchEvent(new Event('input', { bubbles: true }));
      void document.body.getBoundingClientRect().height; // style + layout now
      js.push(performance.now() - t0);
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      toFrame.push(performance.now() - t0);
    }
    return { js, toFrame, total };
  });
  add('app: long run steps', seek.total, '');
  add('app: seek + redraw all panels + layout (median of 120)', median(seek.js), 'ms');
  add('app: seek + redraw all panels + layout (95th percentile)', quantile(seek.js, 0.95), 'ms');
  add('app: seek + redraw all panels + layout (max)', Math.max(...seek.js), 'ms');
  add('app: seek to the next frame painted (median)', median(seek.toFrame), 'ms');

  // Play at full speed from the start for 3 s: count animation frames and redrawn steps.
  await page.getByTestId('speed').selectOption('0');
  await page.getByTestId('btn-home').click();
  const play = await page.evaluate(async () => {
    const label = document.querySelector<HTMLElement>('[data-testid="step-label"]')!;
    const gaps: number[] = [];
    let frames = 0, last = 0;
    const start = performance.now();
    document.querySelector<HTMLButtonElement>('[data-testid="btn-play"]')!.click();
    const startStep = Number(label.dataset.step);
    await new Promise<void>((done) => {
      const tick = (t: number) => {
        if (last) gaps.push(t - last);
        last = t;
        frames++;
        if (performance.now() - start < 3000) requestAnimationFrame(tick); else done();
      };
      requestAnimationFrame(tick);
    });
    const seconds = (performance.now() - start) / 1000;
    document.querySelector<HTMLButtonElement>('[data-testid="btn-play"]')!.click();
    return { fps: frames / seconds, gaps, steps: Number(label.dataset.step) - startStep, seconds };
  });
  add('app: playing at max speed, frames per second', play.fps, 'fps');
  add('app: playing at max speed, longest frame', Math.max(...play.gaps), 'ms');
  add('app: playing at max speed, steps per second', play.steps / play.seconds, 'steps/s');
});

test('a figure sweep in the app (worker), from click to done', async ({ page }) => {
  // The 896-run sweep of the double loop under every model and preset, in the worker.
  await page.goto('./');
  await ready(page);
  await page.getByTestId('btn-examples').click();
  await page.getByTestId('example-double_loop.sass').click();
  await page.getByTestId('btn-sweep').click();
  for (const m of ['kepler', 'pdom', 'pdom-ssy', 'tf-stack', 'tf-sandy', 'volta', 'mimd']) await page.getByTestId(`sweep-models-${m}`).check();
  for (const p of ['kepler', 'maxwell', 'h100', 'tesla']) await page.getByTestId(`sweep-presets-${p}`).check();
  const start = Date.now();
  await page.getByTestId('sweep-run').click();
  await expect(page.getByTestId('sweep-progress')).toHaveAttribute('data-status', 'done', { timeout: 120_000 });
  add('app: double loop sweep, 896 runs (7 models x 4 presets x n = 0..31), click to done', Date.now() - start, 'ms');
  for (const id of ['bs-fig2', 'h100-double']) {
    await page.getByTestId('btn-examples').click();
    const t0 = Date.now();
    await page.getByTestId(`figure-${id}`).click();
    await expect(page.getByTestId('sweep-progress')).toHaveAttribute('data-status', 'done', { timeout: 60_000 });
    add(`app: figure ${id}, click to done`, Date.now() - t0, 'ms');
  }
});
