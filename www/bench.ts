// The benchmark page: times the wasm engine alone (no panels), so docs/performance.md can set
// browser figures beside the native criterion ones. Panel redraw is timed by tests/bench/app.bench.ts.
import init, { model_infos, Session, SweepRun } from '../web/pkg/warpscope_web.js';
import divergentLoop from '../core/benches/divergent_loop.cu?raw';
import doubleLoopC from '../examples/double_loop.cu?raw';
import doubleLoop from '../examples/double_loop.sass?raw';

// Over a million steps (the app benchmark uses the same kernel).
import MILLION from '../tests/bench/long_run.sass?raw';
// An endless loop: 10 M steps at the default step limit.
import ENDLESS from '../tests/bench/endless_loop.cu?raw';

interface Result { name: string; value: number; unit: string }

function row(r: Result): void {
  const tr = document.createElement('tr');
  for (const text of [r.name, `${r.value.toFixed(r.value < 10 ? 3 : 1)} ${r.unit}`]) {
    const td = document.createElement('td');
    td.textContent = text;
    tr.append(td);
  }
  document.querySelector('#results tbody')!.append(tr);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * q))];
}

/** What the app asks of a run it loads, at about a 1,000-pixel-wide plot and strip: the plot's
 * depth columns and spill and fill marks, the scrubber strip's marks (a pass over the records each). */
function summaries(s: Session): void {
  s.depth_columns(1000);
  s.stack_marks(44, 1000, 3);
  s.strip_marks(s.total_steps(), 8, 1000);
}

/** The facade calls one seek of the app makes into a 10 M-step run, each timed alone: the seek,
 * the state view, the lane window the lane view fetches around the step (as `lanes.ts` does), the
 * metrics and the exchange. Median, 95th percentile and max over 120 random steps. */
function tenMillion(s: Session, results: Result[]): void {
  const start = performance.now();
  s.load(ENDLESS, {});
  results.push({ name: '10 M-step run: load + run with recording', value: performance.now() - start, unit: 'ms' });
  const total = s.total_steps();
  results.push({ name: '10 M-step run: steps', value: total, unit: '' });
  const t0 = performance.now();
  summaries(s);
  results.push({ name: '10 M-step run: summaries a load draws (plot depth and marks, scrubber strip)', value: performance.now() - t0, unit: 'ms' });
  const calls: Record<string, number[]> = { seek: [], state: [], lane_states: [], metrics: [], exchange: [] };
  const timed = (name: string, f: () => unknown) => {
    const t0 = performance.now();
    f();
    calls[name].push(performance.now() - t0);
  };
  let x = 12345;
  for (let i = 0; i < 120; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const t = x % total;
    timed('seek', () => s.seek(t));
    timed('state', () => s.state(0));
    const from = Math.max(0, Math.floor((t - 200) / 200) * 200 - 200);
    timed('lane_states', () => s.lane_states(from, Math.min(total, from + 1000)));
    timed('metrics', () => s.metrics());
    timed('exchange', () => s.exchange());
  }
  for (const [name, ms] of Object.entries(calls)) {
    results.push({ name: `10 M-step run: ${name}, median of 120`, value: median(ms), unit: 'ms' });
    results.push({ name: `10 M-step run: ${name}, 95th percentile`, value: quantile(ms, 0.95), unit: 'ms' });
    results.push({ name: `10 M-step run: ${name}, max`, value: Math.max(...ms), unit: 'ms' });
  }
}

/** Every model on the work of the native `core/benches/models.rs`: the divergent loop compiled for
 * each model's own target, swept over n = 0..7 through `SweepRun` (no recording). Each model runs
 * its first point for half a second (the browser optimises hot wasm later), then its whole sweep
 * until `seconds` have passed. Warp instructions per second (mimd: thread instructions, one lane a
 * step) over them all and in the fastest sweep, and the ratio to kepler. mimd's sweep (about 57 M thread instructions) takes a few seconds. */
function modelSweeps(results: Result[], seconds = 1, only?: string[]): void {
  const rates: [string, number][] = [];
  for (const { name } of model_infos() as { name: string }[]) {
    if (only && !only.includes(name)) continue;
    const run = new SweepRun();
    const prepared = run.prepare(divergentLoop, { param: 'n', from: 0, to: 7, models: [name] }) as { ok: boolean; points: number };
    if (!prepared.ok) throw new Error(`the model sweep does not prepare under ${name}`);
    const runPoint = (i: number) => (run.run(i) as { metrics: { warp_instructions: number } }).metrics.warp_instructions;
    for (const warm = performance.now(); performance.now() - warm < 500;) runPoint(0);
    let instructions = 0, ms = 0, fastest = 0;
    while (ms < seconds * 1000) {
      const start = performance.now();
      let swept = 0;
      for (let i = 0; i < prepared.points; i++) swept += runPoint(i);
      const took = performance.now() - start;
      instructions += swept;
      ms += took;
      fastest = Math.max(fastest, swept / took / 1000);
    }
    run.free();
    const rate = instructions / ms / 1000;
    rates.push([name, rate]);
    const what = `${name === 'mimd' ? 'thread' : 'warp'} instructions / s`;
    results.push({ name: `model sweep ${name} (divergent_loop.cu, n = 0..7): ${what}`, value: rate, unit: 'M/s' });
    // On a loaded machine the fastest sweep is the one least disturbed by other processes.
    results.push({ name: `model sweep ${name}: ${what}, fastest sweep`, value: fastest, unit: 'M/s' });
  }
  const kepler = rates.find(([n]) => n === 'kepler')?.[1];
  if (kepler === undefined) return;
  for (const [name, rate] of rates) results.push({ name: `model sweep ${name}: / kepler`, value: rate / kepler, unit: '' });
}

