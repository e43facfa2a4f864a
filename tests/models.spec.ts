// The reconvergence models in the app: the model, path-order and schedule choices, the thread
// frontiers in the CFG, the new stack entry kinds, deadlocks, and compare mode (two models side by
// side with one scrubber and a metrics table). Expectations come from the CLI's trace and compare
// output of the same kernel.
import type { Page } from '@playwright/test';
import { cliCompare, cliCycles, cliTrace, expect, open, openCopiedLink, openExample, seek, test, uiStack } from './helpers';

const FIG1 = 'examples/tf_figure1.sass';
const BARRIER = 'examples/tf_barrier.cu';

async function startCompare(page: Page, a: string, b: string): Promise<void> {
  await page.getByTestId('btn-compare').click();
  await expect(page.getByTestId('compare-view')).toBeVisible();
  await page.getByTestId('side-a-model').selectOption(a);
  await page.getByTestId('side-b-model').selectOption(b);
  await expect(page.getByTestId('compare-col-a')).toContainText(a);
  await expect(page.getByTestId('compare-col-b')).toContainText(b);
}

/** A link packed the way the first app versions did (the browser's CompressionStream), from its JSON. */
function oldLink(page: Page, json: object): Promise<string> {
  return page.evaluate(async (text) => {
    const packed = new Blob([new TextEncoder().encode(text)]).stream().pipeThrough(new CompressionStream('deflate-raw'));
    const bytes = new Uint8Array(await new Response(packed).arrayBuffer());
    return `#v1.${btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}`;
  }, JSON.stringify(json));
}

const cells = (page: Page, row: string) => page.getByTestId(`compare-row-${row}`).locator('td');

test('the model select lists every model with a description; path order and schedule show for the models that read them', async ({ page }) => {
  await open(page);
  await openExample(page, 'tf_figure1.sass');
  const models = page.getByTestId('model');
  expect(await models.locator('option').allTextContents()).toEqual(['kepler', 'pdom', 'pdom-ssy', 'struct', 'tf-stack', 'tf-sandy', 'volta', 'mimd']);
  for (const title of await models.locator('option').evaluateAll((os) => os.map((o) => o.getAttribute('title') ?? ''))) {
    expect(title.length).toBeGreaterThan(30);
  }
  await expect(page.getByTestId('path-order')).toHaveCount(0);
  await models.selectOption('pdom');
  await expect(page.getByTestId('path-order')).toHaveValue('taken');
  expect(await page.getByTestId('path-order').locator('option').allTextContents()).toEqual(['taken', 'fall-through']);
  await page.getByTestId('path-order').selectOption('fall-through');
  await expect(page.getByTestId('path-order')).toHaveValue('fall-through');
  await models.selectOption('volta');
  await expect(page.getByTestId('path-order')).toHaveCount(0);
  await expect(page.getByTestId('schedule')).toHaveValue('h100');
  // Volta's default cost preset, and h100 among the presets.
  await expect(page.getByTestId('preset')).toHaveValue('h100');
  expect(await page.getByTestId('preset').locator('option').allTextContents()).toContain('h100');
  await page.getByTestId('schedule').selectOption('round-robin');
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-total', String(cliTrace(FIG1, [], ['--model', 'volta', '--schedule', 'round-robin']).total));
});

test('Figure 1 in compare mode: pdom runs 26 warp instructions and BB3 twice, tf-stack 19 and once', async ({ page }) => {
  const cli = cliCompare(FIG1, ['pdom', 'tf-stack']);
  expect(cli.warp_instructions).toEqual(['26', '19']);
  await open(page);
  await openExample(page, 'tf_figure1.sass');
  await startCompare(page, 'pdom', 'tf-stack');
  await expect(cells(page, 'warp_instructions')).toHaveText(cli.warp_instructions);
  await expect(cells(page, 'warp_instructions')).toHaveText(['26', '19']);
  await expect(cells(page, 'block-3')).toHaveText(['2 (min 1)', '1 (min 1)']);
  await expect(page.getByTestId('compare-row-block-3')).toHaveClass(/differ/);
  // Every block row as the CLI prints it; the rows that agree are not highlighted.
  for (let b = 0; b <= 6; b++) await expect(cells(page, `block-${b}`)).toHaveText(cli[`BB${b}`]);
  await expect(page.getByTestId('compare-row-thread_instructions')).not.toHaveClass(/differ/);
  await expect(cells(page, 'code_expansion')).toHaveText(['+36.8 %', '0.0 %']);
  // One scrubber spans the longer run.
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-total', '26');
});

