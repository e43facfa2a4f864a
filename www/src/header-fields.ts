//! The kernel-inputs panel's pure pieces: a launch size field's text and back (`256`, `16x16`,
//! `(16, 16)`, as `//@ launch` writes them; the core checks the values), what a typed field
//! means as a header edit, and the smallest change from one text to another, so an edit made in
//! the panel is a small undoable change in the editor. Unit-tested.

import type { HeaderEdit, HeaderLine, InputsView } from './generated/engine';

export type Dims = [number, number, number];

/** `256` or `16x16` or `4x4x2`: a size without its trailing ones. */
export function dimsText(d: Dims, fill = 1): string {
  const n = d[2] !== fill ? 3 : d[1] !== fill ? 2 : 1;
  return d.slice(0, n).join('x');
}

/** The sizes a field holds (missing ones are `fill`), or null when it is not one to three whole
 * numbers. Ranges (a block of at most 1024 threads, a size from 1) are the core's to check. */
export function parseDims(text: string, fill = 1): Dims | null {
  const inner = text.trim().replace(/^\((.*)\)$/, '$1');
  const parts = inner.split(/\s*[x×,]\s*|\s+/i).filter((p) => p !== '');
  if (parts.length < 1 || parts.length > 3 || !parts.every((p) => /^\d+$/.test(p))) return null;
  const out: Dims = [fill, fill, fill];
  parts.forEach((p, i) => { out[i] = Number(p); });
  return out.every((v) => v <= 0xffff_ffff) ? out : null;
}

/** A field of the panel: which input and which of its parts. */
export type Field =
  | { kind: 'buffer'; name: string; part: 'len' | 'init' }
  | { kind: 'param'; name: string }
  | { kind: 'launch'; part: 'grid' | 'block' | 'block_idx' | 'warp' }
  | { kind: 'kernel' };

export function fieldKey(f: Field): string {
  return [f.kind, 'name' in f ? f.name : '', 'part' in f ? f.part : ''].join(':');
}

/** The header edit a field's new text makes, from the inputs on screen; a reason when the text
 * cannot be written as a line (a launch size that is not numbers). Any other value is written, and
 * the core's diagnostic at its line says what is wrong with it. The other parts of the same line
 * take what was typed in their fields and has not run yet (`pending`, by `fieldKey`), so two fields
 * changed quickly, before the first one's run is back, both land. */
export function editOf(v: InputsView, f: Field, text: string, pending: ReadonlyMap<string, string> = new Map()): { edit: HeaderEdit } | { error: string } {
  const set = (line: HeaderLine) => ({ edit: { set: line } });
  const typed = (g: Field): string | undefined => (fieldKey(g) === fieldKey(f) ? text : pending.get(fieldKey(g)));
  switch (f.kind) {
    case 'buffer': {
      const b = v.buffers.find((x) => x.name === f.name);
      if (!b) return { error: `no buffer ${f.name}` };
      const len = typed({ kind: 'buffer', name: b.name, part: 'len' }) ?? b.len;
      const init = typed({ kind: 'buffer', name: b.name, part: 'init' }) ?? b.init;
      return set({ header: 'buffer', name: b.name, elem: b.elem, len, init });
    }
    case 'param':
      return set({ header: 'param', name: f.name, value: text });
    case 'kernel':
      return set({ header: 'kernel', name: text });
    case 'launch': {
      const l = v.launch;
      const dims = (part: 'grid' | 'block' | 'block_idx', shown: Dims): Dims | null => {
        const t = typed({ kind: 'launch', part });
        if (t === undefined) return shown;
        const d = parseDims(t, part === 'block_idx' ? 0 : 1);
        // A sibling's unreadable text was refused when typed: the line keeps what ran.
        return d ?? (part === f.part ? null : shown);
      };
      const warpText = typed({ kind: 'launch', part: 'warp' });
      const warpOk = warpText !== undefined && /^\s*\d+\s*$/.test(warpText);
      if (f.part === 'warp' && !warpOk) return { error: 'warp: a warp number of the block, from 0' };
      const grid = dims('grid', l.grid);
      const block = dims('block', l.block);
      const blockIdx = dims('block_idx', l.block_idx);
      if (!grid || !block || !blockIdx) return { error: `${f.part.replace('_', ' ')}: one to three whole numbers, like 256, 16x16 or (16, 16)` };
      // The dynamic shared memory has no field yet: an edit keeps the line's.
      return set({ header: 'launch', grid, block, shared: l.shared, block_idx: blockIdx, warp_idx: warpOk ? Number(warpText) : l.warp_idx });
    }
  }
}

/** The one change that turns `from` into `to`: the differing middle, after the common prefix and
 * before the common suffix. */
export function textChange(from: string, to: string): { from: number; to: number; insert: string } {
  let start = 0;
  const max = Math.min(from.length, to.length);
  while (start < max && from[start] === to[start]) start++;
  let end = 0;
  while (end < max - start && from[from.length - 1 - end] === to[to.length - 1 - end]) end++;
  return { from: start, to: from.length - end, insert: to.slice(start, to.length - end) };
}
