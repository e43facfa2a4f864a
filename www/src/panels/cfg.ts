//! CFG view (SVG): blocks with their instructions, taken / fall-through / sync / back edges drawn
//! distinctly, each divergent branch's reconvergence point, the current block and instruction,
//! which lanes wait at which block, and for a C kernel the source lines each block comes from.
//! For the thread-frontier models, each block's priority and thread frontier instead of the
//! reconvergence arrows, and the current block's frontier outlined while stepping. Pan by
//! dragging, zoom with the wheel, "fit" to reset; a click (not a drag) on an instruction toggles
//! its breakpoint.

import { blockLines, blockRows, DEFAULT_METRICS, linesLabelX, priorityLabel, type Layout } from '../cfg-layout';
import { html, laneRanges, svg } from '../svg';
import type { CfgView, StateView } from '../generated/engine';

export interface CfgPanel {
  root: HTMLElement;
  svg: SVGSVGElement;
  legend: HTMLElement;
  world: SVGGElement;
  overlay: SVGGElement;
  layout: Layout | null;
  view: { x: number; y: number; k: number };
  /** The user panned or zoomed: keep their view across reloads and resizes. */
  moved: boolean;
  /** A graph too big to read whole is shown at a readable scale, panned to the current block
   * (the compare view's sides; their button switches to the whole graph and back). */
  follow: boolean;
  fitButton: HTMLButtonElement;
  /** The SVG's size as of its last resize (read without forcing a layout). */
  box: { w: number; h: number };
  /** The block of the current pc, as last rendered. */
  current: number | null;
  /** A click on an instruction (its index). */
  onToggleBreakpoint: (instr: number) => void;
}

export interface CfgOptions {
  /** Follow the current block instead of shrinking a tall graph to unreadable (compare view). */
  follow?: boolean;
}

