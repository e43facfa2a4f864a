//! Stack view: the tokens now on the reconvergence stack, top first (kind, mask as lane bits,
//! target pc as address and line), spilled entries set apart below the on-chip capacity line.

import { hex, html, laneRanges } from '../svg';
import type { StateView } from '../views';

export function render(root: HTMLElement, st: StateView | null, capacity: number): void {
  const stack = st?.stack ?? [];
  const head = html('div', { class: 'stack-head' });
  const spilled = stack.filter((e) => !e.on_chip).length;
  head.append(
    html('span', { 'data-testid': 'stack-depth' }, `depth ${stack.length}`),
    html('span', { class: 'muted' }, `${spilled ? ` · ${stack.length - spilled} on chip, ${spilled} spilled` : ''} · on-chip capacity ${capacity}`),
  );
  const list = html('ol', { class: 'stack-list', 'data-testid': 'stack-list' });
  // The facade lists the stack bottom first; students read it top first, like the paper.
  const topFirst = [...stack].reverse();
  let lineDrawn = false;
  topFirst.forEach((e, i) => {
    if (!e.on_chip && !lineDrawn) {
      list.append(html('li', { class: 'capacity-line' }, 'below: spilled to memory, filled back once the entries above are popped'));
      lineDrawn = true;
    }
    const li = html('li', {
      class: `stack-entry kind-${e.kind.toLowerCase()}${e.on_chip ? '' : ' spilled'}`,
      'data-testid': 'stack-entry', 'data-kind': e.kind, 'data-bits': e.bits, 'data-addr': hex(e.addr),
      title: `lanes ${laneRanges(e.lanes) || 'none'}`,
    });
    li.append(
      html('span', { class: 'stack-pos' }, i === 0 ? 'top' : ''),
      html('span', { class: 'stack-kind' }, e.kind),
      html('span', { class: 'stack-bits mono' }, e.bits),
      html('span', { class: 'stack-pc mono' }, `→ ${hex(e.addr)}${e.line ? ` (line ${e.line})` : ''}`),
    );
    if (!e.on_chip) li.append(html('span', { class: 'tag' }, 'spilled'));
    list.append(li);
  });
  if (stack.length === 0) list.append(html('li', { class: 'stack-empty muted' }, 'empty'));
  const bitsHint = html('div', { class: 'muted small' }, st ? `mask bits: lane ${st.lanes.length - 1} … lane 0` : '');
  root.replaceChildren(head, list, bitsHint);
}
