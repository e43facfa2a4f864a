//! CFG view (SVG): blocks with their instructions, taken / fall-through / sync / back edges drawn
//! distinctly, each divergent branch's reconvergence point, the current block and instruction,
//! which lanes wait at which block, and for a C kernel the source lines each block comes from.
//! For the thread-frontier models, each block's priority and thread frontier instead of the
//! reconvergence arrows, and the current block's frontier outlined while stepping.
//!
//! Readable at any size: fitting never shrinks text below `READABLE_TEXT_PX`, or a lecture's
//! type floor (a graph too big for that shows its readable part, and a minimap of the whole);
//! follow mode keeps the current block in view, moving there smoothly (on by default when the
//! graph does not fit). Zoom with the buttons, Ctrl/Cmd + wheel, or + / - / 0 on the focused
//! graph; pan by dragging or with the wheel; a click (not a drag) on an instruction toggles its
//! breakpoint.
//!
//! With heat on (the "heat" tool), each block ends with a row for Nsight Compute's counters: its
//! warp instructions as a bar against the hottest block's and as a number, every count added
//! over its instructions in the block's tooltip; asked of the app when the panel is on screen.
//!
//! Under STRUCT the graph is the transformed one (copies dashed and tagged, cut code tinted), and
//! the tools offer the kernel's original graph in its place ("transformed" / "original"), with
//! the block the run is in marked through the copy it runs. The choice stays across steps and
//! goes back to the transformed graph when a run without a transform (another model) shows.

import { DEFAULT_METRICS, type Layout } from '../cfg-layout';
import { originalMarks, whereNote, type StepMarks } from '../cfg-struct';
import {
  between, centredOn, clampPan, fitView as fitted, followRect, followTarget, MINIMAP_GAP, minimapBounds, minimapCovers, minimapLeavesRoom, overflows,
  readableScale, visibleRect, zoomAt, type Insets, type Size, type View,
} from '../cfg-view';
import { described, html, svg } from '../svg';
import { typeFloor } from '../type-floor';
import type { CfgView } from '../generated/engine';
import { heatButton, type BlockHeat, type HeatChoice } from '../heat';
import { drawGraph, drawHeat, drawStep, markerDefs } from './cfg-draw';
import * as minimap from './cfg-minimap';

/** STRUCT's original graph (the kernel before the transform), laid out when first shown. */
export interface OriginalGraph {
  cfg: CfgView;
  layout: () => Layout;
}

/** Which graph the panel shows under STRUCT. */
export type Shown = 'transformed' | 'original';

/** What the panel last drew, so the graph choice can draw again without a new step. */
interface Drawn {
  cfg: CfgView;
  layout: Layout;
  st: StepMarks | null;
  breakpoints: number[];
  original: OriginalGraph | null;
  heat: HeatChoice<BlockHeat> | null;
}

export interface CfgPanel {
  root: HTMLElement;
  svg: SVGSVGElement;
  legend: HTMLElement;
  /** Holds the graph and the overlay; its transform is the view. */
  world: SVGGElement;
  graph: SVGGElement | null;
  overlay: SVGGElement;
  cfg: CfgView | null;
  layout: Layout | null;
  /** The layout's widest block and, at most as many rows as following shows, its tallest (graph
   * units): what the minimap must leave room for. */
  largest: Size;
  /** The panel has room for a minimap beside the largest block (not a small panel). */
  mapFits: boolean;
  view: View;
  /** The view is the fitted one (no zoom or pan by hand since): a resize or a new graph fits again. */
  fitted: boolean;
  /** Keep the current block in view. Until the user chooses, on exactly when the graph is too big
   * to read whole. */
  follow: boolean;
  followChosen: boolean;
  /** The user pressed "key": the legend stays as they left it, whatever the panel's size. */
  keyChosen: boolean;
  /** The legend shows at first (the compare view's narrow sides start without it). */
  legendAtFirst: boolean;
  /** The blocks' heat drawn now (null: none). */
  heat: readonly BlockHeat[] | null;
  tools: {
    el: HTMLElement; follow: HTMLButtonElement; zoom: HTMLElement; key: HTMLButtonElement;
    /** Turns the heat on or off; absent where the panel offers none (the compare view's sides). */
    heat: HTMLButtonElement | null;
    /** STRUCT's graph choice, shown only when the run has an original graph. */
    which: HTMLElement; transformed: HTMLButtonElement; original: HTMLButtonElement;
  };
  /** Under STRUCT: which graph shows, and what was drawn last (for redrawing on a switch). */
  shown: Shown;
  drawn: Drawn | null;
  /** Over the original graph: where the run is ("now in BB5 (running its copy BB5'')"). */
  where: HTMLElement;
  minimap: minimap.Minimap;
  /** The SVG's size as of its last resize, and the zoom tools' height over its top (both read
   * when it resizes, never in the middle of a render). */
  box: Size;
  toolsHeight: number;
  /** The current block and instruction, as last rendered. */
  current: number | null;
  pc: number | null;
  /** A smooth move in progress: its animation frame and where it is heading. */
  frame: number | null;
  heading: View | null;
  /** A click on an instruction (its index). */
  onToggleBreakpoint: (instr: number) => void;
}

