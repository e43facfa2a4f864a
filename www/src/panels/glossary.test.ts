// The help's glossary from the engine's terms: the models on screen first, the rest by family,
// each term once.
import { beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../engine';
import { glossary, modelInfos } from '../model-info';
import { engineBytes } from '../test-engine';
import { glossarySections, matches, ofKind } from './glossary';

beforeAll(() => {
  Engine.fromBytes(engineBytes(), () => {});
});

const words = (s: { terms: { term: string }[] }) => s.terms.map((t) => t.term);

describe('glossary sections', () => {
  it('puts the model on screen first, then every other family, each term once', () => {
    const sections = glossarySections(glossary(), ['kepler'], modelInfos());
    expect(sections[0]).toMatchObject({ current: true, models: ['kepler'] });
    expect(words(sections[0])).toEqual(expect.arrayContaining(['SSY', 'SYNC', '.S', 'DIV', 'PBK', 'BRK', 'PCNT', 'CONT', 'spill, fill', 'BRA']));
    expect(words(sections[0])).not.toContain('BSSY');
    const volta = sections.find((s) => s.models.includes('volta'))!;
    expect(words(volta)).toEqual(expect.arrayContaining(['BSSY', 'BSYNC', 'BREAK', 'WARPSYNC', 'Bn', 'BSYNC Bn']));
    expect(sections.slice(1).map((s) => s.title)).toEqual([
      'post-dominator stacks (GPGPU-Sim, course notes, STRUCT)', 'thread frontiers (Diamos et al.)', 'convergence barriers (Volta to Hopper)',
      'every lane on its own (the MIMD reference)',
    ]);
    const all = sections.flatMap((s) => s.terms);
    expect(all.length).toBe(glossary().length);
    expect(new Set(all).size).toBe(all.length);
  });

  it('lists both models of a comparison first, and a model\'s own meaning of a shared word', () => {
    const [mine] = glossarySections(glossary(), ['pdom', 'volta'], modelInfos());
    const ssy = mine.terms.filter((t) => t.term.split(', ').includes('SSY'));
    expect(ssy.map((t) => t.models)).toEqual([['pdom', 'struct', 'tf-stack', 'tf-sandy', 'volta', 'mimd']]);
    expect(ssy[0].meaning).toContain('do nothing');
    expect(words(mine)).toEqual(expect.arrayContaining(['BSSY', 'RECONV', 'PATH', 'ipdom']));
  });

  it('lists a model\'s own words before the ones every model shares', () => {
    const [mine] = glossarySections(glossary(), ['kepler'], modelInfos());
    expect(ofKind(mine.terms, 'instruction').map((t) => t.term).slice(0, 3)).toEqual(['SSY', 'SYNC', '.S']);
    // The shared words (EXIT, the data path's instructions) come after the model's own.
    const names = ofKind(mine.terms, 'instruction').map((t) => t.term);
    expect(names.indexOf('EXIT')).toBeGreaterThan(names.indexOf('.S'));
    expect(names.indexOf('SHFL')).toBeGreaterThan(names.indexOf('.S'));
    expect(ofKind(mine.terms, 'entry')[0].term).toBe('DIV');
  });

  it('filters on words, meanings, sources and models', () => {
    const bsync = glossary().find((t) => t.term === 'BSYNC')!;
    expect(matches(bsync, 'bsync')).toBe(true);
    expect(matches(bsync, 'hopper')).toBe(true);
    expect(matches(bsync, 'volta')).toBe(true);
    expect(matches(bsync, 'spill')).toBe(false);
    expect(matches(bsync, '  ')).toBe(true);
  });
});
