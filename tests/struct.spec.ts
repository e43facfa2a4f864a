// STRUCT (Diamos et al. 2011) in the app: the transformed graph with its copies and cut code
// marked, the kernel's original graph in its place with the run's block marked, the transformed
// listing beside a listing kernel, compare mode beside PDOM with the transforms in the table, the
// paper's figure, and the model kept in links and saved work. Expectations come from the CLI
// (`cfg --model struct`, `trace --model struct`, `compare`) of the same files.
import type { Locator, Page } from '@playwright/test';
import { clickGutter, cliCompare, cliTrace, download, expect, open, openCopiedLink, openExample, openFigure, seek, tab, test, warpscope } from './helpers';

const FIG1 = 'examples/tf_figure1.sass';

interface CliBlock { name: string; copyOf: string | null; cut: boolean; first: number; last: number }

/** `warpscope cfg FILE [--model M]`: each block's name, what it copies or whether a cut wrote it,
 * and its first and last instruction address. */
function cliCfg(file: string, model?: string): CliBlock[] {
  const out = warpscope(['cfg', file, ...(model ? ['--model', model] : [])]);
  return [...out.matchAll(/^(\S+)(?: \((copy of \S+|written by the cut)\))?\s+0x([0-9a-f]+)\.\.0x([0-9a-f]+)/gm)].map((m) => ({
    name: m[1], copyOf: m[2]?.startsWith('copy of ') ? m[2].slice(8) : null, cut: m[2] === 'written by the cut',
    first: parseInt(m[3], 16), last: parseInt(m[4], 16),
  }));
}

const blockAt = (blocks: CliBlock[], addr: string) => blocks.find((b) => b.first <= parseInt(addr, 16) && parseInt(addr, 16) <= b.last)!;
/** A block of the graph in `host` by the name it shows. */
const block = (host: Locator, name: string) => host.locator('.block').filter({ has: host.page().locator('.block-name').getByText(name, { exact: true }) });
const names = (host: Locator) => host.locator('.block-name').allTextContents();
const currentName = (host: Locator) => host.locator('.block.current .block-name');
const cells = (page: Page, row: string) => page.getByTestId(`compare-row-${row}`).locator('td');

async function chooseStruct(page: Page): Promise<void> {
  await page.getByTestId('model').selectOption('struct');
  await expect(page.getByTestId('model')).toHaveValue('struct');
  await expect(page.locator('#cfg .block-tag').first()).toBeVisible();
}

