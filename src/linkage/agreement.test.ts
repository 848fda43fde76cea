import { describe, expect, it } from 'vitest';
import { agreementOfLevel } from './agreement.js';
import { comparisons } from './comparisons.js';

describe('field agreement for reviewers', () => {
  it('reads every level of every comparison, missing as missing', () => {
    for (const c of comparisons) {
      expect(agreementOfLevel(c.levels[0] as string)).toBe('missing');
      for (const level of c.levels)
        expect(['agree', 'partial', 'disagree', 'missing']).toContain(agreementOfLevel(level));
    }
  });

  it.each([
    ['exact', 'agree'],
    ['transliteration', 'agree'],
    ['exact_date', 'agree'],
    ['same_number_same_branch', 'agree'],
    ['similar', 'partial'],
    ['near', 'partial'],
    ['transliteration_near', 'partial'],
    ['within_30_days', 'partial'],
    ['year_off_by_one', 'partial'],
    ['within_two_years', 'partial'],
    ['different', 'disagree'],
    ['transliteration_different', 'disagree'],
    ['different_number_same_branch', 'disagree'],
    ['different_for_a_woman', 'disagree'],
    ['transliteration_different_for_a_woman', 'disagree'],
  ])('%s reads as %s', (level, expected) => {
    expect(agreementOfLevel(level)).toBe(expected);
  });
});