const ZOOM_STEP = 1.25;
/** What the heat tints, as the heat tool's tooltip says. */
const HEAT_WHAT = 'each block\'s warp instructions executed (Instructions Executed, its instructions added)';
/** The minimap's distance from the graph's bottom right corner (style.css, .cfg-minimap). */
const MINIMAP_MARGIN = 4;
const FOLLOW_MS = 280;
/** A graph area shorter than this (a slide's embed, a short group) starts without the legend:
 * two or three lines of it took a third of the panel. The "key" button still shows it. */
const LEGEND_MIN_HOST_PX = 240;

export interface CfgOptions {
  /** Show the edge legend under the graph at first (the compare view's narrow sides start
   * without it: the "key" button brings it back). */
  legend?: boolean;
  /** The "heat" tool was pressed; without it, no such tool. */
  onHeat?: () => void;
}

export function create(root: HTMLElement, onToggleBreakpoint: (instr: number) => void, opts: CfgOptions = {}): CfgPanel {
  const s = svg('svg', { class: 'cfg-svg', 'data-testid': 'cfg-svg', role: 'img', tabindex: 0,
    'aria-label': 'control-flow graph: drag to pan, Ctrl + wheel or + and - to zoom, 0 to fit' });
  const world = svg('g', { class: 'cfg-world' });
  const overlay = svg('g', { class: 'cfg-overlay' });
  world.append(overlay);
  s.append(markerDefs(), world);
  const stage = html('div', { class: 'cfg-stage' });
  const tools = html('div', { class: 'cfg-tools', role: 'toolbar', 'aria-label': 'graph view' });
  const button = (text: string, testid: string, title: string) => {
    const b = html('button', { type: 'button', 'data-testid': testid, ...described(text, title) }, text);
    tools.append(b);
    return b;
  };
  // STRUCT's two graphs: a pair of pressed/unpressed buttons, first in the tools.
  const which = html('span', { class: 'cfg-which', role: 'group', 'aria-label': 'which graph STRUCT shows', 'data-testid': 'cfg-which' });
  const choice = (text: string, testid: string, title: string) => {
    const b = html('button', { type: 'button', 'data-testid': testid, 'aria-pressed': 'false', title }, text);
    which.append(b);
    return b;
  };
  const transformed = choice('transformed', 'cfg-show-transformed', 'the graph STRUCT runs: the kernel after its copies and cuts');
  const original = choice('original', 'cfg-show-original', 'the kernel\'s own graph before STRUCT\'s transform, the block the run is in marked');
  which.hidden = true;
  tools.append(which);
  const zoom = html('span', { class: 'cfg-zoom', 'data-testid': 'cfg-zoom', title: 'zoom' });
  const out = button('−', 'cfg-zoom-out', 'zoom out (-)');
  tools.append(zoom);
  const into = button('+', 'cfg-zoom-in', 'zoom in (+)');
  const fit = button('fit', 'cfg-fit', 'fit: the whole graph if its text stays readable, else the readable part (0 or F)');
  const follow = button('follow', 'cfg-follow', 'keep the current block in view');
  const heat = opts.onHeat ? button('heat', 'cfg-heat', heatButton({ on: false, waits: false }, HEAT_WHAT).title) : null;
  const key = button('key', 'cfg-key', 'show or hide what the edges mean');
  const legend = html('div', { class: 'legend cfg-legend', 'data-testid': 'cfg-legend' });
  legend.hidden = !(opts.legend ?? true);
  key.setAttribute('aria-pressed', String(!legend.hidden));
  fillLegend(legend, { frontiers: false, reconv: true, copies: false, cuts: false, heat: false });
  const where = html('p', { class: 'cfg-where', 'data-testid': 'cfg-where' });
  where.hidden = true;
  stage.append(s, tools);
  root.replaceChildren(where, stage, legend);
  const p: CfgPanel = {
    root, svg: s, legend, world, graph: null, overlay, cfg: null, layout: null, largest: { w: 0, h: 0 }, mapFits: false, view: { x: 0, y: 0, k: 1 }, fitted: true,
    follow: false, followChosen: false, keyChosen: false, legendAtFirst: !legend.hidden, heat: null,
    tools: { el: tools, follow, zoom, key, heat, which, transformed, original }, shown: 'transformed', drawn: null, where,
    box: { w: 0, h: 0 }, toolsHeight: 0, current: null, pc: null, frame: null,
    heading: null, onToggleBreakpoint,
    minimap: minimap.create(stage, (at) => userMoved(p, centredOn(p.view, at, graphSize(p), p.box, insets(p)))),
  };
  out.addEventListener('click', () => zoomBy(p, 1 / ZOOM_STEP));
  into.addEventListener('click', () => zoomBy(p, ZOOM_STEP));
  fit.addEventListener('click', () => fitView(p));
  transformed.addEventListener('click', () => choose(p, 'transformed'));
  original.addEventListener('click', () => choose(p, 'original'));
  follow.addEventListener('click', () => setFollow(p, !p.follow));
  heat?.addEventListener('click', () => opts.onHeat?.());
  key.addEventListener('click', () => {
    p.keyChosen = true;
    showLegend(p, legend.hidden);
  });
  labelFollow(p);
  enablePanZoom(p);
  new ResizeObserver(() => {
    // The legend's default follows the panel's size (hiding it resizes the graph, not the host).
    if (!p.keyChosen) showLegend(p, p.legendAtFirst && root.clientHeight >= LEGEND_MIN_HOST_PX);
    p.box = { w: s.clientWidth, h: s.clientHeight };
    p.toolsHeight = tools.offsetHeight;
    renderHeat(p, false);
    drawMinimap(p);
    defaultFollow(p);
    if (p.fitted) return fitView(p);
    show(p, clampPan(p.view, graphSize(p), p.box, insets(p)));
    if (p.follow) followCurrent(p, false);
  }).observe(s);
  return p;
}

