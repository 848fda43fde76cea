import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hammingDistance, hammingDistanceHex, popcount32 } from './hamming.js';
import { pdqToHex } from './pdq.js';
import { PdqIndex } from './pdq-index.js';

function flip(hash: Uint8Array, bits: readonly number[]): Uint8Array {
  const out = Uint8Array.from(hash);
  for (const bit of bits) out[bit >> 3] = out[bit >> 3]! ^ (1 << (bit & 7));
  return out;
}

const hashArb = fc.uint8Array({ minLength: 32, maxLength: 32 });

describe('Hamming distance', () => {
  it('counts set bits of 32-bit words', () => {
    expect(popcount32(0)).toBe(0);
    expect(popcount32(0xffffffff)).toBe(32);
    expect(popcount32(0x80000001)).toBe(2);
  });

  it('counts the bits that differ, in bytes and in hex alike', () => {
    fc.assert(
      fc.property(
        hashArb,
        fc.uniqueArray(fc.integer({ min: 0, max: 255 }), { maxLength: 256 }),
        (hash, bits) => {
          const other = flip(hash, bits);
          expect(hammingDistance(hash, other)).toBe(bits.length);
          expect(hammingDistanceHex(pdqToHex(hash), pdqToHex(other))).toBe(bits.length);
        },
      ),
    );
  });

  it('refuses hex that is not 64 digits', () => {
    expect(hammingDistanceHex('abc', '0'.repeat(64))).toBeUndefined();
  });
});

describe('multi-index hashing', () => {
  it('finds exactly what a full scan finds, for any radius', () => {
    fc.assert(
      fc.property(
        fc.array(hashArb, { minLength: 1, maxLength: 40 }),
        fc.array(fc.uniqueArray(fc.integer({ min: 0, max: 255 }), { maxLength: 60 }), { maxLength: 40 }),
        fc.integer({ min: 0, max: 80 }),
        (bases, edits, radius) => {
          const index = new PdqIndex();
          const all: [string, Uint8Array][] = [];
          bases.forEach((base, i) => {
            all.push([`b${i}`, base]);
            index.add(`b${i}`, base);
            const edit = edits[i];
            if (edit) {
              const near = flip(base, edit);
              all.push([`e${i}`, near]);
              index.add(`e${i}`, near);
            }
          });
          const query = flip(bases[0]!, edits[0]?.slice(0, 10) ?? []);
          const expected = all
            .map(([id, h]) => ({ id, distance: hammingDistance(query, h) }))
            .filter((n) => n.distance <= radius)
            .sort((a, b) => a.distance - b.distance || (a.id < b.id ? -1 : 1));
          expect(index.query(query, radius)).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('finds a neighbour 31 bits away whichever bits differ, spread evenly over the segments', () => {
    const base = new Uint8Array(32).map((_, i) => (i * 73) & 0xff);
    const index = new PdqIndex();
    index.add('base', base);
    // Two bits in each of 15 segments and one in the last: every segment differs, none by more than 2.
    const bits: number[] = [];
    for (let s = 0; s < 16; s++) bits.push(s * 16, ...(s < 15 ? [s * 16 + 5] : []));
    const query = flip(base, bits);
    expect(hammingDistance(base, query)).toBe(31);
    expect(index.query(query, 31)).toEqual([{ id: 'base', distance: 31 }]);
    expect(index.query(query, 30)).toEqual([]);
  });

  it('grows past its first capacity and ignores an id added twice', () => {
    const index = new PdqIndex();
    const hashes: Uint8Array[] = [];
    for (let i = 0; i < 3000; i++) {
      const h = new Uint8Array(32);
      new DataView(h.buffer).setUint32(0, i * 2654435761);
      new DataView(h.buffer).setUint32(28, i);
      hashes.push(h);
      index.add(`item-${i}`, h);
    }
    index.add('item-5', new Uint8Array(32));
    expect(index.size).toBe(3000);
    expect(index.has('item-2999')).toBe(true);
    expect(index.query(hashes[2500]!, 0)).toEqual([{ id: 'item-2500', distance: 0 }]);
  });
});
