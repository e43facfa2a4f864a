// PTX pasted as nvcc writes it: it runs with the reconvergence warpscope inserts for the model
// (marked in the generated code), its CUDA source pasted in the CUDA tab lights up with the run and
// with clicks, the CUDA text goes into links and the saved work, a file of several kernels offers
// them in the Kernel inputs picker, and a malformed line is a located error that keeps the text.
// Expectations come from the CLI and from the PTX text's own `.loc` lines, never from the app.
import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { clickLine, cliListing, cliTrace, exampleText, expect, expectMarked, marked, open, openCopiedLink, openExample, paste, runAllowingFailure, savedWork, seek, showTab, tab, tempFile, test } from './helpers';

/** What nvcc wrote for examples/early_return.cu: the gallery's file without the `//@` lines it adds. */
const PTX = exampleText('examples/ptx/early_return.ptx').split('\n').filter((l) => !l.startsWith('//@')).join('\n');
/** The file nvcc compiled: the PTX's `.loc` lines count its lines. */
const CUDA = exampleText('examples/early_return.cu');


// The CLI's answers, read once when the file loads (a first cargo build must not eat a test's time).
const PTX_PATH = tempFile('early_return.ptx', PTX);
const TRACE = cliTrace(PTX_PATH);
const VOLTA_TOTAL = cliTrace(PTX_PATH, [], ['--model', 'volta']).total;
const LISTED = cliListing(PTX_PATH);
const TWO = exampleText('tests/fixtures/two_kernels.ptx');
const TWO_CHOSEN = `//@ kernel count_up\n${TWO}`;
const TWO_TOTALS = [TWO, TWO_CHOSEN].map((text) => cliTrace(tempFile('two.ptx', text)).total);

/** Each PTX line's CUDA line (1-based; 0: none), read from the text: the last `.loc` above it. */
function cudaOfPtxLine(ptx: string): number[] {
  let cuda = 0;
  return [0, ...ptx.split('\n').map((l) => {
    const loc = /^\s*\.loc\s+\d+\s+(\d+)/.exec(l);
    if (loc) cuda = Number(loc[1]);
    return cuda;
  })];
}




