import { describe, expect, it } from 'vitest';
import { intTicks, niceStep, tickLabel, valueLabel, valueTicks } from './axes';

describe('sweep plot axes', () => {
  it('picks round steps', () => {
    expect(niceStep(1640, 6)).toBe(500);
    expect(niceStep(1, 5)).toBe(0.2);
    expect(niceStep(0, 5)).toBe(1);
  });

  it('widens the value range to whole steps', () => {
    const t = valueTicks(0, 1640, 6);
    expect(t).toMatchObject({ lo: 0, hi: 2000, step: 500 });
    expect(t.ticks).toEqual([0, 500, 1000, 1500, 2000]);
    expect(valueTicks(-3, 3, 2).ticks).toEqual([-5, 0, 5]);
    expect(valueTicks(0, 0, 4).ticks).toEqual([0, 0.5, 1]);
    expect(valueTicks(0, 1, 5).ticks).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
  });

  it('steps lane-sized param ranges by powers of two, longer ones by round steps', () => {
    expect(intTicks(0, 31, 10)).toEqual([0, 4, 8, 12, 16, 20, 24, 28]);
    expect(intTicks(0, 31, 20)).toEqual([0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30]);
    expect(intTicks(1, 32, 10)).toEqual([4, 8, 12, 16, 20, 24, 28, 32]);
    expect(intTicks(3, 3, 10)).toEqual([3]);
    expect(intTicks(0, 1000, 10)).toEqual([0, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000]);
    expect(intTicks(0, 64, 4)).toEqual([0, 16, 32, 48, 64]);
  });

  it('labels ticks and values for reading', () => {
    expect(tickLabel(1500, 500)).toBe('1,500');
    expect(tickLabel(250000, 50000)).toBe('250k');
    expect(tickLabel(1500000, 500000)).toBe('1.5M');
    expect(tickLabel(0.4, 0.2)).toBe('0.4');
    expect(tickLabel(0.25, 0.05)).toBe('0.25');
    expect(valueLabel(1092)).toBe('1,092');
    expect(valueLabel(0.983120)).toBe('0.9831');
  });
});
