//! Stack-history plot (SVG), like the paper's Figures 3-5: stack depth against executed
//! instructions as a step plot, the on-chip capacity line, spill and fill marks, and a cursor.
//! The whole run shows faintly; the part up to the current step is drawn solid as it plays.
//! The export is not this picture but a figure of the whole run in the same colours
//! (`plot-figure.ts`); the shapes both draw are in `plot-shape.ts`.

import { svg, watchSize, type Watched } from '../svg';
import { typeFloor } from '../type-floor';
import type { SvgImage } from '../svg-markup';
import { stackFigure, type FigureLook, type FigureOptions } from './plot-figure';
import { compact, depthPath, depthTicks, markPath, maxDepthOf, stackMarks, stepTicks } from './plot-shape';

/** A run as the plot draws it: reduced by the engine to what a plot of some width shows. */
export interface PlotData {
  /** Steps in the run (the x axis). */
  steps: number;
  /** The deepest the run's stack went. */
  deepest: number;
  /** The depth path in `columns` columns (`Engine.depthColumns`). */
  columns(columns: number): Uint32Array;
  /** The spill and fill marks on an axis from `left`, `width` wide, at least `gap` apart
   * (`Engine.stackMarks`). */
  marks(left: number, width: number, gap: number): Uint32Array;
  /** The stack depth after `step` steps. */
  depthAt(step: number): number;
  /** The on-chip capacity line; null for models whose stack never spills. */
  capacity: number | null;
  /** What the depth counts in this model ("tokens", "distinct pcs"). */
  counts: string;
}

export interface PlotPanel {
  root: HTMLElement;
  rootSize: Watched;
  el: SVGSVGElement | null;
  data: PlotData | null;
  /** The data the SVG was built for. */
  built: PlotData | null;
  size: string;
  x: (step: number) => number;
  y: (depth: number) => number;
  clip: SVGRectElement | null;
  cursor: SVGGElement | null;
  step: number;
}

const MARGIN = { l: 44, r: 14, t: 26, b: 34 };

export function create(root: HTMLElement): PlotPanel {
  const p: PlotPanel = { root, rootSize: null!, el: null, data: null, built: null, size: '', x: () => 0, y: () => 0, clip: null, cursor: null, step: 0 };
  p.rootSize = watchSize(root, () => render(p, p.data, p.step));
  return p;
}

/** The page's colours and font for the plot (resolved here, so the figure carries them as attributes). */
function lookOf(css: CSSStyleDeclaration): FigureLook {
  const c = (v: string) => css.getPropertyValue(v).trim();
  return {
    font: c('--sans') || 'sans-serif', text: c('--text'), background: c('--panel-bg'),
    line: c('--plot-line'), capacity: c('--capacity'), spill: c('--spill'), fill: c('--fill'),
  };
}

/** The whole run as a figure for a paper, in the panel's colours: no cursor, nothing faded. */
export function figure(p: PlotPanel, d: PlotData, options: FigureOptions): SvgImage {
  return stackFigure(d, lookOf(p.rootSize.css), options);
}

