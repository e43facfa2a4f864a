// The tour's rules as plain logic: when it starts by itself, which steps it shows, where a callout goes.
import { describe, expect, it } from 'vitest';
import { isFirstVisit, nextStep, place, TOUR_STEPS, TOURED_KEY } from './tour';

describe('first visit', () => {
  const fresh = { stored: [] as string[], hash: '', embed: false };
  it('is a visit with nothing of warpscope stored, no link and no embed', () => {
    expect(isFirstVisit(fresh)).toBe(true);
    // Another site's keys on the same origin do not count; an empty fragment ("#") is no link.
    expect(isFirstVisit({ ...fresh, stored: ['other.app'], hash: '#' })).toBe(true);
  });
  it('is not the second visit, nor one with saved work or a layout', () => {
    for (const key of [TOURED_KEY, 'warpscope.work.v1', 'warpscope.layout.v1']) expect(isFirstVisit({ ...fresh, stored: [key] }), key).toBe(false);
  });
  it('is never a link someone sent, an embed, or a browser that cannot remember it was shown', () => {
    expect(isFirstVisit({ ...fresh, hash: '#v1.abc' })).toBe(false);
    expect(isFirstVisit({ ...fresh, embed: true })).toBe(false);
    expect(isFirstVisit({ ...fresh, stored: null })).toBe(false);
  });
});

describe('steps', () => {
  it('has five to seven steps, the panels a student needs first', () => {
    expect(TOUR_STEPS.length).toBeGreaterThanOrEqual(5);
    expect(TOUR_STEPS.length).toBeLessThanOrEqual(7);
    expect(TOUR_STEPS.map((s) => s.panel)).toEqual(['editor', 'cfg', 'lanes', 'stack', 'plot', null, null]);
  });
  it('skips the steps whose target cannot be shown, both ways, and ends past either end', () => {
    const shown = (i: number) => i !== 1 && i !== 2;
    expect(nextStep(-1, 1, 5, shown)).toBe(0);
    expect(nextStep(0, 1, 5, shown)).toBe(3);
    expect(nextStep(3, -1, 5, shown)).toBe(0);
    expect(nextStep(4, 1, 5, shown)).toBeNull();
    expect(nextStep(0, -1, 5, shown)).toBeNull();
    expect(nextStep(-1, 1, 5, () => false)).toBeNull();
  });
});

describe('callout placement', () => {
  const rect = (x: number, y: number, w: number, h: number) => ({ left: x, top: y, right: x + w, bottom: y + h, width: w, height: h, x, y }) as DOMRect;
  const inside = (p: { x: number; y: number }, w: number, h: number, win: { w: number; h: number }) =>
    p.x >= 0 && p.y >= 0 && p.x + w <= win.w && p.y + h <= win.h;
  it('goes beside its target, right first, then left, below, above', () => {
    const win = { w: 1280, h: 720 };
    expect(place(rect(10, 100, 300, 200), 336, 180, win)).toEqual({ x: 322, y: 100 });
    expect(place(rect(900, 100, 370, 200), 336, 180, win)).toEqual({ x: 552, y: 100 });
    // The scrubber spans the width at the bottom: above it.
    expect(place(rect(0, 660, 1280, 60), 336, 180, win)).toEqual({ x: 8, y: 468 });
  });
  it('stays inside the window when no side fits (a panel as large as the window)', () => {
    for (const win of [{ w: 1280, h: 720 }, { w: 768, h: 1024 }]) {
      for (const t of [rect(0, 0, win.w, win.h), rect(-50, 600, win.w + 100, 900), rect(700, 10, 60, 30)]) {
        expect(inside(place(t, 336, 200, win), 336, 200, win), JSON.stringify([t, win])).toBe(true);
      }
    }
  });
});
