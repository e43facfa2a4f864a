import { describe, expect, it } from 'vitest';
import { dimsText, editOf, fieldKey, parseDims, textChange } from './header-fields';
import type { InputsView } from './generated/engine';

const VIEW: InputsView = {
  buffers: [{ name: 'c', elem: 'f32', len: '64', init: 'i', auto: true, shared: false, declared: null, line: 1, elements: 64, first: ['0', '1'] }],
  params: [{ name: 'n', default: '64', auto: true, line: 1, value: 64 }],
  launch: { grid: [1, 1, 1], block: [64, 1, 1], block_idx: [0, 0, 0], warp_idx: 0, shared: null, line: null, first_thread: 0, lanes: 32 },
  width: 32, kernels: ['add'], kernel: 'add', kernel_line: null, set_by_main: null, device: [], arguments: [],
};

describe('launch sizes', () => {
  it('read 256, 16x16, (16, 16) and 4 x 4 x 2, and refuse what is not whole numbers', () => {
    expect(parseDims('256')).toEqual([256, 1, 1]);
    expect(parseDims('16x16')).toEqual([16, 16, 1]);
    expect(parseDims('(16, 16)')).toEqual([16, 16, 1]);
    expect(parseDims(' 4 x 4 x 2 ')).toEqual([4, 4, 2]);
    expect(parseDims('3', 0)).toEqual([3, 0, 0]);
    for (const bad of ['', 'x', '1.5', '-2', '1x2x3x4', 'abc']) expect(parseDims(bad), bad).toBeNull();
  });

  it('are written without their trailing fill', () => {
    expect(dimsText([256, 1, 1])).toBe('256');
    expect(dimsText([16, 16, 1])).toBe('16x16');
    expect(dimsText([2, 1, 3])).toBe('2x1x3');
    expect(dimsText([0, 0, 0], 0)).toBe('0');
    expect(dimsText([1, 2, 0], 0)).toBe('1x2');
  });
});

describe('a field as a header edit', () => {
  it('keeps a buffer\'s other parts as they are', () => {
    expect(editOf(VIEW, { kind: 'buffer', name: 'c', part: 'len' }, '100')).toEqual({
      edit: { set: { header: 'buffer', name: 'c', elem: 'f32', len: '100', init: 'i' } },
    });
    expect(editOf(VIEW, { kind: 'param', name: 'n' }, 'oops')).toEqual({ edit: { set: { header: 'param', name: 'n', value: 'oops' } } });
  });

  it('changes one part of the launch, and refuses a size that is not numbers', () => {
    expect(editOf(VIEW, { kind: 'launch', part: 'grid' }, '2')).toEqual({
      edit: { set: { header: 'launch', grid: [2, 1, 1], block: [64, 1, 1], shared: null, block_idx: [0, 0, 0], warp_idx: 0 } },
    });
    expect(editOf(VIEW, { kind: 'launch', part: 'warp' }, '1')).toMatchObject({ edit: { set: { warp_idx: 1 } } });
    expect(editOf(VIEW, { kind: 'launch', part: 'block' }, 'big')).toHaveProperty('error');
    expect(editOf(VIEW, { kind: 'launch', part: 'warp' }, '-1')).toHaveProperty('error');
  });

  it('takes a sibling part typed before the last run came back, so two quick edits both land', () => {
    const pending = new Map([['launch::grid', '2'], ['buffer:c:init', 'zero']]);
    expect(editOf(VIEW, { kind: 'launch', part: 'block' }, '64', pending)).toEqual({
      edit: { set: { header: 'launch', grid: [2, 1, 1], block: [64, 1, 1], shared: null, block_idx: [0, 0, 0], warp_idx: 0 } },
    });
    expect(editOf(VIEW, { kind: 'launch', part: 'warp' }, '1', pending)).toMatchObject({ edit: { set: { grid: [2, 1, 1], warp_idx: 1 } } });
    expect(editOf(VIEW, { kind: 'buffer', name: 'c', part: 'len' }, '100', pending)).toEqual({
      edit: { set: { header: 'buffer', name: 'c', elem: 'f32', len: '100', init: 'zero' } },
    });
    // A sibling's unreadable text never reaches a line: the part keeps what ran.
    expect(editOf(VIEW, { kind: 'launch', part: 'warp' }, '1', new Map([['launch::grid', 'lots']]))).toMatchObject({ edit: { set: { grid: [1, 1, 1] } } });
  });

  it('names fields apart', () => {
    expect(fieldKey({ kind: 'buffer', name: 'c', part: 'len' })).not.toBe(fieldKey({ kind: 'buffer', name: 'c', part: 'init' }));
    expect(fieldKey({ kind: 'launch', part: 'warp' })).toBe('launch::warp');
  });
});

describe('textChange', () => {
  it('is the one differing middle', () => {
    const from = '//@ param n = 4\nEXIT;\n', to = '//@ param n = 40\nEXIT;\n';
    const c = textChange(from, to);
    expect(from.slice(0, c.from) + c.insert + from.slice(c.to)).toBe(to);
    expect(c.insert.length).toBeLessThanOrEqual(1);
    expect(textChange('abc', 'abc')).toEqual({ from: 3, to: 3, insert: '' });
    expect(textChange('', 'x\n')).toEqual({ from: 0, to: 0, insert: 'x\n' });
    const ins = textChange('ab\nab\n', 'ab\nab\nab\n');
    expect('ab\nab\n'.slice(0, ins.from) + ins.insert + 'ab\nab\n'.slice(ins.to)).toBe('ab\nab\nab\n');
  });
});
