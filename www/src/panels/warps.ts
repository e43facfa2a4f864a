//! Warps view (canvas), for a whole launch: the block on screen's warps (rows) by the block's
//! steps (columns), from the engine's `warps_window`, for a window of steps around the current
//! one (`step-window.ts`). A cell says what the warp did at that step: issued it (shaded by how many
//! lanes ran: the block's SIMD efficiency at a glance), could have but another warp did, waited
//! at a barrier, or had exited. The steps where a barrier let its warps go are ticked on top.
//! The warp in focus (the one every other panel shows) is outlined; click a row to focus
//! another. The buttons step to the focused warp's previous or next issue.

import { WarpCode } from '../engine';
import { html, legendItem, setText, tooltip, watchSize, type Watched } from '../svg';
import { typeFloor } from '../type-floor';
import { fetchRange, windowFor } from './step-window';
import type { BlockSummary, WarpNow } from '../generated/engine';

/** The least height of a warp's row: 32 warps stay readable on a projector (and scroll). */
export const MIN_ROW_PX = 6;

export interface WarpsData {
  warps: number;
  /** Lanes per warp. */
  width: number;
  total: number;
  step: number;
  focus: number;
  /** The block on screen, and every block of the launch with its counts (the picker's list). */
  blockIdx: number[];
  blocks: BlockSummary[];
  /** Show block `b` instead (its line in the kernel's `//@ launch` changes, and it runs again);
   * null where the kernel cannot change (an embed). */
  pickBlock: ((b: number[]) => void) | null;
  /** `WarpCode`s for steps from+1..=to, `warps` per step. */
  fetch(from: number, to: number): Uint8Array;
  /** Every warp at the current step. */
  now: WarpNow[];
  /** The block's steps at which a barrier released its warps, in order. */
  releases: Float64Array;
  select(warp: number): void;
  /** Go to the focused warp's previous or next issue. */
  issue(dir: -1 | 1): void;
}

export interface WarpsPanel {
  canvas: HTMLCanvasElement;
  /** The canvas's scroll box: a block of many warps keeps rows of MIN_ROW_PX and scrolls. */
  box: HTMLElement;
  size: Watched;
  head: HTMLElement;
  tip: HTMLElement;
  colors: Colors | null;
  zoom: number;
  floor: number;
  cache: { from: number; to: number; codes: Uint8Array; total: number; warps: number } | null;
  data: WarpsData | null;
  win: { from: number; to: number };
  geom: { left: number; top: number; cw: number; rh: number };
}

interface Colors { issued: string; ready: string; barrier: string; exited: string; failed: string; background: string; text: string; accent: string; cursor: string; mono: string }

const KEYS: [keyof Colors, string][] = [
  ['issued', 'issued (darker: more lanes)'], ['ready', 'ready'], ['barrier', 'at a barrier'], ['exited', 'exited'],
];

function colorsOf(css: CSSStyleDeclaration): Colors {
  const c = (v: string) => css.getPropertyValue(v).trim();
  return {
    issued: c('--lane-active'), ready: c('--warp-ready'), barrier: c('--lane-waiting'), exited: c('--lane-exited'), failed: c('--danger'),
    background: c('--panel-bg'), text: c('--text'), accent: c('--accent'), cursor: c('--cursor'), mono: c('--mono'),
  };
}

function readStyle(p: WarpsPanel): Colors {
  p.zoom = p.canvas.currentCSSZoom || 1;
  p.floor = typeFloor(p.canvas);
  return (p.colors = colorsOf(p.size.css));
}

