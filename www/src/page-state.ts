//! The page controller's decisions, as pure functions over the store's state (no DOM, no engine,
//! no storage), so they are unit-tested on their own: what the page opens with (a link, else the
//! saved work, else the default example; whether to ask before a link replaces the user's kernel;
//! an embed's panels), what a link pasted into the open tab does, and the store patches of the
//! gallery, the papers' figures, the mode buttons and a permalink. `controller.ts` applies them.

import type { Example } from './examples';
import type { Figure } from './figures';
import { partnerOf } from './model-info';
import { PANELS, type Decoded, type Link } from './permalink';
import type { UiState, Work } from './store';
import { fullRequest } from './sweep/request';
import type { LoadResult } from './generated/engine';
import { KERNEL_CHOICES, choicesOf, partner } from './choices';

/** The work a first visit shows: `text` (the default example) with every choice the kernel's own. */
export function freshWork(text: string, stepLimit: number): Work {
  return {
    text, params: {}, ...KERNEL_CHOICES, compare: null, compareText: null,
    sweep: null, figure: null, cuda: null, ptx: null, stepLimit,
  };
}

/** What the page opens with. */
export interface Restored {
  /** The store's state to start from: the saved (or fresh) work, with the link's fields over it. */
  state: Partial<UiState>;
  /** The user's saved work when the link shows another kernel: ask before saving over it. */
  ask: Work | null;
  /** What to say (a broken link). */
  banners: string[];
}

/** What a browser with nothing saved shows: the default example's work, and its title to name it. */
export interface Fresh { work: Work; title: string }

/** A link wins (asking first if it would replace another kernel of the user's; an embed never
 * touches the saved work); a broken link says why and what shows instead: the saved work, else
 * the default example. */
export function restore(decoded: Decoded, saved: Work | null, fresh: Fresh): Restored {
  const link = decoded.kind === 'ok' ? decoded.link : null;
  const instead = saved ? 'Showing your last saved kernel instead.'
    : `Nothing is saved in this browser yet, so the default example ("${fresh.title}") shows instead.`;
  return {
    state: { ...(saved ?? fresh.work), ...(link ?? {}) },
    ask: link && link.embed === null && saved !== null && saved.text !== link.text ? saved : null,
    banners: decoded.kind === 'error' ? [`${decoded.message} ${instead}`] : [],
  };
}

/** An embed's panels as the page shows them: none known is the whole app (with a banner); an embed
 * shows the chosen panels of one run, as compare and sweep modes have panels of their own. */
export function embedded(embed: UiState['embed']): { patch: Partial<UiState>; banner: string | null } {
  if (embed?.length === 0) {
    return { patch: { embed: null }, banner: `This embed link names no known panel (known: ${PANELS.join(', ')}); showing the whole app.` };
  }
  return { patch: embed ? { compare: null, sweep: null } : {}, banner: null };
}

/** What a link pasted into the open tab does. */
export type HashChange =
  /** The fragment names no link: nothing. */
  | { kind: 'none' }
  /** A broken link: say so; the kernel stays. */
  | { kind: 'banner'; message: string }
  /** Embed mode's layout is set up at boot: load the page again. */
  | { kind: 'reload' }
  /** Show the link's state; `ask`: it replaces the user's kernel, so ask before saving. */
  | { kind: 'show'; link: Link; ask: boolean };

/** `d` pasted while `embedShown` is the page's mode and `mine` is what the user would lose. */
export function hashChange(d: Decoded, embedShown: boolean, mine: Work): HashChange {
  if (d.kind === 'none') return d;
  if (d.kind === 'error') return { kind: 'banner', message: `${d.message} Your kernel stays as it was.` };
  // An embed link never touches the saved work.
  if (d.link.embed !== null || embedShown) return { kind: 'reload' };
  return { kind: 'show', link: d.link, ask: d.link.text !== mine.text };
}

/** Opening example `ex`: the kernel's own choices (and a PTX example's CUDA source), `patch` over
 * them. Sweep settings carry over where its params allow; measurements do not. */
export function examplePatch(ex: Example, s: Pick<UiState, 'sweep'>, patch: Partial<UiState> = {}): Partial<UiState> {
  return {
    text: ex.text, params: {}, ...KERNEL_CHOICES, figure: null, cuda: ex.cuda, ptx: ex.ptx,
    ...(s.sweep ? { sweep: { ...s.sweep, measured: null } } : {}), ...patch,
  };
}

/** Opening a figure of the papers: its kernel with its view settings, or with its sweep. */
export type FigureOpening =
  | { kind: 'missing'; message: string }
  | { kind: 'view' | 'sweep'; example: Example; patch: Partial<UiState> };

export function openingOf(f: Figure, examples: Example[]): FigureOpening {
  const example = examples.find((e) => e.file === f.kernel);
  if (!example) return { kind: 'missing', message: `The figure's kernel ${f.kernel} is not among the bundled examples.` };
  if (f.view) {
    const { params, model, preset, compare } = f.view;
    const beside = compare ? partner(compare) : null;
    return { kind: 'view', example, patch: { params, model, preset, compare: beside, sweep: null, figure: f.id } };
  }
  const sweep = { request: fullRequest(f.sweep ?? {}), metric: f.metric ?? 'cycles', measured: f.measured ?? null };
  return { kind: 'sweep', example, patch: { params: f.sweep?.params ?? {}, compare: null, sweep, figure: f.id } };
}

/** Whether figure `f`'s "What to look at" still describes the screen: its kernel, unedited, in
 * its mode (a sweep figure in sweep mode; a view figure in the stepping view, compare mode on
 * exactly when the figure compares two models). */
export function figureHolds(f: Figure, s: Pick<UiState, 'text' | 'sweep' | 'compare'>, examples: Example[]): boolean {
  if (examples.find((e) => e.file === f.kernel)?.text !== s.text) return false;
  if (f.view) return s.sweep === null && (s.compare !== null) === !!f.view.compare;
  return s.sweep !== null;
}

/** Compare mode beside `run`'s model: its usual partner (comparing a model with itself says nothing). */
export function partnerChoice(run: Pick<LoadResult, 'model' | 'models'>): NonNullable<UiState['compare']> {
  return partner(partnerOf(run.model, run.models));
}

/** The compare button: on (beside the shown run's model, ending a sweep) or off. */
export function compareToggle(s: Pick<UiState, 'compare'>, run: LoadResult | null): Partial<UiState> {
  const on = s.compare === null;
  return { compare: on && run ? partnerChoice(run) : null, compareText: null, ...(on ? { sweep: null } : {}) };
}

/** After an example opens in compare mode: a partner for its model, if it is compared with itself. */
export function selfComparison(s: Pick<UiState, 'compare' | 'compareText'>, run: LoadResult | null): Partial<UiState> | null {
  return s.compare && s.compareText === null && run && s.compare.model === run.model ? { compare: partnerChoice(run) } : null;
}

/** What a permalink to the screen holds. */
export function linkOf(s: UiState): Link {
  return {
    text: s.text, params: s.params, ...choicesOf(s), compare: s.compare, compareText: s.compare ? s.compareText : null, step: s.step, lane: s.lane, warp: s.warp, embed: s.embed, sweep: s.sweep, figure: s.figure,
    cuda: s.cuda, ptx: s.ptx,
  };
}
