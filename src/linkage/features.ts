import type { DateColumn, PersonRecordFields } from '../domain/person-record.js';
import {
  aliasKey,
  branches,
  governorates,
  resolveBranch,
  resolveGovernorate,
  resolveTown,
  unitsAbove,
} from '../gazetteer/index.js';
import { isWomansName } from '../names/index.js';
import { type DateParse, epochDay, parseDate, parseYear } from './dates.js';
import {
  coarseSkeleton,
  firstNameForm,
  fullNameOrder,
  nameOrderVote,
  normalizeName,
  parseFullName,
  partForm,
  placeKey,
} from './name-kit.js';
import { Interner, type NameList, NameVocabulary } from './vocabulary.js';

/** Missing value in every column. */
export const none = -1;

/** Date precision codes. */
export const precision = { none: 0, year: 1, month: 2, day: 3 } as const;

/** Codes above these are places and branches the gazetteer does not know, interned by their alias key. */
export const unknownGovernorateBase = 100;
export const unknownBranchBase = 1000;

/** How two place names relate (RecordFeatures.placeRelation). */
export type PlaceRelation = 'nests' | 'alike' | 'apart';
/** For each gazetteer unit (its code, the index in `branches`), the codes of the units above it, nearest first. */
const branchAncestors: readonly (readonly number[])[] = branches.map((b) =>
  unitsAbove(b).map((u) => branches.indexOf(u)),
);

/** The top unit above a branch code: itself for a unit with none, or a branch the gazetteer does not know. */
export function branchRoot(code: number): number {
  return branchAncestors[code]?.at(-1) ?? code;
}

/**
 * Whether two branch codes name one unit, or one names a unit above the other (a forensic card's الجوية and the
 * register's Air Force Intelligence branch; gazetteer branchesNest).
 */
export function branchesNestByCode(a: number, b: number): boolean {
  return a === b || branchAncestors[a]?.includes(b) === true || branchAncestors[b]?.includes(a) === true;
}

/** Detainee numbers that are not plain digits are coded from here up. */
export const detaineeTextBase = 1_000_000_000;

/**
 * The columns every prepared record carries, all Int32 (-1 = missing): ids of interned values, gazetteer codes,
 * dates as year/month/day or epoch days with a precision code.
 */
export const featureColumns = [
  'source',
  'first',
  'father',
  'grandfather',
  'family',
  'motherFirst',
  'motherRest',
  'sex',
  'birthYear',
  'birthMonth',
  'birthDay',
  'governorate',
  'place',
  'arrestDay',
  'arrestPrecision',
  'branch',
  'detainee',
  'deathDay',
  'deathPrecision',
  'nameOrder',
  'altFirst',
  'altFather',
  'altGrandfather',
  'altFamily',
] as const;
export type FeatureColumn = (typeof featureColumns)[number];

/**
 * The columns only `settleNameOrder` reads (a name's order vote and its family-first reading): a snapshot for
 * scoring leaves them out (five columns of shared memory at 1M records that no scoring thread reads).
 */
const orderColumns: ReadonlySet<FeatureColumn> = new Set([
  'nameOrder',
  'altFirst',
  'altFather',
  'altGrandfather',
  'altFamily',
]);

/**
 * Whether a list's Latin names mark the family name by capitals (DHANI Ahmad, Fadi AL HARIRI): at least three of
 * them say so, twice as many as write a given name in capitals beside a family name (a list that capitalises a word
 * now and then, athar synth's: about as many of each). Its given names in capitals among given names only (ABBUD
 * Mohamed) are then read as family names.
 */
function marksFamilyByCapitals(tally: readonly [number, number] | undefined): boolean {
  return tally !== undefined && tally[0] >= 3 && tally[0] >= 2 * tally[1];
}

/**
 * The latest year a date of birth, arrest or death can have: this one (a day ahead, so that a date written east of
 * UTC on New Year's Day counts). Looked up again once the year is out: a server runs across New Year.
 */
