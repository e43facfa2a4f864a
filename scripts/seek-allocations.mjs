// What a seek allocates on the JS heap, by function: the 10 M-step run of
// tests/bench/endless_loop.cu loaded, then SEEKS random seeks through the scrubber under V8's
// sampling heap profiler (every allocation, also those collected since). Prints the bytes a seek
// allocates and the functions allocating most. Garbage per seek is what brings V8's major
// collections, which a seek that meets one pays for (scripts/seek-trace.mjs).
//
//   npx vite build --outDir /tmp/app && npx vite preview --outDir /tmp/app --port 4301 --strictPort &
//   node scripts/seek-allocations.mjs 300 http://127.0.0.1:4301/
import { openTenMillion, randomSeeks } from './ten-million.mjs';

const [seeks, url] = process.argv.slice(2);
if (!url) throw new Error('usage: node scripts/seek-allocations.mjs SEEKS URL');
const { browser, page } = await openTenMillion(url);
const cdp = await page.context().newCDPSession(page);

const scrub = (count) => randomSeeks(page, count);
await scrub(20); // warm-up
await cdp.send('HeapProfiler.enable');
await cdp.send('HeapProfiler.startSampling', {
  samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true,
});
await scrub(Number(seeks));
const { profile } = await cdp.send('HeapProfiler.stopSampling');
await browser.close();

// Self bytes per function (name and place), and the whole.
const self = new Map();
let total = 0;
const walk = (node, stack) => {
  const f = node.callFrame;
  const name = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
  if (node.selfSize) {
    self.set(name, (self.get(name) ?? 0) + node.selfSize);
    total += node.selfSize;
  }
  for (const c of node.children) walk(c, [...stack, name]);
};
walk(profile.head, []);
const kb = (b) => (b / 1024).toFixed(1);
console.log(`${seeks} seeks: ${kb(total / Number(seeks))} KiB allocated a seek (sampled)`);
for (const [name, bytes] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
  console.log(`  ${kb(bytes / Number(seeks)).padStart(8)} KiB  ${name}`);
}
