// Screenshots for a human to look at (/tmp/shots, or SHOTS_DIR), and the README's
// docs/screenshot.png when UPDATE_SCREENSHOT=1: `npm run shots`, not part of the test command.
// They assert nothing about pixels; what they wait for is checked by the specs in tests/.
import { mkdirSync } from 'node:fs';
import { writeFileSync } from 'node:fs';
import { download, exampleText, expect, hoverLine, open, openExample, openFigure, replaceText, seek, setStepLimit, test, useLayout } from '../helpers';
import { largeKernel } from '../large-kernel';
import { makeLink } from '../link-maker';

const dir = process.env.SHOTS_DIR ?? '/tmp/shots';
mkdirSync(dir, { recursive: true });

test('screenshots', async ({ page }) => {
  await open(page);
  await seek(page, 129);
  await page.getByTestId('lanes-canvas').hover({ position: { x: 300, y: 120 } });
  await page.screenshot({ path: `${dir}/fig3-step129.png` });
  if (process.env.UPDATE_SCREENSHOT) await page.screenshot({ path: 'docs/screenshot.png' });
  await openExample(page, 'double_loop.sass');
  await page.getByTestId('param-n').fill('20');
  await page.keyboard.press('Tab');
  await seek(page, Math.floor(Number(await page.getByTestId('step-label').getAttribute('data-total')) / 2));
  await page.screenshot({ path: `${dir}/double-loop-n20.png` });
  await page.getByTestId('btn-examples').click();
  await page.screenshot({ path: `${dir}/gallery.png` });
  await page.keyboard.press('Escape');
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('?');
  await page.screenshot({ path: `${dir}/help.png` });
});

test('screenshots of a C kernel beside its generated code', async ({ page }) => {
  for (const [w, h] of [[1280, 800], [1440, 900], [1600, 1000], [1920, 1080]]) {
    await page.setViewportSize({ width: w, height: h });
    await open(page);
    await openExample(page, 'double_loop.cu');
    await seek(page, 150);
    await page.screenshot({ path: `${dir}/double-loop-c-${w}x${h}.png` });
    // Pointing at a C line lights its instructions in the generated code.
    await hoverLine(page, '#editor', 16);
    await page.screenshot({ path: `${dir}/double-loop-c-hover-${w}x${h}.png` });
  }
  // A deep stack with spilled entries in the narrowest side-by-side layout.
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByTestId('param-n').fill('20');
  await page.keyboard.press('Tab');
  await seek(page, 2420);
  await page.screenshot({ path: `${dir}/double-loop-c-n20-1440x900.png` });
  await page.setViewportSize({ width: 1600, height: 1000 });
  await openExample(page, 'if_else.cu');
  await page.getByTestId('if-convert').check();
  await seek(page, 8);
  await page.screenshot({ path: `${dir}/if-else-c-ifconvert.png` });
  await page.setViewportSize({ width: 2560, height: 1300 });
  await page.screenshot({ path: `${dir}/if-else-c-2560.png` });
});

