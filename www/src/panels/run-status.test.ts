import { describe, expect, it } from 'vitest';
import type { Outcome } from '../generated/engine';
import { endWords, stepsText } from './run-status';

const stop = (kind: Outcome['kind'], message = 'why'): Outcome => ({ kind, step: 5, pc: 3, addr: 12, line: 13, message, summary: message });

describe('run status words', () => {
  it('counts steps in words a student reads at a glance', () => {
    expect(stepsText(1)).toBe('1 step');
    expect(stepsText(950)).toBe('950 steps');
    expect(stepsText(12_345)).toBe('12 k steps');
    expect(stepsText(3_249_999)).toBe('3.2 M steps');
    expect(stepsText(10_000_000)).toBe('10.0 M steps');
  });

  it('needs a strip only for a run that ended early, with a hint for the step limit', () => {
    expect(endWords(null)).toBeNull();
    expect(endWords(stop('exited'))).toBeNull();
    expect(endWords(stop('deadlock', 'lanes 1-31 run the loop'))).toEqual({ head: 'Deadlock', message: 'lanes 1-31 run the loop', hint: '' });
    expect(endWords(stop('stopped'))?.head).toBe('Stopped');
    expect(endWords(stop('fault'))?.head).toBe('Fault');
    expect(endWords(stop('step_limit'))).toMatchObject({ head: 'Step limit reached', hint: /Raise the step limit in Settings/ });
  });
});