let latestYear = 0;
let latestYearUntil = 0;
function yearNow(): number {
  const now = Date.now();
  if (now >= latestYearUntil) {
    latestYear = new Date(now + 86_400_000).getUTCFullYear();
    latestYearUntil = Date.UTC(latestYear, 0, 1);
  }
  return latestYear;
}

export interface FeatureIssues {
  /** Rows with no first, father, grandfather or family name: kept, linked only by a detainee number and branch. */
  rowsWithoutName: number;
  /** Unreadable dates, and dates in a year still to come, per column: treated as missing. */
  invalidDates: Record<DateColumn, number>;
}

/** Everything one RecordFeatures holds, to be folded into another (records prepared in a worker thread). */
export interface FeatureExport {
  size: number;
  columns: Record<FeatureColumn, Int32Array>;
  ids: string[];
  names: NameList;
  sources: readonly string[];
  places: readonly string[];
  numbers: readonly string[];
  unknownPlaces: readonly string[];
  issues: FeatureIssues;
}

/** What a worker needs to rebuild the features: columns on shared memory and the vocabularies' strings. */
export interface FeatureSnapshot {
  size: number;
  /** Every column, or all but the order columns (a snapshot for scoring). */
  columns: Partial<Record<FeatureColumn, Int32Array>>;
  names: NameList;
  /** The places' keys (the place comparison reads their words). */
  places: readonly string[];
}

/**
 * Records prepared once into compact numeric columns, so that blocking and comparison touch only integers and
 * interned names. Grows as records are added (link reads a stream; the match index takes records as they arrive).
 */
export class RecordFeatures {
  size = 0;
  private capacity: number;
  readonly names: NameVocabulary;
  readonly sources = new Interner();
  readonly places = new Interner();
  readonly numbers = new Interner();
  readonly unknownPlaces = new Interner();
  /** The caller's id of each record (the CSV's record_id, or a database id). */
  readonly ids: string[] = [];
  readonly issues: FeatureIssues = {
    rowsWithoutName: 0,
    invalidDates: { birth_date: 0, birth_year: 0, arrest_date: 0, death_date: 0 },
  };

  source: Int32Array;
  first: Int32Array;
  father: Int32Array;
  grandfather: Int32Array;
  family: Int32Array;
  motherFirst: Int32Array;
  motherRest: Int32Array;
  sex: Int32Array;
  birthYear: Int32Array;
  birthMonth: Int32Array;
  birthDay: Int32Array;
  governorate: Int32Array;
  place: Int32Array;
  arrestDay: Int32Array;
  arrestPrecision: Int32Array;
  branch: Int32Array;
  detainee: Int32Array;
  deathDay: Int32Array;
  deathPrecision: Int32Array;
  /**
   * A full name's vote on its list's order of writing (name-kit nameOrderVote) and, where it is `either`, its names
   * read family name first (alt*; none otherwise): `settleNameOrder` takes that reading when the list's other names
   * say it writes so.
   */
  nameOrder: Int32Array;
  altFirst: Int32Array;
  altFather: Int32Array;
  altGrandfather: Int32Array;
  altFamily: Int32Array;

  private readonly partCache = new Map<string, number>();
  private readonly firstCache = new Map<string, number>();
  private readonly fullNameIds = new Int32Array(4);
  private readonly governorateCache = new Map<string, number>();
  private readonly placeCache = new Map<string, number>();
  private readonly townGovernorateCache = new Map<string, number>();
  private readonly motherCache = new Map<string, Int32Array>();
  private readonly sexCache = new Map<string, number>();
  private readonly womanCache = new Map<number, boolean>();
  private readonly branchCache = new Map<string, number>();

