//! The papers' figures (examples/figures.json) and the measurements they compare against
//! (examples/data/*.csv), bundled as text. An entry either opens a sweep (`sweep`) or the stepping
//! view at given inputs (`view`; with `compare`, compare mode beside that model), and says what
//! to look at. Display data only: the sweeps' numbers come from the engine.

import figuresText from '../../examples/figures.json?raw';
import type { SweepRequest } from './generated/engine';
import type { MeasuredChoice } from './sweep/choice';

const dataFiles = import.meta.glob('../../examples/data/*.csv', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;

export interface Figure {
  id: string;
  paper: string;
  figure: string;
  title: string;
  look: string;
  /** An example file (examples/<kernel>). */
  kernel: string;
  metric?: string;
  sweep?: Partial<SweepRequest>;
  measured?: MeasuredChoice;
  view?: FigureView;
}

/** A figure shown in the stepping view: the kernel's inputs and model, and in compare mode the
 * model beside it (the CLI's `figure` runs `model` only). */
export interface FigureView {
  params: Record<string, number>;
  model: string;
  preset: string;
  compare?: string;
}

export const FIGURES: Figure[] = (JSON.parse(figuresText) as Figure[]).filter((f) => typeof f.id === 'string' && (f.sweep || f.view));

export function figureById(id: string | null): Figure | null {
  return FIGURES.find((f) => f.id === id) ?? null;
}

/** The bundled measurement files' text by their name in figures.json (`data/h100_loops.csv`). */
export const MEASUREMENTS: Record<string, string> = Object.fromEntries(
  Object.entries(dataFiles).map(([path, text]) => [`data/${path.split('/').pop()}`, text]));

/** "Bialas & Strzelecki (2015), Figure 1": how a figure is cited on screen and in exports. */
export function citation(f: Figure): string {
  return `${f.paper}, ${f.figure}`;
}
