//! UI state only: what the user chose (kernel text, a PTX or SASS kernel's CUDA source, a SASS
//! kernel's PTX, inputs, step,
//! lane, breakpoints, playback).
//! Simulator facts are never stored here; panels read them from the engine's views. Also the
//! user's work in `localStorage`: the saved work, and a second copy kept aside when a link is
//! opened over it, so opening someone's link never loses your kernel.

import { StepLimit } from './engine';
import type { Link } from './permalink';
import { KERNEL_CHOICES, choicesOf, partner, readChoices, type RunChoices } from './choices';
import { readSweepChoice } from './sweep/choice';

/** `v` if it is a step limit the engine takes (a whole number in its `StepLimit` range), else null. */
export function validStepLimit(v: unknown): number | null {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= StepLimit.Min && v <= StepLimit.Max ? v : null;
}

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
  text: '', params: {}, ...KERNEL_CHOICES, compare: null, compareText: null,
  sweep: null, figure: null, cuda: null, ptx: null, step: 0, lane: 0, warp: null, breakpoints: [],
  playing: false, speed: 20, embed: null, stepLimit: StepLimit.Default,
};

export function get(): Readonly<UiState> {
  return state;
}

/** The controller re-renders explicitly after an update; the store notifies no one. */
export function update(patch: Partial<UiState>): void {
  state = { ...state, ...patch };
}

const SAVE_KEY = 'warpscope.work.v1';
const ASIDE_KEY = 'warpscope.work.aside.v1';
export type Work = RunChoices & Pick<UiState, 'text' | 'params' | 'compare' | 'compareText' | 'sweep' | 'figure' | 'cuda' | 'ptx' | 'stepLimit'>;

/** The work fields of a state (or of a link, which has no step limit of its own). */
export function workOf(s: Omit<Work, 'stepLimit'> & { stepLimit?: number }): Work {
  return {
    text: s.text, params: s.params, ...choicesOf(s), compare: s.compare, compareText: s.compare ? s.compareText : null, sweep: s.sweep, figure: s.figure,
    cuda: s.cuda, ptx: s.ptx, stepLimit: s.stepLimit ?? state.stepLimit,
  };
}

function write(key: string, value: unknown): boolean {
  try {
    localStorage.setItem(key, JSON.stringify(value));
    return true;
  } catch {
    return false; // storage full or disabled: the caller says so once
  }
}

function read(key: string): unknown {
  try {
    return JSON.parse(localStorage.getItem(key) ?? 'null') as unknown;
  } catch {
    return null;
  }
}

/** Keeps the user's work across reloads; false when the browser would not store it. */
export function saveWork(s: UiState): boolean {
  return write(SAVE_KEY, workOf(s));
}

export function loadWork(): Work | null {
  return readWork(read(SAVE_KEY));
}

/** Whose kernel is kept aside: the user's own (a link opened over it), or the link's (the user went back). */
export type AsideOwner = 'mine' | 'link';
export interface Aside { work: Work; owner: AsideOwner }

/** Keeps `work` aside until the user restores or forgets it; false when it could not be stored. */
export function keepAside(work: Work, owner: AsideOwner): boolean {
  return write(ASIDE_KEY, { work, owner });
}

export function loadAside(): Aside | null {
  const a = read(ASIDE_KEY) as { work?: unknown; owner?: unknown } | null;
  const work = readWork(a?.work);
  return work && (a?.owner === 'mine' || a?.owner === 'link') ? { work, owner: a.owner } : null;
}

export function forgetAside(): void {
  try { localStorage.removeItem(ASIDE_KEY); } catch { /* nothing stored then */ }
}

/** A compare choice: absent, a model name, or a model name with optional policies and preset. */
function readCompareChoice(x: unknown): RunChoices | null {
  if (typeof x === 'string') return partner(x);
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return null;
  const c = readChoices(x as Record<string, unknown>);
  return c.model !== null ? c : null;
}

/** Saved work, checked field by field: older versions lack later fields, and a malformed field is
 * dropped, not fatal. */
function readWork(x: unknown): Work | null {
  if (typeof x !== 'object' || x === null) return null;
  const w = x as Record<string, unknown>;
  if (typeof w.text !== 'string') return null;
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  const params = typeof w.params === 'object' && w.params !== null && !Array.isArray(w.params) &&
    Object.values(w.params).every((v) => typeof v === 'number' && Number.isFinite(v)) ? w.params as Record<string, number> : {};
  const sweep = readSweepChoice(w.sweep);
  const stepLimit = validStepLimit(w.stepLimit) ?? StepLimit.Default;
  return {
    text: w.text, params, ...readChoices(w), compare: readCompareChoice(w.compare), compareText: str(w.compareText),
    sweep: typeof sweep === 'string' ? null : sweep, figure: str(w.figure), cuda: str(w.cuda), ptx: str(w.ptx), stepLimit,
  };
}
