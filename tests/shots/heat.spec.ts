// Screenshots of the counters' heat (the generated code's column, the CFG's block rows) at the
// sizes a student, a projector and a tablet use, and in the lecture layout: /tmp/shots
// (SHOTS_DIR). They assert nothing about pixels.
import { mkdirSync, readFileSync } from 'node:fs';
import { expect, open, seek, test } from '../helpers';
import { makeLink } from '../link-maker';

const dir = process.env.SHOTS_DIR ?? '/tmp/shots';
mkdirSync(dir, { recursive: true });
const kernel = (f: string) => readFileSync(new URL(`../../examples/${f}`, import.meta.url), 'utf8');

// One test a picture: each starts with the default layout (a closed panel stays closed).
for (const [file, name] of [['grid/reduce_interleaved.cu', 'harris1'], ['loop_break.cu', 'loop-break']]) {
  for (const [w, h] of [[1280, 720], [1920, 1080], [768, 1024]]) {
    test(`screenshot of the heat: ${name} at ${w}x${h}`, async ({ page }) => {
      await page.setViewportSize({ width: w, height: h });
      await open(page, `./${makeLink({ text: kernel(file) })}`);
      // The generated code to the front: ticked again in the Layout menu (a narrow window has
      // its tab out of the strip).
      await page.getByTestId('layout-menu').click();
      await page.getByTestId('show-listing').uncheck();
      await page.getByTestId('show-listing').check();
      await page.getByTestId('layout-menu').click();
      await expect(page.getByTestId('heat-cell').first()).toBeVisible();
      await seek(page, 40);
      await page.screenshot({ path: `${dir}/heat-${name}-${w}x${h}.png` });
    });
  }
}

test('screenshot of the heat in the lecture layout (a projector\'s type floor)', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await open(page, `./${makeLink({ text: kernel('grid/reduce_interleaved.cu') })}`);
  await page.getByTestId('layout-menu').click();
  await page.getByTestId('layout-lecture').click();
  await page.getByRole('tab', { name: 'Generated code' }).click();
  await expect(page.getByTestId('heat-cell').first()).toBeVisible();
  await page.screenshot({ path: `${dir}/heat-harris1-lecture-1280x720.png` });
});

test('screenshots of a run too long to count unasked, before and after "count heat"', async ({ page }) => {
  test.setTimeout(60_000);
  // One warp looping to the default step limit: ten million steps to replay.
  const text = `//@ title A loop that never ends\n//@ warp 32\n//@ buffer out: i32[32]\n__global__ void spin(int* out) {\n    int i = 0;\n    while (threadIdx.x < 100) { i = i + 1; }\n    out[threadIdx.x] = i;\n}\n`;
  await page.setViewportSize({ width: 1280, height: 720 });
  await open(page, `./${makeLink({ text })}`);
  await page.getByRole('tab', { name: 'Generated code' }).click();
  await expect(page.getByTestId('run-end')).toContainText('step limit', { timeout: 30_000 });
  await expect(page.getByTestId('cfg-heat')).toHaveText('count heat');
  await page.screenshot({ path: `${dir}/heat-waits-1280x720.png` });
  await page.getByTestId('listing-heat').click();
  await expect(page.getByTestId('heat-cell').first()).toBeVisible();
  await page.screenshot({ path: `${dir}/heat-counted-1280x720.png` });
});

test('screenshots of the heat embedded at slide sizes (the generated code and the CFG)', async ({ page }) => {
  const link = makeLink({ text: kernel('grid/reduce_interleaved.cu') });
  for (const [w, h] of [[800, 450], [640, 360]]) {
    await page.setViewportSize({ width: w, height: h });
    await open(page, `./${link}&embed=listing,cfg`);
    await expect(page.getByTestId('heat-cell').first()).toBeVisible();
    await seek(page, 40);
    await page.screenshot({ path: `${dir}/heat-embed-${w}x${h}.png` });
  }
});
