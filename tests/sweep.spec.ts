// Sweep mode end to end: the worker's numbers against the CLI's, the page staying usable while a
// sweep runs, cancel, the exports, every paper's figure, and sweep permalinks.
import { readFileSync } from 'node:fs';
import { deflateRawSync } from 'node:zlib';
import type { Page } from '@playwright/test';
import { cliFigureCsv, download, expect, open, openFigure, replaceText, setStepLimit, test } from './helpers';

interface FigureEntry { id: string; look: string; kernel: string; sweep?: { from?: number; to?: number; models?: string[]; presets?: string[]; split?: { values: number[] } }; view?: { params: Record<string, number>; model: string; compare?: string } }
const FIGURES = JSON.parse(readFileSync('examples/figures.json', 'utf8')) as FigureEntry[];
const MODELS = ['kepler', 'pdom', 'pdom-ssy', 'tf-stack', 'tf-sandy', 'volta', 'mimd'];
const PRESETS = ['kepler', 'maxwell', 'h100', 'tesla'];

const progress = (page: Page) => page.getByTestId('sweep-progress');
const done = async (page: Page) => Number(await progress(page).getAttribute('data-done'));

/** Every lane loops forever (the counter keeps the state from repeating), so each run goes to the
 * step limit. */
const ENDLESS = `//@ title A loop that never ends, swept
//@ warp 32
//@ param n = 1
//@ buffer add: i32[32] = n
//@ buffer out: i32[32]
__global__ void counter(int* add, int* out) {
    int i = 0;
    while (threadIdx.x < 100) {
        i = i + add[threadIdx.x] + 1;
    }
    out[threadIdx.x] = i;
}
`;

/** A sweep that cannot end while a test looks at it, however fast the machine: n = 0..31 under
 * every model and preset (896 runs) of an endless loop, each run 1 M steps. */
async function startLongSweep(page: Page): Promise<number> {
  await open(page);
  await setStepLimit(page, 1_000_000);
  await replaceText(page, ENDLESS);
  await expect(page.getByTestId('run-stop')).toHaveAttribute('data-kind', 'step_limit');
  await page.getByTestId('btn-sweep').click();
  await page.getByTestId('sweep-from').fill('0');
  await page.getByTestId('sweep-to').fill('31');
  for (const m of MODELS) await page.getByTestId(`sweep-models-${m}`).check();
  for (const p of PRESETS) await page.getByTestId(`sweep-presets-${p}`).check();
  await expect(page.getByTestId('sweep-summary')).toHaveText('896 runs');
  await page.getByTestId('sweep-run').click();
  await expect(progress(page)).toHaveAttribute('data-status', 'running');
  await expect.poll(() => done(page), { timeout: 20_000 }).toBeGreaterThan(0);
  return Number(await progress(page).getAttribute('data-total'));
}

for (const id of ['bs-fig1', 'h100-single']) {
  test(`the ${id} sweep runs in a worker and its CSV is the CLI's, byte for byte`, async ({ page }) => {
    await open(page);
    await openFigure(page, id, true);
    const csv = await download(page, page.getByTestId('sweep-export-csv'));
    expect(csv.name).toBe(`warpscope-${id}-sweep.csv`);
    expect(csv.bytes.toString('utf8')).toBe(cliFigureCsv(id));
  });
}

test('the page answers clicks while a long sweep runs', async ({ page }) => {
  const total = await startLongSweep(page);
  expect(total).toBe(896);
  await page.locator('#btn-help').click();
  await expect(page.getByTestId('help')).toBeVisible();
  // The click was handled while the sweep still ran.
  expect(await progress(page).getAttribute('data-status')).toBe('running');
  expect(await done(page)).toBeLessThan(total);
  await page.keyboard.press('Escape');
  // The plot can change metric mid-sweep too.
  await page.getByTestId('sweep-metric').selectOption('max_stack_depth');
  await expect(page.getByTestId('sweep-ylabel')).toHaveText('max stack depth');
  expect(await progress(page).getAttribute('data-status')).toBe('running');
  await page.getByTestId('sweep-cancel').click();
});

test('cancel stops the sweep at once, keeps its points and ends the worker', async ({ page }) => {
  const total = await startLongSweep(page);
  await expect.poll(() => page.workers().length).toBe(1);
  await page.getByTestId('sweep-cancel').click();
  await expect(progress(page)).toHaveAttribute('data-status', 'cancelled');
  await expect(progress(page)).toContainText('cancelled');
  await expect(page.getByTestId('sweep-cancel')).toBeHidden();
  const kept = await done(page);
  expect(kept).toBeGreaterThan(0);
  expect(kept).toBeLessThan(total);
  await expect.poll(() => page.workers().length).toBe(0);
  await page.waitForTimeout(500);
  expect(await done(page)).toBe(kept);
  await expect(page.getByTestId('sweep-title').first()).toBeVisible();
  await expect(page.locator('svg[data-testid=sweep-svg]')).toContainText(`cancelled after ${kept} of ${total} runs`);
  // The CSV holds exactly the points kept (a new worker runs them again for the engine to write it).
  const csv = await download(page, page.getByTestId('sweep-export-csv'));
  expect(csv.bytes.toString('utf8').trim().split('\n')).toHaveLength(kept + 1);
  expect(await done(page)).toBe(kept);
});