test('screenshots of compare mode and of thread frontiers in the CFG', async ({ page }) => {
  const compare = async (on: boolean) => {
    if ((await page.getByTestId('btn-compare').getAttribute('aria-pressed') === 'true') !== on) await page.getByTestId('btn-compare').click();
  };
  for (const [w, h] of [[1280, 800], [1920, 1080]]) {
    await page.setViewportSize({ width: w, height: h });
    await open(page);
    await openExample(page, 'tf_figure1.sass');
    await compare(true);
    await page.getByTestId('side-a-model').selectOption('pdom');
    await page.getByTestId('side-b-model').selectOption('tf-stack');
    await seek(page, 12);
    await page.screenshot({ path: `${dir}/compare-fig1-${w}x${h}.png` });
    await openExample(page, 'tf_barrier.cu');
    await seek(page, 12);
    await page.screenshot({ path: `${dir}/compare-barrier-deadlock-${w}x${h}.png` });
    await openExample(page, 'tf_conservative.sass');
    await seek(page, 9);
    await page.screenshot({ path: `${dir}/compare-tf-sandy-idle-${w}x${h}.png` });
    await openExample(page, 'spin_lock.cu');
    await page.getByTestId('side-b-model').selectOption('volta');
    await seek(page, 8);
    await page.screenshot({ path: `${dir}/compare-spin-lock-volta-${w}x${h}.png` });
    await compare(false);
  }
  // The single view under tf-stack: priorities and frontiers in every block, BB4's frontier outlined.
  await page.setViewportSize({ width: 1600, height: 1000 });
  await openExample(page, 'tf_figure1.sass');
  await seek(page, 14);
  await page.screenshot({ path: `${dir}/tf-stack-cfg-frontiers.png` });
  await page.locator('[data-panel=cfg]').screenshot({ path: `${dir}/tf-stack-cfg-frontiers-panel.png` });
});

test('screenshots of the CFG at any size: single and compare, a small and a 300-line kernel', async ({ page }) => {
  test.setTimeout(120_000);
  const compare = async (on: boolean) => {
    if ((await page.getByTestId('btn-compare').getAttribute('aria-pressed') === 'true') !== on) await page.getByTestId('btn-compare').click();
  };
  for (const [w, h] of [[1280, 720], [1920, 1080]]) {
    await page.setViewportSize({ width: w, height: h });
    await open(page);
    await openExample(page, 'if_else.cu');
    await seek(page, 5);
    await page.screenshot({ path: `${dir}/cfg-small-single-${w}x${h}.png` });
    await compare(true);
    await page.getByTestId('side-a-model').selectOption('kepler');
    await page.getByTestId('side-b-model').selectOption('volta');
    await seek(page, 5);
    await page.screenshot({ path: `${dir}/cfg-small-compare-${w}x${h}.png` });
    // Side B under its own preset: the table warns.
    await page.getByTestId('side-b-preset').selectOption('h100');
    await expect(page.getByTestId('compare-presets')).toContainText('not comparable');
    await page.screenshot({ path: `${dir}/cfg-small-compare-two-presets-${w}x${h}.png` });
    await page.getByTestId('side-b-preset').selectOption('');
    await compare(false);
    await replaceText(page, largeKernel());
    await expect(page.getByTestId('kernel-title')).toHaveText('Stress: a 300-line kernel');
    await seek(page, 400);
    await page.waitForTimeout(400); // the smooth follow
    await page.screenshot({ path: `${dir}/cfg-large-single-${w}x${h}.png` });
    await compare(true);
    await seek(page, 400);
    await page.waitForTimeout(400);
    await page.screenshot({ path: `${dir}/cfg-large-compare-${w}x${h}.png` });
    await compare(false);
  }
});

