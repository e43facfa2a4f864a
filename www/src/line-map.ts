//! Lookups between instructions (pcs), source lines, lines of the generated listing and, for a
//! PTX or SASS kernel with line information, lines of the CUDA source it came from, and for a
//! SASS kernel the lines of its PTX pasted beside it (by CUDA line); indexed from the facade's
//! per-pc arrays (CFG instructions, `compiled()`) and its `ptxBeside()`; nothing here is derived
//! from the program's text.

import type { Beside } from './generated/engine';

export interface LineMap {
  /** Source line of each pc. */
  sourceOfPc: readonly number[];
  /** Listing line of each pc; empty for an assembly kernel (the source is the listing). */
  listingOfPc: readonly number[];
  /** Pcs of each source line, ascending. */
  pcsOfSource: Map<number, number[]>;
  /** The pc of each listing line that holds an instruction. */
  pcOfListing: Map<number, number>;
  /** CUDA line of each pc (0: none known); empty unless the kernel is PTX with `.loc` lines. */
  cudaOfPc: readonly number[];
  /** Pcs of each CUDA line, ascending. */
  pcsOfCuda: Map<number, number[]>;
}

function pcsOf(lines: readonly number[]): Map<number, number[]> {
  const pcs = new Map<number, number[]>();
  lines.forEach((line, pc) => {
    const list = pcs.get(line);
    if (list) list.push(pc); else pcs.set(line, [pc]);
  });
  return pcs;
}

export function lineMap(sourceOfPc: readonly number[], listingOfPc: readonly number[] = [], cudaOfPc: readonly number[] = []): LineMap {
  const pcsOfCuda = pcsOf(cudaOfPc);
  pcsOfCuda.delete(0);
  return {
    sourceOfPc, listingOfPc, pcsOfSource: pcsOf(sourceOfPc), pcOfListing: new Map(listingOfPc.map((line, pc) => [line, pc])),
    cudaOfPc, pcsOfCuda,
  };
}

/** The instruction a breakpoint on a source line means: its first (lowest pc). */
export function firstPcOfSource(m: LineMap, line: number): number | undefined {
  return m.pcsOfSource.get(line)?.[0];
}

/** Listing lines of the instructions compiled from a source line (hovering the source). */
export function listingLinesOfSource(m: LineMap, line: number | null): number[] {
  if (line === null) return [];
  return (m.pcsOfSource.get(line) ?? []).map((pc) => m.listingOfPc[pc]).filter((l) => l !== undefined);
}

/** The source line of the instruction on a listing line (hovering the listing). */
export function sourceLineOfListing(m: LineMap, line: number | null): number[] {
  const pc = line === null ? undefined : m.pcOfListing.get(line);
  return pc === undefined ? [] : [m.sourceOfPc[pc]];
}

/** Lines (in `lines`, per pc) of the given pcs, skipping pcs out of range. */
export function linesOf(lines: readonly number[], pcs: readonly number[]): number[] {
  return pcs.map((pc) => lines[pc]).filter((l): l is number => l !== undefined);
}

/** Distinct lines, ascending, without 0 (an instruction with no line). */
const distinct = (lines: number[]) => [...new Set(lines)].filter((l) => l > 0).sort((a, b) => a - b);

/** The pcs that came from any of the CUDA `lines`, ascending. */
export function pcsOfCudaLines(m: LineMap, lines: readonly number[]): number[] {
  return [...new Set(lines.flatMap((l) => m.pcsOfCuda.get(l) ?? []))].sort((a, b) => a - b);
}

/** The PTX lines (the kernel's source lines) of the instructions from CUDA `lines` (a click in
 * the CUDA source). */
export function sourceLinesOfCuda(m: LineMap, lines: readonly number[]): number[] {
  return distinct(linesOf(m.sourceOfPc, pcsOfCudaLines(m, lines)));
}

/** The listing lines of the instructions from CUDA `lines`. */
export function listingLinesOfCuda(m: LineMap, lines: readonly number[]): number[] {
  return distinct(linesOf(m.listingOfPc, pcsOfCudaLines(m, lines)));
}

