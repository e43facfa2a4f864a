//! The sweep plot (SVG, drawn by hand like the stack-history plot): one line per series against
//! the swept param, with a title, a legend, axes with round ticks and labels, hollow markers for
//! runs that stopped early, and, beside measurements, the measured dots and a residual strip
//! under the main plot. Hovering shows a guide line and every series' value at that x.
//! Colours and fonts are attributes, not page CSS, so the exported SVG stands on its own; the
//! hover layer is marked `data-export="skip"` and left out of exports.

import { intTicks, tickLabel, valueLabel, valueTicks } from '../sweep/axes';
import type { SweepPlotData } from '../sweep/plot-data';
import { html, svg, watchSize, type Watched } from '../svg';
import { marker, seriesLook, swatch, type SeriesLook } from './sweep-marks';

export interface SweepPlotPanel {
  root: HTMLElement;
  size: Watched;
  data: SweepPlotData | null;
  el: SVGSVGElement | null;
  tooltip: HTMLElement;
}

export function create(root: HTMLElement): SweepPlotPanel {
  const tooltip = html('div', { class: 'tooltip', 'data-testid': 'sweep-tooltip', hidden: '' });
  const p: SweepPlotPanel = { root, size: null!, data: null, el: null, tooltip };
  p.size = watchSize(root, () => { if (p.data) build(p, p.data); });
  return p;
}

export function render(p: SweepPlotPanel, data: SweepPlotData | null): void {
  p.data = data;
  if (!data) { p.root.replaceChildren(); p.el = null; return; }
  if (p.size.w > 0) build(p, data);
}

let measureCtx: CanvasRenderingContext2D | null = null;
/** Text width in px for a CSS font, for laying out the legend and title. */
function textWidth(text: string, font: string): number {
  measureCtx ??= document.createElement('canvas').getContext('2d');
  if (!measureCtx) return text.length * 7;
  measureCtx.font = font;
  return measureCtx.measureText(text).width;
}