/** Shows or hides the edges' legend; the "key" button says which. */
function showLegend(p: CfgPanel, on: boolean): void {
  p.legend.hidden = !on;
  p.tools.key.setAttribute('aria-pressed', String(on));
}

/** What a legend explains besides the edge kinds. */
interface LegendFacts { frontiers: boolean; reconv: boolean; copies: boolean; cuts: boolean; heat: boolean }

const legendOf = (l: Layout): LegendFacts => ({
  frontiers: l.frontiers, reconv: l.reconv.length > 0, copies: l.nodes.some((n) => n.tag?.kind === 'copy'), cuts: l.nodes.some((n) => n.tag?.kind === 'cut'),
  heat: l.heat,
});

/** The edge kinds, the frontier or the reconvergence arrows, and under STRUCT its copies and cut
 * code, each only when the graph drawn has some. */
function fillLegend(legend: HTMLElement, f: LegendFacts): void {
  legend.replaceChildren();
  const items: [string, string, string?][] = [['taken', 'taken'], ['fallthrough', 'fall-through'], ['sync', 'pop to sync point'], ['back', 'back edge']];
  if (f.frontiers) items.push(['frontier', 'thread frontier of the current block']);
  else if (f.reconv) items.push(['reconv', 'reconverges here']);
  if (f.copies) {
    items.push(['copy', 'copy STRUCT made of a block', 'a block STRUCT duplicated so the code is structured; its tag names the block it copies']);
  }
  if (f.cuts) {
    items.push(['cut', 'cut code', 'guard code STRUCT\'s cut wrote: a loop with several exits leaves through one, its guard register saying which']);
  }
  if (f.heat) {
    items.push(['heat', 'heat: warp instructions executed', 'a block\'s last row: its warp instructions executed (Nsight Compute\'s Instructions Executed, its instructions added), the bar against the hottest block\'s']);
  }
  for (const [cls, label, hint] of items) {
    const item = html('span', { class: 'legend-item', ...(hint ? { title: hint, 'data-testid': `cfg-legend-${cls}` } : {}) });
    const sw = svg('svg', { width: 34, height: 12, 'aria-hidden': 'true' });
    sw.append(cls === 'frontier' || cls === 'copy' || cls === 'cut' || cls === 'heat'
      ? svg('rect', { x: 2, y: 1, width: 30, height: 10, rx: 3, class: `${cls}-swatch` })
      : svg('line', { x1: 1, y1: 6, x2: 33, y2: 6, class: `edge ${cls}` }));
    item.append(sw, document.createTextNode(label));
    legend.append(item);
  }
}

