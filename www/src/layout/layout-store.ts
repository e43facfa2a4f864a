//! The user's layouts, kept in the browser beside their saved work: the named layout in use, the
//! layout of each mode once the user changed it, and the panels they closed. Read field by field:
//! a malformed or older copy falls back to the preset, never to an error.

import type { SerializedDockview } from 'dockview-core';
import { isDockPanel, MODES, type DockPanelId, type Mode } from './panels';
import { LAYOUT_NAMES, type LayoutName } from './presets';

const KEY = 'warpscope.layout.v1';

export interface KeptLayouts {
  name: LayoutName;
  layouts: Partial<Record<Mode, SerializedDockview>>;
  hidden: Partial<Record<Mode, DockPanelId[]>>;
}

const fresh = (): KeptLayouts => ({ name: 'study', layouts: {}, hidden: {} });

let kept: KeptLayouts | null = null;

/** `x` as kept layouts: unknown names, modes and panels are dropped. */
export function readKept(x: unknown): KeptLayouts {
  const out = fresh();
  if (typeof x !== 'object' || x === null) return out;
  const k = x as Record<string, unknown>;
  if ((LAYOUT_NAMES as readonly unknown[]).includes(k.name)) out.name = k.name as LayoutName;
  const layouts = (k.layouts ?? {}) as Record<string, unknown>;
  const hidden = (k.hidden ?? {}) as Record<string, unknown>;
  for (const m of MODES) {
    const l = layouts[m] as SerializedDockview | undefined;
    if (l && typeof l === 'object' && typeof l.grid === 'object' && l.grid !== null && typeof l.panels === 'object') out.layouts[m] = l;
    const h = hidden[m];
    if (Array.isArray(h)) out.hidden[m] = h.filter((p): p is DockPanelId => typeof p === 'string' && isDockPanel(p));
  }
  return out;
}

export function get(): KeptLayouts {
  if (kept) return kept;
  try {
    kept = readKept(JSON.parse(localStorage.getItem(KEY) ?? 'null'));
  } catch {
    kept = fresh();
  }
  return kept;
}

function write(): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(get()));
  } catch {
    // Storage full or off: the layout lasts this visit only (the work's own warning says so).
  }
}

export function keep(mode: Mode, layout: SerializedDockview, hidden: DockPanelId[]): void {
  const k = get();
  k.layouts[mode] = layout;
  k.hidden[mode] = hidden;
  write();
}

export function setHidden(mode: Mode, id: DockPanelId, hide: boolean): void {
  const k = get();
  const h = new Set(k.hidden[mode] ?? []);
  if (hide) h.add(id); else h.delete(id);
  k.hidden[mode] = [...h];
  write();
}

export function forget(mode: Mode): void {
  delete get().layouts[mode];
  write();
}

/** Every mode back to the named preset, with all its panels. */
export function useNamed(name: LayoutName): void {
  kept = { ...fresh(), name };
  write();
}
