import { describe, expect, it } from 'vitest';
import { isListed } from '../names/lexicon.js';
import { lexiconUserWords } from './user-words.js';

describe('the lexicon as user words for the OCR engine', () => {
  it('lists the lexicon’s Arabic names word by word, family names also with the article, and nothing else', () => {
    const words = lexiconUserWords();
    expect(words).toContain('محمد');
    expect(words).toContain('عبد'); // compounds are split into words
    expect(words).toContain('حلبي');
    expect(words).toContain('الحلبي');
    expect(words.every((w) => /^[\u0621-\u064a\u0671-\u06d3]+$/u.test(w))).toBe(true);
    expect(new Set(words).size).toBe(words.length);
    // Names the lexicon does not list are not in it (the test pages' unlisted names rely on that).
    expect(words).not.toContain('شتيوي');
    expect(isListed('شتيوي')).toBe(false);
  });
});
