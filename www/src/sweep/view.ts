//! Sweep mode's controller: the settings, one sweep at a time in a worker (`client.ts`), its
//! points as they come, the metric and measured series chosen, and the exports. Numbers come from
//! the engine only: the points and fits from the worker, the CSV from `SweepRun.csv`.

import type { RunChoices } from '../choices';
import type { Engine } from '../engine';
import * as exporter from '../export';
import { exportName } from '../file-name';
import { citation, MEASUREMENTS, type Figure } from '../figures';
import * as progress from '../panels/sweep-progress';
import * as plot from '../panels/sweep-plot';
import * as settings from '../panels/sweep-settings';
import * as stops from '../panels/sweep-stops';
import { html } from '../svg';
import type { Fit, LoadResult, MetricInfo, SweepPoint, Prepared, SweepRequest } from '../generated/engine';
import type { MeasuredChoice, SweepChoice } from './choice';
import { SweepClient, type SweepListener } from './client';
import { plotData, stopMessage } from './plot-data';
import type { MeasuredXY } from './protocol';
import { settingsFor } from './request';

export interface SweepRoots {
  settings: HTMLElement; progress: HTMLElement; plot: HTMLElement; stops: HTMLElement;
  metric: HTMLSelectElement; measured: HTMLSelectElement; exports: HTMLElement;
}

/** What a sweep runs on besides its settings: the editor's kernel and the top bar's inputs. */
export interface SweepInputs {
  text: string; title: string; params: Record<string, number>;
  /** The top bar's choices; a sweep's own models and presets stand in for its model and preset. */
  choices: RunChoices;
  /** The app's step limit: each run of a sweep stops there too (unless the request sets its own). */
  stepLimit: number;
}

export interface SweepHooks {
  banner(message: string): void;
  /** The settings, metric or measured series changed (to keep in the store and saved work). */
  changed(choice: SweepChoice): void;
  inputs(): SweepInputs;
  /** The paper's figure on screen, if any (its title heads the plot). */
  figure(): Figure | null;
}

interface MeasuredEntry { choice: MeasuredChoice; label: string; xy: MeasuredXY; points: [number, number][] }
const sameMeasured = (a: MeasuredChoice | null, b: MeasuredChoice | null) => JSON.stringify(a) === JSON.stringify(b);

export class SweepView {
  choice: SweepChoice | null = null;
  private load: LoadResult | null = null;
  private readonly client = new SweepClient();
  private prepared: Prepared | null = null;
  private points: SweepPoint[] = [];
  private fits: (Fit | null)[] | null = null;
  private status: progress.SweepStatus = 'idle';
  /** The request and title the shown points were run with. */
  private ran: { request: SweepRequest; title: string; text: string } | null = null;
  private readonly metrics: MetricInfo[];
  private readonly catalog: MeasuredEntry[];
  private readonly settingsPanel: settings.SettingsPanel;
  private readonly progressPanel: progress.ProgressPanel;
  private readonly plotPanel: plot.SweepPlotPanel;
  private frame = 0;

  constructor(engine: Engine | null, private readonly roots: SweepRoots, private readonly hooks: SweepHooks) {
    this.metrics = engine?.metricInfos() ?? [];
    this.catalog = Object.entries(MEASUREMENTS).flatMap(([file, text]) => (engine?.measuredSets(text) ?? []).map((s) => ({
      choice: { file, build: s.build, kernel: s.kernel, pattern: s.pattern },
      label: `measured: ${s.kernel} · ${s.build} · ${s.pattern} (${file})`,
      xy: { x: s.points.map((q) => q[0]), y: s.points.map((q) => q[1]) }, points: s.points,
    })));
    this.settingsPanel = settings.create(roots.settings);
    this.progressPanel = progress.create(roots.progress, () => this.cancel());
    this.plotPanel = plot.create(roots.plot);
    for (const m of this.metrics) roots.metric.append(new Option(m.label, m.name));
    roots.metric.addEventListener('change', () => this.choose({ metric: roots.metric.value }));
    roots.measured.addEventListener('change', () => {
      const entry = this.catalog[Number(roots.measured.value)];
      this.setMeasured(entry ? entry.choice : null);
    });
    const button = (label: string, id: string, title: string, act: () => void) => {
      const b = html('button', { type: 'button', 'data-testid': id, title }, label);
      b.addEventListener('click', act);
      return b;
    };
    roots.exports.replaceChildren(
      button('SVG', 'sweep-export-svg', 'the plot with its legend as a standalone SVG', () => this.exportSvg()),
      button('PNG', 'sweep-export-png', 'the plot as a PNG at twice the screen size', () => void this.exportPng()),
      button('CSV', 'sweep-export-csv', 'every run\'s metrics (and the fit, with measurements) as CSV', () => void this.exportCsv()));
    progress.render(this.progressPanel, 'idle', 0, 0, false);
  }

