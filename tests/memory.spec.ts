// The memory panel against the CLI: on the C if/else, the cells a store wrote are the ones its
// lanes (the trace's mask) address, each naming its lane; the selected lane's cell is marked; the
// last step shows what `run --dump` prints; the panel fits its dock panel at 1280x720 and axe
// finds nothing serious in it.
import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { cliDump, cliTrace, expect, expectLaidOut, geometry, open, openExample, replaceText, seek, showTab, test, useLayout } from './helpers';

const FILE = 'examples/if_else.cu';

/** The lanes whose bit is set in a trace mask (lane 31 first). */
function lanesOf(mask: string): number[] {
  return [...mask].reverse().flatMap((bit, lane) => (bit === '1' ? [lane] : []));
}

/** Every drawn cell of buffer `name`, read while the grid is scrolled from top to bottom (only
 * the rows in view exist): index -> its value, classes and title. */
async function cellsOf(page: Page, name: string): Promise<Map<number, { value: string; cls: string; title: string }>> {
  const grid = page.getByTestId('memory-grid');
  const out = new Map<number, { value: string; cls: string; title: string }>();
  const height = await grid.evaluate((el) => el.scrollHeight);
  for (let top = 0; ; top += 60) {
    await grid.evaluate((el, t) => { el.scrollTop = t; el.dispatchEvent(new Event('scroll')); }, top);
    await page.waitForTimeout(30);
    const cells = await page.getByTestId(`memory-${name}`).locator('[role=cell]').evaluateAll((els) => els.map((e) => ({
      index: Number((e as HTMLElement).dataset.index), value: e.querySelector('.mem-v')!.textContent!, cls: e.className, title: (e as HTMLElement).title,
    })));
    for (const c of cells) out.set(c.index, c);
    if (top >= height) break;
  }
  return out;
}

async function showMemory(page: Page): Promise<void> {
  await showTab(page, 'Memory');
  await expect(page.getByTestId('memory-grid')).toBeVisible();
}

test('a store marks the cells its lanes wrote, the selected lane\'s among them, and the last step shows the run\'s results', async ({ page }) => {
  const trace = cliTrace(FILE);
  await open(page);
  await openExample(page, 'if_else.cu');
  // The first store of the else side: `a[t + 6] = 5` by the lanes of the trace's mask.
  const store = trace.rows.find((r) => r.text.startsWith('ST') && r.mask.includes('0'))!;
  const lanes = lanesOf(store.mask);
  expect(lanes.length).toBeGreaterThan(0);
  await showTab(page, 'Registers');
  await page.getByTestId('lane-select').fill(String(lanes[2]));
  await seek(page, store.step);
  await showMemory(page);
  await expect(page.getByTestId('memory-summary')).toContainText(`step ${store.step}: ST`);
  await expect(page.getByTestId('memory-summary')).toContainText('wrote a[');
  const a = await cellsOf(page, 'a');
  expect(a.size).toBe(40);
  const written = [...a].filter(([, c]) => c.cls.includes('mem-w')).map(([i]) => i);
  expect(written).toEqual(lanes.map((t) => t + 6));
  for (const t of lanes) {
    expect(a.get(t + 6)!.value).toBe('5');
    expect(a.get(t + 6)!.title).toContain(`written by lane ${t} at step ${store.step}`);
  }
  // The selected lane's cell, and only it, is marked.
  expect([...a].filter(([, c]) => c.cls.includes('mem-sel')).map(([i]) => i)).toEqual([lanes[2] + 6]);
  await expect(page.getByTestId('memory-legend')).toContainText(`selected lane ${lanes[2]}: a[${lanes[2] + 6}]`);
  // The other buffers were not touched by this step.
  for (const name of ['b', 'c']) expect([...(await cellsOf(page, name)).values()].filter((c) => /mem-[wr]\b/.test(c.cls))).toEqual([]);

  // The last store: every lane writes a[6]; the hover names them all.
  const last = trace.rows.filter((r) => r.text.startsWith('ST')).at(-1)!;
  await seek(page, last.step);
  const end = await cellsOf(page, 'a');
  expect([...end].filter(([, c]) => c.cls.includes('mem-w')).map(([i]) => i)).toEqual([6]);
  expect(lanesOf(last.mask)).toHaveLength(32);
  expect(end.get(6)!.title).toContain('written by lanes 0-31');

  // At the last step the buffer holds what the CLI's run prints.
  await seek(page, trace.total);
  await expect(page.getByTestId('memory-summary')).toContainText(`step ${trace.total}: no memory access`);
  const final = await cellsOf(page, 'a');
  expect([...final.keys()].sort((x, y) => x - y).map((i) => final.get(i)!.value)).toEqual(cliDump(FILE, 'a'));
});

