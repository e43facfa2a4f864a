//! The stack history as a figure for a paper (the SVG export, and the PNG drawn from it): the
//! whole run drawn solid, whatever step is on screen, with no cursor and nothing faded; axes with
//! tick marks, a legend of only what is drawn, and on request a title. Sized for one column of a
//! two-column paper: 400 units wide, so at 3.3 in the tick labels print at about 7 pt and the
//! labels at 8 pt. Pure (plot data and colours in, SVG text out), so it is tested without a page.

import { markup, node, type SvgImage, type SvgNode } from '../svg-markup';
import type { PlotData } from './plot';
import { compact, depthPath, depthTicks, markPath, maxDepthOf, roundedDepth, stackMarks, stepTicks } from './plot-shape';

/** The colours and font the figure is drawn in (the page's, read by `plot.ts`). */
export interface FigureLook {
  font: string; text: string; background: string;
  line: string; capacity: string; spill: string; fill: string;
}

export interface FigureOptions {
  /** The figure's name (the kernel's title and model): always its `<title>`, which viewers and
   * screen readers show. */
  title: string;
  /** Whether the title is also drawn above the plot (a paper's caption usually says it instead). */
  titled: boolean;
}

/** How many PNG pixels per unit: 1600 px wide, about 480 dpi at one column's width. */
export const FIGURE_PNG_SCALE = 4;

const WIDTH = 400;
const PLOT_H = 180;
const M = { l: 52, r: 14, b: 44 };
const SIZE = { tick: 12, label: 13, title: 15 };
const PAD = 10;
const ROW = { title: 19, legend: 18 };
// DejaVu Sans's mean advance as a share of the font size: text is laid out without measuring it.
const ADVANCE = 0.6;

/** `text` in at most `maxLines` lines of at most `chars` characters, broken between words; what
 * does not fit ends in an ellipsis. */
export function wrap(text: string, chars: number, maxLines: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (line && next.length > chars) { lines.push(line); line = word; } else line = next;
  }
  if (line) lines.push(line);
  const cut = (l: string) => (l.length > chars ? `${l.slice(0, chars - 1)}…` : l);
  if (lines.length <= maxLines) return lines.map(cut);
  const kept = lines.slice(0, maxLines).map(cut);
  const last = kept[maxLines - 1];
  kept[maxLines - 1] = last.length < chars ? `${last}…` : `${last.slice(0, chars - 1)}…`;
  return kept;
}

interface LegendItem { swatch: (x: number, y: number) => SvgNode; label: string }

/** What the legend explains: the depth line always, the capacity line and the marks when drawn. */
function legendItems(d: PlotData, look: FigureLook, marks: { spill: boolean }[]): LegendItem[] {
  const line = (stroke: string, dash?: string) => (x: number, y: number) =>
    node('line', { x1: x, x2: x + 18, y1: y, y2: y, stroke, 'stroke-width': 2, ...(dash ? { 'stroke-dasharray': dash } : {}) });
  const mark = (spill: boolean) => (x: number, y: number) => node('path', { d: markPath(spill, x + 9, y + (spill ? 6 : -6), 8), fill: spill ? look.spill : look.fill });
  return [
    { swatch: line(look.line), label: `depth in ${d.counts}` },
    ...(d.capacity !== null ? [{ swatch: line(look.capacity, '5 3'), label: `on-chip capacity ${d.capacity}` }] : []),
    ...(marks.some((m) => m.spill) ? [{ swatch: mark(true), label: 'spill to memory' }] : []),
    ...(marks.some((m) => !m.spill) ? [{ swatch: mark(false), label: 'fill from memory' }] : []),
  ];
}

/** The legend's items in rows from `left` to `right`, starting at `top`; how many rows it took. */
function layoutLegend(items: LegendItem[], left: number, right: number, top: number, look: FigureLook): { g: SvgNode; rows: number } {
  const g = node('g', { id: 'legend', 'font-size': SIZE.label, fill: look.text });
  let x = left, row = 0;
  for (const item of items) {
    const w = 18 + 5 + item.label.length * ADVANCE * SIZE.label;
    if (x > left && x + w > right) { x = left; row++; }
    const y = top + row * ROW.legend;
    g.children.push(item.swatch(x, y + 8), node('text', { x: x + 23, y: y + 12 }, item.label));
    x += w + 14;
  }
  return { g, rows: items.length ? row + 1 : 0 };
}

