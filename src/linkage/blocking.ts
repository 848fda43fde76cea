import { similarSimilarity } from './comparisons.js';
import { monthOfEpochDay } from './dates.js';
import { branchRoot, isWoman, precision, type RecordFeatures } from './features.js';
import {
  ainLamReadings,
  coarseBlockingSkeleton,
  digraphSplitReading,
  firstNameReadings,
  ghainReadings,
  habitReadings,
  nameKey,
  nicknameReadings,
  rasm,
  similarityReadings,
} from './name-kit.js';
import { PairBuffer } from './pairs.js';
import { hashString } from './random.js';
import { NameSimilarity } from './similarity-cache.js';
import { KeyedRecords, mixKey, orderByKey } from './sort.js';

/** A plain equality rule: records with the same key (an unsigned 32-bit hash of a few fields) are compared. */
export interface BlockingRule {
  readonly name: string;
  /** The record's key under this rule, or -1 when it lacks a field the rule needs. */
  key(f: RecordFeatures, i: number): number;
  /**
   * Whether records without a name are keyed too: numbers that identify a detainee (a forensic line's detainee number
   * and branch) find its other records where no name can. Such pairs are weighed and linked as any other.
   */
  readonly withoutName?: boolean;
}

/** Whether a rule keys records without a name too (`BlockingRule.withoutName`; never a spelling rule). */
export function keysWithoutName(rule: BlockingRule | SpellingRule): boolean {
  return !('owner' in rule) && rule.withoutName === true;
}

function nameKeyOf(
  f: RecordFeatures,
  column: 'first' | 'father' | 'grandfather' | 'family' | 'motherFirst',
  i: number,
) {
  const v = f[column][i] as number;
  return v < 0 ? -1 : f.names.keyOf(v);
}

function rule(
  name: string,
  salt: number,
  parts: ((f: RecordFeatures, i: number) => number)[],
  withoutName = false,
): BlockingRule {
  const [p, q, r] = parts as [
    (f: RecordFeatures, i: number) => number,
    ((f: RecordFeatures, i: number) => number) | undefined,
    ((f: RecordFeatures, i: number) => number) | undefined,
  ];
  return {
    name,
    ...(withoutName ? { withoutName } : {}),
    key(f, i) {
      const x = p(f, i);
      if (x < 0) return -1;
      const y = q ? q(f, i) : 0;
      if (y < 0) return -1;
      const z = r ? r(f, i) : 0;
      if (z < 0) return -1;
      return mixKey(salt, x, y, z);
    },
  };
}

const first = (f: RecordFeatures, i: number) => nameKeyOf(f, 'first', i);
const father = (f: RecordFeatures, i: number) => nameKeyOf(f, 'father', i);
const family = (f: RecordFeatures, i: number) => nameKeyOf(f, 'family', i);
const grandfather = (f: RecordFeatures, i: number) => nameKeyOf(f, 'grandfather', i);
/** The first two letters of the family name's skeleton: survives a slip later in the name. */
const familyPrefix = (f: RecordFeatures, i: number) => {
  const v = f.family[i] as number;
  if (v < 0) return -1;
  const key = f.names.keyText(f.names.keyOf(v));
  return key.length < 3 ? -1 : key.charCodeAt(0) * 65536 + key.charCodeAt(1);
};
const motherFirst = (f: RecordFeatures, i: number) => nameKeyOf(f, 'motherFirst', i);
const birthYear = (f: RecordFeatures, i: number) => f.birthYear[i] as number;
const birthDate = (f: RecordFeatures, i: number) =>
  (f.birthDay[i] as number) > 0
    ? (f.birthYear[i] as number) * 512 + (f.birthMonth[i] as number) * 32 + (f.birthDay[i] as number)
    : -1;
const detainee = (f: RecordFeatures, i: number) => f.detainee[i] as number;
/** The month of death (year × 12 + month), when known to the month or day. */
export const deathMonth = (f: RecordFeatures, i: number) =>
  (f.deathPrecision[i] as number) < precision.month ? -1 : monthOfEpochDay(f.deathDay[i] as number);
/** The day of death (epoch day), when known to the day. */
const deathDay = (f: RecordFeatures, i: number) =>
  (f.deathPrecision[i] as number) === precision.day ? (f.deathDay[i] as number) : -1;
const branch = (f: RecordFeatures, i: number) => f.branch[i] as number;
/**
 * The branch's top unit (its agency), -1 without a branch: a forensic card's الجوية meets the register's branch of
 * it; the match index's `branch` narrowing.
 */
export const branchTop = (f: RecordFeatures, i: number) => branchRoot(f.branch[i] as number);
/** The month of arrest (year × 12 + month), when known to the month or day. */
export const arrestMonth = (f: RecordFeatures, i: number) =>
  (f.arrestPrecision[i] as number) < precision.month ? -1 : monthOfEpochDay(f.arrestDay[i] as number);

/**
 * The month of arrest read half a month later (the month of the day 15 days on; a date known to the month keeps its
 * month): two arrest dates a week or two apart across a month's end (2019-03-26 / 2019-04) share it, where they
 * share no calendar month. An overlap key beside the calendar month's. World A, dev seed 7, 100k people: pair
 * completeness 0.9457 → 0.9480, F1 / ceiling +0.0004 (550k people, seed 1, with firstNameReadings: 0.906 → 0.914,
 * +0.0016); B and C within ±0.0004; 1M athar synth records: 0.8% more candidate pairs, F1 the same.
 */
const arrestHalfMonth = (f: RecordFeatures, i: number) => {
  const p = f.arrestPrecision[i] as number;
  if (p < precision.month) return -1;
  const day = f.arrestDay[i] as number;
  return monthOfEpochDay(p === precision.month ? day : day + 15);
};

/**
 * The month of arrest read half a month earlier (a date known to the month keeps its month): a date early in a month
 * against a list's month before it (2016-08-08 / 2016-07), which neither the calendar month nor the half month later
 * meets. World A, dev seed 7: pair completeness +0.0004 at 100k people, candidate pairs +0.1%.
 */
const arrestHalfMonthBack = (f: RecordFeatures, i: number) => {
  const p = f.arrestPrecision[i] as number;
  if (p < precision.month) return -1;
  const day = f.arrestDay[i] as number;
  return monthOfEpochDay(p === precision.month ? day : day - 15);
};

/** A hash not derived yet (hashes are ≥ 0, or -1 for none). */
const UNKNOWN = -2;
/**
 * Hashes of something derived from a name, remembered per vocabulary (name ids are the vocabulary's own) under a
 * cache key (the name's id or its skeleton's): -1 when the derivation gives nothing. A typed array, not a Map:
 * blocking asks for these tens of millions of times at 1M records.
 */
class DerivedNameHashes {
  private readonly byVocabulary = new WeakMap<object, Int32Array>();

  constructor(private readonly derive: (f: RecordFeatures, cacheKey: number) => string) {}

  get(f: RecordFeatures, cacheKey: number): number {
    let cache = this.byVocabulary.get(f.names);
    if (cache === undefined || cacheKey >= cache.length) {
      const grown = new Int32Array(Math.max(1024, (cacheKey + 1) * 2)).fill(UNKNOWN);
      if (cache) grown.set(cache);
      cache = grown;
      this.byVocabulary.set(f.names, cache);
    }
    let h = cache[cacheKey] as number;
    if (h === UNKNOWN) {
      const text = this.derive(f, cacheKey);
      h = text === '' ? -1 : hashString(text) & 0x7fffffff;
      cache[cacheKey] = h;
    }
    return h;
  }
}
const coarseHashes = new DerivedNameHashes((f, key) => coarseBlockingSkeleton(f.names.keyText(key)));
function coarseKeyOf(f: RecordFeatures, column: 'first' | 'father' | 'family', i: number): number {
  const v = f[column][i] as number;
  if (v < 0) return -1;
  const key = f.names.keyOf(v);
  return coarseHashes.get(f, key);
}
const coarseFamily = (f: RecordFeatures, i: number) => coarseKeyOf(f, 'family', i);
/** The other readings of a family name whose coarse keys blocking also uses (none for most names). */
const familyReadings: readonly ((form: string) => string | undefined)[] = [
  (form) => habitReadings(form)[0],
  (form) => habitReadings(form)[1],
  digraphSplitReading,
  (form) => ainLamReadings(form)[0],
];
const habitCoarseHashes = familyReadings.map(
  (reading) =>
    new DerivedNameHashes((f, v) => {
      const read = reading(f.names.form(v));
      return read === undefined ? '' : coarseBlockingSkeleton(nameKey(read));
    }),
);
/** The coarse key of the family name's `k`-th reading (familyReadings); -1 when there is none. */
function habitCoarseFamily(f: RecordFeatures, i: number, k: number): number {
  const v = f.family[i] as number;
  if (v < 0) return -1;
  return (habitCoarseHashes[k] as DerivedNameHashes).get(f, v);
}

