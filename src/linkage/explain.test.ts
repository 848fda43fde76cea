import { describe, expect, it } from 'vitest';
import { explainPair, formatExplanation } from './explain.js';
import { log2Odds } from './model.js';
import { Scorer } from './scorer.js';
import { TermFrequencies } from './term-frequencies.js';
import { compiledShippedModel, featuresOf } from './test-fixtures.js';

describe('explanations', () => {
  const rows = [
    {
      first_name: 'محمد',
      father_name: 'أحمد',
      family_name: 'الحلبي',
      birth_date: '1982-04-11',
      governorate: 'حلب',
      arresting_branch: 'فرع فلسطين',
      arrest_date: '14/11/2013',
    },
    {
      full_name: 'Mohammad Ahmad Al-Halabi',
      birth_year: '1982',
      governorate: 'Aleppo',
      arresting_branch: 'Branch 235',
      arrest_date: '2013',
    },
    { first_name: 'خالد', family_name: 'العمر', birth_year: '1970' },
  ];
  const f = featuresOf(rows);
  const scorer = new Scorer(f, compiledShippedModel(), TermFrequencies.of(f));

  it('adds up: prior, family line, each field and its adjustment give the total and the probability', () => {
    const e = explainPair(scorer, 0, 1, 1000);
    const sum =
      e.prior.weight +
      (e.familyLine?.weight ?? 0) +
      e.steps.reduce((s, step) => s + step.weight + (step.termFrequency ?? 0), 0);
    expect(sum).toBeCloseTo(e.total, 2);
    expect(e.steps.at(-1)?.cumulative).toBeCloseTo(e.total, 2);
    expect(log2Odds(e.probability)).toBeCloseTo(e.total, 2);
    expect(e.recordA).toBe('r0');
    expect(e.steps.find((s) => s.comparison === 'first_name')).toMatchObject({
      level: 'transliteration',
      valueA: 'محمد',
      valueB: 'mohammad',
    });
    expect(e.steps.find((s) => s.comparison === 'arresting_branch')?.level).toBe('same');
    // An arrest year against the full date of that year: agreement on what both know, evidence for.
    const arrest = e.steps.find((s) => s.comparison === 'arrest_date');
    expect(arrest).toMatchObject({ level: 'same_year', valueA: '2013-11-14', valueB: '2013' });
    expect(arrest?.weight).toBeGreaterThan(0);
  });

  it('scores the same person above two different people', () => {
    expect(explainPair(scorer, 0, 1, 1000).probability).toBeGreaterThan(
      explainPair(scorer, 0, 2, 1000).probability,
    );
  });

  it('prints a readable waterfall', () => {
    const text = formatExplanation(explainPair(scorer, 0, 1, 1000));
    expect(text).toContain('prior');
    expect(text).toContain('first_name');
    expect(text).toMatch(/arrest_date.*same_year/);
    expect(text).toMatch(/match probability \d\.\d{4}/);
  });
});
