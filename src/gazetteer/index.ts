import { normalize } from '../names/normalize.js';
import { type Branch, branches } from './branches.js';
import { type Governorate, governorates } from './governorates.js';
import { type Town, towns } from './towns.js';

export type { Agency, Branch, BranchKind } from './branches.js';
export type { Governorate } from './governorates.js';
export type { Town } from './towns.js';
export { branches, governorates, towns };

/**
 * The form under which place and branch aliases are compared: the names module's matching form (Unicode hygiene,
 * Arabic letter variants, case, diacritics, digits, punctuation to single spaces), with the article folded away.
 * Pure; safe on any input.
 */
export function aliasKey(text: string): string {
  return normalize(text)
    .split(' ')
    .map((w) => w.replace(/^(al|el|ال)(?=\p{L}{2})/u, ''))
    .filter((w) => w !== 'al' && w !== 'el' && w !== 'the' && w !== '')
    .join(' ');
}

function indexBy<T>(items: readonly T[], names: (item: T) => string[]): Map<string, T> {
  const index = new Map<string, T>();
  for (const item of items) {
    for (const name of names(item)) {
      const key = aliasKey(name);
      if (key) index.set(key, item);
    }
  }
  return index;
}

/**
 * Every spelling of a unit: its names, each also without its parenthesis ("فرع الأمن العسكري في حمص (الفرع 261)"
 * is written "فرع الأمن العسكري في حمص" as often), and its aliases. The database's alias table is seeded from this.
 */
export function branchSpellings(b: Branch): string[] {
  const bare = (name: string) => name.replace(/\s*\([^)]*\)\s*$/u, '').trim();
  return [
    ...new Set(
      [b.nameEn, b.nameAr, bare(b.nameEn), bare(b.nameAr), ...b.aliases, ...(b.laterAliases ?? [])].filter(
        (n) => n !== '',
      ),
    ),
  ];
}

/** Every spelling of a governorate: its names and aliases. */
export function governorateSpellings(g: Governorate): string[] {
  return [...new Set([g.nameEn, g.nameAr, ...g.aliases, ...(g.laterAliases ?? [])])];
}

const branchIndex = indexBy(branches, (b) => [b.id, ...branchSpellings(b)]);
const branchById = new Map(branches.map((b) => [b.id, b]));
/** Whether `unit` is above `b` in the hierarchy (its directorate or agency). */
function isAbove(unit: Branch, b: Branch): boolean {
  for (let up = b.parent; up !== undefined; up = branchById.get(up)?.parent) if (up === unit.id) return true;
  return false;
}
const branchByNumber = new Map(branches.filter((b) => b.number !== null).map((b) => [b.number as number, b]));
const governorateIndex = indexBy(governorates, (g) => [g.id, g.iso, ...governorateSpellings(g)]);

/** The units above a branch, nearest first (branch → directorate → agency). */
export function unitsAbove(branch: Branch): Branch[] {
  const out: Branch[] = [];
  for (let up = branch.parent; up !== undefined && out.length < 8; ) {
    const unit = branchById.get(up);
    if (!unit) break;
    out.push(unit);
    up = unit.parent;
  }
  return out;
}

/**
 * Whether two mentions may name one unit: the same unit, or one the unit above the other — a forensic card names a
 * branch by its agency (الجوية), a register by the branch itself (فرع التحقيق في المخابرات الجوية). Two branches of
 * one agency do not: numbers are given per branch.
 */
export function branchesNest(a: Branch, b: Branch): boolean {
  return a.id === b.id || isAbove(a, b) || isAbove(b, a);
}

/**
 * The branch a free-text mention names, or undefined. "فرع فلسطين", "الفرع 235", "Branch 235" and "235" all give
 * branch-235; a text that only carries a branch number resolves by that number.
 */
export function resolveBranch(text: string | null | undefined): Branch | undefined {
  if (!text) return undefined;
  const key = aliasKey(text);
  if (!key) return undefined;
  return branchIndex.get(key) ?? remembered(branchesRead, text, () => branchRead(text, key));
}

