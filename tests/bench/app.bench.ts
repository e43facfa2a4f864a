// The browser benchmarks behind docs/performance.md (`npm run bench:app`): measures and prints
// figures, asserts no timings. The engine alone comes from the benchmark page (bench.html); the
// app's own figures come from driving the built app as a user does: page load to interactive,
// scrubbing runs of 1.56 M and 10 M steps (seek plus redraw of every panel), playing the first at
// full speed (frames per second), and the renderer's memory after a 50 M-step run.
// `BENCH_PROFILE=1` also writes a CPU profile (CDP sampling) of the 10 M-step run's seeks to
// target/seek-10m.cpuprofile (build with `npx vite build --minify false` to read its names).

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { expect, test, type Browser, type Page } from '@playwright/test';

interface Figure { name: string; value: number; unit: string }
const figures: Figure[] = [];
const add = (name: string, value: number, unit: string) => figures.push({ name, value, unit });

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))];

async function ready(page: Page): Promise<void> {
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
}

/** Opens the app as a returning visitor (the tour would cover the panels this drives). */
async function openApp(page: Page): Promise<void> {
  await page.addInitScript(() => localStorage.setItem('warpscope.toured.v1', '1'));
  await page.goto('./');
  await ready(page);
}

/** Loads `file` as a user would (replacing the editor's text) and waits until its run of
 * `steps` steps is loaded; returns the milliseconds from the edit to then. */
async function loadKernel(page: Page, file: string, steps: number): Promise<number> {
  await page.getByTestId('editor-content').click();
  await page.keyboard.press('Control+a');
  const start = Date.now();
  await page.keyboard.insertText(readFileSync(file, 'utf8'));
  await expect.poll(async () => Number(await page.getByTestId('step-label').getAttribute('data-total')), { timeout: 120_000, intervals: [50] })
    .toBeGreaterThanOrEqual(steps);
  const ms = Date.now() - start;
  // Let the editor lose focus so the view follows the current instruction as it would.
  await page.locator('#cfg').click({ position: { x: 5, y: 5 } });
  return ms;
}

/** Seeks to `count` random steps as the scrubber does: sets the slider and fires its input event
 * (the app's own handler seeks and redraws every panel synchronously), then forces style and
 * layout. `js` is that; `toFrame` also waits for the next frame. */
function scrub(page: Page, count: number): Promise<{ js: number[]; toFrame: number[]; total: number }> {
  return page.evaluate(async (count) => {
    const range = document.querySelector<HTMLInputElement>('[data-testid="scrubber"]')!;
    const total = Number(range.max);
    const js: number[] = [], toFrame: number[] = [];
    let x = 12345;
    for (let i = 0; i < count; i++) {
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
  }, count);
}

function addSeeks(what: string, seek: { js: number[]; toFrame: number[]; total: number }): void {
  add(`app: ${what} steps`, seek.total, '');
  add(`app: ${what}: seek + redraw all panels + layout (median of ${seek.js.length})`, median(seek.js), 'ms');
  add(`app: ${what}: seek + redraw all panels + layout (95th percentile)`, quantile(seek.js, 0.95), 'ms');
  add(`app: ${what}: seek + redraw all panels + layout (max)`, Math.max(...seek.js), 'ms');
  add(`app: ${what}: seek to the next frame painted (median)`, median(seek.toFrame), 'ms');
}

/** Peak and current resident memory of the largest renderer process (Linux: /proc). The page's
 * wasm memory, typed arrays and workers all live in its renderer. */
async function rendererMemory(browser: Browser): Promise<{ peak: number; now: number }> {
  const cdp = await browser.newBrowserCDPSession();
  const { processInfo } = await cdp.send('SystemInfo.getProcessInfo') as { processInfo: { type: string; id: number }[] };
  await cdp.detach();
  let best = { peak: 0, now: 0 };
  for (const p of processInfo.filter((p) => p.type === 'renderer')) {
    const status = readFileSync(`/proc/${p.id}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
    if (kb('VmHWM') > best.peak) best = { peak: kb('VmHWM'), now: kb('VmRSS') };
  }
  return best;
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
  await openApp(page);
  await loadKernel(page, 'tests/bench/long_run.sass', 1_000_000);
  addSeeks('long run', await scrub(page, 120));

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

test('scrubbing a 10 M-step run (an endless loop at the default step limit)', async ({ page, browser }) => {
  await openApp(page);
  add('app: 10 M-step run: edit to loaded', await loadKernel(page, 'tests/bench/endless_loop.cu', 10_000_000), 'ms');
  const profile = process.env.BENCH_PROFILE ? await page.context().newCDPSession(page) : null;
  if (profile) {
    await profile.send('Profiler.enable');
    await profile.send('Profiler.setSamplingInterval', { interval: 100 });
    await profile.send('Profiler.start');
  }
  addSeeks('10 M-step run', await scrub(page, 120));
  if (profile) {
    const { profile: p } = await profile.send('Profiler.stop');
    mkdirSync('target', { recursive: true });
    writeFileSync('target/seek-10m.cpuprofile', JSON.stringify(p));
  }
  add('app: 10 M-step run: renderer peak resident memory (VmHWM)', (await rendererMemory(browser)).peak / 1e6, 'MB');
});

test('renderer memory of a 50 M-step run (an endless loop at the highest step limit)', async ({ page, browser }) => {
  await openApp(page);
  add('app: renderer resident memory before the 50 M-step run (the default example loaded)', (await rendererMemory(browser)).now / 1e6, 'MB');
  await page.getByTestId('settings').click();
  await page.getByTestId('step-limit').fill('50000000');
  await page.getByTestId('step-limit').press('Enter');
  add('app: 50 M-step run: edit to loaded', await loadKernel(page, 'tests/bench/endless_loop.cu', 50_000_000), 'ms');
  await scrub(page, 20);
  const mem = await rendererMemory(browser);
  add('app: 50 M-step run: renderer peak resident memory (VmHWM)', mem.peak / 1e6, 'MB');
  add('app: 50 M-step run: renderer resident memory after 20 seeks', mem.now / 1e6, 'MB');
});
