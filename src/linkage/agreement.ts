import { type Explanation, forAWoman } from './explain.js';

export type Agreement = 'agree' | 'partial' | 'disagree' | 'missing';

const agreeing = new Set([
  'exact',
  'variant',
  'transliteration',
  'same',
  'same_day',
  'exact_date',
  // One side gives only the year (or month), and it is the other's: as much agreement as the records allow.
  'same_year',
  'same_month',
  'full_agrees',
  'same_number_same_branch',
  'same_number',
]);
const disagreeing = new Set(['different', 'transliteration_different', 'different_number_same_branch']);

/** How a comparison level reads to a reviewer: agree, partial (close but not the same), disagree, or missing. */
export function agreementOfLevel(level: string): Agreement {
  // A woman's family names that differ still differ: only their weight is milder.
  if (level.endsWith(forAWoman)) return agreementOfLevel(level.slice(0, -forAWoman.length));
  if (level === 'missing') return 'missing';
  if (agreeing.has(level)) return 'agree';
  if (disagreeing.has(level)) return 'disagree';
  return 'partial';
}

/** The waterfall as the review screen draws it: prior, each field's step, total and probability. */
export interface ReviewExplanation {
  prior: number;
  steps: { field: string; level: string; weight: number; tfAdjustment?: number }[];
  total: number;
  probability: number;
}

export function reviewExplanation(e: Explanation): ReviewExplanation {
  const steps: ReviewExplanation['steps'] = [];
  if (e.familyLine) steps.push({ field: 'family_line', level: 'agrees', weight: e.familyLine.weight });
  for (const s of e.steps) {
    steps.push({
      field: s.comparison,
      level: s.level,
      weight: s.weight,
      ...(s.termFrequency === undefined ? {} : { tfAdjustment: s.termFrequency }),
    });
  }
  return { prior: e.prior.weight, steps, total: e.total, probability: e.probability };
}

/** Each field's agreement, from the explanation's levels. */
export function fieldAgreement(e: Explanation): Record<string, Agreement> {
  return Object.fromEntries(e.steps.map((s) => [s.comparison, agreementOfLevel(s.level)]));
}

/** Whether a stored explanation has the waterfall's shape (older or synthetic rows may not). */
export function isExplanation(value: unknown): value is Explanation {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<Explanation>;
  return (
    Array.isArray(v.steps) &&
    typeof v.total === 'number' &&
    typeof v.probability === 'number' &&
    typeof v.prior === 'object' &&
    v.steps.every((s) => typeof s?.comparison === 'string' && typeof s.level === 'string')
  );
}