test('a pasted nvcc PTX file runs with reconvergence inserted per model, and its CUDA source follows the run and clicks', async ({ page }) => {
  // Four models' runs and every marked line checked: near the default 30 s on a loaded 2-core machine.
  test.setTimeout(60_000);
  const trace = TRACE;
  const cudaOf = cudaOfPtxLine(PTX);
  // Tall enough that the generated code, its lines wrapped beside the heat column, is drawn
  // down to the first inserted SSY (line 29).
  await page.setViewportSize({ width: 1600, height: 1200 });
  await open(page);
  await paste(page, 'editor-content', PTX);
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-total', String(trace.total));
  // No error: at most notes (the inputs made for the parameters).
  await expect(page.getByTestId('diag-summary')).not.toHaveClass(/has-errors/);
  await expect(page.getByTestId('diag-summary')).not.toContainText('error');
  // The CUDA tab comes with a PTX kernel and asks for the file its .file line names.
  await expect(page.getByTestId('cuda-info')).toContainText('Paste early_return.cu here');

  // The generated code marks what warpscope inserted: SSY/SYNC under kepler, BSSY/BSYNC under volta.
  await showTab(page, 'Generated code');
  const listing = page.locator('#listing');
  await expect(listing).toContainText('SSY `($L__BB0_9);  // inserted: PTX has no reconvergence instructions');
  await expect(listing).not.toContainText('BSSY');
  await page.getByTestId('model').selectOption('volta');
  // The early return's join only exits: volta needs no barrier there, as nvcc writes it; the
  // loop's comes further down, where the view has not drawn it (the CLI's listing has it).
  await expect(listing).toContainText('@P0 BRA `($L__BB0_9);');
  await expect(listing).not.toContainText('`($L__BB0_9);  // inserted');
  expect(runAllowingFailure(['compile', PTX_PATH, '--target', 'volta'])).toContain('BSSY B0, `($L__BB0_8);  // inserted: PTX has no reconvergence instructions');
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-total', String(VOLTA_TOTAL));
  await page.getByTestId('model').selectOption('kepler');
  await expect(listing).not.toContainText('BSSY');

  await showTab(page, 'CUDA source');
  await paste(page, 'cuda-content', CUDA);
  await expect(page.getByTestId('cuda-info')).toHaveText('early_return.cu: click a line to light up its PTX');
  // As the scrubber moves, the CUDA line of the instruction the kernel editor marks is marked.
  const seen = new Set<number>();
  for (let step = 0; step <= trace.total; step += 1) {
    await seek(page, step);
    const [ptxLine] = await marked(page, '#editor', 'current-line');
    if (ptxLine === undefined) continue; // the run's end: no next instruction
    const want = cudaOf[ptxLine];
    if (want) {
      await expect(page.locator('#cuda').getByTestId('current-line'), `step ${step}, PTX line ${ptxLine}`).toHaveAttribute('data-line', String(want));
      seen.add(want);
    } else {
      await expect(page.locator('#cuda').getByTestId('current-line'), `step ${step}`).toHaveCount(0);
    }
  }
  // The return test, the loop head and its body, and the store after it.
  for (const line of [11, 15, 16, 18]) expect(seen, `CUDA lines marked: ${[...seen]}`).toContain(line);

  // A click on a CUDA line lights up every PTX line made from it (the loop body: the unrolled
  // loop's four adds and the remainder loop's one); the listing's lines too.
  const listed = LISTED;
  const ptxOf16 = [...new Set(listed.sourceLine.filter((l) => cudaOf[l] === 16))].sort((a, b) => a - b);
  expect(ptxOf16.length).toBeGreaterThanOrEqual(2);
  await clickLine(page, '#cuda', 's = s + a[t] * i;');
  await expect(page.locator('#cuda').getByTestId('linked-line')).toHaveAttribute('data-line', '16');
  await expectMarked(page, '#editor', 'linked-line', ptxOf16);
  // A click on a PTX line (the store of out[t]) lights up its CUDA line, and its instructions in
  // the generated code.
  const storeLine = PTX.split('\n').findIndex((l) => l.includes('st.global.u32')) + 1;
  expect(cudaOf[storeLine]).toBe(18);
  await clickLine(page, '#editor', 'st.global.u32');
  await expect.poll(() => marked(page, '#cuda', 'linked-line')).toEqual([18]);
  await showTab(page, 'Generated code');
  await expectMarked(page, '#listing', 'linked-line', listed.listingLine.filter((_, pc) => listed.sourceLine[pc] === storeLine));
  // A click on a CUDA line lights up the generated code made from it.
  await showTab(page, 'CUDA source');
  await clickLine(page, '#cuda', 'out[t] = s;');
  await expect.poll(() => marked(page, '#cuda', 'linked-line')).toEqual([18]);
  await showTab(page, 'Generated code');
  await expectMarked(page, '#listing', 'linked-line', listed.listingLine.filter((_, pc) => cudaOf[listed.sourceLine[pc]] === 18));
});

test('the CUDA source is kept in links and in the saved work; without .loc the tab says how to get them', async ({ page, browser }) => {
  await open(page);
  await paste(page, 'editor-content', PTX);
  await expect(page.getByTestId('cuda-info')).toContainText('Paste early_return.cu here');
  await paste(page, 'cuda-content', CUDA);
  const shown = (p: Page) => p.locator('#cuda .cm-line').allTextContents().then((l) => l.join('\n'));
  await expect.poll(() => shown(page)).toBe(CUDA);
  const { other, ctx, problems } = await openCopiedLink(page, browser);
  await expect(other.getByTestId('cuda-info')).toHaveText('early_return.cu: click a line to light up its PTX');
  await expect.poll(() => shown(other)).toBe(CUDA);
  expect(problems).toEqual([]);
  await ctx.close();
  // Reloading the page brings the saved work back, CUDA source and all.
  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await expect.poll(() => shown(page)).toBe(CUDA);
  // PTX without .loc (nvcc without -lineinfo): nothing can be mapped, and the tab says why.
  await paste(page, 'editor-content', exampleText('examples/corpus/ptx/divergent_odd_even.ptx'));
  await expect(page.getByTestId('cuda-info')).toContainText('This PTX has no .loc line information');
  await expect(page.getByTestId('cuda-info')).toContainText('compile with nvcc -lineinfo');
  // A kernel that is not PTX has no CUDA tab.
  await paste(page, 'editor-content', '//@ warp 4\nEXIT;\n');
  await expect(tab(page, 'CUDA source')).toHaveCount(0);
});