  /** The settings sweep mode starts with for a kernel: the last ones if they fit it, else its
   * first param under the current model and preset; null for a kernel with no param. */
  defaults(load: LoadResult | null): SweepChoice | null {
    const request = load ? settingsFor(load.params, this.choice?.request ?? null, load.model, load.preset) : null;
    return request ? { request, metric: this.choice?.metric ?? 'cycles', measured: this.choice?.measured ?? null } : null;
  }

  /** Another kernel opens: the last sweep's points go (they were for the old one). */
  reset(): void {
    this.client.cancel();
    this.prepared = null;
    this.points = [];
    this.fits = null;
    this.ran = null;
    this.status = 'idle';
    this.draw();
  }

  /** Shows the mode for the kernel `load` (null: none has run) with `choice` (null: defaults). */
  sync(load: LoadResult | null, choice: SweepChoice | null): void {
    this.load = load;
    const request = load ? settingsFor(load.params, choice?.request ?? this.choice?.request ?? null, load.model, load.preset) : null;
    const next: SweepChoice | null = request ? { request, metric: choice?.metric ?? this.choice?.metric ?? 'cycles', measured: choice?.measured ?? null } : null;
    const changed = JSON.stringify(next) !== JSON.stringify(choice);
    this.choice = next;
    if (next && changed) this.hooks.changed(next);
    this.renderControls();
    this.draw();
  }

  private renderControls(): void {
    settings.render(this.settingsPanel, this.load, this.choice?.request ?? null, {
      change: (request) => this.choose({ request }),
      run: () => this.run(),
    });
    const c = this.choice;
    this.roots.metric.value = c?.metric ?? 'cycles';
    // The measured series: none, or any series of the bundled files, grouped by file, build and pattern.
    const sel = this.roots.measured;
    if (!sel.options.length) {
      sel.append(new Option('none', ''));
      let group: HTMLOptGroupElement | null = null;
      this.catalog.forEach((e, i) => {
        const name = `${e.choice.file} · ${e.choice.build} · ${e.choice.pattern}`;
        if (group?.label !== name) { group = html('optgroup', { label: name }); sel.append(group); }
        group.append(new Option(e.choice.kernel, String(i)));
      });
    }
    const i = this.catalog.findIndex((e) => sameMeasured(e.choice, c?.measured ?? null));
    sel.value = i < 0 ? '' : String(i);
  }

  private choose(patch: Partial<SweepChoice>): void {
    if (!this.choice) return;
    this.choice = { ...this.choice, ...patch };
    this.hooks.changed(this.choice);
    this.draw();
  }

  private measuredEntry(): MeasuredEntry | null {
    const m = this.choice?.measured ?? null;
    return m ? this.catalog.find((e) => sameMeasured(e.choice, m)) ?? null : null;
  }

  private setMeasured(m: MeasuredChoice | null): void {
    this.choose({ measured: m });
    this.fits = null;
    if (!this.points.length) return;
    // After a cancel the fit needs the points in a worker again: the status says so meanwhile.
    const before = this.status;
    void this.client.setMeasured(this.measuredEntry()?.xy ?? null).then(() => {
      if (this.status === 'rerunning') { this.status = before; this.draw(); }
    });
  }

  /** Runs the current settings on the editor's kernel with the top bar's other inputs. */
  run(): void {
    const c = this.choice;
    if (!c) return;
    const inp = this.hooks.inputs();
    const r = c.request;
    const held = Object.fromEntries(Object.entries(inp.params).filter(([k]) => k !== r.param && k !== r.split?.param));
    const request: SweepRequest = {
      ...r, ...inp.choices, model: null, preset: null, params: held, step_limit: r.step_limit ?? inp.stepLimit,
    };
    this.prepared = null;
    this.points = [];
    this.fits = null;
    this.status = 'preparing';
    this.ran = { request, title: inp.title, text: inp.text };
    const listener: SweepListener = {
      prepared: (p) => {
        this.prepared = p;
        if (!p.ok) {
          this.status = 'failed';
          const where = (line: number) => (line > 1 ? `line ${line}: ` : '');
          for (const d of p.diagnostics.filter((x) => x.severity === 'error').slice(0, 3)) this.hooks.banner(`The sweep cannot run: ${where(d.line)}${d.message}`);
        } else this.status = 'running';
        this.draw();
      },
      points: (pts, fits) => { this.points.push(...pts); this.fits = fits; this.draw(); },
      done: () => { this.status = 'done'; this.draw(); },
      failed: (message) => { this.status = 'failed'; this.hooks.banner(message); this.draw(); },
      rerunning: () => { this.status = 'rerunning'; this.draw(); },
    };
    this.client.start(inp.text, request, this.measuredEntry()?.xy ?? null, listener);
    this.draw();
  }

