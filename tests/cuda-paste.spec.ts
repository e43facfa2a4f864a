// Kernels pasted the way students have them: a whole course file (includes, a host `main`, two
// kernels) runs as pasted, `main()` and both launches, each launch viewable; a header-less shuffle
// reduction shows its exchange in the lanes view and its C variables by name; every expectation
// comes from the CLI on the same text.
import type { Locator, Page } from '@playwright/test';
import { cliDump, cliListing, cliTrace, exampleText, expect, markedInView, open, openCopiedLink, paste, replaceText, runAllowingFailure, seek, showTab, tempFile, test } from './helpers';


const COURSE_FILE = `#include <cstdio>
#include <cuda_runtime.h>
#define N 32

__global__ void vecAdd(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + 2.0f * b[i];
}

__global__ void scale(float* c, float k) { c[threadIdx.x] *= k; }

int main() {
    float h[N], *d_a, *d_b, *d_c;
    for (int i = 0; i < N; i++) h[i] = i;
    cudaMalloc((void**)&d_a, N * sizeof(float));
    cudaMalloc((void**)&d_b, N * sizeof(float));
    cudaMalloc((void**)&d_c, N * sizeof(float));
    cudaMemcpy(d_a, h, sizeof(h), cudaMemcpyHostToDevice);
    cudaMemcpy(d_b, h, sizeof(h), cudaMemcpyHostToDevice);
    vecAdd<<<1, N>>>(d_a, d_b, d_c, N);
    scale<<<1, N>>>(d_c, 0.5f);
    cudaMemcpy(h, d_c, sizeof(h), cudaMemcpyDeviceToHost);
    printf("c[1] = %.1f, c[31] = %.1f\\n", h[1], h[31]);
    printf("done\\n");
    return 0;
}
`;

const SHUFFLE = `__global__ void warpSum(const int* in, int* out) {
    int val = in[threadIdx.x];
    for (int offset = 16; offset > 0; offset /= 2)
        val += __shfl_down_sync(0xffffffff, val, offset);
    if (threadIdx.x == 0) out[0] = val;
}
`;

/** The memory panel scrolled down to buffer `name` (only the rows in view are drawn): its value cells. */
async function scrollToBuffer(page: Page, name: string): Promise<Locator> {
  const grid = page.getByTestId('memory-grid');
  for (let top = 0; top < 4000 && !(await page.getByTestId(`memory-${name}`).locator('[role=cell]').count()); top += 40) {
    await grid.evaluate((el, t) => { el.scrollTop = t; el.dispatchEvent(new Event('scroll')); }, top);
    await page.waitForTimeout(20);
  }
  return page.getByTestId(`memory-${name}`).locator('[role=cell] .mem-v');
}

test('a whole file pasted shows its kernel, not the host code at its end', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await open(page);
  const host = Array.from({ length: 40 }, (_, i) => `    printf("host line ${i}\\n");`).join('\n');
  await paste(page, 'editor-content', COURSE_FILE.replace('    return 0;', `${host}\n    return 0;`));
  await expect(page.getByTestId('kernel-title')).toHaveText('vecAdd');
  // The step's line, the kernel's first, with the editor still focused for typing on.
  await expect.poll(() => markedInView(page, '#editor', 'current-line')).toBe(true);
  await expect(page.getByTestId('editor-content')).toBeFocused();
});

