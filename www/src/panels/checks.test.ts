import { describe, expect, it } from 'vitest';
import type { Finding, Side } from '../generated/engine';
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
