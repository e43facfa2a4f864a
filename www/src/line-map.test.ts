import { describe, expect, it } from 'vitest';
import {
  cudaLineOfPc, cudaLinesOfListing, cudaLinesOfPtx, ptxLinesOfCuda, ptxMap, linkedLines, cudaLinesOfSource, firstPcOfCuda, firstPcOfSource, lineMap, linesOf, listingLinesOfCuda, listingLinesOfSource,
  pcsOfCudaLines, sourceLineOfListing, sourceLinesOfCuda,
} from './line-map';

// A loop header on C line 16 compiled into pcs 0-1 and, after the body (line 18), pcs 3-4.
const m = lineMap([16, 16, 18, 16, 16], [3, 4, 7, 9, 10]);

describe('line map', () => {
  it('breaks on the first instruction of a source line', () => {
    expect(firstPcOfSource(m, 16)).toBe(0);
    expect(firstPcOfSource(m, 18)).toBe(2);
    expect(firstPcOfSource(m, 17)).toBeUndefined();
  });

  it('links a source line to all its listing lines, and a listing line to its source line', () => {
    expect(listingLinesOfSource(m, 16)).toEqual([3, 4, 9, 10]);
    expect(listingLinesOfSource(m, null)).toEqual([]);
    expect(sourceLineOfListing(m, 7)).toEqual([18]);
    expect(sourceLineOfListing(m, 5)).toEqual([]); // a comment or label line
  });

  it('maps breakpoints to lines, skipping pcs that no longer exist', () => {
    expect(linesOf(m.listingOfPc, [4, 2, 99])).toEqual([10, 7]);
    expect(linesOf(lineMap([5, 6]).listingOfPc, [0])).toEqual([]);
  });
});

// PTX with .loc: PTX lines 40-47 (pc 3 is an SSY warpscope inserted, on the branch's line 43 and
// with no CUDA line), listing lines 5-12, CUDA lines 15 and 16 (line 16's code split around 15's).
const ptx = lineMap([40, 41, 42, 43, 43, 45, 47], [5, 6, 7, 8, 9, 11, 12], [15, 16, 15, 0, 15, 16, 17]);

describe('line map of PTX and its CUDA source', () => {
  it('a CUDA line lights up every PTX and listing line made from it, in order, each once', () => {
    expect(pcsOfCudaLines(ptx, [15])).toEqual([0, 2, 4]);
    expect(sourceLinesOfCuda(ptx, [15])).toEqual([40, 42, 43]);
    expect(listingLinesOfCuda(ptx, [15])).toEqual([5, 7, 9]);
    // A selection of several CUDA lines.
    expect(sourceLinesOfCuda(ptx, [16, 17])).toEqual([41, 45, 47]);
    // A line no instruction came from (a comment, a brace), and 0 (no line) never matches.
    expect(sourceLinesOfCuda(ptx, [20])).toEqual([]);
    expect(listingLinesOfCuda(ptx, [0])).toEqual([]);
  });

  it('a PTX or listing line lights up its CUDA lines, skipping inserted instructions', () => {
    expect(cudaLinesOfSource(ptx, 43)).toEqual([15]);
    expect(cudaLinesOfSource(ptx, 44)).toEqual([]);
    expect(cudaLinesOfSource(ptx, null)).toEqual([]);
    expect(cudaLinesOfListing(ptx, 11)).toEqual([16]);
    expect(cudaLinesOfListing(ptx, 8)).toEqual([]); // the inserted SSY
    expect(cudaLinesOfListing(ptx, 10)).toEqual([]); // no instruction there
  });

  it('follows the current instruction and puts a breakpoint on a CUDA line\'s first instruction', () => {
    expect(cudaLineOfPc(ptx, 5)).toBe(16);
    expect(cudaLineOfPc(ptx, 3)).toBeNull();
    expect(cudaLineOfPc(ptx, null)).toBeNull();
    expect(cudaLineOfPc(ptx, 99)).toBeNull();
    expect(firstPcOfCuda(ptx, 16)).toBe(1);
    expect(firstPcOfCuda(ptx, 0)).toBeUndefined();
  });

  it('lights up the other panes for a pointer, and its own lines too for a click', () => {
    expect(linkedLines(ptx, { pane: 'cuda', lines: [15], pick: true })).toEqual({ source: [40, 42, 43], listing: [5, 7, 9], cuda: [15], ptx: [] });
    expect(linkedLines(ptx, { pane: 'cuda', lines: [15], pick: false }).cuda).toEqual([]);
    expect(linkedLines(ptx, { pane: 'source', lines: [43], pick: true })).toEqual({ source: [43], listing: [8, 9], cuda: [15], ptx: [] });
    expect(linkedLines(ptx, { pane: 'listing', lines: [11], pick: false })).toEqual({ source: [45], listing: [], cuda: [16], ptx: [] });
    expect(linkedLines(ptx, null)).toEqual({ source: [], listing: [], cuda: [], ptx: [] });
    // A C kernel: the source and the listing only, as hovering did before.
    expect(linkedLines(m, { pane: 'source', lines: [16], pick: false })).toEqual({ source: [], listing: [3, 4, 9, 10], cuda: [], ptx: [] });
  });

  it('lines up the PTX beside a SASS kernel through the CUDA lines both name', () => {
    // The SASS is `ptx` here (its source lines are SASS lines); its PTX has lines 30-33 from CUDA 15 and 16.
    const beside = ptxMap({ ptx_lines: [30, 31, 32, 33], cuda_lines: [15, 15, 16, 16] });
    expect(ptxLinesOfCuda(beside, [16, 99])).toEqual([32, 33]);
    expect(cudaLinesOfPtx(beside, [31, 32, 40])).toEqual([15, 16]);
    // A PTX line lights up its CUDA line and the SASS made from it...
    expect(linkedLines(ptx, { pane: 'ptx', lines: [30], pick: true }, beside)).toEqual({ source: [40, 42, 43], listing: [5, 7, 9], cuda: [15], ptx: [30] });
    // ...and a SASS or CUDA line its PTX lines.
    expect(linkedLines(ptx, { pane: 'source', lines: [43], pick: false }, beside).ptx).toEqual([30, 31]);
    expect(linkedLines(ptx, { pane: 'cuda', lines: [16], pick: true }, beside).ptx).toEqual([32, 33]);
    // A PTX line of no CUDA line of the SASS lights up nothing.
    expect(linkedLines(ptx, { pane: 'ptx', lines: [40], pick: false }, beside)).toEqual({ source: [], listing: [], cuda: [], ptx: [] });
  });

    it('has no CUDA lines without .loc', () => {
    expect(m.pcsOfCuda.size).toBe(0);
    expect(cudaLinesOfSource(m, 16)).toEqual([]);
    expect(cudaLineOfPc(m, 0)).toBeNull();
  });
});