test('a whole course file runs as pasted: main() prints, each launch is viewable with what main() gave it and linked, as the CLI runs them', async ({ page, browser }) => {
  await open(page);
  await replaceText(page, COURSE_FILE);
  const path = tempFile('course.cu', COURSE_FILE);
  // The first launch is shown, as `trace` shows it.
  const first = cliTrace(path).total;
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-total', String(first));
  await expect(page.getByTestId('kernel-title')).toHaveText('vecAdd');
  // What main() printed: c = (a + 2b) / 2 with a = b = i, as the CLI prints it.
  const printed = runAllowingFailure(['run', path, '--printed']);
  expect(printed).toBe('c[1] = 1.5, c[31] = 46.5\ndone\n');
  await showTab(page, 'Output');
  await expect(page.getByTestId('program-stdout')).toHaveText(printed);
  await expect(page.getByTestId('program-end')).toContainText('exited with status 0');
  await expect(page.getByTestId('program-end')).toContainText('launch 1 of 2');
  // The inputs are main()'s, read-only, at the launch's line: the pointers name the buffers.
  await showTab(page, 'Kernel inputs');
  await expect(page.getByTestId('pi-set-by-main')).toContainText('line 20');
  const args = page.getByTestId('pi-arguments');
  await expect(args.locator('tbody tr', { hasText: /^a/ })).toContainText('→ d_a');
  await expect(args.locator('tbody tr', { hasText: /^n/ })).toContainText('32');
  // The launch's end: c = 3i in the device buffer main() named d_c.
  await seek(page, first);
  await showTab(page, 'Memory');
  const cells = await scrollToBuffer(page, 'd_c');
  await expect(cells.nth(1)).toHaveText('3');
  await expect(cells.nth(2)).toHaveText('6');
  // The second launch, picked: `scale`, as `trace --launch 2` shows it.
  await showTab(page, 'Kernel inputs');
  await page.getByTestId('launch-picker').selectOption('1');
  await expect(page.getByTestId('kernel-title')).toHaveText('scale');
  const second = String(cliTrace(path, [], ['--launch', '2']).total);
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-total', second);
  // Its permalink, opened as an embed in a fresh browser: the same launch, and main()'s output.
  const { other, ctx, problems } = await openCopiedLink(page, browser, '&embed=editor,output');
  await expect(other.getByTestId('kernel-title')).toHaveText('scale');
  await expect(other.getByTestId('kernel-launch')).toHaveText('launch 2 of 2');
  await expect(other.getByTestId('step-label')).toHaveAttribute('data-total', second);
  await expect(other.getByTestId('program-stdout')).toHaveText(printed);
  await expect(other.getByTestId('program-end')).toContainText('launch 2 of 2');
  expect(problems).toEqual([]);
  await ctx.close();
  // The kernel alone, with made-up inputs, as for a file without main(), and back.
  await page.getByTestId('pi-kernel-only').click();
  await expect(page.getByTestId('kernel-title')).toHaveText('vecAdd');
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-total', String(cliTrace(path, [], ['--kernel-only']).total));
  await page.getByTestId('diag-summary').click();
  await expect(page.getByTestId('problems')).toContainText('host code skipped (`main`), lines 12-26');
  await showTab(page, 'Kernel inputs');
  await page.getByTestId('pi-run-main').click();
  await expect(page.getByTestId('pi-set-by-main')).toContainText('line 20');
});

test('a shuffle step draws who got whose value, and the registers panel names the C variables', async ({ page }) => {
  await open(page);
  await replaceText(page, SHUFFLE);
  const path = tempFile('warp_sum.cu', SHUFFLE);
  const trace = cliTrace(path);
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-total', String(trace.total));
  // The first shuffle (offset 16): lanes 0-15 read lanes 16-31; lanes 16-31 are out of range.
  const first = trace.rows.find((r) => r && r.text.startsWith('SHFL'))!;
  await seek(page, first.step);
  const line = page.getByTestId('shuffle-exchange');
  await expect(line).toHaveText(`step ${first.step}: SHFL.DOWN: lanes 0-15 got the value of the lane 16 above; lanes 16-31 kept their own (source out of range or not running)`);
  const sources = (await page.getByTestId('lanes-canvas').getAttribute('data-exchange'))!.split(',').map(Number);
  expect(sources).toEqual(Array.from({ length: 32 }, (_, l) => (l < 16 ? l + 16 : l)));
  // A step that is not a shuffle has no exchange.
  await seek(page, first.step - 1);
  await expect(line).toBeHidden();
  // The registers panel shows the lane's C variables in scope at its line, by name and typed:
  // after the first shuffle, lane 0 holds in[0] + in[16] (the inputs made for it are 0, 1, 2...).
  await seek(page, first.step + 1);
  await showTab(page, 'Registers');
  const vars = page.getByTestId('variables');
  await expect(vars).toContainText('val');
  await expect(vars).toContainText('offset');
  await expect(vars.locator('.var', { hasText: 'offset' })).toContainText('16');
  expect(cliDump(path, 'out')[0]).toBe(String((31 * 32) / 2));
});

test('a thread reading shared memory no thread of its block wrote yet gets a warning at the array', async ({ page }) => {
  await open(page);
  // Block of 64, the whole block runs: lane 0 reads s[63], which thread 63 (warp 1) writes.
  const mirror = (sync: string) => `//@ launch block=64
__global__ void mirror(int* out) {
    __shared__ int s[64];
    s[threadIdx.x] = threadIdx.x + 1;${sync}
    out[threadIdx.x] = s[63 - threadIdx.x];
}
`;
  await replaceText(page, mirror('\n    __syncthreads();'));
  await expect(page.getByTestId('warps-focus')).toHaveText(/2 warps/);
  await expect(page.getByTestId('diag-summary')).not.toContainText('warning');
  // Without the barrier warp 0 reads before warp 1 has written.
  await replaceText(page, mirror(''));
  await expect(page.getByTestId('diag-summary')).toContainText('1 warning');
  await page.getByTestId('diag-summary').click();
  const warning = page.getByTestId('problem').filter({ hasText: 'read shared `s[63]`' });
  await expect(warning).toHaveAttribute('data-line', '3');
  await expect(warning).toContainText('thread (0, 0, 0) of block (0, 0, 0) read shared `s[63]` before any thread of its block wrote it');
});

