//! One loaded run's facts as the panels need them, read once per load from an engine: the CFG
//! and its layout (under STRUCT also the kernel's original graph, laid out when first shown),
//! the engine's summaries of the run (the plot's depth and marks, the scrubber strip's events,
//! never a whole-run series: a 50 M-step run's were 150 MB), a compiled kernel's generated code
//! (C or PTX, and a listing's transformed code under STRUCT) and the line lookups (with a PTX
//! kernel's CUDA lines), and the counters' heat, asked of the engine when a panel first shows it.
//! The main view and each side of the compare view hold one.

import { layoutCfg, type Layout, type LayoutOptions } from './cfg-layout';
import type { Engine } from './engine';
import { blockHeat, listingHeat, type BlockHeat, type LineHeat } from './heat';
import type { LoadSource } from './loader';
import { lineMap, type LineMap } from './line-map';
import type { OriginalGraph } from './panels/cfg';
import * as listing from './panels/listing';
import type { PlotData } from './panels/plot';
import type { Strip } from './panels/scrubber';
import { modelInfo } from './model-info';
import type { CfgView, CompiledView, InputsView, LoadResult, OutputLine, ReportView } from './generated/engine';

export interface Run {
  load: LoadResult;
  cfg: CfgView;
  layout: Layout;
  total: number;
  /** How many steps issued no lane (idle instructions): the lanes panel asks which only then. */
  idleSteps: number;
  /** The scrubber strip's event marks. */
  strip: Strip;
  /** A whole launch: the block's steps at which a barrier released its warps. */
  releases: Float64Array;
  plot: PlotData;
  /** A C kernel's generated code (null for assembly), its text as shown, and the line lookups. */
  compiled: CompiledView | null;
  /** Every buffer and param the kernel reads, the launch and the kernels (the Kernel inputs panel). */
  inputs: InputsView | null;
  listingText: string;
  lines: LineMap;
  /** The compare table's metrics, asked of a worker the first time the table shows (`reports.ts`). */
  report: ReportView | null;
  /** What loads this run again, for that worker. */
  source: LoadSource | null;
  /** The compare view's one-line-per-block layout, made the first time a side shows it. */
  compactLayout: Layout | null;
  /** STRUCT: the kernel's graph before the transform (null under every other model), and its
   * layouts (full, compact), made the first time the CFG panel shows it. */
  original: CfgView | null;
  originalLayouts: { full: Layout | null; compact: Layout | null };
  /** What the whole run printed; the Output panel shows the lines up to the step. */
  output: OutputLine[];
  /** The counters' heat, once a panel asked for it (`heatOf`; null: the engine had none). */
  heat?: RunHeat | null;
  /** The user asked for the heat of a run too long to count unasked (`heat.ts`). */
  heatAsked?: boolean;
}

/** Nsight Compute's counters of the run as its panels draw them. */
export interface RunHeat {
  /** Each line of the generated code that holds an instruction (none for assembly). */
  listing: LineHeat[];
  /** Each block of the run's graph. */
  blocks: BlockHeat[];
}

/** What a CFG block's header names: a compiled kernel's source lines; for PTX, its PTX lines and
 * the CUDA lines of its `.loc`. */
/** Compiler output a user pasted (nvcc's PTX, or real SASS from a disassembler), whose lines
 * may carry CUDA lines: the kind, or null for listings and C. */
/** What names the kernel: its `//@ title`, else the function that runs (C, PTX, SASS). */
export function kernelTitle(load: LoadResult | undefined): string | null {
  return load?.title ?? load?.kernel ?? null;
}

export function compilerOutput(compiled: CompiledView | null | undefined): 'ptx' | 'sass' | null {
  const input = compiled?.input;
  return input === 'ptx' || input === 'sass' ? input : null;
}

function sourceLabels(compiled: CompiledView | null): Pick<LayoutOptions, 'sourceLines' | 'code' | 'cudaLines'> {
  return { sourceLines: compiled !== null, code: compilerOutput(compiled), cudaLines: compiled?.cuda_lines ?? [] };
}

/** The block names of STRUCT's original graph, for the copies' "copy of BB3" tags. */
function originalNames(original: CfgView | null): Map<number, string> | undefined {
  return original ? new Map(original.blocks.map((b) => [b.id, b.name])) : undefined;
}