export function create(root: HTMLElement): WarpsPanel {
  const head = document.createElement('div');
  head.className = 'warps-head';
  const canvas = document.createElement('canvas');
  canvas.className = 'warps-canvas';
  canvas.dataset.testid = 'warps-canvas';
  const tip = tooltip('warp-tooltip');
  const legend = html('div', { class: 'legend warps-legend' });
  legend.append(...KEYS.map(([key, words]) => legendItem(words, { cls: `warp-${key}` })),
    // The strip under the rows: the block's SIMD efficiency over its steps.
    legendItem('bars: lanes per step', { cls: 'warp-lanes' }));
  const box = document.createElement('div');
  box.className = 'warps-box';
  box.append(canvas);
  root.replaceChildren(head, box, legend, tip);
  const p: WarpsPanel = { canvas, box, size: null!, head, tip, colors: null, zoom: 1, floor: 0, cache: null, data: null, win: { from: 0, to: 0 }, geom: { left: 0, top: 0, cw: 1, rh: 1 } };
  p.size = watchSize(box, () => {
    readStyle(p);
    if (p.data) render(p, p.data);
  });
  canvas.addEventListener('mousemove', (e) => hover(p, e));
  canvas.addEventListener('mouseleave', () => { tip.hidden = true; });
  canvas.addEventListener('click', (e) => {
    const hit = cellAt(p, e);
    if (hit && p.data) p.data.select(hit.warp);
  });
  return p;
}

/** Forget cached codes (a new run was loaded). */
export function invalidate(p: WarpsPanel): void {
  p.cache = null;
}

function codesFor(p: WarpsPanel, d: WarpsData, from: number, to: number): { codes: Uint8Array; base: number } {
  const c = p.cache;
  if (!(c && c.total === d.total && c.warps === d.warps && from >= c.from && to <= c.to)) {
    const range = fetchRange(d.total, from);
    p.cache = { ...range, codes: d.fetch(range.from, range.to), total: d.total, warps: d.warps };
  }
  return { codes: p.cache!.codes, base: p.cache!.from };
}

function cellAt(p: WarpsPanel, e: MouseEvent): { warp: number; step: number } | null {
  const d = p.data;
  if (!d) return null;
  const r = p.canvas.getBoundingClientRect();
  const x = (e.clientX - r.left) / p.zoom - p.geom.left, y = (e.clientY - r.top) / p.zoom - p.geom.top;
  const col = Math.floor(x / p.geom.cw), warp = Math.floor(y / p.geom.rh);
  if (y < 0 || warp >= d.warps) return null;
  // The labels' gutter selects the row too.
  return { warp, step: x < 0 ? d.step : p.win.from + Math.min(col, p.win.to - p.win.from - 1) + 1 };
}

/** What a code says, for the tooltip. */
export function describe(code: number): string {
  if (code >= WarpCode.Issued) return `issued it with ${code - WarpCode.Issued} lanes`;
  return code === WarpCode.AtBarrier ? 'waited at a barrier' : code === WarpCode.Exited ? 'had exited' : code === WarpCode.Failed ? 'had failed' : 'was ready; another warp issued';
}

function hover(p: WarpsPanel, e: MouseEvent): void {
  const hit = cellAt(p, e), d = p.data, c = p.cache;
  if (!hit || !d || !c) { p.tip.hidden = true; return; }
  const code = c.codes[(hit.step - 1 - c.from) * d.warps + hit.warp];
  setText(p.tip, `warp ${hit.warp}, step ${hit.step}: ${code === undefined ? '' : describe(code)}. Click to focus warp ${hit.warp}.`);
  p.tip.hidden = false;
  const r = p.canvas.getBoundingClientRect();
  p.tip.style.left = `${Math.min(e.clientX - r.left + 12, r.width - 220)}px`;
  p.tip.style.top = `${e.clientY - r.top + 12}px`;
}

const dims = (b: readonly number[]) => `(${b.join(', ')})`;

