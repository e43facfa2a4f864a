//! Stack view: the model's control state now, top first. For the stack models these are tokens or
//! PDOM entries (kind, mask as lane bits, target pc as address and line, and a PDOM entry's rpc),
//! spilled entries set apart below the on-chip capacity line; for the per-thread models, the
//! groups of lanes at each pc and Volta's barrier registers. Each kind says what it means: a
//! tooltip on the entry, and a legend of the kinds on screen whose items show the meaning on
//! hover or keyboard focus and open the help's glossary at the same words (the engine's, per
//! model). And what "depth" counts for this model.

import { modelInfo } from '../model-info';
import { hex, html, laneRanges } from '../svg';
import type { StackEntryView, StateView } from '../generated/engine';

export interface StackContext {
  model: string;
  capacity: number;
  /** The depth after the current step, from the engine (`Engine.depthAfter`); null before the first step. */
  depth: number | null;
  /** Opens the help's glossary at an entry word (absent: the legend only explains). */
  openTerm?: (word: string) => void;
}

const isBarrierRegister = (kind: string) => /^B\d+$/.test(kind);

function target(e: StackEntryView): string {
  const at = `${hex(e.addr)}${e.line ? ` (line ${e.line})` : ''}`;
  if (isBarrierRegister(e.kind)) return `converge at ${at}`;
  return `→ ${at}`;
}

function entry(e: StackEntryView, pos: string, spills: boolean): HTMLElement {
  const empty = e.lanes.length === 0;
  const meaning = e.meaning;
  const li = html('li', {
    class: `stack-entry kind-${e.kind.toLowerCase().replace(/\s+/g, '-')}${e.on_chip ? '' : ' spilled'}${empty ? ' no-lane' : ''}`,
    'data-testid': 'stack-entry', 'data-kind': e.kind, 'data-bits': e.bits, 'data-addr': hex(e.addr),
    title: `${e.kind}: ${meaning}\nlanes ${laneRanges(e.lanes) || 'none'}`,
  });
  li.append(
    html('span', { class: 'stack-pos' }, pos),
    html('span', { class: 'stack-kind' }, e.kind),
    html('span', { class: 'stack-bits mono' }, e.bits),
    html('span', { class: 'stack-pc mono' }, target(e)),
  );
  // A PDOM entry is popped when its pc reaches its rpc (a null rpc: when its lanes exit).
  if (e.kind === 'PATH' || e.rpc_addr !== null) {
    li.append(html('span', { class: 'stack-rpc mono', 'data-testid': 'stack-rpc' }, e.rpc_addr === null ? 'rpc: exit' : `rpc ${hex(e.rpc_addr)}`));
  }
  if (empty && e.kind === 'RUN') li.append(html('span', { class: 'tag no-lane-tag', 'data-testid': 'no-lane' }, 'warp pc here, no lane'));
  if (spills && !e.on_chip) li.append(html('span', { class: 'tag' }, 'spilled'));
  return li;
}

/** The kinds on screen, each once, with a short label; the full meaning on hover or focus in the
 * line below, and a click opens the glossary there. */
function legend(stack: StackEntryView[], openTerm: StackContext['openTerm']): HTMLElement[] {
  const seen = new Map<string, StackEntryView>();
  for (const e of stack) if (!seen.has(e.term)) seen.set(e.term, e);
  const box = html('div', { class: 'stack-legend small', 'data-testid': 'stack-legend' });
  const meaning = html('p', { class: 'stack-meaning small', 'data-testid': 'stack-meaning', 'aria-live': 'polite' });
  for (const [term, e] of seen) {
    const item = html('button', {
      type: 'button', class: 'stack-legend-item', title: e.meaning, 'data-term': term, 'data-testid': 'stack-legend-item',
      'aria-label': `${term}: ${e.label}. ${openTerm ? 'Opens the glossary' : ''}`,
    });
    item.append(html('b', {}, term === 'RUN (no lane)' ? 'RUN' : term), document.createTextNode(` ${e.label}`));
    const show = () => { meaning.textContent = `${term}: ${e.meaning}`; };
    item.addEventListener('mouseenter', show);
    item.addEventListener('focus', show);
    if (openTerm) item.addEventListener('click', () => openTerm(term));
    box.append(item);
  }
  return [box, meaning];
}

/** What each root shows, so a seek to the same stack rebuilds nothing (and lays nothing out again). */
const shown = new WeakMap<HTMLElement, string>();

export function render(root: HTMLElement, st: StateView | null, ctx: StackContext): void {
  const info = modelInfo(ctx.model);
  const stack = st?.stack ?? [];
  const key = JSON.stringify([stack, st?.lanes.length, ctx.model, ctx.capacity, ctx.depth, ctx.openTerm !== undefined]);
  if (shown.get(root) === key && root.firstChild) return;
  shown.set(root, key);
  const head = html('div', { class: 'stack-head' });
  const spilled = stack.filter((e) => !e.on_chip).length;
  head.append(
    html('span', { class: 'stack-title' }, info.stack_title),
    ctx.depth === null
      ? html('span', { 'data-testid': 'stack-depth' }, `${stack.length} entr${stack.length === 1 ? 'y' : 'ies'}`)
      : html('span', { 'data-testid': 'stack-depth', title: `in ${ctx.model}, depth counts ${info.depth}` }, `depth ${ctx.depth}`),
  );
  // Each part its own span: a short panel's head drops the title, what depth counts and "on-chip".
  const muted = (cls: string, text: string) => { if (text) head.append(html('span', { class: `muted ${cls}` }, text)); };
  muted('stack-counts', ctx.depth === null ? '' : ` (${info.depth})`);
  muted('stack-spills', info.spills && spilled ? ` · ${stack.length - spilled} on chip, ${spilled} spilled` : '');
  if (info.spills) {
    const cap = html('span', { class: 'muted stack-cap' }, ' · ');
    cap.append(html('span', { class: 'stack-cap-long' }, 'on-chip '), `capacity ${ctx.capacity}`);
    head.append(cap);
  }
  // A short panel's entries drop their "top" label: the head says which end is the top.
  head.append(html('span', { class: 'muted stack-order' }, info.stack ? ' · top first' : ''));
  const list = html('ol', { class: 'stack-list', 'data-testid': 'stack-list' });
  // The facade lists the stack bottom first; students read it top first, like the paper.
  const topFirst = [...stack].reverse();
  let lineDrawn = false;
  topFirst.forEach((e, i) => {
    if (info.spills && !e.on_chip && !lineDrawn) {
      list.append(html('li', { class: 'capacity-line' }, 'below: spilled to memory, filled back once the entries above are popped'));
      lineDrawn = true;
    }
    const pos = e.kind === 'RUN' ? 'next' : info.stack && i === 0 ? 'top' : '';
    list.append(entry(e, pos, info.spills));
  });
  if (stack.length === 0) list.append(html('li', { class: 'stack-empty muted' }, 'empty'));
  const bitsHint = html('div', { class: 'muted small stack-bits-hint' }, st ? `mask bits: lane ${st.lanes.length - 1} … lane 0` : '');
  // A step redraws the panel: a legend item that had the keyboard focus keeps it.
  const focused = root.contains(document.activeElement) ? (document.activeElement as HTMLElement).dataset.term : undefined;
  root.replaceChildren(head, list, ...legend(stack, ctx.openTerm), bitsHint);
  if (focused) root.querySelector<HTMLElement>(`[data-term="${CSS.escape(focused)}"]`)?.focus();
}
