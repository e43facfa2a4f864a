//! How the sweep plot tells its series apart: a colour from the Okabe-Ito palette (style.css
//! `--series-1..7`), a marker shape and a dash pattern, so series stay apart without colour too,
//! and a line lying exactly on another still shows through its gaps. Markers are drawn hollow for
//! runs that stopped early.

import { svg } from '../svg';

export interface SeriesLook { color: string; shape: number; dash: string }

const SHAPES = 7;
const DASHES = ['', '7 4', '2 3', '9 3 2 3'];

/** Series `i`'s look; `palette` holds the resolved `--series-*` colours. */
export function seriesLook(i: number, palette: string[]): SeriesLook {
  // Colour, shape and dash repeat every 7, 7 and 4 series: no two of the first 28 look alike.
  return { color: palette[i % palette.length], shape: i % SHAPES, dash: DASHES[i % DASHES.length] };
}

// Shapes as paths around (0, 0) for size s; 0 is a circle.
function shapePath(shape: number, s: number): string {
  const t = s * 1.25;
  switch (shape) {
    case 1: return `M${-s * 0.9},${-s * 0.9}h${s * 1.8}v${s * 1.8}h${-s * 1.8}z`;
    case 2: return `M0,${-t}L${t},${s * 0.8}L${-t},${s * 0.8}z`;
    case 3: return `M0,${-t}L${t},0L0,${t}L${-t},0z`;
    case 4: return `M0,${t}L${t},${-s * 0.8}L${-t},${-s * 0.8}z`;
    case 5: return `M${-s},${-t}L${s},${-t}L${-s},${t}L${s},${t}z`;
    default: {
      // A five-pointed star.
      let d = '';
      for (let k = 0; k < 10; k++) {
        const r = k % 2 ? s * 0.6 : s * 1.45, a = (Math.PI / 5) * k - Math.PI / 2;
        d += `${k ? 'L' : 'M'}${(r * Math.cos(a)).toFixed(2)},${(r * Math.sin(a)).toFixed(2)}`;
      }
      return `${d}z`;
    }
  }
}

/** A marker at (x, y): filled, or hollow (a run that stopped early) on `background`. */
export function marker(look: SeriesLook, x: number, y: number, size: number, hollow: boolean, background: string): SVGElement {
  const paint = { fill: hollow ? background : look.color, stroke: look.color, 'stroke-width': hollow ? 2 : 1 };
  if (look.shape === 0) return svg('circle', { cx: x.toFixed(1), cy: y.toFixed(1), r: size, ...paint });
  return svg('path', { d: shapePath(look.shape, size), transform: `translate(${x.toFixed(1)},${y.toFixed(1)})`, ...paint });
}

/** A legend swatch: a short line in the series' dash with its marker on it. */
export function swatch(look: SeriesLook, x: number, y: number, background: string, line = true, hollow = false): SVGGElement {
  const g = svg('g');
  if (line) g.append(svg('line', { x1: x, x2: x + 26, y1: y, y2: y, stroke: look.color, 'stroke-width': 2, ...(look.dash ? { 'stroke-dasharray': look.dash } : {}) }));
  g.append(marker(look, x + 13, y, 4, hollow, background));
  return g;
}