test('a word stored into a buffer of bytes marks every byte it wrote', async ({ page }) => {
  // As PTX's st.global.u32 of a uchar4 does: each lane writes four bytes of b.
  const file = 'tests/fixtures/word-into-bytes.sass';
  await open(page);
  await replaceText(page, readFileSync(file, 'utf8'));
  await showMemory(page);
  await seek(page, 1);
  await expect(page.getByTestId('memory-summary')).toContainText('step 1: ST.E by lanes 0-31 wrote b[0..127]');
  const b = await cellsOf(page, 'b');
  expect([...b].filter(([, c]) => c.cls.includes('mem-w')).map(([i]) => i)).toEqual([...Array(128).keys()]);
  expect(b.get(6)!.title).toContain('written by lane 1 at step 1');
  // The bytes themselves, as the CLI's run leaves them (little-endian: lane 1 wrote 0x04030301).
  await seek(page, 2);
  const end = await cellsOf(page, 'b');
  expect([...end.keys()].sort((x, y) => x - y).map((i) => end.get(i)!.value.split(' ')[0])).toEqual(cliDump(file, 'b'));
});

test('the panel follows the step\'s first touched cell unless the user just scrolled it', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const trace = cliTrace(FILE);
  await open(page);
  await openExample(page, 'if_else.cu');
  await showMemory(page);
  const stores = trace.rows.filter((r) => r.text.startsWith('ST'));
  // The else side's store to c (the third): its first cell, c[11], is far below the top.
  const third = stores[2];
  await seek(page, third.step);
  const firstIndex = lanesOf(third.mask)[0] + 6;
  await expect(page.getByTestId('memory-c').locator(`[data-index="${firstIndex}"]`)).toBeInViewport();
  // Scrolled back to the top by hand: the next store, to b[0..4] (out of view), leaves it there...
  const grid = page.getByTestId('memory-grid');
  await grid.hover();
  await page.mouse.wheel(0, -5000);
  await expect.poll(() => grid.evaluate((el) => el.scrollTop)).toBe(0);
  // The then side stores to a, b and c in the source's order: stores 3, 4 and 5.
  const [toB, toC] = [stores[4], stores[5]];
  await seek(page, toB.step);
  expect(await grid.evaluate((el) => el.scrollTop)).toBe(0);
  await expect(page.getByTestId('memory-b').locator('[data-index="0"]')).not.toBeInViewport();
  // ...and a second later the panel follows again.
  await page.waitForTimeout(1100);
  await seek(page, toC.step);
  await expect(page.getByTestId('memory-c').locator('[data-index="0"]')).toBeInViewport();
});

test('the memory panel fits inside its dock panel at 1280x720, in the study and lecture layouts', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await open(page);
  await openExample(page, 'if_else.cu');
  for (const layout of ['study', 'lecture']) {
    await useLayout(page, layout);
    await seek(page, 8);
    await showMemory(page);
    expectLaidOut(await geometry(page), `memory in ${layout} at 1280x720`, ['memory']);
    const fit = await page.locator('[data-dock-panel=memory]').evaluate((host) => {
      const box = host.getBoundingClientRect();
      const inside = (el: Element) => { const b = el.getBoundingClientRect(); return b.left >= box.left - .5 && b.right <= box.right + .5 && b.top >= box.top - .5 && b.bottom <= box.bottom + .5; };
      const grid = host.querySelector<HTMLElement>('[data-testid=memory-grid]')!;
      return { head: inside(host.querySelector('.mem-head')!), grid: inside(grid), sideways: grid.scrollWidth - grid.clientWidth, rows: grid.clientHeight };
    });
    expect(fit, layout).toEqual({ head: true, grid: true, sideways: 0, rows: fit.rows });
    expect(fit.rows, `room for rows in ${layout}`).toBeGreaterThan(40);
  }
});

test('no serious accessibility findings in the memory panel at a store', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await open(page);
  await openExample(page, 'if_else.cu');
  await seek(page, cliTrace(FILE).rows.find((r) => r.text.startsWith('ST'))!.step);
  await showMemory(page);
  const r = await new AxeBuilder({ page }).include('[data-dock-panel=memory]').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  const serious = r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`);
  expect(serious).toEqual([]);
});
