//! Lane view (canvas): lanes (rows) by steps (columns) from the engine's `lane_states`, for a
//! window of steps around the current one (`step-window.ts`; the whole run when it is short). Hover
//! tells a cell's lane, step and state (and, at the current step, its pc and registers); a click
//! selects the lane whose registers the register panel shows. A step that issued with no lane
//! (tf-sandy's idle instructions: every lane waits while the warp pc walks a block) is hatched.
//! At a shuffle (`SHFL`) the current column shows the exchange: an arrow from each source lane to
//! the lane that got its value, and the core's sentence under the legend.

import { LaneCode } from '../engine';
import { hex, html, legendItem, setText, tooltip, watchSize, type Watched } from '../svg';
import { niceStep } from '../sweep/axes';
import { fetchRange, windowFor } from './step-window';
import { typeFloor } from '../type-floor';
import type { ExchangeView, StateView } from '../generated/engine';

const NAMES: Record<number, string> = {
  [LaneCode.Active]: 'active', [LaneCode.Masked]: 'masked off', [LaneCode.Waiting]: 'waiting', [LaneCode.Exited]: 'exited',
};
const COLOR_VARS: Record<number, string> = {
  [LaneCode.Active]: '--lane-active', [LaneCode.Masked]: '--lane-masked', [LaneCode.Waiting]: '--lane-waiting', [LaneCode.Exited]: '--lane-exited',
};

export interface LaneData {
  width: number;
  total: number;
  step: number;
  lane: number;
  /** Lane codes for steps from+1..=to, `width` per step. */
  fetch(from: number, to: number): Uint8Array;
  /** Whether any step of the run issued no lane (an idle instruction). */
  idle: boolean;
  /** Lanes issued at steps from+1..=to (asked only when `idle`): 0 marks an idle instruction. */
  issued(from: number, to: number): Uint8Array;
  /** The state after the current step with `lane`'s registers (for the hover card). */
  inspect(lane: number): StateView | null;
  select(lane: number): void;
  /** The current step's shuffle exchange, if it was one (the core's `step_exchange`). */
  exchange?: ExchangeView | null;
}

export interface LanePanel {
  canvas: HTMLCanvasElement;
  size: Watched;
  tip: HTMLElement;
  /** The legend's "no lane issued" item, shown only for runs that have such steps. */
  idleKey: HTMLElement;
  /** The sentence for the current step's shuffle exchange (hidden otherwise). */
  exchangeLine: HTMLElement;
  /** The page's colours for the canvas, read when the size changes: reading computed style in a
   * render would recompute the styles other panels had just changed (1-2 ms a seek). */
  colors: Colors | null;
  /** The panel's CSS zoom (a lecture's) and the layout's type floor in canvas pixels, read with
   * the colours for the same reason. */
  zoom: number;
  floor: number;
  /** Where the view is drawn before it is copied onto the canvas in one go: text drawn on a canvas
   * in the page waits for the page's styles and layout (the panel is a size container), which
   * cost a second layout in every seek; an offscreen canvas needs neither. */
  off: OffscreenCanvas | null;
  /** The font last set on the offscreen context (reset with its size). */
  font: string;
  /** Lane codes and lanes issued (fetched only for a run with idle steps) of steps from+1..=to. */
  cache: { from: number; to: number; codes: Uint8Array; issued: Uint8Array | null; total: number; width: number } | null;
  data: LaneData | null;
  win: { from: number; to: number };
  geom: { left: number; top: number; cw: number; rh: number };
}

interface Colors {
  fills: string[];
  background: string; text: string; accent: string; muted: string; cursor: string; mono: string;
}

function colorsOf(css: CSSStyleDeclaration): Colors {
  const c = (v: string) => css.getPropertyValue(v).trim();
  return {
    fills: [LaneCode.Active, LaneCode.Masked, LaneCode.Waiting, LaneCode.Exited].map((code) => c(COLOR_VARS[code])),
    background: c('--panel-bg'), text: c('--text'), accent: c('--accent'), muted: c('--muted'), cursor: c('--cursor'), mono: c('--mono'),
  };
}

/** Reads the colours, the zoom and the type floor (when the size changes: a layout's zoom
 * changes it too). */
function readStyle(p: LanePanel): Colors {
  p.zoom = p.canvas.currentCSSZoom || 1;
  p.floor = typeFloor(p.canvas);
  return (p.colors = colorsOf(p.size.css));
}

