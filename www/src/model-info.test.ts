import { describe, expect, it } from 'vitest';
import { kindInfo, kindLabel, modelInfo, partnerOf } from './model-info';

const MODELS = ['kepler', 'pdom', 'pdom-ssy', 'tf-stack', 'tf-sandy', 'volta', 'mimd'];

describe('model info', () => {
  it('describes every model the engine lists, with the policy it reads', () => {
    for (const m of MODELS) expect(modelInfo(m).summary.length, m).toBeGreaterThan(30);
    expect(MODELS.filter((m) => modelInfo(m).policy === 'path-order')).toEqual(['pdom', 'pdom-ssy']);
    expect(MODELS.filter((m) => modelInfo(m).policy === 'schedule')).toEqual(['volta']);
    // A model this table does not know yet still has words to show.
    expect(modelInfo('future-model')).toMatchObject({ summary: 'future-model', policy: null });
  });

  it('puts a different, sensible model beside each one in compare mode', () => {
    expect(partnerOf('tf-stack', MODELS)).toBe('pdom');
    expect(partnerOf('pdom', MODELS)).toBe('tf-stack');
    for (const m of MODELS) expect(partnerOf(m, MODELS), m).not.toBe(m);
    expect(partnerOf('pdom', ['pdom', 'kepler'])).toBe('kepler');
  });

  it('says what every stack entry kind means, barrier numbers included', () => {
    for (const k of ['SYNC', 'DIV', 'BRK', 'CONT', 'CALL', 'RECONV', 'PATH', 'RUN', 'WAIT', 'YIELDED', 'BARRIER']) {
      expect(kindInfo(k, false), k).not.toBe(k);
      expect(kindLabel(k, false), k).not.toBe(k);
    }
    expect(kindInfo('BSYNC B12', false)).toContain('BSYNC B12');
    expect(kindInfo('B3', false)).toContain('barrier register B3');
    expect(kindInfo('RUN', true)).toContain('warp pc here, no lane');
    expect(kindLabel('RUN', true)).toBe('warp pc, no lane');
  });
});