/**
 * The father's name as another habit of lists would write it, under the coarse skeleton (Vail / وائل, Camal / جمال,
 * Abdulrassak / عبدالرزاق): its first habit reading's coarse key (familyReadings' first, the cache any name's value
 * shares), else its own coarse key. An overlap key of oversized blocks beside the father's own key.
 */
function fatherCoarse(f: RecordFeatures, i: number): number {
  const v = f.father[i] as number;
  if (v < 0) return -1;
  const read = (habitCoarseHashes[0] as DerivedNameHashes).get(f, v);
  return read >= 0 ? read : coarseKeyOf(f, 'father', i);
}

/** Pushes a key for each coarse reading of the family name that differs from the coarse key `c` and each other. */
function pushHabitKeys(
  f: RecordFeatures,
  i: number,
  c: number,
  key: (coarse: number) => number,
  push: (key: number) => void,
) {
  const pushed = pushedScratch;
  pushed[0] = c;
  let n = 1;
  for (let k = 0; k < familyReadings.length; k++) {
    const r = habitCoarseFamily(f, i, k);
    if (r < 0) continue;
    const at = pushed.indexOf(r);
    if (at >= 0 && at < n) continue;
    pushed[n++] = r;
    push(key(r));
  }
}
// Scratch for pushHabitKeys (single-threaded, not reentrant): the coarse key and the readings' keys pushed.
const pushedScratch = new Int32Array(8);

/**
 * The blocking rules, unioned. Keys are cross-script name skeletons, so a Latin-script list row meets the Arabic
 * family report. Each rule covers for the others' blind spots: a misspelt family name is still caught by first +
 * father and mother + first; a missing father by first + family and family + birth year.
 */
export const blockingRules: readonly BlockingRule[] = [
  rule('first+family', 1, [first, family]),
  rule('father+family', 3, [father, family]),
  rule('family+birth_year', 6, [family, birthYear]),
  rule('first+father+birth_year', 8, [first, father, birthYear]),
  rule('first+father+family_prefix', 9, [first, father, familyPrefix]),
  rule('first+family_prefix+birth_year', 10, [first, familyPrefix, birthYear]),
  rule('detainee_number+branch', 5, [detainee, branchTop], true),
];

/** Rules that training passes may block on besides the linking rules (narrow, match-rich blocks). */
export const trainingRules: readonly BlockingRule[] = [
  rule('first+birth_date', 7, [first, birthDate]),
  rule('mother+first+birth_year', 4, [motherFirst, first, birthYear]),
];

/** A query's keys: each with whether it is one the query reads beyond its own (a neighbour). */
export type QueryKeys = (
  f: RecordFeatures,
  i: number,
  push: (key: number, neighbour: boolean) => void,
) => void;

/**
 * A name and a month as a match rule whose query also reads other months' lists as neighbours (`alsoRead`; records
 * stay keyed by their own month only). A neighbour's list is read as a broad rule's (whole up to 48, past that only
 * the records sharing birth year, father or mother): read whole up to 4,000 like the own month's, the months either
 * side of an arrest added a quarter to the candidates of a query at 300k athar synth records; narrowed, 3%.
 */
function monthRule(
  name: string,
  salt: number,
  named: (f: RecordFeatures, i: number) => number,
  month: (f: RecordFeatures, i: number) => number,
  alsoRead: (f: RecordFeatures, i: number, own: number) => readonly number[],
): BlockingRule & { queryKeys: QueryKeys } {
  return {
    ...rule(name, salt, [named, month]),
    queryKeys(f, i, push) {
      const x = named(f, i);
      if (x < 0) return;
      const own = month(f, i);
      if (own >= 0) push(mixKey(salt, x, own), false);
      for (const m of alsoRead(f, i, own)) if (m >= 0 && m !== own) push(mixKey(salt, x, m), true);
    },
  };
}

/**
 * The interactive match index's rules: the linking rules and broader ones. One report can afford more candidates
 * than a whole data set can (a long list is narrowed per query), and a slip in one name then costs less.
 */
export const matchRules: readonly (BlockingRule & {
  queryKeys?: QueryKeys;
  /**
   * A rule that exists for a woman listed under another family name (a first name with a year of birth or with the
   * town): for a report that is not a woman's and has a family name, a candidate there must have a family name at
   * least similar (the similar level) or none — every محمد born that year is otherwise read, 40% of the slowest
   * queries' candidates at 1M records. 1M records: p95 16.4 → 12.8 ms back to back, top 10 the same; top 10 on the
   * worlds within one query of 2,000 (dev seed 7: A −0.0005 at 20k and 100k, C +0.0005 at 20k; seed 1: C −0.0005 at
   * 100k, athar synth −0.0005 at 20k). A man's record under a family name unlike the report's, sharing no more than
   * first name and year, is that rare; leaving the rule to women's and family-less reports alone cost three
   * (bench/RESULTS.md).
   */
  alikeFamily?: boolean;
})[] = [
  ...blockingRules,
  ...trainingRules,
  // A first name with a year of birth or a month of arrest finds a woman listed under another family name, and a
  // family name with a month of arrest a man listed by his kunya (Abu Muhammad): a query affords such blocks.
  { ...rule('first+birth_year', 18, [first, birthYear]), alikeFamily: true },
  // Its query also reads the months either side (monthRule): a woman under another family name in a list dated
  // weeks off across a month's end (مريم … 2012-05-13 / Maryam Mazib, 26/04/2012). Dev seed 7, match top 10 (4,000
  // queries): A +0.0005 at 20k people, +0.0003 at 100k; C +0.0005 at 20k, the same at 100k. The same for the family
  // name's and the death's month rules found nothing more at 100k and was left out. A query with no arrest but a
  // month of death (a forensic line) reads that month and the two before it: many died within weeks of being taken
  // (محمود محمد, died 2019-10-16 / the register's محمود محمد حسين, taken 2019-09-30). World C, match top 10 (4,000
  // queries, 2,000 at 100k): seed 1 +0.00075 at 20k people, +0.001 at 100k; dev seed 7 the same; the others the same.
  monthRule('first+arrest_month', 19, first, arrestMonth, (f, i, own) => {
    if (own >= 0) return [own - 1, own + 1];
    const died = deathMonth(f, i);
    return died < 0 ? [] : [died, died - 1, died - 2];
  }),
  rule('family+arrest_month', 20, [family, arrestMonth]),
  // The death's month rule's query also reads its month of arrest: a family's report knows when he was taken, a
  // forensic line when he died, and many died within weeks (باسل …, taken 09/08/2014 / a forensic line's باسل, died
  // 14/08/2014). World C, dev seed 7, match top 10 (4,000 queries): 0.9845 → 0.9850 (20k people), 0.9825 → 0.9832
  // (100k); the others the same; candidates a query at 300k athar synth records +0.8%. The month after the arrest
  // as well found nothing more.
  monthRule('first+death_month', 26, first, deathMonth, (f, i) => [arrestMonth(f, i)]),
  // And a first name with the town: a woman a press list names by her husband's family name and her town alone
  // (Fatma El-Lahkhi, Al-Qabun / فاطمة عبدالحميد السنحة, القابون). Dev seed 7, match top 10 (4,000 queries): A
  // +0.001 at 20k and 100k people, C +0.0008 at 20k.
  { ...rule('first+place', 35, [first, (f, i) => f.place[i] as number]), alikeFamily: true },
  // A record with no first name (a press list's kunya and family name: Abu Qasim Sasis) under its family name alone,
  // read whole by any report of that family name: the broad family rule keeps a long family's records only where
  // they share one more thing, and a kunya's row seldom gives one. Such rows are few, so their lists are short.
  // Dev seed 7, match top 10 (4,000 queries): A 0.9928 → 0.9935 (20k people), 0.9845 → 0.9858 (100k); C 0.9848 →
  // 0.9850 (20k), the same at 100k; B and athar synth the same.
  {
    ...rule('family (no first)', 39, [(f, i) => ((f.first[i] as number) < 0 ? family(f, i) : -1)]),
    queryKeys(f, i, push) {
      const x = family(f, i);
      if (x >= 0) push(mixKey(39, x, 0, 0), false);
    },
  },
];

