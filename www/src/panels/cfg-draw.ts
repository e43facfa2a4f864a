//! Drawing the CFG as SVG elements with classes (the page's CSS colours them): the graph itself,
//! once per layout, and what changes per step (the current block and instruction, the thread
//! frontier, breakpoints, waiting lanes). Under STRUCT a copied block is drawn dashed with a
//! "copy of BB3" tag, and cut code tinted with a "cut" tag. With heat, each block's last row is
//! the counters' heat: a bar as long as its warp instructions against the hottest block's, their
//! number, and every count in its tooltip. The panel (`cfg.ts`) and the SVG export
//! (`cfg-export.ts`) draw with the same code.

import { blockLines, blockRows, DEFAULT_METRICS, heatRowY, linesLabelX, priorityLabel, tagWidth, tagX, type Layout } from '../cfg-layout';
import type { StepMarks } from '../cfg-struct';
import type { BlockHeat } from '../heat';
import { laneRanges, svg } from '../svg';
import type { CfgView } from '../generated/engine';

export const EDGE_KINDS = ['taken', 'fallthrough', 'sync', 'back', 'reconv'] as const;

/** The arrowheads, one marker per edge kind. */
export function markerDefs(): SVGDefsElement {
  const defs = svg('defs');
  for (const kind of EDGE_KINDS) {
    const m = svg('marker', { id: `arrow-${kind}`, viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' });
    m.append(svg('path', { d: 'M0,0 L10,5 L0,10 z', class: `arrowhead ${kind}` }));
    defs.append(m);
  }
  return defs;
}

const pathOf = (pts: { x: number; y: number }[]) => pts.map((q, i) => `${i ? 'L' : 'M'}${q.x.toFixed(1)},${q.y.toFixed(1)}`).join(' ');

export interface DrawOptions {
  /** Hover hints for the screen (a click sets a breakpoint); none in an exported file. */
  hints: boolean;
  /** Instruction rows are the run's own (a click sets a breakpoint on one); false for STRUCT's
   * original graph, whose instructions are not the ones that run. */
  rows?: boolean;
}

/** The blocks and edges of `layout`, in graph units. */
export function drawGraph(cfg: CfgView, layout: Layout, opts: DrawOptions): SVGGElement {
  const m = DEFAULT_METRICS;
  const g = svg('g', { class: 'cfg-graph' });
  for (const e of layout.edges) {
    const cls = e.back ? 'back' : e.kind;
    g.append(svg('path', { d: pathOf(e.points), class: `edge ${cls}`, 'marker-end': `url(#arrow-${cls})`, 'data-edge': `${e.from}-${e.to}` }));
  }
  for (const r of layout.reconv) {
    g.append(svg('path', { d: pathOf(r.points), class: 'edge reconv', 'marker-end': 'url(#arrow-reconv)', 'data-testid': `reconv-${r.from}-${r.to}` }));
  }
  const targets = new Set(layout.reconv.map((r) => r.to));
  const nodes = new Map(layout.nodes.map((n) => [n.id, n]));
  for (const b of cfg.blocks) {
    const n = nodes.get(b.id);
    if (!n) continue;
    const kind = n.tag ? ` ${n.tag.kind}` : '';
    const box = svg('g', {
      class: `block${b.reachable ? '' : ' unreachable'}${kind}`, 'data-block': b.id, 'data-testid': `block-${b.id}`, 'data-name': b.name,
      transform: `translate(${n.x},${n.y})`,
    });
    box.append(svg('rect', { class: 'block-rect', width: n.width, height: n.height, rx: 6 }));
    box.append(svg('text', { class: 'block-name', x: m.padding, y: 18 }, b.name));
    if (n.tag) {
      const tag = svg('g', { class: `block-tag ${n.tag.kind}-tag`, 'data-testid': `block-tag-${b.id}`, transform: `translate(${tagX(b, m)},5)` });
      tag.append(svg('rect', { width: tagWidth(n.tag), height: 18, rx: 4 }), svg('text', { x: tagWidth(n.tag) / 2, y: 13.5, 'text-anchor': 'middle' }, n.tag.text));
      if (opts.hints) tag.append(svg('title', {}, n.tag.hint));
      box.append(tag);
    }
    if (n.lines) box.append(svg('text', { class: 'block-lines', x: linesLabelX(b, m, n.tag), y: 18, 'data-testid': `block-lines-${b.id}` }, n.lines));
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
    if (layout.compact && opts.hints) box.append(svg('title', {}, blockLines(b).join('\n')));
    const own = opts.rows ?? true;
    blockRows(b, layout.compact).forEach((line, i) => {
      const y = m.headerHeight + i * m.lineHeight;
      // Rows of a graph that does not run (STRUCT's original) carry no instruction index to click.
      const instr: Record<string, number> = own ? { 'data-instr': b.instrs[i].index } : {};
      const row = svg('g', { class: own ? 'instr-row' : 'instr-row still', ...instr });
      if (opts.hints && own) row.append(svg('title', {}, 'click: set or clear a breakpoint'));
      row.append(svg('rect', { class: 'instr-bg', x: 2, y: y - 2, width: n.width - 4, height: m.lineHeight, ...instr }));
      row.append(svg('text', { class: 'instr', x: m.padding, y: y + 13 }, line));
      box.append(row);
    });
    g.append(box);
  }
  return g;
}

/** Room the number takes at the right of a heat row: five characters and a gap. */
const HEAT_NUMBER_ROOM = 5 * DEFAULT_METRICS.charWidth + 8;

/** Draws each block's heat into the heat rows of `graph` (drawn by `drawGraph` with a layout
 * that has them), replacing what was there; with `heat` null the rows stay empty. */
export function drawHeat(graph: SVGGElement, cfg: CfgView, layout: Layout, heat: readonly BlockHeat[] | null): void {
  for (const el of graph.querySelectorAll('.block-heat, .block > title.heat-title')) el.remove();
  if (!layout.heat || !heat) return;
  const m = DEFAULT_METRICS;
  const nodes = new Map(layout.nodes.map((n) => [n.id, n]));
  const blocks = new Map(cfg.blocks.map((b) => [b.id, b]));
  for (const h of heat) {
    const n = nodes.get(h.block), b = blocks.get(h.block);
    const box = graph.querySelector(`.block[data-block="${h.block}"]`);
    if (!n || !b || !box) continue;
    // The tooltip of the whole block but its instruction rows (which say what a click does).
    box.prepend(svg('title', { class: 'heat-title' }, h.title));
    const row = svg('g', { class: `block-heat${h.level === 0 ? ' cold' : ''}`, 'data-testid': `block-heat-${h.block}`, transform: `translate(0,${heatRowY(b, n, layout.compact)})` });
    const track = Math.max(0, n.width - 2 * m.padding - HEAT_NUMBER_ROOM);
    row.append(
      svg('rect', { class: 'heat-track', x: m.padding, y: 3, width: track, height: m.lineHeight - 8, rx: 3 }),
      svg('rect', { class: 'heat-fill', x: m.padding, y: 3, width: track * h.level, height: m.lineHeight - 8, rx: 3 }),
      svg('text', { class: 'heat-count', x: n.width - m.padding, y: 13, 'text-anchor': 'end', 'data-testid': `block-heat-count-${h.block}` }, h.label),
    );
    box.append(row);
  }
}

/** Marks the step's current block and instruction and the current block's thread frontier in
 * `graph` (drawn by `drawGraph`), and draws breakpoints and waiting lanes into `overlay`. */
export function drawStep(graph: SVGGElement, overlay: SVGGElement, cfg: CfgView, layout: Layout, st: StepMarks | null, breakpoints: number[]): void {
  for (const el of graph.querySelectorAll('.block.current, .instr-bg.current, .block.in-frontier')) el.classList.remove('current', 'in-frontier');
  if (st?.block != null) graph.querySelector(`.block[data-block="${st.block}"]`)?.classList.add('current');
  // The blocks where lanes may wait while the current one runs: its thread frontier.
  if (layout.frontiers && st?.block != null) {
    for (const id of cfg.blocks.find((b) => b.id === st.block)?.frontier ?? []) {
      graph.querySelector(`.block[data-block="${id}"]`)?.classList.add('in-frontier');
    }
  }
  if (st?.pc != null) graph.querySelector(`.instr-bg[data-instr="${st.pc}"]`)?.classList.add('current');
  overlay.replaceChildren();
  const m = DEFAULT_METRICS;
  // Breakpoints: a dot left of the instruction's row.
  for (const instr of breakpoints) {
    const b = cfg.blocks.find((q) => q.instrs.some((i) => i.index === instr));
    const n = b && layout.nodes.find((q) => q.id === b.id);
    if (!b || !n) continue;
    const row = b.instrs.findIndex((i) => i.index === instr);
    const y = n.y + m.headerHeight + row * m.lineHeight + m.lineHeight / 2 - 2;
    overlay.append(svg('circle', { class: 'cfg-bp', cx: n.x - 8, cy: y, r: 5, 'data-testid': `cfg-bp-${instr}` }));
  }
  // Waiting lanes: a badge just above the block where they will resume (the rank gap is free).
  for (const w of st?.waiting ?? []) {
    const n = layout.nodes.find((q) => q.id === w.block);
    if (!n) continue;
    const text = w.lanes.length === 1 ? `lane ${w.lanes[0]} waits` : `lanes ${laneRanges(w.lanes)} wait`;
    const width = Math.max(90, text.length * 7.6 + 16);
    const badge = svg('g', { class: 'wait-badge', 'data-testid': `wait-${w.block}`, transform: `translate(${n.x},${n.y - 25})` });
    badge.append(svg('rect', { width, height: 22, rx: 11 }), svg('text', { x: width / 2, y: 15, 'text-anchor': 'middle' }, text));
    overlay.append(badge);
  }
}
