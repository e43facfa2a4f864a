// View preferences against a stand-in for localStorage (Node has none): defaults, round trips,
// malformed copies and storage that refuses to write.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const items = new Map<string, string>();
let full = false;
beforeEach(() => {
  items.clear();
  full = false;
  vi.resetModules();
  Object.assign(globalThis, {
    localStorage: {
      getItem: (k: string) => items.get(k) ?? null,
      setItem: (k: string, v: string) => { if (full) throw new Error('full'); items.set(k, v); },
    },
  });
});
afterEach(() => { delete (globalThis as { localStorage?: unknown }).localStorage; });

describe('view preferences', () => {
  it('show the heat until the user turns it off, and remember that', async () => {
    const prefs = await import('./view-prefs');
    expect(prefs.get().heat).toBe(true);
    prefs.set({ heat: false });
    vi.resetModules();
    expect((await import('./view-prefs')).get().heat).toBe(false);
  });
  it('read a malformed or older copy field by field', async () => {
    const { readPrefs } = await import('./view-prefs');
    expect(readPrefs(null)).toEqual({ heat: true });
    expect(readPrefs({ heat: 'no' })).toEqual({ heat: true });
    expect(readPrefs({ heat: false, other: 1 })).toEqual({ heat: false });
    items.set('warpscope.view.v1', '{not json');
    expect((await import('./view-prefs')).get()).toEqual({ heat: true });
  });
  it('keep the choice for the visit when storage refuses it', async () => {
    full = true;
    const prefs = await import('./view-prefs');
    prefs.set({ heat: false });
    expect(prefs.get().heat).toBe(false);
  });
});
