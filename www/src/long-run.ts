//! Drives a chunked load to its end: `Engine.resume` in slices of about 20 ms, yielding to the
//! page between them so typing, clicks and Stop stay responsive. The slice size adapts to the
//! measured speed (a step's cost varies by kernel and grows as the recording does).

import type { Engine } from './engine';
import type { ProgressView } from './views';

/** Steps run inside `load` itself: most kernels end within them and never show progress. */
export const FIRST_CHUNK = 100_000;
const TARGET_MS = 20;
const MIN_SLICE = 10_000;
const MAX_SLICE = 2_000_000;

export interface RunHooks {
  /** Steps run so far (the run goes on). */
  progress(steps: number): void;
  /** The run ended (`end` set) or the engine failed (null; it already said why). */
  done(p: ProgressView | null): void;
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
  /** Steps run so far while active; null when no run is being driven. */
  steps: number | null = null;

  /** Drives `engine`'s pending run; any run driven before is left alone (superseded). */
  start(engine: Engine, hooks: RunHooks): void {
    const token = ++this.token;
    this.steps = 0;
    void this.drive(engine, hooks, token);
  }

  /** Stops driving (the engine's pending run, if any, stays where it is). */
  cancel(): void {
    this.token++;
    this.steps = null;
  }

  get active(): boolean {
    return this.steps !== null;
  }

  private async drive(engine: Engine, hooks: RunHooks, token: number): Promise<void> {
    for (;;) {
      await nextTask();
      if (token !== this.token) return;
      const t0 = performance.now();
      const p = engine.resume(this.slice);
      const ms = Math.max(1, performance.now() - t0);
      this.slice = Math.round(Math.min(MAX_SLICE, Math.max(MIN_SLICE, this.slice * Math.min(4, TARGET_MS / ms))));
      if (p?.running) {
        this.steps = p.steps;
        hooks.progress(p.steps);
        continue;
      }
      this.steps = null;
      this.token++;
      // `resume` with nothing pending (the engine restarted meanwhile) has no end: nothing new to show.
      hooks.done(p?.end ? p : null);
      return;
    }
  }
}
