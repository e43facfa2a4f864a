// The engine wrapper against the real wasm package: results pass through, errors become
// reports instead of exceptions, and a trapped (poisoned) instance is replaced (the run comes
// back through the loader: loader.test.ts).
import { beforeAll, describe, expect, it } from 'vitest';
import { engineBytes, example, COUNTER } from './test-engine';
import { Engine, EventBit, StepLimit } from './engine';

const single = example('single_loop.sass');
const figure1 = example('tf_figure1.sass');
const spin = example('spin_lock.cu');
const counter = COUNTER;
let bytes: Uint8Array<ArrayBuffer>;
beforeAll(() => { bytes = engineBytes(); });

describe('Engine', () => {
  it('loads and seeks through the recorded run', () => {
    const reports: string[] = [];
    const e = Engine.fromBytes(bytes, (m) => reports.push(m));
    const r = e.load(single, { params: { n: 2 } });
    expect(r?.ok).toBe(true);
    expect(e.total()).toBe(137);
    expect(e.seek(125)).toBe(125);
    expect(e.state(0)?.stack.map((t) => t.kind)).toEqual(['SYNC', 'DIV']);
    expect(e.prevEvent(126, EventBit.Diverge)).toBe(125);
    expect(e.nextEvent(124, EventBit.Diverge)).toBe(125);
    expect(e.laneStates(0, 137, 32)).toHaveLength(137 * 32);
    expect(reports).toEqual([]);
  });

  it('reads memory at a step: the buffers, what the step did, and values as the engine writes them', () => {
    const e = Engine.fromBytes(bytes, () => {});
    const text = '//@ warp 4\n//@ buffer x: f32[3] = 0.1 * float(i)\n//@ buffer out: i32[4]\n//@ reg R1 = out + 4 * t\n'
      + 'S2R R0, SR_TID.X;\nST.E [R1], R0;\nEXIT;\n';
    expect(e.load(text, {})?.ok).toBe(true);
    expect(e.memory()?.buffers.map((b) => [b.name, b.elem, b.len, b.shared])).toEqual([['x', 'f32', 3, false], ['out', 'i32', 4, false]]);
    expect(e.memory()?.access).toBeNull();
    // Floats with the fewest digits that read back; a window past the end is cut at the end.
    expect(e.memoryCells(0, 0, 10)).toEqual(['0', '0.1', '0.2']);
    e.seek(2);
    const a = e.memory()?.access;
    expect(a?.summary).toBe('step 2: ST.E by lanes 0-3 wrote out[0..3]');
    expect([a?.kind, a?.participle]).toEqual(['write', 'written']);
    expect(a?.cells.map((c) => [c.buffer, c.index, c.lane_text])).toEqual([[1, 0, '0'], [1, 1, '1'], [1, 2, '2'], [1, 3, '3']]);
    expect(e.memoryCells(1, 0, 4)).toEqual(['0', '1', '2', '3']);
  });

  it('keeps the last good run when a load fails', () => {
    const e = Engine.fromBytes(bytes, () => {});
    e.load(single, {});
    const r = e.load('FROB R1;\n', {});
    expect(r?.ok).toBe(false);
    expect(r?.diagnostics[0]).toMatchObject({ severity: 'error', line: 1 });
    expect(e.total()).toBe(137);
  });

  it('turns a thrown error into a report and a fallback value', () => {
    const reports: string[] = [];
    const e = Engine.fromBytes(bytes, (m) => reports.push(m));
    e.load(single, {});
    expect(e.runUntil('nonsense' as never)).toBeNull();
    expect(reports[0]).toMatch(/run_until.*unknown run_until kind/);
    expect(e.current()).toBe(0);
  });

  it('replaces a poisoned instance with a fresh one that keeps the breakpoints, and says where the lost one stood', () => {
    const reports: string[] = [];
    const e = Engine.fromBytes(bytes, (m) => reports.push(m));
    const restarts: number[] = [];
    e.restarted = (step) => restarts.push(step);
    e.load(single, { params: { n: 3 } });
    e.setBreakpoints([9]);
    e.seek(40);
    const s = e.sessionForTest;
    s.state = () => { throw new WebAssembly.RuntimeError('unreachable'); };
    expect(e.state(0)).toBeNull();
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatch(/The engine failed in state: unreachable \(restarted the engine\)/);
    expect(e.sessionForTest).not.toBe(s);
    expect(restarts).toEqual([40]);
    // Bringing the run back is the loader's (loader.test.ts): alone, the engine has none.
    expect(e.total()).toBe(0);
    e.load(single, { params: { n: 3 } });
    expect(e.runUntil('breakpoint')?.kind).toBe('breakpoint');
  });

  it('a failure while restarting is reported, not retried', () => {
    const reports: string[] = [];
    const e = Engine.fromBytes(bytes, (m) => reports.push(m));
    let restarts = 0;
    e.restarted = () => { restarts++; e.sessionForTest.load = () => { throw new WebAssembly.RuntimeError('unreachable'); }; e.load(single, {}); };
    e.sessionForTest.state = () => { throw new WebAssembly.RuntimeError('unreachable'); };
    expect(e.state(0)).toBeNull();
    expect(restarts).toBe(1);
    expect(reports).toEqual(['The engine failed in state: unreachable (restarted the engine)', 'The engine could not restart: unreachable']);
  });
});

