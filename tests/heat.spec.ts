// The counters' heat in the page: the generated code's heat column and the CFG's block rows
// give Nsight Compute's counts of the whole launch as the CLI's `counters` counts them, and the
// heat button turns both off (and on again).
import { readFileSync } from 'node:fs';
import { cliListing, expect, open, test, warpscope } from './helpers';
import { makeLink } from './link-maker';

// Harris's reduction #1: 4 blocks of 256 threads, so 32 warps, each running the kernel's first
// instructions once: 32 warp instructions of 1,024 threads each.
const FILE = 'examples/grid/reduce_interleaved.cu';
const WARPS = (4 * 256) / 32;

/** `warpscope counters FILE --csv`: each instruction's row by address. */
function cliCounts(): Map<string, { inst: number; threads: number }> {
  const rows = warpscope(['counters', FILE, '--csv'], { quiet: true }).trim().split('\n').slice(1);
  // "0,"reduce1","0x0000",11,"S2R R3, SR_TID.X",32,1024,1024,0,0": the counts end the row.
  return new Map(rows.map((r) => {
    const f = r.split(',');
    const [inst, threads] = f.slice(-5).map(Number);
    return [f[2].replaceAll('"', ''), { inst, threads }];
  }));
}

test('the heat of the whole launch is the CLI\'s counts, per instruction and per block', async ({ page }) => {
  const counts = cliCounts();
  expect(counts.get('0x0000')).toEqual({ inst: WARPS, threads: WARPS * 32 });
  await open(page, `./${makeLink({ text: readFileSync(FILE, 'utf8') })}`);
  // The first instruction's cell, on its line of the generated code.
  const line = cliListing(FILE).listingLine[0];
  const cell = page.locator(`[data-testid=heat-cell][data-line="${line}"]`);
  await expect(cell).toHaveText(String(WARPS));
  const title = await cell.getAttribute('title');
  expect(title).toContain('every warp of every block');
  expect(title).toContain(`Instructions Executed (smsp__inst_executed): ${WARPS}`);
  expect(title).toContain(`Thread Instructions Executed (smsp__thread_inst_executed): ${(WARPS * 32).toLocaleString('en-US')}`);
  expect(title).toContain('Divergent Branch Targets (smsp__sass_branch_targets_threads_divergent): 0');

  // The entry block: its instructions (the CLI's graph) run once per warp, up to the loop's test.
  const cfg = JSON.parse(warpscope(['cfg', FILE, '--json'], { quiet: true })) as { blocks: { id: string; instructions: { addr: string }[] }[] };
  const entry = cfg.blocks[0].instructions.map((i) => counts.get(i.addr)!.inst);
  expect(entry.every((n) => n === WARPS)).toBe(true);
  const sum = entry.reduce((a, b) => a + b, 0);
  await expect(page.getByTestId('block-heat-count-0')).toHaveText(String(sum));
  await expect(page.locator('[data-block="0"] > title')).toContainText(`Instructions Executed (smsp__inst_executed): ${sum}`);

  // Off in both panels, then on again.
  await page.getByTestId('listing-heat').click();
  await expect(page.getByTestId('heat-cell')).toHaveCount(0);
  await expect(page.getByTestId('block-heat-0')).toHaveCount(0);
  await expect(page.getByTestId('cfg-heat')).toHaveAttribute('aria-pressed', 'false');
  await page.getByTestId('cfg-heat').click();
  await expect(cell).toHaveText(String(WARPS));
  await expect(page.getByTestId('block-heat-count-0')).toHaveText(String(sum));
});