test('Figure 1 under struct: copies dashed and tagged, no cut, and the original graph in its place with the run\'s block marked', async ({ page }) => {
  const blocks = cliCfg(FIG1, 'struct');
  const trace = cliTrace(FIG1, [], ['--model', 'struct']);
  expect(blocks.map((b) => b.name)).toContain("BB5'");
  await open(page);
  await openExample(page, 'tf_figure1.sass');
  const cfg = page.locator('#cfg');
  // Before: no graph choice under a model without a transform.
  await expect(cfg.getByTestId('cfg-which')).toBeHidden();
  // The help lists the model with the engine's words for it.
  await page.getByRole('button', { name: 'help' }).click();
  await expect(page.getByTestId('models-help').locator('tr', { hasText: /^struct/ })).toContainText('STRUCT');
  await page.keyboard.press('Escape');
  await chooseStruct(page);
  // The metrics panel says what the transform did, as the CLI counts it.
  const cfgText = warpscope(['cfg', FIG1, '--model', 'struct']);
  const t = cfgText.match(/STRUCT: (\d+) forward copies, (\d+) backward copies, (\d+) cuts; (\d+) -> (\d+) instructions/)!;
  await expect(page.getByTestId('metrics-transforms'))
    .toContainText(`${t[1]} forward copies, ${t[2]} backward copies, ${t[3]} cuts; ${t[4]} → ${t[5]} instructions`);

  // Every block the CLI names, each copy tagged with the block it copies, drawn dashed.
  expect((await names(cfg)).sort()).toEqual(blocks.map((b) => b.name).sort());
  for (const b of blocks.filter((x) => x.copyOf)) {
    await expect(block(cfg, b.name).locator('.block-tag text'), b.name).toHaveText(`copy of ${b.copyOf}`);
    expect(await block(cfg, b.name).locator('.block-rect').evaluate((r) => getComputedStyle(r).strokeDasharray), b.name).not.toBe('none');
  }
  await expect(block(cfg, "BB5'").locator('.block-tag text')).toHaveText('copy of BB5');
  await expect(block(cfg, "BB5'").locator('.block-tag')).toBeVisible();
  // An original block is drawn solid, untagged; Figure 1 needs no cut.
  await expect(block(cfg, 'BB2').locator('.block-tag')).toHaveCount(0);
  expect(await block(cfg, 'BB2').locator('.block-rect').evaluate((r) => getComputedStyle(r).strokeDasharray)).toBe('none');
  expect(blocks.some((b) => b.cut)).toBe(false);
  await expect(cfg.locator('.block-tag text', { hasText: /^cut$/ })).toHaveCount(0);
  await expect(cfg.getByTestId('cfg-legend')).toContainText('copy STRUCT made of a block');
  await expect(cfg.getByTestId('cfg-legend')).not.toContainText('cut code');

  // A step where the run is in a copy: the first whose next instruction lies in one.
  const inCopy = trace.rows.findIndex((r, t) => t > 0 && trace.rows[t + 1]?.pc && blockAt(blocks, trace.rows[t + 1].pc!).copyOf !== null);
  const copy = blockAt(blocks, trace.rows[inCopy + 1].pc!);
  await seek(page, inCopy);
  await expect(currentName(cfg)).toHaveText(copy.name);

  // The original graph: the kernel's own blocks, the copy's block marked, and what the run runs.
  const original = cliCfg(FIG1).map((b) => b.name);
  expect(original).toEqual(['BB0', 'BB1', 'BB2', 'BB3', 'BB4', 'BB5', 'BB6']);
  const show = cfg.getByRole('button', { name: 'original', exact: true });
  await expect(show).toHaveAttribute('aria-pressed', 'false');
  await show.click();
  await expect(show).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(() => names(cfg)).toEqual(original);
  await expect(cfg.locator('.block-tag')).toHaveCount(0);
  await expect(currentName(cfg)).toHaveText(copy.copyOf!);
  await expect(cfg.getByTestId('cfg-where')).toHaveText(`Before STRUCT's transform: now in ${copy.copyOf} (running its copy ${copy.name})`);
  await expect(cfg.getByTestId('cfg-where')).toBeVisible();

  // The choice stays across steps: later the run is in an original block, marked as itself.
  const inOriginal = trace.rows.findIndex((r, t) => t > inCopy && trace.rows[t + 1]?.pc && blockAt(blocks, trace.rows[t + 1].pc!).copyOf === null);
  const own = blockAt(blocks, trace.rows[inOriginal + 1].pc!);
  await seek(page, inOriginal);
  await expect(show).toHaveAttribute('aria-pressed', 'true');
  await expect(currentName(cfg)).toHaveText(own.name);
  await expect(cfg.getByTestId('cfg-where')).toHaveText(`Before STRUCT's transform: now in ${own.name}`);

  // By keyboard back to the transformed graph.
  const back = cfg.getByRole('button', { name: 'transformed', exact: true });
  await back.focus();
  await page.keyboard.press('Enter');
  await expect(back).toHaveAttribute('aria-pressed', 'true');
  await expect(cfg.getByTestId('cfg-where')).toBeHidden();
  await expect(block(cfg, "BB5'")).toHaveCount(1);

  // Another model has no transform: the choice goes, and comes back on the transformed graph.
  await show.click();
  await expect(currentName(cfg)).toHaveText(own.name);
  await page.getByTestId('model').selectOption('pdom');
  await expect(cfg.getByTestId('cfg-which')).toBeHidden();
  await expect.poll(() => names(cfg)).toEqual(original);
  await chooseStruct(page);
  await expect(back).toHaveAttribute('aria-pressed', 'true');
  await expect(block(cfg, "BB5'")).toHaveCount(1);
});