  constructor(capacity = 1024, names = new NameVocabulary()) {
    this.capacity = Math.max(16, capacity);
    this.names = names;
    this.source = new Int32Array(this.capacity);
    this.first = new Int32Array(this.capacity);
    this.father = new Int32Array(this.capacity);
    this.grandfather = new Int32Array(this.capacity);
    this.family = new Int32Array(this.capacity);
    this.motherFirst = new Int32Array(this.capacity);
    this.motherRest = new Int32Array(this.capacity);
    this.sex = new Int32Array(this.capacity);
    this.birthYear = new Int32Array(this.capacity);
    this.birthMonth = new Int32Array(this.capacity);
    this.birthDay = new Int32Array(this.capacity);
    this.governorate = new Int32Array(this.capacity);
    this.place = new Int32Array(this.capacity);
    this.arrestDay = new Int32Array(this.capacity);
    this.arrestPrecision = new Int32Array(this.capacity);
    this.branch = new Int32Array(this.capacity);
    this.detainee = new Int32Array(this.capacity);
    this.deathDay = new Int32Array(this.capacity);
    this.deathPrecision = new Int32Array(this.capacity);
    this.nameOrder = new Int32Array(this.capacity);
    this.altFirst = new Int32Array(this.capacity);
    this.altFather = new Int32Array(this.capacity);
    this.altGrandfather = new Int32Array(this.capacity);
    this.altFamily = new Int32Array(this.capacity);
  }

  /** Rebuilds read-only features from a snapshot (worker side); ids and issue counts stay with the owner. */
  static fromSnapshot(snapshot: FeatureSnapshot): RecordFeatures {
    const features = new RecordFeatures(16, NameVocabulary.from(snapshot.names));
    // A scoring snapshot's order columns stay empty: such features are scored, never read again.
    for (const column of featureColumns) features[column] = snapshot.columns[column] ?? new Int32Array(0);
    for (const place of snapshot.places) features.places.intern(place);
    features.size = snapshot.size;
    features.capacity = snapshot.size;
    return features;
  }

  /** Columns copied to shared memory, for worker threads (`forScoring`: without the order columns). */
  snapshot(forScoring = false): FeatureSnapshot {
    const columns: FeatureSnapshot['columns'] = {};
    for (const column of featureColumns)
      if (!forScoring || !orderColumns.has(column)) columns[column] = this.sharedCopy(column);
    return { size: this.size, columns, names: this.names.list(), places: this.places.values };
  }

  private sharedCopy(column: FeatureColumn): Int32Array {
    const shared = new Int32Array(new SharedArrayBuffer(Math.max(4, this.size * 4)));
    shared.set(this[column].subarray(0, this.size));
    return shared;
  }

  /** All of it, for `absorb` on another thread's side. */
  exportAll(): FeatureExport {
    const columns = {} as FeatureExport['columns'];
    for (const column of featureColumns) columns[column] = this.sharedCopy(column);
    return {
      size: this.size,
      columns,
      ids: this.ids,
      names: this.names.list(),
      sources: this.sources.values,
      places: this.places.values,
      numbers: this.numbers.values,
      unknownPlaces: this.unknownPlaces.values,
      issues: this.issues,
    };
  }