test('kepler vs volta counts both sides\' cycles under one cost preset unless side B picks its own; the table says which, and the link keeps it', async ({ page, browser }) => {
  const file = 'examples/if_else.cu';
  // Each model's own default preset would give volta h100 costs: not comparable with kepler's.
  expect(cliCycles(file, 'volta')).not.toBe(cliCycles(file, 'volta', 'kepler'));
  await open(page);
  await openExample(page, 'if_else.cu');
  await startCompare(page, 'kepler', 'volta');
  await expect(page.getByTestId('side-b-preset')).toHaveValue('');
  await expect(page.getByTestId('side-b-preset').locator('option:checked')).toHaveText('as left (kepler)');
  await expect(page.getByTestId('compare-preset-a')).toHaveText('kepler costs');
  await expect(page.getByTestId('compare-preset-b')).toHaveText('kepler costs');
  await expect(page.getByTestId('compare-presets')).toHaveText('Cycles: both sides under the kepler cost preset.');
  await expect(cells(page, 'cycles')).toHaveText([cliCycles(file, 'kepler'), cliCycles(file, 'volta', 'kepler')]);
  // Side A's preset, from the top bar, is side B's too.
  await page.getByTestId('preset').selectOption('maxwell');
  await expect(page.getByTestId('compare-preset-b')).toHaveText('maxwell costs');
  await expect(cells(page, 'cycles')).toHaveText([cliCycles(file, 'kepler', 'maxwell'), cliCycles(file, 'volta', 'maxwell')]);
  await page.getByTestId('preset').selectOption('kepler');
  // Side B's own preset: each column names its costs, and the table warns.
  await page.getByTestId('side-b-preset').selectOption('h100');
  await expect(page.getByTestId('compare-preset-b')).toHaveText('h100 costs');
  await expect(page.getByTestId('compare-preset-a')).toHaveText('kepler costs');
  await expect(page.getByTestId('compare-presets')).toContainText('Cycles are not comparable here: the left side (kepler) counts kepler costs, the right (volta) h100 costs');
  await expect(cells(page, 'cycles')).toHaveText([cliCycles(file, 'kepler'), cliCycles(file, 'volta', 'h100')]);
  await expect(page.getByTestId('compare-row-cycles')).toHaveClass(/caveat/);
  await expect(page.getByTestId('compare-row-cycles')).not.toHaveClass(/differ/);

  const { other, ctx, problems } = await openCopiedLink(page, browser);
  await expect(other.getByTestId('side-b-preset')).toHaveValue('h100');
  await expect(other.getByTestId('compare-preset-b')).toHaveText('h100 costs');
  await expect(other.getByTestId('compare-presets')).toContainText('not comparable');
  // Back to "as left": one preset again.
  await other.getByTestId('side-b-preset').selectOption('');
  await expect(other.getByTestId('compare-preset-b')).toHaveText('kepler costs');
  await expect(other.getByTestId('compare-row-cycles')).not.toHaveClass(/caveat/);
  expect(problems).toEqual([]);
  await ctx.close();
});

test('under tf-stack the CFG shows each block\'s priority and thread frontier, and outlines the current block\'s frontier', async ({ page }) => {
  await open(page);
  await openExample(page, 'tf_figure1.sass');
  await expect(page.getByTestId('model')).toHaveValue('tf-stack');
  const frontiers = ['TF {}', 'TF {}', 'TF {BB3}', 'TF {BB6}', 'TF {BB5, BB6}', 'TF {BB6}', 'TF {}'];
  for (const [b, tf] of frontiers.entries()) await expect(page.getByTestId(`frontier-${b}`)).toHaveText(tf);
  await expect(page.getByTestId('block-4')).toContainText('priority 4');
  // Post-dominator arrows belong to the stack models, not to thread frontiers.
  await expect(page.locator('[data-testid^="reconv-"]')).toHaveCount(0);
  // Step until BB4 is current: BB5 and BB6 are its frontier.
  const trace = cliTrace(FIG1);
  const atBB4 = trace.rows.findIndex((r, i) => i > 0 && trace.rows[i + 1]?.pc === '0x0068');
  await seek(page, atBB4);
  await expect(page.getByTestId('block-4')).toHaveClass(/current/);
  await expect(page.locator('#cfg .block.in-frontier')).toHaveCount(2);
  await expect(page.getByTestId('block-5')).toHaveClass(/in-frontier/);
  await expect(page.getByTestId('block-6')).toHaveClass(/in-frontier/);
  // The stack panel names the kinds it shows, and what depth counts here.
  expect(await uiStack(page)).toEqual(trace.rows[atBB4].stack);
  await expect(page.getByTestId('stack-legend')).toContainText('RUN issues next');
  await expect(page.locator('#stack')).toContainText('(distinct pcs)');
});

