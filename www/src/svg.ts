//! Tiny helpers for building SVG and HTML without innerHTML: user text always goes in as text.

const NS = 'http://www.w3.org/2000/svg';

export function svg<K extends keyof SVGElementTagNameMap>(
  tag: K, attrs: Record<string, string | number> = {}, text?: string,
): SVGElementTagNameMap[K] {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

export function html<K extends keyof HTMLElementTagNameMap>(
  tag: K, attrs: Record<string, string | number> = {}, text?: string,
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

/** A canvas's hover card, hidden until the pointer rests on the canvas. */
export function tooltip(testid: string): HTMLElement {
  const tip = html('div', { class: 'tooltip', 'data-testid': testid });
  tip.hidden = true;
  return tip;
}

/** A legend's item: a swatch (`background`: its colour, set through the CSSOM as the page's CSP
 * wants; `cls`: more classes) and its words. */
export function legendItem(words: string, swatch: { background?: string; cls?: string }): HTMLElement {
  const item = html('span', { class: 'legend-item' });
  const sw = html('i', { class: `swatch${swatch.cls ? ` ${swatch.cls}` : ''}` });
  if (swatch.background) sw.style.background = swatch.background;
  item.append(sw, document.createTextNode(words));
  return item;
}

/** Sets `el`'s text by changing its one text node (a new node would need a new layout), and only
 * when it differs. */
export function setText(el: HTMLElement, text: string): void {
  const node = el.firstChild;
  if (node?.nodeType === Node.TEXT_NODE && !node.nextSibling) {
    if ((node as Text).data !== text) (node as Text).data = text;
  } else {
    el.textContent = text;
  }
}

/** Sets an attribute only when it differs. */
export function setAttr(el: Element, name: string, value: string): void {
  if (el.getAttribute(name) !== value) el.setAttribute(name, value);
}

/** Keeps one child of `box` per item, made once by `make` and brought up to date by `update`
 * (which changes only what differs): while the number of items stays the same, a call makes and
 * drops no node. */
export function syncList<T>(box: Element, items: readonly T[], make: () => HTMLElement, update: (el: HTMLElement, item: T) => void): void {
  while (box.children.length > items.length) box.lastElementChild!.remove();
  while (box.children.length < items.length) box.append(make());
  items.forEach((item, i) => update(box.children[i] as HTMLElement, item));
}

/** Gives `root` the children `next` (built fresh, outside the page), keeping each node already
 * there that has the same tag in the same place and changing only its attributes and text: the
 * browser then lays out only the text that changed instead of new nodes. For nodes without
 * listeners (a kept node keeps its own). */
export function patchChildren(root: Node, next: readonly Node[]): void {
  for (let i = 0; i < next.length; i++) {
    const want = next[i], have = root.childNodes[i];
    if (!have) root.appendChild(want);
    else if (have.nodeName !== want.nodeName) root.replaceChild(want, have);
    else if (have.nodeType === Node.TEXT_NODE) {
      if ((have as Text).data !== (want as Text).data) (have as Text).data = (want as Text).data;
    } else if (have instanceof Element && want instanceof Element) {
      for (const a of [...have.attributes]) if (!want.hasAttribute(a.name)) have.removeAttribute(a.name);
      for (const a of [...want.attributes]) setAttr(have, a.name, a.value);
      patchChildren(have, [...want.childNodes]);
    } else root.replaceChild(want, have);
  }
  while (root.childNodes.length > next.length) root.removeChild(root.lastChild!);
}

/** A button's hover text, and its accessible name where its visible text is only symbols ("+",
 * "|◀◀"): a button that shows words is named by them (the name must contain what is seen), and
 * the hover text then describes it. */
export function described(text: string, title: string): Record<string, string> {
  return /\p{L}/u.test(text) ? { title } : { title, 'aria-label': title };
}

/** Appends `text` to `el`, its `backquoted` parts as code elements. */
export function withCode<E extends HTMLElement>(el: E, text: string): E {
  text.split('`').forEach((part, i) => el.append(i % 2 ? html('code', {}, part) : document.createTextNode(part)));
  return el;
}

/** "0-3, 7, 30-31": a lane list as ranges, for labels. */
export function laneRanges(lanes: number[]): string {
  const out: string[] = [];
  for (let i = 0; i < lanes.length; i++) {
    let j = i;
    while (j + 1 < lanes.length && lanes[j + 1] === lanes[j] + 1) j++;
    out.push(j > i ? `${lanes[i]}-${lanes[j]}` : `${lanes[i]}`);
    i = j;
  }
  return out.join(', ');
}

export function hex(n: number, digits = 4): string {
  return `0x${n.toString(16).padStart(digits, '0')}`;
}

/** An element's client size and computed style, as of its last resize. */
export interface Watched { w: number; h: number; css: CSSStyleDeclaration }

/**
 * Keeps `el`'s client size current through a ResizeObserver, whose callbacks run with layout
 * already done, so a render reading the size never forces a layout in the middle of a frame.
 * `resized` runs after each change (including the first measurement) to redraw.
 */
export function watchSize(el: Element, resized: () => void): Watched {
  const watched: Watched = { w: 0, h: 0, css: getComputedStyle(el) };
  new ResizeObserver(() => {
    const w = el.clientWidth, h = el.clientHeight;
    if (w === watched.w && h === watched.h) return;
    watched.w = w;
    watched.h = h;
    resized();
  }).observe(el);
  return watched;
}