/**
 * What else a candidate of a broad rule may have to share with the report (beyond the rule's own keys); `branch` is
 * the arresting agency (the gazetteer's top unit above the branch), `death` the month of death (a month either side).
 */
export const narrowings = [
  'birth',
  'father',
  'mother',
  'grandfather',
  'governorate',
  'place',
  'arrest',
  'branch',
  'death',
] as const;
export type Narrowing = (typeof narrowings)[number];

/**
 * A rule giving a record several keys: two records meet when any of their keys agree. The match index's
 * spelling-tolerant rules are of this kind.
 */
export interface MultiKeyRule {
  readonly name: string;
  /** Calls `push` with each of the record's keys (none when it lacks a field the rule needs). */
  keys(f: RecordFeatures, i: number, push: (key: number) => void): void;
  readonly narrowBy: readonly Narrowing[];
  /** Narrowed whatever the list's length, but for a short list (a broad rule). */
  readonly broad?: boolean;
}

/**
 * Hashes of a name skeleton and of each skeleton with one letter left out (a deletion neighbourhood): two
 * skeletons one slip apart (a letter dropped, added or changed: Maxiz / مفيز, Al-anrani / التنراني) share one.
 * Skeletons under three letters have none (one letter left would match half the registry); a skeleton of
 * `shortest` letters or fewer has only itself (linking takes 3: a two-letter variant meets too many other names).
 */
export function deletionVariants(key: string, shortest = 2): number[] {
  if (key.length < 3) return [];
  const out = new Set<number>([hashString(key)]);
  if (key.length <= shortest) return [...out];
  for (let k = 0; k < key.length; k++) out.add(hashString(key.slice(0, k) + key.slice(k + 1)));
  return [...out];
}

function variantsOf(
  f: RecordFeatures,
  column: 'first' | 'family',
  i: number,
  cache: Map<number, number[]>,
  shortest: number,
) {
  const v = f[column][i] as number;
  if (v < 0) return undefined;
  const key = f.names.keyOf(v);
  let variants = cache.get(key);
  if (!variants) {
    variants = deletionVariants(f.names.keyText(key), shortest);
    cache.set(key, variants);
  }
  return variants;
}

/** One name exact, the other within one slip: records with name, cached per skeleton. */
function slipRule(
  name: string,
  salt: number,
  exact: 'first' | 'family',
  slipped: 'first' | 'family',
  shortest = 2,
): MultiKeyRule {
  // Caches per vocabulary: skeleton ids are the vocabulary's own.
  const caches = new WeakMap<object, Map<number, number[]>>();
  return {
    name,
    narrowBy: ['birth', 'father', 'mother', 'governorate'],
    keys(f, i, push) {
      const e = f[exact][i] as number;
      if (e < 0) return;
      const cache = perVocabulary(caches, f, () => new Map());
      const variants = variantsOf(f, slipped, i, cache, shortest);
      if (!variants) return;
      const exactKey = f.names.keyOf(e);
      for (const h of variants) push(mixKey(salt, exactKey, h));
    },
  };
}

/**
 * The match index's rules with several keys a record: first and family name in either order of writing, first name
 * exact and family name within one slip and the other way round (a bare list row with one name misspelt has no other
 * way to meet its record), the names in their dotless letters and under the coarse skeleton.
 */
export const slipMatchRules: readonly MultiKeyRule[] = [
  {
    // A register that writes the family name first (دياب عبد الكريم نبيل خالد) is read as first دياب, father
    // عبد الكريم: its father's and first names are the other record's first and family names. Each record also gets
    // that key read the other way round, so either side may be the one written family first. A list longer than a
    // broad rule's short one keeps the records born within a year or of the same mother. Dev seed 7, 20k people:
    // top 10 C 0.9785 → 0.980, athar synth 0.994 → 0.9945, A and B the same.
    name: 'first+family (family first)',
    // Not by the father's name: read the other way round, it is the other record's first name, and two records'
    // reversed keys meet on first and father's name alike (a first + father rule read whole: p95 31 ms at 1M).
    // And by the month of arrest: a register's مراد محمد صالح محمد, taken 18 March 2018, with no birth or mother,
    // meets the family's محمد صالح مراد among many of that first and family name. World C, seed 1, 100k people, top
    // 10 0.9845 → 0.985; the rest the same.
    narrowBy: ['birth', 'mother', 'arrest'],
    broad: true,
    keys(f, i, push) {
      const a = first(f, i);
      if (a < 0) return;
      const b = family(f, i);
      const c = father(f, i);
      if (b >= 0) push(mixKey(34, a, b));
      if (c >= 0) push(mixKey(34, c, a));
    },
  },
  slipRule('first+family~1', 14, 'first', 'family'),
  slipRule('family+first~1', 15, 'family', 'first'),
  {
    // A scanned list's dots read wrong in two names at once (غلي صطفى … الحطيب): first and family name alike in
    // their dotless letters (rasm); with the broad first + father (rasm) rule, world B's top 10 (dev seed 7, 20k
    // people) 0.9875 → 0.993.
    name: 'first+family (rasm)',
    narrowBy: ['birth', 'father', 'mother', 'governorate'],
    keys(f, i, push) {
      const a = rasmOf(f, 'first', i);
      const b = rasmOf(f, 'family', i);
      if (a >= 0 && b >= 0) push(mixKey(31, a, b));
    },
  },
  {
    // First name exact, family name the same under the coarse skeleton (coarseSkeleton: transliteration habits).
    name: 'first+family≈',
    narrowBy: ['birth', 'father', 'mother', 'governorate'],
    // The keys of linking's rule (coarseKeys), the family and first names read the other habits' ways: world A, dev
    // seed 7, top 10 0.9835 → 0.986 with the family's readings (20k people), 0.9895 → 0.990 with the first name's
    // (20k), 0.980 → 0.981 with both at once (100k).
    keys: (f, i, push) => coarseKeys(f, i, 16, push),
  },
];

/**
 * A linking rule giving a record several keys (a name's deletion variants). Two records can share several of them,
 * and records with the very same name share all of them, so the rule says which block owns a pair: each pair is
 * compared once, and pairs a plain rule already sees are left to it.
 */
export interface SpellingRule {
  readonly name: string;
  keys(f: RecordFeatures, i: number, push: (key: number) => void): void;
  /**
   * Records of one group never pair under the rule (the same spelling: the plain rules compare those). Blocking
   * skips such pairs on this number before asking `owns`: in a common name's blocks they are nearly all the pairs.
   */
  group(f: RecordFeatures, i: number): number;
  /**
   * Records of one kind here always agree on ownership (the exact name's key with `group`): blocking asks `owner`
   * once per two kinds in a block.
   */
  kind(f: RecordFeatures, i: number): number;
  /** Whether the block under `key` (a key both records have) is the one to compare i and j in. */
  owner(f: RecordFeatures, i: number, j: number, key: number): boolean;
  /** Whether the pair is one for the rule at all (ownership aside). */
  admits(f: RecordFeatures, i: number, j: number): boolean;
}

/**
 * First name exact and family name one slip apart but not the same (Al-Jahem / الجاسم, البطيني / الدبطيني): the
 * first + family rule compares the same family names; this one the misspelt ones. A pair is owned by the smallest
 * key the two records share.
 */
