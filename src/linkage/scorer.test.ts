import { describe, expect, it } from 'vitest';
import { comparisons } from './comparisons.js';
import { Scorer } from './scorer.js';
import { TermFrequencies } from './term-frequencies.js';
import { compiledShippedModel, featuresOf } from './test-fixtures.js';

describe('term-frequency adjustments', () => {
  it('weigh a variant spelling of a name against exact agreement, not against the variant level again', () => {
    // Records 0–1 agree exactly on a rare family name, 2–3 on a variant spelling of another one (Latin, both).
    const rows = [
      { first_name: 'Khalid', family_name: 'Sakyaya' },
      { first_name: 'Omar', family_name: 'Sakyaya' },
      { first_name: 'Ziad', family_name: 'Sakyayah' },
      { first_name: 'Hani', family_name: 'Sakyaya' },
      ...Array.from({ length: 3000 }, (_, i) => ({ first_name: `Name${i}`, family_name: `Family${i}` })),
    ];
    const f = featuresOf(rows);
    const scorer = new Scorer(f, compiledShippedModel(), TermFrequencies.of(f));
    const familyAt = comparisons.findIndex((c) => c.name === 'family_name');
    const adjustmentOf = (a: number, b: number) => {
      scorer.score(a, b);
      const level = comparisons[familyAt]?.levels[scorer.lastLevels()[familyAt] as number];
      return { level, adjustment: scorer.adjustmentsOfLast(a, b).get(familyAt) };
    };
    const exact = adjustmentOf(0, 1);
    const variant = adjustmentOf(2, 3);
    expect(exact.level).toBe('exact');
    expect(variant.level).toBe('variant');
    // One name key, one frequency: the same adjustment; the variant's lower weight is its level's own.
    expect(variant.adjustment).toBeCloseTo(exact.adjustment as number, 6);
  });
});