// Harris's reduction, kernel 6: template kernel and device function, launched by the host.
const REDUCE6 = exampleText('core/tests/fixtures/c/reduce6.cu');

test('a template kernel runs the instance the host launches (a #define\'d block size), as the CLI runs it', async ({ page }) => {
  await open(page);
  // One block of the 32 threads the instance is for (`blockSize`; the whole launch of the host's
  // block of 64 reads past the input), with room in shared memory for `warpReduce`'s reads.
  const text = `//@ launch block=32\n//@ buffer sdata: i32[64]\n//@ param n = 128\n//@ buffer g_idata: i32[128] = i\n${REDUCE6}`;
  await replaceText(page, text);
  // Its `//@` inputs are for the kernel alone (its main() would launch it with its own).
  await showTab(page, 'Kernel inputs');
  await page.getByTestId('pi-kernel-only').click();
  const path = tempFile('reduce6.cu', text);
  const total = cliTrace(path, [], ['--kernel-only']).total;
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-total', String(total));
  await expect(page.getByTestId('diag-summary')).not.toContainText('error');
  // The instance the host's launch names, and the device template's instance it calls.
  await showTab(page, 'Generated code');
  await expect(page.locator('#listing')).toContainText('kepler code for `reduce6<32>`');
  expect(cliListing(path).lines.join('\n')).toContain('CAL `(.L_fn_warpReduce_32_)');
  // The block adds 0 + 1 + ... + 127.
  expect(cliDump(path, 'g_odata', ['--kernel-only'])[0]).toBe('8128');
});

/** CS344's Problem Set 1 as the course hands out its student file (the `utils.h` include, the
 * host's `your_rgba_to_greyscale` with its launch). */
const CS344_GREYSCALE = `#include "utils.h"

__global__
void rgba_to_greyscale(const uchar4* const rgbaImage,
                       unsigned char* const greyImage,
                       int numRows, int numCols)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= numCols || y >= numRows) return;
  uchar4 rgba = rgbaImage[y * numCols + x];
  float channelSum = .299f * rgba.x + .587f * rgba.y + .114f * rgba.z;
  greyImage[y * numCols + x] = channelSum;
}

void your_rgba_to_greyscale(const uchar4 * const h_rgbaImage, uchar4 * const d_rgbaImage,
                            unsigned char* const d_greyImage, size_t numRows, size_t numCols)
{
  const dim3 blockSize(32, 1, 1);
  const dim3 gridSize(numCols / 32 + 1, numRows, 1);
  rgba_to_greyscale<<<gridSize, blockSize>>>(d_rgbaImage, d_greyImage, numRows, numCols);
  cudaDeviceSynchronize(); checkCudaErrors(cudaGetLastError());
}
`;

test('CS344\'s greyscale runs as pasted: each pixel a uchar4 in four registers, the grey bytes as the CLI computes them', async ({ page }) => {
  await open(page);
  await replaceText(page, CS344_GREYSCALE);
  const path = tempFile('student_func.cu', CS344_GREYSCALE);
  const trace = cliTrace(path);
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-total', String(trace.total));
  await page.getByTestId('diag-summary').click();
  await expect(page.getByTestId('problems')).toContainText('host code skipped (`your_rgba_to_greyscale`)');
  // After the pixel's four byte loads the registers panel shows the variable whole: the inputs
  // made for rgbaImage hold their index, so lane 1's pixel is bytes 4-7.
  const loads = trace.rows.filter((r) => r && r.text.startsWith('LD.E.U8'));
  expect(loads).toHaveLength(4);
  await seek(page, loads[3].step);
  await showTab(page, 'Registers');
  await page.getByTestId('lane-select').fill('1');
  const rgba = page.getByTestId('variables').locator('.var[title^="uchar4 rgba "]');
  await expect(rgba).toContainText('{4, 5, 6, 7}');
  await expect(rgba).toHaveAttribute('title', /held in R(\d+)-R\d+$/);
  // The grey bytes at the end, as the CLI's run leaves them.
  await seek(page, trace.total);
  await showTab(page, 'Memory');
  const want = cliDump(path, 'greyImage');
  expect(want.slice(0, 3)).toEqual(['0', '4', '8']);
  const cells = await scrollToBuffer(page, 'greyImage');
  for (const k of [1, 2, 3]) await expect(cells.nth(k)).toHaveText(new RegExp(`^${want[k]}\\b`));
});
