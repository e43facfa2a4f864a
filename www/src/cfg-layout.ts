//! Layout of the CFG view: block boxes and edge routes from dagre, as plain numbers (no DOM), so
//! the geometry is unit-tested on its own. Back edges are laid out reversed so the graph reads
//! top-down in program order, then their points are flipped back. Under STRUCT a block's header
//! has room for its tag ("copy of BB3", "cut"; `cfg-struct.ts`) between its name and its lines.

import dagre from '@dagrejs/dagre';
import { blockTag, type BlockTag } from './cfg-struct';
import type { BlockView, CfgView, EdgeView } from './generated/engine';

export interface Metrics { charWidth: number; lineHeight: number; headerHeight: number; padding: number }
export const DEFAULT_METRICS: Metrics = { charWidth: 8.4, lineHeight: 19, headerHeight: 26, padding: 10 };

export interface Point { x: number; y: number }
export interface NodeBox {
  id: number; x: number; y: number; width: number; height: number;
  /** "lines 16-18" beside the block's name, when the source lines are shown (C kernels; for PTX
   * "ptx 30-41", with "cuda 14-16" after it when the PTX has `.loc` lines); in a compact layout
   * also the instruction count ("lines 16-18 · 3 instrs"). */
  lines: string | null;
  /** "TF {BB5, BB6}" under the instructions, for the thread-frontier models. */
  frontier: string | null;
  /** STRUCT: "copy of BB3" or "cut" after the block's name. */
  tag: BlockTag | null;
}
export interface EdgeRoute extends EdgeView { points: Point[] }
/** A "reconverges here" arrow from a divergent branch block to its reconvergence block. */
export interface ReconvRoute { from: number; to: number; points: Point[] }
export interface Layout {
  width: number; height: number; nodes: NodeBox[]; edges: EdgeRoute[]; reconv: ReconvRoute[];
  frontiers: boolean;
  /** Blocks show a one-line summary instead of their instructions. */
  compact: boolean;
  /** Each block ends with a row for the counters' heat (`heatRowY`). */
  heat: boolean;
}

/** Room above the first block for a "lanes ... wait" badge (badges sit just above blocks). */
export const BADGE_ROOM = 30;

/** The text lines of a block box, shared by the layout (for sizes) and the renderer. */
export function blockLines(b: BlockView): string[] {
  return b.instrs.map((i) => `${i.addr.toString(16).padStart(4, '0')}  ${i.text}`);
}

/** What a block's header names of its source, for a kernel compiled from C or PTX. */
export interface SourceLabels {
  /** Compiler output: its lines are PTX or SASS lines ("ptx 30-41"); null for other kernels. */
  code: 'ptx' | 'sass' | null;
  /** Each pc's CUDA line from PTX's `.loc` or SASS's `-g` lines (0: none); empty without them. */
  cudaLines: readonly number[];
}

/** "cuda 14-16": the CUDA lines a block's instructions came from (PTX's `.loc`), or null when
 * none of them has one. */
export function cudaLinesLabel(b: BlockView, cudaLines: readonly number[]): string | null {
  const lines = b.instrs.map((i) => cudaLines[i.index] ?? 0).filter((l) => l > 0);
  if (!lines.length) return null;
  const first = Math.min(...lines), last = Math.max(...lines);
  return first === last ? `cuda ${first}` : `cuda ${first}-${last}`;
}

/** A block's header label: its source lines ("lines 16-18"; for PTX "ptx 30-41 · cuda 14-16", for SASS "sass 30-41 · cuda 14-16"). */
export function sourceLabel(b: BlockView, src: SourceLabels | null): string | null {
  if (!src) return null;
  const lines = linesLabel(b);
  if (!src.code) return lines;
  const own = lines && lines.replace(/^lines? /, `${src.code} `);
  const parts = [own, cudaLinesLabel(b, src.cudaLines)].filter((x) => x !== null);
  return parts.length ? parts.join(' · ') : null;
}

/** A compact block's header note: its source lines (compiled kernels) and how many instructions it has. */
export function compactLabel(b: BlockView, src: SourceLabels | null): string {
  const n = b.instrs.length;
  return [sourceLabel(b, src), `${n} instr${n === 1 ? '' : 's'}`].filter((x) => x !== null).join(' · ');
}

