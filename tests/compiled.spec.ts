// C kernels: the generated code beside the source, both following the current instruction,
// hover links between them, breakpoints from a C line, source lines on CFG blocks and the
// if-convert option. Expectations come from the CLI (`compile`, `cfg`, `trace`) of the same file.
import { expectLaidOut, geometry, clickGutter, cliBlocks, cliListing, cliTrace, expect, hoverLine, open, openExample, seek, test } from './helpers';

const DOUBLE = 'examples/double_loop.cu';
const listing = cliListing(DOUBLE);
const trace = cliTrace(DOUBLE);
// Compiled code starts at address 0, one instruction every 8 bytes.
const pcOf = (addr: string) => parseInt(addr, 16) / 8;
const pcsOfSource = (line: number) => listing.sourceLine.flatMap((l, pc) => (l === line ? [pc] : []));

test('the generated code sits beside the C source, and both follow the current instruction', async ({ page }) => {
  await open(page);
  await openExample(page, 'double_loop.cu');
  await expect(page.getByTestId('listing')).toBeVisible();
  await expect(page.getByTestId('listing-info')).toContainText('kepler');
  // The pane shows the CLI's listing line for line (indentation aside).
  const shown = await page.locator('#listing .cm-line').allTextContents();
  expect(shown.map((l) => l.trim())).toEqual(listing.lines.map((l) => l.trim()));
  for (const step of [0, 1, 10, 15, 16, 17, 200, trace.total - 1]) {
    await seek(page, step);
    const pc = pcOf(trace.rows[step + 1].pc!);
    await expect(page.locator('#listing').getByTestId('current-line'), `listing at step ${step}`)
      .toHaveAttribute('data-line', String(listing.listingLine[pc]));
    await expect(page.locator('#editor').getByTestId('current-line'), `C line at step ${step}`)
      .toHaveAttribute('data-line', String(listing.sourceLine[pc]));
  }
  // Each CFG block names the C lines its instructions come from.
  for (const b of cliBlocks(DOUBLE)) {
    const src = listing.sourceLine.slice(b.first / 8, b.last / 8 + 1);
    const [lo, hi] = [Math.min(...src), Math.max(...src)];
    await expect(page.getByTestId(`block-lines-${b.id}`)).toHaveText(lo === hi ? `line ${lo}` : `lines ${lo}-${hi}`);
  }
});

test('hovering a C line lights its instructions, hovering an instruction lights its C line', async ({ page }) => {
  await open(page);
  await openExample(page, 'double_loop.cu');
  for (const line of [16, 18]) {
    await hoverLine(page, '#editor', line);
    const linked = page.locator('#listing').getByTestId('linked-line');
    await expect(linked).toHaveCount(pcsOfSource(line).length);
    expect(await linked.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-line')))))
      .toEqual(pcsOfSource(line).map((pc) => listing.listingLine[pc]));
  }
  const fadd = listing.lines.findIndex((l) => l.includes('FADD R6, R6, 2.3333')) + 1;
  await hoverLine(page, '#listing', fadd);
  await expect(page.locator('#editor').getByTestId('linked-line')).toHaveAttribute('data-line', '20');
  await page.mouse.move(2, 2);
  await expect(page.locator('#editor').getByTestId('linked-line')).toHaveCount(0);
});

test('a click beside a C line breaks on its first instruction', async ({ page }) => {
  await open(page);
  await openExample(page, 'double_loop.cu');
  // Line 17 (the inner for) compiles to its init and test before the body and its step after:
  // the breakpoint goes on the first, which runs once per outer iteration.
  const first = pcsOfSource(17)[0];
  await clickGutter(page, '#editor', 17);
  await expect(page.locator('#editor .cm-bp-gutter .bp-dot')).toHaveCount(1);
  await expect(page.locator('#listing .cm-bp-gutter .bp-dot')).toHaveCount(1);
  await expect(page.getByTestId(`cfg-bp-${first}`)).toHaveCount(1);
  const hits = trace.rows.filter((r) => r?.pc && pcOf(r.pc) === first).map((r) => r.step - 1);
  expect(hits.length).toBeGreaterThan(1);
  await page.getByTestId('btn-continue').click();
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-step', String(hits[0]));
  await expect(page.locator('#listing').getByTestId('current-line')).toHaveAttribute('data-line', String(listing.listingLine[first]));
  await page.getByTestId('btn-continue').click();
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-step', String(hits[1]));
  // A click in the listing's gutter clears it again.
  await clickGutter(page, '#listing', listing.listingLine[first]);
  await expect(page.locator('#editor .cm-bp-gutter .bp-dot')).toHaveCount(0);
});

test('if-convert recompiles the kernel and says what changed; the choice is kept', async ({ page }) => {
  const plain = cliListing('examples/if_else.cu', ['--if-convert', 'off']);
  const converted = cliListing('examples/if_else.cu', ['--if-convert', 'on']);
  expect(converted.lines).not.toEqual(plain.lines);
  await open(page);
  await openExample(page, 'if_else.cu');
  const box = page.getByTestId('if-convert');
  await expect(box).not.toBeChecked();
  const shown = () => page.locator('#listing .cm-line').allTextContents().then((ls) => ls.map((l) => l.trim()));
  expect(await shown()).toEqual(plain.lines.map((l) => l.trim()));
  await box.check();
  await expect.poll(shown).toEqual(converted.lines.map((l) => l.trim()));
  await expect(page.getByTestId('listing-info')).toContainText('if-converted');
  await expect(page.getByTestId('listing-info')).toContainText(`before the toggle: ${plain.listingLine.length} instructions`);
  // Saved with the work: a reload keeps it.
  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('if-convert')).toBeChecked();
  expect(await shown()).toEqual(converted.lines.map((l) => l.trim()));
  // An assembly kernel has no generated code and no if-convert choice.
  await openExample(page, 'if_else.sass');
  await expect(page.getByTestId('listing')).toBeHidden();
  await expect(page.getByTestId('if-convert')).toHaveCount(0);
});

