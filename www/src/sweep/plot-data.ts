//! A sweep's points as the plot draws them (pure): one line per series with each run's value of
//! the chosen metric, or, beside measurements, each series' prediction (the engine's fit: its
//! cycles plus one fitted base, or under a timing model its own clock, nothing fitted) with the
//! measured dots and the residuals for the strip below.

import type { Fit, MetricInfo, PointMetrics, SweepPoint, Series } from '../generated/engine';
import { valueLabel } from './axes';

export interface PlotPoint { x: number; y: number; /** Why the run stopped early; null if it exited. */ stop: string | null }
export interface PlotSeries {
  /** The series as the engine names it ("kepler · maxwell"); `label` is the legend's, which may say more. */
  name: string;
  label: string;
  points: PlotPoint[];
}

export interface SweepPlotData {
  title: string;
  subtitle: string;
  xLabel: string;
  yLabel: string;
  /** The swept range: the x axis spans it from the first point on. */
  from: number;
  to: number;
  series: PlotSeries[];
  measured: { label: string; points: { x: number; y: number }[] } | null;
  /** Per series, measured minus predicted; null when no measurements are shown. */
  residuals: { x: number; y: number }[][] | null;
  /** Said under the plot when a chosen measured series cannot show (another metric, no shared x). */
  note: string;
}

export interface PlotInput {
  title: string;
  subtitle: string;
  param: string;
  from: number;
  to: number;
  metric: Pick<MetricInfo, 'name' | 'label' | 'cycles'>;
  series: Series[];
  points: SweepPoint[];
  /** The measured series shown, with each series' fit to it (from the engine). */
  measured: { label: string; points: [number, number][]; fits: (Fit | null)[] | null } | null;
}

/** The legend's label of a series beside measurements: what its prediction is. */
function fitLabel(series: string, fit: Fit, param: string): string {
  if (!fit.fitted) return `${series}: the timing model's own prediction, nothing fitted`;
  return `${series} + base ${valueLabel(fit.base)} cycles fitted at ${param} = ${fit.at}`;
}

/** A run's stop message, or null for a run that exited. */
export function stopMessage(p: SweepPoint): string | null {
  if (p.stop.kind === 'exited') return null;
  return p.stop.summary;
}

export function plotData(input: PlotInput): SweepPlotData {
  const { series, points, metric, measured } = input;
  const bySeries: SweepPoint[][] = series.map(() => []);
  for (const p of points) bySeries[p.series]?.push(p);
  for (const list of bySeries) list.sort((a, b) => a.x - b.x);
  const raw = (i: number): PlotSeries => ({
    name: series[i].label, label: series[i].label,
    points: bySeries[i].map((p) => ({ x: p.x, y: p.metrics[metric.name as keyof PointMetrics] ?? 0, stop: stopMessage(p) })),
  });
  const base = {
    title: input.title, subtitle: input.subtitle, xLabel: input.param, yLabel: metric.label, from: input.from, to: input.to,
    measured: null, residuals: null, note: '',
  };
  if (!measured) return { ...base, series: series.map((_, i) => raw(i)) };
  if (!metric.cycles) {
    return { ...base, series: series.map((_, i) => raw(i)), note: `The measurements (${measured.label}) are cycles: choose a cycles metric to see them beside the model.` };
  }
  const fits = measured.fits ?? [];
  const lines = series.map((s, i): PlotSeries => {
    const fit = fits[i];
    if (!fit) return points.length ? { ...raw(i), label: `${s.label} (no x in common with the measurements)` } : raw(i);
    const stops = new Map(bySeries[i].map((p) => [p.x, stopMessage(p)]));
    return {
      name: s.label, label: fitLabel(s.label, fit, input.param),
      points: fit.rows.map((r) => ({ x: r.x, y: r.predicted, stop: stops.get(r.x) ?? null })),
    };
  });
  return {
    ...base, series: lines, yLabel: 'cycles (measured and predicted)',
    measured: { label: measured.label, points: measured.points.filter(([x]) => x >= input.from && x <= input.to).map(([x, y]) => ({ x, y })) },
    residuals: series.map((_, i) => fits[i]?.rows.map((r) => ({ x: r.x, y: r.residual })) ?? []),
  };
}
