/**
 * The lexicon index: canonical spelling → lexicon entries. Two tokens listed under one entry are the same name
 * however differently spelled ("Mhd" / محمد); two tokens that are both listed, under different entries, are known
 * to be different names (سامر / سمير, حسن / حسين) however alike they look.
 */
import { ABU_WORDS, canonicalPart, gluedArticleLength } from './canonical.js';
import {
  ABD_COMPOUNDS,
  ALLAH_COMPOUNDS,
  DIN_COMPOUNDS,
  FAMILY_NAMES,
  FEMALE_NAMES,
  GIVEN_NAMES,
  NICKNAMES,
} from './lexicon-data.js';
import { normalize } from './normalize.js';

export interface LexiconEntry {
  id: number;
  /** The Arabic display form. */
  arabic: string;
  /** Every Arabic spelling listed. */
  arabicForms: string[];
  /** Latin spellings as listed (matching forms). */
  latin: string[];
  /** Canonical Arabic spelling (what the entry's skeleton key is computed from). */
  canonical: string;
  /** Listed as a given name (a man's, a woman's, or a compound), as a family name, or both. */
  given: boolean;
  family: boolean;
  /** Listed among women's names only (never as a man's): a record with this first name is a woman's. */
  woman: boolean;
}

interface Index {
  entries: LexiconEntry[];
  byKey: Map<string, number[]>;
  /** A pet or short form's lookup key → the entries of the names it stands for (NICKNAMES). */
  nicknames: Map<string, number[]>;
}

let index: Index | undefined;

/** The canonical spelling of a name part given as text (normalise, split into words, canonical.ts). */
export function canonicalOf(text: string): string {
  const form = normalize(text);
  return form === '' ? '' : canonicalPart(form.split(' '));
}

/**
 * Lookup key: the canonical spelling with doubled consonants merged (Hassan/Hasan, Abboud/Aboud). Doubled Latin
 * vowels stay: they mark long vowels (Sameer is سمير, Samer is سامر).
 */
export function lexiconKey(canonical: string): string {
  return canonical.replace(/[ىئ]/g, 'ي').replace(/([^aeiouy])\1+/gu, '$1');
}

/** A lexicon-data block's lines: Arabic spellings (split on /) and Latin spellings. */
function blockLines(block: string): { arabic: string[]; latin: string[] }[] {
  return block
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .map((l) => {
      const [arabic = '', latin = ''] = l.split(':');
      return {
        arabic: arabic
          .split('/')
          .map((a) => a.trim())
          .filter(Boolean),
        latin: latin.trim().split(/\s+/).filter(Boolean),
      };
    });
}

/** The names that follow عبد in a compound (الرحمن, القادر …), in Arabic, as the lexicon lists them. */
export function abdCompoundNames(): string[] {
  return blockLines(ABD_COMPOUNDS).flatMap((l) => l.arabic);
}

