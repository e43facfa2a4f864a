// The loader against the real wasm package: a long run in slices (driven by hand here, or by
// the loader's own pump), Stop, a newer load superseding one still loading, and the last good run
// coming back after a trap restarts the engine (a stopped one stopped at the same step, a long
// one in slices, back at the step the lost session stood at).
import { beforeAll, describe, expect, it } from 'vitest';
import { engineBytes, example, COUNTER } from './test-engine';
import { Engine } from './engine';
import { FIRST_CHUNK, nextSlice, RunLoader, type LoaderConfig } from './loader';
import type { LoadResult } from './generated/engine';

const single = example('single_loop.sass');
const counter = COUNTER;
let bytes: Uint8Array<ArrayBuffer>;
beforeAll(() => { bytes = engineBytes(); });

/** A trap inside the session's next `state` call, as a Rust panic would make. */
const trapNextState = (e: Engine) => { e.sessionForTest.state = () => { throw new WebAssembly.RuntimeError('unreachable'); }; };

/** An engine and its loader; slices are run by hand (`advance`) unless `config` says otherwise. */
function setup(config: Partial<LoaderConfig> = { nextTask: () => new Promise<void>(() => {}) }) {
  const reports: string[] = [];
  const progress: number[] = [];
  const done: (LoadResult | null)[] = [];
  const e = Engine.fromBytes(bytes, (m) => reports.push(m));
  const loader = new RunLoader(e, { progress: (s) => progress.push(s), done: (r) => done.push(r) }, config);
  /** Slices until the run loading ends. */
  const finish = (budget: number) => { while (loader.active) loader.advance(budget); };
  return { e, loader, reports, progress, done, finish };
}

describe('nextSlice', () => {
  it('sizes slices toward 20 ms, growing at most fourfold, within its bounds', () => {
    expect(nextSlice(100_000, 20)).toBe(100_000);
    expect(nextSlice(100_000, 40)).toBe(50_000);
    expect(nextSlice(100_000, 5)).toBe(400_000);
    expect(nextSlice(100_000, 0)).toBe(400_000);
    expect(nextSlice(20_000, 1000)).toBe(10_000);
    expect(nextSlice(1_000_000, 1)).toBe(2_000_000);
  });
});

describe('RunLoader', () => {
  it('loads a run that ends within the first chunk at once, and remembers how to load it again', () => {
    const { e, loader, done } = setup();
    const r = loader.load(single, { params: { n: 2 }, chunk: 7 });
    expect(r).toMatchObject({ ok: true, running: false });
    expect(loader.active).toBe(false);
    expect(loader.steps).toBeNull();
    expect(e.total()).toBe(137);
    // Without the chunk: what loads the whole run again.
    expect(loader.source).toEqual({ text: single, options: { params: { n: 2 } } });
    expect(done).toEqual([]);
  });

  it('a long run goes on in slices with progress while the last run stays, then is the loaded run', () => {
    const { e, loader, progress, done, finish } = setup();
    loader.load(single, {});
    const r = loader.load(counter, { step_limit: 250_000 });
    expect(r).toMatchObject({ ok: true, running: true, end: null });
    expect(loader).toMatchObject({ active: true, steps: 0, lastStep: 250_000 });
    expect(loader.loading).toBe(r);
    expect(e.total()).toBe(137);
    expect(loader.source?.text).toBe(single);
    loader.advance(20_000);
    expect(progress).toEqual([FIRST_CHUNK + 20_000]);
    expect(loader.steps).toBe(FIRST_CHUNK + 20_000);
    finish(50_000);
    expect(done).toHaveLength(1);
    expect(done[0]).toMatchObject({ ok: true, running: false, end: { kind: 'step_limit', step: 250_000 } });
    expect(loader).toMatchObject({ active: false, steps: null, lastStep: null, loading: null });
    expect(e.total()).toBe(250_000);
    expect(loader.source).toEqual({ text: counter, options: { step_limit: 250_000 } });
  });

  it('Stop ends the run loading where it is, and loading it again ends stopped at the same step', () => {
    const { e, loader, done } = setup();
    loader.load(counter, {});
    loader.advance(5000);
    const r = loader.stop();
    expect(r).toMatchObject({ ok: true, running: false, end: { kind: 'stopped', step: FIRST_CHUNK + 5000 } });
    expect(loader.active).toBe(false);
    expect(loader.stop()).toBeNull();
    expect(e.total()).toBe(FIRST_CHUNK + 5000);
    expect(loader.source).toEqual({ text: counter, options: { stop_at: FIRST_CHUNK + 5000 } });
    // Stop answers the caller, not `done`.
    expect(done).toEqual([]);
  });

  it('a newer load supersedes a run still loading; a load that fails leaves it alone', () => {
    const { e, loader, done, finish } = setup();
    loader.load(counter, { step_limit: 300_000 });
    const bad = loader.load('FROB R1;\n', {});
    expect(bad?.ok).toBe(false);
    expect(loader.lastStep).toBe(300_000);
    loader.load(counter, { step_limit: 200_000 });
    expect(loader.lastStep).toBe(200_000);
    finish(50_000);
    expect(done.map((r) => r?.end?.step)).toEqual([200_000]);
    expect(e.total()).toBe(200_000);
    // A short load supersedes too: the long one never ends on screen.
    loader.load(counter, { step_limit: 300_000 });
    loader.load(single, {});
    expect(loader.active).toBe(false);
    loader.advance(50_000);
    expect(done).toHaveLength(1);
    expect(e.total()).toBe(137);
  });

  it('slices by itself between tasks, and only the newest run loading ends', async () => {
    const { e, loader, done } = setup({});
    loader.load(counter, { step_limit: 400_000 });
    loader.load(counter, { step_limit: 300_000 });
    await expect.poll(() => done.length, { timeout: 20_000 }).toBe(1);
    expect(done[0]?.end).toMatchObject({ kind: 'step_limit', step: 300_000 });
    expect(e.total()).toBe(300_000);
  });
});

