//! The stack-history plot's shapes as plain data, shared by the panel (`plot.ts`) and the figure
//! export (`plot-figure.ts`): the depth as a step path, the axes' ticks and labels, and the spill
//! and fill marks. The run's depth and marks come reduced from the engine (`Engine.depthColumns`,
//! `Engine.stackMarks`), never as a whole-run series.

import { niceStep } from '../sweep/axes';

export type Scale = (v: number) => number;

/** The depth axis's top: the deepest the run went, and room above the capacity line. */
export function maxDepthOf(deepest: number, capacity: number | null): number {
  return Math.max(capacity === null ? 1 : capacity + 1, deepest);
}

/** The depth over `n` steps (0 before the first) as a step path, from the engine's `columns`
 * (`Engine.depthColumns`): every step's depth when `n` is at most twice the columns, else each
 * column's last step, max, min and last depth, so the path stays small. */
export function depthPath(cols: Uint32Array, n: number, x: Scale, y: Scale, columns: number): string {
  let d = `M${x(0)},${y(0)}`;
  if (n <= columns * 2) {
    for (let k = 1; k <= n; k++) d += `H${x(k).toFixed(1)}V${y(cols[k - 1] ?? 0).toFixed(1)}`;
    return d;
  }
  for (let i = 0; i + 3 < cols.length; i += 4) {
    d += `H${x(cols[i]).toFixed(1)}V${y(cols[i + 1]).toFixed(1)}V${y(cols[i + 2]).toFixed(1)}V${y(cols[i + 3]).toFixed(1)}`;
  }
  return d;
}

/** `maxDepth` rounded up to a whole tick step, so a figure's depth axis ends on a labelled tick. */
export function roundedDepth(maxDepth: number): number {
  const step = Math.max(1, Math.ceil(maxDepth / 6));
  return Math.ceil(maxDepth / step) * step;
}

/** About six whole-number ticks from 0 to `maxDepth`, fewer on an axis `heightPx` tall, so labels
 * stay at least `gapPx` apart (a short panel's axis has room for two or three). */
export function depthTicks(maxDepth: number, heightPx = Infinity, gapPx = 16): number[] {
  const room = Math.floor(heightPx / gapPx);
  if (room < 1) return [0];
  let step = Math.max(1, Math.ceil(maxDepth / 6));
  if (maxDepth / step > room) step = niceStep(maxDepth, room);
  const out: number[] = [];
  for (let v = 0; v <= maxDepth; v += step) out.push(v);
  return out;
}

/** Ticks over `n` steps, 0 first: every 1, 2 or 5 times a power of ten, the smallest such step
 * that makes at most `most` intervals (a narrow plot asks for fewer, so labels never touch). */
export function stepTicks(n: number, most = 8): number[] {
  let step = 1;
  for (let p = 1; ; p *= 10) {
    const fit = [1, 2, 5].map((m) => m * p).find((s) => n / s <= most);
    if (fit !== undefined) { step = fit; break; }
  }
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

export interface StackMark { step: number; spill: boolean; depth: number }

/** The engine's spill (a mark pointing down) and fill (up) marks, `[step, spill, depth]` each
 * (`Engine.stackMarks`, at most one per few units of x: closer marks could not be told apart). */
export function stackMarks(raw: Uint32Array): StackMark[] {
  const out: StackMark[] = [];
  for (let i = 0; i + 2 < raw.length; i += 3) out.push({ step: raw[i], spill: raw[i + 1] !== 0, depth: raw[i + 2] });
  return out;
}

/** A mark's triangle for the line at (x, y), `size` wide: a spill points down at it from above,
 * a fill points up at it from below. */
export function markPath(spill: boolean, x: number, y: number, size: number): string {
  const half = size / 2, tall = 0.8 * size, off = 1.2 * size;
  return spill ? `M${x - half},${y - off}h${size}l-${half},${tall}z` : `M${x - half},${y + off}h${size}l-${half},-${tall}z`;
}
