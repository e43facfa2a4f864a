// The Kernel inputs panel on a kernel pasted with no `//@` lines: its made inputs are listed as
// auto; a changed field writes its `//@` line into the editor and the run uses it (checked against
// the CLI on the same text); the launch picks which threads the lanes are; a file of two kernels
// runs the one picked; a bad value shows the core's error and stays in its field; a run that ends
// while a field is typed in leaves the typing alone; it fits 1280x720.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { cliDump, expect, open, openExample, replaceText, savedWork, setStepLimit, showTab, test } from './helpers';

const ADD = `__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
`;

const TWO = `__global__ void first(int* a) { a[threadIdx.x] = 1; }
__global__ void second(int* a) { a[threadIdx.x] = 2; }
`;

/** The kernel text as the app keeps it (saved as you type). */
async function kernelText(page: Page): Promise<string> {
  await page.waitForTimeout(50);
  return (JSON.parse((await savedWork(page)) ?? '{}') as { text?: string }).text ?? '';
}

/** The text in a file, for the CLI. */
function fileOf(text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'warpscope-inputs-')), 'kernel.cu');
  writeFileSync(file, text);
  return file;
}

async function showInputs(page: Page): Promise<void> {
  await showTab(page, 'Kernel inputs');
  await expect(page.getByTestId('ki-launch')).toBeVisible();
}

/** Types `value` into a field and commits it (Enter), waiting for the run it starts. */
async function setField(page: Page, testid: string, value: string): Promise<void> {
  const f = page.getByTestId(testid);
  await f.fill(value);
  await f.press('Enter');
  await expect(page.getByTestId(testid)).toHaveValue(value);
}

/** Buffer `name`'s first `n` elements at the end of the run, as the memory panel shows them (read
 * while its grid scrolls from top to bottom: only the rows in view are drawn). */
async function memoryAtEnd(page: Page, name: string, n: number): Promise<string[]> {
  await page.getByTestId('step-label').click();
  await page.keyboard.press('End');
  await showTab(page, 'Memory');
  const grid = page.getByTestId('memory-grid');
  await expect(grid).toBeVisible();
  const out = new Map<number, string>();
  const height = await grid.evaluate((el) => el.scrollHeight);
  for (let top = 0; ; top += 60) {
    await grid.evaluate((el, t) => { el.scrollTop = t; el.dispatchEvent(new Event('scroll')); }, top);
    await page.waitForTimeout(30);
    const cells = await page.getByTestId(`memory-${name}`).locator('[role=cell]').evaluateAll((els) =>
      els.map((e) => [Number((e as HTMLElement).dataset.index), e.querySelector('.mem-v')!.textContent!] as const));
    for (const [i, v] of cells) out.set(i, v);
    if (top >= height) break;
  }
  return [...out].filter(([i]) => i < n).sort((a, b) => a[0] - b[0]).map(([, v]) => v);
}

