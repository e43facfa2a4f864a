// SVG written as text: attribute values and text escaped, characters XML forbids dropped.
import { describe, expect, it } from 'vitest';
import { markup, node } from './svg-markup';

describe('markup', () => {
  it('writes elements, attributes and text', () => {
    expect(markup(node('svg', { width: 4 }, node('rect', { x: 1 }), node('text', {}, 'a')))).toBe('<svg width="4"><rect x="1"/><text>a</text></svg>');
  });

  it('escapes markup in text and attributes, so a title cannot add elements', () => {
    const evil = '"><script>alert(1)</script> & <img src=x onerror=alert(1)>';
    const out = markup(node('g', { 'font-family': evil }, node('title', {}, evil)));
    expect(out).not.toMatch(/<script|<img/);
    expect(out).toContain('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;img');
  });

  it('drops characters XML does not allow, keeping tabs, newlines and the rest of Unicode', () => {
    expect(markup(node('text', {}, 'a\u0000b\u001bc\td\ne · é'))).toBe('<text>abc\td\ne · é</text>');
  });
});
