//! The first-visit tour: a few callouts, each beside a real part of the page (the kernel, the
//! CFG, the lanes, the stack and its history, the step controls, Examples and help), with Next,
//! Back and Skip. It starts by itself only on the very first visit (nothing of warpscope's in
//! the browser's storage, not opened from a link, not an embed) and again from the help. A step
//! whose panel is behind a tab brings it forward; one whose panel is not on the page is skipped.
//! The callout is a non-modal dialog: the page stays usable, Esc skips, a click anywhere else
//! ends it (the visitor has taken over), and the focus goes back where it was when the tour ends.

import type { DockPanelId } from '../layout/panels';
import { html } from '../svg';

export interface TourStep {
  /** The dock panel the step points at (brought forward if behind a tab), if any. */
  panel: DockPanelId | null;
  /** The element the callout stands beside. */
  target: string;
  title: string;
  text: string;
}

const inDock = (p: DockPanelId) => `#dock [data-panel="${p}"]`;

export const TOUR_STEPS: readonly TourStep[] = [
  {
    panel: 'editor', target: inDock('editor'), title: 'The kernel',
    text: 'The code one warp runs: a SASS-like listing, CUDA C, the PTX nvcc writes, or real SASS from cuobjdump. It runs again as you type; errors are marked on their line.',
  },
  {
    panel: 'cfg', target: inDock('cfg'), title: 'The control-flow graph',
    text: 'Basic blocks and branches. The block that runs now is outlined, and arrows show where the model makes divergent lanes meet again.',
  },
  {
    panel: 'lanes', target: inDock('lanes'), title: 'The lanes',
    text: 'One row per lane (thread), one column per step: which lanes ran, which a predicate masked off, which wait while divergence runs the other side, which have exited.',
  },
  {
    panel: 'stack', target: inDock('stack'), title: 'The reconvergence stack',
    text: 'The model\'s control state after this step: tokens such as SYNC and DIV, or Volta\'s barriers. Once the warp diverges, point at a word in its legend to see what it means.',
  },
  {
    panel: 'plot', target: inDock('plot'), title: 'The stack history',
    text: 'The stack\'s depth over the whole run, like the papers\' figures, with spills and fills marked. The cursor is the step shown.',
  },
  {
    panel: null, target: '#scrubber', title: 'Step through the run',
    text: '→ and ← step, Shift+→ jumps to the next divergence, Space plays. Drag the slider to any step.',
  },
  {
    panel: null, target: '#btn-examples', title: 'Examples and help',
    text: 'Examples has more kernels and the papers\' figures. The ? button (or the ? key) explains each panel and every model\'s words, and can start this tour again.',
  },
];

/** Set when the tour has run once; never cleared by the page. */
export const TOURED_KEY = 'warpscope.toured.v1';

export interface Visit {
  /** The keys in the browser's storage; null when it cannot be read. */
  stored: readonly string[] | null;
  /** The page's fragment: a permalink or embed when not empty. */
  hash: string;
  embed: boolean;
}

/** The very first visit: nothing of warpscope's stored (a returning user has work, a layout or
 * this key), not a link someone sent, not an embed; and storage works, or it would come back on
 * every visit. */
export function isFirstVisit(v: Visit): boolean {
  return v.stored !== null && !v.stored.some((k) => k.startsWith('warpscope.')) && v.hash.length <= 1 && !v.embed;
}

export function storedKeys(): string[] | null {
  try {
    return Object.keys(localStorage);
  } catch {
    return null;
  }
}

/** The next step from `from` in direction `dir` whose target `shown` can put on screen; null past
 * either end. */
export function nextStep(from: number, dir: 1 | -1, count: number, shown: (i: number) => boolean): number | null {
  for (let i = from + dir; i >= 0 && i < count; i += dir) if (shown(i)) return i;
  return null;
}

export interface TourHost {
  /** Whether a dock panel is in the layout (perhaps behind a tab). */
  has(panel: DockPanelId): boolean;
  /** Brings a dock panel's tab forward. */
  reveal(panel: DockPanelId): void;
}

const MARGIN = 8;
const GAP = 12;

/** On screen: laid out, not hidden, and at least partly inside the window. */
function onScreen(el: Element | null): el is HTMLElement {
  if (!(el instanceof HTMLElement) || !el.isConnected || el.closest('[hidden]')) return false;
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0 && r.right > 0 && r.bottom > 0 && r.left < innerWidth && r.top < innerHeight;
}

/** Where a `w` x `h` callout goes beside `t`: the first side where it fits in the window, else
 * inside the target's top right corner; always inside the window. */
export function place(t: DOMRect, w: number, h: number, win: { w: number; h: number }): { x: number; y: number } {
  const clampX = (x: number) => Math.max(MARGIN, Math.min(x, win.w - w - MARGIN));
  const clampY = (y: number) => Math.max(MARGIN, Math.min(y, win.h - h - MARGIN));
  const sides = [
    { x: t.right + GAP, y: clampY(t.top), fits: t.right + GAP + w + MARGIN <= win.w },
    { x: t.left - GAP - w, y: clampY(t.top), fits: t.left - GAP - w >= MARGIN },
    { x: clampX(t.left), y: t.bottom + GAP, fits: t.bottom + GAP + h + MARGIN <= win.h },
    { x: clampX(t.left), y: t.top - GAP - h, fits: t.top - GAP - h >= MARGIN },
  ];
  const side = sides.find((s) => s.fits);
  return side ? { x: side.x, y: side.y } : { x: clampX(t.right - w - GAP), y: clampY(t.top + GAP) };
}

