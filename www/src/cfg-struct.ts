//! What the CFG view says about STRUCT's transform (Diamos et al. 2011), as plain data over the
//! engine's views (no DOM): each transformed block's tag (a copy of which original block, or
//! code a cut wrote), and where a step of the transformed run stands in the kernel's original
//! graph. Which block copies which is the engine's (`BlockView.original`, `copy`, `made`); this
//! file only names and groups.

import type { BlockView, CfgView, StateView } from './generated/engine';

/** A block's tag in its header: a copy of an original block, or guard code written by a cut. */
export interface BlockTag {
  kind: 'copy' | 'cut';
  text: string;
  /** What the tag means, for a hover text. */
  hint: string;
}

/** The tag of a transformed block: "copy of BB3" for a copy, "cut" for cut code, null for an
 * original block and under every other model. `names` are the original graph's block names. */
export function blockTag(b: Pick<BlockView, 'name' | 'original' | 'copy' | 'made'>, names: ReadonlyMap<number, string>): BlockTag | null {
  if (b.made) {
    return { kind: 'cut', text: 'cut', hint: `${b.name}: guard code STRUCT's cut wrote (a loop with several exits leaves through one, its guard register saying which)` };
  }
  if (b.copy > 0 && b.original !== null) {
    const of = names.get(b.original) ?? `BB${b.original}`;
    return { kind: 'copy', text: `copy of ${of}`, hint: `${b.name}: a copy of ${of} that STRUCT made so the code is structured; it runs ${of}'s instructions` };
  }
  return null;
}

/** The transform shows in the graph: some block is a copy or cut code. */
export function transformed(cfg: Pick<CfgView, 'blocks'>): boolean {
  return cfg.blocks.some((b) => b.copy > 0 || b.made);
}

/** What the CFG view marks for a step: the block (and instruction) it runs, the lanes waiting. */
export type StepMarks = Pick<StateView, 'block' | 'pc' | 'waiting'>;

/** Where step `st` of a STRUCT run stands in the original graph. */
export interface OriginalMarks {
  /** The original block and the waiting lanes at theirs (no instruction: pcs differ). */
  marks: StepMarks;
  /** The transformed block the step runs (null before the run or after it ends). */
  running: Pick<BlockView, 'id' | 'name' | 'original' | 'made'> | null;
}

/** `st`'s block and waiting lanes in `transformedCfg` carried to the original graph through each
 * block's `original`: a copy marks the block it copies; cut code has no original block. Lanes
 * waiting in several copies of one block are one group there. */
export function originalMarks(transformedCfg: Pick<CfgView, 'blocks'>, st: StepMarks | null): OriginalMarks {
  const byId = new Map(transformedCfg.blocks.map((b) => [b.id, b]));
  const running = st?.block != null ? byId.get(st.block) ?? null : null;
  const lanes = new Map<number, Set<number>>();
  for (const w of st?.waiting ?? []) {
    const o = byId.get(w.block)?.original;
    if (o == null) continue;
    const set = lanes.get(o) ?? new Set<number>();
    for (const l of w.lanes) set.add(l);
    lanes.set(o, set);
  }
  const waiting = [...lanes].sort(([a], [b]) => a - b).map(([block, set]) => ({ block, lanes: [...set].sort((x, y) => x - y) }));
  return { marks: { block: running?.original ?? null, pc: null, waiting }, running };
}

/** "now in BB5 (running its copy BB5'')": where the run is, said over the original graph. */
export function whereNote(m: OriginalMarks, names: ReadonlyMap<number, string>): string {
  const r = m.running;
  if (!r) return 'no block runs at this step';
  if (r.original === null) return `now in ${r.name}, code the cut wrote (no block of the original)`;
  const of = names.get(r.original) ?? `BB${r.original}`;
  return of === r.name ? `now in ${of}` : `now in ${of} (running its copy ${r.name})`;
}