test('tf_barrier.cu deadlocks under pdom (the message in full) and exits under tf-stack; nothing throws', async ({ page }) => {
  const pdom = cliTrace(BARRIER, [], ['--model', 'pdom']);
  await open(page);
  await openExample(page, 'tf_barrier.cu');
  await expect(page.getByTestId('model')).toHaveValue('pdom');
  await expect(page.getByTestId('run-end')).toContainText('deadlock');
  await expect(page.getByTestId('run-end')).toHaveAttribute('title', /BAR\.SYNC at 0x0088: lanes 1, 3, 5, 7 arrived, but lanes 0, 2, 4, 6 wait/);
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-total', String(pdom.total));
  await page.getByTestId('btn-compare').click();
  await page.getByTestId('side-b-model').selectOption('tf-stack');
  const banner = page.getByTestId('side-a-banner');
  await expect(banner).toHaveAttribute('role', 'alert');
  await expect(banner).toContainText('BAR.SYNC at 0x0088: lanes 1, 3, 5, 7 arrived, but lanes 0, 2, 4, 6 wait on the PDOM stack below');
  // Shown in full: no ellipsis, every line of it inside the side.
  expect(await banner.evaluate((el) => el.scrollWidth <= el.clientWidth + 1 && getComputedStyle(el).textOverflow !== 'ellipsis')).toBe(true);
  await expect(page.getByTestId('side-b-banner')).toContainText('all lanes exit');
  await expect(cells(page, 'stop')).toHaveText(['deadlock', 'exited']);
  await expect(cells(page, 'code_expansion')).toHaveText(['n/a (stopped early)', '0.0 %']);
  await expect(page.getByTestId('editor-content')).toContainText('__syncthreads');
  // Scrubbing past the deadlock keeps side A at its last step.
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('End');
  await expect(page.getByTestId('side-a-step')).toHaveAttribute('data-step', String(pdom.total));
  await expect(page.getByTestId('side-a-step')).toHaveClass(/clamped/);
});

test('scrubbing in compare mode moves both sides to the same step, each as its own trace says', async ({ page }) => {
  const pdom = cliTrace(FIG1, [], ['--model', 'pdom']);
  const tf = cliTrace(FIG1, [], ['--model', 'tf-stack']);
  await open(page);
  await openExample(page, 'tf_figure1.sass');
  await startCompare(page, 'pdom', 'tf-stack');
  const [a, b] = [page.getByTestId('side-a'), page.getByTestId('side-b')];
  for (const step of [1, 8, 12, 19, 23, 26]) {
    await seek(page, step);
    await expect(page.getByTestId('side-a-step')).toHaveAttribute('data-step', String(step));
    const shownB = Math.min(step, tf.total);
    await expect(page.getByTestId('side-b-step')).toHaveAttribute('data-step', String(shownB));
    await expect(a.getByTestId('lanes-canvas')).toHaveAttribute('data-issued', pdom.rows[step].mask);
    await expect(b.getByTestId('lanes-canvas')).toHaveAttribute('data-issued', tf.rows[shownB].mask);
    expect(await uiStack(page, a), `pdom stack after step ${step}`).toEqual(pdom.rows[step].stack);
    expect(await uiStack(page, b), `tf-stack stack after step ${shownB}`).toEqual(tf.rows[shownB].stack);
  }
  await expect(page.getByTestId('side-b-step')).toHaveClass(/clamped/);
  // The keys move both too.
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Home');
  await expect(page.getByTestId('side-b-step')).toHaveAttribute('data-step', '0');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('side-a-step')).toHaveAttribute('data-step', '1');
  await expect(page.getByTestId('side-b-step')).toHaveAttribute('data-step', '1');
  // Leaving compare mode brings the single view back at the same step.
  await page.getByTestId('btn-compare').click();
  await expect(page.getByTestId('compare-view')).toBeHidden();
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-step', '1');
  await expect(page.getByTestId('lanes-canvas').first()).toBeVisible();
});