/** The block picker: every block with its SIMD efficiency, warp instructions and barrier waits. */
function blockPicker(d: WarpsData): HTMLSelectElement {
  const sel = document.createElement('select');
  sel.className = 'warps-block';
  sel.dataset.testid = 'warps-block';
  sel.title = 'The block the views show: each with its SIMD efficiency, warp instructions and barrier waits';
  sel.setAttribute('aria-label', 'block');
  const shown = dims(d.blockIdx);
  for (const b of d.blocks) {
    const name = dims(b.block_idx);
    const o = new Option(`block ${name}: ${(100 * b.simd_efficiency).toFixed(1)}% SIMD, ${b.warp_instructions} instr, ${b.barrier_waits} waits`, name);
    o.selected = name === shown;
    sel.add(o);
  }
  sel.disabled = d.pickBlock === null;
  sel.addEventListener('change', () => {
    const b = d.blocks[sel.selectedIndex];
    if (b) d.pickBlock?.(b.block_idx);
  });
  return sel;
}

/** What warp `w` does at the step, in words (the panel's head, the caption's block line). */
export function doingOf(w: WarpNow): string {
  switch (w.doing) {
    case 'issuing': return `issued this step with ${w.issued} lanes`;
    case 'at_barrier': return `waits at barrier ${w.barrier ?? 0}`;
    case 'ready': return 'is ready';
    case 'exited': return 'has exited';
    case 'failed': return 'has failed';
  }
}

function headLine(p: WarpsPanel, d: WarpsData): void {
  const w = d.now[d.focus];
  const doing = w ? doingOf(w) : '';
  const block = dims(d.blockIdx);
  const key = `${block}|${d.blocks.length}|${d.warps}|${d.focus}|${doing}`;
  if (p.head.dataset.key === key) return;
  p.head.dataset.key = key;
  const text = document.createElement('span');
  text.className = 'warps-focus';
  text.dataset.testid = 'warps-focus';
  text.textContent = `${d.blocks.length > 1 ? '' : `block ${block}, `}${d.warps} warps; warp ${d.focus} in focus${doing ? `: ${doing}` : ''}`;
  const button = (label: string, title: string, dir: -1 | 1) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'warps-step';
    b.textContent = label;
    b.title = title;
    b.dataset.testid = dir < 0 ? 'warp-prev-issue' : 'warp-next-issue';
    b.addEventListener('click', () => p.data?.issue(dir));
    return b;
  };
  const picker = d.blocks.length > 1 ? [blockPicker(d)] : [];
  p.head.replaceChildren(button('◀', `step back to warp ${d.focus}'s previous issue ([)`, -1), ...picker, text, button('▶', `step to warp ${d.focus}'s next issue (])`, 1));
}

