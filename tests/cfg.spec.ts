// The CFG stays readable at any kernel size, in the single view and on each side of compare mode:
// text never under 10 px on screen, zoom (buttons, keys, Ctrl + wheel), follow mode that keeps the
// current block in view, a minimap that moves the view; and the CFG's standalone SVG export.
import { writeFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { download, expect, open, openExample, replaceText, seek, test } from './helpers';
import { largeKernel } from './large-kernel';

const LARGE_TITLE = 'Stress: a 300-line kernel';

/** The smallest on-screen size of the CFG text that shows inside `host`'s graph (px). */
function smallestText(host: Locator): Promise<number> {
  return host.evaluate((root) => {
    const svg = root.querySelector<SVGSVGElement>('.cfg-svg')!;
    const box = svg.getBoundingClientRect();
    const sizes = [...svg.querySelectorAll<SVGTextElement>('text')].filter((t) => {
      const b = t.getBoundingClientRect();
      return b.width > 0 && b.right > box.left && b.left < box.right && b.bottom > box.top && b.top < box.bottom;
    }).map((t) => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM()!.a);
    return sizes.length ? Math.min(...sizes) : 0;
  });
}

/** Whether the current block's box lies inside the graph's view. */
function currentInView(host: Locator): Promise<boolean> {
  return host.evaluate((root) => {
    const box = root.querySelector('.cfg-svg')!.getBoundingClientRect();
    const cur = root.querySelector('.block.current .block-rect');
    if (!cur) return false;
    const b = cur.getBoundingClientRect();
    // A block taller than the view counts when its visible part is (the current row then is).
    return b.left >= box.left - 1 && b.right <= box.right + 1 && b.bottom > box.top && b.top < box.bottom;
  });
}

const scale = async (host: Locator) => Number(await host.getByTestId('cfg-svg').getAttribute('data-k'));
const transform = (host: Locator) => host.locator('.cfg-world').getAttribute('transform');

async function openLarge(page: Page): Promise<void> {
  await open(page);
  await replaceText(page, largeKernel());
  await expect(page.getByTestId('kernel-title')).toHaveText(LARGE_TITLE);
}

async function compareModels(page: Page, a: string, b: string): Promise<void> {
  if (await page.getByTestId('btn-compare').getAttribute('aria-pressed') !== 'true') await page.getByTestId('btn-compare').click();
  await page.getByTestId('side-a-model').selectOption(a);
  await page.getByTestId('side-b-model').selectOption(b);
  await expect(page.getByTestId('compare-col-b')).toContainText(b);
}

test.describe('at 1280x720', () => {
  test.use({ viewport: { width: 1280, height: 720 } });
  // The 300-line kernel runs twice in compare mode: slower than most tests on a shared machine.
  test.describe.configure({ timeout: 60_000 });

  test('a 300-line kernel\'s CFG keeps 10 px text, follows the current block, and its minimap moves the view', async ({ page }) => {
    await openLarge(page);
    const cfg = page.locator('#cfg');
    expect(largeKernel().split('\n').length).toBeGreaterThanOrEqual(300);
    expect(await page.locator('#cfg .block').count()).toBeGreaterThan(150);
    expect(await smallestText(cfg)).toBeGreaterThanOrEqual(9.99);
    // Too big to read whole: follow mode is on by default, and the minimap shows.
    await expect(cfg).toHaveAttribute('data-follow', 'on');
    await expect(cfg.getByTestId('cfg-follow')).toHaveAttribute('aria-pressed', 'true');
    await expect(cfg.getByTestId('cfg-minimap')).toBeVisible();
    for (const step of [300, 900, 40]) {
      await seek(page, step);
      await expect.poll(() => currentInView(cfg), `current block in view at step ${step}`).toBe(true);
    }
    expect(await smallestText(cfg)).toBeGreaterThanOrEqual(9.99);
    // Fit never shrinks the text below readable.
    await cfg.getByTestId('cfg-fit').click();
    expect(await scale(cfg)).toBeCloseTo(0.8, 3);
    await expect(cfg.getByTestId('cfg-zoom')).toHaveText('80%');

    // A click on the minimap centres the view there (its frame moves under the pointer), and
    // following stops; the graph's blocks from there show.
    const map = cfg.getByTestId('cfg-minimap');
    const mb = (await map.boundingBox())!;
    const frameCentre = async () => { const f = (await cfg.getByTestId('cfg-minimap-view').boundingBox())!; return f.y + f.height / 2; };
    const before = await frameCentre();
    await page.mouse.click(mb.x + mb.width / 2, mb.y + mb.height * 0.8);
    await expect(cfg).toHaveAttribute('data-follow', 'off');
    expect(await frameCentre()).toBeCloseTo(mb.y + mb.height * 0.8, -1);
    expect(await frameCentre()).toBeGreaterThan(before + mb.height / 2);
    // Dragging on the minimap pans along with the pointer.
    await page.mouse.move(mb.x + mb.width / 2, mb.y + mb.height * 0.8);
    await page.mouse.down();
    await page.mouse.move(mb.x + mb.width / 2, mb.y + mb.height * 0.4, { steps: 4 });
    await page.mouse.up();
    expect(await frameCentre()).toBeCloseTo(mb.y + mb.height * 0.4, -1);
    // Follow again: back to the current block, smoothly.
    await seek(page, 600);
    expect(await currentInView(cfg)).toBe(false);
    await cfg.getByTestId('cfg-follow').click();
    await expect(cfg).toHaveAttribute('data-follow', 'on');
    await expect.poll(() => currentInView(cfg)).toBe(true);
  });

  test('the minimap fades while it would cover the current block or its edges, and not otherwise', async ({ page }) => {
    // The default example (Figure 3's walk-through) at 80 %: the loop's block runs to the right
    // edge, its back edge beside it, where the minimap sits.
    await open(page);
    const map = page.locator('#cfg').getByTestId('cfg-minimap');
    const opacity = () => map.evaluate((el) => Number(getComputedStyle(el).opacity));
    await seek(page, 0);
    await expect(map).toBeVisible();
    await expect(map).not.toHaveClass(/yields/);
    await seek(page, 45);
    await expect(page.locator('#cfg .block.current .block-name')).toHaveText('BB2');
    await expect(map).toHaveClass(/yields/);
    await expect.poll(opacity).toBeLessThan(0.3);
    // Pointed at, it is whole again, and still moves the view.
    await map.hover();
    await expect.poll(opacity).toBe(1);
  });

  test('zoom by buttons, keys and Ctrl + wheel, with the view kept on the graph; a plain wheel pans', async ({ page }) => {
    await openLarge(page);
    const cfg = page.locator('#cfg');
    const k0 = await scale(cfg);
    await cfg.getByTestId('cfg-zoom-in').click();
    expect(await scale(cfg)).toBeCloseTo(k0 * 1.25, 3);
    await cfg.getByTestId('cfg-zoom-out').click();
    await cfg.getByTestId('cfg-zoom-out').click();
    expect(await scale(cfg)).toBeCloseTo(k0 / 1.25, 3);
    // Keys on the focused graph: + and - zoom, 0 fits.
    await cfg.getByTestId('cfg-svg').focus();
    await page.keyboard.press('+');
    await page.keyboard.press('+');
    expect(await scale(cfg)).toBeCloseTo(k0 * 1.25, 3);
    await page.keyboard.press('0');
    expect(await scale(cfg)).toBeCloseTo(k0, 3);
    // Zooming out stops at the limit (the whole graph, or MIN_SCALE for a huge one).
    for (let i = 0; i < 20; i++) await page.keyboard.press('-');
    const min = await scale(cfg);
    expect(min).toBeGreaterThanOrEqual(0.15 - 1e-3);
    await page.keyboard.press('-');
    expect(await scale(cfg)).toBe(min);
    await page.keyboard.press('0');
    // Ctrl + wheel zooms at the pointer; a plain wheel pans the overflowing graph instead.
    const box = (await cfg.getByTestId('cfg-svg').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -200);
    await page.keyboard.up('Control');
    await expect.poll(() => scale(cfg)).toBeGreaterThan(k0 * 1.2);
    const before = await transform(cfg);
    const kBefore = await scale(cfg);
    await page.mouse.wheel(0, 300);
    await expect.poll(() => transform(cfg)).not.toBe(before);
    expect(await scale(cfg)).toBe(kBefore);
    await expect(cfg).toHaveAttribute('data-follow', 'off');
  });

  test('compare mode on the examples: each side\'s CFG keeps 10 px text, follows its own current block, and zooms alone', async ({ page }) => {
    await open(page);
    for (const example of ['if_else.cu', 'tf_barrier.cu', 'double_loop.sass']) {
      await openExample(page, example);
      await compareModels(page, 'kepler', 'volta');
      const [a, b] = [page.locator('#side-a'), page.locator('#side-b')];
      const total = Number(await page.getByTestId('step-label').getAttribute('data-total'));
      for (const step of [Math.floor(total / 3), Math.floor((2 * total) / 3)]) {
        await seek(page, step);
        for (const side of [a, b]) {
          expect(await smallestText(side), `${example}: text at step ${step}`).toBeGreaterThanOrEqual(9.99);
          if (await side.locator('.block.current').count()) {
            await expect.poll(() => currentInView(side), `${example}: current block in view at step ${step}`).toBe(true);
          }
        }
      }
    }
    // Each side has its own tools: zooming side B leaves side A as it was.
    const [a, b] = [page.locator('#side-a'), page.locator('#side-b')];
    const ka = await scale(a);
    await b.getByTestId('cfg-zoom-in').click();
    expect(await scale(b)).toBeGreaterThan(ka);
    expect(await scale(a)).toBe(ka);
    // Follow is each side's own, too.
    await b.getByTestId('cfg-follow').click();
    const followA = await a.getByTestId('cfg-follow').getAttribute('aria-pressed');
    await expect(b.getByTestId('cfg-follow')).toHaveAttribute('aria-pressed', followA === 'true' ? 'false' : 'true');
    // The legend is one click away on a side (hidden to leave the graph the room).
    await expect(b.getByTestId('cfg-legend')).toBeHidden();
    await b.getByTestId('cfg-key').click();
    await expect(b.getByTestId('cfg-legend')).toBeVisible();
  });

  test('compare mode on the 300-line kernel: both sides readable, with minimaps, following the current block', async ({ page }) => {
    await openLarge(page);
    await compareModels(page, 'kepler', 'volta');
    for (const step of [250, 700]) {
      await seek(page, step);
      for (const name of ['a', 'b']) {
        const side = page.locator(`#side-${name}`);
        await expect(side.getByTestId('cfg-minimap')).toBeVisible();
        await expect(side.locator('[data-follow]')).toHaveAttribute('data-follow', 'on');
        await expect.poll(() => currentInView(side), `side ${name} at step ${step}`).toBe(true);
        expect(await smallestText(side)).toBeGreaterThanOrEqual(9.99);
      }
    }
  });
});

test('the CFG downloads as a standalone SVG with every block\'s text, named after the kernel and model', async ({ page }, info) => {
  await open(page);
  await openExample(page, 'if_else.cu');
  await seek(page, 5);
  const blocks = await page.locator('#cfg .block-name').allTextContents();
  const instrs = await page.locator('#cfg .instr').allTextContents();
  expect(instrs.length).toBeGreaterThan(10);
  await page.getByTestId('export-menu').click();
  const plain = await download(page, page.getByTestId('export-cfg-svg'));
  expect(plain.name).toMatch(/^warpscope-if-else-in-c-[a-z0-9-]*-kepler-cfg\.svg$/);
  const text = plain.bytes.toString('utf8');
  expect(text.startsWith('<?xml')).toBe(true);
  expect(text).not.toMatch(/class=|<style|data-testid/);
  // Well-formed, with each block's name and instruction text in it.
  const parsed = await page.evaluate((t) => {
    const doc = new DOMParser().parseFromString(t, 'image/svg+xml');
    return { error: doc.querySelector('parsererror')?.textContent ?? null, root: doc.documentElement.localName, texts: [...doc.querySelectorAll('text')].map((x) => x.textContent) };
  }, text);
  expect(parsed.error).toBeNull();
  expect(parsed.root).toBe('svg');
  for (const t of [...blocks, ...instrs]) expect(parsed.texts).toContain(t);

  // Opened as a file, with no page around it: blocks are drawn, text in the monospace font.
  const path = info.outputPath('cfg.svg');
  writeFileSync(path, plain.bytes);
  const file = await page.context().newPage();
  await file.goto(`file://${path}`);
  const look = await file.evaluate(() => {
    const rect = document.querySelector('g[transform] g[transform] rect')!;
    const instr = [...document.querySelectorAll('text')].find((t) => /^0000\s/.test(t.textContent ?? ''))!;
    return {
      rect: { fill: getComputedStyle(rect).fill, stroke: getComputedStyle(rect).stroke },
      font: getComputedStyle(instr).fontFamily, size: getComputedStyle(instr).fontSize, width: instr.getBoundingClientRect().width,
    };
  });
  await file.close();
  expect(look.rect.fill).toBe('rgb(255, 255, 255)');
  expect(look.rect.stroke).not.toBe('none');
  expect(look.font).toContain('monospace');
  expect(look.size).toBe('13.5px');
  expect(look.width).toBeGreaterThan(100);

  // With the step: the current block and instruction are marked (the current colours). The menu
  // closed after the first choice.
  await page.getByTestId('export-menu').click();
  const step = await download(page, page.getByTestId('export-cfg-step-svg'));
  // Another file than the plain graph, named for its step.
  expect(step.name).toBe(plain.name.replace(/-cfg\.svg$/, '-cfg-step-5.svg'));
  const marked = step.bytes.toString('utf8');
  expect(marked).toContain('fill: rgb(255, 243, 196)');
  expect(text).not.toContain('fill: rgb(255, 243, 196)');
  // The badges keep their colours (they are styled through their parent's class).
  expect(marked).toMatch(/<rect width="122[.\d]*" height="22" rx="11" style="fill: rgb\(204, 121, 167\)/);
  expect(text).toMatch(/<rect width="128" height="18" rx="9" style="fill: rgb\(0, 158, 115\)/);
  expect(marked).toMatch(/after step 5 of \d+/);
});