/** The text rows of a block box: its instructions, none in a compact layout (the header says how many). */
export function blockRows(b: BlockView, compact: boolean): string[] {
  return compact ? [] : blockLines(b);
}

/** Minimum width of a reconvergence block, so its "reconverges here" tag fits beside the name. */
export const RECONV_MIN_WIDTH = 200;
/** Room the "reconverges here" tag takes at the right of a block's header. */
export const RECONV_TAG_ROOM = 140;

/** The source line range of a block, as shown in its header. */
export function linesLabel(b: BlockView): string | null {
  const r = b.source_lines;
  if (!r) return null;
  return r.first === r.last ? `line ${r.first}` : `lines ${r.first}-${r.last}`;
}

/** Where a block's tag ("copy of BB3") starts in its header: after the name and a gap. */
export function tagX(b: BlockView, m: Metrics): number {
  return m.padding + (b.name.length + 1.5) * m.charWidth;
}

/** Width of a tag's pill: its 12.5px bold text and some room either side. */
export function tagWidth(tag: BlockTag | null): number {
  return tag ? Math.ceil(tag.text.length * 8 + 14) : 0;
}

/** Where the line range starts in a block's header: after the name (and its tag) and a gap. */
export function linesLabelX(b: BlockView, m: Metrics, tag: BlockTag | null = null): number {
  return tagX(b, m) + (tag ? tagWidth(tag) + m.charWidth : 0);
}

/** "TF {BB5, BB6}": a block's thread frontier by block name ("TF {}" when empty). */
export function frontierLabel(b: BlockView, names: Map<number, string>): string {
  return `TF {${b.frontier.map((id) => names.get(id) ?? `BB${id}`).join(', ')}}`;
}

/** "priority 3" at the right of a thread-frontier block's header: its layout order. */
export function priorityLabel(b: BlockView): string {
  return `priority ${b.id}`;
}

/** Where a block's heat row starts: under its instructions and its frontier row. */
export function heatRowY(b: BlockView, node: Pick<NodeBox, 'frontier'>, compact: boolean, m: Metrics = DEFAULT_METRICS): number {
  return m.headerHeight + (blockRows(b, compact).length + (node.frontier === null ? 0 : 1)) * m.lineHeight;
}

function boxSize(
  b: BlockView, m: Metrics, isTarget: boolean, lines: string | null, frontier: string | null, tag: BlockTag | null, compact: boolean, heat: boolean,
): { width: number; height: number } {
  const rows = blockRows(b, compact);
  const longest = Math.max(12, ...rows.map((l) => l.length), frontier?.length ?? 0);
  const right = isTarget ? RECONV_TAG_ROOM : frontier !== null ? (priorityLabel(b).length + 2) * m.charWidth : m.padding;
  const header = lines === null && frontier === null && tag === null ? 0 : linesLabelX(b, m, tag) + (lines?.length ?? 0) * m.charWidth + right;
  return {
    width: Math.ceil(Math.max(isTarget ? RECONV_MIN_WIDTH : 0, longest * m.charWidth + 2 * m.padding, header)),
    height: Math.ceil(m.headerHeight + (rows.length + (frontier === null ? 0 : 1) + (heat ? 1 : 0)) * m.lineHeight + m.padding),
  };
}

export interface LayoutOptions {
  /** Show each block's source line range (for C kernels, where blocks span C lines). */
  sourceLines: boolean;
  /** Compiler output (PTX or real SASS): its blocks name the text's lines so ("ptx 30-41")... */
  code?: 'ptx' | 'sass' | null;
  /** ...and, with `.loc`, the CUDA lines of each pc ("cuda 14-16"; 0: none). */
  cudaLines?: readonly number[];
  /** Thread-frontier models: each block's priority and frontier instead of post-dominator arrows
   * (those models do not reconverge at the post-dominator). */
  frontiers?: boolean;
  /** A one-line summary per block instead of its instructions, with tighter spacing: the
   * compare view's narrow sides, where whole blocks would not be readable. */
  compact?: boolean;
  /** STRUCT: the original graph's block names, for the "copy of BB3" tags. */
  originals?: ReadonlyMap<number, string>;
  /** Reconvergence arrows (default on); off for STRUCT's original graph, which does not run as
   * drawn: its post-dominators are not where the run reconverges. */
  reconv?: boolean;
  /** A row under each block's instructions for the counters' heat (`heat.ts`). */
  heat?: boolean;
}

