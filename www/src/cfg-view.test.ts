import { describe, expect, it } from 'vitest';
import {
  centredOn, clampPan, clampZoom, fitView, followRect, followTarget, MAX_FIT_SCALE, MAX_SCALE, MINIMAP_GAP, MINIMAP_MIN_PX, minimapBounds, minimapCovers,
  minimapLeavesRoom, minimapSize, overflows, PAD,
  READABLE_SCALE, READABLE_TEXT_PX, readableScale, SMALLEST_FONT, visibleRect, wholeScale, zoomAt, zoomLimits, type View,
} from './cfg-view';

const box = { w: 400, h: 300 };
const small = { w: 200, h: 150 };
// A 300-line kernel's graph: narrow and very tall.
const tall = { w: 600, h: 9000 };

describe('zoom limits', () => {
  it('keeps fitted text readable: the smallest text at the readable scale is the readable size', () => {
    expect(SMALLEST_FONT * READABLE_SCALE).toBeCloseTo(READABLE_TEXT_PX);
  });

  it('lets the user zoom out to the whole graph, but not below MIN_SCALE, and in to MAX_SCALE', () => {
    expect(zoomLimits(small, box).min).toBe(READABLE_SCALE);
    const huge = zoomLimits(tall, box);
    expect(huge.min).toBeCloseTo(0.15);
    expect(zoomLimits({ w: 600, h: 1500 }, box).min).toBeCloseTo(wholeScale({ w: 600, h: 1500 }, box));
    expect(clampZoom(10, huge)).toBe(MAX_SCALE);
    expect(clampZoom(0.01, huge)).toBe(huge.min);
    expect(clampZoom(1, huge)).toBe(1);
  });

  it('zooms about the pointer: the graph point under it stays put', () => {
    const v: View = { x: 10, y: 20, k: 1 };
    const at = { x: 200, y: 100 };
    const z = zoomAt(v, 1.25, at, { w: 1000, h: 1000 }, box);
    expect(z.k).toBeCloseTo(1.25);
    const before = { x: (at.x - v.x) / v.k, y: (at.y - v.y) / v.k };
    expect((at.x - z.x) / z.k).toBeCloseTo(before.x);
    expect((at.y - z.y) / z.k).toBeCloseTo(before.y);
    expect(zoomAt(v, 100, at, { w: 1000, h: 1000 }, box).k).toBe(MAX_SCALE);
  });
});

describe('fitting', () => {
  it('shows a small graph whole and centred, not blown up past MAX_FIT_SCALE', () => {
    const { view, whole } = fitView({ w: 50, h: 40 }, box);
    expect(whole).toBe(true);
    expect(view.k).toBe(MAX_FIT_SCALE);
    expect(view.x).toBeCloseTo((box.w - 50 * view.k) / 2);
  });

  it('never fits below the readable scale: a huge graph shows its top at that scale', () => {
    const { view, whole } = fitView(tall, box);
    expect(whole).toBe(false);
    expect(view.k).toBe(READABLE_SCALE);
    expect(view.y).toBe(PAD);
    expect(overflows(view, tall, box)).toBe(true);
  });

  it('fits no smaller than a lecture\'s type floor: a graph readable whole at 10 px is not at 16', () => {
    const lecture = readableScale(16);
    expect(SMALLEST_FONT * lecture).toBeCloseTo(16);
    expect(readableScale(0), 'no floor: the usual readable scale').toBe(READABLE_SCALE);
    const g = { w: box.w - 2 * PAD, h: box.h - 2 * PAD };
    expect(fitView(g, box).whole).toBe(true);
    const { view, whole } = fitView(g, box, lecture);
    expect(whole).toBe(false);
    expect(view.k).toBeCloseTo(lecture);
    // A small graph is still blown up only to MAX_FIT_SCALE, or to the floor if that is larger.
    expect(fitView({ w: 50, h: 40 }, box, lecture).view.k).toBe(Math.max(MAX_FIT_SCALE, lecture));
  });

  it('keeps the graph in view when panning', () => {
    const v = clampPan({ x: 5000, y: -99999, k: 1 }, tall, box);
    expect(v.x).toBe(PAD);
    expect(v.y).toBe(box.h - tall.h - PAD);
    // A graph smaller than the view stays inside it.
    const s = clampPan({ x: -500, y: 500, k: 1 }, small, box);
    expect(s).toEqual({ x: PAD, y: box.h - small.h - PAD, k: 1 });
  });
});

