import { describe, expect, it } from 'vitest';
import { CAPTION_ROOM, standalone, STYLED, styleText } from './cfg-export';
import { exportName } from './file-name';

const cfgFileName = (title: string | null, model: string) => exportName({ subject: title, model, what: 'cfg', ext: 'svg' });

describe('the standalone CFG file', () => {
  it('writes each element\'s look as an inline style, leaving out what viewers assume anyway', () => {
    const computed: Record<string, string> = {
      fill: 'rgb(255, 255, 255)', 'fill-opacity': '1', stroke: 'rgb(74, 82, 96)', 'stroke-width': '1.3px', 'stroke-dasharray': 'none',
      'stroke-linecap': 'butt', opacity: '1',
    };
    expect(styleText(STYLED.rect, (p) => computed[p] ?? '')).toBe('fill: rgb(255, 255, 255); stroke: rgb(74, 82, 96); stroke-width: 1.3px');
    const text: Record<string, string> = {
      fill: 'rgb(26, 31, 41)', 'font-family': '"DejaVu Sans Mono", monospace', 'font-size': '13.5px', 'font-weight': '400', 'white-space': 'pre', opacity: '1',
    };
    expect(styleText(STYLED.text, (p) => text[p] ?? '')).toBe('fill: rgb(26, 31, 41); font-family: "DejaVu Sans Mono", monospace; font-size: 13.5px; white-space: pre');
    // Every element that draws something gets styled: shapes with their stroke, text with its font.
    for (const tag of ['path', 'rect', 'circle', 'line']) expect(STYLED[tag]).toEqual(expect.arrayContaining(['fill', 'stroke', 'stroke-width', 'stroke-dasharray']));
    expect(STYLED.text).toEqual(expect.arrayContaining(['fill', 'font-family', 'font-size', 'font-weight', 'white-space']));
  });

  it('is a whole SVG document: namespace, size, background, title and caption, text escaped', () => {
    const out = standalone('<g/>', { width: 300.4, height: 200, title: 'warpscope: a <b> & "c"', caption: 'if & else · kepler' });
    expect(out.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(out).toContain(`width="301" height="${200 + CAPTION_ROOM}" viewBox="0 0 301 ${200 + CAPTION_ROOM}"`);
    expect(out).toContain('xml:space="preserve"');
    expect(out).toContain('<title>warpscope: a &lt;b&gt; &amp; &quot;c&quot;</title>');
    expect(out).toContain('style="fill: #ffffff"');
    expect(out).toContain('>if &amp; else · kepler</text>');
    expect(out).toContain(`<g transform="translate(0,${CAPTION_ROOM})"><g/></g>`);
    expect(out.trimEnd().endsWith('</svg>')).toBe(true);
    // A narrow graph's file is still wide enough for its caption.
    expect(standalone('', { width: 100, height: 50, title: '', caption: 'x'.repeat(60) })).toContain('width="476"');
    // Nothing in it refers to the page: no class-based stylesheet, no external reference.
    expect(out).not.toMatch(/<style|class=|href=/);
  });

  it('is named after the kernel\'s title and the model', () => {
    expect(cfgFileName('Double loop in C', 'kepler')).toBe('warpscope-double-loop-in-c-kepler-cfg.svg');
    expect(cfgFileName('<img src=x onerror=alert(1)>', 'tf-stack')).toBe('warpscope-img-src-x-onerror-alert-1-tf-stack-cfg.svg');
    expect(cfgFileName(null, 'volta')).toBe('warpscope-kernel-volta-cfg.svg');
    expect(cfgFileName('  ', 'pdom')).toBe('warpscope-kernel-pdom-cfg.svg');
    expect(cfgFileName('x'.repeat(200), 'pdom')).toBe(`warpscope-${'x'.repeat(80)}-pdom-cfg.svg`);
  });
});
