import { describe, expect, it } from 'vitest';
import { policy } from '../../src/access/policies.js';
import { asciiDigits } from '../../web/src/lib/digits.js';
import { fieldLabel, levelLabel, snake } from '../../web/src/lib/fields.js';
import { homeFor, screensFor } from '../../web/src/lib/nav.js';
import { backoffSentence, problemFields, problemSentence } from '../../web/src/lib/problems.js';
import { reasonSentence } from '../../web/src/lib/reasons.js';
import { verdictForKey } from '../../web/src/lib/review-keys.js';
import { waterfallBars } from '../../web/src/lib/waterfall.js';

describe('the review queue keys', () => {
  it('maps m, n and u to the three verdicts, in either case', () => {
    expect(verdictForKey({ key: 'm' })).toBe('match');
    expect(verdictForKey({ key: 'N' })).toBe('non_match');
    expect(verdictForKey({ key: 'u' })).toBe('unsure');
    expect(verdictForKey({ key: 'x' })).toBeNull();
  });

  it('reads the physical key on an Arabic layout', () => {
    expect(verdictForKey({ key: 'ة', code: 'KeyM' })).toBe('match');
    expect(verdictForKey({ key: 'ى', code: 'KeyN' })).toBe('non_match');
  });

  it('ignores keys typed into a field or pressed with a modifier', () => {
    expect(verdictForKey({ key: 'm', targetTag: 'input' })).toBeNull();
    expect(verdictForKey({ key: 'n', targetTag: 'TEXTAREA' })).toBeNull();
    expect(verdictForKey({ key: 'm', ctrlKey: true })).toBeNull();
  });
});

describe('the match-weight waterfall', () => {
  it('floats each step from the running total and ends on the total', () => {
    const bars = waterfallBars({ weight: -10 }, [
      { field: 'first_name', level: 'exact', weight: 6 },
      { field: 'sex', level: 'missing', weight: 0 },
      { field: 'birth_date', level: 'different', weight: -3, tfAdjustment: 0 },
      { field: 'family_name', level: 'exact', weight: 5, tfAdjustment: 1.5 },
    ]);
    expect(bars.map((b) => [b.field, b.range, b.kind])).toEqual([
      ['prior', [0, -10], 'prior'],
      ['first_name', [-10, -4], 'for'],
      ['birth_date', [-4, -7], 'against'],
      ['family_name', [-7, -0.5], 'for'],
      ['total', [0, -0.5], 'total'],
    ]);
  });

  it('accepts the prior as a bare number', () => {
    expect(waterfallBars(2, [])).toHaveLength(2);
  });
});

describe('the menu', () => {
  it('shows each role only the screens its permissions open', () => {
    expect(screensFor(policy.admin).map((s) => s.path)).toEqual([
      '/dashboard',
      '/estimate',
      '/branches',
      '/exports',
      '/audit',
      '/users',
      '/backups',
    ]);
    // Exports open to either permission: investigators ask, admins approve.
    expect(screensFor(policy.investigator).map((s) => s.path)).toContain('/exports');
    expect(screensFor(policy.liaison).map((s) => s.path)).not.toContain('/exports');
    expect(screensFor(policy.liaison).map((s) => s.path)).toContain('/reports');
    expect(screensFor(policy.documenter).map((s) => s.path)).toEqual(
      expect.arrayContaining(['/records/new', '/evidence', '/ingest']),
    );
    expect(screensFor(policy.reviewer).map((s) => s.path)).not.toContain('/reports');
    expect(screensFor(policy.reviewer).map((s) => s.path)).toContain('/review');
    expect(screensFor(policy.liaison).map((s) => s.path)).not.toContain('/review');
    expect(screensFor(policy.documenter).map((s) => s.path)).not.toContain('/audit');
    expect(homeFor([])).toBe('/account');
  });
});

describe('labels and problems', () => {
  it('labels camelCase and snake_case fields alike', () => {
    expect(snake('grandfatherName')).toBe('grandfather_name');
    expect(fieldLabel('firstName')).toBe(fieldLabel('first_name'));
    expect(fieldLabel('unheard_of')).toBe('unheard_of');
    expect(levelLabel('transliteration')).toBe('same name in the other script');
  });

  it('says every problem in plain words and names invalid fields', () => {
    expect(problemSentence('rate_limited')).toMatch(/Too many attempts/);
    // The sign-in back-off says how long to wait (issue 21): seconds, then whole minutes.
    expect(backoffSentence(8)).toEqual({ key: 'Too many attempts. Try again in {{n}} seconds.', count: 8 });
    expect(backoffSentence(290)).toEqual({ key: 'Too many attempts. Try again in {{n}} minutes.', count: 5 });
    expect(problemSentence('no_such_code')).toBe('Something went wrong. Please try again.');
    expect(
      problemFields({ code: 'validation_failed', errors: [{ path: 'body.person.birthDate', message: 'x' }] }),
    ).toEqual(['person.birthDate']);
  });
});

describe('digits typed on an Arabic keyboard', () => {
  it('reach the API as ASCII digits', () => {
    expect(asciiDigits('٢٠١٣-٠٥')).toBe('2013-05');
    expect(asciiDigits('۰۹۹ 123')).toBe('099 123');
  });
});

describe('why a search hit matched', () => {
  it('says a reason from its codes and parameters, the part and reason as keys to translate', () => {
    expect(
      reasonSentence({
        query: 'محمد',
        matched: true,
        part: 'first_name',
        text: 'Mohammad',
        score: 0.93,
        reason: 'same-lexicon-entry',
      }),
    ).toEqual({
      key: '“{{query}}” ≈ {{part}} “{{text}}”: {{reason}} ({{score}})',
      values: {
        query: 'محمد',
        part: 'First name',
        text: 'Mohammad',
        reason: 'two spellings of one name',
        score: 0.93,
      },
    });
    expect(reasonSentence({ query: 'x', matched: false }).key).toBe(
      '“{{query}}” matched no part of the name',
    );
  });
});
