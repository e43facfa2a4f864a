// The engine wrapper against the real wasm package: results pass through, errors become
// reports instead of exceptions, and a trapped (poisoned) instance is replaced and restored.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { Engine, EventBit } from './engine';

const single = readFileSync(new URL('../../examples/single_loop.sass', import.meta.url), 'utf8');
const figure1 = readFileSync(new URL('../../examples/tf_figure1.sass', import.meta.url), 'utf8');
let bytes: Uint8Array<ArrayBuffer>;
beforeAll(() => { bytes = readFileSync(new URL('../../web/pkg/warpscope_web_bg.wasm', import.meta.url)); });

describe('Engine', () => {
  it('loads and seeks through the recorded run', () => {
    const reports: string[] = [];
    const e = Engine.fromBytes(bytes, (m) => reports.push(m));
    const r = e.load(single, { params: { n: 2 } });
    expect(r?.ok).toBe(true);
    expect(e.total()).toBe(137);
    expect(e.seek(125)).toBe(125);
    expect(e.state(0)?.stack.map((t) => t.kind)).toEqual(['SYNC', 'DIV']);
    expect(e.eventSeries()[124] & EventBit.Diverge).toBeTruthy();
    expect(e.laneStates(0, 137, 32)).toHaveLength(137 * 32);
    expect(reports).toEqual([]);
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

  it('replaces a poisoned instance and restores the kernel, breakpoints and step', () => {
    const reports: string[] = [];
    const e = Engine.fromBytes(bytes, (m) => reports.push(m));
    e.load(single, { params: { n: 3 } });
    e.setBreakpoints([9]);
    e.seek(40);
    const s = e.sessionForTest;
    s.state = () => { throw new WebAssembly.RuntimeError('unreachable'); };
    expect(e.state(0)).toBeNull();
    expect(reports[0]).toMatch(/restarted the engine/);
    expect(e.sessionForTest).not.toBe(s);
    expect(e.current()).toBe(40);
    expect(e.total()).toBe(freshTotal({ n: 3 }));
    expect(e.runUntil('breakpoint')?.kind).toBe('breakpoint');
  });
});

describe('Engine for compare mode', () => {
  it('runs a second model in another engine, each with its own run and report', () => {
    const reports: string[] = [];
    const a = Engine.fromBytes(bytes, (m) => reports.push(m));
    const b = Engine.another((m) => reports.push(m));
    expect(a.load(figure1, { model: 'pdom', path_order: 'fall-through' })).toMatchObject({ ok: true, model: 'pdom', path_order: 'fall-through' });
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

// The same kernel in an engine that never failed.
function freshTotal(params: Record<string, number>): number {
  const e = Engine.fromBytes(bytes, () => {});
  e.load(single, { params });
  return e.total();
}
