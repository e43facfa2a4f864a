//! The one module that imports the generated wasm package (web/pkg). Every engine call goes
//! through `guard`, so a thrown error becomes a banner instead of a dead page; a Rust panic
//! poisons the instance, so then a fresh `Session` reloads the last good kernel and step (a long
//! run in chunks, driven by `LongRun` like any other). A long run loads in chunks (`load` with
//! `chunk`, then `resume` until it ends, or `stopRun`); the permalink codec is the core's
//! (`decodeLink`, `encodeLink`).

import init, {
  decode_link, encode_link, EventBit, initSync, LaneCode, lane_window_max, measured_sets, Session, StepLimit, sweep_metrics,
} from '../../web/pkg/warpscope_web.js';
import { FIRST_CHUNK } from './long-run';
import type {
  CfgView, CompiledView, LoadRequest, LoadResult, MeasuredSet, MetricInfo, MetricsPair, NoteView, Progress, ReportView,
  StateView, Outcome,
} from './generated/engine';

/** `Session.load`'s options: any part of the core's run request (the facade supplies the text,
 * recording and dropping stale params), and `chunk`. */
export type LoadOptions = Partial<LoadRequest>;
/** What `Session.run_until` runs to (the core's `Until` names). */
export type RunKind = 'end' | 'breakpoint' | 'divergence' | 'reconvergence' | 'spill' | 'fill' | 'event';

// Enums come from the generated package, never copied by hand. `StepLimit` (the default and the
// range `load` takes) is there before the wasm starts, so the store and settings read it at once.
export { EventBit, LaneCode, StepLimit };

export type ErrorSink = (message: string) => void;

/** What loads a run again exactly (runs are deterministic): the text and whole-run options. */
export interface LoadSource { text: string; options: LoadOptions }

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** What a location fragment holds, read by the core (size-bounded, never panics); `L` is the link's shape. */
export type DecodedLink<L> = { kind: 'none' } | { kind: 'ok'; link: L } | { kind: 'error'; message: string };

/** Reads a fragment with the core's codec. Needs the wasm started (`Engine.create`); never throws. */
export function decodeLink<L>(fragment: string): DecodedLink<L> {
  try {
    return decode_link(fragment) as DecodedLink<L>;
  } catch (e) {
    return { kind: 'error', message: `This link cannot be read: ${messageOf(e)}.` };
  }
}

/** The fragment (with `#`) for a link of the shape `decodeLink` gives. */
export function encodeLink(link: object): string {
  return encode_link(link);
}

// A trap inside wasm (panic = abort, or a bug) leaves the instance in an unknown state.
function poisoned(e: unknown): boolean {
  return e instanceof WebAssembly.RuntimeError ||
    /unreachable|recursive use|null pointer passed|out of bounds/i.test(messageOf(e));
}

export class Engine {
  private session: Session;
  private good: LoadSource | null = null;
  /** A chunked load still running: it becomes `good` when it ends; `restore` is the step to go
   * back to then (a restart replaying the last good run), else null. */
  private pending: { source: LoadSource; restore: number | null } | null = null;
  private breakpoints = new Uint32Array(0);
  private lastStep = 0;

  /** A restart after a trap left the last good run loading again in chunks (a long one): whoever
   * drives this engine's long runs (`LongRun`) drives it too, and shows it when it ends. */
  restarted: (r: LoadResult) => void = () => {};

  private constructor(private readonly sink: ErrorSink) {
    this.session = new Session();
  }

  static async create(report: ErrorSink): Promise<Engine> {
    await init();
    return new Engine(report);
  }

  /** Another engine with its own session (the compare view's second run); the wasm is loaded already. */
  static another(report: ErrorSink): Engine {
    return new Engine(report);
  }

  /** For Node (unit tests), where the wasm bytes are read from disk. */
  static fromBytes(bytes: BufferSource, report: ErrorSink): Engine {
    initSync({ module: bytes });
    return new Engine(report);
  }

  /** Test hook: the live session, to simulate a trap inside it. */
  get sessionForTest(): Session {
    return this.session;
  }

  private guard<T>(what: string, fallback: T, f: (s: Session) => T): T {
    try {
      return f(this.session);
    } catch (e) {
      const poison = poisoned(e);
      this.sink(`The engine failed in ${what}: ${messageOf(e)}${poison ? ' (restarted the engine)' : ''}`);
      if (poison) this.revive();
      return fallback;
    }
  }

  private revive(): void {
    try { this.session.free(); } catch { /* already unusable */ }
    // A run still loading is lost with the session; the last finished one comes back, a long one
    // in chunks like any load, so the page stays usable (a stopped one ends where it was stopped).
    this.pending = null;
    let again: LoadResult | null = null;
    try {
      this.session = new Session();
      this.session.set_breakpoints(this.breakpoints);
      if (this.good) {
        again = this.session.load(this.good.text, { ...this.good.options, chunk: FIRST_CHUNK }) as LoadResult;
        if (again.running) this.pending = { source: this.good, restore: this.lastStep };
        else this.session.seek(this.lastStep);
      }
    } catch (e) {
      this.sink(`The engine could not restart: ${messageOf(e)}`);
      return;
    }
    if (again?.running) this.restarted(again);
  }

  private track(t: number): number {
    this.lastStep = t;
    return t;
  }

