//! How the user likes the views drawn, kept in the browser beside their layouts: whether the
//! generated code and the CFG show the counters' heat. Read field by field: a malformed or
//! older copy falls back to the defaults, never to an error.

const KEY = 'warpscope.view.v1';

export interface ViewPrefs {
  /** The heat of Nsight Compute's counters: the generated code's column and the CFG's blocks. */
  heat: boolean;
}

const DEFAULTS: ViewPrefs = { heat: true };

/** `x` as view preferences: a field missing or of the wrong type keeps its default. */
export function readPrefs(x: unknown): ViewPrefs {
  const p = (typeof x === 'object' && x !== null ? x : {}) as Record<string, unknown>;
  return { heat: typeof p.heat === 'boolean' ? p.heat : DEFAULTS.heat };
}

let kept: ViewPrefs | null = null;

export function get(): ViewPrefs {
  if (kept) return kept;
  try {
    kept = readPrefs(JSON.parse(localStorage.getItem(KEY) ?? 'null'));
  } catch {
    kept = { ...DEFAULTS };
  }
  return kept;
}

export function set(patch: Partial<ViewPrefs>): void {
  kept = { ...get(), ...patch };
  try {
    localStorage.setItem(KEY, JSON.stringify(kept));
  } catch {
    // Storage full or off: the choice lasts this visit only.
  }
}
