// Real SASS beside its PTX (issue 19): nvcc's SASS of a kernel (`nvdisasm -c -gi`) with its CUDA
// source and nvcc's PTX of the same `.cu` file pasted in their tabs. SASS and PTX share only the
// CUDA lines both name, so every expectation comes from the pasted texts' own `//## File` and
// `.loc` lines: as the run moves, the PTX lines of the current instruction's CUDA line are marked;
// a click on a PTX line lights up its CUDA line and the SASS made from it, and a click on a SASS
// line its PTX; the PTX goes into links and the saved work; PTX of another kernel, or text that
// is not PTX, says why and stays. divergent_call inlines its `__device__` function, so both texts
// name the callee's lines where it was inlined.
import type { Page } from '@playwright/test';
import { clickLine, cliTrace, exampleText, expect, expectMarked, marked, open, openCopiedLink, paste, savedWork, seek, showTab, tab, tempFile, test } from './helpers';

const withoutHeader = (text: string) => text.split('\n').filter((l) => !l.startsWith('//@')).join('\n');
/** What nvdisasm and nvcc printed for examples/divergent_call.cu (the gallery's files without their `//@` lines). */
const SASS = withoutHeader(exampleText('examples/sass/divergent_call.sm_90.sass'));
const PTX = withoutHeader(exampleText('examples/ptx/divergent_call.ptx'));
const CUDA = exampleText('examples/divergent_call.cu');
const OTHER_PTX = withoutHeader(exampleText('examples/ptx/if_else.ptx'));
const TRACE = cliTrace(tempFile('divergent_call.sass', SASS), [], ['--model', 'volta']);
const TOTAL = TRACE.total;

/** Each SASS line's CUDA line (1-based; 0: none): the first `//## File ..., line N` above it since
 * the instruction before (`-gi` follows an inlined line with its call's). */
