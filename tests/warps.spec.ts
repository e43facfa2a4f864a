// A whole launch in the page: the warps view of Harris's reduction #1 (8 warps of one block,
// their barriers), focusing a warp moves every per-warp view to it, and a link keeps the focus;
// the block's steps and the focused warp's counts are the CLI's; compare puts reduction #2 beside
// it under one model, with the CLI's whole-launch counts.
import { readFileSync } from 'node:fs';
import { expect, open, seek, test, warpscope } from './helpers';
import { makeLink } from './link-maker';

const FILE = 'examples/grid/reduce_interleaved.cu';

test('the warps view shows the block\'s 8 warps; a click focuses one, and a link keeps it', async ({ page }) => {
  const cli = JSON.parse(warpscope(['run', FILE, '--json'], { quiet: true })) as {
    blocks: { warp_instructions: number }[]; warps: { block_idx: number[]; warp: number; warp_instructions: number }[];
  };
  await open(page, `./${makeLink({ text: readFileSync(FILE, 'utf8') })}`);
  const head = page.getByTestId('warps-focus');
  await expect(head).toHaveText(/^8 warps; warp 0 in focus/);
  // The block picker lists the grid's 4 blocks with their counts, the CLI's.
  const picker = page.getByTestId('warps-block');
  await expect(picker).toHaveValue('(0, 0, 0)');
  await expect(picker.locator('option')).toHaveCount(4);
  await expect(picker.locator('option').nth(2)).toHaveText(/^block \(2, 0, 0\): 73\.4% SIMD, 1188 instr, 72 waits$/);
  // The scrubber runs over the block's steps: every warp instruction its warps issued.
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-total', String(cli.blocks[0].warp_instructions));
  await seek(page, 300);
  const canvas = page.getByTestId('warps-canvas');
  await expect.poll(async () => Number(await canvas.getAttribute('data-releases'))).toBeGreaterThan(0);
  // Click warp 3's row: it comes into focus, with its own counts.
  const [top, rh] = (await canvas.getAttribute('data-rows'))!.split(' ').map(Number);
  await canvas.click({ position: { x: 200, y: top + 3.5 * rh } });
  await expect(head).toHaveText(/warp 3 in focus/);
  const whole = page.locator('[data-metric=warp_instructions] td').nth(1);
  const own = cli.warps.find((w) => w.block_idx.join() === '0,0,0' && w.warp === 3)!;
  await expect(whole).toHaveText(own.warp_instructions.toLocaleString('en-US'));
  // Its next issue: lane 0 of warp 3 is thread 96; the lanes and the stack are warp 3's at
  // that step, as the CLI's trace of the launch has them (its stack bottom first).
  await page.keyboard.press(']');
  await expect(page.getByTestId('variables')).toContainText(/tid\s*96/);
  const step = await page.getByTestId('step-label').getAttribute('data-step');
  const row = warpscope(['trace', FILE], { quiet: true }).split('\n')
    .map((l) => /^\s*(\d+)\s+\(0, 0, 0\)\s+(\d+)\s+0x[0-9a-f]+\s+.*?\s([01]{32})\s+(.*)$/.exec(l)).find((m) => m?.[1] === step)!;
  expect(row[2]).toBe('3');
  await page.getByRole('tab', { name: 'Lanes' }).click();
  await expect(page.getByTestId('lanes-canvas')).toHaveAttribute('data-issued', row[3]);
  await page.getByRole('tab', { name: 'Warps' }).click();
  const stackOf = row[4].trim() === '-' ? [] : row[4].split(' | ').map((e) => { const [kind, , addr] = e.split(' '); return `${kind} ${addr}`; });
  const shown = page.getByTestId('stack-entry');
  await expect(shown).toHaveCount(stackOf.length);
  const entries = await shown.evaluateAll((els) => els.map((e) => `${(e as HTMLElement).dataset.kind} ${(e as HTMLElement).dataset.addr}`));
  expect([...entries].sort()).toEqual([...stackOf].sort());
  await page.getByTestId('copy-link').click();
  const link = await page.getByTestId('copy-link').getAttribute('data-link');
  await open(page, link!);
  await expect(page.getByTestId('warps-focus')).toHaveText(/warp 3 in focus/);
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-step', step!);
  // A breakpoint stops whichever warp reaches it first and focuses it: from the start, under gto,
  // the last warp to reach the first barrier (7) goes on first after it and adds the first pair
  // (line 17).
  await page.keyboard.press('Home');
  const line = page.locator('#editor .cm-line').filter({ hasText: 'sdata[tid] += sdata[tid + s];' });
  await line.scrollIntoViewIfNeeded();
  const box = (await line.boundingBox())!;
  const gutter = (await page.locator('#editor .cm-bp-gutter').boundingBox())!;
  await page.mouse.click(gutter.x + gutter.width / 2, box.y + box.height / 2);
  await page.getByTestId('btn-continue').click();
  await expect(page.getByTestId('banner')).toContainText('warp 7 at a breakpoint');
  await expect(page.getByTestId('warps-focus')).toHaveText(/warp 7 in focus/);
  // Compare the kernels, not the models: reduction #2 beside #1 under one model, each column
  // its whole launch's counts, as the CLI's `compare --with` prints them.
  const both = warpscope(['compare', FILE, '--with', 'examples/grid/reduce_strided.cu'], { quiet: true });
  const cli2 = (key: string) => both.split('\n').find((l) => l.startsWith(key))!.trim().split(/\s+/).slice(1).map(Number);
  await page.getByTestId('btn-compare').click();
  await page.getByTestId('side-b-kernel').selectOption('grid/reduce_strided.cu');
  await expect(page.getByTestId('compare-col-b')).toContainText('Strided reduction (Harris #2)');
  await expect(page.getByTestId('side-a-kernel-name')).toHaveText('Interleaved reduction (Harris #1)');
  for (const key of ['warp_instructions', 'divergent_branches']) {
    await expect(page.getByTestId(`compare-row-${key}`).locator('td')).toHaveText(cli2(key).map((n) => n.toLocaleString('en-US')));
  }
  await page.getByTestId('btn-compare').click();
  // Another block: the kernel's launch line names it, and that block is recorded.
  await page.getByTestId('warps-block').selectOption('(2, 0, 0)');
  await expect(page.getByTestId('warps-block')).toHaveValue('(2, 0, 0)');
  await expect(page.locator('#editor .cm-content')).toContainText('//@ launch grid=4 block=256 block_idx=2');
});
