// Screenshots of a whole launch's warps view (Harris's reductions #1 and #2), at the sizes a
// student, a projector and an embed use: /tmp/shots (SHOTS_DIR). They assert nothing about pixels.
import { mkdirSync, readFileSync } from 'node:fs';
import { expect, open, seek, test } from '../helpers';
import { makeLink } from '../link-maker';

const dir = process.env.SHOTS_DIR ?? '/tmp/shots';
mkdirSync(dir, { recursive: true });
const kernel = (f: string) => readFileSync(new URL(`../../examples/grid/${f}`, import.meta.url), 'utf8');

test('screenshots of the warps view', async ({ page }) => {
  for (const [file, name] of [['reduce_interleaved.cu', 'harris1'], ['reduce_strided.cu', 'harris2']]) {
    for (const [w, h] of [[1280, 720], [1920, 1080], [768, 1024]]) {
      await page.setViewportSize({ width: w, height: h });
      await open(page, `./${makeLink({ text: kernel(file) })}`);
      await expect(page.getByTestId('warps-canvas')).toBeVisible();
      await seek(page, 300);
      await page.screenshot({ path: `${dir}/warps-${name}-${w}x${h}.png` });
      if (w === 1280) {
        // The first divergence's caption (the focused warp's).
        await page.keyboard.press('Home');
        await page.keyboard.press('Shift+ArrowRight');
        await page.screenshot({ path: `${dir}/warps-${name}-div1-${w}x${h}.png` });
      }
    }
  }
  for (const [w, h] of [[800, 450], [640, 360]]) {
    await page.setViewportSize({ width: w, height: h });
    await open(page, `./${makeLink({ text: kernel('reduce_interleaved.cu'), embed: ['warps'], step: 300 })}`);
    await expect(page.getByTestId('warps-canvas')).toBeVisible();
    await page.screenshot({ path: `${dir}/warps-embed-${w}x${h}.png` });
  }
});

test('screenshot of a launch\'s memory: the step that fills the shared array', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await open(page, `./${makeLink({ text: kernel('reduce_shared.cu') })}`);
  await expect(page.getByTestId('warps-canvas')).toBeVisible();
  await seek(page, 9);
  await page.getByRole('tab', { name: 'Memory' }).click();
  await page.screenshot({ path: `${dir}/warps-memory-1280x720.png` });
});

test('screenshots of the tiled multiply\'s shared memory and its writers, and of the barrier lesson', async ({ page }) => {
  for (const [w, h] of [[1280, 720], [1920, 1080]]) {
    await page.setViewportSize({ width: w, height: h });
    await open(page, `./${makeLink({ text: kernel('matmul_tiled.cu') })}`);
    await expect(page.getByTestId('warps-canvas')).toBeVisible();
    await seek(page, 400);
    await page.getByRole('tab', { name: 'Memory' }).click();
    await page.screenshot({ path: `${dir}/matmul-memory-${w}x${h}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
  for (const model of ['kepler', 'volta']) {
    await open(page, `./${makeLink({ text: kernel('barrier_divergent.cu'), model })}`);
    await expect(page.getByTestId('warps-canvas')).toBeVisible();
    await page.keyboard.press('End');
    await page.screenshot({ path: `${dir}/barrier-${model}-1280x720.png` });
  }
});

test('screenshots of two kernels compared under one model', async ({ page }) => {
  for (const [w, h] of [[1280, 720], [1920, 1080]]) {
    await page.setViewportSize({ width: w, height: h });
    await open(page, `./${makeLink({ text: kernel('reduce_interleaved.cu'), compare: { model: 'kepler' }, compareText: kernel('reduce_strided.cu') })}`);
    await expect(page.getByTestId('compare-table')).toBeVisible();
    await seek(page, 300);
    await page.screenshot({ path: `${dir}/compare-kernels-${w}x${h}.png` });
  }
});

test('screenshots of a 32-warp block', async ({ page }) => {
  const text = kernel('reduce_shared.cu').replace('//@ launch grid=4 block=256', '//@ launch grid=1 block=1024')
    .replace('g_idata: i32[1024]', 'g_idata: i32[1024]').replace('g_odata: i32[4]', 'g_odata: i32[1]').replace('#define BLOCK 256', '#define BLOCK 1024');
  for (const [w, h] of [[1280, 720], [1920, 1080], [800, 450]]) {
    await page.setViewportSize({ width: w, height: h });
    const embed = w === 800 ? { embed: ['warps'] } : {};
    await open(page, `./${makeLink({ text, step: 900, ...embed })}`);
    await expect(page.getByTestId('warps-canvas')).toBeVisible();
    await page.screenshot({ path: `${dir}/warps-32-${w}x${h}.png` });
  }
});

test('screenshot of the Mandelbrot lesson', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await open(page, `./${makeLink({ text: kernel('mandelbrot.cu'), step: 3000 })}`);
  await expect(page.getByTestId('warps-canvas')).toBeVisible();
  await page.getByRole('tab', { name: 'Lanes' }).click();
  await page.screenshot({ path: `${dir}/mandelbrot-1280x720.png` });
});
