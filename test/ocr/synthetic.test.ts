import { describe, expect, it } from 'vitest';
import { isListed } from '../../src/names/lexicon.js';
import { pageSample, unlistedFamily, unlistedGiven } from './synthetic.js';

describe('SYNTHETIC registry pages: names the lexicon does not list', () => {
  it('keeps the rare-name pools out of the lexicon', () => {
    expect([...unlistedGiven, ...unlistedFamily].filter((n) => isListed(n))).toEqual([]);
  });

  it('draws at least half of a page’s names with no part listed, and the rest from listed names', async () => {
    for (const seed of [300, 301, 1300]) {
      const page = await pageSample(seed, { handwritten: false });
      const unlisted = page.rows.filter((r) => !r.listed);
      expect(unlisted.length).toBeGreaterThanOrEqual(page.rows.length / 2);
      for (const row of unlisted) expect(row.name.split(' ').filter((w) => isListed(w))).toEqual([]);
      // Listed rows: every word listed ('عبد الله' is two words, both listed as a compound's parts or alone).
      for (const row of page.rows.filter((r) => r.listed))
        expect(isListed(row.name.split(' ')[0]!)).toBe(true);
    }
  });

  it('keeps the common pages the recorded fixtures were read from', async () => {
    const page = await pageSample(200, { handwritten: false, names: 'common' });
    expect(page.rows.every((r) => r.listed)).toBe(true);
  });
});
