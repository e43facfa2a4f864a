//! Named layouts as plain trees, and their conversion to dockview's serialised layout. A tree is
//! written once with every panel a mode can have; `prune` drops the ones not shown (the listing of
//! a kernel not compiled, the CUDA source of a kernel not PTX, panels the user closed) before it becomes a layout. Pure: unit-tested.

import type { SerializedDockview } from 'dockview-core';
import { PANEL_INFO, type DockPanelId, type Mode } from './panels';

/** A group of tabs (the first shown), or a split whose children alternate direction. */
export type LayoutNode = { tabs: DockPanelId[]; weight: number } | { split: LayoutNode[]; weight: number };
/** The root runs left to right (`row`) or top to bottom (`column`). */
export interface LayoutTree { dir: 'row' | 'column'; children: LayoutNode[] }

export const LAYOUT_NAMES = ['study', 'lecture', 'research'] as const;
export type LayoutName = (typeof LAYOUT_NAMES)[number];

export const LAYOUT_ABOUT: Record<LayoutName, string> = {
  study: 'the kernel, the graph and the warp\'s state side by side',
  lecture: 'few, large panels in large type for a projector; the rest behind tabs',
  research: 'every panel on screen at once, in smaller type',
};

export interface Viewport { width: number; height: number }

const tabs = (weight: number, ...ids: DockPanelId[]): LayoutNode => ({ tabs: ids, weight });
const split = (weight: number, ...children: LayoutNode[]): LayoutNode => ({ split: children, weight });
const row = (...children: LayoutNode[]): LayoutTree => ({ dir: 'row', children });
const column = (...children: LayoutNode[]): LayoutTree => ({ dir: 'column', children });

/** Narrow docks (a portrait tablet, 768 px) get two columns; short ones (a 720 p projector) fewer
 * groups per column. Sizes are the dock's, not the window's. */
const NARROW_PX = 1100;
const TALL_PX = 780;

/** Wide enough for a C kernel's source and its generated code side by side (each pane ~300 px);
 * a PTX kernel's CUDA source takes the generated code's place in front, the code behind its tab. */
const SIDE_BY_SIDE_PX = 1420;

function single(name: LayoutName, v: Viewport, listing: boolean, cuda: boolean): LayoutTree {
  // A lecture on a narrow screen: its large type wants the whole width, one group under another.
  if (v.width < NARROW_PX && name === 'lecture') {
    return column(
      tabs(14, 'caption'), tabs(44, 'cfg', 'editor', 'listing', 'cuda', 'ptx', 'kernel-inputs', 'problems'),
      tabs(18, 'warps', 'lanes'), tabs(24, 'stack', 'plot', 'output', 'registers', 'memory', 'metrics'),
    );
  }
  if (v.width < NARROW_PX) {
    return row(
      split(50, tabs(18, 'caption'), tabs(52, 'cfg'), tabs(30, 'editor', 'listing', 'cuda', 'ptx', 'kernel-inputs', 'problems', 'metrics')),
      split(50, tabs(34, 'warps', 'lanes'), tabs(36, 'stack', 'registers', 'memory'), tabs(30, 'plot', 'output')),
    );
  }
  const tall = v.height >= TALL_PX;
  // The caption needs about five lines, whatever the screen's height.
  const cap = Math.round(Math.min(30, Math.max(16, (100 * 170) / v.height)));
  switch (name) {
    case 'lecture':
      return row(
        split(58, tabs(cap, 'caption'), tabs(100 - cap, 'cfg', 'editor', 'listing', 'cuda', 'ptx', 'kernel-inputs', 'problems')),
        // Large type needs tall groups: on a short screen the stack and its history share one.
        tall
          ? split(42, tabs(32, 'warps', 'lanes'), tabs(36, 'stack', 'registers', 'memory'), tabs(32, 'plot', 'output', 'metrics'))
          : split(42, tabs(40, 'warps', 'lanes'), tabs(60, 'stack', 'plot', 'output', 'registers', 'memory', 'metrics')),
      );
    case 'research':
      // On a short screen the registers share the memory's taller group (a group of their own
      // there showed two rows), and the lanes, the stack and its history get their room.
      return row(
        tall
          ? split(26, tabs(30, 'editor'), tabs(22, 'cuda', 'ptx', 'listing', 'kernel-inputs'), tabs(30, 'memory'), tabs(18, 'metrics', 'problems'))
          : split(26, tabs(28, 'editor'), tabs(20, 'cuda', 'ptx', 'listing', 'kernel-inputs'), tabs(36, 'memory', 'registers'), tabs(16, 'metrics', 'problems')),
        split(36, tabs(cap, 'caption'), tabs(100 - cap, 'cfg')),
        tall
          ? split(38, tabs(26, 'warps', 'lanes'), tabs(22, 'registers'), tabs(26, 'stack'), tabs(26, 'plot', 'output'))
          : split(38, tabs(30, 'warps', 'lanes'), tabs(34, 'stack'), tabs(36, 'plot', 'output')),
      );
    case 'study':
      if (listing && v.width >= SIDE_BY_SIDE_PX) {
        return row(
          split(45, split(75, tabs(50, 'editor'), tabs(50, 'cuda', 'ptx', 'listing', 'kernel-inputs')), tabs(25, 'metrics', 'problems', ...(tall ? [] : ['registers' as const]))),
          split(25, tabs(cap, 'caption'), tabs(100 - cap, 'cfg')),
          split(30, tabs(tall ? 27 : 30, 'warps', 'lanes'), ...(tall ? [tabs(27, 'registers', 'memory')] : []), tabs(tall ? 22 : 36, 'stack', ...(tall ? [] : ['memory' as const])), tabs(tall ? 24 : 34, 'plot', 'output')),
        );
      }
      return row(
        // On a short screen the inputs share the editor's taller group. A PTX kernel's CUDA source
        // is in front of the generated code: its group is as tall as the kernel's.
        split(27, tabs(cuda ? 40 : 45, 'editor', ...(tall ? [] : ['kernel-inputs' as const])), tabs(cuda ? 40 : 30, 'cuda', 'ptx', 'listing', ...(tall ? ['kernel-inputs' as const] : [])), tabs(cuda ? 20 : 25, 'metrics', 'problems', ...(tall ? [] : ['registers' as const]))),
        split(35, tabs(cap, 'caption'), tabs(100 - cap, 'cfg')),
        split(38, tabs(tall ? 27 : 30, 'warps', 'lanes'), ...(tall ? [tabs(27, 'registers', 'memory')] : []), tabs(tall ? 22 : 36, 'stack', ...(tall ? [] : ['memory' as const])), tabs(tall ? 24 : 34, 'plot', 'output')),
      );
  }
}