function slipLinkRule(name: string, salt: number, exact: 'first' | 'family', slipped: 'first' | 'family') {
  const shortest = 3;
  const base = slipRule(name, salt, exact, slipped, shortest);
  // Per vocabulary (skeleton and name ids are the vocabulary's own): deletion variants by skeleton, similarities.
  const caches = new WeakMap<object, { variants: Map<number, number[]>; similarity: NameSimilarity }>();
  const cachesOf = (f: RecordFeatures) =>
    perVocabulary(caches, f, () => ({ variants: new Map<number, number[]>(), similarity: similarityOf(f) }));
  return {
    name,
    keys: base.keys,
    group: (f: RecordFeatures, i: number) => {
      const v = f[slipped][i] as number;
      return v < 0 ? -1 : f.names.keyOf(v);
    },
    kind: (f: RecordFeatures, i: number) => f.names.keyOf(f[exact][i] as number),
    owner(f: RecordFeatures, i: number, j: number, key: number): boolean {
      const c = cachesOf(f);
      const vi = variantsOf(f, slipped, i, c.variants, shortest) as number[];
      const vj = variantsOf(f, slipped, j, c.variants, shortest) as number[];
      const ei = f.names.keyOf(f[exact][i] as number);
      const ej = f.names.keyOf(f[exact][j] as number);
      // The smallest key both records have (as `keys` gives them), from the cached variants.
      let least = -1;
      for (const hi of vi) {
        const k = mixKey(salt, ei, hi);
        if (least >= 0 && k >= least) continue;
        for (const hj of vj) {
          if (ei === ej ? hi === hj : mixKey(salt, ej, hj) === k) {
            least = k;
            break;
          }
        }
      }
      return least === key >>> 0;
    },
    admits(f: RecordFeatures, i: number, j: number): boolean {
      const si = f[slipped][i] as number;
      const sj = f[slipped][j] as number;
      if (f.names.keyOf(si) === f.names.keyOf(sj)) return false;
      // Two different names a letter apart (حسن / حسين) are not a slip: the pair would score them as different.
      return cachesOf(f).similarity.get(si, sj) >= similarSimilarity;
    },
  } satisfies SpellingRule;
}

/**
 * Linking's spelling-tolerant rule (after the plain rules; see slipLinkRule). The other way round (family name exact,
 * first name one slip apart) was measured and left out: at 1M records it found 35k more pairs for +0.0001 F1 and
 * took 7 s, a family's blocks holding every first name of the family.
 */
export const slipLinkRules: readonly SpellingRule[] = [slipLinkRule('first+family~1', 14, 'first', 'family')];

/**
 * What `caches` holds for the features' vocabulary, made by `make` the first time: name and key ids are a
 * vocabulary's own, so what is derived from them is remembered per vocabulary.
 */
function perVocabulary<T>(caches: WeakMap<object, T>, f: RecordFeatures, make: () => T): T {
  let cache = caches.get(f.names);
  if (cache === undefined) {
    cache = make();
    caches.set(f.names, cache);
  }
  return cache;
}

/** Name similarities per vocabulary, shared by the rules that weigh a pair's names before keeping it. */
const similarities = new WeakMap<object, NameSimilarity>();
function similarityOf(f: RecordFeatures): NameSimilarity {
  return perVocabulary(similarities, f, () => new NameSimilarity(f.names));
}

/**
 * The keys of a Latin first name read as the other habits of lists write it (firstNameReadings: German Sulajman as
 * Sulayman, Turkish Camal as Jamal, Hamse as Hamze, Abdulhamit as Abdulhamid), and of the names a pet form stands
 * for (nicknameReadings: حمودة as محمد, محمود), that a name of the vocabulary has, not the name's own; none for
 * most names.
 * The readings' keys are remembered as text and looked up each time: a vocabulary that grows (the tracing loop's)
 * may later hold a key it did not.
 */
const firstReadings = new WeakMap<object, (readonly string[] | undefined)[]>();
function firstHabitKeys(f: RecordFeatures, v: number, visit: (key: number) => void): void {
  const cache = perVocabulary(firstReadings, f, () => []);
  let readings = cache[v];
  if (readings === undefined) {
    const own = f.names.keyText(f.names.keyOf(v));
    const found: string[] = [];
    const form = f.names.form(v);
    for (const reading of [...firstNameReadings(form), ...nicknameReadings(form), ...ainLamReadings(form)]) {
      const key = nameKey(reading);
      if (key !== own && !found.includes(key)) found.push(key);
    }
    readings = found;
    cache[v] = readings;
  }
  for (const key of readings) {
    const id = f.names.keyIdOf(key);
    if (id !== undefined) visit(id);
  }
}

/**
 * The keys of `first+family≈` (linking's and the match index's): the first name's key with the family name's coarse
 * key, and with the coarse key of each of its habit readings (Casahe for جصاهة, Dschasaha); the first name read the
 * other habits' ways (Sulajman / سليمان, Camal / جمال) with all of these, since some pairs need both readings at once
 * (Hamse Ranich / حمزه رنخ: s as z, ch as kh). A family name whose coarse key is empty (Hakheh: only letters the
 * coarse skeleton leaves out) still has its readings' keys (Hakaheh / الحكهة). World A, dev seed 7, 20k people:
 * pair completeness 0.9552 → 0.9574 with the s and final-t readings of firstNameReadings.
 */
function coarseKeys(f: RecordFeatures, i: number, salt: number, push: (key: number) => void): void {
  const e = f.first[i] as number;
  if (e < 0 || (f.family[i] as number) < 0) return;
  const c = coarseFamily(f, i);
  const firstKey = f.names.keyOf(e);
  if (c >= 0) push(mixKey(salt, firstKey, c));
  pushHabitKeys(f, i, c, (k) => mixKey(salt, firstKey, k), push);
  firstHabitKeys(f, e, (r) => {
    if (c >= 0) push(mixKey(salt, r, c));
    pushHabitKeys(f, i, c, (k) => mixKey(salt, r, k), push);
  });
}

/**
 * First name exact, family name the same under the coarse skeleton (`coarseSkeleton`) but not the same skeleton,
 * and the two family names similar enough to be one name (similarity ≥ 0.68): the habits of French, German and
 * Turkish lists (Mudajsch / مديش, Al-Asma / العظمة) that the skeleton keeps apart. Pairs whose names differ are
 * weighed by similarity before they are kept, so the coarse blocks' many different families cost comparisons of
 * names, not candidate pairs.
 */
function coarseLinkRule(name: string, salt: number): SpellingRule {
  return alikeFamilyRule(name, salt, (f, i, push) => coarseKeys(f, i, salt, push));
}

/**
 * A rule of first name's key exact and family names alike (similarity ≥ 0.68) but not of one key, meeting by `keys`:
 * the coarse rule's and the habit reading rule's form.
 */
function alikeFamilyRule(name: string, salt: number, keys: SpellingRule['keys']): SpellingRule {
  return {
    name,
    keys,
    // Pairs of one first and one family key are first+family's.
    group: (f, i) => {
      const v = f.family[i] as number;
      return v < 0 ? -1 : mixKey(salt + 1, f.names.keyOf(f.first[i] as number), f.names.keyOf(v), 0) | 0;
    },
    kind: (f, i) => f.names.keyOf(f.first[i] as number),
    owner: () => true,
    admits(f, i, j) {
      const sim = similarityOf(f);
      return sim.get(f.family[i] as number, f.family[j] as number) >= similarSimilarity;
    },
  };
}

/**
 * Per family name id: the hashes of its readings' exact keys (similarityReadings, ghainReadings), then of its own key
 * (last), remembered per vocabulary.
 */
const readingKeyHashes = new WeakMap<object, (Int32Array | undefined)[]>();
function familyReadingKeys(f: RecordFeatures, v: number): Int32Array {
  const cache = perVocabulary(readingKeyHashes, f, () => []);
  let out = cache[v];
  if (out === undefined) {
    const own = f.names.keyText(f.names.keyOf(v));
    const ownHash = hashString(own) & 0x7fffffff;
    const found: number[] = [];
    const form = f.names.form(v);
    for (const reading of [...similarityReadings(form), ...ghainReadings(form), ...ainLamReadings(form)]) {
      const key = nameKey(reading);
      if (key === '' || key === own) continue;
      const h = hashString(key) & 0x7fffffff;
      if (h !== ownHash && !found.includes(h)) found.push(h);
    }
    found.push(ownHash);
    out = Int32Array.from(found);
    cache[v] = out;
  }
  return out;
}

