import { describe, expect, it } from 'vitest';
import { blockCell, compareRows, presetCaveat } from './compare-table';
import type { ReportView } from './generated/engine';

// Figure 1 of the thread-frontier paper under pdom and tf-stack, as `Session.report()` gives them.
const exited = { kind: 'exited' as const, pc: null, addr: null, line: null, message: 'all lanes exited', summary: 'exited' };
const pdom: ReportView = {
  model: 'pdom', stop: { ...exited, step: 26 }, warp_instructions: 26, thread_instructions: 62, activity_factor: 0.5962,
  code_expansion: 0.368, code_expansion_missing: null, idle_instructions: 0, max_stack_depth: 3, divergent_branches: 3, cycles: 122,
  memory_instructions: 1, memory_transactions: 1, transactions_per_memory_instruction: 1,
  block_counts: [1, 1, 1, 2, 2, 2, 1], mimd_block_counts: [1, 1, 1, 1, 1, 1, 1], mimd_warp_instructions: 19, mimd_complete: true,
  transforms: null, static_expansion: null,
};
const tf: ReportView = {
  ...pdom, model: 'tf-stack', stop: { ...exited, step: 19 }, warp_instructions: 19, activity_factor: 0.8158, code_expansion: 0,
  divergent_branches: 4, cycles: 147, block_counts: [1, 1, 1, 1, 1, 1, 1],
};
// STRUCT on the same kernel: copies of BB3-BB5 (block counts are per original block, copies summed).
const struct: ReportView = {
  ...pdom, model: 'struct', stop: { ...exited, step: 28 }, warp_instructions: 28, thread_instructions: 64, activity_factor: 0.5714,
  code_expansion: 0.4737, cycles: 124,
  transforms: { forward_copies: 2, backward_copies: 0, cuts: 0, instructions_before: 19, instructions_after: 31 }, static_expansion: 0.6316,
};
const KEPLER = ['kepler', 'kepler'];
const names = ['BB0', 'BB1', 'BB2', 'BB3', 'BB4', 'BB5', 'BB6'];
const row = (rows: ReturnType<typeof compareRows>, key: string) => rows.find((r) => r.key === key)!;

