//! Messages between the page and the sweep worker (`sweep/worker.ts`). Types only: both sides
//! import them, so a change to one side's message shows up as a type error on the other.

import type { Fit, SweepPoint, Prepared, SweepRequest } from '../generated/engine';

/** A measured series' points, as the facade's `csv` and `fit` take them. */
export interface MeasuredXY { x: number[]; y: number[] }

export type ToWorker =
  /** Prepare the sweep and run every point in order; with `restore`, take those points back
   * (from a stopped worker) instead of running anything. */
  | { kind: 'start'; text: string; request: SweepRequest; measured: MeasuredXY | null; restore: SweepPoint[] | null }
  /** Fit every series to other measurements (null: none) from now on. */
  | { kind: 'measured'; measured: MeasuredXY | null }
  /** The points run so far as CSV, with measured columns when given. */
  | { kind: 'csv'; id: number; measured: MeasuredXY | null };

export type FromWorker =
  | { kind: 'prepared'; prepared: Prepared }
  /** Points run since the last message, in point order, and every series' fit over all points
   * run so far (null without measurements; an entry is null when the series shares no x). */
  | { kind: 'points'; points: SweepPoint[]; fits: (Fit | null)[] | null }
  | { kind: 'done' }
  | { kind: 'csv'; id: number; text: string }
  /** The engine failed; the sweep stops here (its points so far stay valid). */
  | { kind: 'error'; message: string };