/**
 * `first+family (habit reading)`'s keys: the first name's key with each reading's key of the family name and with its
 * own key (as a hash, as the readings' are), for the other record's readings to meet.
 */
function readingKeys(f: RecordFeatures, i: number, salt: number, push: (key: number) => void): void {
  const e = f.first[i] as number;
  const v = f.family[i] as number;
  if (e < 0 || v < 0) return;
  const first = f.names.keyOf(e);
  const keys = familyReadingKeys(f, v);
  for (let k = 0; k < keys.length; k++) push(mixKey(salt, first, keys[k] as number));
}

/**
 * First name exact, family name the same once one of the two is read as another habit writes it (similarityReadings:
 * German j for ي, ch for خ, s for ز; Turkish c for ج; and French r for غ, ghainReadings): El-Tanay / El Tanaj,
 * Akhawa / Achawa, Al-Sahissi / Ez-Zahissi, Ralir / غلير. The coarse rule meets the first kind too, but a short family
 * name's coarse key (Tanay: SN, as Hassan's) makes a block too large to compare whole beside a common first name; this
 * one's blocks are an exact name's. Dev seed 7, 100k people (with the coarse key's J, coarseBlockingSkeleton): world
 * A's pair completeness 0.9510 → 0.9572, F1 / ceiling +0.0010; B and athar synth −0.0001, C the same; candidates per
 * record +0.4% (B) to +1.4% (A). The r for غ then: A's pair completeness 0.9572 → 0.9603, F1 / ceiling +0.0010 (20k:
 * +0.0015); B, C and athar synth the same; candidates per record +0.3% at most.
 */
function readingLinkRule(name: string, salt: number): SpellingRule {
  return alikeFamilyRule(name, salt, (f, i, push) => readingKeys(f, i, salt + 2, push));
}

export const coarseLinkRules: readonly SpellingRule[] = [
  coarseLinkRule('first+family≈', 16),
  readingLinkRule('first+family (habit reading)', 37),
];

/**
 * Father and family name the same (the family line), for linking: siblings share it, so its pairs are kept only
 * when the first names could be one (similar, one side without one, or a short or coarse key alike); the
 * brothers of a family — most of the rule's pairs — are left out. Linking's form of `father+family`.
 */
function familyLineLinkRule(name: string, salt: number): SpellingRule {
  return {
    name,
    keys(f, i, push) {
      const x = father(f, i);
      const y = family(f, i);
      if (x >= 0 && y >= 0) push(mixKey(salt, x, y, 0));
    },
    // Pairs of one first name's key are first+family's (an earlier rule); a record without one is its own group.
    group: (f, i) => {
      const v = f.first[i] as number;
      return v < 0 ? -2 - i : f.names.keyOf(v);
    },
    kind: () => 0,
    owner: () => true,
    admits(f, i, j) {
      const a = f.first[i] as number;
      const b = f.first[j] as number;
      if (a < 0 || b < 0) return true;
      if (coarseKeyOf(f, 'first', i) === coarseKeyOf(f, 'first', j)) return true;
      const sim = similarityOf(f);
      return sim.get(a, b) >= similarSimilarity;
    },
  };
}

/** Whether two skeletons are at most `max` letters apart (insertions, deletions, substitutions). */
export function skeletonsWithin(a: string, b: string, max: number): boolean {
  const n = a.length;
  const m = b.length;
  if (Math.abs(n - m) > max) return false;
  if (m > 31) return true;
  const row = editRow;
  for (let j = 0; j <= m; j++) row[j] = j;
  for (let i = 1; i <= n; i++) {
    let diag = row[0] as number;
    row[0] = i;
    let best = i;
    const c = a.charCodeAt(i - 1);
    for (let j = 1; j <= m; j++) {
      const above = row[j] as number;
      const d = Math.min(above + 1, (row[j - 1] as number) + 1, diag + (c === b.charCodeAt(j - 1) ? 0 : 1));
      row[j] = d;
      diag = above;
      if (d < best) best = d;
    }
    if (best > max) return false;
  }
  return (row[m] as number) <= max;
}
const editRow = new Int32Array(32);

/**
 * First and father's name the same, family names alike but not the same key: the coarse skeleton's or similar
 * (≥ similarSimilarity). first+family≈ finds such pairs too, but a common first name's coarse family blocks are
 * oversized and sub-blocked; the father's name keeps these blocks small. Records without a family name are the
 * plain rules' (first+father+birth_year and the family line).
 */
function firstFatherLinkRule(name: string, salt: number): SpellingRule {
  return {
    name,
    keys(f, i, push) {
      const x = first(f, i);
      const y = father(f, i);
      if (x >= 0 && y >= 0 && (f.family[i] as number) >= 0) push(mixKey(salt, x, y, 0));
    },
    // Pairs of one family name's key are first+family's (an earlier rule).
    group: (f, i) => f.names.keyOf(f.family[i] as number),
    kind: () => 0,
    owner: () => true,
    admits(f, i, j) {
      if (coarseKeyOf(f, 'family', i) === coarseKeyOf(f, 'family', j)) return true;
      const a = f.family[i] as number;
      const b = f.family[j] as number;
      // Names alike have skeletons at most two letters apart: the cheap test first (at 1M records these blocks hold
      // tens of millions of pairs of different families, and few pass it).
      if (!skeletonsWithin(f.names.keyText(f.names.keyOf(a)), f.names.keyText(f.names.keyOf(b)), 2))
        return false;
      return similarityOf(f).get(a, b) >= similarSimilarity;
    },
  };
}

/**
 * A rule for pairs where one record lacks a name the plain rules key on (`lacking`): it keys on `named` and `with`,
 * and records that have the lacking name are one group, never paired here (the other rules compare those).
 * - first and father's name, no family name: a forensic list or a notice writes a person by their own and their
 *   father's name ("حسن محمد"), the register by the whole chain;
 * - first name and month of death, no family name: a Caesar line (عمار محود, a branch, the date of death) against
 *   the civil registry's or the notice's whole name — world C, dev seed 7, 20k people: pair completeness 0.887 →
 *   0.894, F1 / ceiling +0.2 points, 0.07 more candidate pairs per record there and none elsewhere (with the month
 *   of arrest as well: +0.06 points for 0.09 more);
 * - family name and month of arrest, no first name: a press or NGO list names a man by his kunya and family name
 *   (Abu Yasser El-Kalsah: a kunya is no first name) with the month he was taken, the register by his whole chain
 *   (with the governorate or the town instead of the month: fewer true pairs for more candidates). The kunya's row
 *   is keyed by the months either side of its own too (a press list's 2016-05 against the register's 2016-04-02):
 *   world A, dev seed 7, pair completeness 0.9589 → 0.9613 and F1 / ceiling 0.9334 → 0.9340 (20k people), 0.9485 →
 *   0.9502 and 0.9134 → 0.9138 (100k); C +0.0001; B and athar synth unchanged; 0.02–0.05 more candidates a record.
 *   The same for a Caesar line's month of death found no more F1 for 0.14 more candidates a record on C;
 * - first name and day of death, no father's name: a Caesar line's two words are read as first and family name, so
 *   the rule above never sees it lacking (see `linkingRules`). World C, dev seed 7: pair completeness 0.9030 →
 *   0.9040 (20k people), 0.8993 → 0.9006 (100k), F1 / ceiling +0.0002; athar synth 1% more candidates a record,
 *   the others none. Any record's first name and day of arrest as well (C +0.002) linked women of one name taken
 *   the same day in A (−0.0005 at 100k), and men's alone still lost A 0.0002.
 * A common key makes an oversized block, compared by the overlapping sub-keys (birth year, month of death or arrest,
 * place, branch).
 */
