import { describe, expect, it } from 'vitest';
import { defaultExample, EXAMPLES, GROUPS } from './examples';

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

  it('lists the token-stack group in teaching order, each C kernel right after its assembly version', () => {
    const files = EXAMPLES.filter((e) => e.group === GROUPS[0].name).map((e) => e.file);
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

  it('groups the reconvergence-scheme kernels after the token-stack ones, Figure 1 first', () => {
    const files = EXAMPLES.map((e) => e.file);
    const schemes = EXAMPLES.filter((e) => e.group === GROUPS[1].name).map((e) => e.file);
    expect(schemes.slice(0, 4)).toEqual(['tf_figure1.sass', 'tf_barrier.cu', 'tf_exception.cu', 'tf_short_circuit.cu']);
    expect(files.indexOf('tf_figure1.sass')).toBeGreaterThan(files.indexOf('spin_lock.cu'));
    // Groups are contiguous: the gallery draws one heading per group.
    const order = EXAMPLES.map((e) => e.group).filter((g, i, all) => i === 0 || all[i - 1] !== g);
    expect(new Set(order).size).toBe(order.length);
  });

  it('puts every whole-launch kernel in a group of whole launches', () => {
    const grid = EXAMPLES.filter((e) => e.file.startsWith('grid/'));
    expect(grid.length).toBeGreaterThan(15);
    for (const e of grid) expect(e.group, e.file).toMatch(/^(Blocks of warps|Public kernels)/);
  });

  it('bundles the H100 report\'s kernels under their folder\'s name, apart from nvcc\'s SASS of the same name', () => {
    const timed = EXAMPLES.filter((e) => e.file.startsWith('h100/'));
    expect(timed.map((e) => e.file)).toEqual(GROUPS.find((g) => g.name.startsWith('Timed on an H100'))!.files);
    for (const e of timed) {
      expect(e.text, e.file).toMatch(/^\/\/@ preset h100-timed$/m);
      expect(e.group, e.file).toMatch(/^Timed on an H100/);
    }
    const single = EXAMPLES.filter((e) => e.file.endsWith('single_loop.sm_90.sass')).map((e) => e.file);
    expect(single.sort()).toEqual(['h100/single_loop.sm_90.sass', 'single_loop.sm_90.sass']);
    expect(EXAMPLES.find((e) => e.file === 'single_loop.sm_90.sass')?.cuda).toContain('__global__');
  });
});
