import type { Page } from '@playwright/test';
import { cliTrace, download, exampleText, expect, open, openExample, replaceText, seek, test, total, uiStack } from './helpers';

const SINGLE = 'examples/single_loop.sass';
const trace = cliTrace(SINGLE);            // n = 2, the file's default
const trace3 = cliTrace(SINGLE, ['n=3']);

test('the default example loads with no console errors', async ({ page, problems }) => {
  await open(page);
  await expect(page.getByTestId('kernel-title')).toContainText('Figure 3 walk-through');
  await expect(page.getByTestId('step-label')).toHaveText(/^step 0 \/ \d+$/);
  await expect(page.getByTestId('caption')).toContainText('Figure 3.1');
  await expect(page.getByTestId('block-0')).toBeVisible();
  await expect(page.getByTestId('reconv-0-3')).toHaveCount(1);
  expect(problems).toEqual([]);
});

test('seeking shows the Figure 3 masks, stack tokens and plot points of the CLI trace', async ({ page }) => {
  await open(page);
  await openExample(page, 'single_loop.sass');
  expect(await total(page)).toBe(trace.total);
  for (const step of [1, 2, 3, 124, 125, 126, 129, 130, 133, 134, 135, 136, 137]) {
    await seek(page, step);
    const row = trace.rows[step];
    await expect(page.getByTestId('lanes-canvas'), `issued lanes at step ${step}`).toHaveAttribute('data-issued', row.mask);
    expect(await uiStack(page), `stack after step ${step}`).toEqual(row.stack);
    await expect(page.getByTestId('plot-cursor')).toHaveAttribute('data-depth', String(row.stack.length));
    await expect(page.getByTestId('stack-depth')).toHaveText(`depth ${row.stack.length}`);
  }
  // Figure 3.4: lanes 30 and 31 wait at the reconvergence block.
  await seek(page, 130);
  await expect(page.getByTestId('wait-3')).toHaveText('lanes 30-31 wait');
});

test('stepping and divergence jumps follow the recorded run', async ({ page }) => {
  await open(page);
  await openExample(page, 'single_loop.sass');
  const divergences = trace.rows.filter((r, i) => i > 0 && r.stack.some((t) => t.kind === 'DIV') &&
    r.stack.length > trace.rows[i - 1].stack.length).map((r) => r.step);
  expect(divergences).toEqual([125, 129]);
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-step', '1');
  await page.keyboard.press('Shift+ArrowRight');
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-step', '125');
  await page.keyboard.press('Shift+ArrowRight');
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-step', '129');
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-step', '128');
  await page.keyboard.press('Shift+ArrowLeft');
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-step', '125');
  await page.keyboard.press('End');
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-step', String(trace.total));
  await page.keyboard.press('Home');
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-step', '0');
  // Shortcuts do not fire while typing in the editor.
  await page.getByTestId('editor-content').click();
  await page.keyboard.press('End');
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-step', '0');
});

test('changing n re-runs and keeps the step', async ({ page }) => {
  await open(page);
  await openExample(page, 'single_loop.sass');
  await seek(page, 100);
  await page.getByTestId('param-n').fill('3');
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-total', String(trace3.total));
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-step', '100');
  expect(trace3.total).not.toBe(trace.total);
  await seek(page, trace3.total);
  expect(await uiStack(page)).toEqual(trace3.rows[trace3.total].stack);
});

test('a breakpoint stops the run where it is set', async ({ page }) => {
  await open(page);
  await openExample(page, 'single_loop.sass');
  const lineNo = exampleText(SINGLE).split('\n').findIndex((l) => l.includes('/*0118*/')) + 1;
  const toggle = async () => {
    const line = page.locator('#editor .cm-line').nth(lineNo - 1);
    await line.scrollIntoViewIfNeeded();
    const box = (await line.boundingBox())!;
    const gutter = (await page.locator('#editor .cm-bp-gutter').boundingBox())!;
    await page.mouse.click(gutter.x + gutter.width / 2, box.y + box.height / 2);
  };
  await toggle();
  await expect(page.locator('#editor .cm-bp-gutter .bp-dot')).toHaveCount(1);
  // The run stops before the breakpoint's instruction issues: the state after the step before it.
  const hits = trace.rows.filter((r) => r?.pc === '0x0118').map((r) => r.step - 1);
  await page.getByTestId('btn-continue').click();
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-step', String(hits[0]));
  await page.getByTestId('btn-continue').click();
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-step', String(hits[1]));
  await expect(page.getByTestId('banner')).toContainText('breakpoint');
  // Clearing it lets the run go to the end.
  await toggle();
  await expect(page.locator('#editor .cm-bp-gutter .bp-dot')).toHaveCount(0);
  await page.getByTestId('btn-continue').click();
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-step', String(trace.total));
  // Clicking the instruction in the CFG sets the same breakpoint (shown in both views).
  await page.getByTestId('btn-home').click();
  const row = page.locator('.instr-row').filter({ has: page.locator('text.instr', { hasText: /^0118\s/ }) });
  const index = await row.getAttribute('data-instr');
  await row.click();
  await expect(page.getByTestId(`cfg-bp-${index}`)).toHaveCount(1);
  await expect(page.locator('#editor .cm-bp-gutter .bp-dot')).toHaveCount(1);
  await page.getByTestId('btn-continue').click();
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-step', String(hits[0]));
});

