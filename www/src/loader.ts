//! What is loaded into one engine (the main one, compare's side B), and how it got there. Every
//! load goes through here: `load` runs a first chunk, and a longer run goes on in slices of about
//! 20 ms (`Engine.resume`), yielding to the page between them so typing, clicks and Stop stay
//! responsive; a newer load supersedes a run still loading; Stop ends it where it is. The loader
//! remembers how to load the last finished run again (`source`: a stopped one with `stop_at`), so
//! after the engine restarts on a trap it brings that run back the same way, in slices, and
//! returns to the step the lost session stood at. `engine.ts` only wraps the wasm calls.

import type { Engine } from './engine';
import type { LoadOptions } from './engine';
import type { LoadResult, Progress } from './generated/engine';

/** Steps run inside `load` itself: most kernels end within them and never show progress. */
export const FIRST_CHUNK = 100_000;
const TARGET_MS = 20;
const MIN_SLICE = 10_000;
const MAX_SLICE = 2_000_000;

/** What loads a run again exactly (runs are deterministic): the text and whole-run options. */
export interface LoadSource { text: string; options: LoadOptions }

export interface LoaderHooks {
  /** Steps run so far (the run goes on). */
  progress(steps: number): void;
  /** A run that went on in slices ended: its load result with its `end`; or the engine lost it
   * (null: it already said why, and the last finished run stays). */
  done(r: LoadResult | null): void;
}

/** A run still loading. */
interface Job {
  /** What loads it, without `chunk`: the loader's `source` once it ends. */
  source: LoadSource;
  /** What `load` said of its first chunk. */
  first: LoadResult;
  /** Steps run so far. */
  steps: number;
  /** The step to go back to when it ends: where the lost session stood, for a restart's replay;
   * null for a load of the user's. */
  returnTo: number | null;
  /** The engine restarted under it and its session is gone: its next slice reports it lost. */
  lost: boolean;
}

/** The size of the next slice after one of `slice` steps took `ms`: toward `TARGET_MS`, growing
 * at most fourfold at once (a step's cost varies by kernel and grows as the recording does). */
export function nextSlice(slice: number, ms: number): number {
  const factor = Math.min(4, TARGET_MS / Math.max(1, ms));
  return Math.round(Math.min(MAX_SLICE, Math.max(MIN_SLICE, slice * factor)));
}

// A MessageChannel round trip lets input and rendering in without setTimeout's 4 ms clamp.
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const c = new MessageChannel();
    c.port1.onmessage = () => resolve();
    c.port2.postMessage(0);
  });
}

export interface LoaderConfig {
  /** Resolves when the next slice may run; unit tests pass one that never does and call `advance`. */
  nextTask: () => Promise<void>;
  /** Steps run inside `load` itself (`FIRST_CHUNK`; smaller in unit tests). */
  firstChunk: number;
}

export class RunLoader {
  /** How to load the last finished run again (a stopped one ends stopped at the same step, with
   * `stop_at`); null before any run. */
  private good: LoadSource | null = null;
  /** The run still loading; null when none is. */
  private job: Job | null = null;
  /** Steps the next slice runs, adapted to the measured speed. */
  private slice = MIN_SLICE * 10;
  private readonly config: LoaderConfig;

  constructor(private readonly engine: Engine, private readonly hooks: LoaderHooks, config: Partial<LoaderConfig> = {}) {
    this.config = { nextTask, firstChunk: FIRST_CHUNK, ...config };
    engine.restarted = (step) => this.replay(step);
  }

  /** How to load the last finished run again (for the report worker); null before any run. */
  get source(): LoadSource | null {
    return this.good;
  }

  /** A run is still loading. */
  get active(): boolean {
    return this.job !== null;
  }

  /** Steps run so far while a run is loading; null when none is. */
  get steps(): number | null {
    return this.job?.steps ?? null;
  }

  /** What `load` said of the first chunk of the run still loading; null when none is. */
  get loading(): LoadResult | null {
    return this.job?.first ?? null;
  }

  /** The step the run still loading ends by at the latest (null when none is loading). */
  get lastStep(): number | null {
    return this.job?.first.last_step ?? null;
  }

  /** Loads `text`: a run that ends within the first chunk is loaded when this returns; a longer
   * one goes on in slices (`hooks.progress`, then `hooks.done`) and supersedes any run still
   * loading. A load that fails leaves a run still loading alone. */
  load(text: string, options: LoadOptions): LoadResult | null {
    const { chunk: _, ...whole } = options;
    const source: LoadSource = { text, options: whole };
    const r = this.engine.load(text, { ...whole, chunk: this.config.firstChunk });
    if (!r?.ok) return r;
    if (r.running) {
      this.start({ source, first: r, steps: 0, returnTo: null, lost: false });
    } else {
      this.job = null;
      this.settle(source, null);
    }
    return r;
  }

  /** Stop: the run still loading ends where it is, its steps so far kept (`end.kind` is
   * `stopped`). Its load result, or null when none was loading or the engine failed. */
  stop(): LoadResult | null {
    const job = this.job;
    if (!job) return null;
    this.job = null;
    return this.ended(job, job.lost ? null : this.engine.stopRun());
  }

  /** Runs the run still loading one slice of `budget` steps further: progress, or its end
   * (`hooks.done`). The loader's own pump calls this between tasks. */
  advance(budget: number): void {
    const job = this.job;
    if (!job) return;
    const p = job.lost ? null : this.engine.resume(budget);
    // A trap in `resume` restarted the engine, whose replay of the last good run is the job now.
    if (this.job !== job) return;
    if (p?.running && !job.lost) {
      job.steps = p.steps;
      this.hooks.progress(p.steps);
      return;
    }
    this.job = null;
    this.hooks.done(this.ended(job, p));
  }

  private start(job: Job): void {
    this.job = job;
    void this.pump(job);
  }

  /** Slices `job` until it ends or another job takes its place (superseded). */
  private async pump(job: Job): Promise<void> {
    while (this.job === job) {
      await this.config.nextTask();
      if (this.job !== job) return;
      const t0 = performance.now();
      this.advance(this.slice);
      this.slice = nextSlice(this.slice, performance.now() - t0);
    }
  }

  /** `job` ended with `p` (from `resume` or `stopRun`): its run is the loaded one, and a replay
   * goes back to its step. Null when it did not end (the engine failed, or lost it). */
  private ended(job: Job, p: Progress | null): LoadResult | null {
    if (job.lost || !p || p.running || !p.end) return null;
    this.settle(job.source, p.end.kind === 'stopped' ? p.steps : null);
    if (job.returnTo !== null) this.engine.seek(job.returnTo);
    return { ...job.first, running: false, end: p.end };
  }

  /** A run ended and is the loaded one: remember how to load it again. */
  private settle({ text, options }: LoadSource, stoppedAt: number | null): void {
    this.good = { text, options: stoppedAt === null ? options : { ...options, stop_at: stoppedAt } };
  }

  /** The engine restarted with a fresh, empty session (`step`: where the lost one stood). A run
   * still loading is lost with it; the last finished run comes back, a long one in slices like
   * any load (a stopped one ends where it was stopped), and the page returns to `step`. */
  private replay(step: number): void {
    if (this.job) this.job.lost = true;
    const good = this.good;
    if (!good) return;
    const r = this.engine.load(good.text, { ...good.options, chunk: this.config.firstChunk });
    if (r?.running) this.start({ source: good, first: r, steps: 0, returnTo: step, lost: false });
    else this.engine.seek(step);
  }
}