export function layoutCfg(cfg: Pick<CfgView, 'blocks' | 'edges'>, opts: LayoutOptions = { sourceLines: false }, m: Metrics = DEFAULT_METRICS): Layout {
  const g = new dagre.graphlib.Graph({ multigraph: true });
  const compact = opts.compact ?? false;
  const heat = opts.heat ?? false;
  g.setGraph({ rankdir: 'TB', nodesep: compact ? 30 : 40, ranksep: compact ? 34 : 46, edgesep: 16, marginx: 16, marginy: BADGE_ROOM });
  g.setDefaultEdgeLabel(() => ({}));
  const frontiers = opts.frontiers ?? false;
  const arrows = !frontiers && (opts.reconv ?? true);
  const targets = new Set(arrows ? cfg.blocks.map((b) => b.reconverges_at).filter((t): t is number => t != null) : []);
  const src = opts.sourceLines ? { code: opts.code ?? null, cudaLines: opts.cudaLines ?? [] } : null;
  const labels = new Map(cfg.blocks.map((b) => [b.id, compact ? compactLabel(b, src) : sourceLabel(b, src)]));
  const names = new Map(cfg.blocks.map((b) => [b.id, b.name]));
  const tf = new Map(cfg.blocks.map((b) => [b.id, frontiers ? frontierLabel(b, names) : null]));
  const tags = new Map(cfg.blocks.map((b) => [b.id, blockTag(b, opts.originals ?? new Map())]));
  for (const b of cfg.blocks) {
    g.setNode(String(b.id), boxSize(b, m, targets.has(b.id), labels.get(b.id) ?? null, tf.get(b.id) ?? null, tags.get(b.id) ?? null, compact, heat));
  }
  cfg.edges.forEach((e, i) => {
    const [v, w] = e.back ? [e.to, e.from] : [e.from, e.to];
    // Fall-through edges keep straight lines: they are the program's reading order.
    g.setEdge(String(v), String(w), { weight: e.kind === 'fallthrough' ? 4 : 1, minlen: 1 }, `e${i}`);
  });
  dagre.layout(g);

  const nodes: NodeBox[] = cfg.blocks.map((b) => {
    const n = g.node(String(b.id));
    return {
      id: b.id, x: n.x - n.width / 2, y: n.y - n.height / 2, width: n.width, height: n.height,
      lines: labels.get(b.id) ?? null, frontier: tf.get(b.id) ?? null, tag: tags.get(b.id) ?? null,
    };
  });
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const edges: EdgeRoute[] = cfg.edges.map((e, i) => {
    const [v, w] = e.back ? [e.to, e.from] : [e.from, e.to];
    const pts = (g.edge(String(v), String(w), `e${i}`).points ?? []).map((p: Point) => ({ x: p.x, y: p.y }));
    return { ...e, points: e.back ? pts.reverse() : pts };
  });

  // Reconvergence arrows run down the right-hand side, clear of the control-flow edges.
  const maxRight = Math.max(0, ...nodes.map((n) => n.x + n.width));
  const reconv: ReconvRoute[] = [];
  for (const b of cfg.blocks) {
    if (b.reconverges_at == null || !targets.has(b.reconverges_at)) continue;
    const a = byId.get(b.id), t = byId.get(b.reconverges_at);
    if (!a || !t) continue;
    const lane = maxRight + 24 + 14 * reconv.length;
    const start = { x: a.x + a.width, y: a.y + a.height - 12 };
    const end = { x: t.x + t.width, y: t.y + 14 };
    reconv.push({ from: b.id, to: b.reconverges_at, points: [start, { x: lane, y: start.y }, { x: lane, y: end.y }, end] });
  }

  const allPts = [...edges.flatMap((e) => e.points), ...reconv.flatMap((r) => r.points)];
  const width = Math.max(g.graph().width ?? 0, ...allPts.map((p) => p.x + 16), ...nodes.map((n) => n.x + n.width + 16));
  const height = Math.max(g.graph().height ?? 0, ...allPts.map((p) => p.y + 16));
  return { width, height, nodes, edges, reconv, frontiers, compact, heat };
}
