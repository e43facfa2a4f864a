// What the CUDA source tab says, from the engine's facts about the PTX and the text pasted.
import { describe, expect, it } from 'vitest';
import { cudaNote } from './cuda';

const facts = { code: 'ptx' as const, hasLoc: true, file: 'if_else.cu', lastLine: 26, textLines: 0 };

describe('the CUDA tab\'s note', () => {
  it('asks for the file the PTX names while nothing is pasted', () => {
    expect(cudaNote(facts)).toMatchObject({ kind: 'empty', text: expect.stringMatching(/^Paste if_else\.cu here, the file this PTX was compiled from \(nvcc -lineinfo\)/) });
    expect(cudaNote({ ...facts, file: null }).text).toMatch(/^Paste the \.cu file here/);
  });

  it('says how to get line information when the PTX has no .loc', () => {
    expect(cudaNote({ ...facts, hasLoc: false, file: null, lastLine: 0, textLines: 12 })).toMatchObject({
      kind: 'no-loc', text: expect.stringContaining('compile with nvcc -lineinfo'),
    });
  });

  it('warns when the text is shorter than the lines the PTX names', () => {
    expect(cudaNote({ ...facts, textLines: 20 })).toMatchObject({
      kind: 'short', text: 'The PTX names line 26 of if_else.cu, but this text has 20 lines: paste the whole file the PTX was compiled from.',
    });
    expect(cudaNote({ ...facts, textLines: 26 }).kind).toBe('mapped');
  });

  it('names SASS for real SASS, and nvdisasm -g as the way to its lines', () => {
    const sass = { ...facts, code: 'sass' as const };
    expect(cudaNote({ ...sass, textLines: 26 }).text).toBe('if_else.cu: click a line to light up its SASS');
    expect(cudaNote(sass).text).toMatch(/the file this SASS was compiled from .* lights up the SASS made from it/);
    expect(cudaNote({ ...sass, hasLoc: false }).text).toContain('nvdisasm -g');
  });
});
