//! Permalinks: `#v1.<base64url(deflate-raw(JSON))>` with an optional `&embed=cfg,lanes` suffix.
//! The core reads and writes them (through `engine.ts`), so a stranger's link meets the same
//! size-bounded, fuzzed decoder as the CLI (`warpscope run`, `trace` and `compare` take a link in
//! place of a file); here the app only keeps the panel names it knows. Needs the engine started.

import { decodeLink, encodeLink } from './engine';
import type { SweepChoice } from './sweep/choice';

export const PANELS = ['editor', 'listing', 'cfg', 'lanes', 'stack', 'plot', 'metrics', 'caption', 'registers'] as const;
export type PanelName = (typeof PANELS)[number];

/** A model and the policy it reads (null: the engine's default). */
export interface ModelChoice {
  model: string;
  /** PDOM stacks: which side of a divergent branch runs first. */
  pathOrder: string | null;
  /** Volta: which group of lanes runs. */
  schedule: string | null;
}

export interface Link {
  text: string;
  params: Record<string, number>;
  model: string | null;
  preset: string | null;
  /** For C kernels: if-convert short branches; null follows the kernel's `//@ ifconvert`. */
  ifConvert: boolean | null;
  pathOrder: string | null;
  schedule: string | null;
  /** Compare mode: the model beside the main one; null when not comparing. */
  compare: ModelChoice | null;
  step: number;
  lane: number;
  /** Panels shown in embed mode (read-only editor); null for the full app. */
  embed: PanelName[] | null;
  /** Sweep mode: its settings, metric and measured series; null for the stepping view. */
  sweep: SweepChoice | null;
  /** The paper's figure shown (an id in examples/figures.json), whose "what to look at" shows. */
  figure: string | null;
}

export type Decoded = { kind: 'none' } | { kind: 'ok'; link: Link } | { kind: 'error'; message: string };

/** A link as the core holds it: any embed names, kept or dropped here. */
type CoreLink = Omit<Link, 'embed'> & { embed: string[] | null };

export function parseEmbed(list: string): PanelName[] {
  return list.split(',').map((p) => p.trim()).filter((p): p is PanelName => (PANELS as readonly string[]).includes(p));
}

/** The fragment (with `#`) for `link`. */
export function encode(link: Link): string {
  return encodeLink(link);
}

/** Reads a location fragment (with or without `#`). Never throws. */
export function decode(fragment: string): Decoded {
  const d = decodeLink<CoreLink>(fragment);
  if (d.kind !== 'ok') return d;
  const { embed, ...rest } = d.link;
  return { kind: 'ok', link: { ...rest, embed: embed === null ? null : parseEmbed(embed.join(',')) } };
}
