//! Memory panel: every buffer of the run at the step shown, each a titled grid of its elements
//! (index and value, as the engine writes them), drawn only where the panel is scrolled to
//! (`memory-grid.ts`), so a buffer of a million elements costs one screenful. The elements the step
//! just executed wrote are filled, those it read are outlined, those the selected lane touched are
//! marked, and each says on hover which lanes touched it; for a launch, each shared element says
//! which warp and lane of the block last wrote it; the line on top says what the step did,
//! in the engine's words. The panel follows the step's first touched element, unless the user
//! scrolled it in the last second.

import { html, withCode } from '../svg';
import { cellTop, columns, followTo, layout, visibleRows, type GridLayout } from '../memory-grid';
import type { CellTouchView, MemoryView } from '../generated/engine';

/** What the panel shows: the run and step (the view is read again only when they change), and
 * the engine's reads, called only while the panel is on screen. */
export interface MemorySource {
  run: object;
  step: number;
  lane: number;
  view: () => MemoryView | null;
  cells: (buffer: number, from: number, to: number) => string[];
  /** A whole launch: who last wrote shared elements `from..to`, `[warp, lane, step]` each (-1s: none). */
  writers?: (buffer: number, from: number, to: number) => Int32Array;
}

/** Sizes in rem (the panel's type size scales them): a cell (wider when a buffer holds floats,
 * whose shortest text runs to 9 or more characters), a row, a buffer's title, the gap. */
const CELL_REM = 4.9, FLOAT_CELL_REM = 6.6, ROW_REM = 2.3, HEAD_REM = 1.8, GAP_REM = .6;
/** A scroll by the user this recently keeps the panel from following the step. */
const USER_SCROLL_MS = 1000;

export interface MemoryPanel {
  summary: HTMLElement;
  legend: HTMLElement;
  scroller: HTMLElement;
  space: HTMLElement;
  source: MemorySource | null;
  /** The view read for `shownRun` at `shownStep`. */
  view: MemoryView | null;
  shownRun: object | null;
  shownStep: number;
  grid: GridLayout | null;
  /** The step's touched elements by `buffer:index`. */
  touched: Map<string, CellTouchView>;
  /** The run and step the panel follows, and when that step came. */
  followed: { run: object; step: number; at: number } | null;
  userScrolledAt: number;
  frame: number;
}

export function create(root: HTMLElement): MemoryPanel {
  const p: MemoryPanel = {
    summary: html('span', { class: 'mem-summary', 'data-testid': 'memory-summary', 'aria-live': 'polite' }),
    legend: html('span', { class: 'mem-legend small', 'data-testid': 'memory-legend' }),
    scroller: html('div', { class: 'mem-scroll', tabindex: 0, role: 'region', 'aria-label': 'buffers', 'data-testid': 'memory-grid' }),
    space: html('div', { class: 'mem-space' }),
    source: null, view: null, shownRun: null, shownStep: -1, grid: null, touched: new Map(), followed: null, userScrolledAt: -Infinity, frame: 0,
  };
  p.scroller.append(p.space);
  // Only the user's own scrolling pauses following (a wheel, a drag of the bar, a key).
  const byUser = () => { p.userScrolledAt = performance.now(); };
  for (const ev of ['wheel', 'pointerdown', 'touchstart', 'keydown']) p.scroller.addEventListener(ev, byUser, { passive: true });
  p.scroller.addEventListener('scroll', () => {
    if (!p.frame) p.frame = requestAnimationFrame(() => { p.frame = 0; draw(p); });
  });
  // The key sits beside a short sentence and wraps under a long one.
  const head = html('div', { class: 'mem-head' });
  head.append(p.summary, p.legend);
  root.replaceChildren(head, p.scroller);
  return p;
}

const key = (buffer: number, index: number) => `${buffer}:${index}`;

function rem(el: HTMLElement): number {
  return parseFloat(getComputedStyle(el).fontSize) || 16;
}

