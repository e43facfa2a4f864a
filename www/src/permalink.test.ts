import { describe, expect, it } from 'vitest';
import { decode, encode, type Link } from './permalink';
import { fullRequest } from './sweep/request';

const link: Link = {
  text: '//@ title <img src=x onerror=alert(1)>\n//@ param n = 2\n/*0060*/ NOP; // ünïcode ✓\n',
  params: { n: 7 }, model: 'kepler', preset: 'maxwell', ifConvert: null, pathOrder: null, schedule: null, compare: null, sweep: null, figure: null,
  step: 125, lane: 31, embed: null,
};

describe('permalink', () => {
  it('round-trips the exact state', async () => {
    const frag = await encode(link);
    expect(frag).toMatch(/^#v1\.[A-Za-z0-9_-]+$/);
    expect(await decode(frag)).toEqual({ kind: 'ok', link });
  });

  it('round-trips embed panels, and the &embed= suffix overrides them', async () => {
    const frag = await encode({ ...link, embed: ['cfg', 'lanes'] });
    expect(await decode(frag)).toEqual({ kind: 'ok', link: { ...link, embed: ['cfg', 'lanes'] } });
    const r = await decode(`${frag}&embed=stack,plot,bogus`);
    expect(r.kind === 'ok' && r.link.embed).toEqual(['stack', 'plot']);
  });

  it('round-trips a long kernel', async () => {
    const big = { ...link, text: 'IADD R4, R4, 0x1;\n'.repeat(5000) };
    expect(await decode(await encode(big))).toEqual({ kind: 'ok', link: big });
  });

  it('treats an empty fragment as no link', async () => {
    expect(await decode('')).toEqual({ kind: 'none' });
    expect(await decode('#')).toEqual({ kind: 'none' });
  });

  it('reports a corrupted link', async () => {
    const frag = await encode(link);
    const bad = frag.slice(0, 8) + (frag[8] === 'A' ? 'B' : 'A').repeat(6) + frag.slice(14);
    expect((await decode(bad)).kind).toBe('error');
    expect((await decode('#v1.!!!not-base64'))).toMatchObject({ kind: 'error', message: /corrupted/ });
    expect((await decode('#hello'))).toMatchObject({ kind: 'error', message: /not a warpscope permalink/ });
  });

  it('reports a truncated link', async () => {
    const frag = await encode(link);
    const r = await decode(frag.slice(0, Math.floor(frag.length / 2)));
    expect(r).toMatchObject({ kind: 'error', message: /corrupted or truncated/ });
  });

  it('reports a future version without trying to read it', async () => {
    const frag = await encode(link);
    expect(await decode(frag.replace('#v1.', '#v2.'))).toMatchObject({ kind: 'error', message: /format v2/ });
  });

  it('rejects well-formed data that is not a saved state', async () => {
    // Valid deflate-raw of JSON whose text field is not a string.
    expect(await decode(await pack({ v: 1, text: 5 }))).toMatchObject({ kind: 'error', message: /kernel text is missing/ });
    expect(await decode(await pack({ v: 1, text: '', ifConvert: 'yes' }))).toMatchObject({ kind: 'error', message: /if-convert/ });
  });

  it('round-trips the if-convert choice, and reads links made before it existed', async () => {
    for (const ifConvert of [true, false]) {
      expect(await decode(await encode({ ...link, ifConvert }))).toEqual({ kind: 'ok', link: { ...link, ifConvert } });
    }
    const { ifConvert: _, pathOrder: _p, schedule: _s, compare: _c, sweep: _w, figure: _f, ...old } = link;
    expect(await decode(await pack({ v: 1, ...old }))).toEqual({ kind: 'ok', link });
  });

  it('round-trips the path order, the schedule and a compare choice', async () => {
    const chosen: Link = {
      ...link, model: 'pdom', pathOrder: 'fall-through', compare: { model: 'volta', pathOrder: null, schedule: 'round-robin' },
    };
    expect(await decode(await encode(chosen))).toEqual({ kind: 'ok', link: chosen });
    const volta: Link = { ...link, model: 'volta', schedule: 'lowest-pc', compare: { model: 'pdom', pathOrder: 'taken', schedule: null } };
    expect(await decode(await encode(volta))).toEqual({ kind: 'ok', link: volta });
  });

  it('leaves unset choices out of the link, so older versions read it the same', async () => {
    const json = await unpack(await encode(link));
    expect(Object.keys(json)).not.toContain('pathOrder');
    expect(Object.keys(json)).not.toContain('compare');
    const compared = await unpack(await encode({ ...link, compare: { model: 'tf-stack', pathOrder: null, schedule: null } }));
    expect(compared.compare).toEqual({ model: 'tf-stack' });
  });

  it('rejects a malformed compare choice, path order or schedule', async () => {
    for (const compare of [{ pathOrder: 'taken' }, { model: 3 }, [1], 7]) {
      expect(await decode(await pack({ v: 1, text: '', compare }))).toMatchObject({ kind: 'error', message: /compare choice/ });
    }
    expect(await decode(await pack({ v: 1, text: '', schedule: 5 }))).toMatchObject({ kind: 'error', message: /schedule/ });
  });

  it('round-trips a sweep with its metric, measured series and figure; links without one read as before', async () => {
    const sweep: Link = {
      ...link, figure: 'h100-single',
      sweep: { request: fullRequest({ models: ['volta'], presets: ['h100'], split: { param: 'm', values: [1, 2] } }), metric: 'cycles', measured: { file: 'data/h100_loops.csv', build: 'O3', kernel: 'single', pattern: 'table1' } },
    };
    expect(await decode(await encode(sweep))).toEqual({ kind: 'ok', link: sweep });
    const json = await unpack(await encode(link));
    expect(Object.keys(json)).not.toContain('sweep');
    expect(Object.keys(json)).not.toContain('figure');
  });

  it('rejects a malformed sweep field, saying it is the sweep', async () => {
    for (const sweep of [5, { request: 'n=0..31', metric: 'cycles' }, { request: { param: 'n', from: 'a', to: 3 }, metric: 'cycles' }]) {
      expect(await decode(await pack({ v: 1, text: '', sweep }))).toMatchObject({ kind: 'error', message: /cannot be opened: the sweep/ });
    }
    expect(await decode(await pack({ v: 1, text: '', figure: 3 }))).toMatchObject({ kind: 'error', message: /figure/ });
  });

  it('reads a hand-written compare field holding just a model name', async () => {
    const r = await decode(await pack({ v: 1, text: 'EXIT;', compare: 'tf-stack' }));
    expect(r.kind === 'ok' && r.link.compare).toEqual({ model: 'tf-stack', pathOrder: null, schedule: null });
  });
});

async function unpack(frag: string): Promise<Record<string, unknown>> {
  const bin = atob(frag.slice(4).replace(/-/g, '+').replace(/_/g, '/'));
  const stream = new Blob([Uint8Array.from(bin, (c) => c.charCodeAt(0))]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
  return JSON.parse(await new Response(stream).text()) as Record<string, unknown>;
}

/** A v1 fragment holding exactly `json`, as an older or hand-made link would. */
async function pack(json: unknown): Promise<string> {
  const bytes = new TextEncoder().encode(JSON.stringify(json));
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  const b = new Uint8Array(await new Response(stream).arrayBuffer());
  return `#v1.${btoa(String.fromCharCode(...b)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}`;
}