export function render(p: WarpsPanel, d: WarpsData): void {
  p.data = d;
  headLine(p, d);
  const { canvas } = p;
  const color = p.colors ?? readStyle(p);
  const dpr = (window.devicePixelRatio || 1) * p.zoom;
  const { w: cssW, h: boxH } = p.size;
  if (cssW === 0 || boxH === 0) return;
  const { floor } = p;
  const bottomText = Math.max(18, Math.ceil(floor + 6));
  // Rows of at least MIN_ROW_PX (the box scrolls), with the lanes strip where there is room.
  const cssH = Math.max(boxH, 7 + bottomText + d.warps * MIN_ROW_PX);
  canvas.style.height = `${cssH}px`;
  const [pw, ph] = [Math.round(cssW * dpr), Math.round(cssH * dpr)];
  if (canvas.width !== pw || canvas.height !== ph) { canvas.width = pw; canvas.height = ph; }
  const ctx = canvas.getContext('2d')!;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = color.background;
  ctx.fillRect(0, 0, cssW, cssH);
  const win = (p.win = windowFor(d.total, d.step));
  const cols = Math.max(1, win.to - win.from);
  // Under the rows, a strip of the lanes each step ran: the block's SIMD efficiency over time.
  const strip = boxH >= 7 + bottomText + 14 + d.warps * MIN_ROW_PX ? 14 : 0;
  const left = Math.max(34, Math.ceil(2 * floor + 8)), top = 7, bottom = bottomText + strip;
  const cw = (cssW - left - 6) / cols, rh = Math.max(1, (cssH - top - bottom) / Math.max(1, d.warps));
  p.geom = { left, top, cw, rh };
  // Where the rows are, for a test to click one.
  canvas.dataset.rows = `${top} ${rh}`;
  const { codes, base } = codesFor(p, d, win.from, win.to);
  const fill = (code: number): [string, number] => {
    if (code >= WarpCode.Issued) return [color.issued, 0.35 + 0.65 * Math.min(1, (code - WarpCode.Issued) / d.width)];
    return [code === WarpCode.AtBarrier ? color.barrier : code === WarpCode.Exited ? color.exited : code === WarpCode.Failed ? color.failed : color.ready, 1];
  };
  for (let w = 0; w < d.warps; w++) {
    const y = top + w * rh;
    let c = 0;
    while (c < cols) {
      const code = codes[(win.from - base + c) * d.warps + w];
      let end = c + 1;
      while (end < cols && codes[(win.from - base + end) * d.warps + w] === code) end++;
      const [style, alpha] = fill(code);
      ctx.globalAlpha = alpha;
      ctx.fillStyle = style;
      ctx.fillRect(left + c * cw, y, (end - c) * cw, rh);
      c = end;
    }
  }
  ctx.globalAlpha = 1;
  if (rh > 5) {
    ctx.fillStyle = color.background;
    for (let w = 1; w < d.warps; w++) ctx.fillRect(left, top + w * rh - 1, cols * cw, 1);
  }
  if (strip) {
    const y0 = top + d.warps * rh + 3;
    ctx.fillStyle = color.ready;
    ctx.fillRect(left, y0, cols * cw, strip - 3);
    ctx.fillStyle = color.issued;
    for (let c = 0; c < cols; c++) {
      const at = (win.from - base + c) * d.warps;
      let lanes = 0;
      for (let w = 0; w < d.warps; w++) if (codes[at + w] >= WarpCode.Issued) lanes = codes[at + w] - WarpCode.Issued;
      const h = ((strip - 3) * Math.min(d.width, lanes)) / d.width;
      ctx.fillRect(left + c * cw, y0 + strip - 3 - h, Math.max(cw, 0.5), h);
    }
  }
  // A tick after each step at which a barrier let its warps go (the engine's list).
  ctx.fillStyle = color.text;
  let releases = 0;
  for (const t of d.releases) {
    if (t <= win.from || t >= win.to) continue;
    ctx.fillRect(left + (t - win.from) * cw, 0, Math.max(1.5, cw), top - 2);
    releases++;
  }
  canvas.dataset.releases = String(releases);
  // The focused warp's row, and the current step.
  ctx.strokeStyle = color.accent;
  ctx.lineWidth = 2;
  ctx.strokeRect(left - 1, top + d.focus * rh, cols * cw + 2, rh);
  if (d.step > win.from && d.step <= win.to) {
    ctx.fillStyle = color.cursor;
    ctx.fillRect(left + (d.step - win.from - 1) * cw + cw / 2 - 1, top - 2, 2, d.warps * rh + 4);
  }
  // Warp numbers: every row where they fit apart, else every 4th or 8th.
  const fontPx = Math.max(floor, Math.min(12, Math.max(11, rh)));
  ctx.font = `${fontPx}px ${color.mono}`;
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'right';
  const every = [1, 2, 4, 8, 16].find((e) => e * rh >= 1.15 * fontPx) ?? 32;
  canvas.dataset.labelEvery = String(every);
  for (let w = 0; w < d.warps; w++) {
    if (w % every !== 0 && w !== d.focus) continue;
    ctx.fillStyle = w === d.focus ? color.accent : color.text;
    ctx.font = `${w === d.focus ? 'bold ' : ''}${fontPx}px ${color.mono}`;
    ctx.fillText(`w${w}`, left - 5, top + (w + 0.5) * rh);
  }
  ctx.textAlign = 'left';
  ctx.fillStyle = color.text;
  ctx.font = `${fontPx}px ${color.mono}`;
  ctx.textBaseline = 'alphabetic';
  ctx.fillText(`steps ${win.from + 1}-${win.to} of ${d.total}`, left, cssH - 4);
}
