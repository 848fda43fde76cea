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
  'asch',
  'ad',
  'adh',
  'ar',
  'at',
  'ath',
  'az',
  'an',
  'es',
  'esh',
  'esch',
  'ech',
  'ed',
  'er',
  'et',
  'ez',
  'en',
  'ال',
]);

/** First words that open a compound with the next word (عبد …, أبو …), in matching form. */
export const ABD_WORDS = new Set([
  'abd',
  'abdul',
  'abdel',
  'abdal',
  'abdol',
  'abdu',
  'abdoul',
  'abdil',
  'abed',
  'عبد',
]);
export const ABU_WORDS = new Set(['abu', 'abou', 'abo', 'ابو', 'ابي', 'ابا']);
/** Last words that close a compound with the word before (… الدين, … الله), in matching form. */
export const DIN_WORDS = new Set([
  'din',
  'deen',
  'dine',
  'eddine',
  'eddin',
  'edine',
  'edin',
  'uddin',
  'udin',
  'addin',
  'adin',
  'iddin',
  'oddin',
  'aldin',
  'eldin',
  'uldin',
  'aldeen',
  'eldeen',
  'eddeen',
  'uddeen',
  'الدين',
  'دين',
]);
// With one l too (Abd Alah, Nasr Ulah: lists that write the doubled letter once); not ilah, which is الإله.
export const ALLAH_WORDS = new Set([
  'allah',
  'ullah',
  'illah',
  'ollah',
  'alla',
  'ulla',
  'lah',
  'alah',
  'ulah',
  'olah',
  'الله',
]);
/** Ottoman titles that follow a family name and are often left out (Mardam Bey, مردم بك, Azm Pasha). */
export const TITLE_WORDS = new Set([
  'bey',
  'bek',
  'beg',
  'beik',
  'pasha',
  'basha',
  'agha',
  'aga',
  'effendi',
  'afandi',
  'بك',
  'بيك',
  'باشا',
  'اغا',
  'افندي',
]);
const LATIN_GLUED_TITLE = /^([a-z]{5,}?)(?:bey|bek|beg|pasha)$/;

const LATIN_INNER_ARTICLE = /^[aeiou]?l(?=[a-z]{2})/;
const LATIN_ASSIMILATED = /^[aeiou](?=([b-df-hj-np-tv-z])\1)/;
// "Abdurahman", "Abdusalam": a linking vowel before a sun letter, when what follows is a whole name.
const LATIN_LINKING_VOWEL = /^[aeiou](?=[tdrzsnl][a-z]{4})/;

function stripLatinInnerArticle(rest: string): string {
  if (LATIN_INNER_ARTICLE.test(rest)) return rest.replace(LATIN_INNER_ARTICLE, '');
  if (LATIN_ASSIMILATED.test(rest)) return rest.replace(LATIN_ASSIMILATED, '');
  return rest.replace(LATIN_LINKING_VOWEL, '');
}

const LATIN_DIN_GLUED = /^([a-z]{2,}?)(?:[aeiou]l|[aeiou])d{1,2}(?:i|ee|e)n{1,2}e?$/;
const LATIN_ALLAH_GLUED = /^([a-z]{2,}?)(?:[aeiou]l|[aeiou])?(?:ullah?|allah?|illah?|ollah?)$/;
const LATIN_ABU_ARTICLE = /^(abu|abou|abo)(?=[aeiou]?l[b-df-hj-np-tv-z][a-z]{2})/;

/**
 * Joins the words of one name part into its canonical compact spelling. `words` are matching-form words (already
 * normalised). Article words are dropped; a compound keeps its prefix or suffix in one fixed spelling.
 */
export function canonicalPart(words: readonly string[]): string {
  const kept: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as string;
    if (w === '' || (i < words.length - 1 && ARTICLE_WORDS.has(w))) continue;
    if (i > 0 && TITLE_WORDS.has(w)) continue;
    kept.push(w);
  }
  if (kept.length === 0) return '';
  const first = kept[0] as string;
  const code = first.charCodeAt(0);
  if (code >= 0x600 && code <= 0x6ff) return canonicalArabic(kept.join(''));
  if (kept.length > 1) {
    // Written apart, the compound's pieces are plain: "Abdul Rahman", "Abd al-Aziz", "Nour Eddine", "Nasr Allah".
    const rest = kept.slice(1).join('');
    if (ABD_WORDS.has(first)) return ALLAH_WORDS.has(rest) ? 'abdlah' : `abd${rest}`;
    if (ABU_WORDS.has(first)) return `abu${rest}`;
    const last = kept[kept.length - 1] as string;
    const head = kept.slice(0, -1).join('');
    if (DIN_WORDS.has(last)) return `${head}din`;
    if (ALLAH_WORDS.has(last)) return `${head}lah`;
  }
  return canonicalLatin(kept.join(''));
}

