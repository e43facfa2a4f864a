import { describe, expect, it } from 'vitest';
import { hasMore } from './more-below';

describe('hasMore', () => {
  it('is true while text lies below the region, false at the end or when it all fits', () => {
    expect(hasMore(0, 80, 118)).toBe(true);
    expect(hasMore(30, 80, 118)).toBe(true);
    expect(hasMore(38, 80, 118)).toBe(false);
    // A fractional scroll position a pixel short of the end is the end.
    expect(hasMore(37.4, 80, 118)).toBe(false);
    expect(hasMore(0, 80, 80)).toBe(false);
    expect(hasMore(0, 80, 40)).toBe(false);
  });
});