export function create(root: HTMLElement): LanePanel {
  const canvas = document.createElement('canvas');
  canvas.className = 'lanes-canvas';
  canvas.dataset.testid = 'lanes-canvas';
  const tip = tooltip('lane-tooltip');
  const legend = html('div', { class: 'legend' });
  const codes = [LaneCode.Active, LaneCode.Masked, LaneCode.Waiting, LaneCode.Exited];
  legend.append(...codes.map((code) => legendItem(NAMES[code], { background: `var(${COLOR_VARS[code]})` })));
  const idleKey = legendItem('no lane issued (idle instruction)', { cls: 'idle-swatch' });
  idleKey.hidden = true;
  legend.append(idleKey);
  const exchangeLine = document.createElement('div');
  exchangeLine.className = 'exchange-line';
  exchangeLine.dataset.testid = 'shuffle-exchange';
  exchangeLine.hidden = true;
  root.replaceChildren(canvas, legend, exchangeLine, tip);
  const p: LanePanel = { canvas, size: null!, tip, idleKey, exchangeLine, colors: null, zoom: 1, floor: 0, off: null, font: '', cache: null, data: null, win: { from: 0, to: 0 }, geom: { left: 0, top: 0, cw: 1, rh: 1 } };
  p.size = watchSize(canvas, () => {
    readStyle(p);
    if (p.data) render(p, p.data);
  });
  canvas.addEventListener('mousemove', (e) => hover(p, e));
  canvas.addEventListener('mouseleave', () => { tip.hidden = true; });
  canvas.addEventListener('click', (e) => {
    const hit = cellAt(p, e);
    if (hit && p.data) p.data.select(hit.lane);
  });
  return p;
}

/** The steps to fetch to draw steps from+1..=to: none when the cache holds them, else a wider,
 * aligned range, so playing re-reads the engine every couple of hundred steps only. */
function missing(p: LanePanel, total: number, width: number, from: number, to: number): { from: number; to: number } | null {
  const c = p.cache;
  if (c && c.total === total && c.width === width && from >= c.from && to <= c.to) return null;
  return fetchRange(total, from);
}

function codesFor(p: LanePanel, d: LaneData, from: number, to: number): { codes: Uint8Array; issued: Uint8Array; base: number } {
  const range = missing(p, d.total, d.width, from, to);
  if (range) p.cache = { ...range, codes: d.fetch(range.from, range.to), issued: null, total: d.total, width: d.width };
  const c = p.cache!;
  if (d.idle && !c.issued) c.issued = d.issued(c.from, c.to);
  return { codes: c.codes, issued: c.issued ?? new Uint8Array(0), base: c.from };
}

/** The lane codes the panel will fetch to draw step `step` of a run of `total` steps, or null when
 * it has them or is not on screen: a seek can bring them from the same replay (`prime`). */
export function wanted(p: LanePanel, total: number, width: number, step: number): { from: number; to: number } | null {
  if (p.size.w === 0 || p.size.h === 0) return null;
  const win = windowFor(total, step);
  return missing(p, total, width, win.from, win.to);
}

/** Takes the lane codes of steps from+1..=to fetched with a seek (`wanted`'s range). */
export function prime(p: LanePanel, range: { from: number; to: number }, codes: Uint8Array, total: number, width: number): void {
  p.cache = { ...range, codes, issued: null, total, width };
}

/** Forget cached lane codes (a new run was loaded). */
export function invalidate(p: LanePanel): void {
  p.cache = null;
}

function cellAt(p: LanePanel, e: MouseEvent): { lane: number; step: number } | null {
  const d = p.data;
  if (!d) return null;
  const r = p.canvas.getBoundingClientRect();
  // The pointer is in screen pixels, the cells in the canvas's own (a lecture zooms its panels).
  const x = (e.clientX - r.left) / p.zoom - p.geom.left, y = (e.clientY - r.top) / p.zoom - p.geom.top;
  const col = Math.floor(x / p.geom.cw), lane = Math.floor(y / p.geom.rh);
  if (x < 0 || y < 0 || lane >= d.width || col >= p.win.to - p.win.from) return null;
  return { lane, step: p.win.from + col + 1 };
}