test('screenshots of sweeps and the papers\' figures', async ({ page }) => {
  for (const [w, h] of [[1280, 800], [1920, 1080]]) {
    await page.setViewportSize({ width: w, height: h });
    await open(page);
    // The sweep panel with several models and presets.
    await openExample(page, 'double_loop.sass');
    await page.getByTestId('btn-sweep').click();
    for (const m of ['pdom', 'tf-stack', 'volta']) await page.getByTestId(`sweep-models-${m}`).check();
    await page.getByTestId('sweep-presets-maxwell').check();
    await page.getByTestId('sweep-run').click();
    await expect(page.getByTestId('sweep-progress')).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
    await page.screenshot({ path: `${dir}/sweep-panel-${w}x${h}.png` });
    await openFigure(page, 'bs-fig1', true);
    await page.screenshot({ path: `${dir}/sweep-bs-fig1-${w}x${h}.png` });
    await openFigure(page, 'bs-fig2', true);
    await page.screenshot({ path: `${dir}/sweep-bs-fig2-${w}x${h}.png` });
    await openFigure(page, 'h100-double', true);
    const hover = (await page.getByTestId('sweep-hover').boundingBox())!;
    await page.mouse.move(hover.x + hover.width * 0.7, hover.y + 60);
    await page.screenshot({ path: `${dir}/sweep-h100-double-${w}x${h}.png` });
    await openFigure(page, 'hovland-fig5', true);
    await page.screenshot({ path: `${dir}/sweep-hovland-fig5-${w}x${h}.png` });
    await openFigure(page, 'bs-fig5', false);
    await page.screenshot({ path: `${dir}/figure-bs-fig5-${w}x${h}.png` });
  }
  // The exports as a reader of a slide gets them.
  await openFigure(page, 'h100-single', true);
  writeFileSync(`${dir}/export-h100-single.png`, (await download(page, page.getByTestId('sweep-export-png'))).bytes);
  writeFileSync(`${dir}/export-h100-single.svg`, (await download(page, page.getByTestId('sweep-export-svg'))).bytes);
  await page.getByTestId('btn-examples').click();
  await page.screenshot({ path: `${dir}/gallery-figures.png` });
});

