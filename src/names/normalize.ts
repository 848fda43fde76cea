/**
 * Unicode hygiene (`clean`, the display form) and the matching form (`normalize`): what every comparison of names
 * starts from. Both are total: any string, including unpaired surrogates and control characters, gives a string.
 */

export type Script = 'ar' | 'latn' | 'mixed' | 'none';

const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
// Arabic presentation forms, fullwidth Latin and Latin ligatures: the only places NFKC is applied, so that
// compatibility folding never rewrites ordinary letters (e.g. superscripts in foreign text stay as they are).
const COMPATIBILITY = /[\ufb00-\ufb06\ufb50-\ufdf9\ufe70-\ufefc\uff01-\uff5e]+/g;
// Honorific ligatures (ﷺ …) expand to whole phrases: they are not part of a name.
const HONORIFICS = /[\ufdfa-\ufdfd]/g;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
/**
 * Arabic letters (no marks, no tatweel) in words one space apart: what most Arabic names are. Such text is already
 * clean (nothing to remove, NFC-stable) and folds by the letter map alone, so it takes a fast path with the same
 * result: a million records carry several names each.
 */
const PLAIN_ARABIC = /^[\u0621-\u063f\u0641-\u064a]+(?: [\u0621-\u063f\u0641-\u064a]+)*$/;

const HYGIENE: Record<string, string> = { ک: 'ك', ی: 'ي', ۀ: 'ة', ہ: 'ه', ھ: 'ه', ۃ: 'ة' };
for (let d = 0; d < 10; d++) {
  HYGIENE[String.fromCharCode(0x660 + d)] = String(d);
  HYGIENE[String.fromCharCode(0x6f0 + d)] = String(d);
}
for (const ws of '\t\n\v\f\r\u0085\u2028\u2029\u00a0') HYGIENE[ws] = ' ';
/**
 * Everything hygiene rewrites, in one pass: whitespace controls (→ space), Arabic-Indic and Persian digits,
 * Persian letters (mapped by HYGIENE); bidi controls, zero-width characters, BOM, soft hyphen, tatweel, tashkeel,
 * superscript alef, Quranic marks and every other control, format, private-use or unassigned character (removed).
 */
const HYGIENE_CHARS =
  /[\u0660-\u0669\u06f0-\u06f9\u06a9\u06cc\u06c0\u06c1\u06be\u06c3\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u0610-\u061a\u0640\u064b-\u065f\u0670\u06d6-\u06ed\u08d3-\u08ff\p{Cc}\p{Cf}\p{Co}\p{Cn}]/gu;

/**
 * Unicode hygiene only, for display: NFC; invisible bidi and zero-width characters, tatweel, tashkeel, Quranic
 * marks and control characters removed; Arabic-Indic and Persian digits to ASCII; Persian ک ی to ك ي; whitespace
 * collapsed. Letters, hamza forms, case and punctuation are kept.
 */
export function clean(text: string): string {
  if (typeof text !== 'string' || text.length === 0) return '';
  if (PRINTABLE_ASCII.test(text)) return text.replace(/ {2,}/g, ' ').trim();
  if (PLAIN_ARABIC.test(text)) return text;
  let s = text;
  if (/[\ud800-\udfff]/.test(s)) s = s.replace(UNPAIRED_SURROGATE, '');
  if (/[\ufb00-\uffef]/.test(s))
    s = s.replace(HONORIFICS, ' ').replace(COMPATIBILITY, (m) => m.normalize('NFKC'));
  s = s.normalize('NFC');
  // What goes can leave marks side by side that NFC orders or joins (e, a zero-width space, an acute accent): once
  // more, so that clean is idempotent.
  s = s.replace(HYGIENE_CHARS, (c) => HYGIENE[c] ?? '').normalize('NFC');
  return s.replace(/[\s\u00a0]+/gu, ' ').trim();
}

