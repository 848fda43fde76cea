/**
 * Parsing a full name into its parts: first name, father's, grandfather's and family name, in either script.
 * Compounds stay one part (عبد الرحمن, Abdul Rahman, Abd al-Rahman, نور الدين, Nour Eddine, أبو بكر, Abu Bakr);
 * articles stay with their name (Al-Masri, ال مصري); بن / ابن / بنت / bin / ibn / bint separate generations.
 */
import {
  ABD_WORDS,
  ABU_WORDS,
  ALLAH_WORDS,
  ARTICLE_WORDS,
  DIN_WORDS,
  gluedArticleLength,
  TITLE_WORDS,
} from './canonical.js';
import { abdCompoundNames, canonicalOf, isWomansName, lexiconEntry, lookupLexicon } from './lexicon.js';
import { clean, detectScript, normalize, type Script } from './normalize.js';
import { prepareToken } from './token.js';

export interface ParsedName {
  first?: string;
  father?: string;
  grandfather?: string;
  family?: string;
  /** All parts in written order, as display strings; compounds are one part. */
  given: string[];
  script: Script;
  /** How sure the role assignment is, in [0, 1]; 0 when nothing was parsed. */
  confidence: number;
}

export type PartRole = 'first' | 'father' | 'grandfather' | 'middle' | 'family';

export interface NamePart {
  /** Display text (after hygiene), e.g. "Abd al-Rahman". */
  text: string;
  role: PartRole;
}

/** The parse with roles per part in canonical order (first, father, grandfather, middle…, family). */
export interface NameParts {
  parts: readonly NamePart[];
  /** Display parts in written order. */
  written: readonly string[];
  script: Script;
  confidence: number;
  /** Whether the family name was written first (after a comma, or an article-bearing first part). */
  familyFirst: boolean;
  /**
   * The family name was read first from the lexicon alone: an unlisted first part before given names (`guessOrder`).
   * A lexicon lists common names only, so the first part may be an unlisted given name as well.
   */
  guessed?: boolean;
}

interface Word {
  display: string;
  norm: string;
  /** Joined to the previous word by a hyphen in the source. */
  hyphen: boolean;
  segment: number;
}

interface Group {
  words: Word[];
  /** Introduced by بن / ابن / bin / ibn: the part names an ancestor. */
  afterSeparator?: boolean;
}

const SEPARATORS = new Set(['bin', 'ibn', 'bint', 'ben', 'بن', 'ابن', 'بنت']);
/** No real full name has more parts than this; the rest of a longer input is ignored. */
const MAX_PARTS = 16;

const EDGE_PUNCTUATION = /^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu;

/** A plain letter or digit (ASCII or Arabic): a piece that starts and ends with one needs no trimming. */
function plainEdge(code: number): boolean {
  return (
    (code >= 0x61 && code <= 0x7a) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x30 && code <= 0x39) ||
    (code >= 0x621 && code <= 0x64a)
  );
}

function words(display: string): Word[] {
  const out: Word[] = [];
  const segments = display.split(/[,،;؛]/);
  for (let s = 0; s < segments.length; s++) {
    for (const raw of (segments[s] as string).split(' ')) {
      const pieces = raw.split(/[-‐‑‒–—―_]+/);
      for (let p = 0; p < pieces.length; p++) {
        // Dots end abbreviations and initials ("Mhd.", "A.B."): each dotted piece is a word of its own.
        const dotted = (pieces[p] as string).split('.');
        for (let d = 0; d < dotted.length; d++) {
          const sub = dotted[d] as string;
          const trimmed =
            sub !== '' && plainEdge(sub.charCodeAt(0)) && plainEdge(sub.charCodeAt(sub.length - 1))
              ? sub
              : sub.replace(EDGE_PUNCTUATION, '');
          const norm = normalize(trimmed);
          if (norm === '' || out.length > MAX_PARTS * 4) continue;
          // A piece whose matching form has several words (rare punctuation inside) contributes each of them.
          for (const n of norm.split(' '))
            out.push({ display: trimmed, norm: n, hyphen: p > 0 && d === 0, segment: s });
        }
      }
    }
  }
  return out.slice(0, MAX_PARTS * 4);
}