function build(p: PlotPanel, d: PlotData): void {
  const { css } = p.rootSize;
  // A short panel (1280x720's dock, an embed) gets the plot whole: no axis title under the steps.
  const short = p.rootSize.h < 150;
  // Labels of 12 px, or a lecture's larger type (`s` times larger, margins with them).
  const labelPx = Math.max(12, typeFloor(p.root)), s = labelPx / 12;
  const M = { l: MARGIN.l * s, r: MARGIN.r, t: MARGIN.t * s, b: (short ? 20 : MARGIN.b) * s };
  const w = Math.max(240, p.rootSize.w), h = Math.max(short ? 80 : 150, p.rootSize.h);
  const c = (v: string) => css.getPropertyValue(v).trim();
  const n = d.steps;
  const maxDepth = maxDepthOf(d.deepest, d.capacity);
  const pw = w - M.l - M.r, ph = h - M.t - M.b;
  p.x = (k) => M.l + (n === 0 ? 0 : (k / n) * pw);
  p.y = (v) => M.t + ph - (v / maxDepth) * ph;
  const font = { 'font-family': c('--sans'), 'font-size': labelPx, fill: c('--text') };
  const el = svg('svg', { xmlns: 'http://www.w3.org/2000/svg', width: w, height: h, viewBox: `0 0 ${w} ${h}`, 'data-testid': 'plot-svg', class: 'plot-svg' });
  el.append(svg('rect', { width: w, height: h, fill: c('--panel-bg') }));
  const clipId = `plot-clip-${Math.random().toString(36).slice(2)}`;
  const defs = svg('defs');
  const clip = svg('rect', { x: 0, y: 0, width: p.x(0), height: h });
  defs.append(svg('clipPath', { id: clipId }));
  defs.firstElementChild!.append(clip);
  el.append(defs);
  // Axes with a few ticks.
  const axis = { stroke: c('--muted'), 'stroke-width': 1 };
  el.append(svg('line', { x1: M.l, y1: M.t + ph, x2: M.l + pw, y2: M.t + ph, ...axis }), svg('line', { x1: M.l, y1: M.t, x2: M.l, y2: M.t + ph, ...axis }));
  for (const v of depthTicks(maxDepth, ph, labelPx + 4)) el.append(svg('text', { ...font, x: M.l - 6, y: p.y(v) + 4 * s, 'text-anchor': 'end', class: 'depth-tick' }, String(v)));
  // As many step labels as fit with a gap: the widest label's characters at about 0.6 em each.
  const labelW = (compact(n).length * 0.6 + 2) * labelPx;
  for (const k of stepTicks(n, Math.max(1, Math.floor(pw / labelW)))) el.append(svg('text', { ...font, x: p.x(k), y: M.t + ph + 16 * s, 'text-anchor': 'middle' }, compact(k)));
  if (!short) el.append(svg('text', { ...font, x: M.l + pw / 2, y: h - 3, 'text-anchor': 'middle', fill: c('--muted') }, 'executed instructions'));
  // Turned, the axis title needs about 80 px: a short plot's legend names the depth instead.
  if (!short) el.append(svg('text', { ...font, x: 12 * s, y: M.t + ph / 2, transform: `rotate(-90 ${12 * s} ${M.t + ph / 2})`, 'text-anchor': 'middle', fill: c('--muted') }, 'stack depth'));
  if (d.capacity !== null) {
    el.append(svg('line', { x1: M.l, x2: M.l + pw, y1: p.y(d.capacity), y2: p.y(d.capacity), stroke: c('--capacity'), 'stroke-width': 1.5, 'stroke-dasharray': '6 4' }));
    el.append(svg('text', { ...font, x: M.l + pw - 4, y: p.y(d.capacity) - 5, 'text-anchor': 'end', fill: c('--capacity') }, `on-chip capacity ${d.capacity}`));
  }
  const columns = Math.floor(pw);
  const path = depthPath(d.columns(columns), n, p.x, p.y, columns);
  el.append(svg('path', { d: path, fill: 'none', stroke: c('--plot-line'), 'stroke-opacity': 0.25, 'stroke-width': 1.5 }));
  el.append(svg('path', { d: path, fill: 'none', stroke: c('--plot-line'), 'stroke-width': 2, 'clip-path': `url(#${clipId})`, 'data-testid': 'plot-line' }));
  // Spill (down) and fill (up) marks along the top.
  const marks = svg('g', { 'clip-path': `url(#${clipId})` });
  for (const m of stackMarks(d.marks(M.l, pw, 3))) {
    marks.append(svg('path', { d: markPath(m.spill, p.x(m.step), p.y(m.depth), 10), fill: c(m.spill ? '--spill' : '--fill') }));
  }
  el.append(marks);
  const cursor = svg('g', { 'data-testid': 'plot-cursor' });
  cursor.append(svg('line', { y1: M.t, y2: M.t + ph, stroke: c('--cursor'), 'stroke-width': 1.5 }), svg('circle', { r: 5, fill: c('--cursor') }));
  el.append(cursor);
  // Drawn for 12 px labels and scaled with them.
  const legend = svg('g', { transform: `translate(${M.l + 6},${4 * s}) scale(${s})` });
  legend.append(svg('path', { d: 'M0,0h10l-5,8z', fill: c('--spill') }), svg('text', { ...font, 'font-size': 12, x: 14, y: 9 }, 'spill'));
  legend.append(svg('path', { d: 'M50,8h10l-5,-8z', fill: c('--fill') }), svg('text', { ...font, 'font-size': 12, x: 64, y: 9 }, 'fill'));
  legend.append(svg('text', { ...font, 'font-size': 12, x: 100, y: 9, fill: c('--muted'), 'data-testid': 'plot-counts' }, `${short ? 'stack ' : ''}depth counts ${d.counts}`));
  el.append(legend);
  p.root.replaceChildren(el);
  Object.assign(p, { el, clip, cursor });
}

export function render(p: PlotPanel, d: PlotData | null, step: number): void {
  p.step = step;
  if (!d || p.rootSize.w === 0) { p.data = d; return; }
  const size = `${p.rootSize.w}x${p.rootSize.h}`;
  if (p.built !== d || p.size !== size) {
    p.data = p.built = d;
    p.size = size;
    build(p, d);
  }
  const depth = d.depthAt(step);
  const x = p.x(step), y = p.y(depth);
  p.clip?.setAttribute('width', String(x + 1));
  const [line, dot] = p.cursor!.children;
  line.setAttribute('x1', String(x));
  line.setAttribute('x2', String(x));
  dot.setAttribute('cx', String(x));
  dot.setAttribute('cy', String(y));
  p.cursor!.dataset.step = String(step);
  p.cursor!.dataset.depth = String(depth);
}
