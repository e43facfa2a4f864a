//! The CFG as a standalone SVG file: the whole graph with every instruction, drawn by the panel's
//! own code (`panels/cfg-draw.ts`) into a hidden host where the page's CSS applies, then each
//! element's computed look written into its own `style` attribute. The file needs no stylesheet,
//! so it opens the same in a browser, an editor or a slide. The current step's highlight (block,
//! instruction, waiting lanes) is optional.

import type { Layout } from './cfg-layout';
import type { StepMarks } from './cfg-struct';
import type { CfgView } from './generated/engine';
import type { BlockHeat } from './heat';
import { drawGraph, drawHeat, drawStep, markerDefs } from './panels/cfg-draw';
import { svg } from './svg';

/** The properties that make up the CFG's look, per kind of element (the rest are defaults). */
const SHAPE = ['fill', 'fill-opacity', 'stroke', 'stroke-width', 'stroke-dasharray', 'stroke-linecap', 'opacity'];
const TEXT = ['fill', 'font-family', 'font-size', 'font-weight', 'white-space', 'opacity'];
export const STYLED: Record<string, string[]> = { path: SHAPE, rect: SHAPE, circle: SHAPE, line: SHAPE, text: TEXT, g: ['opacity'] };

/** Values that are what an SVG viewer assumes anyway, left out to keep the file small. */
const DEFAULTS: Record<string, string[]> = {
  'fill-opacity': ['1'], 'stroke-dasharray': ['none'], 'stroke-linecap': ['butt'], opacity: ['1'], 'font-weight': ['400', 'normal'],
  'white-space': ['normal'], stroke: ['none'], 'stroke-width': ['1px'],
};

/** A `style` attribute's text for `props`, read from `value` (a computed style); defaults left out. */
export function styleText(props: string[], value: (prop: string) => string): string {
  return props
    .map((p) => [p, value(p).trim()] as const)
    .filter(([p, v]) => v !== '' && !DEFAULTS[p]?.includes(v))
    .map(([p, v]) => `${p}: ${v}`)
    .join('; ');
}

export interface Framing { width: number; height: number; title: string; caption: string }

/** The file's outer element around `body` (serialized graph markup): its size, a white
 * background, a title for viewers and a caption line above the graph. */
export function standalone(body: string, f: Framing): string {
  const esc = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  // Wide enough for the caption too (about 7.4 px per character of 13 px sans).
  const w = Math.ceil(Math.max(f.width, f.caption.length * 7.4 + 32)), h = Math.ceil(f.height + CAPTION_ROOM);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" xml:space="preserve">`,
    `<title>${esc(f.title)}</title>`,
    `<rect x="0" y="0" width="${w}" height="${h}" style="fill: #ffffff"/>`,
    `<text x="16" y="20" style="fill: #5a6372; font-family: 'DejaVu Sans', 'Segoe UI', system-ui, sans-serif; font-size: 13px">${esc(f.caption)}</text>`,
    `<g transform="translate(0,${CAPTION_ROOM})">${body}</g>`,
    '</svg>',
  ].join('\n');
}

/** Room above the graph for the caption line. */
export const CAPTION_ROOM = 28;

/** Writes each element's computed look into its `style`, then drops the page's own attributes
 * (all styles first: a descendant's look may depend on its ancestors' classes). */
function inlineStyles(root: Element): void {
  const all = [root, ...root.querySelectorAll('*')];
  const styles = all.map((el) => {
    const props = STYLED[el.localName];
    if (!props) return '';
    const css = getComputedStyle(el);
    return styleText(props, (p) => css.getPropertyValue(p));
  });
  all.forEach((el, i) => {
    if (styles[i]) el.setAttribute('style', styles[i]);
    for (const a of [...el.attributes]) if (a.name === 'class' || a.name.startsWith('data-')) el.removeAttribute(a.name);
  });
}

export interface CfgExport {
  cfg: CfgView;
  /** The full layout (every instruction), not a compare side's compact one. */
  layout: Layout;
  /** The step to highlight, or null for the plain graph. */
  state: StepMarks | null;
  title: string;
  caption: string;
  /** The instructions are the run's (false: STRUCT's original graph). */
  rows?: boolean;
  /** The blocks' heat, drawn in the layout's heat rows. */
  heat?: readonly BlockHeat[] | null;
}

/** The standalone SVG text of a CFG. */
export function cfgSvgText(x: CfgExport): string {
  // Drawn where the page's CSS applies, out of sight; removed again below.
  const host = svg('svg', { class: 'cfg-svg cfg-export', width: x.layout.width, height: x.layout.height, 'aria-hidden': 'true' });
  host.style.cssText = 'position: absolute; left: -100000px; top: 0; visibility: hidden; pointer-events: none';
  const graph = drawGraph(x.cfg, x.layout, { hints: false, rows: x.rows ?? true });
  const overlay = svg('g');
  host.append(markerDefs(), graph, overlay);
  document.body.append(host);
  try {
    if (x.state) drawStep(graph, overlay, x.cfg, x.layout, x.state, []);
    drawHeat(graph, x.cfg, x.layout, x.heat ?? null);
    inlineStyles(host);
    const ser = new XMLSerializer();
    const body = [...host.children].map((el) => ser.serializeToString(el)).join('\n');
    return standalone(body, { width: x.layout.width, height: x.layout.height, title: x.title, caption: x.caption });
  } finally {
    host.remove();
  }
}