function core(group: Group): string {
  return group.words
    .filter((w) => !ARTICLE_WORDS.has(w.norm))
    .map((w) => w.norm)
    .join('');
}

/** The names that follow عبد in a compound (الرحمن, القادر …), in matching form. */
let divineNames: Set<string> | undefined;

/**
 * A scanned or hurried عبد read a letter wrong or short (عند, غبد, عبر, بد القادر) before a name that only follows
 * عبد: the compound, as a reader of the page takes it.
 */
function misreadAbd(word: string, next: string): boolean {
  if (word === 'عبد' || word.length < 2 || word.length > 3 || !/^[\u0621-\u064a]+$/.test(word)) return false;
  divineNames ??= new Set(abdCompoundNames().map(normalize));
  if (!divineNames.has(next)) return false;
  const abd = 'عبد';
  if (word.length === 3) {
    let differ = 0;
    for (let k = 0; k < 3; k++) if (word[k] !== abd[k]) differ++;
    return differ === 1;
  }
  return [abd.slice(1), abd[0] + abd.slice(2), abd.slice(0, 2)].includes(word);
}

function groupWords(list: Word[]): { groups: Group[]; separators: number } {
  const groups: Group[] = [];
  let separators = 0;
  let i = 0;
  let separated = false;
  while (i < list.length) {
    const w = list[i] as Word;
    if (SEPARATORS.has(w.norm) && groups.length > 0 && i < list.length - 1) {
      separators++;
      separated = true;
      i++;
      continue;
    }
    const group: Group = { words: [w], afterSeparator: separated };
    separated = false;
    i++;
    for (;;) {
      const last = group.words[group.words.length - 1] as Word;
      const next = list[i];
      if (!next || next.segment !== w.segment || SEPARATORS.has(next.norm)) break;
      const onlyWord = group.words.length === 1;
      if (onlyWord && misreadAbd(last.norm, next.norm)) {
        last.norm = 'عبد';
        last.display = 'عبد';
      }
      const absorb =
        ARTICLE_WORDS.has(last.norm) || (onlyWord && (ABD_WORDS.has(last.norm) || ABU_WORDS.has(last.norm)));
      if (!absorb) break;
      group.words.push(next);
      i++;
    }
    groups.push(group);
  }
  // … الدين and … الله attach to the name before them (Nour Eddine, نصر الله), as do titles (Mardam Bey).
  const merged: Group[] = [];
  for (const g of groups) {
    const prev = merged[merged.length - 1];
    const c = core(g);
    const first = g.words[0] as Word;
    const suffix = DIN_WORDS.has(c) || ALLAH_WORDS.has(c) || TITLE_WORDS.has(c);
    if (prev && suffix && first.segment === (prev.words[0] as Word).segment && joins(prev, g, c)) {
      prev.words.push(...g.words);
    } else {
      merged.push(g);
    }
  }
  return { groups: merged.slice(0, MAX_PARTS), separators };
}

/**
 * Whether a … الدين or … الله part joins the part before it. Not after a whole عبد compound: no name is عبد القادر
 * الله, so "Abd Al-Kadir al-Allah" is a father's name and a family name (علاح). Nor a … الدين the names' lexicon
 * does not list after a name it lists alone: "Yasser Adin" is Yasser of the family Adin, while "Nour Eddine", "Izz
 * ad-Din" (listed compounds) and an unlisted head ("Tayy Eddine") still join.
 */
function joins(prev: Group, g: Group, suffix: string): boolean {
  const head = prev.words.filter((w) => !ARTICLE_WORDS.has(w.norm));
  // Written apart (Abd Al-Kadir) or glued (Abdulkadir, عبدالقادر: عبد and a name of three letters or more).
  const abd =
    head.length > 1
      ? ABD_WORDS.has((head[0] as Word).norm)
      : /^(?:abd|عبد).{3}/.test(canonicalOf((head[0] as Word).norm));
  if (abd && !TITLE_WORDS.has(suffix)) return false;
  if (!DIN_WORDS.has(suffix) || !isKnownGivenName(prev)) return true;
  return lookupLexicon(canonicalOf([...prev.words, ...g.words].map((w) => w.norm).join(' '))).length > 0;
}

