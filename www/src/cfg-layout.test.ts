import { describe, expect, it } from 'vitest';
import {
  BADGE_ROOM, blockLines, compactLabel, cudaLinesLabel, DEFAULT_METRICS, frontierLabel, heatRowY, layoutCfg, linesLabel, linesLabelX, priorityLabel,
  RECONV_MIN_WIDTH, RECONV_TAG_ROOM,
} from './cfg-layout';
import type { BlockView, EdgeView } from './generated/engine';

// The single loop's CFG as the facade reports it (warpscope cfg examples/single_loop.sass).
function block(id: number, texts: string[], extra: Partial<BlockView> = {}): BlockView {
  return {
    id, name: `BB${id}`, original: null, copy: 0, made: false, ipdom: null, reconverges_at: null, is_branch: false, priority: id, reachable: true, source_lines: null, frontier: [],
    instrs: texts.map((text, k) => ({ index: id * 10 + k, addr: 0x100 + 8 * (id * 10 + k), line: id * 10 + k, text, block: id })),
    ...extra,
  };
}
const blocks: BlockView[] = [
  block(0, ['ISETP.LT.AND P0, PT, R5, 0x1, PT', 'SSY 0x128', '@P0 BRA 0x120'], { is_branch: true, reconverges_at: 3 }),
  block(1, ['NOP', 'NOP']),
  block(2, ['IADD R4, R4, 0x1', 'FADD32I R0, R0, 1.3332999944686889648', 'ISETP.LT.AND P0, PT, R4, R5, PT', '@P0 BRA 0x100'],
    { is_branch: true, reconverges_at: 3 }),
  block(3, ['NOP.S']),
  block(4, ['S2R R5, SR_CLOCKHI']),
];
const edges: EdgeView[] = [
  { from: 0, to: 3, kind: 'taken', back: false },
  { from: 0, to: 1, kind: 'fallthrough', back: false },
  { from: 1, to: 2, kind: 'fallthrough', back: false },
  { from: 2, to: 2, kind: 'taken', back: true },
  { from: 2, to: 3, kind: 'fallthrough', back: false },
  { from: 3, to: 4, kind: 'sync', back: false },
];