test('a PTX file of two .entry kernels: the Kernel inputs picker lists both and writes //@ kernel', async ({ page }) => {
  await open(page);
  await paste(page, 'editor-content', TWO);
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-total', String(TWO_TOTALS[0]));
  await showTab(page, 'Kernel inputs');
  const picker = page.getByTestId('ki-kernel');
  await expect(picker.locator('option')).toHaveText(['scale', 'count_up']);
  await expect(picker).toHaveValue('scale');
  await picker.selectOption('count_up');
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-total', String(TWO_TOTALS[1]));
  await expect(picker).toHaveValue('count_up');
  expect(JSON.parse((await savedWork(page))!).text).toBe(TWO_CHOSEN);
  // Its CFG names count_up's CUDA lines (9-16 of two_kernels.cu), none of scale's (2-7).
  const labels = await page.locator('#cfg [data-testid^="block-lines-"]').allTextContents();
  const cudaLines = labels.flatMap((l) => [...l.matchAll(/cuda (\d+)(?:-(\d+))?/g)].flatMap((m) => m.slice(1).filter(Boolean).map(Number)));
  expect(cudaLines.length).toBeGreaterThan(0);
  expect(Math.min(...cudaLines)).toBeGreaterThanOrEqual(9);
});

test('a malformed PTX line is a located error, and the text survives', async ({ page }) => {
  const lines = PTX.split('\n');
  const at = lines.findIndex((l) => l.includes('add.s32 \t%r58, %r55, %r58;'));
  expect(at).toBeGreaterThan(0);
  lines[at] = '\tadd.s32 \t%r58, %r55;';
  const broken = lines.join('\n');
  await open(page);
  await paste(page, 'editor-content', broken);
  await expect(page.getByTestId('diag-summary')).toHaveClass(/has-errors/);
  await expect(page.getByTestId('diag-summary')).toContainText(`line ${at + 1}:`);
  await page.getByTestId('diag-summary').click();
  await expect(page.getByTestId('problem').filter({ hasText: 'error' }).first()).toHaveAttribute('data-line', String(at + 1));
  // The text stays as typed, in the saved work and in the editor after a reload.
  await expect.poll(async () => JSON.parse((await savedWork(page)) ?? '{}').text).toBe(broken);
  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('diag-summary')).toContainText(`line ${at + 1}:`);
  await page.getByTestId('diag-summary').click();
  await page.locator(`[data-testid="problem"][data-line="${at + 1}"]`).first().click();
  await expect(page.locator('#editor .cm-line', { hasText: 'add.s32 \t%r58, %r55;' })).toBeVisible();
});

test('screenshots of a PTX kernel beside its CUDA source, at 1280x720 and 1920x1080', async ({ page }) => {
  // For a human to look at (like screenshots.spec.ts); they assert only what the student must see.
  const dir = process.env.SHOTS_DIR ?? '/tmp/shots';
  mkdirSync(dir, { recursive: true });
  for (const [w, h] of [[1280, 720], [1920, 1080]]) {
    await page.setViewportSize({ width: w, height: h });
    await open(page);
    // The gallery's PTX example comes with the .cu nvcc compiled.
    await openExample(page, 'early_return.ptx');
    await expect(page.getByTestId('cuda-info')).toHaveText('early_return.cu: click a line to light up its PTX');
    await seek(page, 40);
    await expect(page.locator('#cuda').getByTestId('current-line')).toBeVisible();
    await expect(page.locator('#cuda [data-testid="current-line"]')).toBeInViewport();
    await page.screenshot({ path: `${dir}/ptx-${w}x${h}.png` });
    await clickLine(page, '#cuda', 's = s + a[t] * i;');
    await page.mouse.move(w / 2, 5);
    await page.screenshot({ path: `${dir}/ptx-cuda-click-${w}x${h}.png` });
  }
  await paste(page, 'cuda-content', '');
  await page.screenshot({ path: `${dir}/ptx-cuda-empty-1920x1080.png` });
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.screenshot({ path: `${dir}/ptx-cuda-empty-1280x720.png` });
});