/** Shows STRUCT's transformed or original graph (a tool's click): drawn again at this step. */
function choose(p: CfgPanel, shown: Shown): void {
  if (p.shown === shown) return;
  p.shown = shown;
  const d = p.drawn;
  if (d) render(p, d.cfg, d.layout, d.st, d.breakpoints, d.original, d.heat);
}

const graphSize = (p: CfgPanel): Size => ({ w: p.layout?.width ?? 0, h: p.layout?.height ?? 0 });

/** What covers the graph in view `v`: the zoom tools along the top, and the minimap (when it
 * shows at that scale) along its thinner side. */
function insets(p: CfgPanel, v: View = p.view): Insets {
  const m = p.minimap.size, on = minimapShows(p, v);
  return {
    top: p.toolsHeight, left: 0,
    right: on && m.w <= m.h ? m.w + MINIMAP_GAP : 0,
    bottom: on && m.w > m.h ? m.h + MINIMAP_GAP : 0,
  };
}
/** The smallest scale its text is readable at here (larger under a lecture's type floor). */
const readable = (p: CfgPanel): number => readableScale(typeFloor(p.svg));
const ready = (p: CfgPanel) => !!p.layout && p.box.w > 0 && p.box.h > 0;

/** The minimap shows while the graph overflows the view, where it leaves the largest block room. */
function minimapShows(p: CfgPanel, v: View): boolean {
  if (!p.mapFits || !ready(p) || !overflows(v, graphSize(p), p.box)) return false;
  return minimapLeavesRoom(p.box, p.minimap.size, { w: p.largest.w * v.k, h: p.largest.h * v.k }, p.toolsHeight);
}

/** Puts `v` on screen now (ending any smooth move), with the minimap and zoom readout. */
function show(p: CfgPanel, v: View): void {
  p.view = v;
  p.world.setAttribute('transform', `translate(${v.x},${v.y}) scale(${v.k})`);
  p.svg.dataset.k = v.k.toFixed(3);
  p.tools.zoom.textContent = `${Math.round(v.k * 100)}%`;
  const on = minimapShows(p, v);
  minimap.update(p.minimap, on ? visibleRect(v, p.box) : null, p.current, on && minimapOverCurrent(p, v));
}

/** Whether the minimap (in the bottom right corner) would cover the current block in view `v`. */
function minimapOverCurrent(p: CfgPanel, v: View): boolean {
  const n = p.layout?.nodes.find((q) => q.id === p.current);
  if (!n) return false;
  const { w, h } = p.minimap.size;
  const map = { x: p.box.w - MINIMAP_MARGIN - w, y: p.box.h - MINIMAP_MARGIN - h, w, h };
  return minimapCovers(v, { x: n.x, y: n.y, w: n.width, h: n.height }, map);
}

