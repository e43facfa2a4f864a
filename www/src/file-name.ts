//! What every download is called (the stack-history figure, the trace, the sweep's plot and data;
//! any later export too): `warpscope-<subject>-<model>-<what>.<ext>`, each part a slug, so the
//! files of one kernel sort together and say what they hold.

/** A slug longer than this is cut at the last word that fits (a file name stays well under the
 * 255 bytes file systems allow, and the whole of every bundled example's title fits). */
export const SLUG_MAX = 80;

/** `text` in lower case ASCII letters and digits, words joined by `-`: accents dropped, apostrophes
 * taken out ("Hovland's" is "hovlands"), everything else a word break. Past `max`, cut after the
 * last whole word that fits; only a single word longer than `max` is cut inside. */
export function slug(text: string, max = SLUG_MAX): string {
  const words = text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/['’]/g, '')
    .split(/[^a-z0-9]+/).filter(Boolean);
  let out = '';
  for (const w of words) {
    const next = out ? `${out}-${w}` : w;
    if (next.length > max) return out || w.slice(0, max);
    out = next;
  }
  return out;
}

export interface ExportName {
  /** What the file is of: the kernel's title, a paper figure's id; none gives "kernel". */
  subject: string | null;
  /** The model the run used; none for files that span models (a sweep). */
  model?: string | null;
  /** What the file holds: "stack-history", "trace", "sweep". */
  what: string;
  ext: string;
}

export function exportName({ subject, model, what, ext }: ExportName): string {
  const parts = ['warpscope', slug(subject ?? '') || 'kernel', ...(model ? [slug(model)] : []), slug(what)];
  return `${parts.filter(Boolean).join('-')}.${ext}`;
}