function build(): Index {
  const entries: LexiconEntry[] = [];
  const byKey = new Map<string, number[]>();
  const byArabic = new Map<string, LexiconEntry>();
  const add = (key: string, id: number) => {
    if (key === '') return;
    const ids = byKey.get(key);
    if (!ids) byKey.set(key, [id]);
    else if (!ids.includes(id)) ids.push(id);
  };
  const addEntry = (arabicForms: string[], latin: string[], family = false, woman = false) => {
    const first = arabicForms[0] as string;
    const canonical = canonicalOf(first);
    let entry = byArabic.get(canonical);
    if (!entry) {
      entry = {
        id: entries.length,
        arabic: first,
        arabicForms: [],
        latin: [],
        canonical,
        given: false,
        family: false,
        woman,
      };
      entries.push(entry);
      byArabic.set(canonical, entry);
    }
    if (family) entry.family = true;
    else entry.given = true;
    // An entry listed as a man's name too is nobody's sex.
    if (!woman && !family) entry.woman = false;
    for (const form of arabicForms) {
      if (!entry.arabicForms.includes(form)) entry.arabicForms.push(form);
      add(lexiconKey(canonicalOf(form)), entry.id);
    }
    for (const spelling of latin) {
      if (!entry.latin.includes(spelling)) entry.latin.push(spelling);
      add(lexiconKey(canonicalOf(spelling)), entry.id);
    }
  };
  for (const block of [GIVEN_NAMES, FEMALE_NAMES, FAMILY_NAMES]) {
    for (const { arabic, latin } of blockLines(block))
      addEntry(arabic, latin, block === FAMILY_NAMES, block === FEMALE_NAMES);
  }
  // The German and Turkish renderings of the listed names, derived by rule once everything listed is in: a derived
  // spelling that another entry lists already is left to that entry (a listed name is never made ambiguous).
  const derived = new Map<string, number[]>();
  for (const entry of entries) {
    for (const spelling of entry.latin) {
      for (const form of habitSpellings(spelling)) {
        const key = lexiconKey(canonicalOf(form));
        if (key === '' || byKey.has(key)) continue;
        // A form other lists would read as another listed name is ambiguous, not derived: Turkish c is ج, but
        // Camal and Casim are كمال and قاسم in English letters; Fadie is فادي + e as much as فادية.
        // (English and French c is hard only before a, o, u.)
        const readings = [
          form.replace(/c(?=[aou])/g, 'k'),
          form.replace(/c(?=[aou])/g, 'q'),
          form.replace(/e$/, ''),
        ];
        if (
          readings.some(
            (r) =>
              r !== form &&
              (byKey.get(lexiconKey(canonicalOf(r))) ?? [entry.id]).some((id) => id !== entry.id),
          )
        )
          continue;
        const ids = derived.get(key);
        if (!ids) derived.set(key, [entry.id]);
        else if (!ids.includes(entry.id)) ids.push(entry.id);
      }
    }
  }
  for (const [key, ids] of derived) byKey.set(key, ids);
  for (const { arabic, latin } of blockLines(ABD_COMPOUNDS)) {
    addEntry(
      arabic.map((a) => `عبد ${a}`),
      latin.map((l) => `abd al ${l}`),
    );
  }
  for (const { arabic, latin } of blockLines(DIN_COMPOUNDS)) {
    addEntry(
      arabic.map((a) => `${a} الدين`),
      latin.map((l) => `${l} eddine`),
    );
  }
  for (const { arabic, latin } of blockLines(ALLAH_COMPOUNDS)) {
    addEntry(
      arabic.map((a) => `${a} الله`),
      latin.map((l) => `${l} allah`),
    );
  }
  const nicknames = new Map<string, number[]>();
  for (const line of NICKNAMES.split('\n')) {
    const [forms = '', names = ''] = line.split('>');
    if (names.trim() === '') continue;
    const ids = names.split('/').map((name) => {
      const entry = byArabic.get(canonicalOf(name.trim()));
      if (!entry)
        throw new Error(`lexicon: ${forms.trim()} is a pet form of an unlisted name, ${name.trim()}`);
      return entry.id;
    });
    for (const form of forms.split('/')) nicknames.set(lexiconKey(canonicalOf(form.trim())), ids);
  }
  return { entries, byKey, nicknames };
}

/**
 * How German- and Turkish-language lists write a name the lexicon lists in English or French letters: German j for
 * ي (Jussuf, Marjam, Hussajn, Sulajman), dsch for ج, sch for ش, ch for خ, s for ز and ss for a voiceless س between vowels
 * (Sijad, Masin); Turkish c for ج (Cemal), h for خ (Halit), g for غ (Ğassan), v for و (Velid, Rıdvan), k for ق,
 * a final d or b said as t or p (Halit, Zeynep), and e for an a (Cemal, Velid, Zeynep). Matching forms in,
 * matching forms out, where diacritics are folded: so Turkish ş and ç (s and c once folded) are not derived — Şadi
 * would become Sadi, another name (سعدي); the few such forms of common names are listed by hand (Ayşe).
 */