test('a header-less kernel lists its inputs as auto; edits write //@ lines the run uses, as the CLI runs them', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await open(page);
  await replaceText(page, ADD);
  await expect(page.getByTestId('kernel-title')).toBeAttached();
  await showInputs(page);
  const rows = page.getByTestId('ki-buffer');
  await expect(rows).toHaveCount(3);
  for (const [i, name] of ['a', 'b', 'c'].entries()) {
    await expect(rows.nth(i).locator('th')).toHaveText(name);
    await expect(rows.nth(i).getByTestId('ki-source')).toHaveText('auto');
    await expect(rows.nth(i)).toContainText('f32');
  }
  await expect(page.getByTestId('ki-buffer-c-len')).toHaveValue('32');
  const c = page.locator('tr[data-buffer=c]');
  await expect(c.locator('+ tr')).toHaveText('32 elements: 0, 1, 2, 3, 4, 5, 6, 7, …');
  const n = page.getByTestId('ki-param');
  await expect(n.locator('th')).toHaveText('n');
  await expect(n.getByTestId('ki-source')).toHaveText('auto');
  // Nothing scrolls sideways in the panel at 1280x720.
  const overflow = await page.locator('#kernel-inputs').evaluate((el) => el.scrollWidth - el.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);

  await setField(page, 'ki-buffer-c-len', '40');
  // A declared buffer comes first, as in memory.
  await expect(rows.first()).toHaveAttribute('data-buffer', 'c');
  await expect(c.getByTestId('ki-source')).toHaveText('line 1');
  await setField(page, 'ki-param-n', '20');
  await expect(n.getByTestId('ki-source')).toHaveText('line 2');
  const text = await kernelText(page);
  expect(text).toBe(`//@ buffer c: f32[40] = i\n//@ param n = 20\n${ADD}`);
  await expect(c.locator('+ tr')).toContainText('40 elements');
  await expect(page.getByTestId('param-n')).toHaveValue('20');
  // The run is the CLI's run of the same text.
  const cli = cliDump(fileOf(text), 'c');
  expect(cli).toHaveLength(40);
  expect(await memoryAtEnd(page, 'c', 40)).toEqual(cli);

  // The source button shows the line in the editor.
  await showInputs(page);
  await c.getByTestId('ki-source').click();
  await expect(page.getByTestId('editor-content')).toBeFocused();
  await expect.poll(() => page.evaluate(() => document.getSelection()?.toString())).toBe('//@ buffer c: f32[40] = i');
  // Ctrl+Z in the editor takes back the last edit only.
  await page.keyboard.press('Control+z');
  await expect.poll(() => kernelText(page)).toBe(`//@ buffer c: f32[40] = i\n${ADD}`);
  // Make auto removes a line.
  await showInputs(page);
  await c.getByTestId('ki-make-auto').click();
  await expect.poll(() => kernelText(page)).toBe(ADD);
  await expect(c.getByTestId('ki-source')).toHaveText('auto');
});

test('a param set in the top bar shows that one value, marked as the top bar\'s; "use" goes back to its line', async ({ page }) => {
  await open(page);
  await openExample(page, 'single_loop.cu');
  await page.getByTestId('param-n').fill('64');
  await showInputs(page);
  // The value the run uses, not the line's 2 beside a "runs with 64".
  await expect(page.getByTestId('ki-param-n')).toHaveValue('64');
  await expect(page.locator('tr[data-param=n] .ki-badge')).toHaveText('top bar');
  await expect(page.getByTestId('ki-param-note')).toHaveText('Set to 64 in the top bar; line 7 says n = 2. use 2');
  await page.getByTestId('ki-use-line').click();
  await expect(page.getByTestId('param-n')).toHaveValue('2');
  await expect(page.getByTestId('ki-param-n')).toHaveValue('2');
  await expect(page.getByTestId('ki-param-note')).toHaveCount(0);
  // A value typed in the panel is the kernel's: its line, and the top bar follows.
  await page.getByTestId('param-n').fill('64');
  await setField(page, 'ki-param-n', '5');
  await expect.poll(() => kernelText(page)).toContain('//@ param n = 5\n');
  await expect(page.getByTestId('param-n')).toHaveValue('5');
  await expect(page.locator('tr[data-param=n] .ki-badge')).toHaveCount(0);
});