/** Splits `text` into lines no wider than `width`. */
function wrap(text: string, font: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const next = line ? `${line} ${word}` : word;
    if (line && textWidth(next, font) > width) { lines.push(line); line = word; } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

interface LegendEntry { label: string; look: SeriesLook; line: boolean; hollow: boolean; testid: string }

function build(p: SweepPlotPanel, d: SweepPlotData): void {
  const css = p.size.css;
  const c = (v: string) => css.getPropertyValue(v).trim();
  const family = c('--sans') || 'sans-serif';
  const bg = c('--panel-bg') || '#fff', ink = c('--text') || '#000', muted = c('--muted') || '#555';
  const palette = [1, 2, 3, 4, 5, 6, 7].map((i) => c(`--series-${i}`) || '#0072b2');
  const W = Math.max(360, p.size.w), H = Math.max(260, p.size.h);
  const font = (size: number, weight = 400) => `${weight} ${size}px ${family}`;
  const text = (x: number, y: number, s: string, o: Record<string, string | number> = {}) =>
    svg('text', { x, y, 'font-family': family, 'font-size': 13, fill: ink, ...o }, s);

  const el = svg('svg', { xmlns: 'http://www.w3.org/2000/svg', width: W, height: H, viewBox: `0 0 ${W} ${H}`, 'font-family': family, 'data-testid': 'sweep-svg', class: 'sweep-svg' });
  el.append(svg('rect', { width: W, height: H, fill: bg }));

  // Title and subtitle, wrapped to the width.
  let y = 8;
  for (const line of wrap(d.title, font(15, 700), W - 24)) { y += 19; el.append(text(12, y, line, { 'font-size': 15, 'font-weight': 700, 'data-testid': 'sweep-title' })); }
  if (d.subtitle) { y += 17; el.append(text(12, y, d.subtitle, { 'font-size': 12.5, fill: muted })); }

  // Legend: every series, the measured dots, and what a hollow marker means if one shows.
  const looks = d.series.map((_, i) => seriesLook(i, palette));
  const entries: LegendEntry[] = d.series.map((s, i) => ({ label: s.label, look: looks[i], line: true, hollow: false, testid: 'legend-series' }));
  if (d.measured) entries.push({ label: d.measured.label, look: { color: ink, shape: 0, dash: '' }, line: false, hollow: false, testid: 'legend-measured' });
  if (d.series.some((s) => s.points.some((pt) => pt.stop))) {
    entries.push({ label: 'run stopped early (hover for why)', look: { color: muted, shape: 0, dash: '' }, line: false, hollow: true, testid: 'legend-stopped' });
  }
  const legend = svg('g', { 'data-testid': 'sweep-legend' });
  let lx = 12;
  y += 12;
  const rowH = 20;
  let rows = entries.length ? 1 : 0;
  for (const e of entries) {
    const w = 34 + textWidth(e.label, font(13)) + 18;
    if (lx > 12 && lx + w > W - 12) { lx = 12; rows++; }
    const cy = y + (rows - 1) * rowH + 8;
    legend.append(swatch(e.look, lx, cy, bg, e.line, e.hollow), text(lx + 32, cy + 4.5, e.label, { 'data-testid': e.testid }));
    lx += w;
  }
  el.append(legend);
  const top = y + rows * rowH + 10;

  // Plot areas: the main plot and, with measurements, the residual strip under it.
  const all = d.series.flatMap((s) => s.points.map((pt) => pt.y)).concat(d.measured?.points.map((pt) => pt.y) ?? []);
  // From zero, unless every value sits far above it (a large measured base): then the curve's shape
  // would flatten into a line near the top.
  const [minY, maxY] = all.length ? [Math.min(...all), Math.max(...all)] : [0, 0];
  const fromZero = !(minY > 0 && minY > 0.4 * maxY);
  const yt = valueTicks(fromZero ? Math.min(0, minY) : minY, Math.max(0, maxY), Math.max(3, Math.floor((H - top) / 70)));
  const res = d.residuals;
  const resMax = res ? Math.max(1, ...res.flat().map((r) => Math.abs(r.y))) : 0;
  const rt = res ? valueTicks(-resMax, resMax, 2) : null;
  const labelW = Math.max(...yt.ticks.map((v) => textWidth(tickLabel(v, yt.step), font(12.5))), ...(rt ? rt.ticks.map((v) => textWidth(tickLabel(v, rt.step), font(12.5))) : [0]));
  const left = 26 + labelW + 8, right = W - 18, bottom = H - 44;
  const resH = res ? Math.max(70, Math.round((bottom - top) * 0.26)) : 0, gap = res ? 26 : 0;
  const mainBottom = bottom - resH - gap;
  const span = d.to - d.from, pad = Math.max(0.4, span * 0.015);
  const X = (x: number) => left + ((x - (d.from - pad)) / (span + 2 * pad)) * (right - left);
  const Y = (v: number) => mainBottom - ((v - yt.lo) / (yt.hi - yt.lo)) * (mainBottom - top);
  const resTop = mainBottom + gap;
  const R = rt ? (v: number) => bottom - ((v - rt.lo) / (rt.hi - rt.lo)) * (bottom - resTop) : Y;

  const grid = { stroke: '#e3e7ed', 'stroke-width': 1 }, axis = { stroke: muted, 'stroke-width': 1 };
  const xs = intTicks(d.from, d.to, Math.max(2, Math.floor((right - left) / 44)));
  const yAxis = (ticks: { ticks: number[]; step: number }, f: (v: number) => number, a: number, b: number) => {
    for (const v of ticks.ticks) {
      el.append(svg('line', { x1: left, x2: right, y1: f(v), y2: f(v), ...(v === 0 && ticks === rt ? { stroke: muted, 'stroke-width': 1.2 } : grid) }));
      el.append(text(left - 7, f(v) + 4.5, tickLabel(v, ticks.step), { 'font-size': 12.5, 'text-anchor': 'end' }));
    }
    el.append(svg('line', { x1: left, x2: left, y1: a, y2: b, ...axis }), svg('line', { x1: left, x2: right, y1: b, y2: b, ...axis }));
    for (const x of xs) el.append(svg('line', { x1: X(x), x2: X(x), y1: b, y2: b + 5, ...axis }));
  };
  yAxis(yt, Y, top, mainBottom);
  el.append(text(14, (top + mainBottom) / 2, d.yLabel, { 'text-anchor': 'middle', fill: muted, transform: `rotate(-90 14 ${(top + mainBottom) / 2})`, 'data-testid': 'sweep-ylabel' }));
  if (rt) {
    yAxis(rt, R, resTop, bottom);
    el.append(text(14, (resTop + bottom) / 2, 'residual', { 'text-anchor': 'middle', fill: muted, transform: `rotate(-90 14 ${(resTop + bottom) / 2})` }));
    el.append(text(left + 6, resTop - 6, 'measured − predicted (cycles)', { 'font-size': 12, fill: muted }));
  }
  for (const x of xs) el.append(text(X(x), bottom + 19, String(x), { 'font-size': 12.5, 'text-anchor': 'middle' }));
  el.append(text((left + right) / 2, H - 8, d.xLabel, { 'text-anchor': 'middle', fill: muted, 'font-size': 14, 'data-testid': 'sweep-xlabel' }));

  // Series: a line through the points, a marker at each (hollow where a run stopped early). With
  // a few series, earlier ones get larger markers, so a marker under a later one still shows
  // around it (Hovland's Figure 5 is two lines on top of each other).
  const dense = (right - left) / Math.max(1, span) < 7;
  const under = (i: number) => (d.series.length <= 4 ? d.series.length - 1 - i : 0);
  d.series.forEach((s, i) => {
    const look = looks[i], size = 4 + 1.5 * under(i);
    const g = svg('g', { 'data-testid': 'sweep-series', 'data-label': s.label, 'data-points': s.points.length });
    if (s.points.length > 1) {
      g.append(svg('path', {
        d: s.points.map((pt, k) => `${k ? 'L' : 'M'}${X(pt.x).toFixed(1)},${Y(pt.y).toFixed(1)}`).join(''),
        fill: 'none', stroke: look.color, 'stroke-width': 2, 'stroke-linejoin': 'round', ...(look.dash ? { 'stroke-dasharray': look.dash } : {}),
      }));
    }
    for (const pt of s.points) {
      if (dense && !pt.stop && !d.measured) continue;
      if (d.measured && !pt.stop) continue; // predictions are lines; the dots are the measurements
      const m = marker(look, X(pt.x), Y(pt.y), size, pt.stop !== null, bg);
      if (pt.stop) m.setAttribute('data-stopped', '');
      g.append(m);
    }
    el.append(g);
    if (res) {
      const r = svg('g', { 'data-testid': 'sweep-residual', 'data-points': res[i].length });
      if (res[i].length > 1) r.append(svg('path', { d: res[i].map((pt, k) => `${k ? 'L' : 'M'}${X(pt.x).toFixed(1)},${R(pt.y).toFixed(1)}`).join(''), fill: 'none', stroke: look.color, 'stroke-width': 1.5, ...(look.dash ? { 'stroke-dasharray': look.dash } : {}) }));
      for (const pt of res[i]) r.append(marker(look, X(pt.x), R(pt.y), 3, false, bg));
      el.append(r);
    }
  });
  if (d.measured) {
    const g = svg('g', { 'data-testid': 'sweep-measured', 'data-points': d.measured.points.length });
    for (const pt of d.measured.points) g.append(svg('circle', { cx: X(pt.x).toFixed(1), cy: Y(pt.y).toFixed(1), r: 3.6, fill: ink }));
    el.append(g);
  }

  hoverLayer(p, el, d, { left, right, top, bottom, X, from: d.from - pad, to: d.to + pad, looks });
  p.root.replaceChildren(el, p.tooltip);
  p.el = el;
}

interface Frame { left: number; right: number; top: number; bottom: number; X: (x: number) => number; from: number; to: number; looks: SeriesLook[] }

/** A guide line and a tooltip listing every series' value at the x under the pointer. */
function hoverLayer(p: SweepPlotPanel, el: SVGSVGElement, d: SweepPlotData, f: Frame): void {
  const layer = svg('g', { 'data-export': 'skip' });
  const guide = svg('line', { y1: f.top, y2: f.bottom, stroke: '#1a1f29', 'stroke-width': 1, 'stroke-dasharray': '3 3', visibility: 'hidden', 'data-testid': 'sweep-guide' });
  const catcher = svg('rect', { x: f.left, y: f.top, width: f.right - f.left, height: f.bottom - f.top, fill: 'transparent', 'data-testid': 'sweep-hover' });
  layer.append(guide, catcher);
  el.append(layer);
  const hide = () => { guide.setAttribute('visibility', 'hidden'); p.tooltip.hidden = true; };
  catcher.addEventListener('mouseleave', hide);
  catcher.addEventListener('mousemove', (ev) => {
    const box = el.getBoundingClientRect();
    const px = ev.clientX - box.left;
    const x = Math.round(f.from + ((px - f.left) / (f.right - f.left)) * (f.to - f.from));
    const rows = tooltipRows(d, x);
    if (x < d.from || x > d.to || rows.length === 0) return hide();
    guide.setAttribute('x1', String(f.X(x)));
    guide.setAttribute('x2', String(f.X(x)));
    guide.setAttribute('visibility', 'visible');
    const t = p.tooltip;
    t.replaceChildren(html('strong', {}, `${d.xLabel} = ${x}`));
    for (const r of rows) {
      const line = html('div', { class: 'tip-row' });
      if (r.series !== null) line.append(html('span', { class: 'tip-swatch', style: `background:${f.looks[r.series].color}` }));
      line.append(html('span', {}, r.text));
      t.append(line);
    }
    t.hidden = false;
    const rootBox = p.root.getBoundingClientRect();
    const left = ev.clientX - rootBox.left + 14, w = t.offsetWidth;
    t.style.left = `${left + w > rootBox.width ? Math.max(0, left - w - 28) : left}px`;
    t.style.top = `${Math.max(0, ev.clientY - rootBox.top - 10)}px`;
  });
}

/** One line per series with a run at `x` (and the measurement there), for the tooltip. */
function tooltipRows(d: SweepPlotData, x: number): { series: number | null; text: string }[] {
  const rows: { series: number | null; text: string }[] = [];
  const m = d.measured?.points.find((pt) => pt.x === x);
  if (m) rows.push({ series: null, text: `measured: ${valueLabel(m.y)}` });
  d.series.forEach((s, i) => {
    const pt = s.points.find((q) => q.x === x);
    if (!pt) return;
    const r = d.residuals?.[i]?.find((q) => q.x === x);
    const value = d.measured ? `predicted ${valueLabel(pt.y)}${r ? `, residual ${valueLabel(r.y)}` : ''}` : valueLabel(pt.y);
    rows.push({ series: i, text: `${s.name}: ${value}${pt.stop ? ` (${pt.stop})` : ''}` });
  });
  return rows;
}