export function create(root: HTMLElement, onToggleBreakpoint: (instr: number) => void, opts: CfgOptions = {}): CfgPanel {
  const s = svg('svg', { class: 'cfg-svg', 'data-testid': 'cfg-svg', role: 'img', 'aria-label': 'control-flow graph' });
  const defs = svg('defs');
  for (const kind of ['taken', 'fallthrough', 'sync', 'back', 'reconv']) {
    const m = svg('marker', { id: `arrow-${kind}`, viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' });
    m.append(svg('path', { d: 'M0,0 L10,5 L0,10 z', class: `arrowhead ${kind}` }));
    defs.append(m);
  }
  const world = svg('g');
  const overlay = svg('g');
  world.append(overlay);
  s.append(defs, world);
  const fit = html('button', { class: 'fit-btn', type: 'button', 'data-testid': 'cfg-fit' });
  const legend = html('div', { class: 'legend cfg-legend' });
  fillLegend(legend, false);
  root.replaceChildren(s, fit, legend);
  const panel: CfgPanel = {
    root, svg: s, legend, world, overlay, layout: null, view: { x: 0, y: 0, k: 1 }, moved: false, onToggleBreakpoint,
    follow: opts.follow ?? false, fitButton: fit, box: { w: 0, h: 0 }, current: null,
  };
  const following = opts.follow ?? false;
  fit.addEventListener('click', () => {
    if (following) panel.follow = !panel.follow;
    labelFit(panel, following);
    fitView(panel);
  });
  labelFit(panel, following);
  enablePanZoom(panel);
  new ResizeObserver(() => {
    panel.box = { w: s.clientWidth, h: s.clientHeight };
    if (!panel.moved) fitView(panel);
  }).observe(s);
  return panel;
}

function fillLegend(legend: HTMLElement, frontiers: boolean): void {
  const last: [string, string] = frontiers ? ['frontier', 'thread frontier of the current block'] : ['reconv', 'reconverges here'];
  legend.replaceChildren();
  for (const [cls, label] of [['taken', 'taken'], ['fallthrough', 'fall-through'], ['sync', 'pop to sync point'], ['back', 'back edge'], last]) {
    const item = html('span', { class: 'legend-item' });
    const sw = svg('svg', { width: 34, height: 12, 'aria-hidden': 'true' });
    sw.append(cls === 'frontier'
      ? svg('rect', { x: 2, y: 1, width: 30, height: 10, rx: 3, class: 'frontier-swatch' })
      : svg('line', { x1: 1, y1: 6, x2: 33, y2: 6, class: `edge ${cls}` }));
    item.append(sw, document.createTextNode(label));
    legend.append(item);
  }
}

function apply(p: CfgPanel): void {
  p.world.setAttribute('transform', `translate(${p.view.x},${p.view.y}) scale(${p.view.k})`);
}

function labelFit(p: CfgPanel, canFollow: boolean): void {
  const [text, title] = !canFollow ? ['fit', 'fit the graph to the view']
    : p.follow ? ['whole graph', 'show the whole graph, however small'] : ['follow', 'a readable scale that follows the current block'];
  p.fitButton.textContent = text;
  p.fitButton.title = title;
}

/** Below this scale block text is too small to read (13px type at 0.6 is about 8px). */
const READABLE = 0.62;

export function fitView(p: CfgPanel): void {
  const l = p.layout;
  const r = p.svg.getBoundingClientRect();
  if (!l || l.width === 0 || l.height === 0 || r.width === 0 || r.height === 0) return;
  let k = Math.min(r.width / l.width, r.height / l.height, 1.6);
  // Following: a readable scale, and the current block kept in view.
  if (p.follow && k < READABLE) k = READABLE;
  p.moved = false;
  p.view = { k, x: Math.max(0, (r.width - l.width * k) / 2), y: Math.max(0, (r.height - l.height * k) / 2) };
  apply(p);
  if (p.follow) followBlock(p, p.current);
}

/**
 * The pan offset along one axis that brings [at, at + size) (graph units, with `lead` units of
 * room before it) into a view of `room` pixels, or null when the graph fits or the span shows.
 */
function panToShow(offset: number, k: number, at: number, size: number, lead: number, total: number, room: number): number | null {
  if (total * k <= room) return null;
  const start = offset + (at - lead) * k, end = offset + (at + size) * k;
  if (start >= 0 && end <= room) return null;
  return Math.min(0, Math.max(room - total * k, room / 2 - (at + size / 2) * k));
}

/** Pans so block `id` (and the badge above it) is in view, along each axis the graph overflows. */
function followBlock(p: CfgPanel, id: number | null): void {
  const l = p.layout, n = l?.nodes.find((q) => q.id === id);
  const { w, h } = p.box, k = p.view.k;
  if (!l || !n || w === 0 || h === 0) return;
  const x = panToShow(p.view.x, k, n.x, n.width, 8, l.width, w);
  const y = panToShow(p.view.y, k, n.y, n.height, 28, l.height, h);
  if (x === null && y === null) return;
  if (x !== null) p.view.x = x;
  if (y !== null) p.view.y = y;
  apply(p);
}

function enablePanZoom(p: CfgPanel): void {
  let drag: { x: number; y: number } | null = null;
  let down: { x: number; y: number; instr: string | undefined } | null = null;
  p.svg.addEventListener('pointerdown', (e) => {
    drag = { x: e.clientX - p.view.x, y: e.clientY - p.view.y };
    down = { x: e.clientX, y: e.clientY, instr: (e.target as SVGElement).closest<SVGElement>('[data-instr]')?.dataset.instr };
    p.svg.setPointerCapture(e.pointerId);
    p.svg.classList.add('dragging');
  });
  p.svg.addEventListener('pointermove', (e) => {
    if (!drag) return;
    p.view.x = e.clientX - drag.x;
    p.view.y = e.clientY - drag.y;
    p.moved = true;
    apply(p);
  });
  const end = () => { drag = null; p.svg.classList.remove('dragging'); };
  p.svg.addEventListener('pointerup', (e) => {
    // A click is a press and release in (nearly) the same place; anything longer was a pan.
    if (down?.instr !== undefined && Math.hypot(e.clientX - down.x, e.clientY - down.y) < 4) p.onToggleBreakpoint(Number(down.instr));
    down = null;
    end();
  });
  p.svg.addEventListener('pointercancel', end);
  p.svg.addEventListener('wheel', (e) => {
    e.preventDefault();
    const r = p.svg.getBoundingClientRect();
    const mx = e.clientX - r.left, my = e.clientY - r.top;
    const k = Math.min(4, Math.max(0.2, p.view.k * Math.exp(-e.deltaY * 0.0015)));
    p.view.x = mx - ((mx - p.view.x) * k) / p.view.k;
    p.view.y = my - ((my - p.view.y) * k) / p.view.k;
    p.view.k = k;
    p.moved = true;
    apply(p);
  }, { passive: false });
}

const pathOf = (pts: { x: number; y: number }[]) => pts.map((q, i) => `${i ? 'L' : 'M'}${q.x.toFixed(1)},${q.y.toFixed(1)}`).join(' ');

function build(p: CfgPanel, cfg: CfgView, layout: Layout): void {
  const m = DEFAULT_METRICS;
  const g = svg('g');
  for (const e of layout.edges) {
    const cls = e.back ? 'back' : e.kind;
    g.append(svg('path', { d: pathOf(e.points), class: `edge ${cls}`, 'marker-end': `url(#arrow-${cls})`, 'data-edge': `${e.from}-${e.to}` }));
  }
  for (const r of layout.reconv) {
    g.append(svg('path', { d: pathOf(r.points), class: 'edge reconv', 'marker-end': 'url(#arrow-reconv)', 'data-testid': `reconv-${r.from}-${r.to}` }));
  }
  const targets = new Set(layout.reconv.map((r) => r.to));
  for (const b of cfg.blocks) {
    const n = layout.nodes.find((q) => q.id === b.id)!;
    const box = svg('g', { class: `block${b.reachable ? '' : ' unreachable'}`, 'data-block': b.id, 'data-testid': `block-${b.id}`, transform: `translate(${n.x},${n.y})` });
    box.append(svg('rect', { class: 'block-rect', width: n.width, height: n.height, rx: 6 }));
    box.append(svg('text', { class: 'block-name', x: m.padding, y: 18 }, b.name));
    if (n.lines) box.append(svg('text', { class: 'block-lines', x: linesLabelX(b, m), y: 18, 'data-testid': `block-lines-${b.id}` }, n.lines));
    if (n.frontier !== null) {
      box.append(svg('text', { class: 'block-priority', x: n.width - m.padding, y: 18, 'text-anchor': 'end' }, priorityLabel(b)));
      const y = m.headerHeight + blockRows(b, layout.compact).length * m.lineHeight;
      box.append(svg('rect', { class: 'frontier-row', x: 2, y: y - 2, width: n.width - 4, height: m.lineHeight }));
      box.append(svg('text', { class: 'block-frontier', x: m.padding, y: y + 13, 'data-testid': `frontier-${b.id}` }, n.frontier));
    }
    if (targets.has(b.id)) {
      const tag = svg('g', { class: 'reconv-badge', transform: `translate(${n.width - 134},5)` });
      tag.append(svg('rect', { width: 128, height: 18, rx: 9 }), svg('text', { x: 64, y: 13, 'text-anchor': 'middle' }, 'reconverges here'));
      box.append(tag);
    }
    // A compact block lists its instructions on hover only.
    if (layout.compact) box.append(svg('title', {}, blockLines(b).join('\n')));
    blockRows(b, layout.compact).forEach((line, i) => {
      const y = m.headerHeight + i * m.lineHeight;
      const row = svg('g', { class: 'instr-row', 'data-instr': b.instrs[i].index });
      row.append(svg('title', {}, 'click: set or clear a breakpoint'));
      row.append(svg('rect', { class: 'instr-bg', x: 2, y: y - 2, width: n.width - 4, height: m.lineHeight, 'data-instr': b.instrs[i].index }));
      row.append(svg('text', { class: 'instr', x: m.padding, y: y + 13 }, line));
      box.append(row);
    });
    g.append(box);
  }
  p.world.replaceChildren(g, p.overlay);
  fillLegend(p.legend, layout.frontiers);
}

export function render(p: CfgPanel, cfg: CfgView | null, layout: Layout | null, st: StateView | null, breakpoints: number[]): void {
  if (!cfg || !layout) return;
  if (p.layout !== layout) {
    p.layout = layout;
    build(p, cfg, layout);
    if (!p.moved) fitView(p);
  }
  for (const el of p.world.querySelectorAll('.block.current, .instr-bg.current')) el.classList.remove('current');
  for (const el of p.world.querySelectorAll('.block.in-frontier')) el.classList.remove('in-frontier');
  if (st?.block != null) p.world.querySelector(`.block[data-block="${st.block}"]`)?.classList.add('current');
  p.current = st?.block ?? null;
  if (p.follow && !p.moved) followBlock(p, p.current);
  // The blocks where lanes may wait while the current one runs: its thread frontier.
  if (layout.frontiers && st?.block != null) {
    for (const id of cfg.blocks.find((b) => b.id === st.block)?.frontier ?? []) {
      p.world.querySelector(`.block[data-block="${id}"]`)?.classList.add('in-frontier');
    }
  }
  if (st?.pc != null) p.world.querySelector(`.instr-bg[data-instr="${st.pc}"]`)?.classList.add('current');
  p.overlay.replaceChildren();
  // Breakpoints: a dot left of the instruction's row.
  for (const instr of breakpoints) {
    const b = cfg.blocks.find((q) => q.instrs.some((i) => i.index === instr));
    const n = b && layout.nodes.find((q) => q.id === b.id);
    if (!b || !n) continue;
    const row = b.instrs.findIndex((i) => i.index === instr);
    const y = n.y + DEFAULT_METRICS.headerHeight + row * DEFAULT_METRICS.lineHeight + DEFAULT_METRICS.lineHeight / 2 - 2;
    p.overlay.append(svg('circle', { class: 'cfg-bp', cx: n.x - 8, cy: y, r: 5, 'data-testid': `cfg-bp-${instr}` }));
  }
  // Waiting lanes: a badge just above the block where they will resume (the rank gap is free).
  for (const w of st?.waiting ?? []) {
    const n = layout.nodes.find((q) => q.id === w.block);
    if (!n) continue;
    const text = w.lanes.length === 1 ? `lane ${w.lanes[0]} waits` : `lanes ${laneRanges(w.lanes)} wait`;
    const width = Math.max(90, text.length * 7.6 + 16);
    const badge = svg('g', { class: 'wait-badge', 'data-testid': `wait-${w.block}`, transform: `translate(${n.x},${n.y - 25})` });
    badge.append(svg('rect', { width, height: 22, rx: 11 }), svg('text', { x: width / 2, y: 15, 'text-anchor': 'middle' }, text));
    p.overlay.append(badge);
  }
}