/** A unit's mention that is none of its spellings as written: by its number, past a slip, or in parts. */
function branchRead(text: string, key: string): Branch | undefined {
  const numbers = key.match(/\d+/g);
  if (numbers?.length === 1) {
    const byNumber = branchByNumber.get(Number(numbers[0]));
    const words = key.replace(/\d+/g, ' ').replace(/\s+/g, ' ').trim();
    const rest = words.replace(/\b(branch|no|number|nr)\b|فرع|رقم/gu, '').trim();
    if (rest === '') return byNumber;
    // "فرع التحقيق العسكري 248": a unit's name and its number, written together; or the agency above it and the
    // number ("فرع أمن الدولة 251", "Military Intelligence Branch 215").
    if (byNumber) {
      const unnumbered = words
        .replace(/\b(no|number|nr)\b|رقم/gu, '')
        .replace(/\s+/g, ' ')
        .trim();
      for (const text of [words, rest, unnumbered]) {
        const named = branchIndex.get(text) ?? branchSlips.of(text);
        if (named && (named === byNumber || isAbove(named, byNumber))) return byNumber;
      }
    }
  }
  return branchSlips.of(key) ?? unitOfParts(text);
}

/**
 * What the slower readings found for a text (a slip, a compound, a word for the place's kind): an import meets the
 * same unknown spelling on many rows. Bounded; cleared when full.
 */
function remembered<T>(
  memo: Map<string, T | undefined>,
  text: string,
  read: () => T | undefined,
): T | undefined {
  if (memo.has(text)) return memo.get(text);
  const found = read();
  if (memo.size >= 10_000) memo.clear();
  memo.set(text, found);
  return found;
}
const branchesRead = new Map<string, Branch | undefined>();
const townsRead = new Map<string, Town | undefined>();
const governoratesRead = new Map<string, Governorate | undefined>();

/** A compound mention's parts ("داريا، ريف دمشق", "Daraya (Rif Dimashq)", "Military Intelligence - Palestine Branch"). */
function partsOf(text: string): string[] {
  return text.split(/[,،;()[\]/–—]| - /u).filter((p) => p.trim() !== '');
}

/**
 * A unit written in parts ("Military Intelligence - Palestine Branch", "Palestine branch, Damascus"): the most
 * specific unit the parts name, when the others are above it; undefined when they name units apart.
 */
function unitOfParts(text: string): Branch | undefined {
  const parts = partsOf(text);
  if (parts.length < 2) return undefined;
  let found: Branch | undefined;
  for (const part of parts) {
    const b = resolveBranch(part);
    if (!b || b === found) continue;
    if (!found || isAbove(found, b)) found = b;
    else if (!isAbove(b, found)) return undefined;
  }
  return found;
}

/** The key and its one-letter deletions; digits are never deleted (a number names the unit). */
function deletions(key: string): string[] {
  const out = [key];
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if ((c >= 0x30 && c <= 0x39) || (c >= 0x660 && c <= 0x669)) continue;
    out.push(key.slice(0, i) + key.slice(i + 1));
  }
  return out;
}

/**
 * Reading a spelling past one slip of typing or scanning (a letter dropped, added or changed, two swapped): each
 * known spelling of at least `shortest` letters with its one-letter deletions, and the entries they come from (a
 * deletion neighbourhood). Two spellings one slip apart share a deletion. A text shorter than `shortestRead` is not
 * read past a slip.
 */
class SlipIndex<T> {
  private readonly variants = new Map<string, Set<T>>();

  constructor(
    index: ReadonlyMap<string, T>,
    shortest: number,
    private readonly shortestRead: number,
  ) {
    for (const [key, entry] of index) {
      if (key.length < shortest) continue;
      for (const d of deletions(key)) {
        const entries = this.variants.get(d);
        if (entries) entries.add(entry);
        else this.variants.set(d, new Set([entry]));
      }
    }
  }

  /** The one entry whose spellings are one slip from `key`, or undefined (none, or more than one). */
  of(key: string): T | undefined {
    if (key.length < this.shortestRead) return undefined;
    let found: T | undefined;
    for (const d of deletions(key)) {
      const entries = this.variants.get(d);
      if (!entries) continue;
      for (const e of entries) {
        if (found !== undefined && found !== e) return undefined;
        found = e;
      }
    }
    return found;
  }
}