function display(group: Group): string {
  let out = '';
  let previous: Word | undefined;
  for (const w of group.words) {
    // The words one piece's matching form splits into ("A.B." → a, b) share its display: show it once.
    const piece = w.display;
    if (previous && previous.display === piece && w.norm !== previous.norm) continue;
    out += previous ? (w.hyphen ? '-' : ' ') + piece : piece;
    previous = w;
  }
  return out;
}

function hasArticle(group: Group): boolean {
  const first = group.words[0] as Word;
  if (group.words.length > 1 && ARTICLE_WORDS.has(first.norm)) return true;
  return gluedArticleLength(first.norm) > 0 && first.norm.startsWith('ال');
}

function looksLikeFamily(group: Group): boolean {
  if (hasArticle(group)) return true;
  const c = core(group);
  if (c.length < 4 || !/(?:ي|i|y)$/.test(c)) return false;
  // A nisba (حمصي, Halabi) ends so; so do given names once ى is folded to ي (مصطفى, موسى, عيسى) and names like
  // شادي or Sami. A name listed only as given is not read as a family name.
  const listed = listedAs(group);
  return !listed.given || listed.family;
}

/**
 * Whether a one-word part is read as a given name and nothing else by its fit to the lexicon (Ghazy for غازي):
 * an unlisted spelling of a listed given name.
 */
function readsAsGiven(group: Group): boolean {
  if (group.words.length !== 1 || hasArticle(group)) return false;
  const token = prepareToken((group.words[0] as Group['words'][number]).norm);
  if (!token.inferred) return false;
  return Array.from(token.lexicon).every((id) => {
    const entry = lexiconEntry(id);
    return entry?.given === true && !entry.family;
  });
}

function isKnownGivenName(group: Group): boolean {
  return (
    lookupLexicon(canonicalOf(group.words.map((w) => w.norm).join(' '))).length > 0 && !hasArticle(group)
  );
}

/** What a part is listed as: a given name, a family name, both, or nothing (an unlisted name). */
function listedAs(group: Group): { given: boolean; family: boolean } {
  const ids = lookupLexicon(canonicalOf(group.words.map((w) => w.norm).join(' ')));
  let given = false;
  let family = false;
  for (const id of ids) {
    const entry = lexiconEntry(id);
    if (entry?.given) given = true;
    if (entry?.family) family = true;
  }
  return { given, family };
}

/**
 * Words that stand before a name in death notices and registers (الشهيد, المرحوم, الحاج, الشاب, السيد; Mr, Dr):
 * not part of it. Matching forms (hamza and ta marbuta folded as normalize does).
 */
const HONORIFIC_WORDS = new Set([
  'الشهيد',
  'الشهيده',
  'المرحوم',
  'المرحومه',
  'الفقيد',
  'الفقيده',
  'الشاب',
  'الشابه',
  'الطفل',
  'الطفله',
  'الحاج',
  'الحاجه',
  'السيد',
  'السيده',
  'الدكتور',
  'الدكتوره',
  'المهندس',
  'المهندسه',
  'الاستاذ',
  'الاستاذه',
  'المعتقل',
  'المعتقله',
  'mr',
  'mrs',
  'ms',
  'dr',
  'martyr',
  'late',
  'hajj',
  'haj',
  'hadj',
  'hajji',
  'sheikh',
  'shaykh',
  'shaikh',
  'cheikh',
  'scheich',
  'eng',
  'shahid',
  'chahid',
  'feu',
  'mme',
  'herr',
  'frau',
]);

/** Whether a part is written in capitals (two letters or more). */
function isCapitals(group: Group): boolean {
  const letters = group.words
    .map((w) => w.display)
    .join('')
    .replace(/[^\p{L}]/gu, '');
  return letters.length >= 2 && letters === letters.toUpperCase() && letters !== letters.toLowerCase();
}

/**
 * The one part written in capitals among parts that are not (the family name in "DHANI Ahmad"), or -1: none, or
 * more than one (a name written all in capitals says nothing). A listed given name in capitals does not count.
 */