  /**
   * Appends records prepared elsewhere (another thread, its own vocabularies): their ids are re-interned here and
   * every coded column is mapped onto this side's codes.
   */
  absorb(other: FeatureExport): void {
    const remap = (values: readonly string[], into: { intern(v: string): number }) =>
      Int32Array.from(values, (v) => into.intern(v));
    const names = Int32Array.from(other.names.forms, (form, id) =>
      this.names.intern(form, other.names.keys[id]),
    );
    const sources = remap(other.sources, this.sources);
    const places = remap(other.places, this.places);
    const numbers = remap(other.numbers, this.numbers);
    const unknown = remap(other.unknownPlaces, this.unknownPlaces);
    const name = (v: number) => (v < 0 ? v : (names[v] as number));
    const code = (v: number, table: Int32Array) => (v < 0 ? v : (table[v] as number));
    const c = other.columns;
    for (let k = 0; k < other.size; k++) {
      if (this.size === this.capacity) this.grow();
      const i = this.size++;
      this.ids.push(other.ids[k] as string);
      for (const column of featureColumns) this[column][i] = c[column][k] as number;
      this.source[i] = code(c.source[k] as number, sources);
      this.first[i] = name(c.first[k] as number);
      this.father[i] = name(c.father[k] as number);
      this.grandfather[i] = name(c.grandfather[k] as number);
      this.family[i] = name(c.family[k] as number);
      this.altFirst[i] = name(c.altFirst[k] as number);
      this.altFather[i] = name(c.altFather[k] as number);
      this.altGrandfather[i] = name(c.altGrandfather[k] as number);
      this.altFamily[i] = name(c.altFamily[k] as number);
      this.motherFirst[i] = name(c.motherFirst[k] as number);
      this.motherRest[i] = name(c.motherRest[k] as number);
      this.place[i] = code(c.place[k] as number, places);
      const detainee = c.detainee[k] as number;
      if (detainee >= detaineeTextBase)
        this.detainee[i] = detaineeTextBase + (numbers[detainee - detaineeTextBase] as number);
      const governorate = c.governorate[k] as number;
      if (governorate >= unknownGovernorateBase) {
        this.governorate[i] =
          unknownGovernorateBase + (unknown[governorate - unknownGovernorateBase] as number);
      }
      const branch = c.branch[k] as number;
      if (branch >= unknownBranchBase)
        this.branch[i] = unknownBranchBase + (unknown[branch - unknownBranchBase] as number);
    }
    this.issues.rowsWithoutName += other.issues.rowsWithoutName;
    for (const column of Object.keys(this.issues.invalidDates) as DateColumn[]) {
      this.issues.invalidDates[column] += other.issues.invalidDates[column];
    }
  }

  /** True when the record has at least one of first, father, grandfather or family name. */
  hasName(i: number): boolean {
    return (
      (this.first[i] as number) >= 0 ||
      (this.family[i] as number) >= 0 ||
      (this.father[i] as number) >= 0 ||
      (this.grandfather[i] as number) >= 0
    );
  }

  /** Prepares one row and returns its index. */
  add(id: string, fields: PersonRecordFields): number {
    if (this.size === this.capacity) this.grow();
    const i = this.size++;
    this.ids.push(id);
    this.source[i] = fields.source?.trim() ? this.sources.intern(fields.source.trim()) : none;

    let first = this.part(fields.first_name, true);
    let father = this.part(fields.father_name);
    let grandfather = this.part(fields.grandfather_name);
    let family = this.part(fields.family_name);
    const full = fields.full_name;
    this.nameOrder[i] = nameOrderVote.none;
    this.altFirst[i] = none;
    this.altFather[i] = none;
    this.altGrandfather[i] = none;
    this.altFamily[i] = none;
    if (full?.trim() && (first < 0 || family < 0 || (father < 0 && grandfather < 0))) {
      const parsed = this.fullName(full);
      if (first < 0 && family < 0 && father < 0 && grandfather < 0) {
        [first, father, grandfather, family] = parsed as unknown as [number, number, number, number];
        this.readOrder(i, full);
      } else {
        if (first < 0) first = parsed[0] as number;
        if (family < 0) family = parsed[3] as number;
      }
    }
    this.first[i] = first;
    this.father[i] = father;
    this.grandfather[i] = grandfather;
    this.family[i] = family;
    if (first < 0 && father < 0 && grandfather < 0 && family < 0) this.issues.rowsWithoutName++;

    const mother = this.mother(fields.mother_name);
    this.motherFirst[i] = mother[0] as number;
    this.motherRest[i] = mother[1] as number;

    const sex = fields.sex ? this.sexOf(fields.sex) : none;
    this.sex[i] = sex === none && first >= 0 && this.womansName(first) ? womanByName : sex;

    const birth = this.date('birth_date', parseDate(fields.birth_date));
    const year = birth ? undefined : this.date('birth_year', parseYear(fields.birth_year));
    const b = birth ?? year;
    this.birthYear[i] = b ? b.year : none;
    this.birthMonth[i] = b ? b.month : 0;
    this.birthDay[i] = b ? b.day : 0;
    if (birth && fields.birth_year) this.date('birth_year', parseYear(fields.birth_year));

    this.governorate[i] = this.governorateCode(fields.governorate);
    this.place[i] = this.placeCode(fields.place_of_origin);
    // A known town says its governorate when the record does not.
    if (this.governorate[i] === none && fields.place_of_origin)
      this.governorate[i] = this.governorateOfTown(fields.place_of_origin);

    const arrest = this.date('arrest_date', parseDate(fields.arrest_date));
    this.arrestDay[i] = arrest ? epochDay(arrest) : none;
    this.arrestPrecision[i] = arrest ? precisionOf(arrest) : precision.none;
    const death = this.date('death_date', parseDate(fields.death_date));
    this.deathDay[i] = death ? epochDay(death) : none;
    this.deathPrecision[i] = death ? precisionOf(death) : precision.none;

    this.branch[i] = this.branchCode(fields.arresting_branch);
    this.detainee[i] = this.detaineeCode(fields.detainee_number);
    return i;
  }

