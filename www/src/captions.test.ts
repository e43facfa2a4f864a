// Walkthrough notes through the real engine: an event note lands where each model has its event
// and shows for its moment only; a note the run never reaches is a warning on its line.
import { beforeAll, describe, expect, it } from 'vitest';
import { engineBytes, example } from './test-engine';
import { Engine } from './engine';

const ifElse = example('if_else.cu');
let bytes: Uint8Array<ArrayBuffer>;
beforeAll(() => { bytes = engineBytes(); });

describe('captions', () => {
  // The case: the C if/else branches at step 5 under kepler (SSY first), 4 under pdom.
  it.each([['kepler', 5], ['pdom', 4]])('under %s, `div 1` shows from the branch at step %i and is gone 10 steps on', (model, branch) => {
    const e = Engine.fromBytes(bytes, (m) => { throw new Error(m); });
    const r = e.load(ifElse, { model });
    expect(r?.ok).toBe(true);
    expect(r?.diagnostics).toEqual([]);
    const div = e.notes().find((n) => n.target === 'div 1');
    expect(div).toMatchObject({ step: branch, line: 12 });
    const caption = (step: number) => { e.seek(step); return e.state(0)?.caption ?? null; };
    expect(caption(branch - 1)).toBeNull();
    expect(caption(branch)).toBe(div!.text);
    expect(caption(branch + 3)).toBe(div!.text);
    expect(caption(branch + 10)).toBeNull();
  });

  it('says on the note line when the run never has the event', () => {
    const e = Engine.fromBytes(bytes, (m) => { throw new Error(m); });
    const r = e.load(ifElse, { model: 'kepler', ifConvert: true });
    expect(r?.diagnostics.find((d) => d.line === 12)).toMatchObject({
      severity: 'warning', col: 10, message: '`div 1` never happens: this run has no divergence',
    });
    expect(e.notes().find((n) => n.target === 'div 1')?.step).toBeNull();
  });
});