describe('RunLoader after the engine restarts', () => {
  it('restores the kernel, breakpoints and step', () => {
    const { e, loader, reports } = setup();
    loader.load(single, { params: { n: 3 } });
    e.setBreakpoints([9]);
    e.seek(40);
    const s = e.sessionForTest;
    trapNextState(e);
    expect(e.state(0)).toBeNull();
    expect(reports[0]).toMatch(/restarted the engine/);
    expect(e.sessionForTest).not.toBe(s);
    expect(e.current()).toBe(40);
    expect(e.total()).toBe(freshTotal({ n: 3 }));
    expect(e.runUntil('breakpoint')?.kind).toBe('breakpoint');
  });

  it('after a trap during a stopped run, the restarted engine has the same steps, ended as stopped', () => {
    const { e, loader, reports } = setup({ nextTask: () => new Promise<void>(() => {}), firstChunk: 3000 });
    loader.load(counter, {});
    const stopped = loader.stop()?.end;
    expect(stopped?.kind).toBe('stopped');
    e.seek(1234);
    trapNextState(e);
    expect(e.state(0)).toBeNull();
    expect(reports[0]).toMatch(/restarted the engine/);
    expect(e.total()).toBe(3000);
    expect(e.current()).toBe(1234);
    // Still the run the user stopped, not one that hit a step limit.
    expect(e.report()?.stop).toEqual(stopped);
    expect(e.runUntil('end')).toEqual(stopped);
  });

  it('a restart replays a long stopped run in slices and returns to the step', () => {
    const { e, loader, reports, progress, done, finish } = setup();
    loader.load(counter, {});
    loader.advance(60_000);
    const stopped = loader.stop()?.end;
    e.seek(150_000);
    progress.length = 0;
    trapNextState(e);
    expect(e.state(0)).toBeNull();
    expect(reports).toHaveLength(1);
    // Only a first chunk ran: the rest goes on in slices, like any long load.
    expect(loader.loading).toMatchObject({ ok: true, running: true, end: null, last_step: 160_000 });
    expect(loader.active).toBe(true);
    expect(e.running()).toBe(true);
    finish(20_000);
    expect(progress[0]).toBe(FIRST_CHUNK + 20_000);
    expect(done).toHaveLength(1);
    expect(done[0]).toMatchObject({ running: false, end: stopped });
    expect(e.total()).toBe(160_000);
    expect(e.current()).toBe(150_000);
    // Still loaded again as the run the user stopped.
    expect(loader.source?.options).toEqual({ stop_at: 160_000 });
  });

  it('a trap in the middle of a long load ends it; the last run comes back', () => {
    const { e, loader, reports, done } = setup();
    loader.load(single, {});
    e.seek(100);
    loader.load(counter, {});
    e.sessionForTest.resume = () => { throw new WebAssembly.RuntimeError('unreachable'); };
    loader.advance(20_000);
    expect(reports).toEqual(['The engine failed in resume: unreachable (restarted the engine)']);
    expect(done).toEqual([null]);
    expect(loader.active).toBe(false);
    expect(e.total()).toBe(137);
    expect(e.current()).toBe(100);
  });

  it('a trap elsewhere while a long load runs: its next slice says it is lost', () => {
    const { e, loader, done } = setup();
    loader.load(single, {});
    loader.load(counter, {});
    trapNextState(e);
    expect(e.state(0)).toBeNull();
    // Until its next slice the page still shows it loading, as before the trap.
    expect(loader.active).toBe(true);
    loader.advance(20_000);
    expect(done).toEqual([null]);
    expect(loader.active).toBe(false);
    expect(e.total()).toBe(137);
    expect(loader.stop()).toBeNull();
  });

  it('with no run yet, a restart leaves the fresh engine empty', () => {
    const { e, loader, done } = setup();
    trapNextState(e);
    expect(e.state(0)).toBeNull();
    expect(loader.active).toBe(false);
    expect(loader.source).toBeNull();
    expect(e.total()).toBe(0);
    expect(done).toEqual([]);
  });
});

// The same kernel in an engine that never failed.
function freshTotal(params: Record<string, number>): number {
  const e = Engine.fromBytes(bytes, () => {});
  e.load(single, { params });
  return e.total();
}
