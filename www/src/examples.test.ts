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

  it('lists the gallery in teaching order, each C kernel right after its assembly version', () => {
    const files = EXAMPLES.map((e) => e.file);
    expect(files.filter((f) => f.endsWith('.sass'))).toEqual(['fig3_walkthrough.sass', 'single_loop.sass', 'double_loop.sass',
      'hovland_if_else.sass', 'if_else.sass', 'three_way_if_else.sass', 'loop_with_break.sass']);
    expect(files).toContain('double_loop.cu');
    for (const [i, f] of files.entries()) {
      const asm = f.replace(/\.cu$/, '.sass');
      if (f.endsWith('.cu') && files.includes(asm)) expect(files[i - 1], f).toBe(asm);
    }
    // C kernels with no assembly version come after all the assembly ones.
    const lastAsm = Math.max(...files.map((f, i) => (f.endsWith('.sass') ? i : -1)));
    for (const [i, f] of files.entries()) if (!files.includes(f.replace(/\.cu$/, '.sass'))) expect(i, f).toBeGreaterThan(lastAsm);
  });
});