test('screenshots of long runs, run ends, the link question and a hostile link', async ({ page }) => {
  // Two window sizes of runs that go on for seconds: more than the default 30 s on a busy machine.
  test.setTimeout(90_000);
  const counter = '//@ title Counter loop that never ends\n//@ warp 32\n//@ buffer out: i32[32]\n//@ model kepler\n' +
    '__global__ void counter(int* out) {\n    int i = 0;\n    while (threadIdx.x < 100) {\n        i = i + 1;\n    }\n    out[threadIdx.x] = i;\n}\n';
  for (const [w, h] of [[1280, 800], [1600, 1000]]) {
    await page.setViewportSize({ width: w, height: h });
    await open(page);
    await setStepLimit(page, 50_000_000);
    await replaceText(page, counter);
    await expect(page.getByTestId('run-progress')).toBeVisible();
    await expect.poll(async () => Number(await page.getByTestId('run-progress').getAttribute('data-steps'))).toBeGreaterThan(500_000);
    await page.screenshot({ path: `${dir}/run-progress-${w}x${h}.png` });
    await page.getByTestId('stop-run').click();
    await expect(page.getByTestId('run-stop')).toBeVisible();
    await page.getByTestId('stop-line').click();
    await page.screenshot({ path: `${dir}/run-stopped-${w}x${h}.png` });
    await openExample(page, 'spin_lock.cu');
    await page.getByTestId('stop-line').click();
    await page.screenshot({ path: `${dir}/spin-lock-deadlock-${w}x${h}.png` });
    await page.getByTestId('settings').click();
    await page.screenshot({ path: `${dir}/settings-${w}x${h}.png` });
    await page.getByTestId('settings').click();
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByTestId('btn-compare').click();
  await expect(page.getByTestId('compare-table')).toBeVisible();
  await replaceText(page, counter);
  await page.getByTestId('stop-run').click();
  await expect(page.getByTestId('compare-waiting')).toBeVisible();
  await page.screenshot({ path: `${dir}/compare-waiting-1280x800.png` });
  await page.getByTestId('btn-compare').click();
  // Someone's link over the user's own kernel, then the way back.
  await replaceText(page, '//@ title My own kernel\nIADD R1, R1, 0x1;\nEXIT;\n');
  await page.waitForTimeout(400);
  await page.goto('about:blank');
  await page.goto(`/${makeLink({ text: exampleText('examples/if_else.cu') })}`);
  await expect(page.getByTestId('link-question')).toBeVisible();
  await page.screenshot({ path: `${dir}/link-question-1280x800.png` });
  await page.getByTestId('link-use').click();
  await page.screenshot({ path: `${dir}/link-aside-1280x800.png` });
  await page.goto('about:blank');
  const evil = '<img src=x onerror="window.__pwned=1"> <script>window.__pwned=1</script>';
  await page.goto(`/${makeLink({ text: `//@ title ${evil}\nIADD R1, R1, 0x1;\nEXIT;\n`, model: evil })}`);
  await expect(page.getByTestId('link-question')).toBeVisible();
  await page.screenshot({ path: `${dir}/hostile-link-1280x800.png` });
  await page.goto('about:blank');
  await page.goto('/#v1.q1YqSy0qzszPU7JSMlGyUiouSUzOTi0pLUlVqgUA');
  await expect(page.getByTestId('banner')).toBeVisible();
  await page.screenshot({ path: `${dir}/broken-link-1280x800.png` });
});

// Issue 16's sizes: every mode at the projector, laptop, desktop and portrait-tablet sizes, the
// embeds at slide sizes, and the page with each kind of notice showing.
test('screenshots of every mode at the sizes instructors use, embeds at slide sizes, and each notice', async ({ page }) => {
  test.setTimeout(90_000);
  for (const [w, h] of [[1280, 720], [1366, 768], [1920, 1080], [768, 1024]]) {
    await page.setViewportSize({ width: w, height: h });
    await open(page);
    await seek(page, 100);
    await page.screenshot({ path: `${dir}/layout-single-${w}x${h}.png` });
    await openExample(page, 'double_loop.cu');
    await seek(page, 150);
    await page.screenshot({ path: `${dir}/layout-c-kernel-${w}x${h}.png` });
    await page.getByTestId('btn-compare').click();
    await seek(page, 150);
    await page.screenshot({ path: `${dir}/layout-compare-${w}x${h}.png` });
    await page.getByTestId('btn-compare').click();
    await page.getByTestId('btn-sweep').click();
    await page.getByTestId('sweep-run').click();
    await expect(page.getByTestId('sweep-progress')).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
    await page.screenshot({ path: `${dir}/layout-sweep-${w}x${h}.png` });
    await page.getByTestId('btn-sweep').click();
  }
  await page.setViewportSize({ width: 1280, height: 720 });
  for (const name of ['lecture', 'research', 'study']) {
    await useLayout(page, name);
    await page.screenshot({ path: `${dir}/layout-${name}-1280x720.png` });
  }
  const cfg = page.locator('.dv-groupview', { has: page.locator('[data-dock-panel=cfg]') });
  await cfg.getByTestId('panel-present').click();
  await page.screenshot({ path: `${dir}/present-cfg-1280x720.png` });
  await page.keyboard.press('Escape');
  await page.getByTestId('btn-share').click();
  await expect(page.frameLocator('[data-testid=embed-preview]').getByTestId('caption')).toBeVisible();
  await page.screenshot({ path: `${dir}/share-dialog-1280x720.png` });
  await page.keyboard.press('Escape');
  // Notices: a copied link, a deadlock opened in full, a figure's note.
  await page.getByTestId('copy-link').click();
  await page.screenshot({ path: `${dir}/notice-copied-1280x720.png` });
  await openExample(page, 'spin_lock.cu');
  await page.screenshot({ path: `${dir}/notice-deadlock-1280x720.png` });
  await page.getByTestId('notice-more').click();
  await page.screenshot({ path: `${dir}/notice-deadlock-open-1280x720.png` });
  await page.keyboard.press('Escape');
  await openFigure(page, 'bs-fig5', false);
  await page.screenshot({ path: `${dir}/notice-figure-1280x720.png` });
  const link = makeLink({ text: exampleText('examples/fig3_walkthrough.sass'), step: 60 });
  for (const [w, h] of [[800, 450], [640, 360], [1280, 720]]) {
    await page.setViewportSize({ width: w, height: h });
    await page.goto('about:blank');
    await open(page, `./${link}&embed=caption,cfg,lanes,stack,plot`);
    await page.screenshot({ path: `${dir}/embed-${w}x${h}.png` });
  }
});
