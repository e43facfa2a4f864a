// The caption's timing line against the real engine: a step run under the timing model says when
// it issued and why it waited; under a counting preset the caption says nothing of time.
import { describe, expect, it } from 'vitest';
import { Engine } from '../engine';
import { engineBytes, example } from '../test-engine';
import { timingOf } from './caption';

describe('caption timing', () => {
  it('gives the timing model\'s sentence and cycle for each step of a kernel under h100-timed', () => {
    const e = Engine.fromBytes(engineBytes(), (m) => { throw new Error(m); });
    expect(e.load(example('h100/branch_ifonly.sm_90.sass'), {})?.ok).toBe(true);
    let before = -1;
    for (const step of [1, 2, 3, 4]) {
      e.seek(step);
      const t = timingOf(e.state(0)?.last ?? null);
      expect(t?.text, `step ${step}`).toMatch(new RegExp(`^cycle ${t?.cycle}\\b`));
      expect(t!.cycle, `step ${step}`).toBeGreaterThan(before);
      before = t!.cycle;
    }
    // No step has run yet at step 0.
    e.seek(0);
    expect(timingOf(e.state(0)?.last ?? null)).toBeNull();
  });

  it('says nothing of time under a counting preset', () => {
    const e = Engine.fromBytes(engineBytes(), (m) => { throw new Error(m); });
    expect(e.load(example('h100/branch_ifonly.sm_90.sass'), { preset: 'h100' })?.ok).toBe(true);
    e.seek(3);
    expect(e.state(0)?.last).not.toBeNull();
    expect(timingOf(e.state(0)?.last ?? null)).toBeNull();
  });
});