// The layout a student reads a C kernel in: from 1440px wide the source and the generated code sit
// side by side (stacked below that, where two panes would wrap every line), each with a dozen
// lines and the current line in view and no sideways scroll; every panel on screen stays inside
// the window, clear of the others and of the fixed bars, and the CFG keeps its scale at 1280x800.
test('from 1440px wide the C source and its generated code sit side by side, every panel in view', async ({ page }) => {
  const panes = () => page.evaluate(() => ['#editor', '#listing'].map((host) => {
    const scroller = document.querySelector(`${host} .cm-scroller`)!;
    const s = scroller.getBoundingClientRect();
    const inside = (el: Element) => { const b = el.getBoundingClientRect(); return b.top >= s.top - 0.5 && b.bottom <= s.bottom + 0.5; };
    const current = document.querySelector(`${host} [data-testid="current-line"]`);
    return {
      linesInView: [...document.querySelectorAll(`${host} .cm-line`)].filter(inside).length,
      currentInView: !!current && inside(current),
      sideways: scroller.scrollWidth - scroller.clientWidth,
    };
  }));
  const instrHeight = () => page.evaluate(() => document.querySelector('#cfg .instr')!.getBoundingClientRect().height);
  let instrAt1280 = 0;
  for (const [w, h, side] of [[1280, 800, false], [1440, 900, true], [1600, 1000, true], [1920, 1080, true]] as const) {
    await page.setViewportSize({ width: w, height: h });
    await open(page);
    await openExample(page, 'double_loop.cu');
    await seek(page, 150);
    const at = `${w}x${h}`;
    const g = await geometry(page);
    expectLaidOut(g, at, ['editor', 'listing', 'caption', 'cfg', 'lanes', 'stack', 'plot']);
    const { editor, listing: gen } = g.panels;
    if (side) {
      expect(Math.abs(gen.y - editor.y), `panes level at ${at}`).toBeLessThan(1);
      expect(gen.x, `generated code right of the source at ${at}`).toBeGreaterThanOrEqual(editor.x + editor.w);
      expect(Math.min(editor.w, gen.w), `pane width at ${at}`).toBeGreaterThanOrEqual(300);
      // The code views settle over a few frames (they look again for the step's line).
      await expect.poll(async () => Math.min(...(await panes()).map((p) => p.linesInView)), `lines in view at ${at}`).toBeGreaterThanOrEqual(12);
      // The code takes the left 45%: the CFG column starts there.
      expect(g.panels.cfg.x / w, `code column share at ${at}`).toBeCloseTo(0.45, 1);
    } else {
      expect(gen.y, `generated code under the source at ${at}`).toBeGreaterThanOrEqual(editor.y + editor.h);
    }
    await expect.poll(async () => (await panes()).every((p) => p.currentInView), `current line in view at ${at}`).toBe(true);
    for (const p of await panes()) expect(p.sideways, `no sideways scroll at ${at}`).toBeLessThanOrEqual(1);
    expect(g.panels.cfg.w, `CFG width at ${at}`).toBeGreaterThanOrEqual(340);
    expect(g.panels.lanes.w, `lanes width at ${at}`).toBeGreaterThanOrEqual(370);
    if (w === 1280) instrAt1280 = await instrHeight();
    else expect(await instrHeight(), `CFG text at ${at} no smaller than at 1280x800`).toBeGreaterThanOrEqual(instrAt1280 - 0.5);
  }
  // An assembly kernel: a narrow code column (about a quarter) with one pane.
  await openExample(page, 'double_loop.sass');
  const asm = await geometry(page);
  expect(asm.panels.cfg.x / 1920).toBeCloseTo(0.27, 1);
  await expect(page.getByTestId('listing')).toBeHidden();
});
