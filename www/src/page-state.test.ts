// The page controller's decisions without a browser: what the page opens with, what a pasted link
// does, and the patches of examples, figures, the mode buttons and a permalink.
import { beforeAll, describe, expect, it } from 'vitest';
import { engineBytes } from './test-engine';
import { Engine, StepLimit } from './engine';
import type { Example } from './examples';
import type { Figure } from './figures';
import * as page from './page-state';
import type { Decoded, Link } from './permalink';
import type { UiState, Work } from './store';
import type { LoadResult } from './generated/engine';

// The compare partners are the engine's (core `ModelKind::about`), read when it starts.
beforeAll(() => { Engine.fromBytes(engineBytes(), () => {}); });

const fresh = page.freshWork('EXIT;\n', StepLimit.Default);
const first: page.Fresh = { work: fresh, title: 'The default example' };
const saved: Work = { ...fresh, text: 'my own kernel', params: { n: 3 }, model: 'pdom', stepLimit: 50_000 };
const link: Link = {
  text: 'their kernel', params: { n: 5 }, model: 'volta', preset: null, ifConvert: null, pathOrder: null, schedule: 'h100', warpScheduler: null, oneWarp: null, launch: null, kernelOnly: null, block: null,
  compare: null, compareText: null, step: 12, lane: 3, warp: null, embed: null, sweep: null, figure: null, cuda: null, ptx: null,
};
const ok = (l: Partial<Link> = {}): Decoded => ({ kind: 'ok', link: { ...link, ...l } });
const run = { model: 'pdom', models: ['kepler', 'pdom', 'tf-stack'] } as unknown as LoadResult;
const example: Example = { file: 'x.sass', title: 'x', about: '', text: 'EXAMPLE;\n', group: 'g', cuda: null, ptx: null };
const sweep = { request: { param: 'n' }, metric: 'cycles', measured: { file: 'a.csv', build: 'b', kernel: 'k', pattern: 'p' } } as unknown as UiState['sweep'];

describe('restore', () => {
  it('opens the saved work, else the default example, with no question', () => {
    expect(page.restore({ kind: 'none' }, saved, first)).toEqual({ state: saved, ask: null, banners: [] });
    expect(page.restore({ kind: 'none' }, null, first)).toEqual({ state: fresh, ask: null, banners: [] });
  });

  it('a link wins over the saved work, and asks first when it shows another kernel', () => {
    const r = page.restore(ok(), saved, first);
    // The saved step limit stays: a link has none of its own.
    expect(r.state).toEqual({ ...saved, ...link });
    expect(r.state.stepLimit).toBe(50_000);
    expect(r.ask).toBe(saved);
    // The same kernel, no saved work, or an embed: nothing to lose, so no question.
    expect(page.restore(ok({ text: saved.text }), saved, first).ask).toBeNull();
    expect(page.restore(ok(), null, first).ask).toBeNull();
    expect(page.restore(ok({ embed: ['cfg'] }), saved, first).ask).toBeNull();
  });

  it('a broken link says so and shows the saved work', () => {
    expect(page.restore({ kind: 'error', message: 'This link is cut short.' }, saved, first)).toEqual({
      state: saved, ask: null, banners: ['This link is cut short. Showing your last saved kernel instead.'],
    });
  });

  it('with nothing saved, a broken link says the default example shows, by its title', () => {
    expect(page.restore({ kind: 'error', message: 'This link is cut short.' }, null, first)).toEqual({
      state: fresh, ask: null,
      banners: ['This link is cut short. Nothing is saved in this browser yet, so the default example ("The default example") shows instead.'],
    });
  });
});

describe('embedded', () => {
  it('an embed of known panels drops compare and sweep modes; one naming none is the whole app', () => {
    expect(page.embedded(null)).toEqual({ patch: {}, banner: null });
    expect(page.embedded(undefined as unknown as null)).toEqual({ patch: {}, banner: null });
    expect(page.embedded(['cfg', 'lanes'])).toEqual({ patch: { compare: null, sweep: null }, banner: null });
    const none = page.embedded([]);
    expect(none.patch).toEqual({ embed: null });
    expect(none.banner).toMatch(/names no known panel \(known: editor, listing, cfg, .*\); showing the whole app/);
  });
});