  /**
   * A detainee number's code: the number itself when it is all digits (up to nine), otherwise an interned id above
   * them. Numbers are nearly all distinct; they need no dictionary.
   */
  private detaineeCode(raw: string | undefined): number {
    const form = detaineeNumberForm(raw);
    if (form === '') return none;
    if (form.length <= 9 && /^\d+$/.test(form)) return Number(form);
    return detaineeTextBase + this.numbers.intern(form);
  }

  /** The detainee number as written in matching form (explanations). */
  detaineeLabel(code: number): string {
    if (code < 0) return '';
    return code < detaineeTextBase ? String(code) : (this.numbers.values[code - detaineeTextBase] ?? '');
  }

  /** Drops the last record added (a match query scored against the registry and let go). */
  removeLast(): void {
    if (this.size === 0) return;
    this.size--;
    this.ids.pop();
  }

  private date(column: DateColumn, parsed: DateParse) {
    if (parsed.kind === 'empty') return undefined;
    // A year still to come is a slip (OCR read 2013 as 2073), not a date: compared, it would weigh against the
    // record's own person.
    if (parsed.kind === 'invalid' || parsed.date.year > yearNow()) {
      this.issues.invalidDates[column]++;
      return undefined;
    }
    return parsed.date;
  }

  private part(raw: string | undefined, first = false): number {
    if (!raw) return none;
    const cache = first ? this.firstCache : this.partCache;
    let id = cache.get(raw);
    if (id === undefined) {
      const form = first ? firstNameForm(raw) : partForm(raw);
      id = form ? this.names.intern(form) : none;
      cache.set(raw, id);
    }
    return id;
  }

  /**
   * [first, father, grandfather, family] ids of a parsed full name (into a reused array: full names are nearly all
   * distinct, so they are parsed rather than cached).
   */
  private fullName(raw: string): Int32Array {
    const parts = parseFullName(raw);
    const ids = this.fullNameIds;
    ids[0] = parts.first ? this.names.intern(parts.first) : none;
    ids[1] = parts.father ? this.names.intern(parts.father) : none;
    ids[2] = parts.grandfather ? this.names.intern(parts.grandfather) : none;
    ids[3] = parts.family ? this.names.intern(parts.family) : none;
    return ids;
  }