function stopMoving(p: CfgPanel): void {
  if (p.frame !== null) cancelAnimationFrame(p.frame);
  p.frame = null;
  p.heading = null;
}

/** Moves to `to`, smoothly unless the user asked for less motion. */
function glide(p: CfgPanel, to: View): void {
  stopMoving(p);
  if (matchMedia('(prefers-reduced-motion: reduce)').matches) return show(p, to);
  const from = p.view, start = performance.now();
  const tick = (now: number) => {
    const t = (now - start) / FOLLOW_MS;
    show(p, between(from, to, t));
    p.frame = t < 1 ? requestAnimationFrame(tick) : null;
    if (t >= 1) p.heading = null;
  };
  p.heading = to;
  p.frame = requestAnimationFrame(tick);
}

/** The user moved the view by hand (a drag, the wheel, the minimap): it stops fitting and
 * following, and stays where they put it. */
function userMoved(p: CfgPanel, v: View): void {
  stopMoving(p);
  p.fitted = false;
  if (p.follow) setFollow(p, false);
  show(p, v);
}

function zoomBy(p: CfgPanel, factor: number, at = { x: p.box.w / 2, y: p.box.h / 2 }): void {
  if (!ready(p)) return;
  stopMoving(p);
  p.fitted = false;
  show(p, zoomAt(p.view, factor, at, graphSize(p), p.box, insets(p)));
  if (p.follow) followCurrent(p, false);
}

/** The fitted view: the whole graph, or at a readable scale the part around the current block. */
export function fitView(p: CfgPanel): void {
  if (!ready(p)) return;
  stopMoving(p);
  p.fitted = true;
  show(p, fitted(graphSize(p), p.box, readable(p)).view);
  if (p.follow) followCurrent(p, false);
}

/** Until the user chooses, follow exactly when the graph is too big to read whole. */
function defaultFollow(p: CfgPanel): void {
  if (p.followChosen || !ready(p)) return;
  p.follow = !fitted(graphSize(p), p.box, readable(p)).whole;
  labelFollow(p);
}

function setFollow(p: CfgPanel, on: boolean): void {
  p.follow = on;
  p.followChosen = true;
  labelFollow(p);
  if (on) followCurrent(p, true);
}

function labelFollow(p: CfgPanel): void {
  p.tools.follow.setAttribute('aria-pressed', String(p.follow));
  p.root.dataset.follow = p.follow ? 'on' : 'off';
}

/** Brings the current block (or, in a tall block, the current instruction) into view. */
function followCurrent(p: CfgPanel, smooth: boolean): void {
  const l = p.layout, n = l?.nodes.find((q) => q.id === p.current);
  if (!l || !n || !ready(p)) return;
  const m = DEFAULT_METRICS;
  const b = p.cfg?.blocks.find((q) => q.id === n.id);
  const row = b && p.pc !== null && !l.compact ? b.instrs.findIndex((i) => i.index === p.pc) : -1;
  const rowRect = row >= 0 ? { x: n.x, y: n.y + m.headerHeight + row * m.lineHeight - 2, w: n.width, h: m.lineHeight } : null;
  // Measured from where a smooth move is heading, so a step during one does not restart it.
  const from = p.heading ?? p.view;
  const target = followRect(from, p.box, { x: n.x, y: n.y, w: n.width, h: n.height }, rowRect, 28, insets(p, from));
  const to = followTarget(from, graphSize(p), p.box, target, insets(p, from));
  if (!to) {
    // In sight already: the minimap still marks the new block (a move in progress does it).
    if (p.frame === null) show(p, p.view);
    return;
  }
  if (smooth) glide(p, to); else { stopMoving(p); show(p, to); }
}

/** The widest block's width, and the tallest block's height up to the rows following keeps in
 * view of a tall one (`followRect`). */
