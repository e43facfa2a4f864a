//! Shapes of the plain view structs the wasm facade returns (web/src/views.rs). The generated
//! .d.ts types them as `any`, so they are spelled out here once; no values live in this file.

export interface Diagnostic { severity: 'error' | 'warning'; line: number; col: number; len: number; message: string }
export interface ParamView { name: string; default: number; value: number }
export interface StopView {
  /** `stopped`: the user pressed Stop during a long run (the run keeps the steps it ran). */
  kind: 'exited' | 'deadlock' | 'fault' | 'step_limit' | 'stopped' | 'breakpoint' | 'event' | 'budget' | 'end_of_recording';
  /** For a loop that did not end (deadlock, step limit, stopped), `pc` and `line` are the loop's head. */
  step: number; pc: number | null; line: number | null; message: string;
}
export interface LoadResult {
  ok: boolean; diagnostics: Diagnostic[]; title: string | null; about: string; width: number;
  params: ParamView[]; model: string; preset: string; models: string[]; presets: string[];
  /** PDOM stacks' path order and Volta's schedule as used, and the choices. */
  path_order: string; path_orders: string[]; schedule: string; schedules: string[];
  /** The model reconverges at thread frontiers: the CFG shows priorities and frontiers. */
  uses_frontiers: boolean;
  stack_capacity: number;
  /** How the run ended; null while it is still `running`. */
  end: StopView | null;
  /** Loaded with `chunk` and not done: `Session.resume` runs it on (the views show the last run meanwhile). */
  running: boolean;
  /** The step the run ends by at the latest: its step limit, or its `stop_at` if sooner. */
  last_step: number;
}
/** A chunked run's state after `Session.resume` or `Session.stop_run`. */
export interface ProgressView { running: boolean; steps: number; end: StopView | null }
export type LaneStateName = 'active' | 'masked' | 'waiting' | 'exited';
export interface LaneView { lane: number; state: LaneStateName; pc: number | null; line: number | null; block: number | null }
/** Token kinds, PDOM entries, lane groups of the per-thread models, and Volta's barrier
 * registers `B0`..`B15` (and lanes blocked at one, `BSYNC Bn`). */
export type StackKind = 'SYNC' | 'DIV' | 'BRK' | 'CONT' | 'CALL' | 'RECONV' | 'PATH' | 'RUN' | 'WAIT' | 'YIELDED' | 'BARRIER'
  | `BSYNC B${number}` | `B${number}`;
export interface StackEntryView {
  kind: StackKind; bits: string; lanes: number[];
  pc: number; addr: number; line: number | null;
  /** PDOM entries: the address where the entry is popped (null: only when its lanes exit). */
  rpc_addr: number | null;
  on_chip: boolean;
}
export interface RegView { name: string; hex: string; int: number; float: number }
export interface StateView {
  step: number; status: string; pc: number | null; addr: number | null; line: number | null; block: number | null;
  lanes: LaneView[]; stack: StackEntryView[]; registers: RegView[];
  predicates: { name: string; value: boolean }[];
  waiting: { block: number; lanes: number[] }[];
  last: { pc: number; line: number | null; text: string; events: number } | null;
  caption: string | null;
}
export interface InstrView { index: number; addr: number; line: number; text: string; block: number }
export interface BlockView {
  id: number; name: string; instrs: InstrView[]; ipdom: number | null; reconverges_at: number | null;
  is_branch: boolean; priority: number | null; reachable: boolean;
  /** First and last source line of the block's instructions (C lines for a C kernel). */
  source_lines: { first: number; last: number } | null;
  /** Thread frontier (block ids), with layout order as priority. */
  frontier: number[];
}
export interface EdgeView { from: number; to: number; kind: 'taken' | 'fallthrough' | 'sync'; back: boolean }
export interface CfgView { blocks: BlockView[]; edges: EdgeView[]; instrs: InstrView[]; stack_capacity: number }
export interface MetricsView {
  steps: number; warp_instructions: number; thread_instructions: number; simd_efficiency: number;
  pushes: number; pops: number; max_stack_depth: number; spills: number; fills: number;
  divergent_branches: number; cycles: number; idle_instructions: number; block_counts: number[]; instr_counts: number[];
}
export interface MetricsPair { now: MetricsView; total: MetricsView }
export interface NoteView { step: number | null; instr: number | null; line: number; text: string }
export type RunKind = 'end' | 'breakpoint' | 'divergence' | 'reconvergence' | 'spill' | 'fill' | 'event';
export interface LoadOptions {
  params?: Record<string, number>; model?: string; preset?: string; if_convert?: boolean; path_order?: string; schedule?: string;
  /** Steps after which the run stops (absent: the facade's default); outside the facade's
   * `StepLimit` range the load fails with a message. */
  step_limit?: number;
  /** Run only this many steps now; the rest comes from `Session.resume`. */
  chunk?: number;
  /** End the run after exactly this many steps, as stopped (a run the user stopped, loaded again). */
  stop_at?: number;
}
/** The thread-frontier paper's metrics of a whole run (`Session.report`), for the compare table. */
export interface ReportView {
  model: string; stop: StopView;
  warp_instructions: number; thread_instructions: number; activity_factor: number;
  /** Warp instructions over the MIMD minimum, minus one; null for the mimd model, a run that
   * stopped early, or when the MIMD reference did not finish. */
  code_expansion: number | null;
  idle_instructions: number; max_stack_depth: number; divergent_branches: number; cycles: number;
  memory_instructions: number; memory_transactions: number;
  /** Null when the kernel touches no memory. */
  transactions_per_memory_instruction: number | null;
  block_counts: number[];
  /** The fewest fetches of each block any scheme needs (the most runs by one lane). */
  mimd_block_counts: number[];
  mimd_warp_instructions: number; mimd_complete: boolean;
}
/** A C kernel's generated code; per pc, its line in `listing` and in the C source. */
export interface CompiledView {
  target: string; if_convert: boolean; listing: string; listing_lines: number[]; source_lines: number[];
}

/** A sweep as `SweepRun.prepare` reads it (core `SweepRequest`, snake_case): the x param and
 * range, one series per model x preset (x split value), params held fixed, and run options. */
export interface SweepRequest {
  param: string; from: number; to: number;
  /** Empty: the kernel's own model. */
  models: string[];
  /** Empty: each model's own preset. */
  presets: string[];
  split: { param: string; values: number[] } | null;
  params: Record<string, number>;
  costs: Record<string, number>;
  stack: { capacity: number; chunk: number } | null;
  if_convert: boolean | null; path_order: string | null; schedule: string | null; step_limit: number | null;
}
export interface SweepSeriesView { label: string; model: string; preset: string; split_value: number | null }
export interface SweepPrepared { ok: boolean; diagnostics: Diagnostic[]; series: SweepSeriesView[]; points: number }
/** How one run of a sweep ended: `exited`, or why it stopped early (deadlock, fault, step_limit, input_error). */
export interface SweepStopView { kind: string; message: string | null; line: number | null }
/** One run: metric values keyed by the names `sweep_metrics()` lists. */
export interface SweepPointView { series: number; x: number; metrics: Record<string, number>; stop: SweepStopView }
export interface FitRowView { x: number; measured: number; predicted: number; residual: number }
/** A series' cycles plus one base cost fitted to measurements at x = `at`. */
export interface FitView { base: number; at: number; rows: FitRowView[] }
export interface MeasuredSetView { build: string; kernel: string; pattern: string; points: [number, number][] }
export interface MetricInfo { name: string; label: string }
