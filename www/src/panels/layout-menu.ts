//! The Layout menu: the named layouts (study, lecture, research), which panels of this mode are
//! shown, and presentation mode. Drag a tab to move a panel; drag a border to resize.

import type { Dock } from '../layout/dock';
import { PANEL_INFO } from '../layout/panels';
import { LAYOUT_ABOUT, LAYOUT_NAMES } from '../layout/presets';
import { html } from '../svg';

export function render(root: HTMLElement, dock: Dock, rerender: () => void): void {
  const named = html('fieldset', { class: 'menu-group' });
  named.append(html('legend', {}, 'Layout'));
  for (const name of LAYOUT_NAMES) {
    const b = html('button', {
      type: 'button', class: 'menu-choice', 'data-testid': `layout-${name}`, 'aria-pressed': String(dock.named === name),
      title: LAYOUT_ABOUT[name],
    });
    b.append(html('strong', {}, name), html('span', { class: 'muted small' }, LAYOUT_ABOUT[name]));
    // The menu closes after this choice (menus.ts) and is drawn again when it next opens.
    b.addEventListener('click', () => dock.useNamed(name));
    named.append(b);
  }
  const shown = html('fieldset', { class: 'menu-group' });
  shown.append(html('legend', {}, 'Panels'));
  for (const p of dock.panels()) {
    const box = html('input', { type: 'checkbox', 'data-testid': `show-${p.id}` });
    box.checked = p.shown;
    box.addEventListener('change', () => { dock.setShown(p.id, box.checked); rerender(); });
    const label = html('label', { class: 'menu-check' });
    label.append(box, ` ${PANEL_INFO[p.id].title}`);
    shown.append(label);
  }
  const hint = html('p', { class: 'muted small menu-hint' },
    'Drag a tab to move its panel, a border to resize; × on a tab closes its panel (tick it here to bring it back). The full-screen button on a panel\'s tab presents it in large type (Esc ends). Your layout is kept in this browser.');
  root.replaceChildren(named, shown, hint);
}