  /** Stops a running sweep; its points so far stay on the plot. */
  cancel(): void {
    if (this.status !== 'running' && this.status !== 'preparing') return;
    this.client.cancel();
    this.status = 'cancelled';
    this.draw();
  }

  /** Leaving sweep mode: a running sweep stops. */
  close(): void {
    this.cancel();
  }

  /** Draws at the next frame (points may come many times a frame). */
  private draw(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => { this.frame = 0; this.drawNow(); });
  }

  private plotInput(): Parameters<typeof plotData>[0] | null {
    const c = this.choice, p = this.prepared, ran = this.ran;
    if (!c || !ran) return null;
    const metric = this.metrics.find((m) => m.name === c.metric) ?? this.metrics[0] ?? { name: 'cycles', label: 'cycles', ratio: false, cycles: true };
    const fig = this.hooks.figure();
    const r = ran.request;
    const total = p?.points ?? 0;
    const fixed = Object.entries(r.params).map(([k, v]) => `${k} = ${v}`);
    const stopped = this.status === 'cancelled' ? [`cancelled after ${this.points.length} of ${total} runs`] : [];
    const m = this.measuredEntry();
    return {
      title: fig?.sweep ? `${citation(fig)}: ${fig.title}` : `${metric.label} against ${r.param}: ${ran.title}`,
      subtitle: [fig?.sweep ? ran.title : '', `${r.param} = ${r.from}..${r.to}`, ...fixed, ...stopped].filter(Boolean).join(' · '),
      param: r.param, from: r.from, to: r.to, metric, series: p?.series ?? [], points: this.points,
      measured: m ? { label: m.label, points: m.points, fits: this.fits } : null,
    };
  }

  private drawNow(): void {
    const total = this.prepared?.points ?? 0;
    progress.render(this.progressPanel, this.status, this.points.length, total, this.stale());
    this.roots.exports.querySelectorAll('button').forEach((b) => { b.disabled = this.points.length === 0; });
    const input = this.plotInput();
    const series = this.prepared?.series ?? [];
    if (!input || !this.prepared?.ok) {
      plot.render(this.plotPanel, null);
      this.roots.plot.replaceChildren(html('p', { class: 'muted sweep-empty' }, this.status === 'failed'
        ? 'The sweep could not run: see the message above.' : 'Choose the settings on the left and press Run: every run goes on this plot as it finishes.'));
    } else plot.render(this.plotPanel, plotData(input));
    stops.render(this.roots.stops, this.ran?.request.param ?? '', this.points.flatMap((q) => {
      const message = stopMessage(q);
      return message ? [{ x: q.x, series: series[q.series]?.label ?? '', message, line: q.stop.line }] : [];
    }));
  }

  /** The kernel or the held params changed since the shown sweep ran. */
  private stale(): boolean {
    const ran = this.ran, c = this.choice;
    if (!ran || !c) return false;
    const inp = this.hooks.inputs();
    const held = (params: Record<string, number>) => JSON.stringify(Object.entries(params).filter(([k]) => k !== c.request.param && k !== c.request.split?.param).sort());
    return inp.text !== ran.text || held(inp.params) !== held(ran.request.params);
  }

  /** Named after the paper's figure on screen, else the kernel (a sweep spans models: none named). */
  private fileName(ext: string): string {
    const fig = this.hooks.figure();
    return exportName({ subject: fig?.sweep ? fig.id : this.ran?.title ?? null, what: 'sweep', ext });
  }

  exportSvg(): void {
    if (this.plotPanel.el) exporter.svgFile(exporter.imageOf(this.plotPanel.el), this.fileName('svg'));
  }

  async exportPng(): Promise<void> {
    if (this.plotPanel.el) await exporter.pngFile(exporter.imageOf(this.plotPanel.el), this.fileName('png'));
  }

  /** The engine's CSV of the points so far, with the measured columns when measurements show. */
  async exportCsv(): Promise<void> {
    if (!this.points.length) return;
    const before = this.status;
    const text = await this.client.csv(this.measuredEntry()?.xy ?? null);
    if (this.status === 'rerunning') { this.status = before; this.draw(); }
    if (text === null) { this.hooks.banner('The sweep\'s CSV could not be written: the engine failed.'); return; }
    exporter.csvFile(text, this.fileName('csv'));
  }

  /** For tests and the page: a worker is running or holding a sweep. */
  get workerAlive(): boolean {
    return this.client.alive;
  }
}
