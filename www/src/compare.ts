//! Compare mode's second run and the two sides on screen. The main engine's run is side A (the
//! model chosen in the store); side B is a second engine loaded with the same kernel text and
//! inputs under the compare model, and with side A's cost preset unless the user picked one for
//! it (each model's own default would count volta's cycles in h100 costs beside kepler's). One shared step drives both: each side shows the state after
//! that many steps, clamped to its own run. The metrics table asks for each run's report once,
//! in a worker (`reports.ts`), and only while compare mode is on. Side B's long runs load in
//! slices too.

import { EventBit, type Engine } from './engine';
import { RunLoader } from './loader';
import { loadOptions, type RunChoices } from './choices';
import * as comparePanel from './panels/compare';
import * as lanes from './panels/lanes';
import { Reports } from './reports';
import type { Strip } from './panels/scrubber';
import { lastOf, readRun, type Run } from './run';
import type { LoadResult, StateView } from './generated/engine';

/** One side's engine and run, and what the screen needs of the current step. */
export interface SideSource {
  engine: Engine;
  run: Run;
  /** The state at the step this side shows; read by the caller for side A (the main run). */
  state: StateView | null;
}

export interface CompareRoots { a: HTMLElement; b: HTMLElement; table: HTMLElement }

export class Comparison {
  /** Side B's run (null until a load of it worked). */
  run: Run | null = null;
  /** Side B's last load error, shown on its side (with its last good run, if any). */
  error: string | null = null;
  /** Side B's last load result, good or not: its model fields show even without a run. */
  private lastLoad: LoadResult | null = null;
  /** Side B's preset choice as last loaded. */
  private preset: comparePanel.PresetChoice | null = null;
  /** Side B runs another kernel than side A (two kernels under one model), as last loaded. */
  private otherKernel = false;
  /** The two sides' panels, built when compare mode shows and dropped when it ends (so the
   * single view's test ids and panels stay the only ones on the page then). */
  sides: [comparePanel.SidePanel, comparePanel.SidePanel] | null = null;
  private readonly roots: CompareRoots;
  private readonly hooks: [comparePanel.SideHooks, comparePanel.SideHooks];
  private tableFor: [Run, Run] | null = null;
  private readonly reports = new Reports();
  private shownRuns: [Run | null, Run | null] = [null, null];
  private merged: { a: Run; b: Run; strip: Strip } | null = null;
  /** Loads side B, a long run in slices, and brings its run back after a restart. */
  private readonly loader: RunLoader | null;
  /** Side B's long run made progress (`progress`) or ended (`run`): the page redraws. */
  updated: (what: 'progress' | 'run') => void = () => {};

  constructor(readonly engine: Engine | null, roots: CompareRoots, hooks: [comparePanel.SideHooks, comparePanel.SideHooks]) {
    this.roots = roots;
    this.hooks = hooks;
    this.loader = engine && new RunLoader(engine, {
      progress: () => this.updated('progress'),
      done: (r) => { this.loaded(r); this.updated('run'); },
    });
  }

  /** Compare mode ended: its panels go, and side B's run with them. */
  close(): void {
    this.stopRun();
    if (!this.sides) return;
    for (const root of [this.roots.a, this.roots.b, this.roots.table]) root.replaceChildren();
    this.sides = null;
    this.run = null;
    this.lastLoad = null;
    this.preset = null;
    this.error = null;
    this.tableFor = null;
    this.reports.keepOnly([]);
    this.shownRuns = [null, null];
  }

  /** Loads side B: `text` and `params` (side A's, or with `otherKernel` another kernel's with
   * its own inputs), under `choice`'s model and policies; its cost preset is the choice's own,
   * else `leftPreset` (the one side A's run used, as the engine resolved it); it if-converts and
   * schedules warps as side A (`main`'s choices) does. */
  load(text: string, params: Record<string, number>, main: RunChoices, choice: RunChoices, leftPreset: string, stepLimit: number, otherKernel = false): void {
    this.preset = { own: choice.preset, left: leftPreset };
    this.otherKernel = otherKernel;
    const choices = { ...choice, preset: choice.preset ?? leftPreset, ifConvert: main.ifConvert, warpScheduler: main.warpScheduler };
    const r = this.loader?.load(text, { ...loadOptions(params, choices), step_limit: stepLimit });
    if (!r) return;
    this.lastLoad = r;
    const err = r.diagnostics.find((d) => d.severity === 'error');
    const what = otherKernel ? `side B's kernel${r.title ? ` (${r.title})` : ''}` : 'this kernel';
    this.error = r.ok ? null : `${choice.model} could not run ${what} (line ${err?.line ?? 1}: ${err?.message ?? 'error'})`;
    if (r.ok && !r.running) this.loaded(r);
  }