test('a listing kernel under struct shows its transformed code, following the run, with breakpoints from a click', async ({ page }) => {
  const blocks = cliCfg(FIG1, 'struct');
  const trace = cliTrace(FIG1, [], ['--model', 'struct']);
  await open(page);
  await openExample(page, 'tf_figure1.sass');
  await expect(tab(page, 'Generated code')).toHaveCount(0);
  await chooseStruct(page);
  await expect(tab(page, 'Generated code')).toBeVisible();
  const listing = page.locator('#listing');
  await expect(page.getByTestId('listing-info')).toContainText('before STRUCT\'s transform');
  const lines = (await listing.locator('.cm-line').allTextContents()).map((l) => l.trim());
  // A label per block, named as the graph names it.
  for (const b of blocks) expect(lines, b.name).toContainEqual(expect.stringMatching(new RegExp(`^${b.name.replace(/[.']/g, '\\$&')}:`)));
  const labelAbove = (line: number) => lines.slice(0, line).reverse().find((l) => /^\S+:/.test(l))!.split(':')[0];
  for (const step of [0, 8, 14, 16, 20, trace.total - 1]) {
    await seek(page, step);
    const next = trace.rows[step + 1];
    const current = listing.getByTestId('current-line');
    await expect(current, `listing at step ${step}`).toHaveCount(1);
    const line = Number(await current.getAttribute('data-line'));
    expect(lines[line - 1].startsWith(next.text), `step ${step}: ${lines[line - 1]}`).toBe(true);
    expect(labelAbove(line - 1), `step ${step}`).toBe(blockAt(blocks, next.pc!).name);
    // The kernel's line of that instruction, as the listing's comment names it.
    const kernelLine = /\/\/ line (\d+)/.exec(lines[line - 1])?.[1];
    await expect(page.locator('#editor').getByTestId('current-line')).toHaveAttribute('data-line', kernelLine!);
  }
  // A click in the listing's gutter breaks on a copy's instruction; the run stops there.
  const target = blocks.find((b) => b.copyOf && trace.rows.some((r) => r?.pc && parseInt(r.pc, 16) === b.first))!;
  const labelLine = lines.findIndex((l) => l.startsWith(`${target.name}:`)) + 1;
  const instr = target.first / 8;
  await seek(page, 0);
  await clickGutter(page, '#listing', labelLine + 1);
  await expect(page.getByTestId(`cfg-bp-${instr}`)).toHaveCount(1);
  await page.getByTestId('btn-continue').click();
  const hit = trace.rows.findIndex((r) => r?.pc && parseInt(r.pc, 16) === target.first) - 1;
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-step', String(hit));
  await expect(currentName(page.locator('#cfg'))).toHaveText(target.name);
  await expect(listing.getByTestId('current-line')).toHaveAttribute('data-line', String(labelLine + 1));
});

test('struct beside pdom: the table adds the transforms, and the blocks line up per original block', async ({ page }) => {
  const cli = cliCompare(FIG1, ['struct', 'pdom']);
  const out = warpscope(['compare', FIG1, '--models', 'struct,pdom']);
  const [fwd, bwd, cuts] = /^copies_fwd\/bwd\/cuts\s+(\d+)\/(\d+)\/(\d+)\s+-$/m.exec(out)!.slice(1);
  await open(page);
  await openFigure(page, 'tf-fig6', false);
  await expect(page.getByTestId('figure-look')).toContainText('STRUCT');
  await expect(page.getByTestId('compare-col-a')).toContainText('struct');
  await expect(page.getByTestId('compare-col-b')).toContainText('pdom');
  await expect(cells(page, 'warp_instructions')).toHaveText(cli.warp_instructions);
  await expect(cells(page, 'forward_copies')).toHaveText([fwd, '—']);
  await expect(cells(page, 'backward_copies')).toHaveText([bwd, '—']);
  await expect(cells(page, 'cuts')).toHaveText([cuts, '—']);
  await expect(page.getByTestId('compare-row-forward_copies').locator('th')).toHaveText('forward copies (node splitting)');
  await expect(page.getByTestId('compare-row-forward_copies')).toBeVisible();
  // "+63.2%" in the CLI's table is "+63.2 %" here.
  const [staticExp] = cli.static_expansion;
  await expect(cells(page, 'static_expansion')).toHaveText([staticExp.replace('%', ' %'), '—']);
  const [before, after] = /(\d+) -> (\d+) instructions/.exec(warpscope(['cfg', FIG1, '--model', 'struct']))!.slice(1);
  await expect(cells(page, 'instructions')).toHaveText([`${before} → ${after}`, '—']);
  // Blocks of the kernel as written, both columns, as the CLI counts them.
  await expect(page.getByTestId('compare-table')).toContainText('STRUCT\'s copies count as the block they copy');
  for (let b = 0; b <= 6; b++) {
    await expect(page.getByTestId(`compare-row-block-${b}`).locator('th')).toHaveText(`BB${b} executions`);
    await expect(cells(page, `block-${b}`)).toHaveText(cli[`BB${b}`]);
  }
  // Side A's graph is STRUCT's, with its graph choice; side B's is PDOM's, without.
  const a = page.getByTestId('side-a'), b = page.getByTestId('side-b');
  await expect(block(a, "BB5'").locator('.block-tag text')).toHaveText('copy of BB5');
  await expect(b.getByTestId('cfg-which')).toBeHidden();
  await a.getByRole('button', { name: 'original', exact: true }).click();
  await expect.poll(() => names(a)).toEqual(await names(b));
});

