//! The one module that imports the generated wasm package (web/pkg), as a thin wrapper over
//! `Session`. Every call goes through `guard`, so a thrown error becomes a banner instead of a
//! dead page; a Rust panic poisons the instance, so then the session is replaced by a fresh, empty
//! one (with the same breakpoints) and `restarted` says so: loading the last good run again is the
//! loader's (`loader.ts`), as is driving a chunked load (`load` with `chunk`, `resume`, `stopRun`).
//! The permalink codec is the core's (`decodeLink`, `encodeLink`).

import init, {
  counter_names, decode_link, encode_link, EventBit, initSync, LaneCode, lane_window_max, measured_sets, memory_window_max, metric_infos, model_infos, glossary, Session, set_header,
  StepLimit, WarpCode,
} from '../../web/pkg/warpscope_web.js';
import { setModelInfos } from './model-info';
import type {
  Beside, CfgView, CheckReport, CompiledView, CounterName, ExchangeView, HeaderEdit, InputsView, LoadRequest, ModelAbout, LoadResult, MeasuredSet, MemoryView, MetricInfo, MetricsPair, NoteView,
  Progress, ReportView, RunCounts, StateView, Outcome, Term, OutputLine, WarpNow,
} from './generated/engine';

/** `Session.load`'s options: any part of the core's run request (the facade supplies the text,
 * recording and dropping stale params), and `chunk`. */
export type LoadOptions = Partial<LoadRequest>;
/** What `Session.run_until` runs to (the core's `Until` names). */
export type RunKind = 'end' | 'breakpoint' | 'divergence' | 'reconvergence' | 'spill' | 'fill' | 'event';

// Enums come from the generated package, never copied by hand. `StepLimit` (the default and the
// range `load` takes) is there before the wasm starts, so the store and settings read it at once.
export { EventBit, LaneCode, StepLimit, WarpCode };

export type ErrorSink = (message: string) => void;

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

