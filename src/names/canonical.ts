/**
 * The canonical spelling of one name part before it is turned into sound units: article words dropped, compounds
 * (عبد …, أبو …, … الدين, … الله) joined with their inner article removed, so that "Abd al-Rahman", "Abdulrahman",
 * "Abderrahmane", "عبد الرحمن" and "عبدالرحمن" all reduce to abd + rahman / عبد + رحمن.
 */

/** Latin and Arabic article words when written apart ("al Masri", "ash-Shami" → "ash shami", "ال مصري"). */
export const ARTICLE_WORDS = new Set([
  'al',
  'el',
  'ul',
  'il',
  'as',
  'ash',
  'ad',
  'adh',
  'ar',
  'at',
  'ath',
  'az',
  'an',
  'es',
  'esh',
  'ed',
  'er',
  'et',
  'ez',
  'en',
  'ال',
]);

const LATIN_INNER_ARTICLE = /^[aeiou]?l(?=[a-z]{2})/;
const LATIN_ASSIMILATED = /^[aeiou](?=([b-df-hj-np-tv-z])\1)/;
const LATIN_LINKING_VOWEL = /^[aeiou](?=[b-df-hj-np-tv-z])/;

function stripLatinInnerArticle(rest: string): string {
  if (LATIN_INNER_ARTICLE.test(rest)) return rest.replace(LATIN_INNER_ARTICLE, '');
  if (LATIN_ASSIMILATED.test(rest)) return rest.replace(LATIN_ASSIMILATED, '');
  return rest.replace(LATIN_LINKING_VOWEL, '');
}

const LATIN_DIN = /^([a-z]{2,}?)(?:[aeiou]?l|[aeiou])?d{1,2}(?:i|ee|e)n{1,2}e?$/;
const LATIN_DIN_GLUED = /(?:[aeiou]l|[aeiou])d{1,2}(?:i|ee|e)n{1,2}e?$/;
const LATIN_ALLAH = /^([a-z]{2,}?)(?:[aeiou]?l|[aeiou])?(?:ll?ah?)$/;
const LATIN_ALLAH_GLUED = /(?:ullah?|allah?|illah?|ollah?)$/;
const LATIN_ABU = /^(abu|abou|abo)(?=[aeiou]?l[b-df-hj-np-tv-z][a-z]{2})/;

/**
 * Joins the words of one name part into its canonical compact spelling. `words` are matching-form words (already
 * normalised). Returns the canonical string and whether it starts with a glued article ("almasri", "المصري").
 */
export function canonicalPart(words: readonly string[]): string {
  const kept: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as string;
    if (i < words.length - 1 && ARTICLE_WORDS.has(w)) continue;
    kept.push(w);
  }
  const joined = kept.join('');
  if (joined === '') return '';
  const arabic = joined.charCodeAt(0) >= 0x600 && joined.charCodeAt(0) <= 0x6ff;
  return arabic ? canonicalArabic(joined, kept.length > 1) : canonicalLatin(joined, kept.length > 1);
}

function canonicalLatin(j: string, spaced: boolean): string {
  if (j.startsWith('abd') && j.length >= 6) return `abd${stripLatinInnerArticle(j.slice(3))}`;
  const abu = LATIN_ABU.exec(j);
  if (abu) return `abu${stripLatinInnerArticle(j.slice((abu[1] as string).length))}`;
  if (spaced || LATIN_DIN_GLUED.test(j)) {
    const din = LATIN_DIN.exec(j);
    if (din) return `${din[1]}din`;
  }
  if (spaced || LATIN_ALLAH_GLUED.test(j)) {
    const allah = LATIN_ALLAH.exec(j);
    if (allah) return `${allah[1]}lah`;
  }
  return j;
}

function canonicalArabic(j: string, _spaced: boolean): string {
  if (j.startsWith('عبد') && j.length >= 5) return `عبد${stripArabicArticle(j.slice(3))}`;
  if (j.startsWith('ابو') && j.length >= 6 && j.slice(3).startsWith('ال')) return `ابو${j.slice(5)}`;
  if (j.length >= 7 && j.endsWith('الدين')) return `${j.slice(0, -5)}دين`;
  if (j.length >= 6 && j.endsWith('الله')) return `${j.slice(0, -4)}له`;
  return j;
}

function stripArabicArticle(rest: string): string {
  return rest.startsWith('ال') && rest.length >= 4 ? rest.slice(2) : rest;
}

/** Whether a canonical part starts with a glued article that may be dropped ("almasri", "المصري"); its length. */
export function gluedArticleLength(canonical: string): number {
  if (canonical.length >= 5 && canonical.startsWith('ال')) {
    const third = canonical[2] as string;
    return third === 'ا' || third === 'و' || third === 'ي' ? 0 : 2;
  }
  if (canonical.length >= 5 && (canonical.startsWith('al') || canonical.startsWith('el'))) {
    return /[aeiouy]/.test(canonical[2] as string) ? 0 : 2;
  }
  return 0;
}
