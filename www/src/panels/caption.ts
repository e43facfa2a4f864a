//! Caption panel: the walkthrough caption for this step (`//@ note`), the instruction the warp
//! just issued (or that it issued with no lane), under a timing model when it issued and what it
//! waited for, and why the run ended when it has.

import { hex, html, patchChildren } from '../svg';
import type { LastView, StateView, Outcome } from '../generated/engine';

/** The timing model's word on the last step: its sentence as the engine wrote it ("cycle 541, +14:
 * 1 after BSSY, waited 13 for P0 ...") and its cycle; null when no timing model ran it (the
 * counting presets), and the caption then says nothing of time. */
export function timingOf(last: LastView | null): { text: string; cycle: number } | null {
  const t = last?.timing;
  return t ? { text: t.text, cycle: t.cycle } : null;
}

/** `idle`: the step just shown issued with no active lane (tf-sandy's warp pc walking a block). */
/** For a whole launch: which warp issued the step and what the warp in focus is doing. */
export interface BlockLine { issuer: number | null; focus: number; doing: string }

export function render(root: HTMLElement, st: StateView | null, end: Outcome | null, total: number, idle = false, block: BlockLine | null = null): void {
  const parts: HTMLElement[] = [];
  const caption = html('p', { class: 'caption-text', 'data-testid': 'caption' }, st?.caption ?? '');
  if (!st?.caption) caption.classList.add('empty');
  parts.push(caption);
  if (st?.last) {
    const last = html('p', { class: 'last-instr' });
    last.append(html('span', { class: 'muted' }, `step ${st.step} issued `), html('code', {}, st.last.text));
    if (st.last.line) last.append(html('span', { class: 'muted' }, ` (line ${st.last.line})`));
    if (idle) {
      last.append(html('span', { class: 'idle-note', 'data-testid': 'idle-note' },
        ' with no active lane: an idle instruction (every lane waits elsewhere while the warp pc walks this block)'));
    }
    parts.push(last);
    if (block) parts.push(html('p', { class: 'muted small', 'data-testid': 'block-line' }, `warp ${block.focus} (in focus) issued it`));
    const timing = timingOf(st.last);
    if (timing) {
      const line = html('p', { class: 'step-timing', 'data-testid': 'step-timing', 'data-cycle': timing.cycle,
        title: 'The timing model: the cycle this step issued at, the cycles since the step before, and what it waited for' });
      line.append(html('span', { class: 'muted' }, 'timing: '), timing.text);
      parts.push(line);
    }
  }
  if (block && !st?.last && st && st.step > 0) {
    const who = block.issuer === null ? 'no warp issued this step' : `warp ${block.issuer} issued step ${st.step}`;
    parts.push(html('p', { class: 'last-instr', 'data-testid': 'block-line' }, `${who}; warp ${block.focus}, in focus, ${block.doing}`));
  }
  const next = html('p', { class: 'muted small', 'data-testid': 'status' });
  if (st && st.step >= total && end) next.textContent = `end of run: ${end.message}`;
  else if (st?.addr != null) next.textContent = `next: ${hex(st.addr)}${st.line ? ` (line ${st.line})` : ''} · ${st.status}`;
  else next.textContent = st?.status ?? '';
  parts.push(next);
  // Kept nodes, new text: a step lays out only the text that changed.
  patchChildren(root, parts);
}
