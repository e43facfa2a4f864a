//! The heat of Nsight Compute's counters as the page draws it: how hot an instruction (or a CFG
//! block) is, its warp-level executions against the hottest one's; its number in a few
//! characters; and the tooltip naming every count as ncu names it. Pure: the counts are the
//! engine's (`Session.counters`), summed here only over a block's instructions.

import type { CounterName, Counts, LoadResult, RunCounts } from './generated/engine';

/** The least level of an instruction that ran at all, so that it stays apart from one that
 * never ran (0) however hot the hottest is. */
export const LEAST_LEVEL = 0.06;

/** How hot `n` warp-level executions are beside the hottest's `max`: 0 (never ran) to 1. */
export function heatLevel(n: number, max: number): number {
  if (n <= 0 || max <= 0) return 0;
  return Math.max(LEAST_LEVEL, Math.min(1, n / max));
}

/** The most warp-level executions of any one of `counts` (0 when none ran). */
export function hottest(counts: readonly (Counts | null | undefined)[]): number {
  return counts.reduce((m, c) => Math.max(m, c?.inst_executed ?? 0), 0);
}

const SUFFIXES = ['k', 'M', 'G', 'T', 'P'];

/** `n` in at most five characters: exact below 10,000, else three significant digits and a
 * suffix (12.3k, 456k, 7.89M). */
export function shortCount(n: number): string {
  if (n < 10_000) return String(n);
  let v = n, k = -1;
  // Rounded first: 999,950 is "1.00M", not "1000k".
  while (k < SUFFIXES.length - 1 && Number(v.toPrecision(3)) >= 1000) { v /= 1000; k += 1; }
  const digits = Number(v.toPrecision(3));
  return `${digits >= 100 ? digits.toFixed(0) : digits >= 10 ? digits.toFixed(1) : digits.toFixed(2)}${SUFFIXES[k]}`;
}

/** `n` with its thousands grouped: 1,234,567. */
export function fullCount(n: number): string {
  return n.toLocaleString('en-US');
}

const ZERO: Counts = {
  inst_executed: 0, thread_inst_executed: 0, thread_inst_executed_pred_on: 0, branch_targets: 0, branch_targets_divergent: 0,
  thread_branch_condition_off: 0, thread_recounted: 0,
};

/** `list` added count by count (a CFG block's, from its instructions'); none count as zeros. */
export function sumCounts(list: readonly (Counts | null | undefined)[]): Counts {
  const out = { ...ZERO };
  for (const c of list) {
    if (!c) continue;
    for (const key of Object.keys(out) as (keyof Counts)[]) out[key] += c[key];
  }
  return out;
}

/** What the counts cover, as the tooltips say it. */
export function scopeOf(counts: RunCounts): string {
  return counts.whole_launch ? 'the whole launch (every warp of every block)' : 'this warp\'s run';
}

/** A tooltip: `head`, then each count under ncu's column title and metric, with its value. */
export function heatTitle(head: string, c: Counts, names: readonly CounterName[]): string {
  const lines = [head, ...names.map((n) => `${n.title} (${n.metric}): ${fullCount(c[n.field])}`)];
  // ncu's metric leaves these threads out; its source page counts them predicated on.
  if (c.thread_branch_condition_off > 0) {
    lines.push(`(of the predicated-on threads, ${fullCount(c.thread_branch_condition_off)} did not take the branch: their guard held, its condition did not)`);
  }
  // ncu's metrics count these threads again; its source page does not.
  if (c.thread_recounted > 0) {
    lines.push(`(ncu's metrics also count ${fullCount(c.thread_recounted)} threads that waited here, again, when a group the GPU had set aside released them)`);
  }
  return lines.join('\n');
}

/** One cell of heat: its number, its level and its tooltip. */
export interface HeatCell { label: string; level: number; title: string }

/** The cell of counts `c` against the hottest `max`, its tooltip headed `head`. */
export function heatCell(c: Counts, max: number, head: string, names: readonly CounterName[]): HeatCell {
  return { label: shortCount(c.inst_executed), level: heatLevel(c.inst_executed, max), title: heatTitle(head, c, names) };
}

/** A listing line's cell: the line, and the heat of the instruction on it. */
export interface LineHeat extends HeatCell { line: number }

/** The heat of each listing line that holds an instruction counted on its own (`lineOfPc`: the
 * listing line of each pc; a SASS sequence's later parts have none). */
export function listingHeat(counts: RunCounts, lineOfPc: readonly number[], names: readonly CounterName[]): LineHeat[] {
  const max = hottest(counts.by_pc), scope = scopeOf(counts);
  const out: LineHeat[] = [];
  counts.by_pc.forEach((c, pc) => {
    const line = lineOfPc[pc];
    if (c && line !== undefined) out.push({ line, ...heatCell(c, max, `Over ${scope}:`, names) });
  });
  return out;
}

/** A CFG block's heat: its instructions' counts added, against the hottest block's. */
export interface BlockHeat extends HeatCell { block: number }

export function blockHeat(counts: RunCounts, blocks: readonly { id: number; name: string; instrs: readonly { index: number }[] }[], names: readonly CounterName[]): BlockHeat[] {
  const sums = blocks.map((b) => sumCounts(b.instrs.map((i) => counts.by_pc[i.index])));
  const max = hottest(sums), scope = scopeOf(counts);
  return blocks.map((b, k) => {
    const n = b.instrs.length;
    return { block: b.id, ...heatCell(sums[k], max, `${b.name}, its ${n} instruction${n === 1 ? '' : 's'} added, over ${scope}:`, names) };
  });
}

/** The most steps a count replays unasked: about a third of a second in a browser. A longer run
 * (a launch of millions of warp instructions, a loop stopped late) is counted when the user
 * presses the heat button, so a Stop is not followed by seconds of a page that does not answer. */
export const UNASKED_STEPS = 3_000_000;

/** The steps counting the run replays: a whole launch's (every block's), or the warp's. */
export function countingSteps(load: Pick<LoadResult, 'launch'>, total: number): number {
  return load.launch?.totals.steps ?? total;
}

/** The heat as the app offers it to a panel: on or off; waiting to be asked for (a run too long
 * to count unasked); the panel's cells, counted when first asked (null: none to show). */
export interface HeatChoice<T> { on: boolean; waits: boolean; cells: () => readonly T[] | null }

/** The heat button's words: what it shows and its tooltip (`what`: what the heat tints). */
export function heatButton(c: Pick<HeatChoice<unknown>, 'on' | 'waits'>, what: string): { text: string; title: string } {
  if (c.waits) return { text: 'count heat', title: `the run is long: its counters are counted when asked (a second or more); press to count them and show ${what}` };
  return { text: 'heat', title: `${c.on ? 'hide' : 'show'} the heat: ${what}, against the hottest; its tooltip gives every counter under Nsight Compute's names` };
}