test('the sweep plot exports as standalone SVG and PNG, with a mark group per series and the legend', async ({ page }) => {
  await open(page);
  await openFigure(page, 'hovland-fig5', true);
  const svg = await download(page, page.getByTestId('sweep-export-svg'));
  expect(svg.name).toBe('warpscope-hovland-fig5-sweep.svg');
  const text = svg.bytes.toString('utf8');
  const parsed = await page.evaluate((t) => {
    const doc = new DOMParser().parseFromString(t, 'image/svg+xml');
    return {
      error: doc.getElementsByTagName('parsererror').length,
      root: doc.documentElement.getAttribute('font-family'),
      series: [...doc.querySelectorAll('[data-testid=sweep-series]')].map((g) => g.getAttribute('data-points')),
      legend: [...doc.querySelectorAll('[data-testid=legend-series]')].map((t) => t.textContent),
      classes: doc.querySelectorAll('[class]:not(svg)').length,
      hover: doc.querySelectorAll('[data-export=skip]').length,
      text: doc.documentElement.textContent,
    };
  }, text);
  expect(parsed.error).toBe(0);
  expect(parsed.root).toContain('DejaVu Sans');
  expect(parsed.series).toEqual(['32', '32']);
  expect(parsed.legend).toEqual(['kepler · tesla · layout=1', 'kepler · tesla · layout=2']);
  expect(parsed.classes).toBe(0);
  expect(parsed.hover).toBe(0);
  expect(parsed.text).toContain('Hovland (2008), Figure 5');
  expect(parsed.text).toContain('paths');
  expect(parsed.text).toContain('cycles (cost model)');
  const png = await download(page, page.getByTestId('sweep-export-png'));
  expect(png.name).toBe('warpscope-hovland-fig5-sweep.png');
  expect(png.bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  // Twice the plot's size on screen.
  const width = Number(await page.getByTestId('sweep-svg').getAttribute('width'));
  expect(png.bytes.readUInt32BE(16)).toBe(width * 2);
});

test('measured against predicted: dots, the fitted line, the residual strip and another measured series', async ({ page }) => {
  await open(page);
  await openFigure(page, 'h100-double', true);
  await expect(page.getByTestId('sweep-measured-select').locator('option:checked')).toHaveText('double_nounroll');
  await expect(page.getByTestId('legend-series')).toHaveText(/^volta · h100 \+ base [\d,]+ cycles fitted at n = 0$/);
  await expect(page.locator('g[data-testid=sweep-measured]')).toHaveAttribute('data-points', '32');
  await expect(page.locator('g[data-testid=sweep-residual]')).toHaveAttribute('data-points', '32');
  // The hover names x, the series and the values.
  const hover = page.getByTestId('sweep-hover');
  const box = (await hover.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + 40);
  await expect(page.getByTestId('sweep-tooltip')).toContainText(/n = \d+/);
  await expect(page.getByTestId('sweep-tooltip')).toContainText(/volta · h100: predicted [\d,]+, residual -?[\d,]+/);
  // nvcc's default (unrolled) build of the same loop.
  const unrolled = await page.getByTestId('sweep-measured-select').locator('option', { hasText: /^double$/ }).first().getAttribute('value');
  await page.getByTestId('sweep-measured-select').selectOption(unrolled!);
  await expect(page.getByTestId('legend-measured')).toContainText('measured: double · O3 · table1');
  const csv = await download(page, page.getByTestId('sweep-export-csv'));
  expect(csv.bytes.toString('utf8').split('\n')[0]).toMatch(/,stop_reason,measured,predicted,residual$/);
  // Another metric: the measurements are cycles, and the plot says so.
  await page.getByTestId('sweep-metric').selectOption('steps');
  await expect(page.locator('g[data-testid=sweep-measured]')).toHaveCount(0);
});

test('every paper\'s figure opens with one click and says what to look at', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await open(page);
  for (const f of FIGURES) {
    await openFigure(page, f.id, !!f.sweep);
    await expect(page.getByTestId('figure-look'), f.id).toHaveText(f.look);
    if (f.sweep) {
      const s = f.sweep;
      const runs = ((s.to ?? 31) - (s.from ?? 0) + 1) * Math.max(1, s.models?.length ?? 0) * Math.max(1, s.presets?.length ?? 0) * (s.split?.values.length ?? 1);
      await expect(progress(page), f.id).toHaveAttribute('data-done', String(runs));
      await expect(page.getByTestId('sweep-svg')).toBeVisible();
    } else if (f.view?.compare) {
      // A comparison: the two models side by side and their table.
      await expect(page.getByTestId('compare-col-a'), f.id).toContainText(f.view.model);
      await expect(page.getByTestId('compare-col-b'), f.id).toContainText(f.view.compare);
      await expect(page.getByTestId('compare-table'), f.id).toBeVisible();
    } else {
      await expect(page.getByTestId('plot-svg'), f.id).toBeVisible();
      await expect(page.locator('.p-plot'), f.id).toHaveClass(/figure-focus/);
      for (const [k, v] of Object.entries(f.view!.params)) await expect(page.getByTestId(`param-${k}`)).toHaveValue(String(v));
    }
  }
  await page.getByTestId('figure-note-close').click();
  await expect(page.getByTestId('figure-note')).toBeHidden();
});