function capitalised(groups: readonly Group[]): number {
  let at = -1;
  for (let g = 0; g < groups.length; g++) {
    if (!isCapitals(groups[g] as Group)) continue;
    // A given name in capitals is emphasis or noise ("FAHAD Takkazi"), not the family name; with an article it is
    // one (AL-HOUSSAIN: no given name takes al-).
    const listed = listedAs(groups[g] as Group);
    if (listed.given && !listed.family && !hasArticle(groups[g] as Group)) continue;
    if (at >= 0) return -1;
    at = g;
  }
  return at;
}

/**
 * Whether a name part is a given name and nothing else: listed as one, not as a family name, without an article or
 * a nisba ending. Linkage reads the second of two Arabic parts so as a father's name ("حسن محمد").
 */
export function isGivenNameOnly(text: string): boolean {
  const { groups } = groupWords(words(clean(text)));
  if (groups.length !== 1) return false;
  const group = groups[0] as Group;
  if (looksLikeFamily(group)) return false;
  const listed = listedAs(group);
  return listed.given && !listed.family;
}

/** Whether an Arabic name of three parts or more is written family name first (see parseUncached). */
function readsFamilyFirst(groups: readonly Group[]): boolean {
  const head = listedAs(groups[0] as Group);
  if (head.given) return false;
  const last = groups[groups.length - 1] as Group;
  if (looksLikeFamily(last)) return false;
  const tail = listedAs(last);
  if (!tail.given || tail.family) return false;
  return groups.slice(1, -1).every((g) => listedAs(g).given);
}

/** Whether the second part of a chain is a woman's name only (isWomansName) and the first is not. */
function fatherIsAWoman(groups: readonly Group[]): boolean {
  return womans(groups[1] as Group) && !womans(groups[0] as Group);
}

const CACHE_LIMIT = 50_000;

/** `compute(key)` remembered in `memo`, which is emptied once it holds CACHE_LIMIT keys. */
function remembered<T>(memo: Map<string, T>, key: string, compute: (key: string) => T): T {
  let value = memo.get(key);
  if (value === undefined) {
    value = compute(key);
    if (memo.size >= CACHE_LIMIT) memo.clear();
    memo.set(key, value);
  }
  return value;
}

// isWomansName per part as written: a register's few thousand given names recur in every chain.
const womanParts = new Map<string, boolean>();
function womans(group: Group): boolean {
  const text =
    group.words.length === 1 ? (group.words[0] as Word).norm : group.words.map((w) => w.norm).join(' ');
  return remembered(womanParts, text, isWomansName);
}

const cache = new Map<string, NameParts>();
const unguessedCache = new Map<string, NameParts>();

/**
 * The parse with roles, used by `parse` and by full-name similarity. Never throws. The result is shared (names
 * repeat across records, so parses are remembered) and frozen: do not modify it. `guessOrder` false: an unlisted
 * first part before given names stays the first name (ParseOptions.guessOrder).
 */
export function parseParts(fullName: string, guessOrder = true): NameParts {
  const text = typeof fullName === 'string' ? fullName : '';
  const parts = remembered(cache, text, (key) => freeze(parseUncached(key, true)));
  // Read the same either way unless the order was guessed (few names): one parse, one cache entry.
  if (guessOrder || !parts.guessed) return parts;
  return remembered(unguessedCache, text, (key) => freeze(parseUncached(key, false)));
}

/**
 * A full name without what is written beside it in brackets or double quotes (a kunya or nickname: "أحمد محمد العلي
 * (أبو عمر)", Mohammad "Abu Ali" Khatib) — an aside, not a part of the chain —, without a number standing alone (an
 * age or a row number beside the name: "Mohammad Ahmad Al-Khatib, 35"), and with "s/o" and "d/o" (son of, daughter
 * of) read as bin. The text as it was when nothing else is left.
 */