describe('following the current block', () => {
  const v: View = { x: PAD, y: PAD, k: 1 };
  it('does not move while the block is in view', () => {
    expect(followTarget(v, tall, box, { x: 100, y: 50, w: 200, h: 100 })).toBeNull();
  });

  it('centres a block that is out of view, along the axis it is out on', () => {
    const to = followTarget(v, tall, box, { x: 100, y: 3000, w: 200, h: 100 })!;
    expect(to.x).toBe(v.x);
    expect(to.y + (3000 + 50) * to.k).toBeCloseTo(box.h / 2);
  });

  it('shows the start of a block taller than the view', () => {
    const to = followTarget(v, tall, box, { x: 100, y: 3000, w: 200, h: 1000 })!;
    expect(to.y + 3000).toBe(PAD);
  });

  it('stops at the graph\'s end rather than showing empty space', () => {
    const to = followTarget(v, tall, box, { x: 100, y: 8950, w: 200, h: 40 })!;
    expect(to.y).toBe(box.h - tall.h - PAD);
  });

  it('keeps the block clear of the zoom tools and the minimap', () => {
    const inset = { top: 30, right: 50, bottom: 0, left: 0 };
    // In view, but under the tools at the top: it moves down.
    const to = followTarget(v, tall, box, { x: 100, y: 5, w: 200, h: 60 }, inset)!;
    expect(to.y + 5).toBeGreaterThanOrEqual(30 + PAD);
    // Under the minimap at the right: the graph moves left, its end clear of the minimap.
    const wide = { w: 2000, h: 9000 };
    const right = followTarget(v, wide, box, { x: 300, y: 50, w: 80, h: 60 }, inset)!;
    expect(right.x + 380).toBeLessThanOrEqual(box.w - 50 - PAD);
    expect(clampPan({ x: -99999, y: 0, k: 1 }, wide, box, inset).x).toBe(box.w - 50 - PAD - wide.w);
  });

  it('follows the current instruction in a block taller than the view, with the badge room otherwise', () => {
    const block = { x: 0, y: 1000, w: 300, h: 2000 }, row = { x: 0, y: 1500, w: 300, h: 19 };
    expect(followRect(v, box, block, row, 28)).toEqual({ x: 0, y: 1500 - 38, w: 300, h: 95 });
    expect(followRect(v, box, { ...block, h: 100 }, row, 28)).toEqual({ x: 0, y: 972, w: 300, h: 128 });
    expect(followRect(v, box, block, null, 28).h).toBe(2028);
  });

  it('keeps a block whole clear of the tools in a small view, giving up the badge\'s room first', () => {
    // A 640x360 embed's graph: 141 px tall under 21 px of tools, a four-line block 112 units tall.
    const small = { w: 325, h: 141 }, tools = { top: 21, right: 0, bottom: 0, left: 0 };
    const k = 0.8, at: View = { x: PAD, y: PAD, k };
    const block = { x: 0, y: 200, w: 383, h: 112 }, row = { x: 0, y: 260, w: 383, h: 19 };
    // Without the tools the badge's room fits too; under them only the block does.
    expect(followRect(at, small, block, row, 28)).toEqual({ ...block, y: 172, h: 140 });
    expect(followRect(at, small, block, row, 28, tools)).toEqual(block);
    const to = followTarget(at, { w: 900, h: 1200 }, small, followRect(at, small, block, row, 28, tools), tools)!;
    expect(to.y + block.y * k).toBeGreaterThanOrEqual(tools.top + PAD);
    expect(to.y + (block.y + block.h) * k).toBeLessThanOrEqual(small.h - PAD);
  });
});

describe('the minimap', () => {
  it('draws the whole graph inside its box, a tall one stretched sideways, and outlines what the view shows', () => {
    expect(minimapSize({ w: 600, h: 900 }, { w: 150, h: 220 })).toEqual({ w: 600 * (220 / 900), h: 220 });
    expect(minimapSize({ w: 900, h: 300 }, { w: 150, h: 220 })).toEqual({ w: 150, h: 50 });
    // 600 x 9000 would be 14.7 px wide: it gets the 40 px minimum instead.
    expect(minimapSize(tall, { w: 150, h: 220 })).toEqual({ w: 40, h: 220 });
    const v: View = { x: -100, y: -800, k: 0.8 };
    expect(visibleRect(v, box)).toEqual({ x: 125, y: 1000, w: 500, h: 375 });
  });

  it('moves the view so a clicked graph point is in the middle', () => {
    const v = centredOn({ x: 0, y: 0, k: 0.8 }, { x: 300, y: 4000 }, tall, box);
    expect(v.y + 4000 * 0.8).toBeCloseTo(box.h / 2);
    expect(v.k).toBe(0.8);
  });
});