let running: { end(): void } | null = null;

/** Starts the tour (ending one that runs) and remembers that it ran. */
export function start(host: TourHost, steps: readonly TourStep[] = TOUR_STEPS): { end(): void } {
  running?.end();
  try { localStorage.setItem(TOURED_KEY, '1'); } catch { /* storage off: the tour only starts by itself when it works */ }
  const back = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const dialog = html('dialog', { class: 'tour', 'data-testid': 'tour', 'aria-labelledby': 'tour-title', 'aria-describedby': 'tour-text' });
  const ring = html('div', { class: 'tour-ring', 'aria-hidden': 'true' });
  document.body.append(ring, dialog);
  dialog.show();
  let at = -1;
  let target: HTMLElement | null = null;
  // Whether a step can be shown, without bringing any tab forward.
  const available = (i: number) => {
    const s = steps[i];
    return s.panel ? host.has(s.panel) : onScreen(document.querySelector(s.target));
  };
  const bringForward = (i: number): HTMLElement | null => {
    const s = steps[i];
    if (s.panel) host.reveal(s.panel);
    const el = document.querySelector(s.target);
    return onScreen(el) ? el : null;
  };
  const sized = new ResizeObserver(() => position());
  const position = () => {
    if (!target) return;
    const t = target.getBoundingClientRect();
    const { x, y } = place(t, dialog.offsetWidth, dialog.offsetHeight, { w: innerWidth, h: innerHeight });
    dialog.style.left = `${x}px`;
    dialog.style.top = `${y}px`;
    const r = { x: Math.max(2, t.left - 4), y: Math.max(2, t.top - 4) };
    Object.assign(ring.style, {
      left: `${r.x}px`, top: `${r.y}px`,
      width: `${Math.min(innerWidth - 2, t.right + 4) - r.x}px`, height: `${Math.min(innerHeight - 2, t.bottom + 4) - r.y}px`,
    });
  };
  const show = (i: number, el: HTMLElement) => {
    at = i;
    target = el;
    sized.disconnect();
    sized.observe(el);
    const s = steps[i];
    const prev = nextStep(i, -1, steps.length, available);
    const last = nextStep(i, 1, steps.length, available) === null;
    const backBtn = html('button', { type: 'button', 'data-testid': 'tour-back' }, 'Back');
    backBtn.disabled = prev === null;
    backBtn.addEventListener('click', () => go(-1));
    const nextBtn = html('button', { type: 'button', class: 'primary', 'data-testid': 'tour-next' }, last ? 'Done' : 'Next');
    nextBtn.addEventListener('click', () => go(1));
    const skip = html('button', { type: 'button', class: 'linklike', 'data-testid': 'tour-skip' }, 'Skip tour');
    skip.addEventListener('click', end);
    const buttons = html('div', { class: 'tour-buttons' });
    buttons.append(skip, backBtn, nextBtn);
    dialog.dataset.step = String(i);
    dialog.replaceChildren(
      html('p', { class: 'tour-count muted small' }, `${i + 1} of ${steps.length}`),
      html('h2', { id: 'tour-title' }, s.title),
      html('p', { id: 'tour-text' }, s.text),
      buttons,
    );
    position();
    requestAnimationFrame(position);
    nextBtn.focus({ preventScroll: true });
  };
  /** The next step that can be shown; past the last one the tour ends. */
  const go = (dir: 1 | -1) => {
    for (let i = at; ;) {
      const n = nextStep(i, dir, steps.length, available);
      if (n === null) return dir === 1 ? end() : undefined;
      const el = bringForward(n);
      if (el) return show(n, el);
      i = n;
    }
  };
  const onKey = (e: KeyboardEvent) => {
    // Esc over a modal dialog (the help) closes that one only.
    if (e.key !== 'Escape' || document.querySelector('dialog:modal')) return;
    e.preventDefault();
    end();
  };
  const onResize = () => position();
  // The visitor taking over (a click anywhere but the callout: Examples, a model, the editor)
  // ends the tour: it is a first look, not a mode, and the help's "Take the tour" starts it again.
  const onPointer = (e: PointerEvent) => {
    if (!dialog.contains(e.target as Node)) end();
  };
  function end(): void {
    if (running !== handle) return;
    running = null;
    sized.disconnect();
    window.removeEventListener('keydown', onKey, true);
    window.removeEventListener('resize', onResize);
    window.removeEventListener('pointerdown', onPointer, true);
    dialog.remove();
    ring.remove();
    if (back?.isConnected) back.focus({ preventScroll: true });
  }
  const handle = { end };
  running = handle;
  window.addEventListener('keydown', onKey, true);
  window.addEventListener('resize', onResize);
  window.addEventListener('pointerdown', onPointer, true);
  go(1);
  return handle;
}
