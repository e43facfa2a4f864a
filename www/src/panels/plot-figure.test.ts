// The stack-history figure for papers: the whole run drawn solid, with none of the panel's
// on-screen parts (cursor, faded future, clip to the step), a legend of only what is drawn, and
// the title only when asked for.
import { describe, expect, it } from 'vitest';
import { stackFigure, wrap, type FigureLook } from './plot-figure';
import type { PlotData } from './plot';

const look: FigureLook = {
  font: '"DejaVu Sans", sans-serif', text: '#111', background: '#fff', line: '#05a', capacity: '#b00', spill: '#b00', fill: '#07b',
};
// A run short enough that the engine's columns are its steps' depths.
const depth = Uint32Array.from([1, 2, 3, 2, 1, 0]);
const plain: PlotData = {
  steps: depth.length, deepest: 3, columns: () => depth, marks: () => new Uint32Array(0), depthAt: (k) => (k === 0 ? 0 : depth[k - 1]), capacity: null, counts: 'tokens',
};
const options = { title: 'Single loop <n> · kepler', titled: false };

describe('stackFigure', () => {
  it('draws the whole run with no cursor, nothing faded and nothing clipped', () => {
    const { text, width, height } = stackFigure(plain, look, options);
    expect(text.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(text).toContain(`width="${width}" height="${height}"`);
    expect(text).not.toMatch(/circle|plot-cursor|cursor|clip|opacity/);
    // One horizontal run per step: the path reaches the end of the run.
    const d = /<path id="depth" d="([^"]*)"/.exec(text)![1];
    expect(d.match(/H/g)).toHaveLength(depth.length);
    expect(text).toContain('executed instructions');
    expect(text).toContain('stack depth');
  });

  it('names itself in <title> always, and draws the title only when asked', () => {
    const bare = stackFigure(plain, look, options).text;
    expect(bare).toContain('<title>Single loop &lt;n&gt; · kepler</title>');
    expect(bare).not.toContain('id="title"');
    const titled = stackFigure(plain, look, { ...options, titled: true });
    expect(titled.text).toMatch(/<g id="title"[^>]*><text[^>]*>Single loop &lt;n&gt; · kepler<\/text><\/g>/);
    expect(titled.height).toBeGreaterThan(stackFigure(plain, look, options).height);
  });

  it('explains in the legend only what is drawn: the capacity line and marks when there are any', () => {
    expect(stackFigure(plain, look, options).text).not.toMatch(/capacity|spill|fill from/);
    // A spill at step 3 (depth 3 after it).
    const spilled = stackFigure({ ...plain, capacity: 2, marks: () => Uint32Array.from([3, 1, 3]) }, look, options).text;
    expect(spilled).toContain('on-chip capacity 2');
    expect(spilled).toContain('spill to memory');
    expect(spilled).not.toContain('fill from memory');
    expect(spilled).toContain('id="capacity"');
  });
});

describe('wrap', () => {
  it('breaks between words into at most the lines given, ending what does not fit in an ellipsis', () => {
    expect(wrap('one two three', 20, 2)).toEqual(['one two three']);
    expect(wrap('one two three', 8, 2)).toEqual(['one two', 'three']);
    expect(wrap('one two three four', 8, 2)).toEqual(['one two', 'three…']);
    expect(wrap('abcdefghijkl', 8, 2)).toEqual(['abcdefg…']);
  });
});