export function render(p: MemoryPanel, src: MemorySource): void {
  p.source = src;
  // Behind a tab the panel is out of the page: nothing is read until it shows (the dock redraws then).
  if (!p.scroller.isConnected || p.scroller.clientHeight === 0) return;
  if (src.run !== p.shownRun || src.step !== p.shownStep) {
    p.view = src.view();
    p.shownRun = src.run;
    p.shownStep = src.step;
    p.touched = new Map((p.view?.access?.cells ?? []).map((c) => [key(c.buffer, c.index), c]));
  }
  const v = p.view;
  const r = rem(p.scroller);
  const cellRem = v?.buffers.some((b) => b.elem === 'f32') ? FLOAT_CELL_REM : CELL_REM;
  p.scroller.style.setProperty('--mem-cell', `${cellRem}rem`);
  const size = { cols: columns(p.scroller.clientWidth - r * .6, cellRem * r), rowH: ROW_REM * r, headH: HEAD_REM * r, gap: GAP_REM * r };
  p.grid = v ? layout(v.buffers.map((b) => b.len), size) : null;
  // The column's full height first: a scroll past the drawn height would be cut short.
  p.space.style.height = `${p.grid?.height ?? 0}px`;
  renderSummary(p, src);
  follow(p, src);
  draw(p);
}

function renderSummary(p: MemoryPanel, src: MemorySource): void {
  const v = p.view, a = v?.access ?? null;
  p.summary.replaceChildren();
  withCode(p.summary, !v ? '' : v.buffers.length === 0 ? 'This kernel has no buffers: `//@ buffer` lines declare them.'
    : a ? a.summary : src.step === 0 ? 'step 0: nothing has run yet' : `step ${src.step}: no memory access`);
  p.summary.title = a ? `${a.instruction}${a.line ? ` (line ${a.line})` : ''}` : '';
  const mine = (a?.cells ?? []).filter((c) => c.lanes.includes(src.lane));
  const names = v?.buffers ?? [];
  const writers = v?.writers && v.buffers.some((b) => b.shared)
    ? [swatch('mem-by', 'w3 l5: who last wrote', 'a shared element\'s last writer in the block: its warp (w) and lane (l); the bar\'s colour is the warp\'s')] : [];
  p.legend.replaceChildren(...writers, ...(a ? [
    swatch(a.kind === 'read' ? 'mem-r' : 'mem-w', a.participle, `elements ${a.participle} at this step`),
    swatch('mem-sel', `selected lane ${src.lane}: ${mine.length ? mine.map((c) => `${names[c.buffer]?.name ?? '?'}[${c.index}]`).join(', ') : 'none'}`,
      'the elements the selected lane touched (choose the lane in the lanes or registers panel)'),
  ] : []));
}

function swatch(cls: string, label: string, title: string): HTMLElement {
  const s = html('span', { class: 'mem-key', title });
  s.append(html('span', { class: `mem-chip ${cls}`, 'aria-hidden': 'true' }), document.createTextNode(label));
  return s;
}

/** Keeps the step's first touched element in view, unless the user scrolled the panel in the last
 * second before the step came or since. Checked on every render of the step, as a panel shown
 * again (a tab chosen) comes back scrolled to its top and sized anew. */
function follow(p: MemoryPanel, src: MemorySource): void {
  const g = p.grid, first = p.view?.access?.cells[0];
  if (p.followed?.run !== src.run || p.followed.step !== src.step) p.followed = { run: src.run, step: src.step, at: performance.now() };
  if (!g || !first || p.userScrolledAt > p.followed.at - USER_SCROLL_MS) return;
  const top = cellTop(g, first.buffer, first.index);
  if (top === null) return;
  const to = followTo(top, g.size.rowH, g.size.headH, p.scroller.scrollTop, p.scroller.clientHeight);
  if (to !== null) p.scroller.scrollTop = to;
}

