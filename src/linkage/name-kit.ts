/**
 * What linkage needs from names (src/names), behind one small seam: the matching form of a name part, parsing a full
 * name into parts, a cross-script blocking key, and a fast prepared comparison.
 */
import {
  ARTICLE_WORDS,
  capitalsReading,
  compareTokens,
  isKunya,
  nicknameNames,
  normalize,
  orderReading,
  type PreparedToken,
  parse,
  prepareToken,
  spellMarkedLetters,
  tokenKey,
} from '../names/index.js';

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
  token: PreparedToken;
}

/**
 * The matching form of a text (names.normalize): hygiene and folding, script kept, single spaces. Letters whose mark
 * carries a sound are spelt out first (Fayçal → faysal, Hişam → hisham, names.spellMarkedLetters): folded away, the
 * French ç read as a k and the Turkish ş as an s, and Fayçal met no فيصل. Dev seed 7, 20k people: world A's pair
 * completeness 0.949 → 0.952, F1 / ceiling +0.2 points; the other worlds within 0.0001.
 */
export function normalizeName(text: string): string {
  return normalize(spellMarkedLetters(text));
}

const articleWord = /^(al|el|ال)$/;
const articlePrefix = /^(al|el)(?=[a-z]{3})|^ال(?=\p{L}{2})/u;

/**
 * One name part's matching form: normalised, the article dropped, words joined (so "Al-Masri", "Almasri" and
 * "El Masri" meet, and "عبد الرحمن" equals "عبدالرحمن"). An article word written apart before another word is
 * dropped assimilated too (en-Naouagh, Ech-Chammaa, At-Dattak): kept, it joined the name and moved its key, so such
 * a row met its family's other rows neither in blocking nor in the name's frequency. Dev seed 7: world A's F1 /
 * ceiling +0.0014 (20k), +0.0015 (100k); B +0.0002 at 100k; C and athar synth unchanged.
 */
export function partForm(text: string): string {
  const normal = normalizeName(text);
  // Most parts are one word without an article: nothing to drop or join.
  const space = normal.indexOf(' ');
  if (space < 0 && !mayStartWithArticle(normal)) return normal;
  const words = withoutArticles(normal, 'last');
  if (words.length === 0) return '';
  // A glued article (Almasri) only where none was written apart: after el- / Al the name's own al stays (el-Aliti,
  // Al Alawi: العليتي, العلوي — a name cannot carry two articles).
  const writtenApart = space > 0 && articleWord.test(normal.slice(0, space));
  if (!writtenApart) words[0] = (words[0] as string).replace(articlePrefix, '');
  return words.join('');
}

/**
 * The words of a matching form without its article words: al / el / ال anywhere, and the other article words
 * (assimilated: en, ech, at, ez …) except where the word may be the name itself — a name part's last word, a place's
 * first ("At-Tall").
 */
function withoutArticles(form: string, nameMayBe: 'first' | 'last'): string[] {
  const words = form.split(' ').filter((w) => w !== '');
  const nameAt = nameMayBe === 'first' ? 0 : words.length - 1;
  return words.filter((w, i) => !articleWord.test(w) && (i === nameAt || !ARTICLE_WORDS.has(w)));
}

/** Whether a matching form may begin with al, el or ال (the cheap test before articleWord and articlePrefix). */
function mayStartWithArticle(form: string): boolean {
  const c = form.charCodeAt(0);
  return c === 0x61 || c === 0x65 || c === 0x627;
}

/**
 * A first name's matching form, or '' for a kunya (Abu Ahmad, أبو أحمد): a man's name after his son, not his given
 * name, so it compares as a missing first name rather than a different one.
 */
export function firstNameForm(text: string): string {
  return isKunya(text) ? '' : partForm(text);
}

const fullNameParts = ['first', 'father', 'grandfather', 'family'] as const;