export function render(p: LanePanel, d: LaneData): void {
  p.data = d;
  const { canvas } = p;
  const color = p.colors ?? readStyle(p);
  // Drawn at the zoomed size (a lecture's panels), so that its text stays sharp.
  const dpr = (window.devicePixelRatio || 1) * p.zoom;
  const { w: cssW, h: cssH } = p.size;
  if (cssW === 0 || cssH === 0) return;
  const [pw, ph] = [Math.round(cssW * dpr), Math.round(cssH * dpr)];
  if (canvas.width !== pw || canvas.height !== ph || (p.off === null && typeof OffscreenCanvas !== 'undefined')) {
    canvas.width = pw;
    canvas.height = ph;
    p.off = typeof OffscreenCanvas === 'undefined' ? null : new OffscreenCanvas(pw, ph);
    p.font = ''; // a new context starts with the default font
  }
  const ctx = p.off?.getContext('2d') ?? canvas.getContext('2d')!;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = color.background;
  ctx.fillRect(0, 0, cssW, cssH);

  const win = (p.win = windowFor(d.total, d.step));
  const cols = Math.max(1, win.to - win.from);
  // Labels of 9 to 12 px as the rows allow, or a lecture's larger type, with room for them.
  const { floor } = p;
  const left = Math.max(34, Math.ceil(1.3 * floor + 8)), top = 4, bottom = Math.max(20, Math.ceil(floor + 8));
  const cw = (cssW - left - 6) / cols, rh = (cssH - top - bottom) / d.width;
  p.geom = { left, top, cw, rh };
  const { codes, issued, base } = codesFor(p, d, win.from, win.to);
  const fills = color.fills;
  // One rectangle per run of equal cells along a lane (a 400-step window has few runs), then
  // the gaps between cells in the background colour when cells are wide enough to show them.
  for (let l = 0; l < d.width; l++) {
    const y = top + l * rh;
    let c = 0;
    while (c < cols) {
      const code = codes[(win.from - base + c) * d.width + l];
      let end = c + 1;
      while (end < cols && codes[(win.from - base + end) * d.width + l] === code) end++;
      ctx.fillStyle = fills[code] ?? '#000';
      ctx.fillRect(left + c * cw, y, (end - c) * cw, rh);
      c = end;
    }
  }
  // Steps that issued with no lane: every lane waited while the warp pc walked on.
  p.idleKey.hidden = !d.idle;
  if (d.idle) {
    ctx.strokeStyle = color.text;
    ctx.lineWidth = 1;
    const h = d.width * rh;
    for (let c = 0; c < cols; c++) {
      if (issued[win.from - base + c] !== 0) continue;
      const x = left + c * cw;
      ctx.save();
      ctx.beginPath();
      ctx.rect(x, top, cw, h);
      ctx.clip();
      ctx.beginPath();
      for (let k = -h; k < cw; k += 6) { ctx.moveTo(x + k, top + h); ctx.lineTo(x + k + h, top); }
      ctx.stroke();
      ctx.restore();
    }
  }
  ctx.fillStyle = color.background;
  if (cw >= 3) for (let c = 1; c < cols; c++) ctx.fillRect(left + c * cw - 1, top, 1, d.width * rh);
  if (rh > 5) for (let l = 1; l < d.width; l++) ctx.fillRect(left, top + l * rh - 1, cols * cw, 1);
  // Lane numbers, the selected lane, and a step axis.
  const fontPx = Math.max(floor, Math.min(12, Math.max(9, rh)));
  canvas.dataset.labelPx = String(fontPx);
  const font = `${fontPx}px ${color.mono}`;
  if (p.font !== font) ctx.font = p.font = font;
  ctx.fillStyle = color.text;
  ctx.textBaseline = 'middle';
  // Every lane's number where they fit apart, else every 4th, 8th...
  const every = [1, 4, 8, 16].find((e) => e * rh >= 1.2 * fontPx) ?? 32;
  // The selected lane's number always shows, in the accent colour; a number that would touch it
  // gives way. Its row is outlined across the cells only: a row thinner than the text would
  // strike its number through.
  // A label taller than its row is kept inside the lanes' height (lane 0's would be cut at the top).
  const rowY = (l: number) => Math.min(Math.max(top + (l + 0.5) * rh, fontPx / 2), top + d.width * rh - fontPx / 2);
  const selected = rowY(d.lane);
  for (let l = 0; l < d.width; l += every) {
    const y = rowY(l);
    if (l !== d.lane && Math.abs(y - selected) >= fontPx) ctx.fillText(String(l), 4, y);
  }
  ctx.fillStyle = color.accent;
  ctx.fillText(String(d.lane), 4, selected);
  ctx.strokeStyle = color.accent;
  ctx.lineWidth = 2;
  ctx.strokeRect(left - 2, top + d.lane * rh, cssW - left + 1, rh);
  ctx.textBaseline = 'alphabetic';
  ctx.fillStyle = color.muted;
  // 1, 2 or 5 times a power of ten, so that at most about 8 labels fit (fewer in large type).
  const labels = Math.max(2, Math.min(8, Math.floor((cssW - left) / (3.5 * fontPx))));
  const tick = Math.max(1, niceStep(cols, labels));
  for (let s = Math.ceil((win.from + 1) / tick) * tick; s <= win.to; s += tick) {
    const x = left + (s - win.from - 1) * cw, label = String(s);
    // A label the canvas's edge would cut is left out.
    if (x + ctx.measureText(label).width <= cssW) ctx.fillText(label, x, cssH - 5);
  }
  // The current step's column (the instruction the warp issued last).
  canvas.dataset.window = `${win.from}-${win.to}`;
  if (d.step > win.from && d.step <= win.to) {
    const x = left + (d.step - win.from - 1) * cw;
    ctx.strokeStyle = color.cursor;
    ctx.lineWidth = 2.5;
    ctx.strokeRect(x - 1, top - 2, cw + 2, d.width * rh + 4);
    const off = (d.step - 1 - base) * d.width;
    let bits = '';
    for (let l = d.width - 1; l >= 0; l--) bits += codes[off + l] === LaneCode.Active || codes[off + l] === LaneCode.Masked ? '1' : '0';
    canvas.dataset.issued = bits;
    drawExchange(ctx, p, d, x, color.accent);
  } else {
    canvas.dataset.issued = '';
  }
  // Handed over, not copied: the canvas shows the offscreen bitmap and the offscreen canvas starts
  // a new one (a copy with drawImage was a tenth of the panel's time).
  if (p.off) canvas.getContext('bitmaprenderer')!.transferFromImageBitmap(p.off.transferToImageBitmap());
  const ex = d.exchange;
  p.exchangeLine.hidden = !ex;
  setText(p.exchangeLine, ex?.text ?? '');
}