function compare(name: LayoutName, v: Viewport): LayoutTree {
  if (v.width < NARROW_PX) return column(split(72, tabs(50, 'side-a'), tabs(50, 'side-b')), tabs(28, 'compare-table', 'editor', 'listing', 'cuda', 'ptx', 'problems'));
  // The table wants about 300 px at lecture's zoom for its two value columns beside the labels.
  if (name === 'lecture') return row(tabs(30, 'compare-table', 'editor', 'listing', 'cuda', 'ptx', 'problems'), tabs(35, 'side-a'), tabs(35, 'side-b'));
  return row(split(28, tabs(45, 'editor', 'listing', 'cuda', 'ptx'), tabs(55, 'compare-table', 'problems')), tabs(36, 'side-a'), tabs(36, 'side-b'));
}

function sweep(_name: LayoutName, v: Viewport): LayoutTree {
  if (v.width < NARROW_PX) return column(tabs(62, 'sweep'), split(38, tabs(50, 'sweep-settings', 'problems'), tabs(50, 'editor')));
  return row(split(30, tabs(45, 'editor'), tabs(55, 'sweep-settings', 'problems')), tabs(70, 'sweep'));
}

/** The named layout of `mode` for a dock of size `v`, with every panel the mode has; `listing`:
 * the kernel is compiled (C or PTX), so its generated code wants room of its own; `cuda`: it is
 * PTX, so its CUDA source does too. */
export function preset(name: LayoutName, mode: Mode, v: Viewport, listing = false, cuda = false): LayoutTree {
  return mode === 'compare' ? compare(name, v) : mode === 'sweep' ? sweep(name, v) : single(name, v, listing, cuda);
}

/** Panels that get a group of their own in an embed, each at least this tall; the rest are tabs. */
const EMBED_GROUP_MIN_PX = 125;

/** An embed's panels laid out for its frame: the caption a strip on top, the first view large on
 * the left, the others stacked on the right while each keeps `EMBED_GROUP_MIN_PX`, then tabbed,
 * the stack in front of the panels it shares a group with (its entries are read, and three of
 * them would not fit a smaller group). */