/** Parts as written, each in its matching form (a kunya is no first name); empty parts left out. */
function inMatchingForm(parts: Partial<Record<(typeof fullNameParts)[number], string>>): NameParts {
  const out: NameParts = {};
  for (const part of fullNameParts) {
    const text = parts[part];
    const form = !text ? '' : part === 'first' ? firstNameForm(text) : partForm(text);
    if (form) out[part] = form;
  }
  return out;
}

/** Splits a full name into first / father / grandfather / family (names.parse), each in its matching form. */
export function parseFullName(fullName: string): NameParts {
  // Two Arabic parts, the second a given name only ("حسن محمد"): the father's name, as the registry reads it. An
  // unlisted first part before given names is read as written; its list's other names decide (fullNameOrder).
  return inMatchingForm(parse(fullName, { fatherInShortNames: true, guessOrder: false }));
}

/**
 * How a full name votes on its list's order of writing (names.orderReading): none, family first, given first,
 * either; `settled`: an `either` read family name first because of its list's other names (it votes no more).
 */
export const nameOrderVote = {
  none: 0,
  familyFirst: 1,
  givenFirst: 2,
  either: 3,
  settled: 4,
  /** A Latin name's vote on its list's marking of the family name by capitals (names.capitalsReading). */
  capitalsFamily: 5,
  capitalsEmphasis: 6,
  /** A given name in capitals among given names only: the family name if its list marks family names so. */
  capitalsEither: 7,
} as const;

/**
 * A full name's vote on its list's habit of order and, when the name alone cannot say (`either`), its parts read
 * family name first, in matching form.
 */
export function fullNameOrder(fullName: string): { vote: number; familyFirst?: NameParts } {
  const reading = orderReading(fullName);
  if (!reading) {
    const capitals = capitalsReading(fullName);
    if (!capitals) return { vote: nameOrderVote.none };
    if (capitals.vote !== 'either')
      return {
        vote:
          capitals.vote === 'capitals_family' ? nameOrderVote.capitalsFamily : nameOrderVote.capitalsEmphasis,
      };
    return { vote: nameOrderVote.capitalsEither, familyFirst: inMatchingForm(capitals.familyFirst) };
  }
  if (reading.vote !== 'either')
    return { vote: reading.vote === 'family_first' ? nameOrderVote.familyFirst : nameOrderVote.givenFirst };
  return { vote: nameOrderVote.either, familyFirst: inMatchingForm(reading.familyFirst) };
}

/**
 * The cross-script skeleton of a part (names.tokenKey): محمد, Mohammad and Muhammed meet. A final H is folded away:
 * tokenKey drops a Latin final h (Saleh → SL) but keeps a final ح (صالح → SLH), so Saleh and صالح would never
 * share a block.
 */
export function nameKey(form: string): string {
  if (form === '') return '';
  const key = tokenKey(form);
  return key.length > 1 && key.endsWith('H') ? key.slice(0, -1) : key;
}

/**
 * A Latin form read as the other habits of lists write Arabic, where the names' skeleton reads it the English or
 * French way: Turkish c for ج and v for و (Casahe / جصاهة, Huveyh), German dsch for ج, sch for ش, ch for خ and j for
 * ي (Dschasaha, Butajch / بطيخ, Sajnab). Each reading that changes the form, at most two; none for Arabic script.
 */
export function habitReadings(form: string): string[] {
  if (!/^[a-z]+$/.test(form)) return [];
  const out: string[] = [];
  // c in ch (ش, خ) and ck (k) is not Turkish c.
  const turkish = form.replace(/c(?![hk])/g, 'j').replace(/v/g, 'w');
  if (turkish !== form) out.push(turkish);
  if (/ch|j/.test(form)) {
    // j first (not French dj, not German dsch), then dsch for ج; tsch and sch for ش; ch for خ.
    const german = form
      .replace(/(?<![d])j/g, 'y')
      .replace(/dsch/g, 'j')
      .replace(/t?sch/g, 'sh')
      .replace(/ch/g, 'kh');
    if (german !== form && german !== turkish) out.push(german);
  }
  return out;
}

