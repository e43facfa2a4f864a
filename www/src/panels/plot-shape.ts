//! The stack-history plot's shapes as plain data, shared by the panel (`plot.ts`) and the figure
//! export (`plot-figure.ts`): the depth as a step path, the axes' ticks and labels, and which
//! steps get a spill or fill mark.

import { EventBit, type DepthSeries } from '../engine';

export type Scale = (v: number) => number;

/** The depth axis's top: the deepest the run went, and room above the capacity line. */
export function maxDepthOf(depth: DepthSeries, capacity: number | null): number {
  let max = capacity === null ? 1 : capacity + 1;
  for (const v of depth) max = Math.max(max, v);
  return max;
}

/** `depth` (the depth after each step; 0 before the first) as a step path. A run longer than
 * twice `columns` is reduced to its min and max per column, so the path stays small. */
export function depthPath(depth: DepthSeries, x: Scale, y: Scale, columns: number): string {
  const n = depth.length;
  const at = (k: number) => (k === 0 ? 0 : depth[k - 1]);
  let d = `M${x(0)},${y(0)}`;
  if (n <= columns * 2) {
    for (let k = 1; k <= n; k++) d += `H${x(k).toFixed(1)}V${y(at(k)).toFixed(1)}`;
    return d;
  }
  const per = n / columns;
  for (let c = 0; c < columns; c++) {
    const a = Math.floor(c * per) + 1, b = Math.min(n, Math.floor((c + 1) * per));
    let lo = Infinity, hi = -Infinity;
    for (let k = a; k <= b; k++) { lo = Math.min(lo, depth[k - 1]); hi = Math.max(hi, depth[k - 1]); }
    d += `H${x(b).toFixed(1)}V${y(hi).toFixed(1)}V${y(lo).toFixed(1)}V${y(at(b)).toFixed(1)}`;
  }
  return d;
}

/** `maxDepth` rounded up to a whole tick step, so a figure's depth axis ends on a labelled tick. */
export function roundedDepth(maxDepth: number): number {
  const step = Math.max(1, Math.ceil(maxDepth / 6));
  return Math.ceil(maxDepth / step) * step;
}

/** About six whole-number ticks from 0 to `maxDepth`. */
export function depthTicks(maxDepth: number): number[] {
  const step = Math.max(1, Math.ceil(maxDepth / 6));
  const out: number[] = [];
  for (let v = 0; v <= maxDepth; v += step) out.push(v);
  return out;
}

/** Ticks over `n` steps at a power of ten, doubled where that would make more than eight. */
export function stepTicks(n: number): number[] {
  const p = Math.max(1, Math.pow(10, Math.floor(Math.log10(Math.max(1, n / 4)))));
  const step = p * (n / p > 8 ? 2 : 1);
  const out: number[] = [];
  for (let k = 0; k <= n; k += step) out.push(k);
  return out;
}

/** A tick label kept short on long runs: 1.2M, 450k. */
export function compact(v: number): string {
  if (v >= 1e6) return `${+(v / 1e6).toFixed(2)}M`;
  if (v >= 1e4) return `${+(v / 1e3).toFixed(1)}k`;
  return String(v);
}

export interface StackMark { step: number; spill: boolean }

/** The steps that spill (a mark pointing down) or fill (up), at most one per `gap` units of x:
 * closer marks could not be told apart. */
export function stackMarks(events: Uint8Array, x: Scale, gap: number): StackMark[] {
  const out: StackMark[] = [];
  let lastX = -Infinity;
  for (let k = 0; k < events.length; k++) {
    const ev = events[k];
    if (!(ev & (EventBit.Spill | EventBit.Fill))) continue;
    const at = x(k + 1);
    if (at - lastX < gap) continue;
    lastX = at;
    out.push({ step: k + 1, spill: (ev & EventBit.Spill) !== 0 });
  }
  return out;
}

/** A mark's triangle for the line at (x, y), `size` wide: a spill points down at it from above,
 * a fill points up at it from below. */
export function markPath(spill: boolean, x: number, y: number, size: number): string {
  const half = size / 2, tall = 0.8 * size, off = 1.2 * size;
  return spill ? `M${x - half},${y - off}h${size}l-${half},${tall}z` : `M${x - half},${y + off}h${size}l-${half},-${tall}z`;
}
