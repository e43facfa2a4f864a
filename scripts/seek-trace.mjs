// Where the time of a seek goes, from Chromium's own trace: the 10 M-step run of
// tests/bench/endless_loop.cu loaded, then SEEKS random seeks through the scrubber (one a frame),
// traced. For each seek's input event (the app's seek and redraw of every panel, then style and
// layout, forced by a listener after the app's) it reads the wall time and the main thread's CPU time, and
// whether a garbage collection ran inside it. On a shared machine the long seeks are the ones whose
// thread was off the CPU (wall far above CPU) or that finished V8's major collection; this tells
// those apart from the app's own work. Prints the distributions and every collection's reason.
//
//   npx vite build --outDir /tmp/app && npx vite preview --outDir /tmp/app --port 4301 --strictPort &
//   node scripts/seek-trace.mjs 1000 http://127.0.0.1:4301/
import { openTenMillion, randomSeeks } from './ten-million.mjs';

const [seeks, url] = process.argv.slice(2);
if (!url) throw new Error('usage: node scripts/seek-trace.mjs SEEKS URL');
const { browser, page } = await openTenMillion(url);

const scrub = (count) => randomSeeks(page, count, true);
await scrub(20); // warm-up
await browser.startTracing(page, { categories: ['devtools.timeline', 'v8', 'disabled-by-default-v8.gc'] });
await scrub(Number(seeks));
const trace = JSON.parse((await browser.stopTracing()).toString()).traceEvents;
await browser.close();

const spans = trace.filter((e) => e.ph === 'X');
const inputs = spans.filter((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'input');
const collections = spans.filter((e) => e.name === 'MajorGC' || e.name === 'MinorGC');
const inside = (e) => collections.filter((g) => g.tid === e.tid && g.ts >= e.ts && g.ts < e.ts + e.dur);
const ms = (us) => us / 1000;
const q = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const line = (name, xs) => `${name}: median ${q(xs, 0.5).toFixed(2)} ms, 95th percentile ${q(xs, 0.95).toFixed(2)}, 99th ${q(xs, 0.99).toFixed(2)}, max ${Math.max(...xs).toFixed(2)}`;

// A thread-time reading above the wall time is the trace's clock failing (a thread moved between
// cores), not work: such seeks count for wall time only.
const timed = inputs.filter((e) => e.tdur !== undefined && e.tdur <= e.dur);
const plain = timed.filter((e) => inside(e).length === 0);
console.log(`${inputs.length} seeks traced (${timed.length} with a CPU time, ${inputs.length - plain.length - (inputs.length - timed.length)} with a collection inside)`);
console.log(line('wall, every seek', inputs.map((e) => ms(e.dur))));
console.log(line('CPU, every seek', timed.map((e) => ms(e.tdur))));
console.log(line('CPU, seeks without a collection', plain.map((e) => ms(e.tdur))));
console.log(line('wall, seeks without a collection', plain.map((e) => ms(e.dur))));
const long = inputs.filter((e) => ms(e.dur) > 16).map((e) => {
  const gc = inside(e).map((g) => `${g.name} ${ms(g.dur).toFixed(1)} ms (${g.args?.type ?? ''})`).join(', ');
  return `  ${ms(e.dur).toFixed(1)} ms wall, ${e.tdur <= e.dur ? ms(e.tdur).toFixed(1) : '?'} ms CPU${gc ? `; inside: ${gc}` : ''}`;
});
console.log(`seeks over 16 ms: ${long.length}`);
for (const l of long) console.log(l);
const starts = spans.filter((e) => e.name === 'V8.GCIncrementalMarkingStart');
const reasons = {};
for (const s of starts) reasons[s.args?.value?.reason ?? '?'] = (reasons[s.args?.value?.reason ?? '?'] ?? 0) + 1;
console.log(`major collections: ${collections.filter((g) => g.name === 'MajorGC').length} (incremental marking started by: ${JSON.stringify(reasons)})`);
