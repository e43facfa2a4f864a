//! Permalinks: `#v1.<base64url(deflate-raw(JSON))>` with an optional `&embed=cfg,lanes` suffix.
//! Pure (no DOM): the browser's and Node's CompressionStream do the deflate, so no library.
//! Fields added after v1 first shipped (if-convert, policies, compare, sweep, figure) are optional
//! and left out when unset, so older links still read and the format stays v1.

import { readSweepChoice, type SweepChoice } from './sweep/choice';

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

const VERSION = 1;

async function pipe(bytes: Uint8Array, stream: GenericTransformStream): Promise<Uint8Array> {
  const out = new Blob([bytes as BlobPart]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(out).arrayBuffer());
}

function toBase64Url(bytes: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(s: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(s)) return null;
  try {
    const bin = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
    return Uint8Array.from(bin, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

export function parseEmbed(list: string): PanelName[] {
  return list.split(',').map((p) => p.trim()).filter((p): p is PanelName => (PANELS as readonly string[]).includes(p));
}

/** The fragment (with `#`) for `link`. */
export async function encode(link: Link): Promise<string> {
  // Optional fields are left out when unset, so links from before they existed read the same.
  const { embed, ifConvert, pathOrder, schedule, compare, sweep, figure, ...rest } = link;
  const json = JSON.stringify({
    v: VERSION, ...rest, ...(ifConvert !== null ? { ifConvert } : {}), ...(pathOrder !== null ? { pathOrder } : {}),
    ...(schedule !== null ? { schedule } : {}), ...(compare ? { compare: withoutNulls(compare) } : {}), ...(embed ? { embed } : {}),
    ...(sweep ? { sweep } : {}), ...(figure !== null ? { figure } : {}),
  });
  const packed = await pipe(new TextEncoder().encode(json), new CompressionStream('deflate-raw'));
  return `#v${VERSION}.${toBase64Url(packed)}`;
}

const withoutNulls = (o: object) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null));

const isCount = (x: unknown): x is number => typeof x === 'number' && Number.isInteger(x) && x >= 0;
const isOptString = (x: unknown): x is string | null | undefined => x == null || typeof x === 'string';

/** A compare choice: absent, a model name, or a model name with optional policies. */
export function readModelChoice(x: unknown): ModelChoice | null | string {
  if (x == null) return null;
  if (typeof x === 'string') return { model: x, pathOrder: null, schedule: null };
  if (typeof x !== 'object' || Array.isArray(x)) return 'the compare choice is malformed';
  const c = x as Record<string, unknown>;
  if (typeof c.model !== 'string' || !isOptString(c.pathOrder) || !isOptString(c.schedule)) return 'the compare choice is malformed';
  return { model: c.model, pathOrder: c.pathOrder ?? null, schedule: c.schedule ?? null };
}

function validate(o: unknown): Link | string {
  if (typeof o !== 'object' || o === null) return 'it does not hold a saved state';
  const r = o as Record<string, unknown>;
  if (r.v !== VERSION) return `it was made by a newer version of warpscope (format ${String(r.v)})`;
  if (typeof r.text !== 'string') return 'the kernel text is missing';
  const params = r.params ?? {};
  if (typeof params !== 'object' || params === null || Array.isArray(params) ||
    !Object.values(params).every((v) => typeof v === 'number' && Number.isFinite(v))) return 'the params are malformed';
  if (!isOptString(r.model) || !isOptString(r.preset)) return 'the model or preset is malformed';
  if (r.ifConvert != null && typeof r.ifConvert !== 'boolean') return 'the if-convert choice is malformed';
  if (!isOptString(r.pathOrder) || !isOptString(r.schedule)) return 'the path order or schedule is malformed';
  const compare = readModelChoice(r.compare);
  if (typeof compare === 'string') return compare;
  const step = r.step ?? 0, lane = r.lane ?? 0;
  if (!isCount(step) || !isCount(lane)) return 'the step or lane is malformed';
  const embed = r.embed == null ? null : Array.isArray(r.embed) ? parseEmbed(r.embed.join(',')) : null;
  const sweep = readSweepChoice(r.sweep);
  if (typeof sweep === 'string') return sweep;
  if (!isOptString(r.figure)) return 'the figure is malformed';
  return {
    text: r.text, params: params as Record<string, number>, model: r.model ?? null, preset: r.preset ?? null,
    ifConvert: (r.ifConvert as boolean | null | undefined) ?? null, pathOrder: r.pathOrder ?? null, schedule: r.schedule ?? null,
    compare, step, lane, embed, sweep, figure: r.figure ?? null,
  };
}

/** Reads a location fragment (with or without `#`). Never throws. */
export async function decode(fragment: string): Promise<Decoded> {
  const hash = fragment.replace(/^#/, '');
  if (hash === '') return { kind: 'none' };
  const [body, ...extras] = hash.split('&');
  const m = /^v(\d+)\.(.*)$/.exec(body);
  if (!m) return { kind: 'error', message: 'This link is not a warpscope permalink (it should start with #v1.).' };
  if (Number(m[1]) !== VERSION) {
    return { kind: 'error', message: `This link uses format v${m[1]}, which this version of warpscope cannot read (it reads v${VERSION}).` };
  }
  const bytes = fromBase64Url(m[2]);
  if (!bytes || bytes.length === 0) return { kind: 'error', message: 'This link is corrupted: its data is not valid base64url.' };
  let json: unknown;
  try {
    const raw = await pipe(bytes, new DecompressionStream('deflate-raw'));
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw));
  } catch {
    return { kind: 'error', message: 'This link is corrupted or truncated: its data does not unpack.' };
  }
  const link = validate(json);
  if (typeof link === 'string') return { kind: 'error', message: `This link cannot be opened: ${link}.` };
  for (const extra of extras) {
    const [k, v = ''] = extra.split('=');
    if (k === 'embed') link.embed = parseEmbed(decodeURIComponent(v));
  }
  return { kind: 'ok', link };
}
