import { describe, expect, it } from 'vitest';
import { depthTicks } from './plot-shape';

describe('depthTicks', () => {
  it('gives about six ticks on a tall axis, as before', () => {
    expect(depthTicks(17)).toEqual([0, 3, 6, 9, 12, 15]);
    expect(depthTicks(17, 400)).toEqual([0, 3, 6, 9, 12, 15]);
    expect(depthTicks(4, 400)).toEqual([0, 1, 2, 3, 4]);
  });

  it('keeps labels apart on a short axis: fewer ticks, at a round step', () => {
    // The research layout's plot at 1280x720 had 0..15 on a 33 px axis, labels on top of each other.
    expect(depthTicks(17, 33)).toEqual([0, 10]);
    expect(depthTicks(17, 70)).toEqual([0, 5, 10, 15]);
    expect(depthTicks(17, 10)).toEqual([0]);
  });

  it('never puts two labels closer than the gap, at any height', () => {
    for (const maxDepth of [1, 2, 5, 9, 17, 33, 64, 250]) {
      for (let h = 0; h <= 400; h += 7) {
        const ticks = depthTicks(maxDepth, h, 16);
        expect(ticks[0]).toBe(0);
        expect(ticks.at(-1)!).toBeLessThanOrEqual(maxDepth);
        for (let i = 1; i < ticks.length; i++) expect(((ticks[i] - ticks[i - 1]) / maxDepth) * h).toBeGreaterThanOrEqual(16);
      }
    }
  });
});
