import { describe, expect, it } from 'vitest';
import type { OutcomeKind, SweepPoint } from '../generated/engine';
import { plotData, type PlotInput } from './plot-data';

const metrics = { steps: 0, warp_instructions: 0, thread_instructions: 0, simd_efficiency: 1, pushes: 0, pops: 0, max_stack_depth: 0, fills: 0, divergent_branches: 0, clock_window: 0 };
const point = (series: number, x: number, cycles: number, stop: OutcomeKind = 'exited'): SweepPoint => ({
  series, x, metrics: { ...metrics, cycles, spills: x > 1 ? 1 : 0 },
  stop: { kind: stop, step: 0, pc: 34, addr: 0x88, line: 7, message: 'stuck', summary: stop === 'exited' ? 'exited after 0 steps' : `${stop} at 0x0088: stuck` },
});

const input: PlotInput = {
  title: 't', subtitle: 's', param: 'n', from: 0, to: 3, metric: { name: 'cycles', label: 'cycles (cost model)', cycles: true },
  series: [{ label: 'kepler · kepler', model: 'kepler', preset: 'kepler', split_value: null }, { label: 'kepler · maxwell', model: 'kepler', preset: 'maxwell', split_value: null }],
  // Points arrive in point order: x grows, series interleave.
  points: [point(0, 0, 10), point(1, 0, 9), point(0, 1, 20), point(1, 1, 18, 'deadlock')],
  measured: null,
};

describe('sweep plot data', () => {
  it('gives each series its runs by x, with why a run stopped early', () => {
    const d = plotData(input);
    expect(d.series.map((s) => s.label)).toEqual(['kepler · kepler', 'kepler · maxwell']);
    expect(d.series[1].points).toEqual([{ x: 0, y: 9, stop: null }, { x: 1, y: 18, stop: 'deadlock at 0x0088: stuck' }]);
    expect(d).toMatchObject({ xLabel: 'n', yLabel: 'cycles (cost model)', measured: null, residuals: null, note: '' });
    expect(plotData({ ...input, metric: { name: 'spills', label: 'stack spills', cycles: false } }).series[0].points.map((p) => p.y)).toEqual([0, 0]);
  });

  it('beside measurements, draws the engine\'s predictions, the measured dots in range and the residuals', () => {
    const fit = { base: 100, at: 0, fitted: true, rows: [{ x: 0, measured: 110, predicted: 110, residual: 0 }, { x: 1, measured: 121, predicted: 120, residual: 1 }] };
    const d = plotData({ ...input, measured: { label: 'measured: single', points: [[0, 110], [1, 121], [9, 500]], fits: [fit, null] } });
    expect(d.series[0]).toEqual({ name: 'kepler · kepler', label: 'kepler · kepler + base 100 cycles fitted at n = 0', points: [{ x: 0, y: 110, stop: null }, { x: 1, y: 120, stop: null }] });
    expect(d.series[1].label).toMatch(/no x in common/);
    expect(d.measured?.points).toEqual([{ x: 0, y: 110 }, { x: 1, y: 121 }]);
    expect(d.residuals).toEqual([[{ x: 0, y: 0 }, { x: 1, y: 1 }], []]);
  });

  it('beside measurements under clock_window, labels a timing model\'s own prediction as nothing fitted', () => {
    const timed = { base: 0, at: 0, fitted: false, rows: [{ x: 0, measured: 110, predicted: 112, residual: -2 }, { x: 1, measured: 121, predicted: 120, residual: 1 }] };
    const counted = { base: 100, at: 0, fitted: true, rows: [{ x: 0, measured: 110, predicted: 110, residual: 0 }] };
    const d = plotData({
      ...input, metric: { name: 'clock_window', label: 'cycles between lane 0\'s clock reads', cycles: true },
      measured: { label: 'measured: single', points: [[0, 110], [1, 121]], fits: [timed, counted] },
    });
    expect(d.series[0].label).toBe('kepler · kepler: the timing model\'s own prediction, nothing fitted');
    expect(d.series[0].label).not.toMatch(/base/);
    expect(d.series[0].points.map((p) => p.y)).toEqual([112, 120]);
    expect(d.series[1].label).toBe('kepler · maxwell + base 100 cycles fitted at n = 0');
    expect(d.measured?.points).toEqual([{ x: 0, y: 110 }, { x: 1, y: 121 }]);
    expect(d.residuals?.[0]).toEqual([{ x: 0, y: -2 }, { x: 1, y: 1 }]);
    expect(d).toMatchObject({ yLabel: 'cycles (measured and predicted)', note: '' });
  });

  it('says why measurements do not show under another metric', () => {
    const d = plotData({ ...input, metric: { name: 'spills', label: 'stack spills', cycles: false }, measured: { label: 'measured: single', points: [[0, 1]], fits: null } });
    expect(d.measured).toBeNull();
    expect(d.note).toMatch(/cycles metric/);
    expect(d.residuals).toBeNull();
  });
});
