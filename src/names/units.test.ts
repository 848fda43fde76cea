import { describe, expect, it } from 'vitest';
import {
  ARABIC_DROPPED,
  ARABIC_UNWRITTEN,
  BIGRAM_COST,
  FIXED_CROSS,
  FIXED_LATIN_UNWRITTEN,
  LATIN_DROPPED,
  LATIN_UNWRITTEN,
  SUB,
  UNIT_COUNT,
} from './units.js';

// The alignment runs on costs in hundredths (token.ts): every cost must be a multiple of 0.01 in [0, 1], or the
// integer alignment would round it.
const hundredths = (c: number) => Math.abs(c * 100 - Math.round(c * 100)) < 1e-9;

describe('unit costs', () => {
  it('are multiples of 0.01 between 0 and 1', () => {
    for (const table of [SUB, ARABIC_DROPPED, ARABIC_UNWRITTEN, LATIN_DROPPED, LATIN_UNWRITTEN]) {
      for (const c of table) {
        expect(hundredths(c), String(c)).toBe(true);
        expect(c).toBeGreaterThanOrEqual(0);
        expect(c).toBeLessThanOrEqual(1);
      }
    }
    // 9 marks a two-letter transition that cannot stand for a unit.
    for (const c of BIGRAM_COST) expect(hundredths(c) || c === 9, String(c)).toBe(true);
  });

  it('make a symmetric substitution matrix with a zero diagonal', () => {
    for (let x = 0; x < UNIT_COUNT; x++) {
      expect(SUB[x * UNIT_COUNT + x]).toBe(0);
      for (let y = 0; y < x; y++) expect(SUB[x * UNIT_COUNT + y]).toBe(SUB[y * UNIT_COUNT + x]);
    }
  });

  it('keep the costs the fit may not move', () => {
    // bench/names-learn.ts holds these fixed; a stale learned-costs.ts would differ.
    for (const [unit, position, cost] of FIXED_LATIN_UNWRITTEN)
      expect(LATIN_UNWRITTEN[position * UNIT_COUNT + unit]).toBe(cost);
    for (const [arabic, latin, cost] of FIXED_CROSS) expect(SUB[arabic * UNIT_COUNT + latin]).toBe(cost);
  });
});