function sassCudaOf(text: string): number[] {
  let cuda = 0, fresh = true;
  return [0, ...text.split('\n').map((l) => {
    const m = /^\s*\/\/## File "[^"]*", line (\d+)/.exec(l);
    if (m && fresh) { cuda = Number(m[1]); fresh = false; }
    if (/\/\*[0-9a-f]{4}\*\//.test(l)) fresh = true;
    return cuda;
  })];
}

/** The PTX's instruction lines, each with its CUDA line: the last `.loc` above it. */
function ptxInstrCuda(text: string): Map<number, number> {
  let cuda = 0;
  const out = new Map<number, number>();
  text.split('\n').forEach((l, k) => {
    const loc = /^\s*\.loc\s+\d+\s+(\d+)/.exec(l);
    if (loc) cuda = Number(loc[1]);
    else if (cuda > 0 && /^\s*(@!?%p\d+\s+)?[a-z][\w.]*\b[^:]*;\s*$/.test(l)) out.set(k + 1, cuda);
  });
  return out;
}
const ptxLinesOf = (cuda: number) => [...ptxInstrCuda(PTX)].filter(([, c]) => c === cuda).map(([l]) => l);

async function pasteAll(page: Page): Promise<void> {
  await open(page);
  await page.getByTestId('model').selectOption('volta');
  await paste(page, 'editor-content', SASS);
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-total', String(TOTAL));
  await showTab(page, 'CUDA source');
  await paste(page, 'cuda-content', CUDA);
  await showTab(page, 'PTX');
  await expect(page.getByTestId('ptx-info')).toContainText("Paste nvcc's PTX of divergent_call.cu here");
  await paste(page, 'ptx-content', PTX);
  await expect(page.getByTestId('ptx-info')).toHaveText('PTX of divergent_call: click a line to light up its SASS');
}

test('the PTX lines of the current instruction\'s CUDA line follow the run', async ({ page }) => {
  // A seek per change of CUDA line, each checked: over the default 30 s on a loaded 2-core machine.
  test.setTimeout(90_000);
  const cudaOf = sassCudaOf(SASS);
  const sassLines = SASS.split('\n');
  await pasteAll(page);
  const seen = new Set<number>();
  let before = 0;
  for (let step = 0; step < TOTAL; step += 1) {
    // The instruction that runs next, the CLI's at the step after, found in the text by its address.
    const pc = TRACE.rows[step + 1]?.pc;
    const line = pc ? sassLines.findIndex((l) => l.includes(`/*${pc.slice(2)}*/`)) + 1 : 0;
    // Each step whose CUDA line is not the step before's: where the marks must move.
    const changed = cudaOf[line] !== before;
    before = cudaOf[line];
    if (!cudaOf[line] || !changed) continue;
    await seek(page, step);
    const want = ptxLinesOf(cudaOf[line]);
    expect(want.length, `CUDA line ${cudaOf[line]} has PTX lines`).toBeGreaterThan(0);
    // The first is scrolled into view; every marked line in the page is one of them.
    await expect.poll(async () => {
      const got = await marked(page, '#ptx', 'current-line');
      return got.includes(want[0]) && got.every((l) => want.includes(l)) ? 'as wanted' : `${got} of ${want}`;
    }, `step ${step}, SASS line ${line}, CUDA line ${cudaOf[line]}`).toBe('as wanted');
    seen.add(cudaOf[line]);
  }
  // The kernel's lines and the inlined callee's loop (lines 12 and 13).
  for (const line of [12, 13, 18, 19, 20, 21, 24]) expect(seen, `CUDA lines seen: ${[...seen]}`).toContain(line);
});

test('a click on a PTX line lights up its CUDA line and SASS, and a SASS line its PTX', async ({ page }) => {
  const cudaOf = sassCudaOf(SASS);
  const sassLinesOf = (cuda: number) => SASS.split('\n').map((l, k) => k + 1).filter((n) => /\/\*[0-9a-f]{4}\*\//.test(SASS.split('\n')[n - 1]) && cudaOf[n] === cuda);
  await pasteAll(page);
  // The callee's multiply-add, inlined in the kernel: CUDA line 13 (`s = s * x + i;`).
  const mad = PTX.split('\n').findIndex((l) => /^\s*mad\.lo\.s32/.test(l)) + 1;
  expect(ptxInstrCuda(PTX).get(mad)).toBe(13);
  await clickLine(page, '#ptx', PTX.split('\n')[mad - 1].trim());
  await showTab(page, 'CUDA source');
  await expect.poll(() => marked(page, '#cuda', 'linked-line')).toEqual([13]);
  await expectMarked(page, '#editor', 'linked-line', sassLinesOf(13));
  // A click on the SASS store of out[t] (CUDA line 24) lights up the PTX made from that line.
  const store = SASS.split('\n').findIndex((l) => /STG\.E /.test(l)) + 1;
  expect(cudaOf[store]).toBe(24);
  await clickLine(page, '#editor', SASS.split('\n')[store - 1].trim());
  await showTab(page, 'PTX');
  await expectMarked(page, '#ptx', 'linked-line', ptxLinesOf(24));
});

test('the PTX is kept in links and the saved work; PTX of another kernel, or no PTX, says why', async ({ page, browser }) => {
  await pasteAll(page);
  // The view draws the lines near it: its first lines, and the note, which needs the whole kernel.
  const head = PTX.split('\n').slice(0, 8).join('\n');
  const shown = (p: Page) => p.locator('#ptx .cm-line').allTextContents().then((l) => l.slice(0, 8).join('\n'));
  await page.locator('#ptx .cm-scroller').evaluate((sc) => { sc.scrollTop = 0; });
  await expect.poll(() => shown(page)).toBe(head);
  const { other, ctx, problems } = await openCopiedLink(page, browser);
  await tab(other, 'PTX').click();
  await expect(other.getByTestId('ptx-info')).toHaveText('PTX of divergent_call: click a line to light up its SASS');
  await other.locator('#ptx .cm-scroller').evaluate((sc) => { sc.scrollTop = 0; });
  await expect.poll(() => shown(other)).toBe(head);
  expect(problems).toEqual([]);
  await ctx.close();
  await expect.poll(async () => JSON.parse((await savedWork(page)) ?? '{}').ptx).toBe(PTX);
  // nvcc's PTX of another file: its kernel is not the SASS's.
  await paste(page, 'ptx-content', OTHER_PTX);
  await expect(page.getByTestId('ptx-info')).toHaveText('This PTX has the kernels `if_else`, not `divergent_call`, the kernel of the SASS: paste the PTX of the same kernel.');
  await expect(page.getByTestId('ptx-info')).toHaveAttribute('data-kind', 'other-kernel');
  await expect(page.locator('#ptx').getByTestId('current-line')).toHaveCount(0);
  // The CUDA source pasted by mistake: not PTX; the text stays as typed.
  await paste(page, 'ptx-content', CUDA);
  await expect(page.getByTestId('ptx-info')).toContainText('This is not PTX');
  await expect.poll(async () => JSON.parse((await savedWork(page)) ?? '{}').ptx).toBe(CUDA);
  // cuobjdump -sass prints no lines: nothing can line up, and the tab says how to get them.
  await paste(page, 'editor-content', exampleText('core/tests/fixtures/sass/sm_90/collatz_steps.sass'));
  await showTab(page, 'PTX');
  await expect(page.getByTestId('ptx-info')).toContainText('nvdisasm -g');
  // A kernel that is not SASS has no PTX tab.
  await paste(page, 'editor-content', exampleText('examples/ptx/early_return.ptx'));
  await expect(tab(page, 'PTX')).toHaveCount(0);
});
