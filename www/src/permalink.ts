//! Permalinks: `#v1.<base64url(deflate-raw(JSON))>` with an optional `&embed=cfg,lanes` suffix.
//! The core reads and writes them (through `engine.ts`), so a stranger's link meets the same
//! size-bounded, fuzzed decoder as the CLI (`warpscope run`, `trace` and `compare` take a link in
//! place of a file); here the app only keeps the panel names it knows. Needs the engine started.

import { decodeLink, encodeLink } from './engine';
import type { Link as CoreLink } from './generated/engine';

export const PANELS = ['editor', 'listing', 'cfg', 'warps', 'lanes', 'stack', 'plot', 'metrics', 'caption', 'registers', 'memory', 'output', 'cuda', 'ptx'] as const;
export type PanelName = (typeof PANELS)[number];

export type { RunChoices } from './generated/engine';

/** A link as the app holds it: the core's `Link`, with only the embed panels the app knows. */
export type Link = Omit<CoreLink, 'embed'> & { embed: PanelName[] | null };

export type Decoded = { kind: 'none' } | { kind: 'ok'; link: Link } | { kind: 'error'; message: string };


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
