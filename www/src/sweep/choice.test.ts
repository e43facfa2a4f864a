import { describe, expect, it } from 'vitest';
import { readSweepChoice } from './choice';
import { fullRequest } from './request';

const measured = { file: 'data/h100_loops.csv', build: 'O3', kernel: 'single_nounroll', pattern: 'table1' };

describe('sweep choice from a link or the saved work', () => {
  it('reads a full choice back as it was', () => {
    const choice = { request: fullRequest({ models: ['volta'], presets: ['h100'], split: { param: 'm', values: [1, 2] }, params: { m: 3 } }), metric: 'cycles', measured };
    expect(readSweepChoice(JSON.parse(JSON.stringify(choice)))).toEqual(choice);
    expect(readSweepChoice(undefined)).toBeNull();
    expect(readSweepChoice(null)).toBeNull();
  });

  it('fills left-out request fields with the defaults and drops unknown ones', () => {
    const r = readSweepChoice({ request: { param: 'k', from: 0, to: 32, later: 1 }, metric: 'spills' });
    expect(r).toEqual({ request: fullRequest({ param: 'k', to: 32 }), metric: 'spills', measured: null });
  });

  it('names what is malformed', () => {
    expect(readSweepChoice('sweep')).toMatch(/malformed/);
    expect(readSweepChoice({ request: { from: 0, to: 3 }, metric: 'cycles' })).toMatch(/lack "param"/);
    expect(readSweepChoice({ request: { param: 'n', from: 0.5, to: 3 }, metric: 'cycles' })).toMatch(/"from" is malformed/);
    expect(readSweepChoice({ request: { param: 'n', from: 0, to: 3, models: 'kepler' }, metric: 'cycles' })).toMatch(/"models"/);
    expect(readSweepChoice({ request: { param: 'n', from: 0, to: 3, split: { param: 'm', values: ['a'] } }, metric: 'cycles' })).toMatch(/"split"/);
    expect(readSweepChoice({ request: { param: 'n', from: 0, to: 3, costs: { spill: -1 } }, metric: 'cycles' })).toMatch(/"costs"/);
    expect(readSweepChoice({ request: { param: 'n', from: 0, to: 3 }, metric: 4 })).toMatch(/metric/);
    expect(readSweepChoice({ request: { param: 'n', from: 0, to: 3 }, metric: 'cycles', measured: { file: 1 } })).toMatch(/measured/);
  });
});
