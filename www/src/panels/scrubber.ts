//! Scrubber bar: a range slider over the recorded run with a strip of event marks (divergence,
//! reconvergence, spill; for a launch, the focused warp's and its block's barrier releases), the
//! checks' findings as buttons over it, the step controls, play/pause and the speed.

import { described, html, setText, watchSize, type Watched } from '../svg';

export type Action = 'home' | 'prev-div' | 'back' | 'play' | 'step' | 'next-div' | 'end' | 'continue' | 'prev-issue' | 'next-issue';

/** A finding at a step, marked over the strip (a click goes there). */
export interface StepMark {
  step: number;
  severity: 'error' | 'warning' | 'info';
  label: string;
}

export interface ScrubberHooks {
  seek(t: number): void;
  action(a: Action): void;
  speed(stepsPerSecond: number): void;
}

export interface ScrubberPanel {
  range: HTMLInputElement;
  strip: HTMLCanvasElement;
  label: HTMLElement;
  /** The label's text box. */
  labelText: HTMLElement;
  play: HTMLButtonElement;
  stripSize: Watched;
  /** The findings' marks, over the strip. */
  marks: HTMLElement;
  /** The marks drawn, over how many steps. */
  marksDrawn: { marks: StepMark[]; total: number } | null;
  /** The strip's key (its release item shows for a launch). */
  key: HTMLElement;
  /** The strip drawn last, over how many steps, and whether for a launch. */
  shown: { strip: Strip; span: number; launch: boolean } | null;
  stripKey: string;
}

/** A run's event marks on the strip, as the engine reduces them (`Engine.stripMarks`): `[row,
 * step]` each, at least a pixel apart in a row; rows: divergences, reconvergences, spills and
 * fills, and a launch's barrier releases. The compare view's strip has both runs' marks. */
export interface Strip {
  marks(span: number, inset: number, width: number): Uint32Array;
}

const BUTTONS: [Action, string, string][] = [
  ['home', '|◀◀', 'go to the start (Home)'],
  ['prev-div', '◀ div', 'previous divergence (Shift+←)'],
  ['back', '◀', 'step back (←)'],
  ['play', '▶ play', 'play / pause (Space)'],
  ['step', '▶|', 'step forward (→)'],
  ['next-div', 'div ▶', 'next divergence (Shift+→)'],
  ['end', '▶▶|', 'go to the end (End)'],
  ['continue', 'run to breakpoint', 'run until a breakpoint or the end (B)'],
];
export const SPEEDS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 0];

export function create(root: HTMLElement, hooks: ScrubberHooks, speed: number): ScrubberPanel {
  const controls = html('div', { class: 'controls' });
  let play!: HTMLButtonElement;
  for (const [a, text, title] of BUTTONS) {
    const b = html('button', { type: 'button', ...described(text, title), 'data-testid': `btn-${a}` }, text);
    b.addEventListener('click', () => hooks.action(a));
    if (a === 'play') play = b;
    controls.append(b);
  }
  const sel = html('select', { 'aria-label': 'speed (steps per second)', 'data-testid': 'speed', title: 'steps per second' });
  for (const s of SPEEDS) sel.append(new Option(s === 0 ? 'max' : `${s}/s`, String(s), false, s === speed));
  sel.addEventListener('change', () => hooks.speed(Number(sel.value)));
  controls.append(sel);
  // The step's text sits in a box of fixed size (style.css: .step-text): a new step then lays out
  // only that box, not the page around it (the label is a grid item, which cannot be one).
  const label = html('output', { class: 'step-label mono', 'data-testid': 'step-label' });
  const labelText = html('span', { class: 'step-text' });
  label.append(labelText);
  const track = html('div', { class: 'track' });
  const marks = html('div', { class: 'finding-marks', 'data-testid': 'finding-marks' });
  const strip = html('canvas', { class: 'event-strip', 'aria-hidden': 'true' });
  const range = html('input', { type: 'range', min: 0, max: 0, value: 0, step: 1, 'aria-label': 'step', 'data-testid': 'scrubber' });
  range.addEventListener('input', () => hooks.seek(Number(range.value)));
  track.append(marks, strip, range);
  const key = html('div', { class: 'legend strip-legend' });
  for (const [cls, text] of [['div', 'divergence'], ['rec', 'reconvergence'], ['spill', 'spill / fill'], ['release', 'barrier release']]) {
    const item = html('span', { class: `legend-item key-${cls}` });
    item.append(html('i', { class: `tick ${cls}` }), document.createTextNode(text));
    key.append(item);
  }
  root.replaceChildren(controls, label, track, key);
  const p: ScrubberPanel = { range, strip, label, labelText, play, key, stripSize: null!, shown: null, stripKey: '', marks, marksDrawn: null };
  marks.addEventListener('click', (e) => {
    const step = (e.target as HTMLElement).closest<HTMLElement>('[data-step]')?.dataset.step;
    if (step) hooks.seek(Number(step));
  });
  p.stripSize = watchSize(strip, () => { if (p.shown) drawStrip(p, p.shown.strip, p.shown.span, p.shown.launch); });
  return p;
}

