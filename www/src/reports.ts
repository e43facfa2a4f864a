//! The compare table's reports, one worker per run (`report-worker.ts`), so the MIMD reference of
//! a run that never ends cannot freeze the page. A report is asked once per run and kept on it;
//! the workers of runs no longer compared are stopped.

import type { LoadSource } from './loader';
import type { Run } from './run';
import type { ReportView } from './generated/engine';

/** To the worker: the run to load again. */
export type ReportAsk = LoadSource;
/** From the worker: the report, or why there is none. */
export type ReportAnswer = { report: ReportView } | { error: string };

interface Job { worker: Worker; answer: Promise<ReportView | string> }

export class Reports {
  private readonly jobs = new Map<Run, Job>();

  /** `run`'s report, or a message saying why it cannot be had. */
  of(run: Run): Promise<ReportView | string> {
    if (run.report) return Promise.resolve(run.report);
    const known = this.jobs.get(run);
    if (known) return known.answer;
    const source = run.source;
    if (!source) return Promise.resolve('the run cannot be loaded again');
    const worker = new Worker(new URL('./report-worker.ts', import.meta.url), { type: 'module' });
    const answer = new Promise<ReportView | string>((resolve) => {
      worker.onmessage = (e: MessageEvent<ReportAnswer>) => {
        const a = e.data;
        this.stop(run);
        // A stopped run is loaded again with `stop_at`, so the report's end is its own stop.
        if ('report' in a) resolve((run.report = a.report));
        else resolve(a.error);
      };
      worker.onerror = (e) => {
        e.preventDefault();
        this.stop(run);
        resolve(`the report worker failed: ${e.message || 'it could not start'}`);
      };
    });
    worker.postMessage(source satisfies ReportAsk);
    this.jobs.set(run, { worker, answer });
    return answer;
  }

  /** Stops the work on every run but `runs` (their answers never come). */
  keepOnly(runs: Run[]): void {
    for (const run of [...this.jobs.keys()]) if (!runs.includes(run)) this.stop(run);
  }

  private stop(run: Run): void {
    this.jobs.get(run)?.worker.terminate();
    this.jobs.delete(run);
  }
}
