//! Where the CFG view looks, as plain numbers (no DOM), so zoom limits, fitting, following the
//! current block and the minimap's mapping are unit-tested on their own. A view is a pan (x, y,
//! in screen pixels) and a scale k: a graph point p shows at (x + p.x * k, y + p.y * k).

export interface View { x: number; y: number; k: number }
export interface Size { w: number; h: number }
export interface Rect { x: number; y: number; w: number; h: number }
/** Parts of the view covered by the panel's own controls (the zoom tools, the minimap). */
export interface Insets { top: number; right: number; bottom: number; left: number }
export const NO_INSETS: Insets = { top: 0, right: 0, bottom: 0, left: 0 };

/** The smallest text the CFG draws, in graph units (the badges, the frontier row, source lines). */
export const SMALLEST_FONT = 12.5;
/** Text smaller than this on screen is not readable for a student at a normal distance. */
export const READABLE_TEXT_PX = 10;
/** Below this scale some CFG text would be under `READABLE_TEXT_PX`: fitting never goes below. */
export const READABLE_SCALE = READABLE_TEXT_PX / SMALLEST_FONT;
/** A small graph in a big panel is not blown up past this. */
export const MAX_FIT_SCALE = 1.5;
export const MAX_SCALE = 3;
/** Zooming out by hand stops here even for a huge graph: the minimap is the overview. */
export const MIN_SCALE = 0.15;
/** Room kept around a fitted graph and a followed block. */
export const PAD = 12;

/** The scale at which the whole graph fits the box. */
export function wholeScale(graph: Size, box: Size): number {
  if (graph.w <= 0 || graph.h <= 0) return MAX_FIT_SCALE;
  return Math.min((box.w - 2 * PAD) / graph.w, (box.h - 2 * PAD) / graph.h);
}

/** The zoom range: out to the whole graph (however small, but not below `MIN_SCALE`), and
 * never less than the readable scale's range. */
export function zoomLimits(graph: Size, box: Size): { min: number; max: number } {
  return { min: Math.max(MIN_SCALE, Math.min(wholeScale(graph, box), READABLE_SCALE)), max: MAX_SCALE };
}

export function clampZoom(k: number, limits: { min: number; max: number }): number {
  return Math.min(limits.max, Math.max(limits.min, k));
}

/** The pan along one axis, kept so the graph never leaves the view: a graph smaller than the
 * view stays inside it, a larger one keeps covering it (with `PAD` of slack at its ends, and
 * its end clear of what covers the view there). */
function clampAxis(offset: number, graph: number, room: number, before: number, after: number): number {
  const first = PAD + before, last = room - after - PAD - graph;
  return Math.min(Math.max(first, last), Math.max(Math.min(first, last), offset));
}

export function clampPan(v: View, graph: Size, box: Size, inset: Insets = NO_INSETS): View {
  return {
    k: v.k,
    x: clampAxis(v.x, graph.w * v.k, box.w, inset.left, inset.right),
    y: clampAxis(v.y, graph.h * v.k, box.h, inset.top, inset.bottom),
  };
}

/**
 * The fitted view: the whole graph when it fits at a readable scale (`whole`; `readable`, or a
 * lecture's larger one), else the readable scale showing the graph's top, centred across if it
 * fits across (the caller then follows the current block, and the minimap shows the rest).
 */
export function fitView(graph: Size, box: Size, readable = READABLE_SCALE): { view: View; whole: boolean } {
  const whole = wholeScale(graph, box);
  const k = Math.max(readable, Math.min(MAX_FIT_SCALE, whole));
  const axis = (g: number, room: number) => (g * k <= room - 2 * PAD ? (room - g * k) / 2 : PAD);
  return { view: { k, x: axis(graph.w, box.w), y: axis(graph.h, box.h) }, whole: whole >= readable };
}

/** The readable scale where text must be at least `px` (a layout's type floor, if above
 * `READABLE_TEXT_PX`). */
export function readableScale(px: number): number {
  return Math.max(READABLE_TEXT_PX, px) / SMALLEST_FONT;
}

/** Zooms by `factor` keeping the graph point under `at` (screen pixels) in place. */
export function zoomAt(v: View, factor: number, at: { x: number; y: number }, graph: Size, box: Size, inset: Insets = NO_INSETS): View {
  const k = clampZoom(v.k * factor, zoomLimits(graph, box));
  return clampPan({ k, x: at.x - ((at.x - v.x) * k) / v.k, y: at.y - ((at.y - v.y) * k) / v.k }, graph, box, inset);
}

/** Whether the graph overflows the view at its scale: then the minimap shows. */
export function overflows(v: View, graph: Size, box: Size): boolean {
  return graph.w * v.k > box.w + 1 || graph.h * v.k > box.h + 1;
}

/**
 * The view that brings `target` (graph units) into sight with `PAD` of room and clear of
 * `inset`, or null when it is in sight already (so following does not move the graph at every
 * step). Along an axis where it fits, the target is centred; where it does not, its start shows.
 */
export function followTarget(v: View, graph: Size, box: Size, target: Rect, inset: Insets = NO_INSETS): View | null {
  const axis = (offset: number, at: number, size: number, room: number, before: number, after: number): number | null => {
    const lo = before + PAD, hi = room - after - PAD;
    const start = offset + at * v.k, end = start + size * v.k;
    if (start >= lo && end <= hi) return null;
    return size * v.k <= hi - lo ? (lo + hi) / 2 - (at + size / 2) * v.k : lo - at * v.k;
  };
  const x = axis(v.x, target.x, target.w, box.w, inset.left, inset.right);
  const y = axis(v.y, target.y, target.h, box.h, inset.top, inset.bottom);
  if (x === null && y === null) return null;
  const next = clampPan({ k: v.k, x: x ?? v.x, y: y ?? v.y }, graph, box, inset);
  return next.x === v.x && next.y === v.y ? null : next;
}

