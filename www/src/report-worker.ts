//! The compare table's report of one run, off the page's thread: the run is loaded again here
//! (runs are deterministic; a stopped one with `stop_at`, so it ends stopped at the same step)
//! and `Session.report` runs the MIMD reference, which for a run that stopped early gets that
//! run's own step budget (seconds at most). Besides `engine.ts` and the sweep worker, the only
//! importer of the generated package.

import init, { Session } from '../../web/pkg/warpscope_web.js';
import type { LoadResult, ReportView } from './generated/engine';
import type { ReportAnswer, ReportAsk } from './reports';

// A failed start is reported with the answer, never as an unhandled rejection.
const ready = init().then(() => null, (e: unknown) => e);
const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

onmessage = async (e: MessageEvent<ReportAsk>) => {
  const failure = await ready;
  const answer = (a: ReportAnswer) => postMessage(a);
  if (failure !== null) return answer({ error: `the engine could not start: ${messageOf(failure)}` });
  const session = new Session();
  try {
    const r = session.load(e.data.text, e.data.options) as LoadResult;
    if (!r.ok) return answer({ error: r.diagnostics.find((d) => d.severity === 'error')?.message ?? 'the kernel did not load' });
    answer({ report: session.report() as ReportView });
  } catch (err) {
    answer({ error: messageOf(err) });
  } finally {
    session.free();
  }
};
