//! Loads runs into one engine, a long one in slices: `load` runs a first chunk, then
//! `Engine.resume` in slices of about 20 ms, yielding to the page between them so typing, clicks
//! and Stop stay responsive. The slice size adapts to the measured speed (a step's cost varies by
//! kernel and grows as the recording does). A newer load supersedes a run still loading, and the
//! engine's replay of the last good run after a restart is driven here too.

import type { Engine } from './engine';
import type { LoadOptions } from './engine';
import type { LoadResult } from './generated/engine';

/** Steps run inside `load` itself: most kernels end within them and never show progress. */
export const FIRST_CHUNK = 100_000;
const TARGET_MS = 20;
const MIN_SLICE = 10_000;
const MAX_SLICE = 2_000_000;

export interface RunHooks {
  /** Steps run so far (the run goes on). */
  progress(steps: number): void;
  /** A run that went on in slices ended: its load result with its `end`; or the engine lost it
   * (null: it already said why, and the last finished run stays). */
  done(r: LoadResult | null): void;
}

// A MessageChannel round trip lets input and rendering in without setTimeout's 4 ms clamp.
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const c = new MessageChannel();
    c.port1.onmessage = () => resolve();
    c.port2.postMessage(0);
  });
}

export class LongRun {
  private token = 0;
  private slice = MIN_SLICE * 10;
  /** What `load` said of the run being driven. */
  private loading: LoadResult | null = null;
  /** Steps run so far while a run is loading; null when none is. */
  steps: number | null = null;

  constructor(private readonly engine: Engine, private readonly hooks: RunHooks) {
    engine.restarted = (r) => this.follow(r);
  }

  /** Loads `text`: a run that ends within the first chunk is loaded when this returns; a longer
   * one goes on in slices (`hooks.progress`, then `hooks.done`) and supersedes any run still
   * loading. A load that fails leaves a run still loading alone. */
  load(text: string, options: LoadOptions): LoadResult | null {
    const r = this.engine.load(text, { ...options, chunk: FIRST_CHUNK });
    if (r?.ok && r.running) this.follow(r);
    else if (r?.ok) this.cancel();
    return r;
  }

  /** Stop: the run still loading ends where it is, its steps so far kept (`end.kind` is
   * `stopped`). Its load result, or null when none was loading or the engine failed. */
  stop(): LoadResult | null {
    const r = this.loading;
    if (!r) return null;
    this.cancel();
    const end = this.engine.stopRun()?.end;
    return end ? { ...r, running: false, end } : null;
  }

  get active(): boolean {
    return this.steps !== null;
  }

  /** The step the run still loading ends by at the latest (null when none is loading). */
  get lastStep(): number | null {
    return this.loading?.last_step ?? null;
  }

  /** Drives the engine's pending run `r`; any run driven before is left alone (superseded). */
  private follow(r: LoadResult): void {
    const token = ++this.token;
    this.loading = r;
    this.steps = 0;
    void this.drive(token);
  }

  /** Stops driving (the engine's pending run, if any, stays where it is). */
  private cancel(): void {
    this.token++;
    this.loading = null;
    this.steps = null;
  }

  private async drive(token: number): Promise<void> {
    for (;;) {
      await nextTask();
      if (token !== this.token) return;
      const t0 = performance.now();
      const p = this.engine.resume(this.slice);
      // A trap in `resume` restarts the engine, which may hand this a replay to drive instead.
      if (token !== this.token) return;
      const ms = Math.max(1, performance.now() - t0);
      this.slice = Math.round(Math.min(MAX_SLICE, Math.max(MIN_SLICE, this.slice * Math.min(4, TARGET_MS / ms))));
      if (p?.running) {
        this.steps = p.steps;
        this.hooks.progress(p.steps);
        continue;
      }
      const r = this.loading;
      this.cancel();
      // `resume` with nothing pending (the engine restarted meanwhile) has no end: nothing new to show.
      this.hooks.done(r && p?.end ? { ...r, running: false, end: p.end } : null);
      return;
    }
  }
}
