import { describe, expect, it } from 'vitest';
import { defaultExample, EXAMPLES } from './examples';

describe('examples gallery', () => {
  it('lists every bundled kernel with its title and about text', () => {
    expect(EXAMPLES.map((e) => e.file)).toContain('single_loop.sass');
    for (const e of EXAMPLES) {
      expect(e.title).not.toBe(e.file);
      expect(e.about.length).toBeGreaterThan(20);
      expect(e.text).toContain('//@ title');
    }
  });

  it('opens the Figure 3 walk-through first', () => {
    expect(defaultExample().file).toBe('fig3_walkthrough.sass');
  });

  it('lists the gallery in teaching order', () => {
    expect(EXAMPLES.map((e) => e.file)).toEqual(['fig3_walkthrough.sass', 'single_loop.sass', 'double_loop.sass',
      'hovland_if_else.sass', 'if_else.sass', 'three_way_if_else.sass', 'loop_with_break.sass']);
  });
});