  /** The full name's vote on its list's order, and its family-first reading when it is `either` (fullNameOrder). */
  private readOrder(i: number, raw: string): void {
    const { vote, familyFirst } = fullNameOrder(raw);
    this.nameOrder[i] = vote;
    if (!familyFirst) return;
    const id = (form: string | undefined) => (form ? this.names.intern(form) : none);
    this.altFirst[i] = id(familyFirst.first);
    this.altFather[i] = id(familyFirst.father);
    this.altGrandfather[i] = id(familyFirst.grandfather);
    this.altFamily[i] = id(familyFirst.family);
  }

  /**
   * Reads family name first the full names that could be read either way (`either`: an unlisted first part, the
   * chain no help) in each source whose other full names are mostly written so: a register keeps one layout, and
   * its clerks write مصباوي يعقوب … as they write الحراكي خديجة جميل سمير. A source's votes are its Arabic full names
   * of three parts or more that say their order themselves (a family name first, or a given name first); a
   * majority of family-first votes decides. Returns how many records were read anew; a second call changes none.
   * `around` is told of each record before and after its names change (term frequencies counted already).
   */
  settleNameOrder(around?: { before(i: number): void; after(i: number): void }): number {
    const votes = new Map<number, number>();
    // Per source: its Latin names' votes on capitals, [family, emphasis].
    const capitals = new Map<number, [number, number]>();
    for (let i = 0; i < this.size; i++) {
      const v = this.nameOrder[i] as number;
      const s = this.source[i] as number;
      if (v === nameOrderVote.capitalsFamily || v === nameOrderVote.capitalsEmphasis) {
        const tally = capitals.get(s) ?? [0, 0];
        tally[v === nameOrderVote.capitalsFamily ? 0 : 1]++;
        capitals.set(s, tally);
      }
      if (v !== nameOrderVote.familyFirst && v !== nameOrderVote.givenFirst) continue;
      votes.set(s, (votes.get(s) ?? 0) + (v === nameOrderVote.familyFirst ? 1 : -1));
    }
    let changed = 0;
    for (let i = 0; i < this.size; i++) {
      const v = this.nameOrder[i] as number;
      if (v === nameOrderVote.either) {
        if ((votes.get(this.source[i] as number) ?? 0) <= 0) continue;
      } else if (v === nameOrderVote.capitalsEither) {
        if (!marksFamilyByCapitals(capitals.get(this.source[i] as number))) continue;
      } else continue;
      around?.before(i);
      this.first[i] = this.altFirst[i] as number;
      this.father[i] = this.altFather[i] as number;
      this.grandfather[i] = this.altGrandfather[i] as number;
      this.family[i] = this.altFamily[i] as number;
      // Read so because of the others, it does not vote itself: a list that later fills with names written given
      // name first is not held to its first habit by these.
      this.nameOrder[i] = nameOrderVote.settled;
      around?.after(i);
      changed++;
    }
    return changed;
  }

  private placeCode(raw: string | undefined): number {
    if (!raw?.trim()) return none;
    let code = this.placeCache.get(raw);
    if (code === undefined) {
      // A town the gazetteer knows is keyed by its one Arabic name, whatever the spelling (Moadamiyeh, معضمية الشام);
      // so is a city that names its governorate (Aleppo, Halab, حلب; Lattakia, اللاذقية), which the towns list leaves
      // to the governorates.
      const town = resolveTown(raw);
      const city = town ? undefined : resolveGovernorate(raw);
      const key = placeKey(town ? town.nameAr : city ? city.nameAr : raw);
      code = key ? this.places.intern(key) : none;
      this.placeCache.set(raw, code);
    }
    return code;
  }

  /** [first, rest] name ids of a mother's name: her first name, and the rest (usually her family name). */
  private mother(raw: string | undefined): Int32Array {
    if (!raw) return noMother;
    let ids = this.motherCache.get(raw);
    if (ids === undefined) {
      const text = normalizeName(raw);
      const space = text.indexOf(' ');
      const head = space < 0 ? text : text.slice(0, space);
      const rest = space < 0 ? '' : partForm(text.slice(space + 1));
      const first = partForm(head) || head;
      ids = Int32Array.of(first ? this.names.intern(first) : none, rest ? this.names.intern(rest) : none);
      this.motherCache.set(raw, ids);
    }
    return ids;
  }

