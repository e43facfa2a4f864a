// Permalinks made in Node for the tests: with the facade's own encoder (the wasm, started here),
// or by hand (deflate-raw + base64url) for links the encoder would never write.
import { readFileSync } from 'node:fs';
import { deflateRawSync } from 'node:zlib';
import { decode_link, encode_link, initSync } from '../web/pkg/warpscope_web.js';

initSync({ module: readFileSync(new URL('../web/pkg/warpscope_web_bg.wasm', import.meta.url)) });

/** The fields of a link; the tests set the ones they care about. */
export interface LinkFields {
  text: string; params: Record<string, number>; model: string | null; preset: string | null; ifConvert: boolean | null;
  pathOrder: string | null; schedule: string | null; compare: { model: string; pathOrder?: string | null; schedule?: string | null } | null;
  /** Compare mode with two kernels: side B's text. */
  compareText: string | null;
  step: number; lane: number; embed: string[] | null; sweep: unknown; figure: string | null;
  /** The CUDA source tab's text (a PTX or SASS kernel's), the PTX tab's (a SASS kernel's). */
  cuda: string | null; ptx: string | null;
}

const NONE: LinkFields = {
  text: '', params: {}, model: null, preset: null, ifConvert: null, pathOrder: null, schedule: null, compare: null, compareText: null,
  step: 0, lane: 0, embed: null, sweep: null, figure: null, cuda: null, ptx: null,
};

/** A fragment (with `#`) as the app's Copy link writes it. */
export function makeLink(fields: Partial<LinkFields>): string {
  return encode_link({ ...NONE, ...fields });
}

/** A v1 fragment holding exactly these bytes, packed as a link is. */
export function packBytes(bytes: Buffer, version = 'v1'): string {
  return `#${version}.${deflateRawSync(bytes, { level: 9 }).toString('base64url')}`;
}

export const packJson = (json: unknown, version = 'v1') => packBytes(Buffer.from(JSON.stringify(json)), version);

/** What the facade's decoder reads from a fragment. */
export function readLink(fragment: string): { kind: string; link?: LinkFields; message?: string } {
  return decode_link(fragment) as { kind: string; link?: LinkFields; message?: string };
}
