// Issue 44's browser-side figure, measured in Node on the app's wasm build (web/pkg, from
// scripts/build-wasm.sh): tests/bench/launch_4096.cu (4,096 threads, about 10^4 warp instructions
// per warp) loaded in the page's Session (block 0 recorded, the other 15 run fast), then seeks to
// random steps of the recorded block, each timed with the views a step draws (the focused warp's
// state, the warps at the step).
//   node scripts/launch-scale.mjs [SEEKS]
import { readFileSync } from 'node:fs';
import { initSync, Session } from '../web/pkg/warpscope_web.js';

initSync({ module: readFileSync(new URL('../web/pkg/warpscope_web_bg.wasm', import.meta.url)) });
const text = readFileSync(new URL('../tests/bench/launch_4096.cu', import.meta.url), 'utf8');
const seeks = Number(process.argv[2] ?? 200);
const s = new Session();
let t0 = performance.now();
const r = s.load(text, { model: 'volta' });
const launch = r.launch;
const load = performance.now() - t0;
if (!r.ok) throw new Error(JSON.stringify(r.diagnostics));
const times = [];
let x = 12345;
for (let i = 0; i < seeks; i++) {
  x = (x * 1103515245 + 12345) % 2147483648;
  const t = x % (launch.steps + 1);
  t0 = performance.now();
  s.seek(t);
  s.warps_now();
  s.state(0);
  times.push(performance.now() - t0);
}
t0 = performance.now();
const summary = s.warps_summary();
const summaryMs = performance.now() - t0;
t0 = performance.now();
s.focus(5);
const focusMs = performance.now() - t0;
s.seek(Math.floor(launch.steps / 2));
t0 = performance.now();
s.warps_window(Math.floor(launch.steps / 2) - 200, Math.floor(launch.steps / 2) + 200);
const windowMs = performance.now() - t0;
times.sort((a, b) => a - b);
const q = (p) => times[Math.min(times.length - 1, Math.floor(p * times.length))].toFixed(2);
console.log(`launch: ${launch.totals.warp_instructions} warp instructions in all, block (0, 0, 0) recorded: ${launch.steps} steps of ${launch.warps} warps`);
console.log(`load (run, record, finish the launch): ${load.toFixed(0)} ms`);
console.log(`seek + warps_now + state over ${seeks} random steps: median ${q(0.5)} ms, 95th percentile ${q(0.95)} ms, max ${q(1)} ms`);
console.log(`summary (${summary.length / 2} steps): ${summaryMs.toFixed(1)} ms`);
console.log(`focus another warp (its records laid over the block's steps): ${focusMs.toFixed(1)} ms`);
console.log(`warps_window of 400 steps mid-block (the warps panel's window): ${windowMs.toFixed(1)} ms`);