test('a permalink holds compare mode and a schedule, and an older link still opens', async ({ page, browser }) => {
  await open(page);
  await openExample(page, 'tf_barrier.cu');
  await page.getByTestId('btn-compare').click();
  await page.getByTestId('side-b-model').selectOption('volta');
  await page.getByTestId('side-b-schedule').selectOption('round-robin');
  await seek(page, 9);
  const totalB = await page.getByTestId('side-b-step').getAttribute('data-total');
  const { other, ctx, problems } = await openCopiedLink(page, browser);
  await expect(other.getByTestId('compare-view')).toBeVisible();
  await expect(other.getByTestId('btn-compare')).toHaveAttribute('aria-pressed', 'true');
  await expect(other.getByTestId('side-a-model')).toHaveValue('pdom');
  await expect(other.getByTestId('side-b-model')).toHaveValue('volta');
  await expect(other.getByTestId('side-b-schedule')).toHaveValue('round-robin');
  await expect(other.getByTestId('side-b-step')).toHaveAttribute('data-total', totalB!);
  await expect(other.getByTestId('step-label')).toHaveAttribute('data-step', '9');
  await expect(other.getByTestId('compare-col-b')).toContainText('round-robin');
  // A link made before these fields existed opens the single view as before.
  const old = await oldLink(other, { v: 1, text: '//@ title an old link\nIADD R1, R1, 0x1;\nEXIT;\n', params: {}, model: 'kepler', preset: null, step: 1, lane: 0 });
  await open(other, `./${old}`);
  await expect(other.getByTestId('kernel-title')).toHaveText('an old link');
  await expect(other.getByTestId('compare-view')).toBeHidden();
  await expect(other.getByTestId('step-label')).toHaveAttribute('data-step', '1');
  // A compare link made before side B had a cost preset: side B takes side A's.
  const oldCompare = await oldLink(other, { v: 1, text: '//@ title an old comparison\n//@ model volta\nIADD R1, R1, 0x1;\nEXIT;\n', compare: { model: 'kepler', schedule: null } });
  await open(other, `./${oldCompare}`);
  await expect(other.getByTestId('side-a-model')).toHaveValue('volta');
  await expect(other.getByTestId('side-b-preset')).toHaveValue('');
  await expect(other.getByTestId('compare-preset-a')).toHaveText('h100 costs');
  await expect(other.getByTestId('compare-preset-b')).toHaveText('h100 costs');
  expect(problems).toEqual([]);
  await ctx.close();
});

test('volta on spin_lock.cu shows lanes blocked at BSYNC B0 and lanes that yielded', async ({ page }) => {
  const volta = cliTrace('examples/spin_lock.cu', [], ['--model', 'volta']);
  const first = (kind: string) => volta.rows.findIndex((r) => r?.stack.some((e) => e.kind === kind));
  const [bsync, yielded] = [first('BSYNC B0'), first('YIELDED')];
  expect(bsync).toBeGreaterThan(0);
  expect(yielded).toBeGreaterThan(0);
  await open(page);
  await openExample(page, 'spin_lock.cu');
  await page.getByTestId('model').selectOption('volta');
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-total', String(volta.total));
  for (const step of [bsync, yielded]) {
    await seek(page, step);
    expect(await uiStack(page), `stack after step ${step}`).toEqual(volta.rows[step].stack);
  }
  await seek(page, bsync);
  await expect(page.locator('#stack [data-kind="BSYNC B0"]')).toHaveAttribute('title', /blocked at BSYNC B0/);
  await expect(page.locator('#stack [data-kind="B0"]')).toContainText('converge at');
  await expect(page.getByTestId('stack-depth')).toHaveText(`depth ${1}`);
  await expect(page.locator('#stack')).toContainText('armed barrier registers');
});

test('tf-sandy marks steps that issue with no lane', async ({ page }) => {
  const sandy = cliTrace('examples/tf_conservative.sass', [], ['--model', 'tf-sandy']);
  const idle = sandy.rows.findIndex((r, i) => i > 0 && /^0+$/.test(r.mask));
  // The example is built to walk the warp pc through a block no lane waits in.
  expect(idle, 'tf_conservative.sass has an idle step under tf-sandy').toBeGreaterThan(0);
  await open(page);
  await openExample(page, 'tf_conservative.sass');
  await seek(page, idle);
  await expect(page.getByTestId('lanes-canvas')).toHaveAttribute('data-issued', '0'.repeat(8));
  await expect(page.getByTestId('idle-note')).toContainText('no active lane');
  await expect(page.getByTestId('caption')).toBeVisible();
  await seek(page, idle - 1);
  await expect(page.getByTestId('no-lane')).toHaveText('warp pc here, no lane');
});

