// Permalinks through the core's codec (the real wasm, started in Node): round trips, links made by
// the old TypeScript encoder, and every kind of broken or hostile link as a readable message.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { Engine } from './engine';
import { decode, encode, type Link } from './permalink';
import { fullRequest } from './sweep/request';

beforeAll(() => { Engine.fromBytes(readFileSync(new URL('../../web/pkg/warpscope_web_bg.wasm', import.meta.url)), () => {}); });

const link: Link = {
  text: '//@ title <img src=x onerror=alert(1)>\n//@ param n = 2\n/*0060*/ NOP; // ünïcode ✓\n',
  params: { n: 7 }, model: 'kepler', preset: 'maxwell', ifConvert: null, pathOrder: null, schedule: null, warpScheduler: 'lrr', oneWarp: null, launch: null, kernelOnly: null, block: null, compare: null, compareText: null, sweep: null, figure: null,
  cuda: null, ptx: null, step: 125, lane: 31, warp: 3, embed: null,
};

async function pipe(bytes: Uint8Array, stream: GenericTransformStream): Promise<Uint8Array> {
  return new Uint8Array(await new Response(new Blob([bytes as BlobPart]).stream().pipeThrough(stream)).arrayBuffer());
}

/** A v1 fragment holding exactly `bytes` (deflate-raw, base64url), as an older or hand-made link would. */
async function packBytes(bytes: Uint8Array): Promise<string> {
  const b = await pipe(bytes, new CompressionStream('deflate-raw'));
  let bin = '';
  for (let i = 0; i < b.length; i += 0x8000) bin += String.fromCharCode(...b.subarray(i, i + 0x8000));
  return `#v1.${btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}`;
}

const pack = (json: unknown) => packBytes(new TextEncoder().encode(JSON.stringify(json)));

async function unpack(frag: string): Promise<Record<string, unknown>> {
  const bin = atob(frag.slice(4).replace(/-/g, '+').replace(/_/g, '/'));
  return JSON.parse(new TextDecoder().decode(await pipe(Uint8Array.from(bin, (c) => c.charCodeAt(0)), new DecompressionStream('deflate-raw')))) as Record<string, unknown>;
}