function largestBlock(l: Layout): Size {
  const rows = 5 * DEFAULT_METRICS.lineHeight + DEFAULT_METRICS.headerHeight;
  return { w: Math.max(0, ...l.nodes.map((n) => n.width)), h: Math.min(rows, Math.max(0, ...l.nodes.map((n) => n.height))) };
}

/** Draws the minimap for the panel's size, beside the largest block at the fitted scale. */
function drawMinimap(p: CfgPanel): void {
  if (!p.layout || p.box.w === 0) return;
  const k = fitted(graphSize(p), p.box).view.k;
  const bounds = minimapBounds(graphSize(p), p.box, { w: p.largest.w * k, h: p.largest.h * k }, p.toolsHeight);
  p.mapFits = bounds !== null;
  if (bounds) minimap.draw(p.minimap, p.layout, bounds);
}

function enablePanZoom(p: CfgPanel): void {
  let drag: { x: number; y: number; view: View } | null = null;
  let down: { x: number; y: number; instr: string | undefined } | null = null;
  p.svg.addEventListener('pointerdown', (e) => {
    stopMoving(p);
    p.svg.focus({ preventScroll: true });
    drag = { x: e.clientX, y: e.clientY, view: p.view };
    down = { x: e.clientX, y: e.clientY, instr: (e.target as SVGElement).closest<SVGElement>('[data-instr]')?.dataset.instr };
    p.svg.setPointerCapture(e.pointerId);
    p.svg.classList.add('dragging');
  });
  p.svg.addEventListener('pointermove', (e) => {
    if (!drag || !ready(p)) return;
    const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    // A press that barely moves is a click, not a pan (it must not stop following).
    if (Math.hypot(dx, dy) < 4 && p.view === drag.view) return;
    userMoved(p, clampPan({ ...drag.view, x: drag.view.x + dx, y: drag.view.y + dy }, graphSize(p), p.box, insets(p)));
  });
  const end = () => { drag = null; p.svg.classList.remove('dragging'); };
  p.svg.addEventListener('pointerup', (e) => {
    if (down?.instr !== undefined && Math.hypot(e.clientX - down.x, e.clientY - down.y) < 4) p.onToggleBreakpoint(Number(down.instr));
    down = null;
    end();
  });
  p.svg.addEventListener('pointercancel', end);
  p.svg.addEventListener('wheel', (e) => {
    if (!ready(p)) return;
    if (e.ctrlKey || e.metaKey) {
      // Ctrl + wheel (and a trackpad's pinch, which arrives as one) zooms at the pointer.
      e.preventDefault();
      const r = p.svg.getBoundingClientRect();
      zoomBy(p, Math.exp(-e.deltaY * 0.002), { x: e.clientX - r.left, y: e.clientY - r.top });
      return;
    }
    // A plain wheel pans a graph that overflows; otherwise it is left to the page.
    if (!overflows(p.view, graphSize(p), p.box)) return;
    e.preventDefault();
    const [dx, dy] = e.shiftKey && e.deltaX === 0 ? [e.deltaY, 0] : [e.deltaX, e.deltaY];
    userMoved(p, clampPan({ ...p.view, x: p.view.x - dx, y: p.view.y - dy }, graphSize(p), p.box, insets(p)));
  }, { passive: false });
  p.svg.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const act: Record<string, () => void> = {
      '+': () => zoomBy(p, ZOOM_STEP), '=': () => zoomBy(p, ZOOM_STEP), '-': () => zoomBy(p, 1 / ZOOM_STEP), 0: () => fitView(p),
    };
    const f = act[e.key];
    if (!f) return;
    e.preventDefault();
    f();
  });
}

/** What the panel shows now: the run's graph, or under STRUCT the original one with the step
 * carried to it (for the SVG export too). */
export function shownGraph(p: CfgPanel): { cfg: CfgView; layout: Layout; st: StepMarks | null; original: boolean } | null {
  const d = p.drawn;
  if (!d) return null;
  if (p.shown === 'original' && d.original) {
    return { cfg: d.original.cfg, layout: d.original.layout(), st: originalMarks(d.cfg, d.st).marks, original: true };
  }
  return { cfg: d.cfg, layout: d.layout, st: d.st, original: false };
}

