import { describe, expect, it } from 'vitest';
import { comparisons } from './comparisons.js';
import { explainPair } from './explain.js';
import { womanFamilyWeight } from './model.js';
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

describe("a woman's family names", () => {
  it('that differ weigh what the model says for a woman, and the explanation shows it and still adds up', () => {
    const rows = [
      {
        first_name: 'فاطمة',
        father_name: 'حسين',
        family_name: 'السماج',
        birth_year: '1994',
        arrest_date: '2016-04-14',
      },
      { first_name: 'Fatime', family_name: 'Katik', birth_date: '06/04/1994', arrest_date: '18/04/2016' },
      {
        first_name: 'نور',
        father_name: 'حسين',
        family_name: 'السماج',
        birth_year: '1994',
        arrest_date: '2016-04-14',
      },
      { first_name: 'Nour', family_name: 'Katik', birth_date: '06/04/1994', arrest_date: '18/04/2016' },
      {
        first_name: 'Fatime',
        family_name: 'Katik',
        sex: 'M',
        birth_date: '06/04/1994',
        arrest_date: '18/04/2016',
      },
    ];
    const f = featuresOf(rows);
    const model = compiledShippedModel();
    const scorer = new Scorer(f, model, TermFrequencies.of(f));
    const familyAt = comparisons.findIndex((c) => c.name === 'family_name');
    const step = (a: number, b: number) => {
      const e = explainPair(scorer, a, b, 1000);
      const sum =
        e.prior.weight +
        (e.familyLine?.weight ?? 0) +
        e.steps.reduce((s, x) => s + x.weight + (x.termFrequency ?? 0), 0);
      expect(sum).toBeCloseTo(e.total, 2);
      return { step: e.steps[familyAt], bayesFactor: e.bayesFactor };
    };
    const woman = step(0, 1);
    const level = scorer.lastLevels()[familyAt] as number;
    const base = model.model.comparisons[familyAt]?.levels[level - 1];
    expect(woman.step?.level).toBe('transliteration_different_for_a_woman');
    expect(woman.step?.weight).toBeCloseTo(womanFamilyWeight(base?.m ?? 0, base?.u ?? 1), 2);
    // The same two records with a name that is a man's too (نور), or where one says he is a man: the level's weight.
    const unknown = step(2, 3);
    expect(unknown.step?.level).toBe('transliteration_different');
    expect(unknown.step?.weight).toBeCloseTo(model.weight(familyAt, level), 2);
    expect((woman.step?.weight ?? 0) - (unknown.step?.weight ?? 0)).toBeGreaterThan(3);
    expect(step(0, 4).step?.level).toBe('transliteration_different');
    // A woman known by her first name does not count as a sex agreement: her first name already weighs.
    const sexAt = comparisons.findIndex((c) => c.name === 'sex');
    scorer.score(0, 1);
    expect(scorer.lastLevels()[sexAt]).toBe(0);
  });
});
