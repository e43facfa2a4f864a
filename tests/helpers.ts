// Shared helpers for the end-to-end tests: expectations come from the CLI's trace of the same
// kernel (never from the UI), and a fixture that fails a test on any console error or dialog.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as base, expect, type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test';

export interface TraceRow { step: number; pc: string | null; text: string; mask: string; stack: { kind: string; mask: string; addr: string }[] }
export interface Trace { rows: TraceRow[]; total: number }

/** The CLI binary: the test command's build ($WARPSCOPE_CLI), or `scripts/cli.sh`'s, asked once
 * per process (it builds target/debug/warpscope when missing or stale). */
let cliPath: string | undefined;
function cliBinary(): string {
  cliPath ??= process.env.WARPSCOPE_CLI || execFileSync('bash', ['scripts/cli.sh'], { encoding: 'utf8' }).trim();
  return cliPath;
}

/** The CLI's output for `args` (`warpscope ARGS...`); a non-zero exit throws. `quiet` keeps its
 * stderr out of the test's log. */
export function warpscope(args: string[], { quiet = false } = {}): string {
  return execFileSync(cliBinary(), args, { encoding: 'utf8', maxBuffer: 64 << 20, ...(quiet ? { stdio: ['ignore', 'pipe', 'pipe'] } : {}) });
}

