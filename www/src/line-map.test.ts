import { describe, expect, it } from 'vitest';
import { firstPcOfSource, lineMap, linesOf, listingLinesOfSource, sourceLineOfListing } from './line-map';

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