test('compare mode fits 1280x800 and 1920x1080: every panel inside the window, none overlapping', async ({ page }) => {
  for (const [w, h] of [[1280, 800], [1920, 1080]]) {
    await page.setViewportSize({ width: w, height: h });
    await open(page);
    await openExample(page, 'tf_barrier.cu');
    // The saved work keeps compare mode across reloads: the second size starts in it.
    if (await page.getByTestId('btn-compare').getAttribute('aria-pressed') !== 'true') await page.getByTestId('btn-compare').click();
    await expect(page.getByTestId('compare-table')).toBeVisible();
    // The deepest pdom stack, under the four-line deadlock message.
    await seek(page, 12);
    const boxes = await page.evaluate(() => {
      const sel = ['[data-panel=editor]', '[data-testid=compare-panel]', '#side-a .side-head', '#side-a .p-cfg', '#side-a .p-lanes',
        '#side-a .p-stack', '#side-b .side-head', '#side-b .p-cfg', '#side-b .p-lanes', '#side-b .p-stack', '.scrubber', '.topbar'];
      return sel.map((s) => { const b = document.querySelector(s)!.getBoundingClientRect(); return { s, x: b.x, y: b.y, w: b.width, h: b.height }; });
    });
    for (const [i, b] of boxes.entries()) {
      expect(b.x >= 0 && b.y >= 0 && b.x + b.w <= w + 0.5 && b.y + b.h <= h + 0.5, `${b.s} inside the window at ${w}x${h}`).toBe(true);
      expect(b.h, `${b.s} has room at ${w}x${h}`).toBeGreaterThan(40);
      for (const o of boxes.slice(i + 1)) {
        const overlap = Math.min(b.x + b.w, o.x + o.w) - Math.max(b.x, o.x) > 0.5 && Math.min(b.y + b.h, o.y + o.h) - Math.max(b.y, o.y) > 0.5;
        expect(overlap, `${b.s} and ${o.s} overlap at ${w}x${h}`).toBe(false);
      }
    }
    const cfg = boxes.find((b) => b.s === '#side-a .p-cfg')!;
    expect(cfg.h, `side CFG height at ${w}x${h}`).toBeGreaterThanOrEqual(150);
    // The table's cells show whole (no clipped numbers).
    expect(await page.getByTestId('compare-table').evaluate((t) => t.scrollWidth <= t.clientWidth + 1)).toBe(true);
  }
});

test('a link naming an unknown compare model shows that side\'s error and keeps the other side running', async ({ page }) => {
  await open(page);
  const link = await oldLink(page, { v: 1, text: '//@ title two sides\nIADD R1, R1, 0x1;\nEXIT;\n', params: {}, model: 'pdom', preset: null, step: 1, lane: 0, compare: 'warp-drive' });
  await open(page, `./${link}`);
  await expect(page.getByTestId('compare-view')).toBeVisible();
  await expect(page.getByTestId('side-b-status')).toContainText('unknown model `warp-drive`');
  await expect(page.getByTestId('side-a-step')).toHaveAttribute('data-step', '1');
  await expect(page.getByTestId('side-a-model')).toHaveValue('pdom');
  // Choosing a known model on the right runs it; turning compare off leaves the single view.
  await page.getByTestId('side-b-model').selectOption('tf-stack');
  await expect(page.getByTestId('side-b-step')).toHaveAttribute('data-total', '2');
  await expect(page.getByTestId('side-b-status')).not.toContainText('warp-drive');
  await page.getByTestId('btn-compare').click();
  await expect(page.getByTestId('compare-view')).toBeHidden();
  await expect(page.getByTestId('kernel-title')).toHaveText('two sides');
  // An unknown preset for side B: its error, and "as left" runs it.
  const badPreset = await oldLink(page, { v: 1, text: '//@ title two sides\nIADD R1, R1, 0x1;\nEXIT;\n', model: 'pdom', compare: { model: 'volta', preset: 'warp-costs' } });
  await open(page, `./${badPreset}`);
  await expect(page.getByTestId('side-b-status')).toContainText('unknown cost preset `warp-costs`');
  await page.getByTestId('side-b-preset').selectOption('');
  await expect(page.getByTestId('side-b-step')).toHaveAttribute('data-total', '2');
  await expect(page.getByTestId('compare-preset-b')).toHaveText('kepler costs');
});
