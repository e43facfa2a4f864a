// The saved work and the copy kept aside, against a stand-in for localStorage (Node has none):
// round trips, older or malformed saves, and storage that refuses to write.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StepLimit } from './engine';
import * as store from './store';

class MemoryStorage {
  items = new Map<string, string>();
  full = false;
  getItem(k: string) { return this.items.get(k) ?? null; }
  setItem(k: string, v: string) { if (this.full) throw new DOMException('full', 'QuotaExceededError'); this.items.set(k, v); }
  removeItem(k: string) { this.items.delete(k); }
}

let storage: MemoryStorage;
beforeEach(() => { storage = new MemoryStorage(); Object.assign(globalThis, { localStorage: storage }); });
afterEach(() => { delete (globalThis as { localStorage?: unknown }).localStorage; });

const work: store.Work = {
  text: 'EXIT;\n', params: { n: 3 }, model: 'pdom', preset: 'maxwell', ifConvert: true, pathOrder: 'taken', schedule: null, warpScheduler: 'random', oneWarp: false, launch: null, kernelOnly: null, block: null,
  compare: { model: 'volta', pathOrder: null, schedule: 'h100', preset: 'kepler', ifConvert: null, warpScheduler: null, oneWarp: null, launch: null, kernelOnly: null, block: null }, compareText: '__global__ void other() {}\n', sweep: null, figure: 'bs-fig1', cuda: '__global__ void k() {}\n', ptx: '.version 9.5\n', stepLimit: 50_000,
};

describe('saved work', () => {
  it('round-trips every field, the step limit included', () => {
    store.update({ ...work, step: 9, lane: 2 });
    expect(store.saveWork(store.get())).toBe(true);
    expect(store.loadWork()).toEqual(work);
  });

  it('reads work saved by older versions and drops malformed fields', () => {
    storage.setItem('warpscope.work.v1', JSON.stringify({ text: 'EXIT;', params: { n: 'x' }, compare: 'tf-stack', stepLimit: -5, ifConvert: 'yes' }));
    expect(store.loadWork()).toMatchObject({
      text: 'EXIT;', params: {}, compare: { model: 'tf-stack', pathOrder: null, schedule: null, preset: null, ifConvert: null, warpScheduler: null, oneWarp: null, launch: null, kernelOnly: null, block: null }, stepLimit: StepLimit.Default, ifConvert: null,
      cuda: null,
    });
    // A PTX kernel's CUDA source that is not text is dropped; the kernel stays.
    storage.setItem('warpscope.work.v1', JSON.stringify({ text: '.version 8.5', cuda: 7 }));
    expect(store.loadWork()).toMatchObject({ text: '.version 8.5', cuda: null });
    storage.setItem('warpscope.work.v1', '{not json');
    expect(store.loadWork()).toBeNull();
  });

  it('takes a step limit only within the engine\'s range', () => {
    expect([StepLimit.Min, StepLimit.Default, StepLimit.Max].map(store.validStepLimit)).toEqual([1_000, 10_000_000, 50_000_000]);
    expect([999, StepLimit.Max + 1, 1500.5, NaN, '5000', null].map(store.validStepLimit)).toEqual([null, null, null, null, null, null]);
  });

  it('says when storage refuses to save, and throws nothing', () => {
    storage.full = true;
    expect(store.saveWork(store.get())).toBe(false);
    expect(store.keepAside(work, 'mine')).toBe(false);
    delete (globalThis as { localStorage?: unknown }).localStorage;
    expect(store.saveWork(store.get())).toBe(false);
    expect(store.loadWork()).toBeNull();
    expect(store.loadAside()).toBeNull();
  });

  it('keeps a copy aside until it is forgotten', () => {
    expect(store.loadAside()).toBeNull();
    expect(store.keepAside(work, 'mine')).toBe(true);
    expect(store.loadAside()).toEqual({ work, owner: 'mine' });
    store.forgetAside();
    expect(store.loadAside()).toBeNull();
  });
});
