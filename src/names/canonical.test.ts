import { describe, expect, it } from 'vitest';
import { canonicalPart, otherReading } from './canonical.js';
import { TOKEN_MATCH_THRESHOLD, tokenSimilarity } from './index.js';

const read = (text: string) => {
  const words = text.split(' ');
  const canonical = canonicalPart(words);
  return [canonical, otherReading(words, canonical)];
};

describe('otherReading (an article running into a عبد … name)', () => {
  it.each([
    // One l for the article and a name beginning with l (Abd al-Latif).
    ['abdulatif', 'abdatif', 'abdlatif'],
    ['abdalatif', 'abdatif', 'abdlatif'],
    ['abdel atif', 'abdatif', 'abdlatif'],
    ['abd el atif', 'abdatif', 'abdlatif'],
    // Two l for the article before a vowel (Abd al-Ilah).
    ['abdullilah', 'abdlilah', 'abdilah'],
    // Both readings are offered either way; the lexicon fit keeps the one that fits.
    ['abdellatif', 'abdlatif', 'abdatif'],
    ['abdelaziz', 'abdaziz', 'abdlaziz'],
    // No article run, a name too short to be one, or no عبد: no other reading.
    ['abdrahman', 'abdrahman', ''],
    ['abdallah', 'abdlah', ''],
    // عبد الله with the doubled l written once, apart or glued: not abd + ah.
    ['abd alah', 'abdlah', ''],
    ['abdalah', 'abdlah', ''],
    ['abdulah', 'abdlah', ''],
    // عبد الله typed with one lam.
    ['عبداله', 'عبدله', ''],
    ['عبد اله', 'عبدله', ''],
    ['nasr alah', 'nasrlah', ''],
    // الإله is another name.
    ['abdulilah', 'abdilah', 'abdlilah'],
    ['khalil', 'khalil', ''],
    ['عبداللطيف', 'عبدلطيف', ''],
  ])('%s reads as %s, else as %s', (text, canonical, other) => {
    expect(read(text)).toEqual([canonical, other]);
  });

  it.each([
    ['عبد اللطيف', 'Abdulatif'],
    ['Abdellatif', 'Abdalatif'],
    ['عبد الإله', 'Abdullilah'],
  ])('lets the lexicon fit read %s and %s as one name', (a, b) => {
    expect(tokenSimilarity(a, b)).toBeGreaterThanOrEqual(TOKEN_MATCH_THRESHOLD);
  });

  it.each([
    ['عبد العزيز', 'Abdulatif'],
    ['Abdelaziz', 'Abdulatif'],
  ])('does not make %s and %s one name', (a, b) => {
    expect(tokenSimilarity(a, b)).toBeLessThan(TOKEN_MATCH_THRESHOLD);
  });
});