export function habitSpellings(spelling: string): string[] {
  const out = new Set<string>();
  // German: the order matters (j before y turns into j; s doubled before z turns into s).
  const german = spelling
    .replace(/kh/g, 'ch')
    .replace(/sh/g, 'sch')
    .replace(/dj|j/g, 'dsch')
    .replace(/y(?=.)/g, 'j')
    .replace(/(?<=[aeiou])s(?=[aeiou])/g, 'ss')
    .replace(/z/g, 's');
  out.add(german);
  out.add(german.replace(/ai/g, 'aj'));
  const turkish = spelling
    .replace(/kh/g, 'h')
    .replace(/gh/g, 'g')
    .replace(/dj|j/g, 'c')
    .replace(/dh/g, 'z')
    .replace(/th/g, 's')
    .replace(/q/g, 'k')
    .replace(/w/g, 'v')
    .replace(/ou/g, 'u')
    .replace(/ai/g, 'ay');
  const finals = [turkish, turkish.replace(/d$/, 't').replace(/b$/, 'p')];
  for (const t of finals) {
    out.add(t);
    out.add(t.replace(/a$/, 'e'));
    // One a said as e (Cemal, Velid), or every a but a first letter's (Zeynep).
    for (let i = 1; i < t.length; i++) if (t[i] === 'a') out.add(`${t.slice(0, i)}e${t.slice(i + 1)}`);
    out.add(t[0] + t.slice(1).replace(/a/g, 'e'));
  }
  out.delete(spelling);
  return [...out];
}

function getIndex(): Index {
  index ??= build();
  return index;
}

const NONE: readonly number[] = [];

/** Lexicon entry ids for a canonical spelling; a glued article is tried off when the whole is not listed. */
export function lookupLexicon(canonical: string): readonly number[] {
  if (canonical === '') return NONE;
  const { byKey } = getIndex();
  const hit = byKey.get(lexiconKey(canonical));
  if (hit) return hit;
  const article = gluedArticleLength(canonical);
  if (article > 0) return byKey.get(lexiconKey(canonical.slice(article))) ?? NONE;
  return NONE;
}

/**
 * The entries of the names a spelling is a pet or short form of (حمودة: محمد, محمود), by its canonical
 * spelling; none for most (NICKNAMES).
 */
export function nicknameTargets(canonical: string): readonly number[] {
  if (canonical === '') return NONE;
  return getIndex().nicknames.get(lexiconKey(canonical)) ?? NONE;
}

/**
 * The names (Arabic, as listed) a name as written is a pet or short form of (حمودة: محمد, محمود); none for most. A
 * lookup of its canonical spelling: no token is prepared.
 */
export function nicknameNames(text: string): string[] {
  const ids = nicknameTargets(canonicalOf(text));
  if (ids.length === 0) return [];
  const { entries } = getIndex();
  return ids.map((id) => (entries[id] as LexiconEntry).arabic);
}

export function lexiconEntry(id: number): LexiconEntry | undefined {
  return getIndex().entries[id];
}

/** Every entry (for tests, docs and the held-out guard). */
export function lexiconEntries(): readonly LexiconEntry[] {
  return getIndex().entries;
}

/** Whether a spelling is listed (after canonicalisation), for the held-out guard in tests. */
export function isListed(text: string): boolean {
  return lookupLexicon(canonicalOf(text)).length > 0;
}

/**
 * Whether a given name as written is listed as a woman's only (فاطمة, Zeinab, Ayşe): every entry its spelling
 * meets is a woman's name. A name also listed as a man's (نور), or not listed, says nothing.
 */
export function isWomansName(text: string): boolean {
  const ids = lookupLexicon(canonicalOf(text));
  if (ids.length === 0) return false;
  const { entries } = getIndex();
  return ids.every((id) => entries[id]?.woman === true);
}

/**
 * Whether a first name as written is a kunya — "Abu Ahmad", أبو أحمد: "father of Ahmad", the name people call a
 * man by after his eldest son — rather than his given name: أبو followed by a listed name. Abu Bakr is a given
 * name and stays one.
 */
export function isKunya(text: string): boolean {
  const words = normalize(text)
    .split(' ')
    .filter((w) => w !== '');
  if (words.length < 2 || !ABU_WORDS.has(words[0] as string)) return false;
  const rest = canonicalPart(words.slice(1));
  const ids = lookupLexicon(rest);
  return ids.length > 0 && !ids.some((id) => lexiconEntry(id)?.arabic === 'بكر');
}
