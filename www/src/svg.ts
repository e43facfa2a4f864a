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