const ARABIC_FOLD: Record<string, string> = {
  أ: 'ا',
  إ: 'ا',
  آ: 'ا',
  ٱ: 'ا',
  ى: 'ي',
  ة: 'ه',
  ؤ: 'و',
  ئ: 'ي',
};
const LATIN_SPECIAL: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
  ħ: 'h',
};
// Apostrophes and the letters used for ʿayn and hamza in transliteration vanish inside a word.
const APOSTROPHES = /['`´ʹʻʼʽʾʿˈ‘’‛′]/g;
/** The Persian letters `clean` writes in Arabic (HYGIENE). */
const PERSIAN_LETTERS = /[کیۀہھۃ]/g;
/** The hamza forms, alif maqsura and tā' marbūṭa that the matching form folds (ARABIC_FOLD). */
const MATCHING_LETTERS = /[أإآٱىةؤئ]/g;

/**
 * The matching form: `clean`, then Arabic folding (أ إ آ ٱ → ا, ى → ي, ة → ه, ؤ → و, ئ → ي), Latin folding (lower
 * case, diacritics removed, ß æ ø … spelled out, apostrophes and ʿ ʾ dropped) and every other non-letter, non-digit
 * run (hyphens, dots, commas, Arabic punctuation) to one space. Idempotent.
 */
export function normalize(text: string): string {
  const cleaned = clean(text);
  if (PLAIN_ARABIC.test(cleaned)) return cleaned.replace(MATCHING_LETTERS, (c) => ARABIC_FOLD[c] ?? c);
  return fold(cleaned, ARABIC_FOLD, MATCHING_LETTERS);
}

const SOUND_FOLD: Record<string, string> = { ...ARABIC_FOLD, ى: 'ى', ئ: 'ئ' };

/**
 * The matching form with alif maqsura (ى) and yā' hamza (ئ) kept: sound units read a final ى as an "a" (هدى Huda,
 * موسى Musa) where ي is an "i", and ئ as the glottal "e/i" of رائد Raed; letters whose mark carries the sound
 * read by it (`spellMarkedLetters`). Not a matching form on its own.
 */
export function normalizeForSounds(text: string): string {
  return fold(spellMarkedLetters(clean(text)), SOUND_FOLD, /[أإآٱةؤ]/g);
}

/**
 * Letters whose mark carries the sound, which stripping the mark would lose:
 * - French ç before a, o, u is an s (Fayçal); elsewhere ç is the ch of Turkish and Kurdish spellings (Çiya), as ş
 *   (and Romanian ș) is their sh;
 * - Turkish ğ stands for غ (Nabiğ / نبغ), as does the scholarly ġ: a bare g is as often ج or ق;
 * - the scholarly transliterations of Arabic (DIN 31635, ISO 233, ALA-LC; in court files, academic lists and
 *   encyclopaedias) write ش š, خ ḫ (ḵ, ẖ), ث ṯ and ذ ḏ; ž is the zh of Slavic spellings. Their other marked
 *   letters (ḥ ṣ ḍ ṭ ẓ ǧ ā ī ū) lose nothing when the mark goes.
 */
const SOUND_OF: Record<string, string> = {
  ç: 'ch',
  ş: 'sh',
  ș: 'sh',
  ğ: 'gh',
  ġ: 'gh',
  š: 'sh',
  ḫ: 'kh',
  ẖ: 'kh',
  ḵ: 'kh',
  ṯ: 'th',
  ḏ: 'dh',
  ž: 'zh',
};
/** A ç before a, o or u (captured), or any letter of SOUND_OF in either case. */
const MARKED_SOUND = new RegExp(
  `([çÇ])(?=[aouAOU])|[${Object.keys(SOUND_OF)
    .map((c) => c + c.toUpperCase())
    .join('')}]`,
  'g',
);

/**
 * The text with the letters whose mark carries a sound spelt out (Fayçal → Faysal, Hişam → Hisham, šamsī →
 * shamsī), the rest as it was: for a caller that folds marks away afterwards (the sound form below; linkage's
 * matching forms).
 */
export function spellMarkedLetters(text: string): string {
  return text.replace(MARKED_SOUND, (letter, cedillaBeforeVowel: string | undefined) =>
    cedillaBeforeVowel ? 's' : (SOUND_OF[letter.toLowerCase()] ?? letter),
  );
}

function fold(cleaned: string, arabic: Record<string, string>, letters: RegExp): string {
  if (cleaned === '') return '';
  if (PRINTABLE_ASCII.test(cleaned)) {
    return cleaned
      .toLowerCase()
      .replace(/['`]/g, '')
      .replace(/[^a-z0-9]+/g, ' ')
      .trim();
  }
  let s = cleaned.replace(letters, (c) => arabic[c] ?? c);
  s = s.toLowerCase();
  // NFD splits Latin letters from their accents; Arabic hamza forms were folded above, so only marks go. Letters
  // spelled out come after, as an accent may sit on one (ǽ).
  s = s.normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC');
  s = s.replace(/[ßæœøłđðþıħ]/g, (c) => LATIN_SPECIAL[c] ?? c);
  s = s.replace(APOSTROPHES, '');
  // Folding can reveal letters that fold again (a decomposed ى; ۂ, whose hamza goes, leaving the Persian ہ that
  // `clean` writes ه); one more pass keeps the result stable.
  s = s.replace(PERSIAN_LETTERS, (c) => HYGIENE[c] ?? c).replace(letters, (c) => arabic[c] ?? c);
  return s
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .toLowerCase();
}

const ARABIC_LETTER = /\p{Script=Arabic}/u;
const LATIN_LETTER = /\p{Script=Latin}/u;

/** Which script a text's letters are in: 'ar', 'latn', 'mixed' (both), or 'none' (no Arabic or Latin letter). */
export function detectScript(text: string): Script {
  if (typeof text !== 'string') return 'none';
  if (PLAIN_ARABIC.test(text)) return 'ar';
  if (PRINTABLE_ASCII.test(text)) return /[A-Za-z]/.test(text) ? 'latn' : 'none';
  let arabic = false;
  let latin = false;
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (code < 0x41) continue;
    if (code < 0x250) {
      if (
        (code >= 0x41 && code <= 0x5a) ||
        (code >= 0x61 && code <= 0x7a) ||
        (code >= 0xc0 && code !== 0xd7 && code !== 0xf7)
      )
        latin = true;
    } else if ((code >= 0x621 && code <= 0x63f) || (code >= 0x641 && code <= 0x64a)) {
      arabic = true;
    } else if (ARABIC_LETTER.test(ch)) {
      if (/\p{L}/u.test(ch)) arabic = true;
    } else if (LATIN_LETTER.test(ch)) {
      latin = true;
    }
    if (arabic && latin) return 'mixed';
  }
  return arabic ? 'ar' : latin ? 'latn' : 'none';
}
