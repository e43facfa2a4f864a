// What the PTX tab of a SASS kernel says, from the engine's lining up of the PTX pasted.
import { describe, expect, it } from 'vitest';
import type { Beside } from '../generated/engine';
import { ptxNote } from './ptx';

const lined: Beside = { ptx_lines: [40, 41], cuda_lines: [14, 15], kernel: 'if_else', problem: null };
const problem = (kind: NonNullable<Beside['problem']>['kind'], message: string): Beside =>
  ({ ptx_lines: [], cuda_lines: [], kernel: null, problem: { kind, message, line: null } });

describe('the PTX tab\'s note', () => {
  it('asks for the PTX of the file the SASS names while nothing is pasted', () => {
    const empty = ptxNote(problem('not-ptx', 'This is not PTX'), '', 'if_else.cu');
    expect(empty).toMatchObject({ kind: 'empty', text: expect.stringMatching(/^Paste nvcc's PTX of if_else\.cu here \(nvcc -ptx -lineinfo\)/) });
    expect(ptxNote(null, '', null).text).toMatch(/^Paste nvcc's PTX of the \.cu file here/);
  });

  it('says the engine\'s reason when the PTX does not line up, and a SASS without lines at once', () => {
    expect(ptxNote(problem('other-kernel', 'This PTX has the kernels `saxpy`, not `if_else`'), '.version 9.0', 'if_else.cu'))
      .toEqual({ kind: 'other-kernel', text: 'This PTX has the kernels `saxpy`, not `if_else`' });
    expect(ptxNote(problem('sass-has-no-lines', 'This SASS has no line information'), '', null).kind).toBe('sass-has-no-lines');
  });

  it('names the kernel once the PTX lines up', () => {
    expect(ptxNote(lined, '.version 9.0', 'if_else.cu')).toEqual({ kind: 'mapped', text: 'PTX of if_else: click a line to light up its SASS' });
  });
});