  /** Whether an interned first name is listed as a woman's only (names' lexicon). */
  private womansName(first: number): boolean {
    let woman = this.womanCache.get(first);
    if (woman === undefined) {
      woman = isWomansName(this.names.form(first));
      this.womanCache.set(first, woman);
    }
    return woman;
  }

  private sexOf(raw: string): number {
    let code = this.sexCache.get(raw);
    if (code === undefined) {
      code = sexCode(raw);
      this.sexCache.set(raw, code);
    }
    return code;
  }

  /** The governorate code of a town the gazetteer knows, or none. */
  private governorateOfTown(raw: string): number {
    let code = this.townGovernorateCache.get(raw);
    if (code === undefined) {
      const town = resolveTown(raw);
      code = town ? governorates.findIndex((g) => g.id === town.governorate) : none;
      this.townGovernorateCache.set(raw, code);
    }
    return code;
  }

  private governorateCode(raw: string | undefined): number {
    if (!raw?.trim()) return none;
    let code = this.governorateCache.get(raw);
    if (code === undefined) {
      const g = resolveGovernorate(raw);
      // A town written in the governorate column stands for its governorate.
      const fromTown = g ? none : this.governorateOfTown(raw);
      code = g
        ? governorates.indexOf(g)
        : fromTown !== none
          ? fromTown
          : unknownGovernorateBase + this.unknownPlaces.intern(`governorate:${aliasKey(raw)}`);
      this.governorateCache.set(raw, code);
    }
    return code;
  }

  private branchCode(raw: string | undefined): number {
    if (!raw?.trim()) return none;
    let code = this.branchCache.get(raw);
    if (code === undefined) {
      const b = resolveBranch(raw);
      code = b
        ? branches.indexOf(b)
        : unknownBranchBase + this.unknownPlaces.intern(`branch:${aliasKey(raw)}`);
      this.branchCache.set(raw, code);
    }
    return code;
  }

  private grow(): void {
    this.capacity *= 2;
    for (const column of featureColumns) {
      const grown = new Int32Array(this.capacity);
      grown.set(this[column]);
      this[column] = grown;
    }
  }

  private readonly placeWords: (readonly string[] | undefined)[] = [];
  private readonly placePairs = new Map<number, PlaceRelation>();

  /**
   * How two different place codes relate (comparisons' place level), cached per pair:
   * - `nests`: one names every word of the other (بصرى / بصرى الشام);
   * - `alike`: one name in two transliteration habits — their coarse skeletons (name-kit `coarseSkeleton`, the words
   *   run together) are the same and at least three letters long (مشهور / Machour, Salah al-Din / Salahuddin);
   *   shorter ones say too little (حمص and المزة are both MS);
   * - `apart`: neither.
   */
  placeRelation(x: number, y: number): PlaceRelation {
    const key = x < y ? x * 65536 + y : y * 65536 + x;
    let relation = this.placePairs.get(key);
    if (relation === undefined) {
      const wx = this.wordsOfPlace(x);
      const wy = this.wordsOfPlace(y);
      const [short, long] = wx.length <= wy.length ? [wx, wy] : [wy, wx];
      if (short.length > 0 && short.every((w) => long.includes(w))) relation = 'nests';
      else {
        const coarse = coarseSkeleton(wx.join(''));
        relation = coarse.length >= 3 && coarse === coarseSkeleton(wy.join('')) ? 'alike' : 'apart';
      }
      this.placePairs.set(key, relation);
    }
    return relation;
  }