test('the launch picks the warp shown first: grid=2 block=64 warp=1 shows threads 32-63 of block 0, and every warp runs', async ({ page }) => {
  await open(page);
  await replaceText(page, ADD);
  await showInputs(page);
  await setField(page, 'ki-launch-grid', '2');
  await setField(page, 'ki-launch-block', '64');
  await setField(page, 'ki-launch-warp', '1');
  await expect.poll(() => kernelText(page)).toBe(`//@ launch grid=2 block=64 warp=1\n${ADD}`);
  await expect(page.getByTestId('ki-launch-note')).toHaveText('Every warp of the launch runs. The views show block 0 (the blocks before it have run, those after it run next) and its warp 1 (threads 32-63) first; the Warps panel focuses another.');
  await expect(page.getByTestId('warps-focus')).toHaveText(/warp 1 in focus/);
  // Every buffer holds one element per thread of the launch; at block 0's end its 64 threads have
  // added theirs, block 1's run next.
  await expect(page.getByTestId('ki-buffer-c-len')).toHaveValue('128');
  const c = await memoryAtEnd(page, 'c', 128);
  expect(c.length).toBe(128);
  for (let i = 0; i < 128; i++) expect(c[i], `c[${i}]`).toBe(String(i < 64 ? 2 * i : i));
  // A size that is not numbers stays in its field, marked, and writes nothing.
  await showInputs(page);
  await page.getByTestId('ki-launch-block').fill('lots');
  await page.getByTestId('ki-launch-block').press('Enter');
  await expect(page.getByTestId('ki-launch-block')).toHaveClass(/invalid/);
  expect(await kernelText(page)).toBe(`//@ launch grid=2 block=64 warp=1\n${ADD}`);
});

test('two launch fields changed before the first run is back both land', async ({ page }) => {
  await open(page);
  await replaceText(page, ADD);
  await showInputs(page);
  // Both changes in one task, as on a loaded machine where the first run is not back before the
  // second field is committed.
  await page.evaluate(() => {
    for (const [id, value] of [['ki-launch-grid', '2'], ['ki-launch-block', '64']]) {
      const f = document.querySelector<HTMLInputElement>(`[data-testid="${id}"]`)!;
      f.value = value;
      f.dispatchEvent(new Event('change'));
    }
  });
  await expect.poll(() => kernelText(page)).toBe(`//@ launch grid=2 block=64\n${ADD}`);
  await expect(page.getByTestId('ki-launch-grid')).toHaveValue('2');
  await expect(page.getByTestId('ki-launch-block')).toHaveValue('64');
});

test('a file of two kernels runs the one picked', async ({ page }) => {
  await open(page);
  await replaceText(page, TWO);
  await showInputs(page);
  const pick = page.getByTestId('ki-kernel');
  await expect(pick).toHaveValue('first');
  expect(await memoryAtEnd(page, 'a', 4)).toEqual(['1', '1', '1', '1']);
  await showInputs(page);
  await pick.selectOption('second');
  await expect.poll(() => kernelText(page)).toBe(`//@ kernel second\n${TWO}`);
  await expect(pick).toHaveValue('second');
  expect(await memoryAtEnd(page, 'a', 4)).toEqual(['2', '2', '2', '2']);
});

test('a bad value shows the core\'s error and stays in its field until fixed', async ({ page }) => {
  await open(page);
  await replaceText(page, ADD);
  await showInputs(page);
  await setField(page, 'ki-param-n', 'n0 +');
  await expect(page.getByTestId('ki-problems')).toContainText('line 1:');
  await expect(page.getByTestId('diag-summary')).toContainText('error');
  await expect(page.getByTestId('ki-param-n')).toHaveValue('n0 +');
  await setField(page, 'ki-param-n', '7');
  await expect(page.getByTestId('ki-problems')).toHaveCount(0);
  await expect(page.getByTestId('param-n')).toHaveValue('7');
});

/** Every lane loops forever (a run ends at the step limit). */
const COUNTER = `//@ warp 32
//@ buffer out: i32[32]
__global__ void counter(int* out) {
    int i = 0;
    while (threadIdx.x < 100) { i = i + 1; }
    out[threadIdx.x] = i;
}
`;

/** Starts a long run, types 6 into buffer out's length while it loads and waits for the run to end
 * and the panel to be drawn again from it; returns the field. */