function withoutAsides(text: string): string {
  let out = text;
  if (/[([{"“«„]/.test(out)) {
    const bare = out
      .replace(/\s*(\([^()]*\)|\[[^[\]]*\]|\{[^{}]*\})\s*/g, ' ')
      .replace(/(^|\s)["“«„][^"“”«»„]*["”»“](?=\s|$)/g, ' ')
      .trim();
    if (bare !== '') out = bare;
  }
  if (/[0-9٠-٩۰-۹]/.test(out)) {
    // A trailing comma or dash it leaves says nothing more.
    const bare = out
      .replace(/(^|[\s,،;-])[0-9٠-٩۰-۹]+(?=$|[\s,،;-])/g, '$1')
      .replace(/[\s,،;-]+$/, '')
      .trim();
    if (/\p{L}/u.test(bare)) out = bare;
  }
  if (out.includes('/')) out = out.replace(/(^|\s)[sd]\/o(?=\s)/gi, '$1bin');
  return out;
}

function freeze(p: NameParts): NameParts {
  for (const part of p.parts) Object.freeze(part);
  Object.freeze(p.parts);
  Object.freeze(p.written);
  return Object.freeze(p);
}

function parseUncached(fullName: string, guessOrder: boolean): NameParts {
  const text = withoutAsides(clean(fullName));
  const script = detectScript(text);
  let list = words(text);
  // A title before the name (الشهيد, المرحوم, Dr) is dropped, as long as a name follows it.
  let lead = 0;
  while (lead < list.length - 1 && HONORIFIC_WORDS.has((list[lead] as Word).norm)) lead++;
  if (lead > 0) list = list.slice(lead);
  const { groups, separators } = groupWords(list);
  if (groups.length === 0) return { parts: [], written: [], script, confidence: 0, familyFirst: false };
  const written = groups.map(display);
  const hadComma = list.some((w) => w.segment > 0) && list.some((w) => w.segment === 0);

  let ordered = groups;
  let familyFirst = false;
  let guessed = false;
  let confidence: number;
  if (hadComma && groups.length >= 2 && groups.some((g) => (g.words[0] as Word).segment > 0)) {
    // "Masri, Mohammad Ahmad": what stands before the first comma is the family name.
    const familyGroups = groups.filter((g) => (g.words[0] as Word).segment === 0);
    const rest = groups.filter((g) => (g.words[0] as Word).segment > 0);
    const family: Group = { words: familyGroups.flatMap((g) => g.words) };
    ordered = [...rest, family];
    familyFirst = true;
    confidence = 0.85;
  } else if (
    groups.length >= 2 &&
    hasArticle(groups[0] as Group) &&
    !looksLikeFamily(groups[groups.length - 1] as Group) &&
    !isKnownGivenName(groups[0] as Group)
  ) {
    // "Al-Masri Mohammad Ahmad": an article-bearing first part is a family name written first.
    ordered = [...groups.slice(1), groups[0] as Group];
    familyFirst = true;
    confidence = 0.65;
  } else if (
    groups.length >= 2 &&
    script === 'latn' &&
    capitalised(groups) === 0 &&
    (!looksLikeFamily(groups[groups.length - 1] as Group) ||
      readsAsGiven(groups[groups.length - 1] as Group) ||
      (hasArticle(groups[0] as Group) && !hasArticle(groups[groups.length - 1] as Group)))
  ) {
    // "DHANI Ahmad": lists kept in English and French write the family name in capitals, often first (also before
    // an unlisted spelling of a given name ending in -y: LOUHAIK Ghazy; and, in capitals with its article, before
    // any name without one: AL-HOUSSAIN Qousay, whose -y alone looked like a nisba).
    ordered = [...groups.slice(1), groups[0] as Group];
    familyFirst = true;
    confidence = 0.75;
  } else if (groups.length >= 4 && fatherIsAWoman(groups)) {
    // "حمدان رشا فراس عبد الرحمن": no father bears a woman's name, so a woman's name second in a full chain is her
    // own, written after the family name (a register written family first, Hamdan also a given name). Not in a
    // chain of three: a scan that cut a father's name short (روان for مروان) makes one. World C, dev seed 7, 20k
    // people: F1 / ceiling +0.0002; the other worlds unchanged.
    ordered = [...groups.slice(1), groups[0] as Group];
    familyFirst = true;
    confidence = 0.6;
  } else if (guessOrder && groups.length >= 3 && script === 'ar' && readsFamilyFirst(groups)) {
    // "غليم وائل نور الدين سعيد": registers write the family name first; an unlisted first part followed by given
    // names, the last of them no family name, reads that way.
    ordered = [...groups.slice(1), groups[0] as Group];
    familyFirst = true;
    guessed = true;
    confidence = 0.55;
  } else {
    confidence = [0, 0.35, 0.7, 0.8, 0.9][groups.length] ?? 0.55;
    if (groups.length >= 2 && looksLikeFamily(groups[groups.length - 1] as Group)) confidence += 0.05;
    if (separators > 0) confidence += 0.05;
  }
  if (script === 'mixed') confidence *= 0.8;

  const n = ordered.length;
  // "محمد بن أحمد", "Mohammad bin Ahmad bin Ali": a last part after بن / bin is an ancestor; there is no family name.
  const noFamily = !familyFirst && (ordered[n - 1] as Group).afterSeparator === true;
  const parts: NamePart[] = ordered.map((g, i) => {
    let role: PartRole;
    if (i === 0) role = 'first';
    else if (i === n - 1 && !noFamily) role = 'family';
    else if (i === 1) role = 'father';
    else if (i === 2) role = 'grandfather';
    else role = 'middle';
    return { text: display(g), role };
  });
  return {
    parts,
    written,
    script,
    confidence: Math.round(Math.min(1, Math.max(0, confidence)) * 100) / 100,
    familyFirst,
    ...(guessed ? { guessed } : {}),
  };
}

/**
 * Parses a full name. 1 part: first; 2: first + family; 3: first, father, family; 4: first, father, grandfather,
 * family; 5 or more: the same, with the extra middle parts only in `given`. A family name written first (before a
 * comma, or an Al-/ال part followed by given names) is recognised. Never throws; empty input gives no parts.
 */
export function parse(fullName: string, options: ParseOptions = {}): ParsedName {
  const p = parseParts(fullName, options.guessOrder ?? true);
  const out: ParsedName = { given: [...p.written], script: p.script, confidence: p.confidence };
  for (const part of p.parts) {
    if (part.role !== 'middle') out[part.role] = part.text;
  }
  if (
    options.fatherInShortNames &&
    p.parts.length === 2 &&
    p.script === 'ar' &&
    !p.familyFirst &&
    out.family !== undefined &&
    isGivenNameOnly(out.family)
  ) {
    out.father = out.family;
    delete out.family;
  }
  return out;
}

/**
 * What an Arabic full name of three parts or more says of its list's habit of order: written family name first
 * (`parseParts` read it so, from more than the lexicon), given name first (its first part is a given name only), or
 * `either` — its first part is no listed given name and nothing else decides (نعالة ابراهيم محمد مطصفي: the last
 * part misspelt; نجلاء ياسر حمدان, سليمان ياسر حمدان: given names the lexicon does not list, before listed ones) —
 * with that reading's parts, for a caller that learns the list's habit from its other names. Undefined for other
 * names. A name parseParts reads family first from the lexicon alone (`guessed`) is `either`: a lexicon of common
 * names leaves many given names out. Worlds, dev seed 7: B +0.0003 at 20k people, +0.0001 at 100k; C +0.0001 at
 * 100k, athar synth +0.0002; A the same.
 */
export type OrderReading =
  | { vote: 'family_first' | 'given_first' }
  | {
      vote: 'either';
      familyFirst: { first: string; father: string; grandfather?: string; family: string };
    };

// isGivenNameOnly per first part as written: a list's full names begin with a few thousand names, and every one of
// a million records is read so (`athar link`).
const givenHeads = new Map<string, boolean>();
const headIsGivenName = (text: string): boolean => remembered(givenHeads, text, isGivenNameOnly);

export function orderReading(fullName: string): OrderReading | undefined {
  const p = parseParts(fullName);
  const n = p.parts.length;
  if (p.script !== 'ar' || n < 3 || (p.parts[n - 1] as NamePart).role !== 'family') return undefined;
  if (p.familyFirst && !p.guessed) return { vote: 'family_first' };
  const w = p.written;
  if (headIsGivenName(w[0] as string)) return { vote: 'given_first' };
  const ordered = [...w.slice(1), w[0] as string];
  const m = ordered.length;
  return {
    vote: 'either',
    familyFirst: {
      first: ordered[0] as string,
      father: ordered[1] as string,
      ...(m >= 4 ? { grandfather: ordered[2] as string } : {}),
      family: ordered[m - 1] as string,
    },
  };
}

/**
 * What a Latin full name says of its list's habit of marking the family name by capitals (DHANI Ahmad, Fadi AL
 * HARIRI): `capitals_family` — one part in capitals that `parseParts` reads as the family name; `capitals_emphasis`
 * — a given name in capitals beside a part that is the family name by other signs (AHMAD Mohammed Al-Hassan: lists
 * that capitalise a word now and then); or `either` — a given name in capitals before or among given names only
 * (ABBUD Mohamed, ALI Fatima), read given name first unless the list's other names say it marks family names so,
 * with that reading's parts. Undefined for other names: no part in capitals, more than one, or a given name in
 * capitals last among given names (Mohamed Ali ABBUD: the family name either way).
 */
export type CapitalsReading =
  | { vote: 'capitals_family' | 'capitals_emphasis' }
  | { vote: 'either'; familyFirst: { first: string; father?: string; grandfather?: string; family: string } };

// Per full name with two capitals in a row (shared and frozen): linkage asks once per record, and lists repeat names.
const capitalsCache = new Map<string, CapitalsReading | null>();

export function capitalsReading(fullName: string): CapitalsReading | undefined {
  // Most names have no two capitals in a row (every Arabic one): they are answered without being read.
  if (typeof fullName !== 'string' || !/\p{Lu}{2}/u.test(fullName)) return undefined;
  return remembered(capitalsCache, fullName, (key) => frozen(readCapitals(key))) ?? undefined;
}

/** A reading as the cache shares it: frozen, its parts too. */
function frozen(reading: CapitalsReading | null): CapitalsReading | null {
  if (reading && reading.vote === 'either') Object.freeze(reading.familyFirst);
  return reading && Object.freeze(reading);
}

function readCapitals(fullName: string): CapitalsReading | null {
  const text = withoutAsides(clean(fullName));
  if (detectScript(text) !== 'latn' || !/\p{Lu}{2}/u.test(text)) return null;
  const { groups } = groupWords(words(text));
  if (groups.length < 2) return null;
  const caps = groups.flatMap((g, i) => (isCapitals(g) ? [i] : []));
  if (caps.length !== 1) return null;
  const at = caps[0] as number;
  const group = groups[at] as Group;
  const listed = listedAs(group);
  if (!listed.given || listed.family || hasArticle(group)) return { vote: 'capitals_family' };
  // Last, it is the family name read either way, and says nothing of the list.
  if (at === groups.length - 1) return null;
  const others = groups.filter((_, i) => i !== at);
  const givenOnly = (g: Group) => {
    const l = listedAs(g);
    return (l.given && !l.family && !hasArticle(g)) || readsAsGiven(g);
  };
  if (!others.every(givenOnly)) return { vote: 'capitals_emphasis' };
  const given = others.map(display);
  return {
    vote: 'either',
    familyFirst: {
      first: given[0] as string,
      ...(given.length >= 2 ? { father: given[1] as string } : {}),
      ...(given.length >= 3 ? { grandfather: given[2] as string } : {}),
      family: display(group),
    },
  };
}

export interface ParseOptions {
  /**
   * Read the second of two Arabic parts as the father's name when it is only a given name ("حسن محمد"): how
   * forensic lists, notices and registers write a person by their own and their father's name. The registry and
   * linkage read names so; by default two parts are first + family.
   */
  fatherInShortNames?: boolean;
  /**
   * Read an unlisted first part before given names only as a family name written first (default true: a name on its
   * own). Linkage reads such a name as written and lets its list's other names decide (orderReading: `either`).
   */
  guessOrder?: boolean;
}
