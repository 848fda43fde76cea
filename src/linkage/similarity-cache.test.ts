import { describe, expect, it } from 'vitest';
import { NameSimilarity, similarityBits } from './similarity-cache.js';
import { NameVocabulary } from './vocabulary.js';

/** Synthetic name forms: letters a–z in base 26, so each number is a distinct name. */
function vocabularyOf(names: number): NameVocabulary {
  const v = new NameVocabulary();
  for (let n = 0; n < names; n++) {
    let form = '';
    for (let x = n + 26 * 26; x > 0; x = Math.floor(x / 26)) form += String.fromCharCode(97 + (x % 26));
    v.intern(form);
  }
  return v;
}

describe('the name similarity table', () => {
  it('grows with the vocabulary, 32 slots a name, from 2^18 to 2^22', () => {
    expect(similarityBits(vocabularyOf(10))).toBe(18);
    expect(similarityBits(vocabularyOf(10_000))).toBe(19);
    expect(similarityBits(vocabularyOf(40_000))).toBe(21);
    expect(similarityBits(vocabularyOf(77_000))).toBe(22);
  });

  it('answers the same whatever its size, remembered or not', () => {
    const v = new NameVocabulary();
    const ids = ['محمد', 'Mohammed', 'أحمد', 'Ahmad', 'العظمة', 'Al-Azmeh', 'Chawache', 'خواخة'].map((n) =>
      v.intern(n),
    );
    const small = new NameSimilarity(v, 2);
    const large = new NameSimilarity(v, 22);
    for (const a of ids) {
      for (const b of ids) {
        const first = large.get(a, b);
        expect(small.get(a, b)).toBe(first);
        expect(large.get(b, a)).toBe(first);
      }
    }
    expect(large.get(ids[0] as number, ids[1] as number)).toBeGreaterThan(0.8);
    expect(large.get(ids[0] as number, ids[4] as number)).toBeLessThan(0.5);
  });
});
