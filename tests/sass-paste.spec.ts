// Real SASS pasted as the disassemblers print it (issue 19): `cuobjdump -sass` of a corpus kernel
// runs under volta to the CLI's step count with no error; the graph shows the dump's addresses
// and instructions; `nvdisasm -g` text with its CUDA source pasted follows the run in the CUDA
// tab; an instruction warpscope does not run yet is a located error and the text survives;
// printf runs from nvdisasm's whole-cubin output and prints in the Output panel what the CLI
// prints, and cuobjdump's output of it (no format strings) is a located error naming what to
// paste. Expectations come from the CLI and from the dump's own `//## File ..., line N` lines.
import { cliTrace, exampleText, expect, open, paste, savedWork, seek, showTab, tempFile, test, warpscope } from './helpers';


/** cuobjdump -sass of the corpus's collatz kernel for sm_90, as the tool prints it. */
const CUOBJDUMP = exampleText('core/tests/fixtures/sass/sm_90/collatz_steps.sass');
/** nvdisasm -c -g of the same kernel: each instruction under its CUDA line. */
const NVDISASM_G = exampleText('core/tests/fixtures/sass/nvdisasm-g/collatz_steps.sass');
const CUDA = exampleText('examples/corpus/collatz_steps.cu');
const VOLTA = ['--model', 'volta'];
const TRACE = cliTrace(tempFile('collatz.sass', CUOBJDUMP), [], VOLTA);
const TRACE_G = cliTrace(tempFile('collatz_g.sass', NVDISASM_G), [], VOLTA);

/** Each line's CUDA line (1-based; 0: none) in nvdisasm -g text: the last `//## File` above it. */
function cudaOfLine(text: string): number[] {
  let cuda = 0;
  return [0, ...text.split('\n').map((l) => {
    const m = /^\s*\/\/## File "[^"]*", line (\d+)/.exec(l);
    if (m) cuda = Number(m[1]);
    return cuda;
  })];
}



test('cuobjdump -sass pasted as it is runs under volta with the dump\'s addresses and instructions', async ({ page }) => {
  await open(page);
  await page.getByTestId('model').selectOption('volta');
  await paste(page, 'editor-content', CUOBJDUMP);
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-total', String(TRACE.total));
  await expect(page.getByTestId('diag-summary')).not.toHaveClass(/has-errors/);
  // The graph's blocks list the dump's own addresses and text.
  const cfg = page.locator('#cfg');
  await expect(cfg).toContainText('LDG.E R2, desc[UR4][R2.64]');
  await expect(cfg).toContainText('00b0');
  // Its convergence barriers drive the stack: BSSY arms B0 as the loop begins.
  const bssy = TRACE.rows.findIndex((r) => r?.text.startsWith('BSSY'));
  expect(bssy).toBeGreaterThan(0);
  await seek(page, bssy);
  await expect(page.getByTestId('stack-entry').filter({ hasText: 'B0' }).first()).toBeVisible();
});

test('nvdisasm -g text with its CUDA source: the CUDA line follows the run', async ({ page }) => {
  const cudaOf = cudaOfLine(NVDISASM_G);
  await open(page);
  await page.getByTestId('model').selectOption('volta');
  await paste(page, 'editor-content', NVDISASM_G);
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-total', String(TRACE_G.total));
  await showTab(page, 'CUDA source');
  await paste(page, 'cuda-content', CUDA);
  const seen = new Set<number>();
  for (let step = 0; step <= Math.min(TRACE_G.total, 40); step += 1) {
    await seek(page, step);
    const [line] = await page.locator('#editor [data-testid="current-line"]').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-line'))));
    if (line === undefined || !cudaOf[line]) continue;
    await expect(page.locator('#cuda').getByTestId('current-line'), `step ${step}, SASS line ${line}`).toHaveAttribute('data-line', String(cudaOf[line]));
    seen.add(cudaOf[line]);
  }
  expect(seen.size, `CUDA lines marked: ${[...seen]}`).toBeGreaterThanOrEqual(3);
});

test('an instruction warpscope does not run yet is a located error, and the text survives', async ({ page }) => {
  const lines = CUOBJDUMP.split('\n');
  const at = lines.findIndex((l) => l.includes('LOP3.LUT R0, R2, 0x1, RZ, 0xc0, !PT'));
  expect(at).toBeGreaterThan(0);
  lines[at] = lines[at].replace('LOP3.LUT R0, R2, 0x1, RZ, 0xc0, !PT', 'TEX.SCR R0, R2, 0x1');
  const broken = lines.join('\n');
  await open(page);
  await paste(page, 'editor-content', broken);
  await expect(page.getByTestId('diag-summary')).toHaveClass(/has-errors/);
  await expect(page.getByTestId('diag-summary')).toContainText(`line ${at + 1}:`);
  await expect(page.getByTestId('diag-summary')).toContainText('TEX');
  await expect.poll(async () => JSON.parse((await savedWork(page)) ?? '{}').text).toBe(broken);
});

/** nvcc's printf kernel (an int, a float, a long long, a char) as nvdisasm prints the whole
 * cubin, and as cuobjdump -sass prints it, each under the kernel's `//@` lines. */
const PRINTF_CU = exampleText('core/tests/fixtures/sass/features/printf_args.cu');
const PRINTF_HEADER = PRINTF_CU.split('\n').filter((l) => l.startsWith('//@')).join('\n') + '\n';
const PRINTF_WHOLE = PRINTF_HEADER + exampleText('core/tests/fixtures/sass/features/printf_args.sm_90.whole.sass');
const PRINTF_CUOBJDUMP = PRINTF_HEADER + exampleText('core/tests/fixtures/sass/features/printf_args.sm_90.sass');

test('printf in nvdisasm\'s whole-cubin output prints what the CLI prints; cuobjdump\'s is a located error', async ({ page }) => {
  const file = tempFile('printf_whole.sass', PRINTF_WHOLE);
  const printed = warpscope(['run', file, '--model', 'volta', '--printed'])
    .split('\n').filter((l) => l !== '');
  expect(printed.length).toBe(8);
  await open(page);
  await page.getByTestId('model').selectOption('volta');
  await paste(page, 'editor-content', PRINTF_WHOLE);
  await expect(page.getByTestId('diag-summary')).not.toHaveClass(/has-errors/);
  const total = Number(await page.getByTestId('step-label').getAttribute('data-total'));
  await seek(page, total);
  await page.getByRole('tab', { name: 'Output' }).click();
  const rows = page.getByTestId('output').getByRole('listitem');
  await expect(rows).toHaveCount(printed.length);
  for (const [i, text] of printed.entries()) await expect(rows.nth(i)).toContainText(text);

  await paste(page, 'editor-content', PRINTF_CUOBJDUMP);
  await expect(page.getByTestId('diag-summary')).toHaveClass(/has-errors/);
  const call = PRINTF_CUOBJDUMP.split('\n').findIndex((l) => l.includes('CALL.ABS.NOINC'));
  await expect(page.getByTestId('diag-summary')).toContainText(`line ${call + 1}:`);
  await expect(page.getByTestId('diag-summary')).toContainText('nvdisasm');
  await expect.poll(async () => JSON.parse((await savedWork(page)) ?? '{}').text).toBe(PRINTF_CUOBJDUMP);
});
