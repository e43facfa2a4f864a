import { describe, expect, it } from 'vitest';
import { readKept } from './layout-store';
import { MODE_PANELS, MODES } from './panels';
import { embedTree, LAYOUT_NAMES, panelsOf, preset, prune, serialise, type LayoutNode, type LayoutTree } from './presets';

const SIZES = [
  { width: 1270, height: 560 }, // 1280x720 less the bars
  { width: 1910, height: 920 }, // 1920x1080
  { width: 760, height: 860 }, // 768x1024
];

/** The panels of a serialised layout's groups, as dockview reads them. */
function groupsOf(node: { type: string; data: unknown }): string[][] {
  if (node.type === 'leaf') return [(node.data as { views: string[] }).views];
  return (node.data as { type: string; data: unknown }[]).flatMap(groupsOf);
}

describe('named layouts', () => {
  it('hold every panel of their mode exactly once, at every size and with or without the listing', () => {
    for (const name of LAYOUT_NAMES) {
      for (const mode of MODES) {
        for (const v of SIZES) {
          for (const [listing, cuda] of [[false, false], [true, false], [true, true]]) {
            const ids = panelsOf(preset(name, mode, v, listing, cuda));
            expect(new Set(ids).size, `${name} ${mode} ${v.width}`).toBe(ids.length);
            expect([...ids].sort(), `${name} ${mode} ${v.width}`).toEqual([...MODE_PANELS[mode]].sort());
          }
        }
      }
    }
  });

  it('give a lecture fewer groups than the study layout, and research more', () => {
    const v = SIZES[0];
    const groups = (t: LayoutTree) => groupsOf(serialise(t, v).grid.root).length;
    const of = (name: (typeof LAYOUT_NAMES)[number]) => groups(preset(name, 'single', v));
    expect(of('lecture')).toBeLessThan(of('study'));
    expect(of('research')).toBeGreaterThan(of('study'));
  });

  it('give a lecture on a narrow screen groups as wide as the dock, one under another', () => {
    const tree = preset('lecture', 'single', SIZES[2]);
    expect(tree.dir).toBe('column');
    expect(tree.children.every((n) => 'tabs' in n)).toBe(true);
  });

  it('give research\'s registers a fifth of their column\'s height or more: a group of their own on a tall dock, the memory\'s on a short one', () => {
    for (const v of SIZES.slice(0, 2)) {
      const tree = preset('research', 'single', v, true);
      const weightOf = (n: LayoutNode, share: number): number => {
        if ('tabs' in n) return n.tabs.includes('registers') ? share : 0;
        const total = n.split.reduce((t, c) => t + c.weight, 0);
        return Math.max(...n.split.map((c) => weightOf(c, (share * c.weight) / total)));
      };
      const share = Math.max(...tree.children.map((c) => weightOf({ split: [c], weight: 1 }, 1)));
      expect(share, `${v.width}x${v.height}`).toBeGreaterThanOrEqual(0.2);
    }
  });

  it('put a C kernel\'s source and generated code side by side only on a wide dock', () => {
    const rowOfCode = (v: { width: number; height: number }) => {
      const first = preset('study', 'single', v, true).children[0];
      return 'split' in first && first.split.some((n: LayoutNode) => 'split' in n);
    };
    expect(rowOfCode({ width: 1430, height: 760 })).toBe(true);
    expect(rowOfCode({ width: 1270, height: 560 })).toBe(false);
  });
});

describe('a PTX kernel', () => {
  it('shows its CUDA source in front of the generated code, in a group as tall as the kernel\'s', () => {
    for (const v of SIZES.slice(0, 2)) {
      const groups = groupsOf(serialise(preset('study', 'single', v, true, true), v).grid.root);
      const withCuda = groups.find((g) => g.includes('cuda'))!;
      // A SASS kernel's PTX (pruned for PTX) sits behind the CUDA source.
      expect(withCuda.slice(0, 3), `${v.width}`).toEqual(['cuda', 'ptx', 'listing']);
      expect(groups.find((g) => g.includes('editor'))).not.toContain('cuda');
    }
    const left = (cuda: boolean) => preset('study', 'single', SIZES[0], true, cuda).children[0];
    const weights = (n: LayoutNode) => ('split' in n ? n.split.map((c) => c.weight) : []);
    expect(weights(left(true))).toEqual([40, 40, 20]);
    expect(weights(left(false))).toEqual([45, 30, 25]);
  });
});

