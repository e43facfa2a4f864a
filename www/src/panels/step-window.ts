//! The window of steps a step-by-column canvas (the lanes, the warps) draws, and the wider range
//! it fetches from the engine at once, so playing asks again only every couple of hundred steps.

/** Steps drawn at most. */
export const WINDOW = 400;

/** The steps drawn around step `step` of a run of `total`: all of a short run, else WINDOW of
 * them with the step near the middle. */
export function windowFor(total: number, step: number): { from: number; to: number } {
  if (total <= WINDOW) return { from: 0, to: total };
  const from = Math.min(Math.max(0, step - Math.floor(WINDOW / 2)), total - WINDOW);
  return { from, to: from + WINDOW };
}

/** What to fetch to draw from `from`: aligned, a little before it and well past the window. */
export function fetchRange(total: number, from: number): { from: number; to: number } {
  const a = Math.max(0, Math.floor(from / 200) * 200 - 200);
  return { from: a, to: Math.min(total, a + WINDOW + 600) };
}