// Units: spellings and texts of six letters or more ("فرع 24" is no slip of "فرع 245"; "فرع المخابرت الجوية في حلب",
// "الرع 245" are). Governorates: spellings of four or more, texts of three (درع, دمق), not three-letter spellings
// (حمص and حلب are a slip apart from many words).
const branchSlips = new SlipIndex(branchIndex, 6, 6);

const townIndex = indexBy(towns, (t) => [t.nameEn, t.nameAr, ...t.aliases]);

// Words that say what kind of place a name is ("محافظة درعا", "بلدة داريا", "Daraa Governorate", "Halep ili"), in
// aliasKey's folded form, and words that make a governorate's countryside of a city's name (ريف حلب, Aleppo
// countryside): dropped when the text as written is no known place.
const placeTypeWords = new Set([
  'محافظه',
  'مدينه',
  'بلده',
  'قريه',
  'حي',
  'ناحيه',
  'منطقه',
  'governorate',
  'province',
  'city',
  'town',
  'village',
  'district',
  'neighbourhood',
  'neighborhood',
  'quarter',
  'gouvernorat',
  'ville',
  'quartier',
  'provinz',
  'stadt',
  'dorf',
  'ili',
  'vilayeti',
  'of',
  'de',
  'du',
]);
const countrysideWords = new Set(['ريف', 'countryside', 'rural', 'campagne', 'kirsali', 'umland', 'von']);

/**
 * Other readings of a place as written, tried when it is no known place as a whole: each part of a compound
 * ("داريا، ريف دمشق", "Daraya (Rif Dimashq)", "Hama - Kafr Zita"), and each without words naming the kind of place.
 */
function placeReadings(text: string): string[] {
  const parts = partsOf(text);
  const out = new Set<string>();
  for (const part of parts.length > 1 ? [...parts, text] : [text]) {
    const key = aliasKey(part);
    if (key) out.add(key);
    const bare = key
      .split(' ')
      .filter((w) => !placeTypeWords.has(w))
      .join(' ');
    if (bare) out.add(bare);
  }
  return [...out];
}

/** The town a free-text mention names (a place of origin, or a town written in the governorate column), or undefined. */
export function resolveTown(text: string | null | undefined): Town | undefined {
  if (!text) return undefined;
  const key = aliasKey(text);
  const hit = townIndex.get(key);
  if (hit || governorateIndex.has(key)) return hit;
  return remembered(townsRead, text, () => {
    for (const reading of placeReadings(text)) {
      const town = townIndex.get(reading);
      if (town) return town;
    }
    return undefined;
  });
}

const governorateSlips = new SlipIndex(governorateIndex, 4, 3);
const rifDimashq = governorates.find((g) => g.id === 'rif-dimashq');

/**
 * The governorate a free-text mention names, or undefined: by its spellings, or past one slip of them (درع, دمق,
 * ريف دمش) when the text is no town the gazetteer knows; then by the parts of a compound and without words naming
 * the kind of place (محافظة درعا, Daraa Governorate); a city's countryside is its governorate (ريف حلب, Aleppo
 * countryside), Damascus's being Rif Dimashq.
 */
export function resolveGovernorate(text: string | null | undefined): Governorate | undefined {
  if (!text) return undefined;
  const key = aliasKey(text);
  const hit = governorateIndex.get(key);
  if (hit || townIndex.has(key)) return hit;
  return remembered(governoratesRead, text, () => {
    const slip = governorateSlips.of(key);
    if (slip) return slip;
    for (const reading of placeReadings(text)) {
      const words = reading.split(' ');
      const countryside = words.some((w) => countrysideWords.has(w));
      const g = governorateIndex.get(
        countryside ? words.filter((w) => !countrysideWords.has(w)).join(' ') : reading,
      );
      if (g) return countryside && g.id === 'damascus' ? rifDimashq : g;
    }
    return undefined;
  });
}
