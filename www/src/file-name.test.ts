// Download names: every export is `warpscope-<subject>-<model>-<what>.<ext>`, slugged from the whole title.
import { describe, expect, it } from 'vitest';
import { exportName, slug, SLUG_MAX } from './file-name';

describe('slug', () => {
  it('keeps every word of a title, in lower case, joined by dashes', () => {
    expect(slug('Figure 3 walk-through: the single loop at n = 2, step by step')).toBe('figure-3-walk-through-the-single-loop-at-n-2-step-by-step');
    expect(slug("Hovland's if/else (Branch Performance on the Tesla Architecture, Fig. 2)"))
      .toBe('hovlands-if-else-branch-performance-on-the-tesla-architecture-fig-2');
    expect(slug('Réduction à deux niveaux')).toBe('reduction-a-deux-niveaux');
    expect(slug('  ???  ')).toBe('');
  });

  it('cuts a long title after its last whole word that fits, never inside a word', () => {
    const title = 'Thread frontiers on Sandy Bridge: a conservative branch runs a block with no lane, and then some more words';
    const s = slug(title);
    expect(s.length).toBeLessThanOrEqual(SLUG_MAX);
    expect(slug(title, SLUG_MAX + 1000).startsWith(`${s}-`)).toBe(true);
    expect(slug('alpha beta gamma', 12)).toBe('alpha-beta');
    expect(slug('alpha beta gamma', 10)).toBe('alpha-beta');
    // Only a single word longer than the limit is cut inside.
    expect(slug('abcdefghijklmnop', 5)).toBe('abcde');
  });
});

describe('exportName', () => {
  it('names the subject, the model and what the file holds', () => {
    expect(exportName({ subject: 'Single loop (Bialas & Strzelecki, Listing 3)', model: 'kepler', what: 'stack-history', ext: 'svg' }))
      .toBe('warpscope-single-loop-bialas-strzelecki-listing-3-kepler-stack-history.svg');
    expect(exportName({ subject: 'Single loop', model: 'pdom-ssy', what: 'trace', ext: 'csv' })).toBe('warpscope-single-loop-pdom-ssy-trace.csv');
    expect(exportName({ subject: 'hovland-fig5', what: 'sweep', ext: 'png' })).toBe('warpscope-hovland-fig5-sweep.png');
  });

  it('a kernel with no title, or one with no letters or digits, is "kernel"', () => {
    expect(exportName({ subject: null, model: 'volta', what: 'trace', ext: 'csv' })).toBe('warpscope-kernel-volta-trace.csv');
    expect(exportName({ subject: '<>/\\', what: 'sweep', ext: 'csv' })).toBe('warpscope-kernel-sweep.csv');
  });
});
