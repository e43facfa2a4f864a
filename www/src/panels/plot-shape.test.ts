import { describe, expect, it } from 'vitest';
import { depthTicks, stepTicks } from './plot-shape';

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

describe('stepTicks', () => {
  it('steps by 1, 2 or 5 times a power of ten, at most `most` intervals, 0 first', () => {
    expect(stepTicks(3493, 6)).toEqual([0, 1000, 2000, 3000]);
    expect(stepTicks(3493)).toEqual([0, 500, 1000, 1500, 2000, 2500, 3000]);
    expect(stepTicks(20)).toEqual([0, 5, 10, 15, 20]);
    expect(stepTicks(8)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(stepTicks(0)).toEqual([0]);
    expect(stepTicks(1_200_000, 3)).toEqual([0, 500_000, 1_000_000]);
  });
});
