//! What a sweep on screen is, as a permalink and the saved work hold it: the request, the metric
//! plotted and the measured series beside it. `readSweepChoice` checks the saved work's value
//! field by field (links are checked by the core's decoder; names are checked later by the
//! engine, which answers with located messages).

import type { MeasuredChoice, SweepChoice, SweepRequest } from '../generated/engine';
import { fullRequest } from './request';

export type { MeasuredChoice, SweepChoice } from '../generated/engine';

type Check = (x: unknown) => boolean;
const isInt: Check = (x) => typeof x === 'number' && Number.isSafeInteger(x);
const isNumber: Check = (x) => typeof x === 'number' && Number.isFinite(x);
const isString: Check = (x) => typeof x === 'string';
const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const listOf = (item: Check): Check => (x) => Array.isArray(x) && x.every(item);
const mapOf = (item: Check): Check => (x) => isRecord(x) && Object.values(x).every(item);
const orNull = (c: Check): Check => (x) => x == null || c(x);
const shape = (fields: Record<string, Check>): Check => (x) => isRecord(x) && Object.entries(fields).every(([k, c]) => c(x[k]));

// Each field's check; a missing optional field takes the facade's default.
const REQUEST_FIELDS: Record<keyof SweepRequest, Check> = {
  param: isString, from: isInt, to: isInt, models: listOf(isString), presets: listOf(isString),
  split: orNull(shape({ param: isString, values: listOf(isInt) })),
  // A fixed param may be a float kernel parameter's (`a = 2.5`).
  params: mapOf(isNumber), costs: mapOf((v) => isInt(v) && (v as number) >= 0),
  stack: orNull(shape({ capacity: isInt, chunk: isInt })),
  model: orNull(isString), preset: orNull(isString), ifConvert: orNull((v) => typeof v === 'boolean'), pathOrder: orNull(isString),
  schedule: orNull(isString), warpScheduler: orNull(isString), oneWarp: orNull((v) => typeof v === 'boolean'),
  launch: orNull((v) => isInt(v) && (v as number) >= 0), kernelOnly: orNull((v) => typeof v === 'boolean'),
  block: orNull((v) => Array.isArray(v) && v.length === 3 && v.every((n) => isInt(n) && n >= 0)),
  step_limit: orNull((v) => isInt(v) && (v as number) > 0),
};
const REQUIRED: (keyof SweepRequest)[] = ['param', 'from', 'to'];
const LEGACY_KEYS: Record<string, string> = { if_convert: 'ifConvert', path_order: 'pathOrder' };
const isMeasured = shape({ file: isString, build: isString, kernel: isString, pattern: isString });

/** A checked sweep choice, null when absent, or what is wrong with it. */
export function readSweepChoice(x: unknown): SweepChoice | null | string {
  if (x == null) return null;
  if (!isRecord(x) || !isRecord(x.request)) return 'the sweep settings are malformed';
  // Saved before run choices were one type, three of them were snake_case.
  const r = Object.fromEntries(Object.entries(x.request).map(([k, v]) => [LEGACY_KEYS[k] ?? k, v]));
  for (const k of REQUIRED) if (!(k in r)) return `the sweep settings lack "${k}"`;
  for (const [k, check] of Object.entries(REQUEST_FIELDS)) {
    if (k in r && !(REQUIRED.includes(k as keyof SweepRequest) ? check(r[k]) : r[k] === undefined || check(r[k]))) {
      return `the sweep setting "${k}" is malformed`;
    }
  }
  if (!isString(x.metric)) return 'the sweep metric is malformed';
  if (!orNull(isMeasured)(x.measured)) return 'the sweep\'s measured series is malformed';
  const request = fullRequest(Object.fromEntries(Object.entries(r).filter(([k, v]) => k in REQUEST_FIELDS && v != null)) as Partial<SweepRequest>);
  return { request, metric: x.metric as string, measured: (x.measured as MeasuredChoice | null | undefined) ?? null };
}
