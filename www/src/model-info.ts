//! The engine's description of each model (`model_infos()`: words for students, the policy it
//! reads, whether it spills, whether its entries form a stack, its compare partner, its family)
//! and its glossary (`glossary()`: every model's words, core `model::glossary`), read once when
//! the engine starts. Nothing here is written by hand: a name the engine did not describe
//! (no engine, or a link naming an unknown model) still shows, with a plain fallback.

import type { ModelAbout, Term } from './generated/engine';

let known: ModelAbout[] = [];
let terms: Term[] = [];

/** Keeps the engine's descriptions and glossary (`Engine.create` calls this). */
export function setModelInfos(list: ModelAbout[], glossary: Term[]): void {
  known = list;
  terms = glossary;
}

/** Every model's words, in the core's order (none before the engine starts). */
export function glossary(): readonly Term[] {
  return terms;
}

/** The models the engine describes, in its order. */
export function modelInfos(): readonly ModelAbout[] {
  return known;
}

export function modelInfo(name: string): ModelAbout {
  return known.find((m) => m.name === name) ?? {
    name, summary: name, short: name, stack_title: 'control state', depth: 'entries', policy: null, spills: false, stack: false,
    partner: 'kepler', family: name,
  };
}

/** What the compare view puts beside `model` when it opens: the scheme it is usually contrasted
 * with, if the engine lists it; else another model. */
export function partnerOf(model: string, models: readonly string[]): string {
  const p = known.find((m) => m.name === model)?.partner;
  return p && p !== model && models.includes(p) ? p : models.find((m) => m !== model) ?? model;
}
