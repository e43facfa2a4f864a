import { describe, expect, it } from 'vitest';
import type { Finding, Side } from '../generated/engine';
import * as checks from './checks';
import { findingTitle } from './checks';

const side = (line: number): Side => ({ block: [0, 0, 0], warp: 0, thread: [0, 0, 0], step: 1, line, kind: 'read', addr: 0, element: null });
const finding = (tool: Finding['tool'], title: string, count: number): Finding =>
  ({ tool, severity: 'error', title, message: '', first: side(12), second: null, count, kernel: 'k', launch: null });

describe('a finding\'s title', () => {
  it('names its line once, and how many hazards or reads it stands for', () => {
    expect(findingTitle(finding('racecheck', 'Race reported between Read access at line 12 and Write access at line 12', 192)))
      .toBe('Race reported between Read access at line 12 and Write access at line 12 (192 hazards)');
    expect(findingTitle(finding('memcheck', 'Invalid __global__ write of size 4 bytes', 1))).toBe('line 12: Invalid __global__ write of size 4 bytes');
    expect(findingTitle(finding('initcheck', 'Uninitialized __shared__ memory read of size 4 bytes at line 12', 2)))
      .toBe('Uninitialized __shared__ memory read of size 4 bytes at line 12 (2 times)');
  });
});

describe('the scrubber\'s marks of the findings', () => {
  const at = (step: number, block: [number, number, number]): Side => ({ ...side(12), step, block });
  const report = (findings: Finding[]) => ({ kind: 'done' as const, report: { model: 'volta' as const, findings, unchecked: [] } });
  it('mark each finding of the launch and block shown at its second access, else its first', () => {
    const race = { ...finding('racecheck', 'Race', 3), first: at(5, [0, 0, 0]), second: at(9, [0, 0, 0]) };
    const fault = { ...finding('memcheck', 'Invalid', 1), severity: 'warning' as const, first: at(4, [0, 0, 0]) };
    const elsewhere = { ...finding('racecheck', 'Race', 1), first: at(2, [1, 0, 0]), second: at(3, [1, 0, 0]) };
    const marks = checks.marks(report([race, fault, elsewhere]), { launch: null, block: [0, 0, 0] });
    expect(marks.map((m) => [m.step, m.severity])).toEqual([[9, 'error'], [4, 'warning']]);
    expect(marks[0].label).toBe('racecheck: line 12: Race (3 hazards)');
  });
  it('mark nothing of another launch, of a failure (step 0), or before the checks ran', () => {
    const other = { ...finding('racecheck', 'Race', 1), launch: 1, first: at(5, [0, 0, 0]) };
    const failed = { ...finding('memcheck', 'Invalid', 1), first: at(0, [0, 0, 0]) };
    expect(checks.marks(report([other, failed]), { launch: 0, block: [0, 0, 0] })).toEqual([]);
    expect(checks.marks({ kind: 'none' }, { launch: null, block: [0, 0, 0] })).toEqual([]);
  });
});
