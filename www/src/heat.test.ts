import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  blockHeat, countingSteps, fullCount, heatButton, heatLevel, heatTitle, hottest, LEAST_LEVEL, listingHeat, shortCount, sumCounts, UNASKED_STEPS,
} from './heat';
import type { CounterName, Counts, RunCounts } from './generated/engine';

const NAMES: CounterName[] = [
  { field: 'inst_executed', title: 'Instructions Executed', metric: 'smsp__inst_executed' },
  { field: 'thread_inst_executed', title: 'Thread Instructions Executed', metric: 'smsp__thread_inst_executed' },
  { field: 'thread_inst_executed_pred_on', title: 'Predicated-On Thread Instructions Executed', metric: 'smsp__thread_inst_executed_pred_on' },
  { field: 'branch_targets', title: 'Branch Targets', metric: 'smsp__sass_branch_targets' },
  { field: 'branch_targets_divergent', title: 'Divergent Branch Targets', metric: 'smsp__sass_branch_targets_threads_divergent' },
];

const counts = (inst: number, threads = inst * 32, extra: Partial<Counts> = {}): Counts => ({
  inst_executed: inst, thread_inst_executed: threads, thread_inst_executed_pred_on: threads, branch_targets: 0, branch_targets_divergent: 0,
  thread_branch_condition_off: 0, thread_recounted: 0, ...extra,
});

describe('heat levels', () => {
  it('are warp executions against the hottest instruction, a never-run one apart from one run once', () => {
    expect(heatLevel(256, 256)).toBe(1);
    expect(heatLevel(64, 256)).toBe(0.25);
    expect(heatLevel(0, 256)).toBe(0);
    expect(heatLevel(1, 1_000_000)).toBe(LEAST_LEVEL);
    expect(heatLevel(5, 0)).toBe(0);
    expect(hottest([counts(3), null, counts(9), undefined])).toBe(9);
    expect(hottest([])).toBe(0);
  });
});

describe('numbers', () => {
  it('fit five characters, exact below ten thousand', () => {
    const cases: [number, string][] = [[0, '0'], [7, '7'], [9999, '9999'], [10_000, '10.0k'], [12_345, '12.3k'], [456_000, '456k'],
      [999_950, '1.00M'], [7_890_000, '7.89M'], [123_456_789, '123M'], [4.2e9, '4.20G']];
    for (const [n, text] of cases) expect(shortCount(n)).toBe(text);
    for (const [n] of cases) expect(shortCount(n).length).toBeLessThanOrEqual(5);
  });
  it('are grouped in full in the tooltips', () => {
    expect(fullCount(1_234_567)).toBe('1,234,567');
  });
});

describe('tooltips', () => {
  it('name every count as ncu does, with its metric', () => {
    const t = heatTitle('Over the whole launch:', counts(32, 1024, { thread_inst_executed_pred_on: 1000 }), NAMES);
    expect(t.split('\n')).toEqual([
      'Over the whole launch:',
      'Instructions Executed (smsp__inst_executed): 32',
      'Thread Instructions Executed (smsp__thread_inst_executed): 1,024',
      'Predicated-On Thread Instructions Executed (smsp__thread_inst_executed_pred_on): 1,000',
      'Branch Targets (smsp__sass_branch_targets): 0',
      'Divergent Branch Targets (smsp__sass_branch_targets_threads_divergent): 0',
    ]);
  });
  it('say which predicated-on threads of a conditional branch ncu\'s metric leaves out', () => {
    expect(heatTitle('x', counts(4, 128, { thread_branch_condition_off: 12 }), NAMES)).toContain('12 did not take the branch');
  });
  it('say which waiting threads of a released BSYNC ncu\'s metrics count again', () => {
    expect(heatTitle('x', counts(5, 32, { thread_recounted: 30 }), NAMES)).toContain('also count 30 threads that waited here');
    expect(heatTitle('x', counts(5, 32), NAMES)).not.toContain('waited here');
  });
});

describe('rows and blocks', () => {
  const run: RunCounts = { by_pc: [counts(4), counts(4), null, counts(64), counts(1)], total: counts(73), whole_launch: true };
  it('give each listing line of an instruction its own counts; a sequence\'s later part has none', () => {
    const rows = listingHeat(run, [2, 3, 4, 6, 8], NAMES);
    expect(rows.map((r) => [r.line, r.label, r.level])).toEqual([[2, '4', 4 / 64], [3, '4', 4 / 64], [6, '64', 1], [8, '1', LEAST_LEVEL]]);
    expect(rows[2].title).toContain('every warp of every block');
    expect(listingHeat({ ...run, whole_launch: false }, [2, 3, 4, 6, 8], NAMES)[0].title).toContain('this warp');
  });
  it('add a block\'s instructions, against the hottest block', () => {
    const blocks = [{ id: 0, name: 'BB0', instrs: [{ index: 0 }, { index: 1 }, { index: 2 }] }, { id: 1, name: 'BB1', instrs: [{ index: 3 }, { index: 4 }] }];
    const heat = blockHeat(run, blocks, NAMES);
    expect(heat.map((h) => [h.block, h.label, h.level])).toEqual([[0, '8', 8 / 65], [1, '65', 1]]);
    expect(heat[1].title).toContain('Thread Instructions Executed (smsp__thread_inst_executed): 2,080');
    expect(heat[0].title.split('\n')[0]).toBe('BB0, its 3 instructions added, over the whole launch (every warp of every block):');
    expect(sumCounts([counts(1), null, counts(2)]).inst_executed).toBe(3);
  });
});

describe('long runs', () => {
  it('count the steps the engine replays: a launch\'s every block, else the warp\'s', () => {
    expect(countingSteps({ launch: null }, 1234)).toBe(1234);
    const launch = { totals: { steps: 9_000_000 } } as unknown as NonNullable<Parameters<typeof countingSteps>[0]['launch']>;
    expect(countingSteps({ launch }, 500)).toBe(9_000_000);
    expect(UNASKED_STEPS).toBeLessThan(9_000_000);
  });
  it('offer to count a run that waits to be asked; otherwise the button shows or hides the heat', () => {
    expect(heatButton({ on: true, waits: true }, 'x').text).toBe('count heat');
    expect(heatButton({ on: true, waits: false }, 'x')).toEqual(expect.objectContaining({ text: 'heat', title: expect.stringMatching(/^hide the heat: x/) }));
    expect(heatButton({ on: false, waits: false }, 'x').title).toMatch(/^show the heat/);
  });
});

/** WCAG's relative luminance of `#rrggbb`. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
};

describe('the heat colour', () => {
  const css = readFileSync(new URL('./style.css', import.meta.url), 'utf8');
  const colour = (name: string) => new RegExp(`--${name}:\\s*(#[0-9a-f]{6})`).exec(css)?.[1] ?? '';
  it('keeps the numbers (in the text colour) readable on the hottest cell, the floor being WCAG AA', () => {
    // The cells mix the panel's background towards --heat, so the hottest is the darkest.
    expect(contrast(colour('text'), colour('heat'))).toBeGreaterThanOrEqual(4.5);
    expect(contrast(colour('text'), colour('panel-bg'))).toBeGreaterThanOrEqual(4.5);
  });
});