/** The strip's rows, top to bottom (a launch's fourth: its block's barrier releases). */
const ROW_COLORS = ['--ev-div', '--ev-rec', '--spill', '--ev-release'];

function drawStrip(p: ScrubberPanel, strip: Strip, span: number, launch: boolean): void {
  const c = p.strip, dpr = window.devicePixelRatio || 1;
  const { w, h, css } = p.stripSize;
  const key = `${w}x${h}`;
  if (p.shown?.strip === strip && p.shown.span === span && p.shown.launch === launch && p.stripKey === key) return;
  p.shown = { strip, span, launch };
  p.stripKey = key;
  c.width = Math.round(w * dpr);
  c.height = Math.round(h * dpr);
  const ctx = c.getContext('2d')!;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, w, h);
  // The range thumb travels inset by about half its width; the marks follow it.
  const inset = 8;
  const colors = ROW_COLORS.slice(0, launch ? 4 : 3).map((v) => css.getPropertyValue(v).trim());
  const rows = colors.length;
  const marks = strip.marks(span, inset, w);
  for (let row = 0; row < rows; row++) {
    ctx.fillStyle = colors[row];
    for (let i = 0; i + 1 < marks.length; i += 2) {
      if (marks[i] !== row) continue;
      const x = inset + (marks[i + 1] / span) * (w - 2 * inset);
      ctx.fillRect(x - 1, (row * h) / rows, 2, h / rows - 1);
    }
  }
}

/** The findings' marks over the strip, each where the range's thumb stands at its step. */
function drawMarks(p: ScrubberPanel, marks: StepMark[], total: number): void {
  if (p.marksDrawn?.marks === marks && p.marksDrawn.total === total) return;
  p.marksDrawn = { marks, total };
  p.marks.parentElement?.classList.toggle('with-findings', marks.length > 0);
  p.marks.replaceChildren(...marks.map((m) => {
    const b = html('button', { type: 'button', class: `finding-mark sev-${m.severity}`, 'data-testid': 'finding-mark', 'data-step': m.step });
    const label = `${m.label}: step ${m.step} (click to go there)`;
    b.title = label;
    b.setAttribute('aria-label', label);
    // The thumb travels inset by about half its width (as the strip's marks).
    b.style.left = `calc(8px + (100% - 16px) * ${total > 0 ? Math.min(1, m.step / total) : 0})`;
    return b;
  }));
}

/** `launch`: the run is a whole launch, whose block's barrier releases get the strip's fourth
 * row; `marks`: the checks' findings in the block shown. */
export function render(p: ScrubberPanel, step: number, total: number, strip: Strip, playing: boolean, launch = false, marks: StepMark[] = []): void {
  if (p.range.max !== String(total)) p.range.max = String(total);
  p.range.value = String(step);
  setText(p.labelText, `step ${step} / ${total}`);
  // As wide as its widest text: a label that grew by a digit would resize the track, and the
  // strip of a million-step run would be drawn again on every step.
  const minWidth = `${`step ${total} / ${total}`.length}ch`;
  if (p.label.style.minWidth !== minWidth) p.label.style.minWidth = minWidth;
  p.label.dataset.step = String(step);
  p.label.dataset.total = String(total);
  setText(p.play, playing ? '❚❚ pause' : '▶ play');
  p.play.classList.toggle('on', playing);
  p.key.classList.toggle('launch', launch);
  drawMarks(p, marks, total);
  drawStrip(p, strip, total, launch);
}
