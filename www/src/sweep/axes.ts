//! Axis ticks for the sweep plot (pure): round steps, integer steps for the param axis (powers of
//! two first, so 0..31 reads 0, 4, 8 ... and lines up with the 16-entry stack), tick labels.

/** A round step (1, 2 or 5 times a power of ten) giving at most about `count` intervals. */
export function niceStep(span: number, count: number): number {
  if (!(span > 0) || count < 1) return 1;
  const raw = span / count;
  const p = Math.pow(10, Math.floor(Math.log10(raw)));
  for (const m of [1, 2, 5, 10]) if (m * p >= raw) return m * p;
  return 10 * p;
}

/** Ticks covering [lo, hi] with a round step; the domain widened to whole steps. */
export function valueTicks(lo: number, hi: number, count: number): { ticks: number[]; lo: number; hi: number; step: number } {
  if (hi <= lo) hi = lo + 1;
  const step = niceStep(hi - lo, count);
  const a = Math.floor(lo / step + 1e-9) * step, b = Math.ceil(hi / step - 1e-9) * step;
  const ticks: number[] = [];
  for (let v = a; v <= b + step / 2; v += step) ticks.push(Number(v.toPrecision(12)));
  return { ticks, lo: a, hi: b, step };
}

/** Integer ticks from `from` to `to`, at most about `count` of them: steps of 1, 2, 4, 8 or 16
 * over the lane-sized ranges the papers sweep, round steps over longer ones. */
export function intTicks(from: number, to: number, count: number): number[] {
  const span = to - from;
  const pow2 = span <= 64 ? [1, 2, 4, 8, 16].find((s) => span / s <= count) : undefined;
  const step = pow2 ?? Math.max(1, Math.ceil(niceStep(span, count)));
  const out: number[] = [];
  for (let v = Math.ceil(from / step) * step; v <= to; v += step) out.push(v);
  return out;
}

/** A tick label: thousands grouped, large values shortened (120k, 1.5M), decimals as the step needs. */
export function tickLabel(v: number, step: number): string {
  const a = Math.abs(v);
  if (a >= 1e6 && step >= 1e5) return `${+(v / 1e6).toFixed(step >= 1e6 ? 0 : 1)}M`;
  if (a >= 1e5 && step >= 1e4) return `${+(v / 1e3).toFixed(0)}k`;
  const decimals = step >= 1 ? 0 : Math.min(6, Math.ceil(-Math.log10(step) - 1e-9));
  return v.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

/** A value as the tooltip shows it: integers whole, fractions to four places. */
export function valueLabel(v: number): string {
  return Number.isInteger(v) ? v.toLocaleString('en-US') : v.toFixed(4);
}
