//! The memory panel's geometry, as pure code with no DOM: each buffer a block (a title, then rows
//! of cells) stacked in one scrolling column, which rows a scrolled window shows, and where an
//! element's row is. The panel draws only the rows in view, so a buffer of a million elements
//! costs what one screenful does.

export interface GridSize {
  /** Cells per row. */
  cols: number;
  /** Pixels per row of cells, per buffer title, and between buffers. */
  rowH: number;
  headH: number;
  gap: number;
}

export interface Block {
  buffer: number;
  /** Elements in the buffer. */
  len: number;
  rows: number;
  /** Offset of the block's title from the top of the column, and the block's height. */
  top: number;
  height: number;
}

export interface GridLayout { blocks: Block[]; height: number; size: GridSize }

/** Rows drawn beyond each edge of the window, so a small scroll shows drawn rows at once. */
export const OVERSCAN_ROWS = 4;

/** How many cells of `cellW` pixels fit across `width` (at least one). */
export function columns(width: number, cellW: number): number {
  return Math.max(1, Math.floor(width / Math.max(1, cellW)));
}

/** Every buffer's block, one under the other. */
export function layout(lens: readonly number[], size: GridSize): GridLayout {
  let top = 0;
  const blocks = lens.map((len, buffer) => {
    const rows = Math.ceil(len / size.cols);
    const block = { buffer, len, rows, top, height: size.headH + rows * size.rowH };
    top += block.height + size.gap;
    return block;
  });
  return { blocks, height: Math.max(0, top - size.gap), size };
}

/** The rows a window from `top`, `height` pixels tall, shows of each block it meets (`first`
 * to `last` inclusive), with `OVERSCAN_ROWS` more on each side. */
export function visibleRows(g: GridLayout, top: number, height: number): { buffer: number; first: number; last: number }[] {
  const { rowH, headH } = g.size;
  const from = top - OVERSCAN_ROWS * rowH, to = top + height + OVERSCAN_ROWS * rowH;
  const out: { buffer: number; first: number; last: number }[] = [];
  for (const b of g.blocks) {
    if (b.rows === 0 || b.top + b.height <= from || b.top >= to) continue;
    const rowsTop = b.top + headH;
    const first = Math.max(0, Math.floor((from - rowsTop) / rowH));
    const last = Math.min(b.rows - 1, Math.floor((to - rowsTop) / rowH));
    if (first <= last) out.push({ buffer: b.buffer, first, last });
  }
  return out;
}

/** Where element `index` of `buffer` sits: its row's top in the column (null past the buffer). */
export function cellTop(g: GridLayout, buffer: number, index: number): number | null {
  const b = g.blocks[buffer];
  if (!b || index < 0 || index >= b.len) return null;
  return b.top + g.size.headH + Math.floor(index / g.size.cols) * g.size.rowH;
}

/** The scroll offset that brings a row at `rowTop` into a window of `height` whose top `headH`
 * pixels the buffer's title covers, or null when it is in view already. It lands a third of the
 * way down, so the rows around it show too. */
export function followTo(rowTop: number, rowH: number, headH: number, scrollTop: number, height: number): number | null {
  const inView = rowTop >= scrollTop + headH && rowTop + rowH <= scrollTop + height;
  if (inView) return null;
  return Math.max(0, Math.round(rowTop - headH - Math.max(0, (height - headH - rowH) / 3)));
}
