// The papers' figures against the bundled examples and measurements, and the engine: every
// entry's kernel is an example, its sweep settings read as a link's would, its metric is one the
// engine plots, and its measured series is in its file.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Engine } from './engine';
import { EXAMPLES } from './examples';
import { FIGURES, MEASUREMENTS } from './figures';
import { modelInfos } from './model-info';
import { readSweepChoice } from './sweep/choice';

const engine = Engine.fromBytes(readFileSync(new URL('../../web/pkg/warpscope_web_bg.wasm', import.meta.url)), (m) => { throw new Error(m); });

describe('figures', () => {
  it('lists every entry of figures.json, each a sweep or a view', () => {
    const raw = JSON.parse(readFileSync(new URL('../../examples/figures.json', import.meta.url), 'utf8')) as unknown[];
    expect(FIGURES).toHaveLength(raw.length);
    for (const f of FIGURES) expect(!!f.sweep !== !!f.view, f.id).toBe(true);
  });

  it('opens bundled kernels with settings the app reads', () => {
    const metrics = engine.metricInfos().map((m) => m.name);
    for (const f of FIGURES) {
      expect(EXAMPLES.some((e) => e.file === f.kernel), f.id).toBe(true);
      expect(f.look.length, f.id).toBeGreaterThan(40);
      if (!f.sweep) continue;
      const choice = readSweepChoice({ request: f.sweep, metric: f.metric ?? 'cycles', measured: f.measured ?? null });
      expect(typeof choice, `${f.id}: ${String(choice)}`).toBe('object');
      expect(metrics, f.id).toContain(f.metric ?? 'cycles');
    }
  });

  it('opens its views under models the engine runs, a compare figure beside another one', () => {
    const models = modelInfos().map((m) => m.name);
    for (const f of FIGURES.filter((x) => x.view)) {
      const v = f.view!;
      expect(models, f.id).toContain(v.model);
      if (v.compare !== undefined) {
        expect(models, f.id).toContain(v.compare);
        expect(v.compare, f.id).not.toBe(v.model);
      }
    }
    expect(FIGURES.find((f) => f.id === 'tf-fig6')?.view).toMatchObject({ model: 'struct', compare: 'pdom' });
  });

  it('names measured series that are in their files', () => {
    for (const f of FIGURES.filter((x) => x.measured)) {
      const m = f.measured!;
      const sets = engine.measuredSets(MEASUREMENTS[m.file] ?? '');
      expect(sets.some((s) => s.build === m.build && s.kernel === m.kernel && s.pattern === m.pattern), f.id).toBe(true);
    }
  });
});