/** A run's full layout (every instruction), with heat rows or not. */
function fullLayout(cfg: CfgView, r: LoadResult, compiled: CompiledView | null, original: CfgView | null, heat: boolean): Layout {
  return layoutCfg(cfg, { ...sourceLabels(compiled), frontiers: r.uses_frontiers, originals: originalNames(original), heat });
}

/** Reads the facts of the run `e` just loaded (`r.ok`, loaded again by `source`), its graph laid
 * out with heat rows when `heat`; null if the engine failed meanwhile. */
export function readRun(e: Engine, r: LoadResult, source: LoadSource | null, heat = false): Run | null {
  const cfg = e.cfg();
  if (!cfg) return null;
  const compiled = e.compiled();
  const original = e.originalCfg();
  return {
    load: r, cfg, layout: fullLayout(cfg, r, compiled, original, heat), total: e.total(),
    ...warpFacts(e, r),
    compiled, inputs: e.inputs(), listingText: compiled ? listing.displayText(compiled.listing) : '',
    lines: lineMap(compiled?.source_lines ?? cfg.instrs.map((i) => i.line), compiled?.listing_lines, compiled?.cuda_lines),
    report: null, source, compactLayout: null, output: e.output(), original, originalLayouts: { full: null, compact: null },
    releases: e.barrierReleases(),
  };
}

/** `run` with its graph laid out with heat rows or without (`run` itself when it already is). */
export function withHeatRows(run: Run, heat: boolean): Run {
  return run.layout.heat === heat ? run : { ...run, layout: fullLayout(run.cfg, run.load, run.compiled, run.original, heat) };
}

/** The run's heat: the engine counts the first time it is asked (a launch runs again), then the
 * run keeps it. Null when the engine has no counts. */
export function heatOf(e: Engine, run: Run): RunHeat | null {
  if (run.heat === undefined) {
    const counts = e.counters(), names = e.counterNames();
    run.heat = counts && { listing: listingHeat(counts, run.lines.listingOfPc, names), blocks: blockHeat(counts, run.cfg.blocks, names) };
  }
  return run.heat;
}

/** The run's facts of the warp shown (a launch's warp in focus): its idle steps, the scrubber
 * strip's events and the stack plot, read again when the focus moves. */
export function warpFacts(e: Engine, r: LoadResult): Pick<Run, 'idleSteps' | 'strip' | 'plot'> {
  const info = modelInfo(r.model);
  return {
    idleSteps: e.idleSteps(), strip: { marks: lastOf((span, inset, w) => e.stripMarks(span, inset, w)) },
    // The capacity line means something only for a stack that spills.
    plot: {
      steps: e.total(), deepest: e.maxDepth(), capacity: info.spills ? r.stack_capacity : null, counts: info.depth,
      columns: lastOf((columns) => e.depthColumns(columns)),
      marks: lastOf((left, width, gap) => e.stackMarks(left, width, gap)),
      depthAt: (step) => e.depthAfter(step),
    },
  };
}

/** `f`, answering again without a call when asked what it was asked last (a summary is a pass
 * over the whole run; the panels ask again on every redraw of the same size). */
export function lastOf<A extends unknown[], T>(f: (...args: A) => T): (...args: A) => T {
  let last: { args: A; value: T } | null = null;
  return (...args: A) => {
    if (!last || last.args.length !== args.length || last.args.some((a, i) => a !== args[i])) last = { args, value: f(...args) };
    return last.value;
  };
}

/** The run's CFG laid out compactly (a summary line per block), for a side of the compare view. */
export function compactLayoutOf(run: Run): Layout {
  run.compactLayout ??= layoutCfg(run.cfg, {
    ...sourceLabels(run.compiled), frontiers: run.load.uses_frontiers, compact: true, originals: originalNames(run.original),
  });
  return run.compactLayout;
}

/** STRUCT's original graph for the CFG panel (`compact` for a compare side), laid out once when
 * first shown; null under every other model. Its blocks name source lines as the run's do, but
 * not CUDA lines (indexed by the transformed program's pcs); no reconvergence arrows: the run
 * reconverges where the transformed graph's post-dominators are. */
export function originalGraphOf(run: Run, compact = false): OriginalGraph | null {
  const cfg = run.original;
  if (!cfg) return null;
  const key = compact ? 'compact' : 'full';
  return {
    cfg,
    layout: () => (run.originalLayouts[key] ??= layoutCfg(cfg, { ...sourceLabels(run.compiled), cudaLines: [], compact, reconv: false })),
  };
}