/**
 * A Latin form with its digraphs after the first letter read as two letters: dh, th, kh and sh as د ت ك س before ه
 * or ح (Adham / أدهم, Sakhahe / سكهاهة, Khadhan / خدحان), where the skeleton reads one letter (ذ ث خ ش). For blocking
 * keys only (the similarity's alignment already weighs such a pair of letters against one digraph); undefined when
 * nothing changes.
 */
export function digraphSplitReading(form: string): string | undefined {
  if (!/^[a-z]+$/.test(form) || !/(?<!^)[dtks]h/.test(form)) return undefined;
  // Not at the start: an initial kh, sh, th or dh is one letter (Khalid, Shadi, Thamer, Dhiab).
  return form.replace(/(?<!^)([dtks])h/g, '$1ah');
}

/**
 * An Arabic form beginning with عل and three letters more read without it, as a Latin list's al taken for the
 * article leaves it: علواني, علوان are written Alwani, Alwan, and the article read off the Latin (partForm's glued
 * article, or names' key after el- / Al-) leaves wani, wan. For blocking keys (names' similarity reads such a pair so
 * itself); none for other forms (علوي, علوش: two letters left would meet too many names).
 */
export function ainLamReadings(form: string): string[] {
  return AIN_LAM.test(form) ? [form.slice(2)] : [];
}
const AIN_LAM = /^عل\p{L}{3}/u;

/**
 * A Latin form with an r read as gh: lists in French now and then write غ as r (Rassan for غسان, Loubayri / لبيغي,
 * Ranabe / غنابه), which name similarity weighs as a near spelling already (names' learned cost of r for غ) but no
 * key meets. Each r in turn, and every r at once; none for a form of more than three r's. For blocking keys only.
 */
export function ghainReadings(form: string): string[] {
  if (!/^[a-z]+$/.test(form)) return [];
  const at: number[] = [];
  for (let k = 0; k < form.length; k++) if (form[k] === 'r') at.push(k);
  if (at.length === 0 || at.length > 3) return [];
  const out = at.map((k) => `${form.slice(0, k)}gh${form.slice(k + 1)}`);
  if (at.length > 1) out.push(form.replace(/r/g, 'gh'));
  return out;
}

/** An s that is a letter of its own: not in ss, sh, sc(h) or ts. */
const LONE_S = /(?<![st])s(?![chs])/g;

/**
 * The readings name similarity tries (habitReadings), and German and French s for ز besides (Hasim / حازم, Alasma /
 * العظمة, Abdulasis): s read as z wherever it is not ss, sh, sc(h) or ts. Worlds A–C, dev seed 7, 100k people: F1
 * +0.0004 to +0.004, athar synth −0.0003. Blocking keys a family name on habitReadings only (its coarse key already
 * reads s and z as one: keys of the s reading found no more pairs and cost `athar link` 2 s at 1M records); a first
 * name on firstNameReadings.
 */
export function similarityReadings(form: string): string[] {
  const out = habitReadings(form);
  if (!/^[a-z]+$/.test(form)) return out;
  const voiced = form.replace(LONE_S, 'z');
  if (voiced !== form && !out.includes(voiced)) out.push(voiced);
  return out;
}

/**
 * The readings of a Latin first name that blocking looks up among the names it knows (blocking's first-name habit
 * keys): similarityReadings, a Turkish final t for د (Abdulhamit / عبد الحميد, Halit / خالد), and s for ث as Turkish
 * and Levantine speech say it (Ghiyas / غياث). Hamse (حمزة) and Abdul Asis (عبد العزيز) meet their names by the s
 * reading, which a family name's coarse key does not need.
 */
export function firstNameReadings(form: string): string[] {
  const out = similarityReadings(form);
  if (/^[a-z]+t$/.test(form)) out.push(`${form.slice(0, -1)}d`);
  const th = form.replace(LONE_S, 'th');
  if (th !== form && /^[a-z]+$/.test(form)) out.push(th);
  return out;
}

/**
 * The matching forms of the names a name (its matching form) is a pet or short form of (حمودة: محمد, محمود), for
 * blocking keys; none for most names.
 */