function bareRule(
  name: string,
  salt: number,
  lacking: 'first' | 'father' | 'family',
  named: (f: RecordFeatures, i: number) => number,
  with_: (f: RecordFeatures, i: number) => number,
  /** `with_` is a month: a record lacking the name is keyed by the months either side of its own as well. */
  nextMonths = false,
): SpellingRule {
  const lacks = (f: RecordFeatures, i: number) => (f[lacking][i] as number) < 0;
  return {
    name,
    keys(f, i, push) {
      const x = named(f, i);
      const y = with_(f, i);
      if (x < 0 || y < 0) return;
      push(mixKey(salt, x, y, 0));
      if (nextMonths && lacks(f, i)) {
        push(mixKey(salt, x, y - 1, 0));
        push(mixKey(salt, x, y + 1, 0));
      }
    },
    group: (f, i) => (lacks(f, i) ? -2 - i : -1),
    kind: () => 0,
    // Two records lacking the name share up to three months: the earliest they share owns the pair.
    owner: (f, i, j, key) =>
      !nextMonths ||
      !lacks(f, i) ||
      !lacks(f, j) ||
      key >>> 0 === mixKey(salt, named(f, i), Math.max(with_(f, i), with_(f, j)) - 1, 0) >>> 0,
    admits: () => true,
  };
}

const rasmHashes = new DerivedNameHashes((f, v) => rasm(f.names.form(v)));
/** An Arabic name's dotless skeleton (name-kit `rasm`), hashed; -1 for a Latin name or none. */
function rasmOf(f: RecordFeatures, column: 'first' | 'father' | 'family', i: number): number {
  const v = f[column][i] as number;
  if (v < 0 || f.names.latin(v)) return -1;
  return rasmHashes.get(f, v);
}

/**
 * First and family name alike in their dotless letters (rasm) but not in their skeletons: a scanned list read a dot
 * wrong (غلي / علي, حهاد / جهاد, مجمد / محمد, الرريعي / الدريعي). Arabic names only; pairs of one skeleton are the
 * plain rules'.
 */
function rasmRule(name: string, salt: number): SpellingRule {
  return {
    name,
    keys(f, i, push) {
      const a = rasmOf(f, 'first', i);
      const b = rasmOf(f, 'family', i);
      if (a >= 0 && b >= 0) push(mixKey(salt, a, b, 0));
    },
    // Records of one first and family skeleton are one group (the plain rules compare them).
    group: (f, i) => {
      const a = f.first[i] as number;
      const b = f.family[i] as number;
      return a < 0 || b < 0 ? -2 - i : mixKey(salt, f.names.keyOf(a), f.names.keyOf(b), 1) | 0;
    },
    kind: () => 0,
    owner: () => true,
    admits: () => true,
  };
}

/** A woman's first name (isWoman: said so, or a name listed as a woman's only); -1 for anyone else. */
const womansFirst = (f: RecordFeatures, i: number) => (isWoman(f.sex[i] as number) ? first(f, i) : -1);

/**
 * A woman is often listed under her husband's family name in one list and her father's in another, so the rules
 * keyed on the family name miss her: this one meets her by her first name and year of birth. (Her first name with
 * her father's name, or with her month of arrest, found fewer of her pairs for more candidates on the test worlds.)
 */
const womanLinkRule = rule('first+birth_year (woman)', 24, [womansFirst, birthYear]);

/** What `athar link` blocks on: the plain rules, then the spelling-tolerant ones. */
export const linkingRules: readonly (BlockingRule | SpellingRule)[] = [
  ...blockingRules.map((r) => (r.name === 'father+family' ? familyLineLinkRule(r.name, 3) : r)),
  ...slipLinkRules,
  ...coarseLinkRules,
  firstFatherLinkRule('first+father≈', 17),
  bareRule('first+father (no family)', 21, 'family', first, father),
  rasmRule('first+family (rasm)', 22),
  bareRule('family+arrest_month (no first)', 28, 'first', family, arrestMonth, true),
  womanLinkRule,
  bareRule('first+death_month (no family)', 29, 'family', first, deathMonth),
  bareRule('first+death_day (no father)', 36, 'father', first, deathDay),
];

/**
 * Broader rules the match index uses only for records that share one more thing with the report (a long list; a
 * short one is read whole). First and father's name also by month of arrest (a woman listed under her husband's
 * family name: Hala Mahmut Mahache / هالة محمود قعادة, taken the same weeks); the family name alone also by month of
 * arrest (a kunya). Worlds A and C, dev seed 7, 100k people, with BROAD_BARE (match-index): top 10 0.9790 → 0.9810
 * and 0.9812; B +0.0002; the 1M bench's p95 +10% (the governorate as well added nothing and was left out).
 */
export const broadMatchRules: readonly (BlockingRule & {
  narrowBy: readonly Narrowing[];
  /**
   * Two names, or a day of death: a query with nothing to narrow by reads a longer list whole (match-index
   * BROAD_BARE).
   */
  bare?: boolean;
})[] = [
  { ...rule('first+father+grandfather', 2, [first, father, grandfather]), narrowBy: [] },
  {
    ...rule('first+father', 11, [first, father]),
    // And by the month of death: a Caesar line's عبد الرحمن محمد, died 18 May, with nothing else, reads its list
    // whole only up to 256 (BROAD_BARE); past that, the family's report saying he died on 4 April is the one it
    // meets. World C, 100k people, match top 10 (2,000 queries): dev seed 7 0.9875 → 0.988; the rest the same.
    narrowBy: ['birth', 'mother', 'grandfather', 'place', 'arrest', 'death'],
    bare: true,
  },
  // The same in dotless letters (rasm): a scanned list read a dot wrong in both (حهاد أحمد / جهاد أحمد).
  {
    ...rule('first+father (rasm)', 32, [(f, i) => rasmOf(f, 'first', i), (f, i) => rasmOf(f, 'father', i)]),
    narrowBy: ['birth', 'mother', 'grandfather', 'place'],
  },
  { ...rule('mother+first', 12, [motherFirst, first]), narrowBy: ['birth', 'father'] },
  // The family name alone, for a report that gives no first name (Abu Yusuf al-Hutayi) or one spelt past a slip: a
  // short list whole, a long one narrowed. World A, dev seed 7: top 10 0.986 → 0.988 (20k), 0.978 → 0.9795 (100k).
  // Narrowed by the arresting agency too: a kunya's row with its family name and who took him (Abu Maher Al-Takhkee,
  // General Intelligence) shares nothing else with the register's line (فرع الخطيب). 100k people, match top 10
  // (2,000 queries): seed 1 A 0.985 → 0.9855; dev seed 7 C 0.987 → 0.9875; the rest and 20k the same.
  {
    ...rule('family', 33, [family]),
    narrowBy: ['birth', 'father', 'governorate', 'place', 'arrest', 'branch'],
  },
  {
    ...rule('family+governorate', 13, [family, (f, i) => f.governorate[i] as number]),
    narrowBy: ['birth', 'father', 'mother'],
  },
  // The father's and grandfather's names, whatever the first: a family's report with the man's kunya where his first
  // name goes (أبو يوسف | يوسف | عبد الرحمن, the register's عبدالله يوسف عبدالرحمن العتناوي) or a first name spelt
  // past a slip (اراهيم | جميل | عبد الرحمن, a report's إبراهيم). World C, match top 10 (2,000 queries, 100k people):
  // seed 1 0.9830 → 0.9840 (these two); the other worlds the same.
  {
    ...rule('father+grandfather', 40, [father, grandfather]),
    narrowBy: ['birth', 'place', 'arrest', 'governorate', 'mother'],
  },
  // The day of death alone: a forensic line whose two names both carry a slip (يارس سعيدد, died 2012-01-11) meets
  // the civil registry's ياسر سعيد المساحي, died that day, through nothing else. A day's list is short; a longer one
  // is read whole up to 256 for a query with nothing to narrow by (`bare`). World C, seed 1, 100k people: with the
  // rule above 0.9830 → 0.9845 (dev seed 7 0.9865 → 0.9870; 20k: 0.9875 → 0.988); A, B and athar synth the same. At
  // 1M athar synth records, alternating: p95 15.1 · 16.0 ms against 17.3 · 14.1 ms without both, top 10 0.9935.
  {
    ...rule('death_day', 41, [deathDay]),
    narrowBy: ['birth', 'father', 'place', 'arrest', 'governorate'],
    bare: true,
  },
];

type SubKey = {
  name: string;
  key: (f: RecordFeatures, i: number) => number;
  /**
   * Circumstance, not identity (where the person is from, when and by whom taken): shared by many people, so a
   * record with only such keys still counts as lacking (see `lackingAcross`).
   */
  circumstance?: boolean;
};