/** `warpscope trace FILE --set n=N [options]`, parsed: one row per step, the stack bottom first. */
export function cliTrace(file: string, sets: string[] = [], options: string[] = []): Trace {
  const args = ['trace', file, ...sets.flatMap((s) => ['--set', s]), ...options];
  const out = runAllowingFailure(args);
  const rows: TraceRow[] = [];
  let total = -1;
  // The mask column is one bit per lane: "# mask: lane 31 ... lane 0".
  const width = Number(/^# mask: lane (\d+)/m.exec(out)?.[1] ?? 31) + 1;
  const row = new RegExp(`^\\s*(\\d+)\\s+(0x[0-9a-f]+)?\\s+(.*?)\\s+([01]{${width}})\\s+(.*)$`);
  for (const line of out.split('\n')) {
    const end = /^# \w+ after (\d+) steps/.exec(line);
    if (end) total = Number(end[1]);
    const m = row.exec(line);
    if (!m) continue;
    const stack = m[5].trim() === '-' ? [] : m[5].split('|').map((t) => {
      // A kind may be two words ("BSYNC B0"): the mask and the address are the last two fields.
      const words = t.trim().replace(/\*$/, '').split(/\s+/);
      const [mask, addr] = words.slice(-2);
      return { kind: words.slice(0, -2).join(' '), mask: mask.toLowerCase(), addr: addr.toLowerCase() };
    });
    rows[Number(m[1])] = { step: Number(m[1]), pc: m[2] ?? null, text: m[3], mask: m[4], stack };
  }
  // A run that stops early ("# deadlock at 0x0088 ...") ends at its last row.
  if (total < 0) total = rows.length - 1;
  return { rows, total };
}

/** The CLI's output; a run that deadlocks or faults exits non-zero but still prints its trace. */
export function runAllowingFailure(args: string[]): string {
  try {
    return warpscope(args, { quiet: true });
  } catch (e) {
    const out = (e as { stdout?: string }).stdout;
    if (out) return out;
    throw e;
  }
}

export function exampleText(file: string): string {
  return readFileSync(file, 'utf8');
}

/** The first-visit tour's key (`www/src/panels/tour.ts`). */
export const TOURED_KEY = 'warpscope.toured.v1';

export const test = base.extend<{ problems: string[]; toured: boolean; skipTour: void }>({
  // Every test opens the app as a returning visitor, so the first-visit tour never covers what it
  // looks at; the tour's own tests set `test.use({ toured: false })`.
  toured: [true, { option: true }],
  skipTour: [async ({ page, toured }, use) => {
    if (toured) await page.addInitScript((key) => { try { localStorage.setItem(key, '1'); } catch { /* storage off */ } }, TOURED_KEY);
    await use();
  }, { auto: true }],
  // Every test fails on a console error, an uncaught exception, an unhandled rejection, a
  // Content-Security-Policy violation or a dialog (alert() from markup).
  problems: [async ({ page }, use) => {
    const problems: string[] = [];
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || 'inline code'}`));
      window.addEventListener('unhandledrejection', (e) => console.error(`unhandled rejection: ${String(e.reason)}`));
    });
    page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('dialog', (d) => { problems.push(`dialog: ${d.message()}`); void d.dismiss(); });
    await use(problems);
    // The app turns a stray error into a banner: that is a failure too.
    const unexpected = page.isClosed() ? 0 : await page.getByTestId('banner').filter({ hasText: 'Unexpected error' }).count().catch(() => 0);
    if (unexpected) problems.push('an "Unexpected error" banner');
    expect(problems, 'console errors, page errors, CSP violations or dialogs').toEqual([]);
  }, { auto: true }],
});
export { expect };

export async function open(page: Page, url = './'): Promise<void> {
  await page.goto(url);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
}

export const SAVE_KEY = 'warpscope.work.v1';

/** The saved work exactly as stored (null when none is). */
export async function savedWork(page: Page): Promise<string | null> {
  return page.evaluate((key) => localStorage.getItem(key), SAVE_KEY);
}

/** Makes some work of the user's own and waits until it is saved; returns it as stored. */
export async function makeOwnWork(page: Page, marker = '// my own kernel, not saved anywhere else'): Promise<string> {
  await open(page);
  await replaceText(page, `//@ title My own kernel\nIADD R1, R1, 0x1;\n${marker}\nEXIT;\n`);
  await expect(page.getByTestId('kernel-title')).toHaveText('My own kernel');
  await expect.poll(() => savedWork(page)).toContain(marker);
  return (await savedWork(page))!;
}

export async function openExample(page: Page, file: string): Promise<void> {
  await page.getByTestId('btn-examples').click();
  await page.getByTestId(`example-${file}`).click();
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-step', '0');
}

export async function seek(page: Page, step: number): Promise<void> {
  await page.getByTestId('scrubber').fill(String(step));
  await expect(page.getByTestId('step-label')).toHaveAttribute('data-step', String(step));
}

export async function total(page: Page): Promise<number> {
  return Number(await page.getByTestId('step-label').getAttribute('data-total'));
}

/** The stack as the UI shows it, converted to the trace's form (bottom first, hex masks); `within`
 * picks one side of the compare view. */
export async function uiStack(page: Page, within?: Locator): Promise<{ kind: string; mask: string; addr: string }[]> {
  const entries = await (within ?? page.locator('#stack')).getByTestId('stack-entry').evaluateAll((els) =>
    els.map((el) => ({ kind: el.getAttribute('data-kind')!, bits: el.getAttribute('data-bits')!, addr: el.getAttribute('data-addr')! })));
  // The trace writes a mask with one hex digit per four lanes (0xf for a 4-lane warp).
  return entries.reverse().map((e) => ({
    kind: e.kind, mask: `0x${parseInt(e.bits, 2).toString(16).padStart(Math.ceil(e.bits.length / 4), '0')}`, addr: e.addr,
  }));
}

/** Replaces the editor's whole text the way a user would (select all, then type). */
/** Sets the step limit in Settings (kept in the saved work). Endless-loop tests that click Stop
 * use the highest, 50 M: at the default 10 M a fast machine ends such a run in about a second. */
export async function setStepLimit(page: Page, limit: number): Promise<void> {
  await page.getByTestId('settings').click();
  await page.getByTestId('step-limit').fill(String(limit));
  // Enter sets it and closes the menu.
  await page.getByTestId('step-limit').press('Enter');
}

export async function replaceText(page: Page, text: string): Promise<void> {
  await page.getByTestId('editor-content').click();
  await page.keyboard.press('Control+a');
  await page.keyboard.insertText(text);
}

/** `warpscope compare FILE --models a,b`: each metric row's values, and each block's counts with
 * the MIMD minimum as the app writes them ("2 (min 1)"). */
export function cliCompare(file: string, models: string[]): Record<string, string[]> {
  // A deadlock on either side makes the command exit non-zero; its table is still printed.
  const out = runAllowingFailure(['compare', file, '--models', models.join(',')]);
  const rows: Record<string, string[]> = {};
  for (const line of out.split('\n')) {
    const block = /^\s+(BB\d+)\s+(.*)$/.exec(line);
    if (block) rows[block[1]] = [...block[2].matchAll(/(\d+) \[(\d+)\]/g)].map((m) => `${m[1]} (min ${m[2]})`);
    const metric = /^(\w+)\s+(\S+(?:\s+\S+)*)$/.exec(line);
    if (metric && !block) rows[metric[1]] = metric[2].split(/\s+/);
  }
  return rows;
}

/** `warpscope run FILE --model M [--preset P]`: the run's cycle count under that cost preset. */
export function cliCycles(file: string, model: string, preset?: string): string {
  const out = runAllowingFailure(['run', file, '--model', model, ...(preset ? ['--preset', preset] : [])]);
  return /^cycles\s+(\d+)/m.exec(out)![1];
}


/** `warpscope run FILE --dump NAME`: the buffer's elements at the run's end, as the CLI writes them. */
export function cliDump(file: string, buffer: string, options: string[] = []): string[] {
  return warpscope(['run', file, '--dump', buffer, ...options]).trim().split('\n');
}

/** `warpscope compile FILE`: the listing's lines and, per pc, its 1-based listing line and the C
 * line of the `// N: ...` comment above it (the compiler writes one where the C line changes). */
export interface CliListing { lines: string[]; listingLine: number[]; sourceLine: number[] }
export function cliListing(file: string, options: string[] = []): CliListing {
  const lines = warpscope(['compile', file, ...options]).replace(/\n$/, '').split('\n');
  const listingLine: number[] = [], sourceLine: number[] = [];
  let source = 0;
  lines.forEach((text, i) => {
    const t = text.trim();
    const comment = /^\/\/ (\d+):/.exec(t);
    if (comment) source = Number(comment[1]);
    if (t === '' || t.startsWith('//') || t.endsWith(':')) return; // comments and labels
    listingLine.push(i + 1);
    sourceLine.push(source);
  });
  return { lines, listingLine, sourceLine };
}

/** `warpscope cfg FILE`: each block's first and last instruction address. */
export function cliBlocks(file: string): { id: number; first: number; last: number }[] {
  return [...warpscope(['cfg', file]).matchAll(/^BB(\d+)\s+0x([0-9a-f]+)\.\.0x([0-9a-f]+)/gm)]
    .map((m) => ({ id: Number(m[1]), first: parseInt(m[2], 16), last: parseInt(m[3], 16) }));
}

/** Hovers the middle of a 1-based line of a CodeMirror view (`#editor`, `#listing`). */
export async function hoverLine(page: Page, host: string, line: number): Promise<void> {
  const el = page.locator(`${host} .cm-line`).nth(line - 1);
  await el.scrollIntoViewIfNeeded();
  const box = (await el.boundingBox())!;
  await page.mouse.move(box.x + Math.min(30, box.width / 2), box.y + box.height / 2);
}

/** Clicks the breakpoint gutter beside a 1-based line of a CodeMirror view. */
export async function clickGutter(page: Page, host: string, line: number): Promise<void> {
  const el = page.locator(`${host} .cm-line`).nth(line - 1);
  await el.scrollIntoViewIfNeeded();
  const box = (await el.boundingBox())!;
  const gutter = (await page.locator(`${host} .cm-bp-gutter`).boundingBox())!;
  await page.mouse.click(gutter.x + gutter.width / 2, box.y + box.height / 2);
}

/** `warpscope figure ID --csv`: the figure's sweep as the CLI writes it (measured columns included). */
export function cliFigureCsv(id: string): string {
  return runAllowingFailure(['figure', id, '--csv']);
}

/** Clicks `button` and returns the file it downloads: its suggested name and its bytes. */
export async function download(page: Page, button: Locator): Promise<{ name: string; bytes: Buffer }> {
  const [d] = await Promise.all([page.waitForEvent('download'), button.click()]);
  return { name: d.suggestedFilename(), bytes: readFileSync((await d.path())!) };
}

/** Opens a paper's figure from the gallery; a sweep figure is waited on until it is done. */
export async function openFigure(page: Page, id: string, sweep: boolean): Promise<void> {
  await page.getByTestId('btn-examples').click();
  await page.getByTestId(`figure-${id}`).click();
  if (sweep) await expect(page.getByTestId('sweep-progress')).toHaveAttribute('data-status', 'done', { timeout: 20_000 });
}

export interface Box { x: number; y: number; w: number; h: number }
export interface Geometry {
  /** The panels on screen (not behind a tab), by their `data-panel` name. */
  panels: Record<string, Box>;
  window: { w: number; h: number };
  /** The fixed bars: nothing may sit under them. */
  bars: Box[];
  /** How far the page scrolls sideways (0: it does not). */
  sideways: number;
}

/** Where the page's panels and fixed bars are (geometry, not pixels). */
export async function geometry(page: Page): Promise<Geometry> {
  return page.evaluate(() => {
    const rect = (el: Element) => { const b = el.getBoundingClientRect(); return { x: b.x, y: b.y, w: b.width, h: b.height }; };
    const panels: Record<string, Box> = {};
    for (const el of document.querySelectorAll('#dock [data-panel]')) {
      if (el.isConnected && (el as HTMLElement).offsetParent !== null) panels[(el as HTMLElement).dataset.panel!] = rect(el);
    }
    const bars = ['.topbar', '#notices', '#scrubber'].map((s) => document.querySelector(s)!)
      .filter((el) => getComputedStyle(el).display !== 'none').map(rect);
    return { panels, window: { w: innerWidth, h: innerHeight }, bars, sideways: document.documentElement.scrollWidth - innerWidth };
  });
}

const overlaps = (a: Box, b: Box) =>
  Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x) > 0.5 && Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y) > 0.5;

/** Every panel on screen is inside the window, at least `min` in size, clear of the other panels
 * and of the fixed bars; the page never scrolls sideways. `expected`: panels that must be on screen. */
export function expectLaidOut(g: Geometry, at: string, expected: string[] = [], min = { w: 120, h: 60 }): void {
  expect(g.sideways, `no sideways scroll at ${at}`).toBeLessThanOrEqual(0);
  for (const name of expected) expect(Object.keys(g.panels), `${name} on screen at ${at}`).toContain(name);
  const names = Object.keys(g.panels);
  for (const [i, a] of names.entries()) {
    const b = g.panels[a];
    expect(b.x >= -0.5 && b.y >= -0.5 && b.x + b.w <= g.window.w + 0.5 && b.y + b.h <= g.window.h + 0.5, `${a} inside the window at ${at}`).toBe(true);
    expect(b.w >= min.w && b.h >= min.h, `${a} at least ${min.w}x${min.h} at ${at} (is ${Math.round(b.w)}x${Math.round(b.h)})`).toBe(true);
    for (const bar of g.bars) expect(overlaps(b, bar), `${a} under a fixed bar at ${at}`).toBe(false);
    for (const c of names.slice(i + 1)) expect(overlaps(b, g.panels[c]), `${a} and ${c} overlap at ${at}`).toBe(false);
  }
}

/** Copies the link to what `page` shows and opens it in a fresh browser context (no saved work),
 * which records its console errors in `problems`; close `ctx` when done. */
export async function openCopiedLink(page: Page, browser: Browser, tail = ''): Promise<{ other: Page; ctx: BrowserContext; problems: string[] }> {
  await page.getByTestId('copy-link').click();
  await expect(page.getByTestId('copy-link')).toHaveAttribute('data-link', /#v1\.[A-Za-z0-9_-]+$/);
  const link = await page.getByTestId('copy-link').getAttribute('data-link');
  const ctx = await browser.newContext();
  const other = await ctx.newPage();
  const problems: string[] = [];
  other.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  await open(other, link! + tail);
  return { other, ctx, problems };
}

/** `text` in a new temporary folder as `name`, for the CLI to read. */
export function tempFile(name: string, text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'warpscope-')), name);
  writeFileSync(path, text);
  return path;
}

