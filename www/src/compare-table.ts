//! The compare table's rows, as plain data (no DOM): one row per metric of the engine's reports
//! of two runs, each value formatted for students, and whether the two runs differ in it; when a
//! run transformed the kernel first (STRUCT), rows for its transforms and its static code
//! expansion ("—" for a model without). Every number comes from `ReportView`; this file only
//! formats and compares them.

import type { ReportView, TransformCounts } from './generated/engine';

export interface CompareRow {
  /** A stable id for the row (`warp_instructions`, `block-3`). */
  key: string;
  /** The table's part: the whole run's metrics, the code the model runs (STRUCT's transforms),
   * or one block's executions. */
  group: 'run' | 'code' | 'block';
  label: string;
  /** What the row measures, for a tooltip. */
  hint: string;
  cells: string[];
  differ: boolean;
  /** Why the row's values do not compare (cycles under two cost presets), or null. */
  caveat: string | null;
}

type Metric = {
  key: keyof ReportView;
  label: string;
  hint: string;
  format: (r: ReportView) => string;
  value: (r: ReportView) => number | string | null;
};

const count = (v: number) => v.toLocaleString('en-US');
/** "+63.2 %": a ratio as a percentage, signed when `sign` and positive. */
export const percent = (v: number, sign = false) => `${sign && v > 0 ? '+' : ''}${(v * 100).toFixed(1)} %`;

/** Why a report has no code expansion, as the engine says (only a whole run compares with the
 * whole kernel's minimum). */
const noExpansion = (r: ReportView): string => `n/a (${r.code_expansion_missing ?? 'no MIMD minimum'})`;

const METRICS: Metric[] = [
  {
    key: 'warp_instructions', label: 'dynamic warp instructions', hint: 'instructions the warp issued (each with some lanes on)',
    format: (r) => count(r.warp_instructions), value: (r) => r.warp_instructions,
  },
  {
    key: 'thread_instructions', label: 'thread instructions', hint: 'instructions summed over the lanes that ran them',
    format: (r) => count(r.thread_instructions), value: (r) => r.thread_instructions,
  },
  {
    key: 'activity_factor', label: 'activity factor (SIMD efficiency)', hint: 'the share of lanes on per issued instruction',
    format: (r) => percent(r.activity_factor), value: (r) => r.activity_factor,
  },
  {
    key: 'code_expansion', label: 'code expansion vs MIMD',
    hint: 'warp instructions over the fewest any scheme needs (the MIMD minimum), minus one',
    format: (r) => (r.code_expansion !== null ? percent(r.code_expansion, true) : noExpansion(r)), value: (r) => r.code_expansion,
  },
  {
    key: 'idle_instructions', label: 'idle instructions (no active lane)', hint: 'instructions issued while every lane waited elsewhere',
    format: (r) => count(r.idle_instructions), value: (r) => r.idle_instructions,
  },
  {
    key: 'max_stack_depth', label: 'max stack depth',
    hint: 'what depth counts differs per model: tokens, stack entries, distinct pcs or armed barrier registers',
    format: (r) => count(r.max_stack_depth), value: (r) => r.max_stack_depth,
  },
  {
    key: 'divergent_branches', label: 'divergent branches', hint: 'branches that split the lanes that ran them',
    format: (r) => count(r.divergent_branches), value: (r) => r.divergent_branches,
  },
  {
    key: 'cycles', label: 'cycles', hint: 'the cost model\'s cycle count',
    format: (r) => count(r.cycles), value: (r) => r.cycles,
  },
  {
    key: 'transactions_per_memory_instruction', label: 'memory transactions per warp memory instruction',
    hint: '128-byte segments touched per warp memory instruction (1 is fully coalesced)',
    format: (r) => (r.transactions_per_memory_instruction === null ? 'no memory op' : r.transactions_per_memory_instruction.toFixed(2)),
    value: (r) => r.transactions_per_memory_instruction,
  },
];

/** A row about the code a model runs (STRUCT's transforms): "—" for a model that runs the kernel as it is. */
type TransformRow = {
  key: string;
  label: string;
  hint: string;
  format: (t: TransformCounts, r: ReportView) => string;
  value: (t: TransformCounts, r: ReportView) => number | null;
};

