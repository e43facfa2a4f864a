//! The CFG's minimap: the whole graph small (blocks and edges, the current block filled) with the
//! part the view shows outlined. A click or drag on it moves the view there. It shows only while
//! the graph overflows its view and it leaves room for the graph's blocks (not in a small panel),
//! and fades while it would cover the current block. A tall
//! graph's map is stretched sideways to stay clickable.

import type { Layout } from '../cfg-layout';
import { minimapSize, type Rect, type Size } from '../cfg-view';
import { svg } from '../svg';

export interface Minimap {
  el: SVGSVGElement;
  graph: SVGGElement;
  frame: SVGRectElement;
  /** Pixels per graph unit, across and down. */
  scale: { x: number; y: number };
  /** Its size on screen. */
  size: Size;
  layout: Layout | null;
}

/** `moveTo` gets the graph point under the pointer. */
export function create(host: HTMLElement, moveTo: (p: { x: number; y: number }) => void): Minimap {
  const el = svg('svg', { class: 'cfg-minimap', 'data-testid': 'cfg-minimap', role: 'img', 'aria-label': 'the whole graph; click or drag to move the view' });
  const graph = svg('g');
  const frame = svg('rect', { class: 'minimap-frame', 'data-testid': 'cfg-minimap-view' });
  el.append(graph, frame);
  el.style.display = 'none';
  host.append(el);
  const m: Minimap = { el, graph, frame, scale: { x: 1, y: 1 }, size: { w: 0, h: 0 }, layout: null };
  let dragging = false;
  const at = (e: PointerEvent) => {
    const r = el.getBoundingClientRect();
    moveTo({ x: (e.clientX - r.left) / m.scale.x, y: (e.clientY - r.top) / m.scale.y });
  };
  el.addEventListener('pointerdown', (e) => {
    dragging = true;
    el.setPointerCapture(e.pointerId);
    at(e);
  });
  el.addEventListener('pointermove', (e) => { if (dragging) at(e); });
  const end = () => { dragging = false; };
  el.addEventListener('pointerup', end);
  el.addEventListener('pointercancel', end);
  return m;
}

/** Draws `layout` small, at most `max` pixels. */
export function draw(m: Minimap, layout: Layout, max: Size): void {
  m.layout = layout;
  const size = minimapSize({ w: layout.width, h: layout.height }, max);
  m.size = { w: Math.round(size.w), h: Math.round(size.h) };
  m.scale = { x: m.size.w / layout.width, y: m.size.h / layout.height };
  m.el.setAttribute('viewBox', `0 0 ${layout.width} ${layout.height}`);
  m.el.setAttribute('preserveAspectRatio', 'none');
  m.el.setAttribute('width', String(m.size.w));
  m.el.setAttribute('height', String(m.size.h));
  const g = svg('g');
  for (const e of layout.edges) {
    if (e.points.length > 1) g.append(svg('polyline', { class: 'minimap-edge', points: e.points.map((p) => `${p.x},${p.y}`).join(' ') }));
  }
  for (const n of layout.nodes) g.append(svg('rect', { class: 'minimap-block', 'data-block': n.id, x: n.x, y: n.y, width: n.width, height: n.height }));
  m.graph.replaceChildren(g);
}

/** Shows the view's rectangle (graph units) and the current block; hidden when `visible` is null.
 * `yields` when it would cover the current block or its edges: it fades until pointed at, so a
 * projected graph is never hidden behind it. */
export function update(m: Minimap, visible: Rect | null, current: number | null, yields: boolean): void {
  m.el.style.display = visible ? '' : 'none';
  if (!visible) return;
  m.el.classList.toggle('yields', yields);
  m.frame.setAttribute('x', String(visible.x));
  m.frame.setAttribute('y', String(visible.y));
  m.frame.setAttribute('width', String(visible.w));
  m.frame.setAttribute('height', String(visible.h));
  for (const el of m.graph.querySelectorAll('.minimap-block.current')) el.classList.remove('current');
  if (current !== null) m.graph.querySelector(`.minimap-block[data-block="${current}"]`)?.classList.add('current');
}
