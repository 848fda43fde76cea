import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  clean,
  compareTokens,
  detectScript,
  explainSimilarity,
  keys,
  normalize,
  parse,
  prepareToken,
  similarity,
  tokenKey,
  tokenSimilarity,
} from './index.js';

// Name-like text: Arabic letters, hamza forms and marks, Latin letters with accents, separators, the odd
// invisible or control character — plus fully arbitrary UTF-16 units (lone surrogates included).
const nameChars = [
  ...'ابتثجحخدذرزسشصضطظعغفقكلمنهويءأإآؤئىةپچژگکی',
  ...'\u064b\u064e\u064f\u0650\u0651\u0652\u0640\u0670',
  ...'abcdefghijklmnopqrstuvwxyzAEIMOSZéèüçñʿʾ',
  ..." -'.,،_",
  '\u200f',
  '\u200b',
  '\u0000',
  '\t',
];
const nameLike = fc.string({ unit: fc.constantFrom(...nameChars), maxLength: 40 });
const anyUnits = fc.string({
  unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
  maxLength: 30,
});
const text = fc.oneof(nameLike, nameLike, anyUnits, fc.string({ unit: 'binary', maxLength: 20 }));

const runs = { numRuns: Number(process.env.NAMES_RUNS ?? 300) };

// Arabic letters, hamza forms, marks, tatweel and spaces: text that may or may not take normalize's plain-Arabic path.
const arabicLike = fc.string({
  unit: fc.constantFrom(...'ابتجحدرسعفقكلمنهويءأإآؤئىةٱ', '\u064e', '\u0651', '\u0640', '\u0654', ' ', '  '),
  maxLength: 30,
});

describe('properties', () => {
  it('normalizes Arabic text as it does with a Latin word beside it (the plain-Arabic path agrees with the general one)', () => {
    fc.assert(
      fc.property(arabicLike, (t) => {
        const alone = normalize(t);
        expect(normalize(`x ${t}`)).toBe(alone === '' ? 'x' : `x ${alone}`);
        expect(clean(`x ${t}`)).toBe(clean(t) === '' ? 'x' : `x ${clean(t)}`);
        expect(detectScript(`x ${t}`)).toBe(detectScript(t) === 'ar' ? 'mixed' : 'latn');
      }),
      { numRuns: Number(process.env.NAMES_RUNS ?? 2000) },
    );
  });

  it('normalize is idempotent, and clean too', () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(normalize(normalize(t))).toBe(normalize(t));
        expect(clean(clean(t))).toBe(clean(t));
      }),
      runs,
    );
  });

  it('full-name similarity is symmetric and in [0, 1]', () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        const s = similarity(a, b);
        expect(s).toBeGreaterThanOrEqual(0);
        expect(s).toBeLessThanOrEqual(1);
        expect(similarity(b, a)).toBe(s);
      }),
      runs,
    );
  });

  it('full-name similarity is 1 for identical input with letters or digits', () => {
    fc.assert(
      fc.property(text, (a) => {
        fc.pre(normalize(a) !== '');
        expect(similarity(a, a)).toBe(1);
      }),
      runs,
    );
  });

  it('token similarity is symmetric, in [0, 1], and 1 for identical input with letters or digits', () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        const s = tokenSimilarity(a, b);
        expect(s).toBeGreaterThanOrEqual(0);
        expect(s).toBeLessThanOrEqual(1);
        expect(tokenSimilarity(b, a)).toBe(s);
        if (normalize(a) !== '') expect(compareTokens(prepareToken(a), prepareToken(a))).toBe(1);
      }),
      runs,
    );
  });

  it('never throws on any input', () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        detectScript(a);
        parse(a);
        keys(a);
        tokenKey(a);
        explainSimilarity(a, b);
      }),
      runs,
    );
  });
});

describe('bad input', () => {
  const long = 'محمد Mohammad '.repeat(800);
  it.each([
    ['empty', ''],
    ['punctuation only', '.,;:!? -- ،؛؟'],
    ['mixed scripts in one token', 'Moحمد'],
    ['10,000 characters', long.slice(0, 10_000)],
    ['control characters', '\u0000\u0001\u0007\u001b\u007f'],
    ['unpaired surrogates', '\ud800\udfff\ud83d'],
    ['bidi controls only', '\u200e\u200f\u202a\u202e\u2066\u2069'],
  ])('gives defined results for %s', (_case, input) => {
    expect(typeof normalize(input)).toBe('string');
    expect(typeof clean(input)).toBe('string');
    expect(['ar', 'latn', 'mixed', 'none']).toContain(detectScript(input));
    const parsed = parse(input);
    expect(Array.isArray(parsed.given)).toBe(true);
    expect(parsed.confidence).toBeGreaterThanOrEqual(0);
    expect(Array.isArray(keys(input))).toBe(true);
    for (const s of [
      similarity(input, 'محمد أحمد'),
      tokenSimilarity(input, 'Ahmad'),
      similarity(input, input),
    ]) {
      expect(s).toBeGreaterThanOrEqual(0);
      expect(s).toBeLessThanOrEqual(1);
    }
  });

  it('scores letterless input 0 against anything', () => {
    for (const input of ['', '.,;!', '\u0000\u0007', '\ud800']) {
      expect(similarity(input, 'Mohammad')).toBe(0);
      expect(tokenSimilarity(input, 'Mohammad')).toBe(0);
      expect(parse(input).given).toEqual([]);
    }
  });
});
