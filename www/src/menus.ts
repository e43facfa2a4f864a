//! The top bar's menus (`<details class="menu">`: Export, the settings) behave as menus do: one
//! is open at a time, and it closes after a choice in it (a button pressed, a field's value set
//! with Enter), on Esc (the focus back on its button), on a click elsewhere and when the focus
//! leaves it. A checkbox in a menu only says how its choices work, so it keeps the menu open.

export function bindMenus(menus: HTMLDetailsElement[]): void {
  const close = (menu: HTMLDetailsElement, refocus: boolean) => {
    menu.open = false;
    if (refocus) menu.querySelector('summary')?.focus();
  };
  for (const menu of menus) {
    // On the menu, so the item's own click handler has run first.
    menu.addEventListener('click', (e) => {
      if (e.target instanceof Element && e.target.closest('.menu-items button')) close(menu, true);
    });
    // Hiding the field blurs it, which commits its value (its change event); a value marked
    // invalid is not a choice, so the menu stays open to show the mark. The Enter must not go on
    // to press the menu's button, which has the focus by then.
    menu.addEventListener('keydown', (e) => {
      const t = e.target;
      if (e.key !== 'Enter' || !(t instanceof HTMLInputElement) || t.type === 'checkbox' || t.classList.contains('invalid')) return;
      e.preventDefault();
      close(menu, true);
    });
    menu.addEventListener('focusout', (e) => {
      if (menu.open && e.relatedTarget instanceof Node && !menu.contains(e.relatedTarget)) close(menu, false);
    });
    menu.addEventListener('toggle', () => {
      if (menu.open) for (const other of menus) if (other !== menu) other.open = false;
    });
  }
  document.addEventListener('keydown', (e) => {
    const open = menus.find((m) => m.open);
    if (e.key !== 'Escape' || !open) return;
    e.preventDefault();
    close(open, true);
  });
  // Capturing, so a click that a panel stops on its way still closes the menu.
  document.addEventListener('click', (e) => {
    for (const m of menus) if (m.open && !(e.target instanceof Node && m.contains(e.target))) close(m, false);
  }, true);
}
