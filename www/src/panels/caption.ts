//! Caption panel: the walkthrough caption for this step (`//@ note`), the instruction the warp
//! just issued, and why the run ended when it has.

import { hex, html } from '../svg';
import type { StateView, StopView } from '../views';

export function render(root: HTMLElement, st: StateView | null, end: StopView | null, total: number): void {
  const parts: HTMLElement[] = [];
  const caption = html('p', { class: 'caption-text', 'data-testid': 'caption' }, st?.caption ?? '');
  if (!st?.caption) caption.classList.add('empty');
  parts.push(caption);
  if (st?.last) {
    const last = html('p', { class: 'last-instr' });
    last.append(html('span', { class: 'muted' }, `step ${st.step} issued `), html('code', {}, st.last.text));
    if (st.last.line) last.append(html('span', { class: 'muted' }, ` (line ${st.last.line})`));
    parts.push(last);
  }
  const next = html('p', { class: 'muted small', 'data-testid': 'status' });
  if (st && st.step >= total && end) next.textContent = `end of run: ${end.message}`;
  else if (st?.addr != null) next.textContent = `next: ${hex(st.addr)}${st.line ? ` (line ${st.line})` : ''} · ${st.status}`;
  else next.textContent = st?.status ?? '';
  parts.push(next);
  root.replaceChildren(...parts);
}