  private wordsOfPlace(code: number): readonly string[] {
    let words = this.placeWords[code];
    if (!words) {
      words = (this.places.values[code] ?? '').split(' ').filter((w) => w !== '');
      this.placeWords[code] = words;
    }
    return words;
  }

  /** A readable label for a governorate or branch code (explanations). */
  placeLabel(kind: 'governorate' | 'branch', code: number): string {
    if (code < 0) return '';
    if (kind === 'governorate') {
      return code < unknownGovernorateBase
        ? (governorates[code]?.id ?? '')
        : (this.unknownPlaces.values[code - unknownGovernorateBase] ?? '');
    }
    return code < unknownBranchBase
      ? (branches[code]?.id ?? '')
      : (this.unknownPlaces.values[code - unknownBranchBase] ?? '');
  }
}

const noMother = Int32Array.of(none, none);

function precisionOf(date: { month: number; day: number }): number {
  if (date.day > 0) return precision.day;
  if (date.month > 0) return precision.month;
  return precision.year;
}

// Matching forms (normalizeName: lower case, accents and hamza folded) of the words lists write for sex, in Arabic,
// English, French, German and Turkish.
const maleWords = new Set([
  'm',
  'male',
  'man',
  'ذكر',
  'homme',
  'masculin',
  'h',
  'mannlich',
  'mann',
  'erkek',
  'e',
  'ذ',
  'مذكر',
  'رجل',
  'boy',
  'garson',
  'junge',
]);
const femaleWords = new Set([
  'f',
  'female',
  'woman',
  'انثي',
  'femme',
  'feminin',
  'weiblich',
  'w',
  'frau',
  'kadin',
  'k',
  'ا',
  'مونث',
  'امراه',
  'girl',
  'fille',
  'madchen',
  'kiz',
]);

/**
 * The sex column's code for a record that does not say, whose first name is listed as a woman's only: she is a
 * woman for the family-name rule (a woman is often listed under her husband's family name), but the sex comparison
 * reads it as missing, since her first name already weighs in the score.
 */
export const womanByName = 3;

/** Whether a record's sex column says she is a woman, in so many words or by her first name. */
export function isWoman(code: number): boolean {
  return code === 2 || code === womanByName;
}

/** One record of the pair is a woman's (said so, or by her first name) and neither says he is a man. */
export function womanPair(f: RecordFeatures, a: number, b: number): boolean {
  const sa = f.sex[a] as number;
  const sb = f.sex[b] as number;
  return sa !== 1 && sb !== 1 && (isWoman(sa) || isWoman(sb));
}

/** womanPair for two groups of records (the clustering guard's two persons): a woman's record, none a man's. */
export function womanAmong(f: RecordFeatures, ma: readonly number[], mb: readonly number[]): boolean {
  let woman = false;
  for (const group of [ma, mb]) {
    for (const x of group) {
      const s = f.sex[x] as number;
      if (s === 1) return false;
      if (isWoman(s)) woman = true;
    }
  }
  return woman;
}

/** 1 male, 2 female, -1 unknown (the column also holds womanByName). */
export function sexCode(raw: string | undefined): number {
  if (!raw) return none;
  const t = normalizeName(raw);
  return maleWords.has(t) ? 1 : femaleWords.has(t) ? 2 : none;
}

/** Detainee numbers compare on their digits (Arabic-Indic read as ASCII, leading zeros dropped). */
export function detaineeNumberForm(raw: string | undefined): string {
  if (!raw) return '';
  if (/^\d{1,9}$/.test(raw)) return raw.replace(/^0+(?=\d)/, '');
  const ascii = raw
    .replace(/[٠-٩]/g, (d) => String(d.charCodeAt(0) - 0x660))
    .replace(/[۰-۹]/g, (d) => String(d.charCodeAt(0) - 0x6f0));
  const digits = ascii.replace(/\D/g, '').replace(/^0+(?=\d)/, '');
  return digits || aliasKey(ascii);
}
