/**
 * What linkage needs from names, behind one small seam: the matching form of a name part, parsing a full name into
 * parts, a cross-script blocking key, and a fast prepared comparison. Everything else in linkage reaches names only
 * through this file.
 */
export interface NameParts {
  first?: string;
  father?: string;
  grandfather?: string;
  family?: string;
}

/** A name part made ready for repeated comparison. */
export interface PreparedName {
  /** Matching form (see `partForm`). */
  form: string;
  /** Cross-script consonant skeleton. */
  key: string;
  latin: boolean;
}

const bidiAndZeroWidth = /[\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff\u0640]/g;
const arabicMarks = /[\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06ed]/g;

/** Folds of the Arabic letters a matching form changes (alef forms, ى, ة, ؤ, ئ). */
const arabicFold: Record<number, number> = {
  1571: 0x0627,
  1573: 0x0627,
  1570: 0x0627,
  1649: 0x0627,
  1609: 0x064a,
  1577: 0x0647,
  1572: 0x0648,
  1574: 0x064a,
};

/**
 * The matching form of a text: hygiene and folding, script kept, words separated by single spaces. Plain Arabic and
 * ASCII text (nearly every name) is folded in one pass; anything else takes the full Unicode path.
 */
export function normalizeName(text: string): string {
  let out = '';
  let space = false;
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39)) {
      // as is
    } else if (c >= 0x41 && c <= 0x5a) {
      c += 32;
    } else if (c >= 0x0621 && c <= 0x064a) {
      c = arabicFold[c] ?? c;
      if (c === 0x0640) continue;
    } else if ((c >= 0x064b && c <= 0x065f) || c === 0x0670) {
      continue;
    } else if (c === 0x27 || c === 0x60 || c === 0x2bf || c === 0x2be || c === 0x2018 || c === 0x2019) {
      continue;
    } else if (c < 0x80) {
      space = out.length > 0;
      continue;
    } else {
      return normalizeSlow(text);
    }
    if (space) {
      out += ' ';
      space = false;
    }
    out += String.fromCharCode(c);
  }
  return out;
}

