//! UI state only: what the user chose (kernel text, inputs, step, lane, breakpoints, playback).
//! Simulator facts are never stored here; panels read them from the engine's views.

import type { Link, ModelChoice } from './permalink';
import { readSweepChoice } from './sweep/choice';

/** The facade's default step limit (its `BROWSER_STEP_LIMIT`, the core's 10 million), shown in
 * the settings; `engine.test.ts` checks that the engine stops a loop there. */
export const DEFAULT_STEP_LIMIT = 10_000_000;
/** Every step is kept for scrubbing (about 16 bytes each), so the limit stays well inside wasm's memory. */
export const STEP_LIMIT_RANGE = { min: 1_000, max: 50_000_000 } as const;

/** What a permalink holds (kernel, inputs, step, lane, embed), plus what only this tab keeps. */
export interface UiState extends Link {
  /** Instruction indices (0-based positions in the program). */
  breakpoints: number[];
  playing: boolean;
  /** Steps per second; 0 means as fast as the page can draw. */
  speed: number;
  /** Steps after which a run stops (an endless loop must end somewhere). */
  stepLimit: number;
}

let state: UiState = {
  text: '', params: {}, model: null, preset: null, ifConvert: null, pathOrder: null, schedule: null, compare: null,
  sweep: null, figure: null, step: 0, lane: 0, breakpoints: [],
  playing: false, speed: 20, embed: null, stepLimit: DEFAULT_STEP_LIMIT,
};

export function get(): Readonly<UiState> {
  return state;
}

/** The controller re-renders explicitly after an update; the store notifies no one. */
export function update(patch: Partial<UiState>): void {
  state = { ...state, ...patch };
}

const SAVE_KEY = 'warpscope.work.v1';
export type Work = Pick<UiState, 'text' | 'params' | 'model' | 'preset' | 'ifConvert' | 'pathOrder' | 'schedule' | 'compare' | 'sweep' | 'figure' | 'stepLimit'>;

/** The user's unsaved work, kept across reloads when the URL carries no link. */
export function saveWork(s: UiState): void {
  const work: Work = {
    text: s.text, params: s.params, model: s.model, preset: s.preset, ifConvert: s.ifConvert,
    pathOrder: s.pathOrder, schedule: s.schedule, compare: s.compare, sweep: s.sweep, figure: s.figure, stepLimit: s.stepLimit,
  };
  try { localStorage.setItem(SAVE_KEY, JSON.stringify(work)); } catch { /* storage full or disabled */ }
}

/** A compare choice: absent, a model name, or a model name with optional policies. */
function readModelChoice(x: unknown): ModelChoice | null {
  if (typeof x === 'string') return { model: x, pathOrder: null, schedule: null };
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return null;
  const c = x as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  return typeof c.model === 'string' ? { model: c.model, pathOrder: str(c.pathOrder), schedule: str(c.schedule) } : null;
}

export function loadWork(): Work | null {
  try {
    const w = JSON.parse(localStorage.getItem(SAVE_KEY) ?? 'null') as Work | null;
    if (!w || typeof w.text !== 'string') return null;
    // Work saved by older versions lacks the later fields; a malformed one is dropped, not fatal.
    const ifConvert = typeof w.ifConvert === 'boolean' ? w.ifConvert : null;
    const str = (x: unknown) => (typeof x === 'string' ? x : null);
    const compare = readModelChoice(w.compare);
    const sweep = readSweepChoice(w.sweep);
    const limit = w.stepLimit as unknown;
    const stepLimit = typeof limit === 'number' && Number.isSafeInteger(limit) && limit >= STEP_LIMIT_RANGE.min && limit <= STEP_LIMIT_RANGE.max
      ? limit : DEFAULT_STEP_LIMIT;
    return {
      text: w.text, params: w.params ?? {}, model: w.model ?? null, preset: w.preset ?? null, ifConvert,
      pathOrder: str(w.pathOrder), schedule: str(w.schedule), compare,
      sweep: typeof sweep === 'string' ? null : sweep, figure: str(w.figure), stepLimit,
    };
  } catch {
    return null;
  }
}