/**
 * Within an oversized block, pairs that share the father's name (as written, or as another list's habit writes it:
 * `fatherCoarse`) *or* the birth year *or* the month of death *or* the month of arrest (the calendar month, half a
 * month on or back) *or* the place of origin *or* the arresting branch are compared (a record without a father's name
 * still meets its partner by birth year, a forensic list row without either meets the death notice by its date of
 * death, a diaspora list row with a name and an arrest month the registry's line by that month). Each costs few
 * pairs: parts by month and place are small, and parts still too large are split like any other.
 */
export const overlapKeys: readonly SubKey[] = [
  { name: 'father', key: father },
  { name: 'father≈', key: fatherCoarse },
  { name: 'birth_year', key: birthYear },
  { name: 'death_month', key: deathMonth },
  { name: 'arrest_month', key: arrestMonth, circumstance: true },
  { name: 'arrest_half_month', key: arrestHalfMonth, circumstance: true },
  { name: 'arrest_half_month_back', key: arrestHalfMonthBack, circumstance: true },
  { name: 'place', key: (f, i) => f.place[i] as number, circumstance: true },
  { name: 'branch', key: branch, circumstance: true },
];

/**
 * Keys that split what is still too large (and the records with neither overlap key), tried in order; a record
 * lacking one lands in its own "unknown" sub-block.
 */
export const subBlockKeys: readonly SubKey[] = [
  { name: 'governorate', key: (f, i) => f.governorate[i] as number },
  { name: 'mother', key: motherFirst },
  { name: 'grandfather', key: grandfather },
];

export interface BlockingOptions {
  /** Largest block compared in full; larger ones are sub-blocked. */
  maxBlock: number;
  /** When sub-blocking cannot bring a block under maxBlock, each record meets this many neighbours in key order. */
  window: number;
}

export const defaultBlockingOptions: BlockingOptions = { maxBlock: 50, window: 12 };

export interface RuleStats {
  rule: string;
  /** Records with a key under this rule. */
  keyed: number;
  blocks: number;
  /** Pairs this rule added (pairs an earlier rule already produced are not counted again). */
  pairs: number;
  /** Blocks larger than maxBlock, and the records in them. */
  oversizedBlocks: number;
  oversizedRecords: number;
  /** Sub-blocks still too large, compared by a sliding window instead of in full. */
  windowedBlocks: number;
  /** Pairs inside oversized blocks that were not compared (bounded, not silently dropped: counted here). */
  pairsNotCompared: number;
}

export interface CandidatePairs {
  pairs: PairBuffer;
  stats: RuleStats[];
  /** Records without any name: blocked only by the rules that key them (`BlockingRule.withoutName`). */
  unnamed: number;
}

/**
 * Candidate pairs from the union of the blocking rules, each pair once. A pair is emitted by the first rule that
 * compares it in full; later rules skip pairs that share an earlier rule's (sub-)block. A pair is final once
 * emitted, so `into` may hand pairs on while blocking runs (SharedPairBuffer); it is closed at the end.
 */
export function candidatePairs(
  f: RecordFeatures,
  rules: readonly (BlockingRule | SpellingRule)[] = linkingRules,
  options: BlockingOptions = defaultBlockingOptions,
  onRule?: (done: number, total: number) => void,
  into?: PairBuffer,
): CandidatePairs {
  const n = f.size;
  const pairs = into ?? new PairBuffer(Math.max(1024, n * 4));
  // Each record's block id under every rule, side by side: the "did an earlier rule emit this pair" check then
  // reads two short runs of memory instead of one distant array per rule.
  const width = rules.length;
  const blockIds = new Int32Array(n * width).fill(-1);
  const named = new Uint8Array(n);
  let unnamed = 0;
  for (let i = 0; i < n; i++) {
    if (f.hasName(i)) named[i] = 1;
    else unnamed++;
  }
  const stats: RuleStats[] = [];
  let keys = new Uint32Array(n);
  let members = new Int32Array(n);
  for (let r = 0; r < rules.length; r++) {
    const current = rules[r] as BlockingRule | SpellingRule;
    const stat: RuleStats = {
      rule: current.name,
      keyed: 0,
      blocks: 0,
      pairs: 0,
      oversizedBlocks: 0,
      oversizedRecords: 0,
      windowedBlocks: 0,
      pairsNotCompared: 0,
    };
    let count = 0;
    const spelling = 'owner' in current ? current : undefined;
    if (spelling) {
      const list = new KeyedRecords(keys.length);
      let i = 0;
      const push = (key: number) => list.push(key, i);
      for (; i < n; i++) {
        if (named[i] === 0) continue;
        const before = list.count;
        spelling.keys(f, i, push);
        if (list.count > before) stat.keyed++;
      }
      keys = list.keys;
      members = list.records;
      count = list.count;
    } else {
      const plain = current as BlockingRule;
      const nameless = keysWithoutName(plain);
      for (let i = 0; i < n; i++) {
        if (named[i] === 0 && !nameless) continue;
        const key = plain.key(f, i);
        if (key < 0) continue;
        keys[count] = key;
        members[count] = i;
        count++;
      }
      stat.keyed = count;
    }
    const order = orderByKey(keys, count);
    let nextBlock = 0;
    const emitter = new BlockEmitter(
      pairs,
      blockIds,
      width,
      r,
      stat,
      options,
      spelling && { f, rule: spelling },
    );
    let start = 0;
    while (start < count) {
      const key = keys[order[start] as number] as number;
      let end = start + 1;
      while (end < count && keys[order[end] as number] === key) end++;
      const size = end - start;
      if (size > 1) {
        const block = new Int32Array(size);
        for (let k = 0; k < size; k++) block[k] = members[order[start + k] as number] as number;
        stat.blocks++;
        if (spelling) emitter.spellingBlock(block, key);
        if (size <= options.maxBlock) {
          emitter.full(block, nextBlock++);
        } else {
          stat.oversizedBlocks++;
          stat.oversizedRecords += size;
          const before = pairs.length;
          const dupesBefore = emitter.skipped;
          nextBlock = emitter.overlapping(f, block, nextBlock);
          const compared = pairs.length - before + (emitter.skipped - dupesBefore);
          stat.pairsNotCompared += (size * (size - 1)) / 2 - compared;
        }
      }
      start = end;
    }
    stats.push(stat);
    onRule?.(r + 1, rules.length);
  }
  pairs.close();
  return { pairs, stats, unnamed };
}

/** Records up to this many: a sub-key and a record then sort as one number (key × span + record), exactly. */
const RECORD_SPAN = 4_194_304;

/**
 * The records of a block in parts of one sub-key, in order of key and then of record; records without the key
 * (below 0) are left out, or one part of their own when `keepMissing`. Sorted as plain numbers where they fit:
 * sorting objects by a comparator was the costliest part of sub-blocking at 1M records.
 */
export function partsByKey(
  block: Int32Array,
  keyOf: (i: number) => number,
  keepMissing: boolean,
  visit: (part: Int32Array) => void,
): void {
  const keys = new Int32Array(block.length);
  const records = new Int32Array(block.length);
  let count = 0;
  let largest = 0;
  for (let x = 0; x < block.length; x++) {
    const i = block[x] as number;
    const k = keyOf(i);
    if (k < 0 && !keepMissing) continue;
    keys[count] = k < 0 ? -1 : k;
    records[count] = i;
    if (i > largest) largest = i;
    count++;
  }
  const order = new Float64Array(count);
  if (largest < RECORD_SPAN) {
    for (let x = 0; x < count; x++)
      order[x] = ((keys[x] as number) + 1) * RECORD_SPAN + (records[x] as number);
    order.sort();
    for (let x = 0; x < count; x++) {
      const i = (order[x] as number) % RECORD_SPAN;
      keys[x] = ((order[x] as number) - i) / RECORD_SPAN - 1;
      order[x] = i;
    }
  } else {
    const positions = Array.from({ length: count }, (_, x) => x);
    const sortedKeys = keys.slice(0, count);
    positions.sort(
      (x, y) =>
        (sortedKeys[x] as number) - (sortedKeys[y] as number) ||
        (records[x] as number) - (records[y] as number),
    );
    positions.forEach((from, x) => {
      order[x] = records[from] as number;
      keys[x] = sortedKeys[from] as number;
    });
  }
  let start = 0;
  while (start < count) {
    const k = keys[start] as number;
    let end = start + 1;
    while (end < count && keys[end] === k) end++;
    const part = new Int32Array(end - start);
    for (let x = start; x < end; x++) part[x - start] = order[x] as number;
    visit(part);
    start = end;
  }
}