async function typeWhileARunLoads(page: Page) {
  await open(page);
  await setStepLimit(page, 50_000_000);
  await replaceText(page, COUNTER);
  await expect(page.getByTestId('run-progress')).toBeVisible();
  await page.getByTestId('stop-run').click();
  await showInputs(page);
  await expect(page.getByTestId('ki-buffer-out-len')).toHaveValue('32');
  // An edit in the editor starts another long run ...
  await showTab(page, 'Kernel');
  await page.getByTestId('editor-content').click();
  await page.keyboard.press('Control+Home');
  await page.keyboard.type('//@ buffer extra: i32[4]\n');
  await expect(page.getByTestId('run-progress')).toBeVisible();
  // ... and while it loads, the user starts typing a length.
  await showInputs(page);
  const field = page.getByTestId('ki-buffer-out-len');
  await field.click();
  await page.keyboard.press('Control+a');
  await page.keyboard.type('6');
  await expect(page.getByTestId('run-progress')).toBeVisible();
  // The run ends (the step limit) and the panel is drawn again from it.
  await expect(page.getByTestId('run-stop')).toHaveAttribute('data-kind', 'step_limit', { timeout: 20_000 });
  await expect(page.getByTestId('ki-buffer-extra-len')).toBeVisible();
  await expect(field).toHaveValue('6');
  await expect(field).toBeFocused();
  expect(await kernelText(page)).toContain('//@ buffer out: i32[32]');
  return field;
}

test('a run that ends while a field is typed in keeps its text, uncommitted, and the cursor', async ({ page }) => {
  const field = await typeWhileARunLoads(page);
  await page.keyboard.type('4');
  await expect(field).toHaveValue('64');
  await page.keyboard.press('Enter');
  await expect.poll(() => kernelText(page)).toContain('//@ buffer out: i32[64]');
});

for (const key of ['Enter', 'Tab']) {
  test(`${key} commits text a rebuild carried over, with no more typing`, async ({ page }) => {
    await typeWhileARunLoads(page);
    await page.keyboard.press(key);
    await expect.poll(() => kernelText(page)).toContain('//@ buffer out: i32[6]');
    await expect(page.getByTestId('ki-buffer-out-len')).toHaveValue('6');
  });
}

test('Enter in a field keeps the cursor where it was once the run it starts is drawn', async ({ page }) => {
  await open(page);
  await replaceText(page, ADD);
  await showInputs(page);
  const field = page.getByTestId('ki-param-n');
  await field.fill('7');
  await field.press('Enter');
  await expect(page.getByTestId('param-n')).toHaveValue('7');
  await expect(field).toBeFocused();
  await page.keyboard.type('0');
  await expect(field).toHaveValue('70');
});

const CONSTANT_MASK = `#define MASK_WIDTH 5
__constant__ float M[MASK_WIDTH] = {0.1f, 0.2f, 0.4f, 0.2f, 0.1f};
__device__ int hits;

__global__ void convolution_1D(const float *N, float *P, int width) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float Pvalue = 0;
    int start = i - (MASK_WIDTH / 2);
    for (int j = 0; j < MASK_WIDTH; j++)
        if (start + j >= 0 && start + j < width) Pvalue += N[start + j] * M[j];
    P[i] = Pvalue;
    atomicAdd(&hits, 1);
}
`;

