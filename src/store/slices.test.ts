import { describe, expect, it } from 'vitest';
import { slices } from './slices.js';

describe('slices', () => {
  it('cuts a list into consecutive parts of the size, in order, the last one shorter', () => {
    const items = Array.from({ length: 7 }, (_, i) => `id-${i}`);
    expect(slices(items, 3)).toEqual([['id-0', 'id-1', 'id-2'], ['id-3', 'id-4', 'id-5'], ['id-6']]);
    expect(slices(items, 3).flat()).toEqual(items);
  });

  it('makes parts of exactly the size when the list divides evenly, and one part when the size covers it all', () => {
    const items = [5, 4, 3, 2, 1, 0];
    expect(slices(items, 2)).toEqual([
      [5, 4],
      [3, 2],
      [1, 0],
    ]);
    expect(slices(items, 6)).toEqual([items]);
    expect(slices(items, 500)).toEqual([items]);
    expect(slices(items, 1)).toEqual(items.map((n) => [n]));
  });

  it('keeps every part at most the size over a long list (a statement’s share)', () => {
    const items = Array.from({ length: 1234 }, (_, i) => i);
    const parts = slices(items, 500);
    expect(parts.map((p) => p.length)).toEqual([500, 500, 234]);
    expect(parts.flat()).toEqual(items);
  });

  it('makes no parts of no items', () => {
    expect(slices([], 250)).toEqual([]);
  });

  it('copies: the parts are new arrays, the list is left as it was', () => {
    const items = ['a', 'b', 'c'];
    const [whole] = slices(items, 3);
    expect(whole).not.toBe(items);
    (whole as string[]).push('x');
    expect(items).toEqual(['a', 'b', 'c']);
  });

  it('refuses a size below 1 or not a whole number', () => {
    for (const size of [0, -1, 0.5, 2.5, Number.NaN, Number.POSITIVE_INFINITY])
      expect(() => slices([1, 2, 3], size)).toThrow(RangeError);
    expect(() => slices([], 0)).toThrow(RangeError);
  });
});
