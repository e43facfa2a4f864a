//! The sweep worker: runs a sweep's points off the main thread with its own copy of the wasm
//! engine (a worker cannot share the page's), posting the points in batches so the page can draw
//! them as they come. Besides `engine.ts`, this is the only importer of the generated package.
//! Every engine call is wrapped: an error becomes an `error` message, never an uncaught throw.

import init, { SweepRun } from '../../../web/pkg/warpscope_web.js';
import type { Fit, SweepPoint, Prepared } from '../generated/engine';
import type { FromWorker, MeasuredXY, ToWorker } from './protocol';

// Points finished within this long go out in one message (about one frame).
const BATCH_MS = 16;

// A failed start is reported by the first request, never as an unhandled rejection.
const ready = init().then(() => null, (e: unknown) => e);
let run: SweepRun | null = null;
let series = 0;
let measured: MeasuredXY | null = null;

const post = (m: FromWorker) => postMessage(m);
const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

// Lets queued messages (a new measured set, a CSV request) in between batches. A MessageChannel
// round trip, unlike setTimeout, is not clamped to 4 ms.
function yieldToMessages(): Promise<void> {
  return new Promise((resolve) => {
    const c = new MessageChannel();
    c.port1.onmessage = () => resolve();
    c.port2.postMessage(0);
  });
}

function fits(r: SweepRun): (Fit | null)[] | null {
  if (!measured) return null;
  const xs = Float64Array.from(measured.x), ys = Float64Array.from(measured.y);
  return Array.from({ length: series }, (_, s) => (r.fit(s, xs, ys) as Fit | null) ?? null);
}

async function start(m: Extract<ToWorker, { kind: 'start' }>): Promise<void> {
  const failure = await ready;
  if (failure !== null) throw new Error(`the engine could not start: ${messageOf(failure)}`);
  run?.free();
  run = new SweepRun();
  measured = m.measured;
  const prepared = run.prepare(m.text, m.request) as Prepared;
  series = prepared.series.length;
  post({ kind: 'prepared', prepared });
  if (!prepared.ok) return;
  if (m.restore) {
    run.restore(m.restore);
    post({ kind: 'points', points: [], fits: fits(run) });
    post({ kind: 'done' });
    return;
  }
  const end = prepared.points;
  let batch: SweepPoint[] = [];
  let since = performance.now();
  for (let i = 0; i < end; i++) {
    batch.push(run.run(i) as SweepPoint);
    if (performance.now() - since >= BATCH_MS || i === end - 1) {
      post({ kind: 'points', points: batch, fits: fits(run) });
      batch = [];
      await yieldToMessages();
      since = performance.now();
    }
  }
  post({ kind: 'done' });
}

function csv(id: number, m: MeasuredXY | null): void {
  if (!run) throw new Error('no sweep has run in this worker');
  const text = m ? run.csv(Float64Array.from(m.x), Float64Array.from(m.y)) : run.csv();
  post({ kind: 'csv', id, text });
}

self.onmessage = async (e: MessageEvent<ToWorker>) => {
  const m = e.data;
  try {
    if (m.kind === 'start') await start(m);
    else if (m.kind === 'measured') {
      measured = m.measured;
      if (run) post({ kind: 'points', points: [], fits: fits(run) });
    } else if (m.kind === 'csv') csv(m.id, m.measured);
  } catch (err) {
    post({ kind: 'error', message: messageOf(err) });
  }
};
