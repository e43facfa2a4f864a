import { describe, expect, it } from 'vitest';
import { cellTop, columns, followTo, layout, OVERSCAN_ROWS, visibleRows } from './memory-grid';

const size = { cols: 4, rowH: 40, headH: 30, gap: 10 };

describe('memory grid', () => {
  it('fits whole cells across, at least one', () => {
    expect(columns(300, 70)).toBe(4);
    expect(columns(20, 70)).toBe(1);
  });

  it('stacks buffers: a title, then rows of cells', () => {
    const g = layout([10, 3, 0], size);
    expect(g.blocks.map((b) => [b.top, b.rows, b.height])).toEqual([[0, 3, 150], [160, 1, 70], [240, 0, 30]]);
    expect(g.height).toBe(270);
  });

  it('draws only the rows in view of a buffer of a million elements', () => {
    const g = layout([1_000_000], size);
    const rows = visibleRows(g, 400_000, 400);
    expect(rows).toHaveLength(1);
    const { first, last } = rows[0];
    expect(last - first + 1).toBeLessThanOrEqual(Math.ceil(400 / size.rowH) + 2 * OVERSCAN_ROWS + 1);
    // The element at the window's top is among them.
    const topRow = Math.floor((400_000 - size.headH) / size.rowH);
    expect(first).toBeLessThanOrEqual(topRow);
    expect(last).toBeGreaterThanOrEqual(topRow);
  });

  it('finds the rows of every block a window meets, and none beyond', () => {
    const g = layout([8, 8, 8], size);
    // Blocks at 0, 120 and 240, each 110 tall: a window over the second meets the others' edges.
    expect(visibleRows(g, 130, 60).map((r) => r.buffer)).toEqual([0, 1, 2]);
    expect(visibleRows(g, 10_000, 100)).toEqual([]);
  });

  it('places an element by its row, and follows it only when it is out of view', () => {
    const g = layout([10, 40], size);
    expect(cellTop(g, 1, 0)).toBe(160 + 30);
    expect(cellTop(g, 1, 9)).toBe(160 + 30 + 2 * 40);
    expect(cellTop(g, 1, 40)).toBeNull();
    expect(followTo(190, 40, 30, 0, 300)).toBeNull();
    const to = followTo(1000, 40, 30, 0, 300)!;
    expect(1000).toBeGreaterThanOrEqual(to + 30);
    expect(1000 + 40).toBeLessThanOrEqual(to + 300);
    // A row under the title (which covers the window's top) is not in view.
    expect(followTo(100, 40, 30, 90, 300)).not.toBeNull();
  });
});