  /** Steps side B's long run has run so far; null when none is loading. */
  get loadingSteps(): number | null {
    return this.loader?.steps ?? null;
  }

  /** The step side B's long run ends by at the latest; null when none is loading. */
  get loadingLastStep(): number | null {
    return this.loader?.lastStep ?? null;
  }

  /** Side B's run ended (`r`), or the engine lost it (null: its last run stays). */
  private loaded(r: LoadResult | null): void {
    if (r && this.engine) this.run = readRun(this.engine, r, this.loader?.source ?? null);
  }

  /** Stop: side B's long run keeps the steps it ran; false when none was loading. */
  stopRun(): boolean {
    if (!this.loader?.active) return false;
    this.loaded(this.loader.stop());
    return true;
  }

  /** The longer of the two runs: the shared scrubber's end. */
  span(a: Run): number {
    return Math.max(a.total, this.run?.total ?? 0);
  }

  /** The scrubber strip of either side's events (a side's run may be shorter); `engine` holds `a`. */
  strip(a: Run, engine: Engine): Strip {
    const b = this.run, other = this.engine;
    if (!b || !other) return a.strip;
    if (this.merged?.a !== a || this.merged.b !== b) {
      this.merged = { a, b, strip: { marks: lastOf((span, inset, w) => engine.stripMarks(span, inset, w, other)) } };
    }
    return this.merged.strip;
  }

  /** The step after `step` where either side diverges, if any; `engine` holds side A's run. */
  nextDivergence(engine: Engine, step: number): number | null {
    const steps = [engine, this.engine].map((e) => e?.nextEvent(step, EventBit.Diverge) ?? null).filter((k) => k !== null);
    return steps.length ? Math.min(...steps) : null;
  }

  /** The step before `step` where either side diverges, if any; `engine` holds side A's run. */
  prevDivergence(engine: Engine, step: number): number | null {
    const steps = [engine, this.engine].map((e) => e?.prevEvent(step, EventBit.Diverge) ?? null).filter((k) => k !== null);
    return steps.length ? Math.max(...steps) : null;
  }

  /** Seeks side B to `step` (clamped to its run) and reads its state. */
  stateAt(step: number, lane: number): StateView | null {
    if (!this.engine || !this.run) return null;
    this.engine.seek(Math.min(step, this.run.total));
    return this.engine.state(lane);
  }

  /** `kernel`: what side B runs (side A's kernel, or another), for its kernel picker. */
  render(a: SideSource, step: number, lane: number, select: (lane: number) => void, kernel: comparePanel.KernelChoice): void {
    this.sides ??= [comparePanel.createSide(this.roots.a, 'a', this.hooks[0]), comparePanel.createSide(this.roots.b, 'b', this.hooks[1])];
    const sides = this.sides;
    comparePanel.renderKernel(sides[1], kernel);
    comparePanel.renderKernelName(sides[0], a.run.load.title, kernel.text !== null);
    const b = this.run && this.engine ? { engine: this.engine, run: this.run, state: this.stateAt(step, lane) } : null;
    const sources = [a, b] as const;
    const span = this.span(a.run);
    sources.forEach((src, i) => {
      const side = sides[i];
      if (!src) return;
      // A new run: the lane panel's cached codes belong to the old one.
      if (this.shownRuns[i] !== src.run) lanes.invalidate(side.lanes);
      this.shownRuns[i] = src.run;
      comparePanel.renderSide(side, {
        run: src.run, state: src.state, step, shown: Math.min(step, src.run.total), span, lane,
        error: i === 1 && this.error ? `${this.error}; showing its last run.` : null,
        preset: i === 1 ? this.preset : null,
        fetch: (from, to) => src.engine.laneStates(from, to, src.run.load.width),
        issued: (from, to) => src.engine.issuedLanes(from, to),
        inspect: (l) => (i === 0 ? src.engine.state(l) : this.stateAt(step, l)),
        select,
      });
    });
    if (!b) {
      if (this.lastLoad) comparePanel.renderFields(sides[1], this.lastLoad, this.preset);
      sides[1].status.textContent = this.error ?? 'No run yet: fix the kernel\'s errors to compare.';
      return;
    }
    // The reports run the MIMD reference: once per pair of runs, not per step, and off the page's thread.
    if (this.tableFor?.[0] !== a.run || this.tableFor[1] !== b.run) {
      const pair: [Run, Run] = [a.run, b.run];
      this.tableFor = pair;
      this.reports.keepOnly(pair);
      if (!pair.every((r) => r.report)) comparePanel.renderTableWaiting(this.roots.table, pair);
      void Promise.all(pair.map((r) => this.reports.of(r))).then((reports) => {
        if (this.tableFor === pair) comparePanel.renderTable(this.roots.table, pair, reports, this.otherKernel);
      });
    }
  }
}
