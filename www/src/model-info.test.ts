// The models as the engine describes them (core `ModelKind::about`), through the real wasm.
import { beforeAll, describe, expect, it } from 'vitest';
import { engineBytes, example } from './test-engine';
import { Engine } from './engine';
import { glossary, modelInfo, partnerOf } from './model-info';

const MODELS = ['kepler', 'pdom', 'pdom-ssy', 'struct', 'tf-stack', 'tf-sandy', 'volta', 'mimd'];
const tfSandy = example('tf_conservative.sass');
let engine: Engine;
beforeAll(() => {
  engine = Engine.fromBytes(engineBytes(), () => {});
});

describe('model info', () => {
  it('describes every model the engine lists, with the policy it reads', () => {
    for (const m of MODELS) expect(modelInfo(m).summary.length, m).toBeGreaterThan(30);
    expect(MODELS.filter((m) => modelInfo(m).policy === 'path-order')).toEqual(['pdom', 'pdom-ssy', 'struct']);
    expect(MODELS.filter((m) => modelInfo(m).policy === 'schedule')).toEqual(['volta']);
    // A model the engine does not describe still has words to show.
    expect(modelInfo('future-model')).toMatchObject({ summary: 'future-model', policy: null });
  });

  it('puts a different, sensible model beside each one in compare mode', () => {
    expect(partnerOf('tf-stack', MODELS)).toBe('pdom');
    expect(partnerOf('pdom', MODELS)).toBe('tf-stack');
    expect(partnerOf('struct', MODELS)).toBe('pdom');
    for (const m of MODELS) expect(partnerOf(m, MODELS), m).not.toBe(m);
    expect(partnerOf('pdom', ['pdom', 'kepler'])).toBe('kepler');
  });

  it('gives every stack entry its meaning and legend label from the model', () => {
    expect(engine.load(tfSandy, { model: 'tf-sandy' })?.ok).toBe(true);
    const kinds = new Map<string, { meaning: string; label: string }>();
    for (let t = 0; t <= engine.total(); t++) {
      engine.seek(t);
      for (const e of engine.state(0)?.stack ?? []) kinds.set(`${e.kind}${e.lanes.length === 0 ? ' (no lane)' : ''}`, e);
    }
    expect(kinds.get('RUN (no lane)')?.meaning).toContain('warp pc here, no lane');
    expect(kinds.get('RUN (no lane)')?.label).toBe('warp pc, no lane');
    for (const [k, e] of kinds) expect(e.meaning, k).not.toBe(e.label);
  });

  it('says of each stack entry what the glossary says of its word, for that model', () => {
    expect(engine.load(example('if_else.sass'), { model: 'kepler' })?.ok).toBe(true);
    engine.seek(7);
    const div = engine.state(0)?.stack.find((e) => e.kind === 'DIV');
    expect(div?.term).toBe('DIV');
    expect(div?.meaning).toBe(glossary().find((t) => t.term === 'DIV' && t.kind === 'entry' && t.models.includes('kepler'))?.meaning);
  });
});
