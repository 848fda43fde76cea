import { describe, expect, it } from 'vitest';
import { chooseGroup } from './near-duplicates.js';

const n = (id: string, groupId: string, distance: number, quality: number | null = 100) => ({
  id,
  groupId,
  distance,
  quality,
});

describe('near-duplicate groups', () => {
  it.each([
    ['a lone item founds its own group', 100, [], { groupId: 'z', merged: [], nearest: null }],
    [
      'an item joins its neighbour’s group',
      100,
      [n('b', 'g1', 12)],
      { groupId: 'g1', merged: [], nearest: { id: 'b', distance: 12 } },
    ],
    [
      'an item linking two groups merges them into the older',
      100,
      [n('b', 'g2', 3), n('c', 'g1', 20)],
      { groupId: 'g1', merged: ['g2'], nearest: { id: 'b', distance: 3 } },
    ],
    [
      'a neighbour beyond 31 bits is ignored',
      100,
      [n('b', 'g1', 32)],
      { groupId: 'z', merged: [], nearest: null },
    ],
    ['a low-quality item stays alone', 30, [n('b', 'g1', 0)], { groupId: 'z', merged: [], nearest: null }],
    [
      'a low-quality neighbour is ignored',
      100,
      [n('b', 'g1', 0, 10)],
      { groupId: 'z', merged: [], nearest: null },
    ],
  ] as const)('%s', (_title, quality, neighbours, expected) => {
    expect(chooseGroup('z', quality, neighbours)).toEqual(expected);
  });
});