/** The CUDA lines of the instructions on a PTX line (a click in the kernel). */
export function cudaLinesOfSource(m: LineMap, line: number | null): number[] {
  if (line === null) return [];
  return distinct(linesOf(m.cudaOfPc, m.pcsOfSource.get(line) ?? []));
}

/** The CUDA line of the instruction on a listing line. */
export function cudaLinesOfListing(m: LineMap, line: number | null): number[] {
  const pc = line === null ? undefined : m.pcOfListing.get(line);
  return pc === undefined ? [] : distinct(linesOf(m.cudaOfPc, [pc]));
}

/** The CUDA line of instruction `pc`, or null when it has none (an inserted instruction, PTX
 * without `.loc`). */
export function cudaLineOfPc(m: LineMap, pc: number | null): number | null {
  const line = pc === null ? undefined : m.cudaOfPc[pc];
  return line ? line : null;
}

/** The PTX pasted beside a SASS kernel: its lines by CUDA line, and back. */
export interface PtxMap {
  cudaOfPtx: Map<number, number>;
  ptxOfCuda: Map<number, number[]>;
}

export function ptxMap(b: Pick<Beside, 'ptx_lines' | 'cuda_lines'> | null): PtxMap {
  const cudaOfPtx = new Map<number, number>();
  const ptxOfCuda = new Map<number, number[]>();
  b?.ptx_lines.forEach((ptx, k) => {
    const cuda = b.cuda_lines[k];
    cudaOfPtx.set(ptx, cuda);
    const list = ptxOfCuda.get(cuda);
    if (list) list.push(ptx); else ptxOfCuda.set(cuda, [ptx]);
  });
  return { cudaOfPtx, ptxOfCuda };
}

/** The PTX lines made from CUDA `lines`, ascending. */
export function ptxLinesOfCuda(p: PtxMap, lines: readonly number[]): number[] {
  return distinct(lines.flatMap((l) => p.ptxOfCuda.get(l) ?? []));
}

/** The CUDA lines of PTX `lines`. */
export function cudaLinesOfPtx(p: PtxMap, lines: readonly number[]): number[] {
  return distinct(lines.map((l) => p.cudaOfPtx.get(l) ?? 0));
}

/** The instruction a breakpoint on a CUDA line means: its first (lowest pc). */
export function firstPcOfCuda(m: LineMap, line: number): number | undefined {
  return m.pcsOfCuda.get(line)?.[0];
}

/** The panes whose lines light each other up: the kernel (C, PTX or SASS, `source`), the
 * generated listing, the CUDA source of a PTX or SASS kernel and the PTX beside a SASS kernel. */
export type Pane = 'source' | 'listing' | 'cuda' | 'ptx';

/** Lines pointed at (`hover`) or clicked (`pick`) in one pane. */
export interface LinePointer { pane: Pane; lines: number[]; pick: boolean }

/** What lights up in each pane for `p`: the lines made from the same instructions (for the PTX
 * beside SASS, from the same CUDA lines). A pick marks its own lines too, so it stays visible
 * when the focus moves on; a hover does not. */
export function linkedLines(m: LineMap, p: LinePointer | null, ptx: PtxMap = ptxMap(null)): Record<Pane, number[]> {
  const marks: Record<Pane, number[]> = { source: [], listing: [], cuda: [], ptx: [] };
  if (!p) return marks;
  if (p.pick) marks[p.pane] = [...p.lines];
  const each = (f: (line: number) => number[]) => distinct(p.lines.flatMap(f));
  let cuda: number[];
  if (p.pane === 'source') {
    marks.listing = each((l) => listingLinesOfSource(m, l));
    cuda = marks.cuda = each((l) => cudaLinesOfSource(m, l));
  } else if (p.pane === 'listing') {
    marks.source = each((l) => sourceLineOfListing(m, l));
    cuda = marks.cuda = each((l) => cudaLinesOfListing(m, l));
  } else {
    cuda = p.pane === 'cuda' ? p.lines : (marks.cuda = cudaLinesOfPtx(ptx, p.lines));
    marks.source = sourceLinesOfCuda(m, cuda);
    marks.listing = listingLinesOfCuda(m, cuda);
  }
  if (p.pane !== 'ptx') marks.ptx = ptxLinesOfCuda(ptx, cuda);
  return marks;
}