test('runs that stop early are hollow, listed with why, and a sweep that cannot start keeps the kernel', async ({ page }) => {
  await open(page);
  await replaceText(page, [
    '//@ title barrier when k lanes branch', '//@ param k = 0', '//@ buffer out: i32[32]',
    '__global__ void f(int* out, int k) {', '    int t = threadIdx.x;',
    '    if (t < k) { out[t] = t; __syncthreads(); } else { out[t] = -t; }', '}', ''].join('\n'));
  await expect(page.getByTestId('kernel-title')).toHaveText('barrier when k lanes branch');
  await page.getByTestId('btn-sweep').click();
  await page.getByTestId('sweep-to').fill('3');
  await page.getByTestId('sweep-run').click();
  await expect(progress(page)).toHaveAttribute('data-status', 'done');
  await expect(page.getByTestId('sweep-stop')).toHaveCount(3);
  await expect(page.getByTestId('sweep-stop').first()).toContainText(/k = 1 · kepler · kepler: deadlock at 0x[0-9a-f]+/);
  await expect(page.getByTestId('legend-stopped')).toBeVisible();
  await expect(page.locator('[data-testid=sweep-series] [data-stopped]')).toHaveCount(3);
  // An error in the kernel: the sweep says so, the text stays as typed.
  await page.getByTestId('editor-content').click();
  await page.keyboard.press('Control+End');
  // (A device function: a host one would be skipped with a note, as pasted host code is.)
  await page.keyboard.insertText('\n__device__ int broken(;');
  await expect(page.getByTestId('diag-summary')).toContainText('error');
  await page.getByTestId('sweep-run').click();
  await expect(page.getByTestId('banner').filter({ hasText: 'The sweep cannot run' })).toBeVisible();
  await expect(progress(page)).toHaveAttribute('data-status', 'failed');
  await expect(page.getByTestId('editor-content')).toContainText('int broken(;');
});

test('a permalink opens a sweep with its settings and runs it', async ({ page, browser }) => {
  await open(page);
  await openFigure(page, 'hovland-fig5', true);
  await page.getByTestId('sweep-metric').selectOption('steps');
  await page.getByTestId('sweep-to').fill('16');
  await page.getByTestId('copy-link').click();
  await expect(page.getByTestId('copy-link')).toHaveAttribute('data-link', /#v1\./);
  const link = await page.getByTestId('copy-link').getAttribute('data-link');
  const ctx = await browser.newContext();
  const other = await ctx.newPage();
  await open(other, link!);
  await expect(other.getByTestId('btn-sweep')).toHaveAttribute('aria-pressed', 'true');
  await expect(other.getByTestId('sweep-progress')).toHaveAttribute('data-status', 'done');
  await expect(other.getByTestId('sweep-progress')).toHaveAttribute('data-done', String(16 * 2));
  await expect(other.getByTestId('sweep-metric')).toHaveValue('steps');
  await expect(other.getByTestId('sweep-ylabel')).toHaveText('steps');
  await expect(other.getByTestId('sweep-split')).toHaveValue('layout');
  await expect(other.getByTestId('figure-look')).toContainText('Two layouts of the same paths');
  await ctx.close();
});

test('a link with a corrupted sweep says so and leaves the saved work alone', async ({ page }) => {
  await open(page);
  await page.getByTestId('editor-content').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.insertText('\n// my saved work');
  await page.waitForTimeout(400);
  const saved = await page.evaluate(() => localStorage.getItem('warpscope.work.v1'));
  const json = { v: 1, text: 'EXIT;\n', sweep: { request: { param: 'n', from: 'zero', to: 31 }, metric: 'cycles' } };
  const frag = deflateRawSync(Buffer.from(JSON.stringify(json))).toString('base64url');
  await open(page, `./#v1.${frag}`);
  // The core reads links: it names the field and what it expected.
  await expect(page.getByTestId('banner')).toContainText('the sweep setting is malformed (invalid type: string "zero", expected i64)');
  await page.getByTestId('editor-content').click();
  await page.keyboard.press('Control+End');
  await expect(page.getByTestId('editor-content')).toContainText('my saved work');
  expect(await page.evaluate(() => localStorage.getItem('warpscope.work.v1'))).toBe(saved);
});