/** `text` with one `//@` input line set or removed by the core (`null` if the engine refused the edit). */
export function setHeader(text: string, edit: HeaderEdit): string | null {
  try {
    return set_header(text, edit);
  } catch {
    return null;
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
  private breakpoints = new Uint32Array(0);
  /** The step the session stands at, as far as calls through here know: the fallback of a failed
   * move, and where a restart's replay goes back to. */
  private lastStep = 0;
  /** A restart is under way: a failure inside it ends it (`revive` says so) instead of another one. */
  private restarting = false;

  /** The session was replaced after a trap: the fresh one is empty but for the breakpoints, and
   * `step` is where the lost one stood. The loader (`RunLoader`) loads the last good run again. */
  restarted: (step: number) => void = () => {};

  private constructor(private readonly sink: ErrorSink) {
    this.session = new Session();
  }

  static async create(report: ErrorSink): Promise<Engine> {
    await init();
    setModelInfos(model_infos() as ModelAbout[], glossary() as Term[]);
    return new Engine(report);
  }

  /** Another engine with its own session (the compare view's second run); the wasm is loaded already. */
  static another(report: ErrorSink): Engine {
    return new Engine(report);
  }

  /** For Node (unit tests), where the wasm bytes are read from disk. */
  static fromBytes(bytes: BufferSource, report: ErrorSink): Engine {
    initSync({ module: bytes });
    setModelInfos(model_infos() as ModelAbout[], glossary() as Term[]);
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
      if (this.restarting) throw e;
      const poison = poisoned(e);
      this.sink(`The engine failed in ${what}: ${messageOf(e)}${poison ? ' (restarted the engine)' : ''}`);
      if (poison) this.revive();
      return fallback;
    }
  }

  private revive(): void {
    try { this.session.free(); } catch { /* already unusable */ }
    this.restarting = true;
    try {
      this.session = new Session();
      this.session.set_breakpoints(this.breakpoints);
      this.restarted(this.lastStep);
    } catch (e) {
      this.sink(`The engine could not restart: ${messageOf(e)}`);
    } finally {
      this.restarting = false;
    }
  }

  private track(t: number): number {
    this.lastStep = t;
    return t;
  }

  /** Parses and runs `text`; on errors the previous run stays loaded (`ok` is false). With
   * `options.chunk` the run may still be `running`: the previous run stays loaded until it ends. */
  load(text: string, options: LoadOptions): LoadResult | null {
    const r = this.guard<LoadResult | null>('load', null, (s) => s.load(text, options) as LoadResult);
    if (r?.ok && !r.running) this.lastStep = 0;
    return r;
  }

  /** compute-sanitizer's four tools on the run of `text` under `options` (as `load` takes them):
   * null when it does not run. */
  check(text: string, options: LoadOptions): CheckReport | null {
    return this.guard<CheckReport | null>('check', null, (s) => s.check(text, options) as CheckReport | null);
  }

  /** Runs a pending load `budget` steps further; when it ends, its run is the loaded one. */
  resume(budget: number): Progress | null {
    return this.progressed(this.guard<Progress | null>('resume', null, (s) => s.resume(budget) as Progress));
  }

  /** Ends a pending load where it is: its steps so far are the loaded run (`end.kind` is `stopped`). */
  stopRun(): Progress | null {
    return this.progressed(this.guard<Progress | null>('stop_run', null, (s) => s.stop_run() as Progress));
  }

  /** A chunked load has not ended yet. */
  running(): boolean { return this.guard('running', false, (s) => s.running()); }

  private progressed(p: Progress | null): Progress | null {
    // A pending load that ended is the loaded run now, at step 0.
    if (p && !p.running && p.end) this.lastStep = 0;
    return p;
  }

  total(): number { return this.guard('total_steps', 0, (s) => s.total_steps()); }
  current(): number { return this.guard('current', 0, (s) => s.current()); }
  seek(t: number): number { return this.track(this.guard('seek', this.lastStep, (s) => s.seek(t))); }
  /** `seek(t)` and `laneStates(from, to, width)` in one call, so the engine can serve both from
   * one replay; `to - from` at most `lane_window_max()`. */
  seekWithLanes(t: number, from: number, to: number, width: number): { step: number; codes: Uint8Array } {
    const codes = this.guard('seek_with_lanes', new Uint8Array(0), (s) => s.seek_with_lanes(t, from, to));
    const step = this.track(this.current());
    return { step, codes: codes.length === (to - from) * width ? codes : this.laneStates(from, to, width) };
  }
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
  /** What the step just taken exchanged between lanes, if it was a shuffle (`SHFL`). */
  exchange(): ExchangeView | null {
    return this.guard<ExchangeView | null>('exchange', null, (s) => s.exchange() as ExchangeView | null);
  }

  /** The kernel's inputs: every buffer and param (declared or made), the launch, the kernels. */
  inputs(): InputsView | null {
    return this.guard<InputsView | null>('inputs', null, (s) => s.inputs() as InputsView | null);
  }

  /** Every buffer at the current step and what that step did to memory. */
  memory(): MemoryView | null {
    return this.guard<MemoryView | null>('memory', null, (s) => s.memory() as MemoryView | null);
  }
  /** Elements `from..to` of buffer `buffer` at the current step, as the engine writes them;
   * split into allowed windows. */
  memoryCells(buffer: number, from: number, to: number): string[] {
    const out: string[] = [];
    const cap = memory_window_max();
    for (let a = from; a < to; a += cap) {
      const part = this.guard<string[]>('memory_cells', [], (s) => s.memory_cells(buffer, a, Math.min(to, a + cap)));
      out.push(...part);
      if (part.length < Math.min(to, a + cap) - a) break;
    }
    return out;
  }
  cfg(): CfgView | null { return this.guard<CfgView | null>('cfg', null, (s) => s.cfg() as CfgView | null); }
  /** Under STRUCT, the kernel's graph before the transform; null for every other model. */
  originalCfg(): CfgView | null {
    return this.guard<CfgView | null>('original_cfg', null, (s) => s.original_cfg() as CfgView | null);
  }
  /** The generated code of a C kernel; null for assembly. */
  compiled(): CompiledView | null {
    return this.guard<CompiledView | null>('compiled', null, (s) => s.compiled() as CompiledView | null);
  }
  /** PTX pasted beside a SASS kernel, lined up with it by CUDA line; null unless SASS is loaded. */
  ptxBeside(ptx: string): Beside | null {
    return this.guard<Beside | null>('ptx_beside', null, (s) => s.ptx_beside(ptx) as Beside | null);
  }
  metrics(): MetricsPair | null {
    return this.guard<MetricsPair | null>('metrics', null, (s) => s.metrics() as MetricsPair | null);
  }
  /** The whole run's comparison metrics; the first call per load runs the MIMD reference. */
  report(): ReportView | null {
    return this.guard<ReportView | null>('report', null, (s) => s.report() as ReportView | null);
  }
  /** Nsight Compute's counters of the run on screen, per pc: the whole launch's (every block)
   * or the one warp's. The first call per load counts them (the launch runs again, or the warp's
   * run is replayed); later calls return them. */
  counters(): RunCounts | null {
    return this.guard<RunCounts | null>('counters', null, (s) => s.counters() as RunCounts | null);
  }
  /** ncu's names of the counts, in the engine's order, read once (they never change). */
  counterNames(): CounterName[] {
    if (this.names.length === 0) this.names = this.guard<CounterName[]>('counter_names', [], () => counter_names() as CounterName[]);
    return this.names;
  }
  private names: CounterName[] = [];
  notes(): NoteView[] { return this.guard<NoteView[]>('notes', [], (s) => (s.notes() as NoteView[]) ?? []); }
  /** What the whole run printed (printf), in the order printed, each line with its step and lane. */
  output(): OutputLine[] { return this.guard<OutputLine[]>('output', [], (s) => (s.output() as OutputLine[]) ?? []); }

  /** The stack plot's depth path in `columns` columns: every step's depth when there are at most
   * two steps a column, else `[last step, max, min, last depth]` per column. */
  depthColumns(columns: number): Uint32Array {
    return this.guard('depth_columns', new Uint32Array(0), (s) => s.depth_columns(columns));
  }
  /** The stack plot's spill and fill marks on an axis from `left`, `width` wide, at least `gap`
   * apart: `[step, spill (1 or 0), depth after it]` each. */
  stackMarks(left: number, width: number, gap: number): Uint32Array {
    return this.guard('stack_marks', new Uint32Array(0), (s) => s.stack_marks(left, width, gap));
  }
  /** The scrubber strip's marks over `span` steps on a strip `width` pixels wide with `inset` at
   * each end, `[row, step]` each (rows: divergences, reconvergences, spills and fills); with
   * `other`, of both runs' events. */
  stripMarks(span: number, inset: number, width: number, other: Engine | null = null): Uint32Array {
    return this.guard('strip_marks', new Uint32Array(0), (s) =>
      (other ? s.strip_marks_with(other.session, span, inset, width) : s.strip_marks(span, inset, width)));
  }
  /** The first step after `step` with one of the `EventBit`s `bits`. */
  nextEvent(step: number, bits: number): number | null {
    return this.guard('next_event', null, (s) => s.next_event(step, bits) ?? null);
  }
  /** The last step before `step` with one of the `EventBit`s `bits`. */
  prevEvent(step: number, bits: number): number | null {
    return this.guard('prev_event', null, (s) => s.prev_event(step, bits) ?? null);
  }
  /** The stack depth after `step` steps (0 before the first). */
  depthAfter(step: number): number { return this.guard('depth_after', 0, (s) => s.depth_after(step)); }
  /** The deepest the run's stack went. */
  maxDepth(): number { return this.guard('max_depth', 0, (s) => s.max_depth()); }
  /** How many steps of the run issued no lane (idle instructions). */
  idleSteps(): number { return this.guard('idle_steps', 0, (s) => s.idle_steps()); }

  /** Lanes issued at each of steps from+1..=to; split into allowed chunks. */
  issuedLanes(from: number, to: number): Uint8Array {
    return this.windowed('issued_lanes', from, to, 1, (s, a, b) => s.issued_lanes(a, b));
  }

  /** Lane codes (`LaneCode`) for steps from+1..=to, W per step; split into allowed chunks. */
  laneStates(from: number, to: number, width: number): Uint8Array {
    return this.windowed('lane_states', from, to, width, (s, a, b) => s.lane_states(a, b));
  }

  /** `per` bytes a step for steps from+1..=to from `f`, asked in windows the engine allows. */
  private windowed(what: string, from: number, to: number, per: number, f: (s: Session, a: number, b: number) => Uint8Array): Uint8Array {
    const out = new Uint8Array(Math.max(0, to - from) * per);
    const cap = lane_window_max();
    for (let a = from; a < to; a += cap) {
      const b = Math.min(to, a + cap);
      const part = this.guard(what, new Uint8Array(0), (s) => f(s, a, b));
      out.set(part.subarray(0, (b - a) * per), (a - from) * per);
    }
    return out;
  }

  traceCsv(): string { return this.guard('trace_csv', '', (s) => s.trace_csv()); }

  /** A whole launch: every warp of the block on screen at the current step (empty for one warp alone). */
  warpsNow(): WarpNow[] { return this.guard<WarpNow[]>('warps_now', [], (s) => (s.warps_now() as WarpNow[]) ?? []); }
  /** `WarpCode`s of every warp of the block for steps from+1..=to, `warps` per step; split into allowed chunks. */
  warpsWindow(from: number, to: number, warps: number): Uint8Array {
    return this.windowed('warps_window', from, to, warps, (s, a, b) => s.warps_window(a, b));
  }
  /** Puts warp `w` of the block in focus: every per-warp view follows it. The warp in focus. */
  focus(w: number): number { return this.guard('focus', 0, (s) => s.focus(w)); }
  /** The warp in focus (a breakpoint another warp reaches moves it); null for one warp alone. */
  focused(): number | null { const w = this.guard('focused', -1, (s) => s.focused()); return w < 0 ? null : w; }
  /** The warp that issued step `t` of the block; null: none. */
  issuerOf(t: number): number | null { const w = this.guard('issuer_of', -1, (s) => s.issuer_of(t)); return w < 0 ? null : w; }
  /** The block's step where warp `w` next (previous) issues; null: none. */
  nextIssueOf(w: number): number | null { const t = this.guard('next_issue_of', -1, (s) => s.next_issue_of(w)); return t < 0 ? null : t; }
  prevIssueOf(w: number): number | null { const t = this.guard('prev_issue_of', -1, (s) => s.prev_issue_of(w)); return t < 0 ? null : t; }
  /** The block's steps at which a barrier released its warps (empty for one warp alone). */
  barrierReleases(): Float64Array { return this.guard('barrier_releases', new Float64Array(0), (s) => s.barrier_releases()); }
  /** Who last wrote elements `from..to` of shared buffer `buffer` up to the current step:
   * `[warp, lane, step]` each, -1s for none; empty for one warp alone or a global buffer. */
  sharedWriters(buffer: number, from: number, to: number): Int32Array {
    const cap = memory_window_max(), parts: Int32Array[] = [];
    for (let a = from; a < to; a += cap) parts.push(this.guard('shared_writers', new Int32Array(0), (s) => s.shared_writers(buffer, a, Math.min(to, a + cap))));
    if (parts.length === 1) return parts[0];
    const out = new Int32Array(parts.reduce((n, q) => n + q.length, 0));
    let at = 0;
    for (const q of parts) { out.set(q, at); at += q.length; }
    return out;
  }

  /** Every metric a sweep can plot, in the engine's order (sweeps themselves run in `sweep/worker.ts`). */
  /** Every metric the engine counts, in table order (`sim::Metric`): sweeps plot them, the metrics panel lists them. */
  metricInfos(): MetricInfo[] {
    if (this.metricList.length === 0) this.metricList = this.guard<MetricInfo[]>('metric_infos', [], () => metric_infos() as MetricInfo[]);
    return this.metricList;
  }
  /** The engine's metric list, read once (it never changes). */
  private metricList: MetricInfo[] = [];
  /** The series of a measurements CSV, read by the engine. */
  measuredSets(csv: string): MeasuredSet[] {
    return this.guard<MeasuredSet[]>('measured_sets', [], () => measured_sets(csv) as MeasuredSet[]);
  }
}