class BlockEmitter {
  /** Pairs met again that an earlier rule already emitted. */
  skipped = 0;

  constructor(
    private readonly pairs: PairBuffer,
    private readonly blockIds: Int32Array,
    private readonly width: number,
    private readonly rule: number,
    private readonly stat: RuleStats,
    private readonly options: BlockingOptions,
    /** The rule's spelling-tolerant form, if it has one (see SpellingRule). */
    spellingRule?: { f: RecordFeatures; rule: SpellingRule },
  ) {
    this.spellingRule = spellingRule;
    if (spellingRule) {
      const { f, rule } = spellingRule;
      this.groups = Int32Array.from({ length: f.size }, (_, i) => rule.group(f, i));
      this.kinds = new Int32Array(f.size).fill(-1);
    }
  }

  /** Each record's group under a spelling rule: pairs within a group are skipped at once. */
  private readonly groups: Int32Array | undefined;
  /** Under a spelling rule, each record's kind in the block at hand (an index into `kindOwner`). */
  private readonly kinds: Int32Array | undefined;
  /** The spelling rule's verdicts on ownership, per two kinds of the block at hand: 0 not asked, 1 yes, 2 no. */
  private kindOwner = new Uint8Array(0);
  private kindCount = 0;
  private readonly spellingRule: { f: RecordFeatures; rule: SpellingRule } | undefined;
  /** The key of the spelling rule's block at hand (set by spellingBlock). */
  private blockKey = -1;

  /**
   * Starts a block of a spelling rule. Records that agree on the rule's kind agree on which block owns their pairs,
   * so ownership is asked once per two kinds (a common name's block holds thousands of records of a few kinds).
   */
  spellingBlock(block: Int32Array, key: number): void {
    const { f, rule } = this.spellingRule as { f: RecordFeatures; rule: SpellingRule };
    const kinds = this.kinds as Int32Array;
    const index = new Map<number, number>();
    for (const i of block) {
      const kind = rule.kind(f, i) * 67108864 + ((this.groups as Int32Array)[i] as number);
      let k = index.get(kind);
      if (k === undefined) {
        k = index.size;
        index.set(kind, k);
      }
      kinds[i] = k;
    }
    this.kindCount = index.size;
    const cells = index.size * index.size;
    if (this.kindOwner.length < cells) this.kindOwner = new Uint8Array(cells);
    else this.kindOwner.fill(0, 0, cells);
    this.blockKey = key;
  }

  /** Pairs already emitted within the oversized block at hand (its partitions overlap). */
  private local: Set<number> | undefined;

  private emit(i: number, j: number): void {
    if (this.groups !== undefined && this.groups[i] === this.groups[j]) {
      this.skipped++;
      return;
    }
    const spelling = this.spellingRule;
    if (spelling !== undefined) {
      const kinds = this.kinds as Int32Array;
      const cell = (kinds[i] as number) * this.kindCount + (kinds[j] as number);
      let verdict = this.kindOwner[cell] as number;
      if (verdict === 0) {
        verdict = spelling.rule.owner(spelling.f, i, j, this.blockKey) ? 1 : 2;
        this.kindOwner[cell] = verdict;
      }
      // An earlier rule's pair before the names are weighed: the weighing is the costly part.
      if (verdict === 2 || this.emittedBefore(i, j) || !spelling.rule.admits(spelling.f, i, j)) {
        this.skipped++;
        return;
      }
    }
    if (this.local) {
      const key = i < j ? i * 4294967296 + j : j * 4294967296 + i;
      if (this.local.has(key)) return;
      this.local.add(key);
    }
    if (spelling === undefined && this.emittedBefore(i, j)) {
      this.skipped++;
      return;
    }
    this.pairs.push(i, j);
    this.stat.pairs++;
  }

  /** Whether an earlier rule compared the pair in full (the two records share one of its blocks). */
  private emittedBefore(i: number, j: number): boolean {
    const ids = this.blockIds;
    const bi = i * this.width;
    const bj = j * this.width;
    for (let q = 0; q < this.rule; q++) {
      const id = ids[bi + q] as number;
      if (id >= 0 && id === ids[bj + q]) return true;
    }
    return false;
  }

  /** Every pair of the block; its members get the block's id (later rules skip these pairs). */
  full(block: Int32Array, id: number): void {
    for (let x = 0; x < block.length; x++) {
      const i = block[x] as number;
      // A record is in many blocks of a spelling rule: no block ids there (no later rule consults them).
      if (this.groups === undefined) this.blockIds[i * this.width + this.rule] = id;
      for (let y = x + 1; y < block.length; y++) this.emit(i, block[y] as number);
    }
  }

  /**
   * An oversized block: partitioned once by each overlap key (records lacking it left out), every pair sharing a
   * part compared once; parts still too large, and the records lacking every overlap key, are split further.
   * Records of a full father part get its id (later rules skip those pairs). Returns the next free block id.
   */
  overlapping(f: RecordFeatures, block: Int32Array, nextId: number): number {
    this.local = new Set();
    let id = nextId;
    const lacking: number[] = [];
    for (const i of block) if (overlapKeys.every((k) => k.circumstance || k.key(f, i) < 0)) lacking.push(i);
    overlapKeys.forEach((sub, s) => {
      partsByKey(
        block,
        (i) => sub.key(f, i),
        false,
        (part) => {
          if (part.length > this.options.maxBlock) id = this.split(f, part, 0, id);
          else if (part.length > 1) {
            if (s === 0) this.full(part, id++);
            else this.all(part);
          }
        },
      );
    });
    if (lacking.length > this.options.maxBlock) id = this.split(f, Int32Array.from(lacking), 0, id);
    else if (lacking.length > 1) this.all(Int32Array.from(lacking));
    this.lackingAcross(f, block, lacking);
    this.local = undefined;
    return id;
  }

  /**
   * A record lacking every overlap key but circumstances (a list row with only first and family name, a
   * governorate and perhaps an arrest month) would meet only records as bare as itself; it also meets every record of the block from its governorate, as long as
   * that part is not itself oversized (beyond, its pairs are counted as not compared).
   */
  private lackingAcross(f: RecordFeatures, block: Int32Array, lacking: number[]): void {
    if (lacking.length === 0) return;
    const byGovernorate = new Map<number, number[]>();
    for (const i of block) {
      const g = f.governorate[i] as number;
      if (g < 0) continue;
      const list = byGovernorate.get(g);
      if (list) list.push(i);
      else byGovernorate.set(g, [i]);
    }
    const most = this.options.maxBlock * 4;
    for (const i of lacking) {
      const part = byGovernorate.get(f.governorate[i] as number);
      if (!part || part.length > most) continue;
      for (const j of part) if (j !== i) this.emit(i, j);
    }
  }

  /** Every pair of a part, without giving its records a block id. */
  private all(part: Int32Array): void {
    for (let x = 0; x < part.length; x++) {
      for (let y = x + 1; y < part.length; y++) this.emit(part[x] as number, part[y] as number);
    }
  }

  /** Sub-blocks a part by the next sub-key; returns the next free block id. */
  split(f: RecordFeatures, block: Int32Array, depth: number, nextId: number): number {
    if (depth >= subBlockKeys.length) {
      this.window(block);
      return nextId;
    }
    const sub = subBlockKeys[depth] as (typeof subBlockKeys)[number];
    let id = nextId;
    partsByKey(
      block,
      (i) => sub.key(f, i),
      true,
      (part) => {
        if (part.length > this.options.maxBlock) id = this.split(f, part, depth + 1, id);
        else if (part.length > 1) this.full(part, id++);
      },
    );
    return id;
  }

  /** Sorted-neighbourhood fallback: each record meets the next `window` records of the block. */
  private window(block: Int32Array): void {
    this.stat.windowedBlocks++;
    const w = this.options.window;
    for (let x = 0; x < block.length; x++) {
      for (let y = x + 1; y <= x + w && y < block.length; y++)
        this.emit(block[x] as number, block[y] as number);
    }
  }
}