const TRANSFORMS: TransformRow[] = [
  {
    key: 'forward_copies', label: 'forward copies (node splitting)',
    hint: 'blocks copied so a join with more than one way in gets one copy per way (STRUCT\'s forward copy)',
    format: (t) => count(t.forward_copies), value: (t) => t.forward_copies,
  },
  {
    key: 'backward_copies', label: 'backward copies (loop bodies)',
    hint: 'loop bodies copied so a loop with more than one entry gets one per entry (STRUCT\'s backward copy)',
    format: (t) => count(t.backward_copies), value: (t) => t.backward_copies,
  },
  {
    key: 'cuts', label: 'cuts (loops given one exit)',
    hint: 'loops with several exits made to leave through one, a guard register saying which (STRUCT\'s cut)',
    format: (t) => count(t.cuts), value: (t) => t.cuts,
  },
  {
    key: 'instructions', label: 'instructions: kernel → code run',
    hint: 'instructions in the kernel as written, and in the code the model runs after its transforms',
    format: (t) => `${count(t.instructions_before)} → ${count(t.instructions_after)}`, value: (t) => t.instructions_after,
  },
  {
    key: 'static_expansion', label: 'static code expansion',
    hint: 'instructions in the code the model runs over those in the kernel, minus one',
    format: (_, r) => (r.static_expansion !== null ? percent(r.static_expansion, true) : '—'), value: (_, r) => r.static_expansion,
  },
];

/** The transform rows, when some run transformed the kernel; "—" in a column that did not. */
function transformRows(reports: ReportView[]): CompareRow[] {
  if (!reports.some((r) => r.transforms)) return [];
  return TRANSFORMS.map((m) => {
    const values = reports.map((r) => (r.transforms ? m.value(r.transforms, r) : null));
    return {
      key: m.key, group: 'code', label: m.label, hint: m.hint, caveat: null, differ: differ(values),
      cells: reports.map((r) => (r.transforms ? m.format(r.transforms, r) : '—')),
    };
  });
}

/** "2 (min 1)": how often a block ran, and the fewest fetches any scheme needs. */
export function blockCell(r: ReportView, block: number): string {
  const n = r.block_counts[block];
  if (n === undefined) return '—';
  const min = r.mimd_block_counts[block];
  return min === undefined ? count(n) : `${count(n)} (min ${count(min)})`;
}

const differ = (vs: unknown[]) => vs.some((v) => v !== vs[0]);

/** The warning for columns whose cycles use different cost presets (null when they share one). */
export function presetCaveat(presets: string[]): string | null {
  return differ(presets) ? `cycles under two cost presets (${[...new Set(presets)].join(', ')}) are not comparable` : null;
}

/**
 * Rows for `reports` (one per model, in column order), whose cycles were counted under
 * `presets` (the cost preset of each column). `blockNames` are the block names of the program
 * both ran (under STRUCT the kernel before its transform: its counts are per original block,
 * copies summed); null when they ran different code (a C kernel compiles per model), whose
 * blocks are numbered per program and are not compared.
 */
export function compareRows(reports: ReportView[], blockNames: string[] | null, presets: string[]): CompareRow[] {
  const rows: CompareRow[] = [{
    key: 'stop', group: 'run', label: 'run ended', hint: 'why the run stopped (a deadlock or the step limit is not an exit)',
    cells: reports.map((r) => r.stop.kind.replace(/_/g, ' ')),
    differ: differ(reports.map((r) => r.stop.kind)), caveat: null,
  }];
  const caveat = presetCaveat(presets);
  for (const m of METRICS) {
    // Cycles under two presets differ by construction: a warning, not a highlighted difference.
    const rowCaveat = m.key === 'cycles' ? caveat : null;
    rows.push({
      key: m.key, group: 'run', label: m.label, hint: m.hint, cells: reports.map(m.format), differ: !rowCaveat && differ(reports.map(m.value)), caveat: rowCaveat,
    });
  }
  rows.push(...transformRows(reports));
  const blocks = Math.max(0, ...reports.map((r) => r.block_counts.length));
  for (let b = 0; b < blocks; b++) {
    rows.push({
      key: `block-${b}`,
      group: 'block',
      label: `${blockNames?.[b] ?? `BB${b}`} executions`,
      hint: blockNames ? 'times the warp fetched the block (MIMD minimum: the most times one lane ran it)'
        : 'each model runs its own compiled code here, so the same number names different blocks',
      cells: reports.map((r) => blockCell(r, b)),
      differ: blockNames !== null && differ(reports.map((r) => r.block_counts[b])),
      caveat: null,
    });
  }
  return rows;
}