describe('the minimap leaves the largest block room', () => {
  const graph = { w: 500, h: 900 };
  it('is narrowed beside a wide block, and there is none where that leaves it too thin', () => {
    // The study layout at 1280x720: a 306 px block beside it still leaves room.
    const study = minimapBounds(graph, { w: 421, h: 282 }, { w: 306, h: 90 }, 21)!;
    expect(study.w).toBeLessThanOrEqual(421 - 306 - MINIMAP_GAP - 2 * PAD);
    expect(study.w).toBeGreaterThanOrEqual(MINIMAP_MIN_PX);
    expect(minimapLeavesRoom({ w: 421, h: 282 }, minimapSize(graph, study), { w: 306, h: 90 }, 21)).toBe(true);
    // A 640x360 embed's graph: no room beside the block.
    expect(minimapBounds(graph, { w: 325, h: 141 }, { w: 306, h: 90 }, 21)).toBeNull();
    // A big panel keeps the usual size.
    expect(minimapBounds(graph, { w: 1200, h: 800 }, { w: 306, h: 90 }, 21)).toEqual({ w: 130, h: 200 });
  });

  it('gives way when zooming in makes the block too wide for the room beside it', () => {
    expect(minimapLeavesRoom({ w: 421, h: 282 }, { w: 60, h: 110 }, { w: 306, h: 90 }, 21)).toBe(true);
    expect(minimapLeavesRoom({ w: 421, h: 282 }, { w: 60, h: 110 }, { w: 306 * 1.25, h: 90 * 1.25 }, 21)).toBe(false);
  });
});

describe('the minimap yields to the current block', () => {
  // The reference: some screen pixel is both in the block grown by the clearance and in the map.
  const naive = (v: View, b: { x: number; y: number; w: number; h: number }, map: { x: number; y: number; w: number; h: number }, c: number) => {
    for (let x = Math.floor(map.x); x < map.x + map.w; x++) {
      for (let y = Math.floor(map.y); y < map.y + map.h; y++) {
        const px = x + 0.5, py = y + 0.5;
        if (px > v.x + b.x * v.k - c && px < v.x + (b.x + b.w) * v.k + c && py > v.y + b.y * v.k - c && py < v.y + (b.y + b.h) * v.k + c) return true;
      }
    }
    return false;
  };

  it('when the map is over the block or within the clearance of it, and not otherwise', () => {
    const map = { x: 296, y: 176, w: 100, h: 120 };
    const v: View = { x: 10, y: -40, k: 0.8 };
    // The Figure 3 case at 1280x720: the block's right end runs under the map's left edge.
    expect(minimapCovers(v, { x: 20, y: 300, w: 360, h: 110 }, map)).toBe(true);
    // Far to the left and above: clear.
    expect(minimapCovers(v, { x: 0, y: 60, w: 100, h: 60 }, map)).toBe(false);
    // Clear of the map, but its edges would run under it.
    expect(minimapCovers(v, { x: 20, y: 300, w: 300, h: 110 }, map, 32)).toBe(true);
    expect(minimapCovers(v, { x: 20, y: 300, w: 300, h: 110 }, map, 0)).toBe(false);
  });

  it('agrees with looking at every pixel of the map', () => {
    const map = { x: 200, y: 150, w: 60, h: 70 };
    let seen = 0;
    for (const k of [0.5, 1, 1.7]) {
      for (let bx = -40; bx <= 260; bx += 23) {
        for (let by = -30; by <= 230; by += 19) {
          const v: View = { x: 7, y: -11, k };
          const b = { x: bx, y: by, w: 45, h: 33 };
          const want = naive(v, b, map, 16);
          expect(minimapCovers(v, b, map, 16), `k ${k} block at ${bx},${by}`).toBe(want);
          seen += want ? 1 : 0;
        }
      }
    }
    expect(seen).toBeGreaterThan(10);
  });
});