/** Arrows from each source lane to the lane that got its value, right of the current column. */
function drawExchange(ctx: CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D, p: LanePanel, d: LaneData, x: number, accent: string): void {
  const ex = d.exchange;
  if (!ex) {
    delete p.canvas.dataset.exchange;
    return;
  }
  const { top, rh, cw } = p.geom;
  const right = x + cw + 2;
  ctx.strokeStyle = accent;
  ctx.fillStyle = accent;
  ctx.lineWidth = 1.5;
  for (let lane = 0; lane < ex.sources.length; lane++) {
    const src = ex.sources[lane];
    if (src < 0 || src === lane) continue;
    const y0 = top + (src + 0.5) * rh, y1 = top + (lane + 0.5) * rh;
    // Farther exchanges bow out farther, so parallel arrows stay apart.
    const bow = Math.min(60, 6 + Math.abs(lane - src) * Math.max(1.5, rh * 0.4));
    ctx.beginPath();
    ctx.moveTo(right, y0);
    ctx.bezierCurveTo(right + bow, y0, right + bow, y1, right, y1);
    ctx.stroke();
    ctx.beginPath();
    ctx.moveTo(right, y1);
    ctx.lineTo(right + 5, y1 - 3);
    ctx.lineTo(right + 5, y1 + 3);
    ctx.fill();
  }
  p.canvas.dataset.exchange = ex.sources.join(',');
}

function hover(p: LanePanel, e: MouseEvent): void {
  const d = p.data;
  const hit = cellAt(p, e);
  if (!d || !hit || !p.cache) { p.tip.hidden = true; return; }
  const code = p.cache.codes[(hit.step - 1 - p.cache.from) * d.width + hit.lane];
  const lines = [`lane ${hit.lane} · step ${hit.step}`, NAMES[code] ?? '?'];
  if (d.idle && p.cache.issued?.[hit.step - 1 - p.cache.from] === 0) lines.push('no lane issued this step (idle instruction)');
  if (hit.step === d.step) {
    const st = d.inspect(hit.lane);
    const lv = st?.lanes[hit.lane];
    if (lv) lines.push(lv.line == null ? `now ${lv.state}` : `now ${lv.state}, next at line ${lv.line} (BB${lv.block ?? '?'})`);
    const src = d.exchange?.sources[hit.lane] ?? -1;
    if (src >= 0) lines.push(src === hit.lane ? 'the shuffle gave it its own value (source out of range or not running)' : `the shuffle gave it lane ${src}'s value`);
    for (const v of st?.variables.slice(0, 6) ?? []) lines.push(`${v.name} = ${v.value}`);
    for (const r of st?.registers.slice(0, 8) ?? []) lines.push(`${r.name} = ${r.int} (${hex(r.int >>> 0, 8)})`);
  }
  p.tip.replaceChildren(...lines.map((t) => { const div = document.createElement('div'); div.textContent = t; return div; }));
  p.tip.hidden = false;
  const host = p.canvas.getBoundingClientRect();
  const parent = p.tip.offsetParent?.getBoundingClientRect() ?? host;
  p.tip.style.left = `${Math.min(e.clientX - parent.left + 14, parent.width - 220)}px`;
  p.tip.style.top = `${e.clientY - parent.top + 14}px`;
}