function normalizeSlow(text: string): string {
  return text
    .normalize('NFKC')
    .replace(bidiAndZeroWidth, '')
    .replace(arabicMarks, '')
    .replace(/[أإآٱ]/g, 'ا')
    .replace(/ى/g, 'ي')
    .replace(/ة/g, 'ه')
    .replace(/ؤ/g, 'و')
    .replace(/ئ/g, 'ي')
    .replace(/ک/g, 'ك')
    .replace(/ی/g, 'ي')
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{Mn}/gu, '')
    .replace(/['`ʿʾ’‘]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

const articleWord = /^(al|el|ال)$/;
const articlePrefix = /^(al|el)(?=[a-z]{3})|^ال(?=\p{L}{2})/u;
const compoundHeads = new Set(['عبد', 'ابو', 'abd', 'abdul', 'abdel', 'abdal', 'abu', 'abou', 'nour', 'نور']);
const compoundTails = new Set(['الدين', 'din', 'eddine', 'eddin', 'aldin', 'uddin']);
const separators = new Set(['بن', 'ابن', 'بنت', 'bin', 'ibn', 'bint']);

/**
 * One name part's matching form: normalised, the article dropped, words joined (so "Al-Masri", "Almasri" and
 * "El Masri" meet, and "عبد الرحمن" equals "عبدالرحمن").
 */
export function partForm(text: string): string {
  const words = normalizeName(text)
    .split(' ')
    .filter((w) => w !== '' && !articleWord.test(w));
  if (words.length === 0) return '';
  words[0] = (words[0] as string).replace(articlePrefix, '');
  return words.join('');
}

/** Splits a full name into first / father / grandfather / family, joining compounds and articles to their word. */
export function parseFullName(fullName: string): NameParts {
  const raw = normalizeName(fullName)
    .split(' ')
    .filter((w) => w !== '' && !separators.has(w));
  const tokens: string[] = [];
  for (let i = 0; i < raw.length; i++) {
    const word = raw[i] as string;
    const next = raw[i + 1];
    const after = raw[i + 2];
    if (next !== undefined && after !== undefined && compoundHeads.has(word) && articleWord.test(next)) {
      tokens.push(word + next + after);
      i += 2;
    } else if (next !== undefined && (compoundHeads.has(word) || articleWord.test(word))) {
      tokens.push(word + next);
      i++;
    } else if (tokens.length > 0 && compoundTails.has(word)) {
      tokens[tokens.length - 1] += word;
    } else {
      tokens.push(word);
    }
  }
  const parts = tokens.map(partForm).filter((t) => t !== '');
  const n = parts.length;
  if (n === 0) return {};
  if (n === 1) return { first: parts[0] };
  if (n === 2) return { first: parts[0], family: parts[1] };
  if (n === 3) return { first: parts[0], father: parts[1], family: parts[2] };
  return { first: parts[0], father: parts[1], grandfather: parts[2], family: parts[n - 1] };
}

const arabicSkeleton: Record<string, string> = {
  ب: 'b',
  ت: 't',
  ث: 't',
  ج: 'j',
  ح: 'h',
  خ: 'k',
  د: 'd',
  ذ: 'd',
  ر: 'r',
  ز: 'z',
  س: 's',
  ش: 's',
  ص: 's',
  ض: 'd',
  ط: 't',
  ظ: 'z',
  غ: 'g',
  ف: 'f',
  ق: 'k',
  ك: 'k',
  ل: 'l',
  م: 'm',
  ن: 'n',
  ه: 'h',
  و: 'w',
  ي: 'y',
};

const latinDigraphs: [RegExp, string][] = [
  [/kh/g, 'k'],
  [/gh/g, 'G'],
  [/sh|ch/g, 's'],
  [/th/g, 't'],
  [/dh/g, 'd'],
  [/ph/g, 'f'],
  [/q|c|x/g, 'k'],
  [/g/g, 'j'],
  [/G/g, 'g'],
  [/v/g, 'f'],
];

/**
 * A vowel-insensitive consonant skeleton where Arabic letters and their usual Latin renderings meet: محمد,
 * Mohammad and Muhammed all give "mhmd". w/y count only at the start (elsewhere they are mostly long vowels), a
 * final h is dropped (ة, "Fatimah"), doubled letters collapse.
 */
export function nameKey(form: string): string {
  let letters = '';
  if (/[a-z]/.test(form)) {
    let t = form;
    for (const [pattern, to] of latinDigraphs) t = t.replace(pattern, to);
    for (let i = 0; i < t.length; i++) {
      const ch = t[i] as string;
      if ('aeiou'.includes(ch)) continue;
      if ((ch === 'w' || ch === 'y') && i > 0) continue;
      if (ch >= 'a' && ch <= 'z') letters += ch;
    }
  } else {
    for (let i = 0; i < form.length; i++) {
      const mapped = arabicSkeleton[form[i] as string];
      if (mapped === undefined) continue;
      if ((mapped === 'w' || mapped === 'y') && i > 0) continue;
      letters += mapped;
    }
  }
  let key = '';
  for (const ch of letters) if (key[key.length - 1] !== ch) key += ch;
  if (key.length > 1 && key.endsWith('h')) key = key.slice(0, -1);
  return key;
}

export function prepareName(form: string): PreparedName {
  return { form, key: nameKey(form), latin: /[a-z]/.test(form) };
}

const flagsA = new Uint8Array(64);
const flagsB = new Uint8Array(64);

/** Jaro–Winkler similarity without allocation (strings longer than 64 are cut). */
export function jaroWinkler(a: string, b: string): number {
  if (a === b) return a.length === 0 ? 0 : 1;
  const la = Math.min(a.length, 64);
  const lb = Math.min(b.length, 64);
  if (la === 0 || lb === 0) return 0;
  const window = Math.max(0, (Math.max(la, lb) >> 1) - 1);
  flagsA.fill(0, 0, la);
  flagsB.fill(0, 0, lb);
  let matches = 0;
  for (let i = 0; i < la; i++) {
    const lo = Math.max(0, i - window);
    const hi = Math.min(lb - 1, i + window);
    const ca = a.charCodeAt(i);
    for (let j = lo; j <= hi; j++) {
      if (flagsB[j] === 0 && b.charCodeAt(j) === ca) {
        flagsA[i] = 1;
        flagsB[j] = 1;
        matches++;
        break;
      }
    }
  }
  if (matches === 0) return 0;
  let transpositions = 0;
  let k = 0;
  for (let i = 0; i < la; i++) {
    if (flagsA[i] === 0) continue;
    while (flagsB[k] === 0) k++;
    if (a.charCodeAt(i) !== b.charCodeAt(k)) transpositions++;
    k++;
  }
  const m = matches;
  const jaro = (m / la + m / lb + (m - transpositions / 2) / m) / 3;
  let prefix = 0;
  const maxPrefix = Math.min(4, la, lb);
  while (prefix < maxPrefix && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix++;
  return jaro + prefix * 0.1 * (1 - jaro);
}

/** Similarity in [0,1] of two prepared parts: their forms within one script, their skeletons across scripts. */
export function compareNames(a: PreparedName, b: PreparedName): number {
  if (a.form === b.form) return a.form === '' ? 0 : 1;
  if (a.latin === b.latin) return jaroWinkler(a.form, b.form);
  if (a.key === b.key) return a.key === '' ? 0 : 0.95;
  return jaroWinkler(a.key, b.key) * 0.95;
}

/**
 * A place name's cross-script key: each word without its article, as a consonant skeleton (جسر الشغور and
 * Jisr al-Shughur meet).
 */
export function placeKey(text: string): string {
  return normalizeName(text)
    .split(' ')
    .filter((w) => w !== '' && !articleWord.test(w))
    .map((w) => nameKey(w.replace(articlePrefix, '')))
    .filter((k) => k !== '')
    .join(' ');
}
