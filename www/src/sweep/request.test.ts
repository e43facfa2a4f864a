import { describe, expect, it } from 'vitest';
import { fullRequest, parseValues, runCount, settingsFor } from './request';

const params = [{ name: 'paths', default: 4, value: 4, float: false }, { name: 'layout', default: 0, value: 0, float: false }];

describe('sweep settings', () => {
  it('fills what a figure leaves out with the facade defaults', () => {
    const r = fullRequest({ param: 'k', to: 32, presets: ['tesla'] });
    expect(r).toEqual({
      param: 'k', from: 0, to: 32, models: [], presets: ['tesla'], split: null, params: {}, costs: {}, stack: null,
      model: null, preset: null, ifConvert: null, pathOrder: null, schedule: null, warpScheduler: null, oneWarp: null, launch: null, kernelOnly: null, block: null, step_limit: null,
    });
  });

  it('keeps the last settings for a kernel that has their params, else starts on its first param', () => {
    const last = fullRequest({ param: 'layout', split: { param: 'paths', values: [1, 2] } });
    expect(settingsFor(params, last, 'kepler', 'tesla')).toBe(last);
    expect(settingsFor(params, fullRequest({ param: 'n' }), 'volta', 'h100')).toEqual(fullRequest({ param: 'paths', models: ['volta'], presets: ['h100'] }));
    expect(settingsFor(params, fullRequest({ param: 'paths', split: { param: 'n', values: [1] } }), 'kepler', 'kepler')?.param).toBe('paths');
    expect(settingsFor([], null, 'kepler', 'kepler')).toBeNull();
  });

  it('reads split values as numbers and ranges, and says what is wrong', () => {
    expect(parseValues('1, 2')).toEqual([1, 2]);
    expect(parseValues(' 0..3 , 8,')).toEqual([0, 1, 2, 3, 8]);
    expect(parseValues('-2..-1')).toEqual([-2, -1]);
    expect(parseValues('')).toMatch(/at least one/);
    expect(parseValues('1, two')).toMatch(/"two" is not a whole number/);
    expect(parseValues('4..1')).toMatch(/downwards/);
    expect(parseValues('1.5')).toMatch(/not a whole number/);
  });

  it('counts the runs: x values times models times presets times split values', () => {
    expect(runCount(fullRequest({ models: ['kepler'], presets: ['kepler', 'maxwell'] }))).toBe(64);
    expect(runCount(fullRequest({ param: 'paths', from: 1, to: 32, split: { param: 'layout', values: [1, 2] } }))).toBe(64);
    expect(runCount(fullRequest({ from: 5, to: 4 }))).toBe(0);
  });
});