describe('compareRows', () => {
  const rows = compareRows([pdom, tf], names, KEPLER);

  it('has one cell per model in every row, formatted for reading', () => {
    for (const r of rows) expect(r.cells).toHaveLength(2);
    expect(row(rows, 'warp_instructions').cells).toEqual(['26', '19']);
    expect(row(rows, 'activity_factor').cells).toEqual(['59.6 %', '81.6 %']);
    expect(row(rows, 'code_expansion').cells).toEqual(['+36.8 %', '0.0 %']);
    expect(row(rows, 'transactions_per_memory_instruction').cells).toEqual(['1.00', '1.00']);
    expect(row(rows, 'stop').cells).toEqual(['exited', 'exited']);
  });

  it('marks exactly the rows where the models differ', () => {
    const differing = rows.filter((r) => r.differ).map((r) => r.key);
    expect(differing).toEqual(['warp_instructions', 'activity_factor', 'code_expansion', 'divergent_branches', 'cycles', 'block-3', 'block-4', 'block-5']);
  });

  it('gives each block its executions beside the MIMD minimum', () => {
    expect(row(rows, 'block-3')).toMatchObject({ label: 'BB3 executions', cells: ['2 (min 1)', '1 (min 1)'], differ: true });
    expect(rows.filter((r) => r.key.startsWith('block-'))).toHaveLength(7);
    expect(blockCell(pdom, 9)).toBe('—');
  });

  it('says what has no value: the reference itself, a kernel without memory', () => {
    const mimd = { ...pdom, model: 'mimd', code_expansion: null, code_expansion_missing: 'the reference', transactions_per_memory_instruction: null };
    const r = compareRows([pdom, mimd], names, KEPLER);
    expect(row(r, 'code_expansion').cells).toEqual(['+36.8 %', 'n/a (the reference)']);
    expect(row(r, 'transactions_per_memory_instruction').cells[1]).toBe('no memory op');
  });

  it('shows a deadlock as the way the run ended, and differs from an exit', () => {
    const dead = { ...pdom, code_expansion: null, code_expansion_missing: 'stopped early', stop: { kind: 'deadlock' as const, step: 12, pc: 17, addr: 0x88, line: 22, message: 'BAR.SYNC at 0x0088: ...', summary: 'deadlock' } };
    const r = compareRows([dead, tf], names, KEPLER);
    expect(row(r, 'stop')).toMatchObject({ cells: ['deadlock', 'exited'], differ: true });
    // A partial run has no code expansion against the whole kernel's minimum (the engine gives none).
    expect(row(r, 'code_expansion').cells).toEqual(['n/a (stopped early)', '0.0 %']);
    expect(row(compareRows([{ ...pdom, code_expansion: null, code_expansion_missing: 'no MIMD minimum', mimd_complete: false }], names, KEPLER), 'code_expansion').cells).toEqual(['n/a (no MIMD minimum)']);
  });

  it('does not compare blocks of different programs (a C kernel compiled per model)', () => {
    const other = { ...tf, block_counts: [1, 1, 1, 1, 1], mimd_block_counts: [1, 1, 1, 1, 1] };
    const r = compareRows([pdom, other], null, KEPLER);
    const blocks = r.filter((x) => x.key.startsWith('block-'));
    expect(blocks).toHaveLength(7);
    expect(blocks.every((b) => !b.differ)).toBe(true);
    expect(blocks[6].cells).toEqual(['1 (min 1)', '—']);
  });

  it('warns, instead of highlighting, when the columns\' cycles use two cost presets', () => {
    expect(row(rows, 'cycles')).toMatchObject({ differ: true, caveat: null });
    const r = compareRows([pdom, tf], names, ['kepler', 'h100']);
    expect(row(r, 'cycles')).toMatchObject({ cells: ['122', '147'], differ: false, caveat: 'cycles under two cost presets (kepler, h100) are not comparable' });
    expect(r.filter((x) => x.caveat !== null).map((x) => x.key)).toEqual(['cycles']);
    expect(presetCaveat(['h100', 'h100'])).toBeNull();
  });

  it('has no transform rows when no model transforms the kernel', () => {
    expect(rows.filter((r) => r.group === 'code')).toEqual([]);
    expect(rows.map((r) => r.group)).toEqual([...Array(10).fill('run'), ...Array(7).fill('block')]);
  });
});

describe('compareRows with STRUCT', () => {
  const rows = compareRows([struct, pdom], names, KEPLER);

  it('adds its transforms and static code expansion, "—" for a model that runs the kernel as it is', () => {
    const code = rows.filter((r) => r.group === 'code');
    expect(code.map((r) => [r.key, r.cells])).toEqual([
      ['forward_copies', ['2', '—']],
      ['backward_copies', ['0', '—']],
      ['cuts', ['0', '—']],
      ['instructions', ['19 → 31', '—']],
      ['static_expansion', ['+63.2 %', '—']],
    ]);
    expect(row(rows, 'forward_copies')).toMatchObject({ label: 'forward copies (node splitting)', differ: true });
    expect(row(rows, 'static_expansion').hint).toContain('instructions');
    // Between the run's metrics and the blocks.
    expect([...new Set(rows.map((r) => r.group))]).toEqual(['run', 'code', 'block']);
  });

  it('lines its blocks up with PDOM\'s: the same original blocks, copies counted as the block they copy', () => {
    expect(rows.filter((r) => r.group === 'block').map((r) => r.label)).toEqual(names.map((n) => `${n} executions`));
    expect(row(rows, 'block-3')).toMatchObject({ cells: ['2 (min 1)', '2 (min 1)'], differ: false });
    expect(row(rows, 'warp_instructions')).toMatchObject({ cells: ['28', '26'], differ: true });
    expect(row(rows, 'code_expansion').cells).toEqual(['+47.4 %', '+36.8 %']);
  });

  it('compares two transformed runs cell by cell', () => {
    const other = { ...struct, transforms: { ...struct.transforms!, cuts: 1 }, static_expansion: null };
    const r = compareRows([struct, other], names, KEPLER);
    expect(row(r, 'forward_copies').differ).toBe(false);
    expect(row(r, 'cuts')).toMatchObject({ cells: ['0', '1'], differ: true });
    expect(row(r, 'instructions')).toMatchObject({ cells: ['19 → 31', '19 → 31'], differ: false });
    expect(row(r, 'static_expansion')).toMatchObject({ cells: ['+63.2 %', '—'], differ: true });
  });
});
