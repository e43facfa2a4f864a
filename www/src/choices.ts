//! A run's choices (model, preset, if-convert, policies, warp scheduler) as one value, the core's
//! `RunChoices`: the store, a permalink, saved work, compare's partner and a sweep hold it the
//! same way, so a choice added in Rust is added here once (and `tsc` names every place it is
//! missing).

import type { RunChoices } from './generated/engine';
import type { LoadOptions } from './engine';

export type { RunChoices };

/** Nothing chosen: each choice is the kernel's `//@` header's, else the default. */
export const KERNEL_CHOICES: RunChoices = {
  model: null, preset: null, ifConvert: null, pathOrder: null, schedule: null, warpScheduler: null, oneWarp: null,
  launch: null, kernelOnly: null, block: null,
};

/** Just the choices of a state, a link or saved work. */
export function choicesOf(x: RunChoices): RunChoices {
  return {
    model: x.model, preset: x.preset, ifConvert: x.ifConvert, pathOrder: x.pathOrder, schedule: x.schedule,
    warpScheduler: x.warpScheduler, oneWarp: x.oneWarp, launch: x.launch, kernelOnly: x.kernelOnly, block: x.block,
  };
}

/** Stored choices, checked one by one: older saves lack later ones, and a malformed one is dropped. */
export function readChoices(x: Record<string, unknown>): RunChoices {
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  return {
    model: str(x.model), preset: str(x.preset), ifConvert: typeof x.ifConvert === 'boolean' ? x.ifConvert : null,
    pathOrder: str(x.pathOrder), schedule: str(x.schedule), warpScheduler: str(x.warpScheduler),
    oneWarp: typeof x.oneWarp === 'boolean' ? x.oneWarp : null,
    launch: typeof x.launch === 'number' && Number.isInteger(x.launch) && x.launch >= 0 ? x.launch : null,
    kernelOnly: typeof x.kernelOnly === 'boolean' ? x.kernelOnly : null,
    block: blockOf(x.block),
  };
}

/** A stored block index: three whole numbers, else none. */
function blockOf(v: unknown): [number, number, number] | null {
  const whole = (n: unknown) => typeof n === 'number' && Number.isInteger(n) && n >= 0;
  return Array.isArray(v) && v.length === 3 && v.every(whole) ? [v[0], v[1], v[2]] : null;
}

/** Compare mode's partner: `model` with its default policies (and the main run's preset). */
export function partner(model: string): RunChoices {
  return { ...KERNEL_CHOICES, model };
}

/** The engine's load options: `params` under `choices`, an unset choice left to the kernel. */
export function loadOptions(params: Record<string, number>, choices: RunChoices): LoadOptions {
  const set = Object.entries(choicesOf(choices)).filter(([, v]) => v !== null);
  return { params, ...Object.fromEntries(set) };
}