describe('hashChange', () => {
  it('shows a pasted link, asking first when it replaces the user\'s kernel', () => {
    expect(page.hashChange(ok(), false, saved)).toEqual({ kind: 'show', link, ask: true });
    expect(page.hashChange(ok({ text: saved.text }), false, saved)).toEqual({ kind: 'show', link: { ...link, text: saved.text }, ask: false });
  });

  it('ignores a fragment that is no link, keeps the kernel on a broken one, reloads for embeds', () => {
    expect(page.hashChange({ kind: 'none' }, false, saved)).toEqual({ kind: 'none' });
    expect(page.hashChange({ kind: 'error', message: 'Bad.' }, false, saved)).toEqual({ kind: 'banner', message: 'Bad. Your kernel stays as it was.' });
    expect(page.hashChange(ok({ embed: ['cfg'] }), false, saved)).toEqual({ kind: 'reload' });
    expect(page.hashChange(ok(), true, saved)).toEqual({ kind: 'reload' });
  });
});

describe('patches', () => {
  it('an example takes the kernel\'s own choices; a sweep carries over without its measurements', () => {
    expect(page.examplePatch(example, { sweep: null })).toEqual({
      text: 'EXAMPLE;\n', params: {}, model: null, preset: null, ifConvert: null, pathOrder: null, schedule: null, warpScheduler: null, oneWarp: null, launch: null, kernelOnly: null, block: null,
      figure: null, cuda: null, ptx: null,
    });
    expect(page.examplePatch(example, { sweep }, { model: 'volta' })).toMatchObject({ sweep: { ...sweep, measured: null }, model: 'volta' });
    // A PTX example brings the .cu it was compiled from into the CUDA tab.
    const ptx = { ...example, file: 'x.ptx', text: '.version 9.5', cuda: '__global__ void x() {}' };
    expect(page.examplePatch(ptx, { sweep: null })).toMatchObject({ text: '.version 9.5', cuda: '__global__ void x() {}' });
    // A SASS example brings its PTX into the PTX tab too.
    const sass = { ...example, file: 'x.sm_90.sass', text: 'EXIT ;', cuda: '__global__ void x() {}', ptx: '.version 9.5' };
    expect(page.examplePatch(sass, { sweep: null })).toMatchObject({ cuda: '__global__ void x() {}', ptx: '.version 9.5' });
  });

  it('a figure opens its kernel in the view at its settings, or with its sweep', () => {
    const view = { id: 'v', kernel: 'x.sass', view: { params: { n: 2 }, model: 'pdom', preset: 'kepler' } } as unknown as Figure;
    expect(page.openingOf(view, [example])).toEqual({
      kind: 'view', example, patch: { params: { n: 2 }, model: 'pdom', preset: 'kepler', compare: null, sweep: null, figure: 'v' },
    });
    const swept = { id: 's', kernel: 'x.sass', sweep: { param: 'n', params: { m: 1 } }, metric: 'fetches' } as unknown as Figure;
    const opening = page.openingOf(swept, [example]);
    expect(opening).toMatchObject({ kind: 'sweep', example, patch: { params: { m: 1 }, compare: null, figure: 's', sweep: { metric: 'fetches', measured: null } } });
    expect(opening.kind === 'sweep' && opening.patch.sweep?.request.param).toBe('n');
    // A view figure in compare mode: the model beside it with its own policies and the left side's preset.
    const beside = { ...view, view: { params: {}, model: 'struct', preset: 'kepler', compare: 'pdom' } } as Figure;
    expect(page.openingOf(beside, [example])).toEqual({
      kind: 'view', example,
      patch: { params: {}, model: 'struct', preset: 'kepler', compare: { model: 'pdom', pathOrder: null, schedule: null, preset: null, ifConvert: null, warpScheduler: null, oneWarp: null, launch: null, kernelOnly: null, block: null }, sweep: null, figure: 'v' },
    });
    expect(page.openingOf({ ...view, kernel: 'gone.sass' }, [example])).toEqual({
      kind: 'missing', message: 'The figure\'s kernel gone.sass is not among the bundled examples.',
    });
  });

  it('a figure\'s note holds while its kernel is on screen, unedited, in its mode', () => {
    const view = { id: 'v', kernel: 'x.sass', view: { params: {}, model: 'pdom', preset: 'kepler' } } as unknown as Figure;
    const swept = { id: 's', kernel: 'x.sass', sweep: { param: 'n' } } as unknown as Figure;
    const beside = { ...view, view: { ...view.view!, compare: 'volta' } } as Figure;
    const pair = { model: 'volta', pathOrder: null, schedule: null, preset: null, ifConvert: null, warpScheduler: null, oneWarp: null, launch: null, kernelOnly: null, block: null };
    const on = (s: Partial<UiState>) => ({ text: example.text, sweep: null, compare: null, ...s });
    expect(page.figureHolds(view, on({}), [example])).toBe(true);
    expect(page.figureHolds(view, on({ text: 'another kernel' }), [example]), 'another kernel pasted').toBe(false);
    expect(page.figureHolds(view, on({ compare: pair }), [example]), 'compare mode on').toBe(false);
    expect(page.figureHolds(view, on({ sweep }), [example]), 'a sweep').toBe(false);
    expect(page.figureHolds(beside, on({ compare: pair }), [example])).toBe(true);
    expect(page.figureHolds(beside, on({}), [example]), 'compare mode off').toBe(false);
    expect(page.figureHolds(swept, on({ sweep }), [example])).toBe(true);
    expect(page.figureHolds(swept, on({}), [example]), 'sweep mode left').toBe(false);
    expect(page.figureHolds(view, on({}), []), 'the kernel missing').toBe(false);
  });

  it('compare mode opens beside the usual partner, ends a sweep, and closes', () => {
    expect(page.compareToggle({ compare: null }, run)).toEqual({ compare: { model: 'tf-stack', pathOrder: null, schedule: null, preset: null, ifConvert: null, warpScheduler: null, oneWarp: null, launch: null, kernelOnly: null, block: null }, compareText: null, sweep: null });
    expect(page.compareToggle({ compare: null }, null)).toEqual({ compare: null, compareText: null, sweep: null });
    expect(page.compareToggle({ compare: { model: 'kepler', pathOrder: null, schedule: null, preset: null, ifConvert: null, warpScheduler: null, oneWarp: null, launch: null, kernelOnly: null, block: null } }, run)).toEqual({ compare: null, compareText: null });
  });

  it('an example compared with its own model gets its partner beside it', () => {
    expect(page.selfComparison({ compare: { model: 'pdom', pathOrder: 'taken', schedule: null, preset: null, ifConvert: null, warpScheduler: null, oneWarp: null, launch: null, kernelOnly: null, block: null }, compareText: null }, run)).toEqual({
      compare: { model: 'tf-stack', pathOrder: null, schedule: null, preset: null, ifConvert: null, warpScheduler: null, oneWarp: null, launch: null, kernelOnly: null, block: null },
    });
    expect(page.selfComparison({ compare: { model: 'kepler', pathOrder: null, schedule: null, preset: null, ifConvert: null, warpScheduler: null, oneWarp: null, launch: null, kernelOnly: null, block: null }, compareText: null }, run)).toBeNull();
    expect(page.selfComparison({ compare: null, compareText: null }, run)).toBeNull();
    // Two kernels under one model: the same model on both sides is the point.
    expect(page.selfComparison({ compare: { model: 'pdom', pathOrder: null, schedule: null, preset: null, ifConvert: null, warpScheduler: null, oneWarp: null, launch: null, kernelOnly: null, block: null }, compareText: 'EXIT;' }, run)).toBeNull();
  });

  it('a permalink holds the link fields of the screen, not the tab\'s own', () => {
    const s: UiState = { ...link, breakpoints: [4], playing: true, speed: 3, stepLimit: 1000 };
    expect(page.linkOf(s)).toEqual(link);
    // A PTX kernel's CUDA source goes with it.
    expect(page.linkOf({ ...s, cuda: 'int main() {}' }).cuda).toBe('int main() {}');
    // A SASS kernel's PTX too.
    expect(page.linkOf({ ...s, ptx: '.version 9.5' }).ptx).toBe('.version 9.5');
  });
});