/** Replaces a CodeMirror view's whole text as a paste would (the view need not be scrolled to). */
export async function paste(page: Page, testid: string, text: string): Promise<void> {
  await page.getByTestId(testid).focus();
  await page.keyboard.press('Control+a');
  await page.keyboard.insertText(text);
}

/** A dock tab by its exact title. */
export const tab = (page: Page, title: string) => page.locator('.dv-tab', { hasText: new RegExp(`^${title}$`) });

/** The 1-based lines marked `testid` (current-line, linked-line) in a CodeMirror view. */
export async function marked(page: Page, host: string, testid: string): Promise<number[]> {
  return page.locator(`${host} [data-testid="${testid}"]`).evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-line'))));
}

/** Whether the first line marked `testid` in a CodeMirror view is inside its scroller's box. */
export async function markedInView(page: Page, host: string, testid: string): Promise<boolean> {
  return page.locator(`${host} .cm-scroller`).evaluate((sc, id) => {
    const line = sc.querySelector(`[data-testid="${id}"]`);
    if (!line) return false;
    const l = line.getBoundingClientRect(), box = sc.getBoundingClientRect();
    return l.height > 0 && l.top >= box.top && l.bottom <= box.bottom;
  }, testid);
}

/** Two animation frames later: CodeMirror has drawn the lines a scroll brought into view. */
async function framesDrawn(page: Page): Promise<void> {
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

/** Checks the lines marked `testid` in a CodeMirror view are `want`: the first is in view (a click
 * scrolls there), and reading the view a page at a time from top to bottom (a long text has only
 * the lines near the view in the page) finds exactly `want` marked. */
export async function expectMarked(page: Page, host: string, testid: string, want: number[]): Promise<void> {
  // The first line lit up is scrolled into view by the click.
  await expect.poll(async () => (await marked(page, host, testid)).includes(want[0]), `${host} ${testid}: line ${want[0]} in view`).toBe(true);
  // The view draws only the lines near it: read it a page at a time, top to bottom.
  const scroller = page.locator(`${host} .cm-scroller`);
  await scroller.evaluate((sc) => { sc.scrollTop = 0; });
  const seen = new Set<number>();
  for (let k = 0; k < 200; k++) {
    await framesDrawn(page);
    (await marked(page, host, testid)).forEach((l) => seen.add(l));
    const moved = await scroller.evaluate((sc) => { const before = sc.scrollTop; sc.scrollTop += sc.clientHeight * 0.8; return sc.scrollTop !== before; });
    if (!moved) break;
  }
  expect([...seen].sort((a, b) => a - b), `${host} ${testid} over the whole text`).toEqual(want);
}

/** Clicks a line of a CodeMirror view, found by its text (a long text has only the lines near
 * the view in the page). */
export async function clickLine(page: Page, host: string, text: string): Promise<void> {
  // In the page, in one go: the view draws only the lines near it, so scroll its scroller (only
  // it: scrollIntoView would move the dock's panels too) a page at a time until the line is drawn,
  // then put it in the middle (a click at the view's edge scrolls the editor under the pointer,
  // which stretches the click into a selection of two lines) and say where it is once drawn.
  const at = await page.locator(`${host} .cm-scroller`).evaluate(async (sc, want) => {
    const norm = (t: string) => t.replace(/\s+/g, ' ').trim();
    const find = () => [...sc.querySelectorAll('.cm-line')].find((l) => norm(l.textContent ?? '').includes(norm(want)));
    const frames = () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    sc.scrollTop = 0;
    await frames();
    for (let k = 0; k < 400 && !find(); k++) {
      const before = sc.scrollTop;
      sc.scrollTop += sc.clientHeight * 0.8;
      await frames();
      if (sc.scrollTop === before) break;
    }
    const line = find();
    if (!line) return null;
    sc.scrollTop += line.getBoundingClientRect().top - sc.getBoundingClientRect().top - sc.clientHeight / 2;
    await frames();
    const r = find()?.getBoundingClientRect();
    return r ? { x: r.x + Math.min(40, r.width / 2), y: r.y + r.height / 2 } : null;
  }, text);
  expect(at, `${host}: a line with ${text}`).not.toBeNull();
  await page.mouse.click(at!.x, at!.y);
}

/** Brings a panel's tab (by its exact title) to the front: a click on it, or through its group's
 * overflow menu when its strip has no room to show it whole. */
/** Picks the named layout (study, lecture, research) in the Layout menu, and closes the menu. */
export async function useLayout(page: Page, name: string): Promise<void> {
  await page.getByTestId('layout-menu').click();
  await page.getByTestId(`layout-${name}`).click();
  await page.keyboard.press('Escape');
}

export async function showTab(page: Page, title: string): Promise<void> {
  const exact = { hasText: new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) };
  const tab = page.locator('.dv-tabs-container > .dv-tab', exact);
  if (await tab.isVisible()) return tab.click();
  const group = page.locator('#dock .dv-groupview', { has: tab });
  await group.locator('.dv-tabs-overflow-dropdown-default').click();
  await page.locator('.dv-tabs-overflow-container .dv-tab', exact).click();
}