test('__constant__ and __device__ variables are inputs their declarations size and fill; an edit of the values runs', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await open(page);
  await replaceText(page, CONSTANT_MASK);
  await expect(page.getByTestId('kernel-title')).toBeAttached();
  await showInputs(page);
  const m = page.locator('tr[data-buffer=M]');
  await expect(m.locator('.ki-badge')).toHaveText('constant');
  await expect(page.locator('tr[data-buffer=hits] .ki-badge')).toHaveText('device');
  // The length is the declaration's, not a field; the values are the initialiser's, editable.
  await expect(page.getByTestId('ki-buffer-M-len')).toHaveCount(0);
  await expect(m.locator('td').nth(1)).toHaveText('5');
  await expect(page.getByTestId('ki-buffer-M-init')).toHaveValue('[0.1, 0.2, 0.4, 0.2, 0.1]');
  await expect(m.getByTestId('ki-source')).toHaveAttribute('title', /declared __constant__ \(line 2\)/);
  const cli = cliDump(fileOf(CONSTANT_MASK), 'P');
  expect(await memoryAtEnd(page, 'P', 32)).toEqual(cli);
  expect(await memoryAtEnd(page, 'hits', 1)).toEqual(['32']);

  // New values: a header line of the same length, which the run and the CLI use alike.
  await showInputs(page);
  await setField(page, 'ki-buffer-M-init', '[0, 0, 1, 0, 0]');
  const text = await kernelText(page);
  expect(text).toBe(`//@ buffer M: f32[5] = [0, 0, 1, 0, 0]\n${CONSTANT_MASK}`);
  const edited = cliDump(fileOf(text), 'P');
  expect(edited.slice(0, 4)).toEqual(['0', '1', '2', '3']);
  expect(await memoryAtEnd(page, 'P', 32)).toEqual(edited);
  await showInputs(page);
  await expect(m.locator('.ki-badge')).toHaveText('constant');
  await expect(m.getByTestId('ki-source')).toHaveText('line 1');
});

const TEXT_HISTOGRAM = `__global__ void histo_kernel(char *data, unsigned int length, unsigned int *histo) {
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int stride = blockDim.x * gridDim.x;
    for (unsigned int k = i; k < length; k += stride) {
        int alphabet_position = data[k] - 'a';
        if (alphabet_position >= 0 && alphabet_position < 26) atomicAdd(&histo[alphabet_position / 4], 1);
    }
}
`;

test('a char buffer takes a text in its values field; the run counts its letters as the CLI does', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await open(page);
  await replaceText(page, TEXT_HISTOGRAM);
  await expect(page.getByTestId('kernel-title')).toBeAttached();
  await showInputs(page);
  const data = page.locator('tr[data-buffer=data]');
  await expect(data).toContainText('i8');
  await setField(page, 'ki-buffer-data-len', '48');
  await setField(page, 'ki-buffer-data-init', '"programming massively parallel processors"');
  await expect(data.locator('+ tr')).toHaveText("48 elements: 112 'p', 114 'r', 111 'o', 103 'g', 114 'r', 97 'a', 109 'm', 109 'm', …");
  await setField(page, 'ki-buffer-histo-len', '7');
  await setField(page, 'ki-buffer-histo-init', '0');
  await setField(page, 'ki-param-length', '41');
  const text = await kernelText(page);
  expect(text).toContain('//@ buffer data: i8[48] = "programming massively parallel processors"\n');
  const cli = cliDump(fileOf(text), 'histo');
  expect(cli).toEqual(['5', '5', '6', '10', '10', '1', '1']);
  expect(await memoryAtEnd(page, 'histo', 7)).toEqual(cli);
  // The text's bytes in memory, a byte an element, each with its character.
  expect(await memoryAtEnd(page, 'data', 3)).toEqual(["112 'p'", "114 'r'", "111 'o'"]);
});

test('a listed value its element cannot hold is an error at the value; the kernel text is kept', async ({ page }) => {
  await open(page);
  const text = '//@ buffer b: u8[4] = [1, 2, 3, 4]\n//@ reg R2 = b\nLD.E.U8 R3, [R2];\nEXIT;\n';
  await replaceText(page, text);
  await showInputs(page);
  await setField(page, 'ki-buffer-b-init', '[1, 300, 3]');
  // The core's message, at the header's line; the run that worked stays on show.
  await expect(page.getByTestId('ki-problems')).toContainText('line 1:');
  await expect(page.getByTestId('ki-problems')).toContainText('element i=1 of `b`: 300 does not fit u8 (0 to 255)');
  await expect(page.getByTestId('ki-buffer-b-init')).toHaveValue('[1, 300, 3]');
  await setField(page, 'ki-buffer-b-init', '[1, 255, -1]');
  await expect(page.getByTestId('ki-problems')).toHaveCount(0);
  expect(await memoryAtEnd(page, 'b', 4)).toEqual(['1', '255', '255', '0']);
});
