// STRUCT in the CFG view: the tags of copies and cut code, the layout's room for them, and where
// a step of the transformed run stands in the original graph (pure, and against the real engine
// on the thread-frontier paper's Figure 1 and a loop with a break).
import { beforeAll, describe, expect, it } from 'vitest';
import { blockTag, originalMarks, transformed, whereNote } from './cfg-struct';
import { DEFAULT_METRICS, layoutCfg, linesLabelX, tagWidth, tagX } from './cfg-layout';
import { Engine } from './engine';
import type { BlockView, CfgView } from './generated/engine';
import { engineBytes, example } from './test-engine';

const names = new Map([[3, 'BB3'], [5, 'BB5']]);
const view = (b: Partial<BlockView> & { id: number; name: string }): BlockView => ({
  original: null, copy: 0, made: false, instrs: [], ipdom: null, reconverges_at: null, is_branch: false, priority: null, reachable: true,
  source_lines: null, frontier: [], ...b,
});

describe('blockTag', () => {
  it('names the block a copy copies, tags cut code, and leaves original blocks alone', () => {
    expect(blockTag(view({ id: 9, name: "BB5''", original: 5, copy: 2 }), names)).toMatchObject({ kind: 'copy', text: 'copy of BB5' });
    expect(blockTag(view({ id: 9, name: "BB5''", original: 5, copy: 2 }), names)?.hint).toContain("BB5'': a copy of BB5");
    expect(blockTag(view({ id: 4, name: 'cut1.test', made: true }), names)).toMatchObject({ kind: 'cut', text: 'cut' });
    expect(blockTag(view({ id: 3, name: 'BB3', original: 3 }), names)).toBeNull();
    // Every other model: no original, no copy.
    expect(blockTag(view({ id: 3, name: 'BB3' }), new Map())).toBeNull();
    expect(transformed({ blocks: [view({ id: 0, name: 'BB0' })] })).toBe(false);
    expect(transformed({ blocks: [view({ id: 0, name: 'BB0' }), view({ id: 1, name: 'cut1.init', made: true })] })).toBe(true);
  });

  it('gets room in the block\'s header, after the name and before the source lines', () => {
    const copy = view({ id: 1, name: "BB3'", original: 3, copy: 1, source_lines: { first: 27, last: 29 } });
    const plain = view({ id: 0, name: 'BB0', source_lines: { first: 14, last: 17 } });
    const l = layoutCfg({ blocks: [plain, copy], edges: [{ from: 0, to: 1, kind: 'fallthrough', back: false }] }, { sourceLines: true, originals: names });
    const [a, b] = l.nodes;
    expect(a.tag).toBeNull();
    expect(b.tag?.text).toBe('copy of BB3');
    const m = DEFAULT_METRICS;
    expect(linesLabelX(copy, m, b.tag)).toBeCloseTo(tagX(copy, m) + tagWidth(b.tag) + m.charWidth, 6);
    expect(linesLabelX(plain, m)).toBe(tagX(plain, m));
    // Wide enough for the name, the tag and "lines 27-29".
    expect(b.width).toBeGreaterThanOrEqual(linesLabelX(copy, m, b.tag) + 'lines 27-29'.length * m.charWidth);
  });
});

describe('originalMarks', () => {
  const cfg = {
    blocks: [
      view({ id: 0, name: 'BB3', original: 3 }), view({ id: 1, name: "BB5'", original: 5, copy: 1 }),
      view({ id: 2, name: "BB5''", original: 5, copy: 2 }), view({ id: 3, name: 'cut1.test', made: true }),
    ],
  };

  it('carries the running block and the waiting lanes to the blocks they are or copy', () => {
    const m = originalMarks(cfg, { block: 2, pc: 7, waiting: [{ block: 1, lanes: [4, 5] }, { block: 2, lanes: [0] }, { block: 0, lanes: [2] }, { block: 3, lanes: [6] }] });
    expect(m.marks).toEqual({ block: 5, pc: null, waiting: [{ block: 3, lanes: [2] }, { block: 5, lanes: [0, 4, 5] }] });
    expect(m.running?.name).toBe("BB5''");
    expect(whereNote(m, names)).toBe("now in BB5 (running its copy BB5'')");
  });

  it('says when the run is in cut code, in an original block, or nowhere', () => {
    const cut = originalMarks(cfg, { block: 3, pc: 9, waiting: [] });
    expect(cut.marks.block).toBeNull();
    expect(whereNote(cut, names)).toBe('now in cut1.test, code the cut wrote (no block of the original)');
    expect(whereNote(originalMarks(cfg, { block: 0, pc: 0, waiting: [] }), names)).toBe('now in BB3');
    expect(whereNote(originalMarks(cfg, null), names)).toBe('no block runs at this step');
  });
});

describe('against the engine', () => {
  let bytes: Uint8Array<ArrayBuffer>;
  beforeAll(() => { bytes = engineBytes(); });
  const names = (c: CfgView) => c.blocks.map((b) => b.name);

  it('names copies in STRUCT\'s graph and gives the original graph beside it; other models have none', () => {
    const e = Engine.fromBytes(bytes, () => {});
    expect(e.load(example('tf_figure1.sass'), { model: 'struct' })?.ok).toBe(true);
    const cfg = e.cfg()!, original = e.originalCfg()!;
    expect(names(original)).toEqual(['BB0', 'BB1', 'BB2', 'BB3', 'BB4', 'BB5', 'BB6']);
    expect(names(cfg)).toContain("BB5'");
    expect(transformed(cfg)).toBe(true);
    // Every block is an original one or a copy of one; no cut in Figure 1.
    for (const b of cfg.blocks) {
      expect(b.made).toBe(false);
      expect(b.name.startsWith(original.blocks[b.original!].name)).toBe(true);
    }
    // At every step the block the run is in has a block of the original graph.
    for (let t = 1; t < e.total(); t++) {
      e.seek(t);
      const st = e.state(0)!;
      const m = originalMarks(cfg, st);
      expect(m.marks.block).toBe(cfg.blocks.find((b) => b.id === st.block)!.original);
    }
    // The report counts per original block, so its columns line up with pdom's.
    const report = e.report()!;
    expect(report.block_counts).toHaveLength(original.blocks.length);
    expect(report.transforms).toMatchObject({ instructions_before: original.instrs.length, instructions_after: cfg.instrs.length });
    expect(e.load(example('tf_figure1.sass'), { model: 'pdom' })?.ok).toBe(true);
    expect(e.originalCfg()).toBeNull();
    expect(transformed(e.cfg()!)).toBe(false);
    expect(e.report()!.transforms).toBeNull();
  });

  it('tags the guard code of a loop with a break as cut code', () => {
    const e = Engine.fromBytes(bytes, () => {});
    expect(e.load(example('loop_break.cu'), { model: 'struct' })?.ok).toBe(true);
    const cfg = e.cfg()!;
    const test = cfg.blocks.find((b) => b.name === 'cut1.test')!;
    expect(blockTag(test, new Map())).toMatchObject({ kind: 'cut', text: 'cut' });
    expect(e.report()!.transforms?.cuts).toBeGreaterThan(0);
  });
});