test('play runs to the end at max speed', async ({ page }) => {
  await open(page);
  await openExample(page, 'single_loop.sass');
  await page.getByTestId('speed').selectOption('0');
  await page.getByTestId('btn-play').click();
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-step', String(trace.total));
  await expect(page.getByTestId('btn-play')).toHaveText(/play/);
});

/** An exported SVG as a figure reader sees it. */
async function figureOf(page: Page, text: string) {
  return page.evaluate((t) => {
    const doc = new DOMParser().parseFromString(t, 'image/svg+xml');
    const depth = doc.getElementById('depth');
    return {
      error: doc.getElementsByTagName('parsererror').length,
      width: doc.documentElement.getAttribute('width'),
      // On screen: a cursor (a circle and a line), the future faded, the past clipped to the step.
      cursor: doc.querySelectorAll('circle, [data-testid=plot-cursor]').length,
      faded: doc.querySelectorAll('[stroke-opacity], [opacity], [fill-opacity]').length,
      clipped: doc.querySelectorAll('clipPath, [clip-path]').length,
      steps: (depth?.getAttribute('d')?.match(/H/g) ?? []).length,
      // The visible title's lines, and the file's name for screen readers and viewers.
      title: [...doc.querySelectorAll('#title text')].map((l) => l.textContent).join(' ') || null,
      name: doc.querySelector('svg > title')?.textContent ?? null,
      text: [...doc.querySelectorAll('text')].map((l) => l.textContent).join(' '),
    };
  }, text);
}

test('the stack history exports as a clean figure of the whole run, with a title if asked; files are named after the kernel and model', async ({ page }) => {
  await open(page);
  await openExample(page, 'single_loop.sass');
  await seek(page, 10);
  const base = 'warpscope-single-loop-bialas-strzelecki-listing-3-kepler';
  const menu = page.getByTestId('export-menu');
  await menu.click();
  const svg = await download(page, page.getByTestId('export-svg'));
  expect(svg.name).toBe(`${base}-stack-history.svg`);
  expect(svg.bytes.toString('utf8')).toMatch(/^<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  const plain = await figureOf(page, svg.bytes.toString('utf8'));
  expect(plain).toMatchObject({ error: 0, cursor: 0, faded: 0, clipped: 0, steps: trace.total, title: null });
  expect(plain.text).toContain('on-chip capacity 16');
  expect(plain.text).toContain('executed instructions');
  expect(plain.text).toContain('depth in tokens');
  expect(plain.text).not.toContain('Single loop');
  expect(plain.name).toBe('Single loop (Bialas & Strzelecki, Listing 3) · kepler');
  // The step on screen does not change the figure.
  await seek(page, 130);
  await menu.click();
  expect((await download(page, page.getByTestId('export-svg'))).bytes.toString('utf8')).toBe(svg.bytes.toString('utf8'));
  await menu.click();
  await page.getByTestId('export-title').check();
  const titled = await download(page, page.getByTestId('export-svg'));
  expect(titled.name).toBe(`${base}-stack-history.svg`);
  const withTitle = await figureOf(page, titled.bytes.toString('utf8'));
  expect(withTitle).toMatchObject({ error: 0, cursor: 0, faded: 0, clipped: 0, steps: trace.total });
  expect(withTitle.title).toBe('Single loop (Bialas & Strzelecki, Listing 3) · kepler');
  await menu.click();
  const png = await download(page, page.getByTestId('export-png'));
  expect(png.name).toBe(`${base}-stack-history.png`);
  expect(png.bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  // Print resolution: four pixels per unit of the figure.
  expect(png.bytes.readUInt32BE(16)).toBe(Number(withTitle.width) * 4);
  await menu.click();
  const csv = await download(page, page.getByTestId('export-csv'));
  expect(csv.name).toBe(`${base}-trace.csv`);
  expect(csv.bytes.toString('utf8').trim().split('\n')).toHaveLength(trace.total + 1);
});

test('an error in the kernel shows inline and keeps the last run', async ({ page }) => {
  await open(page);
  await openExample(page, 'single_loop.sass');
  await seek(page, 50);
  await page.getByTestId('editor-content').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.insertText('\nFROB R1, R2;');
  await expect(page.getByTestId('diag-summary')).toContainText('1 error');
  await expect(page.locator('.cm-lintRange-error')).toHaveCount(1);
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-total', String(trace.total));
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-step', '50');
  await expect(page.getByTestId('editor-content')).toContainText('FROB R1, R2;');
});
