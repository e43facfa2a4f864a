//! Sweep settings as plain data: a full `SweepRequest` from the parts a figure or a link gives,
//! the settings a kernel starts with, the split values typed as text, and the number of runs a
//! request asks for (shown beside Run; the engine's `prepare` has the final word).

import type { ParamView, SweepRequest } from '../generated/engine';
import { KERNEL_CHOICES } from '../choices';

/** The range a param is swept over unless chosen otherwise: the papers' lane counts. */
export const DEFAULT_RANGE = { from: 0, to: 31 } as const;

/** The facade's defaults for every field a partial request leaves out. */
export function fullRequest(part: Partial<SweepRequest>): SweepRequest {
  return {
    param: 'n', ...DEFAULT_RANGE, models: [], presets: [], split: null, params: {}, costs: {}, stack: null,
    ...KERNEL_CHOICES, step_limit: null, ...part,
  };
}

/** Settings for a kernel with `params`: the last ones if they still fit it, else its first param
 * over the default range under the current model and preset. */
export function settingsFor(params: ParamView[], last: SweepRequest | null, model: string, preset: string): SweepRequest | null {
  const names = params.map((p) => p.name);
  if (names.length === 0) return null;
  if (last && names.includes(last.param) && (!last.split || names.includes(last.split.param))) return last;
  return fullRequest({ param: names[0], models: [model], presets: [preset] });
}

/** "1, 2, 8..10" as [1, 2, 8, 9, 10]; a message for anything else. */
export function parseValues(text: string): number[] | string {
  const out: number[] = [];
  for (const part of text.split(',').map((s) => s.trim()).filter((s) => s !== '')) {
    const range = /^(-?\d+)\s*\.\.\s*(-?\d+)$/.exec(part);
    if (range) {
      const [a, b] = [Number(range[1]), Number(range[2])];
      if (b < a) return `${part} goes downwards`;
      if (b - a > 1000) return `${part} has more than 1000 values`;
      for (let v = a; v <= b; v++) out.push(v);
    } else if (/^-?\d+$/.test(part)) out.push(Number(part));
    else return `"${part}" is not a whole number or a range like 1..4`;
  }
  return out.length ? out : 'give at least one value';
}

/** The split values as the field shows them. */
export function formatValues(values: number[]): string {
  return values.join(', ');
}

/** Runs the request asks for: x values times series (a model with no preset chosen runs once,
 * under its own). */
export function runCount(r: SweepRequest): number {
  const xs = Math.max(0, r.to - r.from + 1);
  return xs * Math.max(1, r.models.length) * Math.max(1, r.presets.length) * (r.split ? r.split.values.length : 1);
}