/** The graph choice's buttons and the note over the original graph. */
function renderWhich(p: CfgPanel, d: Drawn): void {
  const { which, transformed, original } = p.tools;
  which.hidden = d.original === null;
  transformed.setAttribute('aria-pressed', String(p.shown === 'transformed'));
  original.setAttribute('aria-pressed', String(p.shown === 'original'));
  p.root.dataset.graph = d.original ? p.shown : '';
  const o = p.shown === 'original' ? d.original : null;
  const note = o ? whereNote(originalMarks(d.cfg, d.st), new Map(o.cfg.blocks.map((b) => [b.id, b.name]))) : '';
  // The lead gives way in a small panel (the pressed "original" says as much).
  if (p.where.lastChild?.textContent !== note) p.where.replaceChildren(html('span', { class: 'cfg-where-lead' }, 'Before STRUCT\'s transform: '), note);
  p.where.hidden = !o;
}

/** The heat tool says whether heat shows, or that the run waits to be counted. */
function labelHeat(p: CfgPanel, heat: HeatChoice<BlockHeat> | null): void {
  const b = p.tools.heat;
  if (!b) return;
  const c = heat ?? { on: false, waits: false };
  const words = heatButton(c, HEAT_WHAT);
  b.setAttribute('aria-pressed', String(c.on));
  if (b.textContent !== words.text) b.textContent = words.text;
  b.title = words.title;
}

/** Draws the blocks' heat of what was drawn last, asked for the first time the graph is on
 * screen (the original graph has no heat rows: its instructions are not the ones that ran). */
function renderHeat(p: CfgPanel, redraw: boolean): void {
  const d = p.drawn, shown = shownGraph(p);
  if (!d || !shown || !p.graph) return;
  const blocks = d.heat?.on && shown.layout.heat && ready(p) ? d.heat.cells() : null;
  if (redraw || blocks !== p.heat) drawHeat(p.graph, shown.cfg, shown.layout, blocks);
  p.heat = blocks;
}

/** Draws `cfg` at step `st` (for STRUCT, `original` is the kernel's graph before the
 * transform, which the tools can show in its place). */
export function render(
  p: CfgPanel, cfg: CfgView | null, layout: Layout | null, st: StepMarks | null, breakpoints: number[], original: OriginalGraph | null = null,
  heat: HeatChoice<BlockHeat> | null = null,
): void {
  if (!cfg || !layout) return;
  // A run without a transform (another model) shows its own graph; the choice starts over.
  if (!original) p.shown = 'transformed';
  p.drawn = { cfg, layout, st, breakpoints, original, heat };
  labelHeat(p, heat);
  renderWhich(p, p.drawn);
  const shown = shownGraph(p)!;
  const fresh = p.layout !== shown.layout;
  if (fresh) {
    p.layout = shown.layout;
    p.largest = largestBlock(shown.layout);
    p.cfg = shown.cfg;
    p.graph = drawGraph(shown.cfg, shown.layout, { hints: true, rows: !shown.original });
    p.world.replaceChildren(p.graph, p.overlay);
    fillLegend(p.legend, legendOf(shown.layout));
    drawMinimap(p);
  }
  renderHeat(p, fresh);
  // Breakpoints are the run's instructions: the original graph has none of its own.
  drawStep(p.graph!, p.overlay, shown.cfg, shown.layout, shown.st, shown.original ? [] : breakpoints);
  const at = shown.st;
  const moved = p.current !== (at?.block ?? null) || p.pc !== (at?.pc ?? null);
  p.current = at?.block ?? null;
  p.pc = at?.pc ?? null;
  if (fresh && ready(p)) {
    defaultFollow(p);
    if (p.fitted) return fitView(p);
    show(p, clampPan(p.view, graphSize(p), p.box, insets(p)));
  }
  if (p.follow && (moved || fresh)) followCurrent(p, !fresh);
  else show(p, p.view);
}
