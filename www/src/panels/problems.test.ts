import { describe, expect, it } from 'vitest';
import type { DiagnosticView } from '../generated/engine';
import { sorted, summaryText } from './problems';

const d = (severity: DiagnosticView['severity'], line: number, col = 1, message = 'm'): DiagnosticView => ({ severity, line, col, len: 1, message });

describe('problems', () => {
  it('lists errors first, each kind in line and column order', () => {
    const list = sorted([d('info', 1), d('warning', 5), d('error', 9, 4), d('error', 9, 2), d('error', 3)]);
    expect(list.map((x) => `${x.severity}:${x.line}:${x.col}`)).toEqual(['error:3:1', 'error:9:2', 'error:9:4', 'warning:5:1', 'info:1:1']);
  });

  it('sums up with the first error named, and says what the views show', () => {
    expect(summaryText([], true)).toBe('');
    expect(summaryText([d('warning', 2)], true)).toBe('1 warning');
    expect(summaryText([d('info', 2), d('info', 9), d('warning', 4)], true)).toBe('1 warning, 2 notes');
    expect(summaryText([d('error', 7, 3, 'unknown opcode `FROB`'), d('error', 2, 1, 'first')], true))
      .toBe('2 errors: showing the last run that worked · line 2:1: first');
    expect(summaryText([d('error', 4, 1, 'x')], false)).toBe('1 error in the kernel: fix it to run it · line 4:1: x');
  });
});