export function stackFigure(d: PlotData, look: FigureLook, options: FigureOptions): SvgImage {
  const n = d.steps, pw = WIDTH - M.l - M.r;
  const titleLines = options.titled ? wrap(options.title, Math.floor((WIDTH - 2 * PAD) / (ADVANCE * SIZE.title)), 2) : [];
  const legendTop = PAD + titleLines.length * ROW.title;
  const x = (k: number) => M.l + (n === 0 ? 0 : (k / n) * pw);
  const marks = stackMarks(d.marks(M.l, pw, 3));
  const legend = layoutLegend(legendItems(d, look, marks), M.l, WIDTH - M.r, legendTop, look);
  // Room above the plot for a spill mark at the top of the depth axis.
  const top = legendTop + legend.rows * ROW.legend + 12, bottom = top + PLOT_H, height = bottom + M.b;
  const maxDepth = roundedDepth(maxDepthOf(d.deepest, d.capacity));
  const y = (v: number) => bottom - (v / maxDepth) * PLOT_H;

  const axis = { stroke: look.text, 'stroke-width': 1 };
  const ticks = node('g', { id: 'axes', 'font-size': SIZE.tick, fill: look.text });
  ticks.children.push(node('line', { x1: M.l, y1: bottom, x2: M.l + pw, y2: bottom, ...axis }), node('line', { x1: M.l, y1: top, x2: M.l, y2: bottom, ...axis }));
  for (const v of depthTicks(maxDepth)) {
    ticks.children.push(node('line', { x1: M.l - 4, x2: M.l, y1: y(v), y2: y(v), ...axis }), node('text', { x: M.l - 7, y: y(v) + 4, 'text-anchor': 'end' }, String(v)));
  }
  for (const k of stepTicks(n)) {
    ticks.children.push(node('line', { x1: x(k), x2: x(k), y1: bottom, y2: bottom + 4, ...axis }), node('text', { x: x(k), y: bottom + 17, 'text-anchor': 'middle' }, compact(k)));
  }
  const labels = node('g', { 'font-size': SIZE.label, fill: look.text, 'text-anchor': 'middle' },
    node('text', { x: M.l + pw / 2, y: bottom + 37 }, 'executed instructions'),
    node('text', { x: 15, y: top + PLOT_H / 2, transform: `rotate(-90 15 ${top + PLOT_H / 2})` }, 'stack depth'));

  const root = node('svg', { xmlns: 'http://www.w3.org/2000/svg', width: WIDTH, height, viewBox: `0 0 ${WIDTH} ${height}`, 'font-family': look.font },
    node('title', {}, options.title), node('rect', { width: WIDTH, height, fill: look.background }));
  if (titleLines.length) {
    root.children.push(node('g', { id: 'title', 'font-size': SIZE.title, 'font-weight': 600, fill: look.text },
      ...titleLines.map((line, i) => node('text', { x: PAD, y: PAD + 14 + i * ROW.title }, line))));
  }
  root.children.push(legend.g, ticks, labels);
  if (d.capacity !== null) {
    root.children.push(node('line', { id: 'capacity', x1: M.l, x2: M.l + pw, y1: y(d.capacity), y2: y(d.capacity), stroke: look.capacity, 'stroke-width': 1.25, 'stroke-dasharray': '5 3' }));
  }
  root.children.push(node('path', { id: 'depth', d: depthPath(d.columns(pw * 4), n, x, y, pw * 4), fill: 'none', stroke: look.line, 'stroke-width': 1.75 }));
  if (marks.length) {
    root.children.push(node('g', { id: 'marks' }, ...marks.map((m) => node('path', { d: markPath(m.spill, x(m.step), y(m.depth), 8), fill: m.spill ? look.spill : look.fill }))));
  }
  return { text: markup(root), width: WIDTH, height };
}