const overlap = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('layoutCfg', () => {
  const l = layoutCfg({ blocks, edges });

  it('places every block once, without overlaps, inside the canvas', () => {
    expect(l.nodes.map((n) => n.id)).toEqual([0, 1, 2, 3, 4]);
    for (const a of l.nodes) {
      expect(a.x).toBeGreaterThanOrEqual(0);
      expect(a.y).toBeGreaterThanOrEqual(BADGE_ROOM - 1); // room for a waiting-lanes badge above
      expect(a.x + a.width).toBeLessThanOrEqual(l.width);
      expect(a.y + a.height).toBeLessThanOrEqual(l.height);
      for (const b of l.nodes) if (a !== b) expect(overlap(a, b)).toBe(false);
    }
  });

  it('reads top-down in program order although the loop has a back edge', () => {
    const ys = l.nodes.map((n) => n.y);
    for (let i = 1; i < ys.length; i++) expect(ys[i]).toBeGreaterThan(ys[i - 1]);
  });

  it('sizes boxes to hold their longest line', () => {
    const n2 = l.nodes[2];
    const longest = Math.max(...blockLines(blocks[2]).map((s) => s.length));
    expect(n2.width).toBeGreaterThanOrEqual(longest * 8);
    expect(n2.height).toBeGreaterThan(l.nodes[3].height);
    // BB3 (one short NOP.S) is a reconvergence point: wide enough for its tag.
    expect(l.nodes[3].width).toBeGreaterThanOrEqual(RECONV_MIN_WIDTH);
  });

  it('routes every edge from its source to its target, back edges included', () => {
    expect(l.edges).toHaveLength(edges.length);
    for (const e of l.edges) {
      expect(e.points.length).toBeGreaterThanOrEqual(2);
      const src = l.nodes[e.from], dst = l.nodes[e.to];
      if (e.back) continue; // a self-loop leaves and enters the same box
      expect(e.points[0].y).toBeLessThanOrEqual(src.y + src.height + 1);
      expect(e.points.at(-1)!.y).toBeGreaterThanOrEqual(dst.y - 1);
    }
  });

  it('draws one reconvergence arrow per divergent branch, to its reconvergence block', () => {
    expect(l.reconv.map((r) => [r.from, r.to])).toEqual([[0, 3], [2, 3]]);
    for (const r of l.reconv) {
      const dst = l.nodes[r.to];
      const end = r.points.at(-1)!;
      expect(end.x).toBeCloseTo(dst.x + dst.width);
      expect(end.y).toBeGreaterThan(dst.y);
      expect(end.y).toBeLessThan(dst.y + dst.height);
      // Clear of every block on its way down.
      for (const n of l.nodes) expect(r.points[1].x).toBeGreaterThan(n.x + n.width);
    }
  });

  it('shows source line ranges only when asked, clear of the reconvergence tag', () => {
    expect(l.nodes.every((n) => n.lines === null)).toBe(true);
    const withLines = blocks.map((b) => ({ ...b, source_lines: { first: 100 + b.id, last: b.id === 1 ? 100 + b.id : 118 } }));
    const lc = layoutCfg({ blocks: withLines, edges }, { sourceLines: true });
    expect(lc.nodes.map((n) => n.lines)).toEqual(['lines 100-118', 'line 101', 'lines 102-118', 'lines 103-118', 'lines 104-118']);
    expect(linesLabel({ ...blocks[0], source_lines: null })).toBeNull();
    // BB3 reconverges: its name, its range and the tag fit side by side.
    const n3 = lc.nodes[3], m = DEFAULT_METRICS;
    expect(linesLabelX(withLines[3], m) + n3.lines!.length * m.charWidth).toBeLessThanOrEqual(n3.width - RECONV_TAG_ROOM);
  });

  it('for PTX with .loc lines, names each block\'s PTX lines and the CUDA lines its instructions came from', () => {
    const withLines = blocks.map((b) => ({ ...b, source_lines: { first: 30 + b.id, last: b.id === 1 ? 30 + b.id : 48 } }));
    // Each pc's CUDA line (pcs are id * 10 + k); 0: an instruction with none (one warpscope inserted).
    const cuda: number[] = [];
    [[0, 14], [1, 0], [2, 16], [10, 17], [11, 17], [20, 21], [21, 0], [22, 18], [23, 18], [30, 0], [40, 25]].forEach(([pc, l]) => { cuda[pc] = l; });
    expect(blocks.map((b) => cudaLinesLabel(b, cuda))).toEqual(['cuda 14-16', 'cuda 17', 'cuda 18-21', null, 'cuda 25']);
    // Without .loc the PTX lines alone; a block of inserted instructions names no CUDA line.
    expect(cudaLinesLabel(blocks[0], [])).toBeNull();
    const lp = layoutCfg({ blocks: withLines, edges }, { sourceLines: true, code: 'ptx', cudaLines: cuda });
    expect(lp.nodes.map((n) => n.lines)).toEqual(['ptx 30-48 · cuda 14-16', 'ptx 31 · cuda 17', 'ptx 32-48 · cuda 18-21', 'ptx 33-48', 'ptx 34-48 · cuda 25']);
    expect(layoutCfg({ blocks: withLines, edges }, { sourceLines: true, code: 'ptx' }).nodes[0].lines).toBe('ptx 30-48');
    expect(compactLabel(withLines[1], { code: 'ptx', cudaLines: cuda })).toBe('ptx 31 · cuda 17 · 2 instrs');
    // The longer label still fits beside the name and clear of the reconvergence tag.
    const n3 = lp.nodes[3], m = DEFAULT_METRICS;
    expect(linesLabelX(withLines[3], m) + n3.lines!.length * m.charWidth).toBeLessThanOrEqual(n3.width - RECONV_TAG_ROOM);
    const n0 = lp.nodes[0];
    expect(linesLabelX(withLines[0], m) + n0.lines!.length * m.charWidth).toBeLessThanOrEqual(n0.width - m.padding);
  });

  it('for thread frontiers: a TF row and a priority in each block, no post-dominator arrows', () => {
    // Frontiers as the facade gives them (layout order as priority).
    const tf = blocks.map((b) => ({ ...b, frontier: b.id === 1 ? [2, 3] : b.id === 2 ? [3] : [] }));
    const lt = layoutCfg({ blocks: tf, edges }, { sourceLines: false, frontiers: true });
    expect(lt.frontiers).toBe(true);
    expect(lt.reconv).toEqual([]);
    expect(lt.nodes.map((n) => n.frontier)).toEqual(['TF {}', 'TF {BB2, BB3}', 'TF {BB3}', 'TF {}', 'TF {}']);
    const m = DEFAULT_METRICS;
    for (const [i, n] of lt.nodes.entries()) {
      // One more row than the instructions; the name and the priority fit in the header.
      expect(n.height).toBe(l.nodes[i].height + m.lineHeight);
      expect(linesLabelX(tf[i], m) + priorityLabel(tf[i]).length * m.charWidth).toBeLessThanOrEqual(n.width);
      expect(n.frontier!.length * m.charWidth + 2 * m.padding).toBeLessThanOrEqual(n.width);
    }
    expect(frontierLabel({ ...tf[0], frontier: [4, 9] }, new Map([[4, 'BB4']]))).toBe('TF {BB4, BB9}');
    expect(l.frontiers).toBe(false);
    expect(l.nodes.every((n) => n.frontier === null)).toBe(true);
  });

  it('with heat: a row under each block\'s instructions (and under its frontier row)', () => {
    const m = DEFAULT_METRICS;
    const lh = layoutCfg({ blocks, edges }, { sourceLines: false, heat: true });
    expect([lh.heat, l.heat]).toEqual([true, false]);
    for (const [i, n] of lh.nodes.entries()) {
      expect(n.height).toBe(l.nodes[i].height + m.lineHeight);
      // The row starts under the last instruction's and ends a padding above the box's bottom.
      expect(heatRowY(blocks[i], n, false) + m.lineHeight + m.padding).toBe(n.height);
    }
    const tf = blocks.map((b) => ({ ...b, frontier: [] }));
    const both = layoutCfg({ blocks: tf, edges }, { sourceLines: false, frontiers: true, heat: true });
    expect(heatRowY(tf[1], both.nodes[1], false)).toBe(m.headerHeight + (tf[1].instrs.length + 1) * m.lineHeight);
  });

  it('handles an empty program and a lone block', () => {
    expect(layoutCfg({ blocks: [], edges: [] }).nodes).toEqual([]);
    expect(layoutCfg({ blocks: [block(0, ['EXIT'])], edges: [] }).nodes).toHaveLength(1);
  });
});