/** Room around the current block that the minimap leaves clear: its edges in and out run there. */
export const MINIMAP_CLEARANCE = 32;

/** Whether the minimap, at `map` (screen pixels), would cover the current block `block` (graph
 * units) or the edges just around it in view `v`: then it yields (fades until pointed at). */
export function minimapCovers(v: View, block: Rect, map: Rect, clearance = MINIMAP_CLEARANCE): boolean {
  const left = v.x + block.x * v.k - clearance, top = v.y + block.y * v.k - clearance;
  const right = v.x + (block.x + block.w) * v.k + clearance, bottom = v.y + (block.y + block.h) * v.k + clearance;
  return left < map.x + map.w && right > map.x && top < map.y + map.h && bottom > map.y;
}

/** The part of the graph the view shows, in graph units (the minimap's rectangle). */
export function visibleRect(v: View, box: Size): Rect {
  return { x: -v.x / v.k, y: -v.y / v.k, w: box.w / v.k, h: box.h / v.k };
}

/** The view with graph point `p` at the middle of the box (a click on the minimap). */
export function centredOn(v: View, p: { x: number; y: number }, graph: Size, box: Size, inset: Insets = NO_INSETS): View {
  return clampPan({ k: v.k, x: box.w / 2 - p.x * v.k, y: box.h / 2 - p.y * v.k }, graph, box, inset);
}

/** The minimap's size: the whole graph inside `max` pixels, and at least `min` across its thin
 * side (a tall graph's map is stretched sideways rather than drawn as a hairline). */
export function minimapSize(graph: Size, max: Size, min = MINIMAP_MIN_PX): Size {
  if (graph.w <= 0 || graph.h <= 0) return { w: min, h: min };
  const s = Math.min(max.w / graph.w, max.h / graph.h);
  return { w: Math.max(Math.min(min, max.w), graph.w * s), h: Math.max(Math.min(min, max.h), graph.h * s) };
}

/** Eases a pan from `from` to `to`; `t` runs from 0 to 1. */
export function between(from: View, to: View, t: number): View {
  const e = 1 - (1 - Math.min(1, Math.max(0, t))) ** 3;
  return { k: from.k + (to.k - from.k) * e, x: from.x + (to.x - from.x) * e, y: from.y + (to.y - from.y) * e };
}

/**
 * What following keeps in sight: the block with `lead` units of room above it (for the waiting
 * lanes' badge), or, when that is taller than the view, the current instruction's row with two
 * rows of context on each side.
 */
export function followRect(v: View, box: Size, block: Rect, row: Rect | null, lead: number, inset: Insets = NO_INSETS): Rect {
  // The room between what covers the view (the tools, the minimap): a small panel (a slide's
  // embed) shows the whole block there without the badge's room rather than cut it.
  const room = box.h - inset.top - inset.bottom - 2 * PAD;
  const whole = { x: block.x, y: block.y - lead, w: block.w, h: block.h + lead };
  if (whole.h * v.k <= room) return whole;
  if (block.h * v.k <= room) return block;
  return row ? { x: block.x, y: row.y - 2 * row.h, w: block.w, h: 5 * row.h } : whole;
}

/** Room kept between the minimap and the graph it leaves clear. */
export const MINIMAP_GAP = 8;
/** A minimap thinner than this could not be read or clicked. */
export const MINIMAP_MIN_PX = 40;

/**
 * The box the minimap of `graph` is drawn in (in the bottom right corner of `box`, along its
 * thinner side as `Insets` has it): a quarter of the view's width (at most 130 px) by 45 % of its
 * height (at most 200), narrowed (or lowered) so that `block` (pixels: the graph's widest block,
 * at most the rows following shows of its tallest) keeps room beside it under `top` pixels of
 * tools. Null where that leaves less than `MINIMAP_MIN_PX` (a small panel, a slide's embed): it
 * would sit over the followed block's text, so there is none.
 */
export function minimapBounds(graph: Size, box: Size, block: Size, top: number): Size | null {
  const max = { w: Math.min(130, box.w * 0.25), h: Math.min(200, box.h * 0.45) };
  const side = minimapSize(graph, max);
  const room = side.w <= side.h
    ? { w: Math.min(max.w, box.w - block.w - MINIMAP_GAP - 2 * PAD), h: max.h }
    : { w: max.w, h: Math.min(max.h, box.h - top - block.h - MINIMAP_GAP - 2 * PAD) };
  return room.w >= MINIMAP_MIN_PX && room.h >= MINIMAP_MIN_PX ? room : null;
}

/** Whether the minimap (`map` pixels, placed as `minimapBounds` places it) still leaves `block`
 * room beside it: zoomed in past the fitted scale, blocks grow and it gives way. */
export function minimapLeavesRoom(box: Size, map: Size, block: Size, top: number): boolean {
  return map.w <= map.h
    ? block.w + map.w + MINIMAP_GAP + 2 * PAD <= box.w
    : block.h + top + map.h + MINIMAP_GAP + 2 * PAD <= box.h;
}
