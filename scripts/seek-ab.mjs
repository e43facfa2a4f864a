// Seek + redraw in two or more builds of the app, measured in one run: each build in a Chromium
// of its own, the 10 M-step run of tests/bench/endless_loop.cu loaded in each, then blocks of
// 10 random seeks through the scrubber taken in turn (the same steps in every build), so the
// machine's load falls on all builds alike. Each seek is timed as tests/bench/app.bench.ts times it:
// the scrubber's input event (the app seeks and redraws every panel) and the style and layout that
// follow. Prints median, 95th percentile and max per build, and the layout's part.
//
//   npx vite build --outDir /tmp/before   (at the commit before; the same at the one after)
//   npx vite preview --outDir /tmp/before --port 4301 --strictPort &   (and /tmp/after on 4302)
//   node scripts/seek-ab.mjs 24 http://127.0.0.1:4301/ http://127.0.0.1:4302/
import { openTenMillion } from './ten-million.mjs';

const [blocks, ...urls] = process.argv.slice(2);
if (!urls.length) throw new Error('usage: node scripts/seek-ab.mjs BLOCKS URL...');
const browsers = [], pages = [];
for (const url of urls) {
  const { browser, page } = await openTenMillion(url);
  browsers.push(browser);
  pages.push(page);
}

/** `count` seeks from `seed`: [seek + redraw + layout, the layout alone] each, in ms. */
const scrub = (page, count, seed) => page.evaluate(async ([count, seed]) => {
  const range = document.querySelector('[data-testid="scrubber"]');
  const total = Number(range.max);
  const out = [];
  let x = seed;
  for (let i = 0; i < count; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const t0 = performance.now();
    range.value = String(x % total);
    range.dispatchEvent(new Event('input', { bubbles: true }));
    const t1 = performance.now();
    void document.body.getBoundingClientRect().height; // style + layout now
    const t2 = performance.now();
    out.push([t2 - t0, t2 - t1]);
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  }
  return out;
}, [count, seed]);

for (const page of pages) await scrub(page, 20, 999); // warm-up
const times = urls.map(() => []);
let seed = 12345;
for (let b = 0; b < Number(blocks); b++) {
  for (let i = 0; i < pages.length; i++) times[i].push(...await scrub(pages[i], 10, seed));
  for (let k = 0; k < 10; k++) seed = (seed * 1103515245 + 12345) % 2147483648;
}
for (const browser of browsers) await browser.close();

const q = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const f = (x) => x.toFixed(2);
urls.forEach((url, i) => {
  const all = times[i].map((t) => t[0]), layout = times[i].map((t) => t[1]);
  console.log(`${url}  seek + redraw + layout: median ${f(q(all, 0.5))} ms, 95th percentile ${f(q(all, 0.95))}, max ${f(Math.max(...all))} `
    + `(${all.length} seeks); layout alone: median ${f(q(layout, 0.5))}, 95th percentile ${f(q(layout, 0.95))}`);
});