/**
 * The other reading of a Latin عبد … compound whose article runs into the name, for the lexicon fit only (token.ts):
 * a name beginning with l is often written with one l for the article and the name (Abdelatif, Abdulatif: Abd
 * al-Latif), and an article before a vowel sometimes with two (Abdellilah: Abd al-Ilah). `canonicalPart` keeps one
 * reading (abd + atif, abd + lilah); this returns the other (abd + latif, abd + ilah), or '' when there is none.
 */
export function otherReading(words: readonly string[], canonical: string): string {
  if (!canonical.startsWith('abd')) return '';
  const m = ABD_ARTICLE_RUN.exec(words.filter((w) => !ARTICLE_WORDS.has(w) || w.endsWith('l')).join(''));
  if (!m) return '';
  const tail = m[1] as string;
  const withL = `abdl${tail}`;
  const without = `abd${tail}`;
  if (canonical === withL) return without;
  if (canonical === without) return withL;
  return '';
}
/** abd, an article vowel, one or two l, then a name of three letters or more beginning with a vowel. */
const ABD_ARTICLE_RUN = /^abd[aeiou]?l{1,2}([aeiou][a-z]{2,})$/;

/** عبد الله glued, also with one l (Abdalah, Abdulah, Abdallah). */
const LATIN_ABDALLAH = /^abd[aeiou]l{1,2}ah?$/;

function canonicalLatin(j: string): string {
  if (LATIN_ABDALLAH.test(j)) return 'abdlah';
  if (j.startsWith('abd') && j.length >= 6) return `abd${stripLatinInnerArticle(j.slice(3))}`;
  const abu = LATIN_ABU_ARTICLE.exec(j);
  if (abu) return `abu${stripLatinInnerArticle(j.slice((abu[1] as string).length))}`;
  const din = LATIN_DIN_GLUED.exec(j);
  if (din) return `${din[1]}din`;
  const allah = LATIN_ALLAH_GLUED.exec(j);
  if (allah) return `${allah[1]}lah`;
  // A glued article assimilated to a sun letter ("Errifai", "Essibai", "Assabbagh") is written as "al".
  const sun = LATIN_SUN_ARTICLE.exec(j);
  if (sun) return `al${j.slice(2)}`;
  const title = LATIN_GLUED_TITLE.exec(j);
  if (title) return title[1] as string;
  return j;
}

const LATIN_SUN_ARTICLE = /^(?:e([tdrzsnl])\1(?=[a-z]{4})|a([tdrzsnl])\2(?=[a-z]{5}))/;

function canonicalArabic(j: string): string {
  // عبد الله typed with one lam (عبداله, عبد اله; عبدالة once ة is folded): no other name is written so.
  if (j === 'عبداله') return 'عبدله';
  if (j.startsWith('عبد') && j.length >= 5) return `عبد${stripArabicArticle(j.slice(3))}`;
  if (j.startsWith('ابو') && j.length >= 6 && j.slice(3).startsWith('ال')) return `ابو${j.slice(5)}`;
  if (j.length >= 7 && j.endsWith('الدين')) return `${j.slice(0, -5)}دين`;
  if (j.length >= 6 && j.endsWith('الله')) {
    // One lam when the head ends in one (فضل الله → فضله), as the Latin spelling's doubled l reads as one.
    const head = j.slice(0, -4);
    return head.endsWith('ل') ? `${head}ه` : `${head}له`;
  }
  return j;
}

function stripArabicArticle(rest: string): string {
  return rest.startsWith('ال') && rest.length >= 4 ? rest.slice(2) : rest;
}

// Names that begin with ال / el without it being the article (Ilyas, Ilham, Olfat).
const NOT_ARTICLE = new Set(['الياس', 'الهام', 'الفت', 'اليسار', 'الين', 'اليسا', 'elham', 'alham']);

/**
 * The length of a glued article at the start of a canonical part ("almasri", "alaswad", "المصري", "الاسود"), or
 * 0: at least three letters must follow, and a vowel after Latin al/el only counts when four letters follow (Ali,
 * Alaa, Elias keep their letters).
 */
export function gluedArticleLength(canonical: string): number {
  if (canonical.length >= 5 && canonical.startsWith('ال')) return NOT_ARTICLE.has(canonical) ? 0 : 2;
  if (canonical.length >= 5 && (canonical.startsWith('al') || canonical.startsWith('el'))) {
    if (NOT_ARTICLE.has(canonical)) return 0;
    const vowel = /[aeiouy]/.test(canonical[2] as string);
    return vowel && canonical.length < 6 ? 0 : 2;
  }
  return 0;
}