test('the model and the compare choice come back from a link and from the saved work', async ({ page, browser }) => {
  await open(page);
  await openExample(page, 'tf_figure1.sass');
  await chooseStruct(page);
  await seek(page, 14);
  const shown = await currentName(page.locator('#cfg')).textContent();
  const { other, ctx, problems } = await openCopiedLink(page, browser);
  await expect(other.getByTestId('model')).toHaveValue('struct');
  await expect(other.getByTestId('step-label')).toHaveAttribute('data-step', '14');
  await expect(currentName(other.locator('#cfg'))).toHaveText(shown!);
  expect(problems).toEqual([]);
  await ctx.close();
  // Compare mode puts STRUCT's partner beside it; a link keeps both.
  await page.getByTestId('btn-compare').click();
  await expect(page.getByTestId('compare-col-b')).toContainText('pdom');
  const pair = await openCopiedLink(page, browser);
  await expect(pair.other.getByTestId('compare-col-a')).toContainText('struct');
  await expect(pair.other.getByTestId('compare-col-b')).toContainText('pdom');
  await expect(pair.other.getByTestId('compare-row-forward_copies')).toBeVisible();
  expect(pair.problems).toEqual([]);
  await pair.ctx.close();
  await page.getByTestId('btn-compare').click();
  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('model')).toHaveValue('struct');
  await expect(block(page.locator('#cfg'), "BB5'")).toHaveCount(1);
});

test('a loop with a break under struct: the cut\'s guard code is tagged and tinted', async ({ page }) => {
  const blocks = cliCfg('examples/loop_break.cu', 'struct');
  expect(blocks.find((b) => b.name === 'cut1.test')?.cut).toBe(true);
  await open(page);
  await openExample(page, 'loop_break.cu');
  await chooseStruct(page);
  const cfg = page.locator('#cfg');
  for (const b of blocks.filter((x) => x.cut)) await expect(block(cfg, b.name).locator('.block-tag text'), b.name).toHaveText('cut');
  const guard = block(cfg, 'cut1.test');
  await expect(guard.locator('.block-tag')).toBeVisible();
  const fill = (l: Locator) => l.locator('.block-rect').evaluate((r) => getComputedStyle(r).fill);
  expect(await fill(guard)).not.toBe(await fill(block(cfg, 'BB0')));
  await expect(cfg.getByTestId('cfg-legend')).toContainText('cut code');
  // In cut code the original graph marks no block, and says why.
  const trace = cliTrace('examples/loop_break.cu', [], ['--model', 'struct']);
  const inCut = trace.rows.findIndex((r, t) => t > 0 && trace.rows[t + 1]?.pc && blockAt(blocks, trace.rows[t + 1].pc!).cut);
  const where = blockAt(blocks, trace.rows[inCut + 1].pc!);
  await seek(page, inCut);
  await cfg.getByRole('button', { name: 'original', exact: true }).click();
  await expect(cfg.getByTestId('cfg-where')).toHaveText(`Before STRUCT's transform: now in ${where.name}, code the cut wrote (no block of the original)`);
  await expect(cfg.locator('.block.current')).toHaveCount(0);
});

test('the CFG\'s SVG file shows the copies as the page does, and the original graph when that is shown', async ({ page }) => {
  await open(page);
  await openExample(page, 'tf_figure1.sass');
  await chooseStruct(page);
  await seek(page, 13);
  const texts = (svgText: string) => page.evaluate((t) => [...new DOMParser().parseFromString(t, 'image/svg+xml').querySelectorAll('text')].map((x) => x.textContent), svgText);
  await page.getByTestId('export-menu').click();
  const plain = await download(page, page.getByTestId('export-cfg-svg'));
  expect(plain.name).toMatch(/-struct-cfg\.svg$/);
  const text = plain.bytes.toString('utf8');
  expect(await texts(text)).toEqual(expect.arrayContaining(["BB5'", 'copy of BB5']));
  // The copies' dashes and the tags' colours travel as inline styles.
  expect(text).toMatch(/stroke-dasharray: 7px, 4px/);
  expect(text).not.toMatch(/class=|<style/);
  await page.locator('#cfg').getByRole('button', { name: 'original', exact: true }).click();
  await page.getByTestId('export-menu').click();
  const original = await download(page, page.getByTestId('export-cfg-step-svg'));
  expect(original.name).toMatch(/-struct-original-cfg-step-13\.svg$/);
  const shown = await texts(original.bytes.toString('utf8'));
  expect(shown).toEqual(expect.arrayContaining(['BB0', 'BB5', 'BB6']));
  expect(shown.some((t) => t?.includes("'") && /^BB\d/.test(t))).toBe(false);
  expect(shown.join('\n')).toContain('the original graph, before the transform · after step 13');
  // The block the run is in is marked (the current colours).
  expect(original.bytes.toString('utf8')).toContain('fill: rgb(255, 243, 196)');
});