describe('Engine, chunked loads', () => {
  it('keeps the last run loaded while a long one runs, then shows the long one when it ends', () => {
    const e = Engine.fromBytes(bytes, () => {});
    e.load(single, {});
    const r = e.load(counter, { chunk: 1000, step_limit: 50_000 });
    expect(r).toMatchObject({ ok: true, running: true, end: null });
    expect(e.running()).toBe(true);
    expect(e.total()).toBe(137);
    let p = e.resume(20_000);
    expect(p).toMatchObject({ running: true, steps: 21_000, end: null });
    while (p?.running) p = e.resume(20_000);
    expect(p?.end).toMatchObject({ kind: 'step_limit', step: 50_000, line: 6 });
    expect(p?.end?.message).toMatch(/lanes 0-31 run the loop at 0x[0-9a-f]+-0x[0-9a-f]+ \(lines 5-6\)/);
    expect(e.running()).toBe(false);
    expect(e.total()).toBe(50_000);
  });

  it('Stop keeps the steps run so far as the run, ended as stopped', () => {
    const e = Engine.fromBytes(bytes, () => {});
    e.load(counter, { chunk: 5000 });
    e.resume(5000);
    const p = e.stopRun();
    expect(p).toMatchObject({ running: false, steps: 10_000, end: { kind: 'stopped', step: 10_000, line: 6 } });
    expect(p?.end?.message).toMatch(/you stopped the run after 10000 steps/);
    expect(e.total()).toBe(10_000);
    expect(e.seek(1e9)).toBe(10_000);
  });

  it('a spin lock ends as a deadlock naming the looping lanes and the waiting one, within the first chunk', () => {
    const e = Engine.fromBytes(bytes, () => {});
    const r = e.load(spin, { chunk: 100_000 });
    expect(r).toMatchObject({ ok: true, running: false, end: { kind: 'deadlock', line: 13 } });
    expect(r?.end?.message).toMatch(/lanes 1-31 run the loop at .* \(line 13\); lane 0 waits at .* \(line 15\)/);
  });

  it("stops an endless loop at the app's default step limit when none is given", () => {
    const e = Engine.fromBytes(bytes, () => {});
    let p = e.load(counter, { chunk: 2_000_000 }) as { running: boolean } | null;
    while (p?.running) p = e.resume(2_000_000);
    expect(e.total()).toBe(StepLimit.Default);
  }, 60_000);
});

describe('Engine for compare mode', () => {
  it('runs a second model in another engine, each with its own run and report', () => {
    const reports: string[] = [];
    const a = Engine.fromBytes(bytes, (m) => reports.push(m));
    const b = Engine.another((m) => reports.push(m));
    expect(a.load(figure1, { model: 'pdom', pathOrder: 'fall-through' })).toMatchObject({ ok: true, model: 'pdom', path_order: 'fall-through' });
    expect(b.load(figure1, { model: 'tf-stack' })).toMatchObject({ ok: true, model: 'tf-stack', uses_frontiers: true });
    a.seek(5);
    const [ra, rb] = [a.report(), b.report()];
    expect(ra?.model).toBe('pdom');
    expect(rb).toMatchObject({ model: 'tf-stack', warp_instructions: 19, code_expansion: 0 });
    expect(rb?.block_counts[3]).toBe(1);
    // A report leaves the engine where it was.
    expect(a.current()).toBe(5);
    expect(b.cfg()?.blocks[4].frontier).toEqual([5, 6]);
    expect(reports).toEqual([]);
  });

  it('reports a volta schedule, and names an unknown one', () => {
    const e = Engine.fromBytes(bytes, () => {});
    expect(e.load(figure1, { model: 'volta', schedule: 'round-robin' })).toMatchObject({ ok: true, schedule: 'round-robin', preset: 'h100' });
    const bad = e.load(figure1, { model: 'volta', schedule: 'fastest' });
    expect(bad?.ok).toBe(false);
    expect(bad?.diagnostics[0].message).toMatch(/unknown schedule `fastest`/);
  });
});