describe('permalink', () => {
  it('round-trips the exact state', () => {
    const frag = encode(link);
    expect(frag).toMatch(/^#v1\.[A-Za-z0-9_-]+$/);
    expect(decode(frag)).toEqual({ kind: 'ok', link });
  });

  it('round-trips embed panels; the &embed= suffix overrides them and unknown names are dropped', () => {
    const frag = encode({ ...link, embed: ['cfg', 'lanes'] });
    expect(decode(frag)).toEqual({ kind: 'ok', link: { ...link, embed: ['cfg', 'lanes'] } });
    const r = decode(`${frag}&embed=stack,plot,<script>bogus</script>`);
    expect(r.kind === 'ok' && r.link.embed).toEqual(['stack', 'plot']);
    const none = decode(`${frag}&embed=bogus`);
    expect(none.kind === 'ok' && none.link.embed).toEqual([]);
  });

  it('opens a link made by the old TypeScript encoder (CompressionStream and btoa)', () => {
    const old = '#v1.ZVHLaiMxEPwVUWcZZxxyUQjsstlDTgshh0AcjDzTYwv3SBM9HAczX5FrPiW3_Ml-ydKeCQnsQdAqdVd1lY7Yw1QamQ4ZBvP5D5VdZlKBG8XO75ZesN5G2ymvrtRi6W9-Xl-r20qfztmhulTzufp4V3_fXpf-9_3N3eXSQ-M0k2CO8DDng0YXGmIY9E3o5D1SIhHt7OGZmKGRMvUwCw22nmAuNFz7K_g9xQyTYyFhzds_saEIg9Yyz_I2hrLZQqMOXW8jieKn1D5wtkJcb6kpTDCIofhmFsPaeQwa1K2pgXlA3W4wCic8aqRnkl2OiPRUKGUpT45gIO7aGDqYM40cYM6ryV0Sph31TFFIRosCCmPP7j-aveVC0lDpxePwLbRB_KQ8lSnbegfjC7Nksqo_QxkRCWUVxlRG5MvwdM_Ur9h1bpqR76AcXQ2D-qVmShDEphIljqmldZsigWKdZq3bVBj-AQ';
    expect(decode(old)).toEqual({
      kind: 'ok', link: {
        text: '//@ title old link\n//@ param n = 2\nIADD R1, R1, 0x1; // ü ✓\nEXIT;\n', params: { n: 3 }, model: 'pdom', preset: 'maxwell',
        ifConvert: true, pathOrder: 'fall-through', schedule: null, warpScheduler: null, oneWarp: null, launch: null, kernelOnly: null, block: null,
        compare: { model: 'volta', pathOrder: null, schedule: 'round-robin', preset: null, ifConvert: null, warpScheduler: null, oneWarp: null, launch: null, kernelOnly: null, block: null },
        compareText: null, step: 2, lane: 5, warp: null, embed: ['cfg', 'lanes'],
        sweep: { request: fullRequest({ models: ['kepler'], split: { param: 'n', values: [1, 2] } }), metric: 'cycles', measured: null },
        figure: 'bs-fig1', cuda: null, ptx: null,
      },
    });
  });

  it('round-trips a long kernel', () => {
    const big = { ...link, text: 'IADD R4, R4, 0x1;\n'.repeat(5000) };
    expect(decode(encode(big))).toEqual({ kind: 'ok', link: big });
  });

  it('treats an empty fragment as no link', () => {
    expect(decode('')).toEqual({ kind: 'none' });
    expect(decode('#')).toEqual({ kind: 'none' });
  });

  it('reports a corrupted link', () => {
    const frag = encode(link);
    const bad = frag.slice(0, 8) + (frag[8] === 'A' ? 'B' : 'A').repeat(6) + frag.slice(14);
    expect(decode(bad).kind).toBe('error');
    expect(decode('#v1.!!!not-base64')).toMatchObject({ kind: 'error', message: expect.stringMatching(/corrupted/) });
    expect(decode('#hello')).toMatchObject({ kind: 'error', message: expect.stringMatching(/not a warpscope permalink/) });
  });

  it('reports a truncated link', () => {
    const frag = encode(link);
    // Cut after whole base64 quads (`#v1.` and half the data): the data decodes, its deflate stream ends early.
    const half = frag.slice(0, 4 + Math.floor((frag.length - 4) / 8) * 4);
    expect(decode(half)).toMatchObject({ kind: 'error', message: expect.stringMatching(/corrupted or truncated/) });
  });

  it('reports a future version without trying to read it', async () => {
    expect(decode(encode(link).replace('#v1.', '#v2.'))).toMatchObject({ kind: 'error', message: expect.stringMatching(/format v2/) });
    expect(decode(await pack({ ...link, v: 2 }))).toMatchObject({ kind: 'error', message: expect.stringMatching(/newer version of warpscope \(format 2\)/) });
  });

  it('refuses an oversized link and a deflate bomb before unpacking them whole', async () => {
    // Past the largest kernel, CUDA source, PTX and kernel compared a link holds (four times 256 KiB, packed).
    expect(decode(`#v1.${'A'.repeat(1_600_000)}`)).toMatchObject({ kind: 'error', message: expect.stringMatching(/too long/) });
    // 50 MB of spaces packs into about 50 KB: it must stop at the limit, not unpack it all.
    const bomb = await packBytes(new TextEncoder().encode(`{"v":1,"text":"${' '.repeat(50_000_000)}"}`));
    expect(bomb.length).toBeLessThan(100_000);
    expect(decode(bomb)).toMatchObject({ kind: 'error', message: expect.stringMatching(/unpacks to more than \d+ KiB/) });
  });

  it('rejects well-formed data that is not a saved state, naming the field', async () => {
    expect(decode(await pack({ v: 1, text: 5 }))).toMatchObject({ kind: 'error', message: expect.stringMatching(/kernel text is missing/) });
    expect(decode(await pack({ v: 1, text: '', ifConvert: 'yes' }))).toMatchObject({ kind: 'error', message: expect.stringMatching(/if-convert/) });
    expect(decode(await pack({ v: 1, text: '', params: { n: 'x' } }))).toMatchObject({ kind: 'error', message: expect.stringMatching(/params are malformed/) });
    expect(decode(await pack({ v: 1, text: '', step: -3 }))).toMatchObject({ kind: 'error', message: expect.stringMatching(/step or lane/) });
    expect(decode(await pack([1, 2]))).toMatchObject({ kind: 'error', message: expect.stringMatching(/does not hold a saved state/) });
    expect(decode(await packBytes(new TextEncoder().encode('{"v":1,')))).toMatchObject({ kind: 'error', message: expect.stringMatching(/does not hold a saved state/) });
  });

  it('round-trips the if-convert choice, and reads links made before it existed', async () => {
    for (const ifConvert of [true, false]) expect(decode(encode({ ...link, ifConvert }))).toEqual({ kind: 'ok', link: { ...link, ifConvert } });
    const { ifConvert: _, pathOrder: _p, schedule: _s, compare: _c, sweep: _w, figure: _f, cuda: _u, ptx: _x, ...old } = link;
    expect(decode(await pack({ v: 1, ...old }))).toEqual({ kind: 'ok', link });
  });

  it('round-trips a PTX kernel\'s CUDA source; a link without one opens as before, with none', async () => {
    const ptx: Link = { ...link, text: '.version 9.5\n.target sm_90\n', cuda: '__global__ void k(int* a) {\n    a[0] = 1; // ü ✓\n}\n' };
    expect(decode(encode(ptx))).toEqual({ kind: 'ok', link: ptx });
    expect(await unpack(encode(ptx))).toMatchObject({ cuda: ptx.cuda });
    // Unset, it is left out, so a link of a kernel without CUDA source reads the same in older versions.
    expect(Object.keys(await unpack(encode(link)))).not.toContain('cuda');
    const r = decode(await pack({ v: 1, text: 'EXIT;' }));
    expect(r.kind === 'ok' && r.link.cuda).toBeNull();
    expect(decode(await pack({ v: 1, text: '', cuda: ['x'] }))).toMatchObject({ kind: 'error', message: expect.stringMatching(/CUDA source is malformed/) });
    // A SASS kernel's PTX the same way.
    const sass: Link = { ...ptx, text: '\t\tFunction : _Z1kPi\n        /*0000*/                   EXIT ;\n', ptx: '.version 9.5\n.target sm_90\n' };
    expect(decode(encode(sass))).toEqual({ kind: 'ok', link: sass });
    expect(Object.keys(await unpack(encode(ptx)))).not.toContain('ptx');
    expect(r.kind === 'ok' && r.link.ptx).toBeNull();
  });

  it('round-trips the path order, the schedule and a compare choice', () => {
    const chosen: Link = { ...link, model: 'pdom', pathOrder: 'fall-through', compare: { model: 'volta', pathOrder: null, schedule: 'round-robin', preset: 'h100', ifConvert: null, warpScheduler: null, oneWarp: null, launch: null, kernelOnly: null, block: null } };
    expect(decode(encode(chosen))).toEqual({ kind: 'ok', link: chosen });
    const volta: Link = { ...link, model: 'volta', schedule: 'lowest-pc', compare: { model: 'pdom', pathOrder: 'taken', schedule: null, preset: null, ifConvert: null, warpScheduler: null, oneWarp: null, launch: null, kernelOnly: null, block: null } };
    expect(decode(encode(volta))).toEqual({ kind: 'ok', link: volta });
  });

  it('reads a compare choice made before side B had a preset as "side A\'s preset"', async () => {
    const r = decode(await pack({ v: 1, text: 'EXIT;', compare: { model: 'volta', schedule: 'round-robin' } }));
    expect(r.kind === 'ok' && r.link.compare).toEqual({ model: 'volta', pathOrder: null, schedule: 'round-robin', preset: null, ifConvert: null, warpScheduler: null, oneWarp: null, launch: null, kernelOnly: null, block: null });
    expect(decode(await pack({ v: 1, text: '', compare: { model: 'volta', preset: 3 } }))).toMatchObject({ kind: 'error', message: expect.stringMatching(/compare choice/) });
  });

  it('leaves unset choices out of the link, so older versions read it the same', async () => {
    const json = await unpack(encode(link));
    expect(Object.keys(json)).not.toContain('pathOrder');
    expect(Object.keys(json)).not.toContain('compare');
    expect((await unpack(encode({ ...link, compare: { model: 'tf-stack', pathOrder: null, schedule: null, preset: null, ifConvert: null, warpScheduler: null, oneWarp: null, launch: null, kernelOnly: null, block: null } }))).compare).toEqual({ model: 'tf-stack' });
  });

  it('rejects a malformed compare choice, path order or schedule', async () => {
    for (const compare of [{ pathOrder: 'taken' }, { model: 3 }, [1], 7]) {
      expect(decode(await pack({ v: 1, text: '', compare }))).toMatchObject({ kind: 'error', message: expect.stringMatching(/compare choice/) });
    }
    expect(decode(await pack({ v: 1, text: '', schedule: 5 }))).toMatchObject({ kind: 'error', message: expect.stringMatching(/schedule/) });
  });

  it('round-trips a sweep with its metric, measured series and figure; links without one read as before', async () => {
    const sweep: Link = {
      ...link, figure: 'h100-single',
      sweep: { request: fullRequest({ models: ['volta'], presets: ['h100'], split: { param: 'm', values: [1, 2] } }), metric: 'cycles', measured: { file: 'data/h100_loops.csv', build: 'O3', kernel: 'single', pattern: 'table1' } },
    };
    expect(decode(encode(sweep))).toEqual({ kind: 'ok', link: sweep });
    const json = await unpack(encode(link));
    expect(Object.keys(json)).not.toContain('sweep');
    expect(Object.keys(json)).not.toContain('figure');
  });

  it('rejects a malformed sweep field, saying it is the sweep', async () => {
    for (const sweep of [5, { request: 'n=0..31', metric: 'cycles' }, { request: { param: 'n', from: 'a', to: 3 }, metric: 'cycles' }]) {
      expect(decode(await pack({ v: 1, text: '', sweep }))).toMatchObject({ kind: 'error', message: expect.stringMatching(/cannot be opened: the sweep/) });
    }
    expect(decode(await pack({ v: 1, text: '', figure: 3 }))).toMatchObject({ kind: 'error', message: expect.stringMatching(/figure/) });
  });

  it('reads a hand-written compare field holding just a model name', async () => {
    const r = decode(await pack({ v: 1, text: 'EXIT;', compare: 'tf-stack' }));
    expect(r.kind === 'ok' && r.link.compare).toEqual({ model: 'tf-stack', pathOrder: null, schedule: null, preset: null, ifConvert: null, warpScheduler: null, oneWarp: null, launch: null, kernelOnly: null, block: null });
  });
});