/** Labels (SVG or HTML) in `selector` whose boxes overlap another's. */
export async function overlapping(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluateAll((els) => {
    const boxes = els.map((e) => ({ text: e.textContent ?? '', r: e.getBoundingClientRect() }));
    return boxes.filter((a, i) => boxes.some((b, j) => i !== j
      && Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top) > 0.5
      && Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left) > 0.5)).map((a) => a.text);
  });
}

/** A caption that overflows its panel says so ("more ↓") until it is scrolled to its end; a
 * caption that fits shows no mark. Returns whether it overflowed. */
export async function expectCaptionMore(page: Page, at: string): Promise<boolean> {
  const region = page.locator('#caption');
  const more = page.getByTestId('caption-more');
  const over = await region.evaluate((el) => el.scrollHeight > el.clientHeight + 1);
  if (!over) {
    await expect(more, `no mark on a caption that fits at ${at}`).toBeHidden();
    return false;
  }
  await expect(more, `the caption's "more" mark at ${at}`).toBeVisible();
  // The mark sits at the panel's bottom edge, inside it.
  const [m, r] = [(await more.boundingBox())!, (await region.boundingBox())!];
  expect(m.y + m.height, `the mark inside the caption's panel at ${at}`).toBeLessThanOrEqual(r.y + r.height + 8);
  // Scrolled to the end again while the layout settles (a late resize can add more below).
  await expect.poll(async () => {
    await region.evaluate((el) => { el.scrollTop = el.scrollHeight; });
    return more.isHidden();
  }, { message: `no mark once scrolled to the end at ${at}` }).toBe(true);
  await region.evaluate((el) => { el.scrollTop = 0; });
  await expect(more).toBeVisible();
  return true;
}