describe('prune', () => {
  it('drops the panels not kept, empty groups and splits, and folds one-child splits', () => {
    const tree: LayoutTree = {
      dir: 'row',
      children: [
        { split: [{ tabs: ['editor'], weight: 50 }, { tabs: ['listing'], weight: 50 }], weight: 30 },
        { split: [{ tabs: ['cfg'], weight: 1 }], weight: 70 },
      ],
    };
    const out = prune(tree, new Set(['editor', 'cfg']));
    expect(out).toEqual({ dir: 'row', children: [{ tabs: ['editor'], weight: 30 }, { tabs: ['cfg'], weight: 70 }] });
  });

  it('turns the root when one split is all that is left (its children run the other way)', () => {
    const tree: LayoutTree = {
      dir: 'row',
      children: [{ split: [{ tabs: ['caption'], weight: 20 }, { tabs: ['cfg'], weight: 80 }], weight: 60 }, { tabs: ['lanes'], weight: 40 }],
    };
    const out = prune(tree, new Set(['caption', 'cfg']));
    expect(out.dir).toBe('column');
    expect(panelsOf(out)).toEqual(['caption', 'cfg']);
  });
});

describe('serialise', () => {
  it('sizes groups by weight along alternating directions', () => {
    const tree: LayoutTree = { dir: 'row', children: [{ tabs: ['editor'], weight: 25 }, { split: [{ tabs: ['caption'], weight: 1 }, { tabs: ['cfg'], weight: 3 }], weight: 75 }] };
    const s = serialise(tree, { width: 1000, height: 400 });
    expect(s.grid.orientation).toBe('HORIZONTAL');
    const [left, right] = s.grid.root.data as { size: number; data: unknown }[];
    expect(left.size).toBe(250);
    expect(right.size).toBe(750);
    expect((right.data as { size: number }[]).map((n) => n.size)).toEqual([100, 300]);
    expect(Object.keys(s.panels).sort()).toEqual(['caption', 'cfg', 'editor']);
  });
});

describe('embeds', () => {
  it('put the caption on top, the first view large, the rest stacked while each keeps its height, then tabbed', () => {
    const tall = embedTree(['caption', 'cfg', 'lanes', 'stack', 'plot'], { width: 1280, height: 640 });
    expect(tall.dir).toBe('column');
    expect(panelsOf(tall)).toEqual(['caption', 'cfg', 'lanes', 'stack', 'plot']);
    const groups = (t: LayoutTree, v: { width: number; height: number }) => groupsOf(serialise(t, v).grid.root);
    expect(groups(tall, { width: 1280, height: 640 })).toEqual([['caption'], ['cfg'], ['lanes'], ['stack'], ['plot']]);
    // The Embed dialog's slide sizes less the title line and the scrubber: the stack has a group of
    // its own on the larger, and is in front of the group it shares on the smaller.
    const large = { width: 800, height: 376 }, small = { width: 640, height: 286 };
    expect(groups(embedTree(['caption', 'cfg', 'lanes', 'stack', 'plot'], large), large)).toEqual([['caption'], ['cfg'], ['lanes'], ['stack', 'plot']]);
    expect(groups(embedTree(['caption', 'cfg', 'lanes', 'stack', 'plot'], small), small)).toEqual([['caption'], ['cfg'], ['stack', 'lanes', 'plot']]);
  });

  it('keep the caption strip at its planned height, under dockview\'s 100 px group minimum', () => {
    const small = { width: 640, height: 286 };
    const s = serialise(embedTree(['caption', 'cfg', 'lanes', 'stack'], small), small);
    const strip = (s.grid.root.data as { size: number }[])[0].size;
    expect(strip).toBeLessThan(100);
    expect(s.panels.caption).toMatchObject({ minimumHeight: strip });
    // Groups planned at 100 px or more keep dockview's own minimum.
    expect(s.panels.cfg).not.toHaveProperty('minimumHeight');
    expect(s.panels.cfg).not.toHaveProperty('minimumWidth');
  });

  it('show one panel alone, and panels side by side with no caption', () => {
    expect(panelsOf(embedTree(['cfg'], { width: 800, height: 400 }))).toEqual(['cfg']);
    const t = embedTree(['cfg', 'lanes'], { width: 800, height: 400 });
    expect(t.dir).toBe('row');
    expect(panelsOf(t)).toEqual(['cfg', 'lanes']);
  });
});

describe('kept layouts', () => {
  it('read field by field: unknown names, modes and panels are dropped, a broken copy is the default', () => {
    expect(readKept(null)).toEqual({ name: 'study', layouts: {}, hidden: {} });
    expect(readKept('garbage')).toEqual({ name: 'study', layouts: {}, hidden: {} });
    const k = readKept({
      name: 'lecture',
      layouts: { single: { grid: { root: {} }, panels: {} }, compare: 'x', nonsense: { grid: {}, panels: {} } },
      hidden: { single: ['metrics', '<img>', 3], sweep: 'all' },
    });
    expect(k.name).toBe('lecture');
    expect(Object.keys(k.layouts)).toEqual(['single']);
    expect(k.hidden).toEqual({ single: ['metrics'] });
    expect(readKept({ name: 'party' }).name).toBe('study');
  });
});
