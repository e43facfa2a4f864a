//! The page's side of a sweep: one worker per sweep, progress as it comes, cancel by terminating
//! the worker. A cancelled sweep keeps its points on the page; what only the engine can compute
//! from them afterwards (the CSV, a fit to other measurements) comes from a fresh worker that
//! takes those points back (`SweepRun.restore`) without running them again.

import type { Fit, SweepPoint, Prepared, SweepRequest } from '../generated/engine';
import type { FromWorker, MeasuredXY, ToWorker } from './protocol';

export interface SweepListener {
  prepared(p: Prepared): void;
  /** New points (in point order) and every series' fit over all points so far. */
  points(points: SweepPoint[], fits: (Fit | null)[] | null): void;
  done(): void;
  failed(message: string): void;
  /** A cancelled sweep's points are being handed to a new worker. */
  rerunning(points: number): void;
}

function spawn(): Worker {
  return new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
}

export class SweepClient {
  private worker: Worker | null = null;
  private listener: SweepListener | null = null;
  /** What the sweep ran and the points the page has (to hand them to a new worker after a cancel). */
  private started: { text: string; request: SweepRequest } | null = null;
  private received: SweepPoint[] = [];
  private nextId = 1;
  private pending = new Map<number, (text: string | null) => void>();

  /** Starts a sweep, ending any other first. */
  start(text: string, request: SweepRequest, measured: MeasuredXY | null, listener: SweepListener): void {
    this.cancel();
    this.started = { text, request };
    this.received = [];
    this.listener = listener;
    this.open({ kind: 'start', text, request, measured, restore: null }, listener, true);
  }

  private open(first: ToWorker, listener: SweepListener, counted: boolean): void {
    const worker = spawn();
    this.worker = worker;
    worker.onmessage = (e: MessageEvent<FromWorker>) => {
      if (this.worker !== worker) return; // a late message from a worker already ended
      const m = e.data;
      switch (m.kind) {
        case 'prepared': return listener.prepared(m.prepared);
        case 'points':
          if (counted) this.received.push(...m.points);
          return listener.points(m.points, m.fits);
        case 'done': return listener.done();
        case 'csv': return this.settle(m.id, m.text);
        case 'error':
          // A CSV asked for meanwhile will not come.
          for (const id of [...this.pending.keys()]) this.settle(id, null);
          return listener.failed(`The sweep engine failed: ${m.message}`);
      }
    };
    worker.onerror = (e) => {
      e.preventDefault();
      listener.failed(`The sweep worker failed: ${e.message || 'it could not start'}`);
      this.cancel();
    };
    worker.postMessage(first);
  }

  private settle(id: number, text: string | null): void {
    this.pending.get(id)?.(text);
    this.pending.delete(id);
  }

  /** Stops the sweep at once: the worker is terminated; the points received so far stay. */
  cancel(): void {
    this.worker?.terminate();
    this.worker = null;
    for (const id of [...this.pending.keys()]) this.settle(id, null);
  }

  /** A worker is running or holding the sweep. */
  get alive(): boolean {
    return this.worker !== null;
  }

  /** After a cancel: a new worker takes the points the page has (their fits go to the
   * listener). False if there is nothing to hand over or the engine failed. */
  private revive(measured: MeasuredXY | null): Promise<boolean> {
    const s = this.started, main = this.listener;
    if (this.worker) return Promise.resolve(true);
    if (!s || !main) return Promise.resolve(false);
    main.rerunning(this.received.length);
    return new Promise<boolean>((resolve) => {
      this.open({ kind: 'start', text: s.text, request: s.request, measured, restore: this.received }, {
        prepared() {}, rerunning() {},
        points: (_, fits) => main.points([], fits),
        done: () => resolve(true),
        failed: (message) => { main.failed(message); resolve(false); },
      }, false);
    });
  }

  /** Fits every series to `measured` (null: none) from now on; the fits come as a `points` call. */
  async setMeasured(measured: MeasuredXY | null): Promise<void> {
    if (this.worker) this.worker.postMessage({ kind: 'measured', measured } satisfies ToWorker);
    else await this.revive(measured);
  }

  /** The CSV of every point the page has, written by the engine; null if it failed. */
  async csv(measured: MeasuredXY | null): Promise<string | null> {
    if (!(await this.revive(null)) || !this.worker) return null;
    const id = this.nextId++;
    const answer = new Promise<string | null>((resolve) => this.pending.set(id, resolve));
    this.worker.postMessage({ kind: 'csv', id, measured } satisfies ToWorker);
    return answer;
  }
}