function finish(results: Result[]): void {
  results.forEach(row);
  document.getElementById('status')!.textContent = 'done';
  (window as unknown as { benchResults: Result[] }).benchResults = results;
}

async function main(): Promise<void> {
  const t0 = performance.now();
  await init();
  const results: Result[] = [{ name: 'wasm init', value: performance.now() - t0, unit: 'ms' }];
  // `bench.html?only=models&seconds=3`: the model sweeps alone (each model timed for `seconds`),
  // for comparing builds of the wasm quickly; `&models=kepler,volta` sweeps only those.
  const query = new URLSearchParams(location.search);
  if (query.get('only') === 'models') {
    modelSweeps(results, Number(query.get('seconds') ?? 1), query.get('models')?.split(','));
    finish(results);
    return;
  }
  const s = new Session();

  // Double loop n = 31: load = parse + launch + run to the end with recording + seek(0).
  // Warm-up: the browser first runs wasm with a baseline compiler and optimises hot code later
  // (dynamic tiering), so load for a second and a half before timing.
  for (const warm = performance.now(); performance.now() - warm < 1500;) s.load(doubleLoop, { params: { n: 31 } });
  // Timed in batches of 20 loads: the browser's clock is coarse (0.1 ms) next to one run.
  const times: number[] = [];
  let steps = 0;
  for (let i = 0; i < 25; i++) {
    const start = performance.now();
    for (let j = 0; j < 20; j++) s.load(doubleLoop, { params: { n: 31 } });
    times.push((performance.now() - start) / 20);
    steps = s.total_steps();
  }
  const ms = median(times);
  results.push({ name: 'double loop n=31: steps', value: steps, unit: '' });
  results.push({ name: 'double loop n=31: load: parse, run with recording, rewind, views (median of 25 batches of 20)', value: ms, unit: 'ms' });
  results.push({ name: 'double loop n=31: warp instructions / s (load + run)', value: steps / ms / 1000, unit: 'M/s' });
  // Stepping alone: rewind and replay the recorded run to its end (no parsing, no views).
  const replays: number[] = [];
  for (let i = 0; i < 25; i++) {
    const start = performance.now();
    for (let j = 0; j < 20; j++) {
      s.seek(0);
      s.run_until('end');
    }
    replays.push((performance.now() - start) / 20);
  }
  const replayMs = median(replays);
  results.push({ name: 'double loop n=31: replay to the end', value: replayMs, unit: 'ms' });
  results.push({ name: 'double loop n=31: warp instructions / s (replay)', value: steps / replayMs / 1000, unit: 'M/s' });

  // A run of over a million steps, then seeks to random steps (engine side only).
  // The first load also grows the wasm memory to hold the recording; later ones reuse it.
  const longTimes: number[] = [];
  for (let i = 0; i < 4; i++) {
    const loadStart = performance.now();
    s.load(MILLION, {});
    longTimes.push(performance.now() - loadStart);
  }
  const total = s.total_steps();
  const longMs = median(longTimes.slice(1));
  results.push({ name: 'long run: steps', value: total, unit: '' });
  results.push({ name: 'long run: first load + run (memory grows)', value: longTimes[0], unit: 'ms' });
  results.push({ name: 'long run: load + run (median of 3 more)', value: longMs, unit: 'ms' });
  results.push({ name: 'long run: warp instructions / s (load + run, recording)', value: total / longMs / 1000, unit: 'M/s' });
  const seeks: number[] = [];
  let x = 12345;
  for (let i = 0; i < 200; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const t = x % total;
    const start = performance.now();
    s.seek(t);
    s.state(0);
    seeks.push(performance.now() - start);
  }
  results.push({ name: 'long run: seek + state view (median)', value: median(seeks), unit: 'ms' });
  results.push({ name: 'long run: seek + state view (max)', value: Math.max(...seeks), unit: 'ms' });
  const summariesStart = performance.now();
  summaries(s);
  results.push({ name: 'long run: summaries a load draws (plot depth and marks, scrubber strip)', value: performance.now() - summariesStart, unit: 'ms' });
  tenMillion(s, results);

  // Whole figure sweeps through SweepRun on this thread (the app runs the same in a worker):
  // Figure 2 (double loop, kepler and maxwell presets, 64 runs) and the H100 double loop (the C
  // kernel compiled for volta, 32 runs). Median of 5 after one warm-up.
  const sweeps: [string, string, object][] = [
    ['figure 2 sweep (64 runs)', doubleLoop, { param: 'n', from: 0, to: 31, models: ['kepler'], presets: ['kepler', 'maxwell'] }],
    ['H100 double-loop sweep (32 volta runs, with compiling)', doubleLoopC, { param: 'n', from: 0, to: 31, models: ['volta'], presets: ['h100'] }],
  ];
  for (const [name, text, request] of sweeps) {
    const times: number[] = [];
    for (let rep = 0; rep < 6; rep++) {
      const start = performance.now();
      const run = new SweepRun();
      const prepared = run.prepare(text, request) as { points: number };
      for (let i = 0; i < prepared.points; i++) run.run(i);
      run.free();
      if (rep > 0) times.push(performance.now() - start);
    }
    results.push({ name, value: median(times), unit: 'ms' });
  }
  modelSweeps(results);
  finish(results);
  // For a profiler (DevTools or CDP): `profileLoads(2000)` repeats the double-loop load.
  (window as unknown as { profileLoads: (n: number) => void }).profileLoads = (k) => {
    for (let i = 0; i < k; i++) s.load(doubleLoop, { params: { n: 31 } });
  };
}

main().catch((e) => {
  document.getElementById('status')!.textContent = `failed: ${e}`;
});
