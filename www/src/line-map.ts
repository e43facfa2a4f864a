//! Lookups between instructions (pcs), source lines and lines of the generated listing, indexed
//! from the facade's per-pc arrays (CFG instructions, `compiled()`); nothing here is derived
//! from the program's text.

export interface LineMap {
  /** Source line of each pc. */
  sourceOfPc: readonly number[];
  /** Listing line of each pc; empty for an assembly kernel (the source is the listing). */
  listingOfPc: readonly number[];
  /** Pcs of each source line, ascending. */
  pcsOfSource: Map<number, number[]>;
  /** The pc of each listing line that holds an instruction. */
  pcOfListing: Map<number, number>;
}

export function lineMap(sourceOfPc: readonly number[], listingOfPc: readonly number[] = []): LineMap {
  const pcsOfSource = new Map<number, number[]>();
  sourceOfPc.forEach((line, pc) => {
    const pcs = pcsOfSource.get(line);
    if (pcs) pcs.push(pc); else pcsOfSource.set(line, [pc]);
  });
  const pcOfListing = new Map(listingOfPc.map((line, pc) => [line, pc]));
  return { sourceOfPc, listingOfPc, pcsOfSource, pcOfListing };
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
