//! Caption panel: the walkthrough caption for this step (`//@ note`), the instruction the warp
//! just issued (or that it issued with no lane), and why the run ended when it has.

import { hex, html } from '../svg';
import type { StateView, Outcome } from '../generated/engine';

/** `idle`: the step just shown issued with no active lane (tf-sandy's warp pc walking a block). */
export function render(root: HTMLElement, st: StateView | null, end: Outcome | null, total: number, idle = false): void {
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
  }
  const next = html('p', { class: 'muted small', 'data-testid': 'status' });
  if (st && st.step >= total && end) next.textContent = `end of run: ${end.message}`;
  else if (st?.addr != null) next.textContent = `next: ${hex(st.addr)}${st.line ? ` (line ${st.line})` : ''} · ${st.status}`;
  else next.textContent = st?.status ?? '';
  parts.push(next);
  root.replaceChildren(...parts);
}