export function embedTree(panels: readonly DockPanelId[], v: Viewport): LayoutTree {
  const caption = panels.includes('caption');
  const views = panels.filter((p) => p !== 'caption');
  // The caption strip: three lines of text (more below says so), a little more on a taller frame.
  const cap = caption ? Math.round((100 * Math.min(140, Math.max(86, v.height * 0.24))) / v.height) : 0;
  const height = (v.height * (100 - cap)) / 100;
  const body: LayoutNode[] = [];
  if (views.length > 0) {
    const [first, ...rest] = views;
    if (rest.length === 0 || v.width < 520) body.push(tabs(100, ...views));
    else {
      const groups = Math.max(1, Math.min(rest.length, Math.floor(height / EMBED_GROUP_MIN_PX)));
      const right: LayoutNode[] = [];
      for (let g = 0; g < groups; g++) {
        const ids = g === groups - 1 ? rest.slice(g) : [rest[g]];
        // The stack's group is a little taller: a head and three entries, where the lanes' picture scales.
        right.push(ids.includes('stack') ? tabs(1.2, 'stack', ...ids.filter((id) => id !== 'stack')) : tabs(1, ...ids));
      }
      body.push(tabs(55, first), right.length === 1 ? { ...right[0], weight: 45 } : split(45, ...right));
    }
  }
  if (!caption) return body.length === 1 && 'tabs' in body[0] ? row(body[0]) : row(...body);
  if (body.length === 0) return row(tabs(100, 'caption'));
  return column(tabs(cap, 'caption'), body.length === 1 ? { ...body[0], weight: 100 - cap } : split(100 - cap, ...body));
}

/** `tree` without the panels not in `keep`; empty groups and splits go, one-child splits fold. */
export function prune(tree: LayoutTree, keep: ReadonlySet<DockPanelId>): LayoutTree {
  const walk = (n: LayoutNode): LayoutNode | null => {
    if ('tabs' in n) {
      const ids = n.tabs.filter((id) => keep.has(id));
      return ids.length ? { tabs: ids, weight: n.weight } : null;
    }
    const kids = n.split.map(walk).filter((k): k is LayoutNode => k !== null);
    if (kids.length === 0) return null;
    // A split of one child is that child; a nested split of the same direction would be wrong.
    if (kids.length === 1) return 'tabs' in kids[0] ? { ...kids[0], weight: n.weight } : { split: kids[0].split, weight: n.weight };
    return { split: kids, weight: n.weight };
  };
  const children = tree.children.map(walk).filter((k): k is LayoutNode => k !== null);
  // A root with one split child turns: that child's children run the other way.
  if (children.length === 1 && 'split' in children[0]) return { dir: tree.dir === 'row' ? 'column' : 'row', children: children[0].split };
  return { dir: tree.dir, children };
}

/** Every panel of the tree, in order. */
export function panelsOf(tree: LayoutTree): DockPanelId[] {
  const walk = (n: LayoutNode): DockPanelId[] => ('tabs' in n ? n.tabs : n.split.flatMap(walk));
  return tree.children.flatMap(walk);
}

type Serialized = SerializedDockview;
type GridObject = Serialized['grid']['root'];

/** dockview keeps a group at least this tall and wide unless its panel says less. */
const DOCKVIEW_GROUP_MIN_PX = 100;

/** dockview's layout for `tree` in a frame of `v` (sizes in pixels, split by weight). A group
 * planned smaller than dockview's minimum (an embed's caption strip) keeps its planned size. */
export function serialise(tree: LayoutTree, v: Viewport): Serialized {
  let groups = 0;
  const panels: Serialized['panels'] = {};
  const node = (n: LayoutNode, size: number, across: number, horizontal: boolean): GridObject => {
    if ('tabs' in n) {
      const [w, h] = horizontal ? [size, across] : [across, size];
      const least = {
        ...(w < DOCKVIEW_GROUP_MIN_PX ? { minimumWidth: w } : {}),
        ...(h < DOCKVIEW_GROUP_MIN_PX ? { minimumHeight: h } : {}),
      };
      for (const id of n.tabs) panels[id] = { id, contentComponent: id, title: PANEL_INFO[id].title, ...least };
      return { type: 'leaf', size, data: { views: n.tabs, activeView: n.tabs[0], id: String(++groups) } };
    }
    // A split's children run across its parent's direction.
    return { type: 'branch', size, data: children(n.split, across, size, !horizontal) };
  };
  const children = (kids: LayoutNode[], along: number, across: number, horizontal: boolean): GridObject[] => {
    const total = kids.reduce((s, k) => s + k.weight, 0) || 1;
    return kids.map((k) => node(k, Math.round((along * k.weight) / total), across, horizontal));
  };
  const horizontal = tree.dir === 'row';
  const along = horizontal ? v.width : v.height, across = horizontal ? v.height : v.width;
  const root: GridObject = { type: 'branch', size: across, data: children(tree.children, along, across, horizontal) };
  return {
    grid: { root, width: v.width, height: v.height, orientation: (horizontal ? 'HORIZONTAL' : 'VERTICAL') as Serialized['grid']['orientation'] },
    panels,
  };
}