export function nicknameReadings(form: string): string[] {
  return nicknameNames(form).map(partForm);
}

export function prepareName(form: string): PreparedName {
  const token = prepareToken(form);
  return { form, key: token.key, latin: token.script === 'latn', token };
}

/** Similarity in [0,1] of two prepared parts (names.compareTokens). */
export function compareNames(a: PreparedName, b: PreparedName): number {
  if (a.form === b.form) return a.form === '' ? 0 : 1;
  return compareTokens(a.token, b.token);
}

/**
 * A place name's cross-script key: each word without its article, as a skeleton. A word before another drops a final
 * t — the construct state's ة, which the Arabic skeleton leaves out and Latin spells (Maarat al-Numan / معرة
 * النعمان, Khirbet Ghazaleh / خربة غزالة, Moadamiyet al-Sham / معضمية الشام).
 */
export function placeKey(text: string): string {
  // An article between words, assimilated or not (Ma'arrat an-Nu'man, Deir ez-Zor).
  const keys = withoutArticles(normalize(text), 'first')
    .map((w) => nameKey(w.replace(articlePrefix, '')))
    .filter((k) => k !== '');
  for (let i = 0; i < keys.length - 1; i++) {
    const k = keys[i] as string;
    if (k.length > 1 && k.endsWith('T')) keys[i] = k.slice(0, -1);
  }
  return keys.join(' ');
}

/**
 * A coarser skeleton for the spellings that transliteration habits disagree on: the letters lists render in
 * incompatible ways (ه ح خ as h, kh, ch or nothing; ج as j, dj, dsch, c, g — and German j for ي) are left out, the
 * sibilants and interdentals (س ز ص ظ ث ش: s, z, ss, th, sh, sch, ş) fall together, as do ك ق غ (k, q, g, gh),
 * and a doubled letter counts once. Al-Asma / العظمة, Mudajsch / مديش, Daththan / Dassan / دثان, Abdulrassak /
 * عبد الرزاق meet under it. One to three letters long for most names: used only with another coarse name (blocking),
 * or when at least three letters long (a place's, features.placeRelation).
 */
const coarseLetter: Record<string, string> = { H: '', X: '', J: '', '-': '', Z: 'S', C: 'S', T: 'S', G: 'K' };
export function coarseSkeleton(key: string): string {
  let out = '';
  let last = '';
  for (const ch of key) {
    const c = coarseLetter[ch] ?? ch;
    if (c === '') {
      // ه ح خ left out part two letters (محمد / أحمد stay apart); a j left out (German j for ي) does not.
      if (ch !== 'J') last = '';
      continue;
    }
    if (c !== last) out += c;
    last = c;
  }
  return out;
}

/**
 * The coarse skeleton for blocking: a name with none (جعيه, Cuayh, Djouayh, خجاجة, Chadschadscha, Jayyaw: only
 * letters the skeleton leaves out, ج among them) gets J, so that it still meets its other spellings. World A, dev
 * seed 7, 20k people: pair completeness 0.9616 → 0.9627.
 */
export function coarseBlockingSkeleton(key: string): string {
  const coarse = coarseSkeleton(key);
  return coarse === '' && key.includes('J') ? 'J' : coarse;
}

/** Arabic letters by their dotless shape: the letters OCR and hurried hands read one for another. */
const rasmClass: Readonly<Record<string, string>> = {
  ب: 'ٮ',
  ت: 'ٮ',
  ث: 'ٮ',
  ن: 'ٮ',
  ي: 'ٮ',
  ى: 'ٮ',
  ئ: 'ٮ',
  ج: 'ح',
  خ: 'ح',
  ذ: 'د',
  ز: 'ر',
  ش: 'س',
  ض: 'ص',
  ظ: 'ط',
  غ: 'ع',
  ق: 'ف',
  ة: 'ه',
};

/** An Arabic name's rasm: its letters without their dots (محمد, مجمد and مخمد share one). */
export function rasm(form: string): string {
  let out = '';
  for (const ch of form) out += rasmClass[ch] ?? ch;
  return out;
}