  /** Parses and runs `text`; on errors the previous run stays loaded (`ok` is false). With
   * `options.chunk` the run may still be `running`: the previous run stays loaded until it ends. */
  load(text: string, options: LoadOptions): LoadResult | null {
    const r = this.guard<LoadResult | null>('load', null, (s) => s.load(text, options) as LoadResult);
    if (r?.ok) {
      this.pending = r.running ? { source: { text, options }, restore: null } : null;
      if (!r.running) this.settled({ text, options }, null);
    }
    return r;
  }

  /** Runs a pending load `budget` steps further; when it ends, its run is the loaded one. */
  resume(budget: number): Progress | null {
    return this.progressed(this.guard<Progress | null>('resume', null, (s) => s.resume(budget) as Progress));
  }

  /** Ends a pending load where it is: its steps so far are the loaded run (`end.kind` is `stopped`). */
  stopRun(): Progress | null {
    return this.progressed(this.guard<Progress | null>('stop_run', null, (s) => s.stop_run() as Progress));
  }

  /** How to load the current run again (a stopped run ends where it was stopped: `stop_at`). */
  get loadedSource(): LoadSource | null {
    return this.good;
  }

  /** A chunked load has not ended yet. */
  running(): boolean { return this.guard('running', false, (s) => s.running()); }

  private progressed(p: Progress | null): Progress | null {
    const job = this.pending;
    if (p && !p.running && p.end && job) {
      this.pending = null;
      this.settled(job.source, p.end.kind === 'stopped' ? p.steps : null);
      if (job.restore !== null) this.seek(job.restore);
    }
    return p;
  }

  /** The run to restore after a trap: a stopped one is loaded again to end, stopped, at the same step. */
  private settled({ text, options }: LoadSource, stoppedAt: number | null): void {
    const { chunk: _, ...whole } = options;
    this.good = { text, options: stoppedAt === null ? whole : { ...whole, stop_at: stoppedAt } };
    this.lastStep = 0;
  }

  total(): number { return this.guard('total_steps', 0, (s) => s.total_steps()); }
  current(): number { return this.guard('current', 0, (s) => s.current()); }
  seek(t: number): number { return this.track(this.guard('seek', this.lastStep, (s) => s.seek(t))); }
  step(): number { return this.track(this.guard('step', this.lastStep, (s) => s.step())); }
  stepBack(): number { return this.track(this.guard('step_back', this.lastStep, (s) => s.step_back())); }

  runUntil(kind: RunKind, maxSteps?: number): Outcome | null {
    const v = this.guard<Outcome | null>('run_until', null, (s) => s.run_until(kind, maxSteps) as Outcome | null);
    this.track(this.current());
    return v;
  }

  setBreakpoints(instrs: number[]): void {
    this.breakpoints = Uint32Array.from(instrs);
    this.guard('set_breakpoints', undefined, (s) => s.set_breakpoints(this.breakpoints));
  }

  state(lane: number): StateView | null {
    return this.guard<StateView | null>('state', null, (s) => s.state(lane) as StateView | null);
  }
  cfg(): CfgView | null { return this.guard<CfgView | null>('cfg', null, (s) => s.cfg() as CfgView | null); }
  /** The generated code of a C kernel; null for assembly. */
  compiled(): CompiledView | null {
    return this.guard<CompiledView | null>('compiled', null, (s) => s.compiled() as CompiledView | null);
  }
  metrics(): MetricsPair | null {
    return this.guard<MetricsPair | null>('metrics', null, (s) => s.metrics() as MetricsPair | null);
  }
  /** The whole run's comparison metrics; the first call per load runs the MIMD reference. */
  report(): ReportView | null {
    return this.guard<ReportView | null>('report', null, (s) => s.report() as ReportView | null);
  }
  notes(): NoteView[] { return this.guard<NoteView[]>('notes', [], (s) => (s.notes() as NoteView[]) ?? []); }

  depthSeries(): Uint16Array { return this.guard('depth_series', new Uint16Array(0), (s) => s.depth_series()); }
  activeSeries(): Uint8Array { return this.guard('active_series', new Uint8Array(0), (s) => s.active_series()); }
  eventSeries(): Uint16Array { return this.guard('event_series', new Uint16Array(0), (s) => s.event_series()); }
  pcSeries(): Uint32Array { return this.guard('pc_series', new Uint32Array(0), (s) => s.pc_series()); }

  /** Lane codes (`LaneCode`) for steps from+1..=to, W per step; split into allowed chunks. */
  laneStates(from: number, to: number, width: number): Uint8Array {
    const out = new Uint8Array(Math.max(0, to - from) * width);
    const cap = lane_window_max();
    for (let a = from; a < to; a += cap) {
      const b = Math.min(to, a + cap);
      const part = this.guard('lane_states', new Uint8Array(0), (s) => s.lane_states(a, b));
      out.set(part.subarray(0, (b - a) * width), (a - from) * width);
    }
    return out;
  }

  traceCsv(): string { return this.guard('trace_csv', '', (s) => s.trace_csv()); }

  /** Every metric a sweep can plot, in the engine's order (sweeps themselves run in `sweep/worker.ts`). */
  sweepMetrics(): MetricInfo[] { return this.guard<MetricInfo[]>('sweep_metrics', [], () => sweep_metrics() as MetricInfo[]); }
  /** The series of a measurements CSV, read by the engine. */
  measuredSets(csv: string): MeasuredSet[] {
    return this.guard<MeasuredSet[]>('measured_sets', [], () => measured_sets(csv) as MeasuredSet[]);
  }
}