/** Draws the rows in view, each buffer's title kept at the top while its rows scroll by. */
function draw(p: MemoryPanel): void {
  const g = p.grid, v = p.view, src = p.source;
  if (!g || !v || !src) { p.space.replaceChildren(); return; }
  p.space.style.height = `${g.height}px`;
  const { cols, rowH, headH } = g.size;
  const blocks = visibleRows(g, p.scroller.scrollTop, p.scroller.clientHeight).map(({ buffer, first, last }) => {
    const b = v.buffers[buffer], block = g.blocks[buffer];
    const kind = `${b.elem}[${b.len}]`;
    const box = html('div', { class: 'mem-buf', 'data-buffer': b.name, style: `top:${block.top}px;height:${block.height}px` });
    // The title stays at the window's top while the buffer's rows scroll under it (placed here,
    // not by CSS sticky, which a zoomed panel misplaces).
    const pinned = Math.max(0, Math.min(block.height - headH, p.scroller.scrollTop - block.top));
    const title = html('h3', { class: 'mem-title', style: `top:${pinned}px;height:${headH}px` });
    title.append(html('b', { class: 'mono' }, b.name), html('span', { class: 'muted' }, `${kind} · ${b.shared ? 'shared' : 'global'}`));
    const table = html('div', { role: 'table', 'aria-label': `${b.name}, ${kind}`, 'aria-rowcount': block.rows, class: 'mem-table', 'data-testid': `memory-${b.name}` });
    const from = first * cols, to = Math.min(b.len, (last + 1) * cols);
    const values = src.cells(buffer, from, to);
    const writers = b.shared && v.writers && src.writers ? src.writers(buffer, from, to) : null;
    for (let row = first; row <= last; row++) {
      const tr = html('div', { role: 'row', 'aria-rowindex': row + 1, class: 'mem-row', style: `top:${headH + row * rowH}px;height:${rowH}px` });
      for (let i = row * cols; i < Math.min(b.len, (row + 1) * cols); i++) {
        const k = 3 * (i - from), who = writers && writers[k] >= 0 ? { warp: writers[k], lane: writers[k + 1], step: writers[k + 2] } : null;
        tr.append(cell(p, v, buffer, i, values[i - from] ?? '', src.lane, who));
      }
      table.append(tr);
    }
    box.append(title, table);
    return box;
  });
  p.space.replaceChildren(...blocks);
}

/** The warp and lane that last wrote a shared element, and at which of the block's steps. */
interface Writer { warp: number; lane: number; step: number }

/** Hues a writer's warp is told by (the Okabe-Ito set the page's series use), warp number modulo 8. */
const WARP_HUES = 8;

function cell(p: MemoryPanel, v: MemoryView, buffer: number, index: number, value: string, lane: number, who: Writer | null): HTMLElement {
  const b = v.buffers[buffer], t = p.touched.get(key(buffer, index)), a = v.access;
  const name = `${b.name}[${index}]`;
  let title = `${name} = ${value} (${b.elem})`;
  if (who) title += `\nlast written by warp ${who.warp}, lane ${who.lane}, at step ${who.step}`;
  else if (b.shared && v.writers) title += v.writers_cut_at !== null && v.step >= v.writers_cut_at ? `\nwriters not kept from step ${v.writers_cut_at}` : '\nno lane of the block has written it yet';
  let cls = 'mem-cell';
  let said = '';
  if (t && a) {
    said = `${a.participle} by ${t.lanes.length === 1 ? 'lane' : 'lanes'} ${t.lane_text}`;
    title += `\n${said} at step ${v.step}`;
    cls += a.kind === 'read' ? ' mem-r' : ' mem-w';
    if (t.lanes.includes(lane)) { cls += ' mem-sel'; title += ` (the selected lane ${lane} among them)`; }
  }
  if (who) cls += ` mem-by w${who.warp % WARP_HUES}`;
  const c = html('div', { role: 'cell', class: cls, title, 'data-index': index, ...(who ? { 'data-writer': `${who.warp}:${who.lane}` } : {}) });
  const head = html('span', { class: 'mem-i' }, `[${index}]`);
  if (who) head.append(html('span', { class: 'mem-who mono' }, `w${who.warp} l${who.lane}`));
  c.append(head, html('span', { class: 'mem-v mono' }, value));
  // Screen readers hear what the colours show.
  if (said) c.append(html('span', { class: 'sr-only' }, `, ${said}`));
  return c;
}
