//! The smallest type a layout allows: the lecture layout's `--type-floor` (screen pixels, read
//! from the back of a room), for the panels that size their own text (the graph's zoom, the
//! lanes' and the stack history's labels). CSS sizes the rest.

/** The floor in `el`'s own CSS pixels (its zoom taken out); 0 where the layout sets none. */
export function typeFloor(el: Element): number {
  const screen = parseFloat(getComputedStyle(el).getPropertyValue('--type-floor')) || 0;
  return screen / (el.currentCSSZoom || 1);
}
