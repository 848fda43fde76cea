import type { PersonRecordFields } from '../domain/person-record.js';
import {
  arrestMonth,
  type BlockingRule,
  branchTop,
  broadMatchRules,
  deathMonth,
  matchRules,
  type Narrowing,
  narrowings,
  type QueryKeys,
  slipMatchRules,
} from './blocking.js';
import { beyondDoubtWeight, namesEachOnce } from './clustering.js';
import { similarSimilarity } from './comparisons.js';
import { type Explanation, explainPair, type NameOrder } from './explain.js';
import { isWoman, RecordFeatures } from './features.js';
import type { CompiledModel } from './model.js';
import { probabilityOf } from './model.js';
import { RecordBlocks } from './record-blocks.js';
import { Scorer } from './scorer.js';
import { KeyedRecords, lowerBound, packByKey, positionOf } from './sort.js';
import { TermFrequencies } from './term-frequencies.js';

const allNarrowings: readonly Narrowing[] = ['birth', 'father', 'mother'];
/**
 * A spelling-tolerant rule's list is narrowed once longer than this share of maxPosting: a deletion variant meets
 * many names by construction (محمد with any family name one letter from the report's). At 1M records this took the
 * match bench's p95 from 14.5–18.9 ms to 10.2–13.0 ms with the same top-10 hit rate (0.992).
 */
const SLIP_SHARE = 0.25;
/**
 * A broad rule's list this short is read whole: a forensic line's "حسن ضرار" (first and father's name, nothing
 * else) shares no birth year or mother with anyone, and a rare pair of names is worth its few candidates.
 */
const BROAD_WHOLE = 48;
/**
 * The same, for a rule of two names or of the day of death (broadMatchRules `bare`) and a query with nothing to
 * narrow by: a forensic line's first and father's name, or its day of death, could meet nobody through a long list
 * otherwise. World C, dev seed 7, 100k people: top 10 0.9798 → 0.9812 (the two names); the other worlds within
 * ±0.0002.
 */
const BROAD_BARE = 256;

export interface MatchCandidate {
  /** The registry record's id. */
  recordId: string;
  /** Its index in the index's features. */
  index: number;
  /** log2 Bayes factor of the pair. */
  weight: number;
  /** Match probability (prior for a registry of this size included). */
  probability: number;
}

export interface MatchIndexOptions {
  /** Candidates taken from one key's postings at most; longer lists keep only records that share one more thing. */
  maxPosting?: number;
  /** A packed list this long or longer is also kept by narrowing value (default SUBLIST_FROM; tests vary it). */
  splitFrom?: number;
  /** Records of a longer list judgeLists reads (default LIST_SAMPLE; tests vary it). */
  listSample?: number;
}

/** Narrowings shared within one either side (a year of birth, a month of arrest or death), not only when equal. */
const nearNarrowings: ReadonlySet<Narrowing> = new Set(['birth', 'arrest', 'death']);

/** Two values within one of each other, both known (-1: unknown). */
function withinOne(x: number, y: number): boolean {
  return x >= 0 && y >= 0 && x - y <= 1 && y - x <= 1;
}

/** The narrowing a forensic line always has (its death): it does not make the line's query any less bare. */
const forensicNarrowing: Narrowing = 'death';

/**
 * What a record gives for one narrowing, as a number (-1: nothing): its birth year, the keys of its father's,
 * mother's or grandfather's names, its governorate, town, month of arrest, arresting agency, month of death. Two
 * records share a narrowing when these are equal (birth: within a year; arrest and death: within a month).
 */
function narrowingValue(f: RecordFeatures, what: Narrowing, i: number): number {
  // Read for every candidate of a narrowed list (shares, in candidates): plain reads, no closure.
  switch (what) {
    case 'birth':
      return f.birthYear[i] as number;
    case 'father':
      return nameKeyOf(f, f.father[i] as number);
    case 'mother':
      return nameKeyOf(f, f.motherFirst[i] as number);
    case 'governorate':
      return f.governorate[i] as number;
    case 'place':
      return f.place[i] as number;
    case 'arrest':
      return arrestMonth(f, i);
    case 'branch':
      return branchTop(f, i);
    case 'death':
      return deathMonth(f, i);
    default:
      return nameKeyOf(f, f.grandfather[i] as number);
  }
}

/** A name's key, -1 for no name. */
function nameKeyOf(f: RecordFeatures, v: number): number {
  return v >= 0 ? f.names.keyOf(v) : -1;
}

/**
 * A packed list this long or longer is also kept by narrowing value, so that a query narrowing it reads only the
 * records sharing something with it instead of testing every record of the list: the longest lists (محمد + أحمد)
 * grow with the registry, and testing them was a third of the time of a new record's match at 270k records.
 */
const SUBLIST_FROM = 64;

/** One narrowing's sub-lists: per distinct key of the packed part, its records sorted by value (those with one). */
interface SubLists {
  starts: Int32Array;
  values: Int32Array;
  members: Int32Array;
}

/** One rule's postings: a sorted, packed part built in bulk, and a map for records added since. */
class Postings {
  keys = new Uint32Array(0);
  starts = new Int32Array(1);
  members = new Int32Array(0);
  /** Per packed key: 1 when its list is also kept by narrowing value (sub). */
  split = new Uint8Array(0);
  /** The sub-lists, one per narrowing of the rule. */
  sub = new Map<Narrowing, SubLists>();
  readonly recent = new Map<number, number[]>();
  recentCount = 0;

  /** Packs the keys of records [0, n) (recent additions are folded in). */
  build(f: RecordFeatures, rule: IndexRule, splitFrom: number): void {
    const n = f.size;
    const list = new KeyedRecords(n);
    let owner = 0;
    const push = (key: number) => list.push(key, owner);
    for (let i = 0; i < n; i++) {
      if (!f.hasName(i)) continue;
      owner = i;
      rule.keys(f, i, push);
    }
    ({ keys: this.keys, starts: this.starts, members: this.members } = packByKey(list));
    this.splitLong(f, rule.narrowBy, splitFrom);
    this.recent.clear();
    this.recentCount = 0;
  }

  /** Keeps each long list of the packed part by narrowing value too (see SUBLIST_FROM). */
  private splitLong(f: RecordFeatures, narrowBy: readonly Narrowing[], splitFrom: number): void {
    const distinct = this.keys.length;
    this.split = new Uint8Array(distinct);
    this.sub = new Map();
    if (narrowBy.length === 0) return;
    let entries = 0;
    for (let k = 0; k < distinct; k++) {
      const length = (this.starts[k + 1] as number) - (this.starts[k] as number);
      if (length < splitFrom) continue;
      this.split[k] = 1;
      entries += length;
    }
    for (const what of narrowBy) {
      const starts = new Int32Array(distinct + 1);
      const values = new Int32Array(entries);
      const members = new Int32Array(entries);
      let at = 0;
      const owners: number[] = [];
      const value: number[] = [];
      const order: number[] = [];
      for (let k = 0; k < distinct; k++) {
        starts[k] = at;
        if (this.split[k] === 0) continue;
        owners.length = 0;
        value.length = 0;
        order.length = 0;
        const end = this.starts[k + 1] as number;
        for (let m = this.starts[k] as number; m < end; m++) {
          const i = this.members[m] as number;
          const v = narrowingValue(f, what, i);
          if (v < 0) continue;
          order.push(owners.length);
          owners.push(i);
          value.push(v);
        }
        // A list's records ascend; sorted by value, then by position, they still ascend within a value.
        order.sort((x, y) => (value[x] as number) - (value[y] as number) || x - y);
        for (const o of order) {
          values[at] = value[o] as number;
          members[at] = owners[o] as number;
          at++;
        }
      }
      starts[distinct] = at;
      this.sub.set(what, { starts, values: values.slice(0, at), members: members.slice(0, at) });
    }
  }

  /** The packed key's position, or -1. */
  private find(key: number): number {
    return positionOf(this.keys, key);
  }

  /**
   * For a narrowed query: when the packed list of `key` is kept by narrowing value, calls `visit` for each of its
   * records whose `what` value is one of `wanted` (and answers true); answers false when it is not (the caller tests
   * every record). Records added since the last pack are not visited: the caller tests them (forEachRecent).
   */
  forEachSharing(
    key: number,
    what: Narrowing,
    wanted: readonly number[],
    visit: (i: number) => void,
  ): boolean {
    const k = this.find(key);
    if (k < 0) return true;
    if (this.split[k] === 0) return false;
    const sub = this.sub.get(what) as SubLists;
    const end = sub.starts[k + 1] as number;
    for (const v of wanted) {
      const lo = lowerBound(sub.values, v, sub.starts[k] as number, end);
      for (let m = lo; m < end && sub.values[m] === v; m++) visit(sub.members[m] as number);
    }
    return true;
  }

  /** Whether the packed list of `key` is kept by narrowing value. */
  isSplit(key: number): boolean {
    const k = this.find(key);
    return k >= 0 && this.split[k] === 1;
  }

  /** Calls `visit` for each record under `key` added since the last pack. */
  forEachRecent(key: number, visit: (i: number) => void): void {
    const recent = this.recent.get(key);
    if (recent) for (const i of recent) visit(i);
  }

  add(key: number, i: number): void {
    const list = this.recent.get(key);
    if (list) list.push(i);
    else this.recent.set(key, [i]);
    this.recentCount++;
  }

  /** Calls `visit` for each record under `key`; returns how many there were. */
  forEach(key: number, visit: (i: number) => void): number {
    const lo = this.find(key);
    let seen = 0;
    if (lo >= 0) {
      const end = this.starts[lo + 1] as number;
      for (let k = this.starts[lo] as number; k < end; k++) visit(this.members[k] as number);
      seen += end - (this.starts[lo] as number);
    }
    const recent = this.recent.get(key);
    if (recent) {
      for (const i of recent) visit(i);
      seen += recent.length;
    }
    return seen;
  }

  size(key: number): number {
    const lo = this.find(key);
    const packed = lo >= 0 ? (this.starts[lo + 1] as number) - (this.starts[lo] as number) : 0;
    return packed + (this.recent.get(key)?.length ?? 0);
  }
}

/** A rule as the index uses it: one key or several per record, and what a narrowed list's records must share. */
interface IndexRule {
  keys(f: RecordFeatures, i: number, push: (key: number) => void): void;
  /**
   * The keys a query reads, where they are more than its own (a month rule's months either side); a neighbour's
   * list is read as a broad rule's (narrowed past BROAD_WHOLE).
   */
  queryKeys?: QueryKeys;
  narrowBy: readonly Narrowing[];
  /** Narrowed whatever the list's length (a broad rule). */
  forced: boolean;
  /** A list longer than maxPosting × this is narrowed (a slip rule's keys meet more names: sooner). */
  share: number;
  /** A list of two names: read whole up to BROAD_BARE, not BROAD_WHOLE, for a query with nothing to narrow by. */
  bare: boolean;
  /** For a man's query with a family name, only candidates whose family name is alike or missing (matchRules). */
  alikeFamily: boolean;
}

/**
 * Records of a list the match index reads to judge whether the list names each person once (judgeLists). A record's
 * partners take about 0.1 ms to gather and score at 180k athar synth records, about 1 ms at 1M: a list is judged in
 * 0.25 s at most. The sample tells a list whose duplicates are 1% of its records (some 2.6 of their pairs met) from
 * one with at most 0.02% (0.05) at the limit of one per thousand (met 0 or not); a list with fewer duplicates (0.3%)
 * is taken half the time to name each person once — the side to err on, since the loop then refuses a merge and a
 * reviewer decides it.
 */
const LIST_SAMPLE = 256;

/** What reading a pair's names in the other order of writing costs (log2): most records are written in order. */
const ORDER_COST = 2;

/**
 * Whether b's father's and first names are a's first and family names (b writes the family name first: دياب
 * عبد الكريم … read in order is a man named دياب), or the other way round; undefined when neither.
 */
export function nameOrder(f: RecordFeatures, a: number, b: number): NameOrder | undefined {
  // Called for every candidate a query scores: plain reads, no closure (a missing name's key is -1 and meets none).
  const names = f.names;
  const firstA = f.first[a] as number;
  const familyA = f.family[a] as number;
  const firstB = f.first[b] as number;
  const familyB = f.family[b] as number;
  if (firstA < 0 || firstB < 0) return undefined;
  const firstKeyA = names.keyOf(firstA);
  const firstKeyB = names.keyOf(firstB);
  if (familyA >= 0 && names.keyOf(familyA) === firstKeyB) {
    const fatherB = f.father[b] as number;
    if (fatherB >= 0 && names.keyOf(fatherB) === firstKeyA) return 'b_family_first';
  }
  if (familyB >= 0 && names.keyOf(familyB) === firstKeyA) {
    const fatherA = f.father[a] as number;
    if (fatherA >= 0 && names.keyOf(fatherA) === firstKeyB) return 'a_family_first';
  }
  return undefined;
}

function singleKey(rule: BlockingRule): IndexRule['keys'] {
  return (f, i, push) => {
    const key = rule.key(f, i);
    if (key >= 0) push(key);
  };
}

/**
 * The registry in memory for interactive matching: prepared records, term frequencies and, per blocking rule, the
 * records under each key. A query is prepared like a record, its candidates gathered from its keys, scored, and
 * the best K returned with probabilities; any of them can be explained. Records can be added at any time.
 */
export class MatchIndex {
  readonly features: RecordFeatures;
  readonly tf: TermFrequencies;
  private readonly scorer: Scorer;
  private readonly postings: Postings[];
  private readonly rules: readonly IndexRule[];
  private stamp: Uint32Array;
  private query = 0;
  private readonly maxPosting: number;
  private readonly splitFrom: number;
  private readonly listSample: number;
  private readonly byId = new Map<string, number>();
  /** The linking rules' blocks (`athar link`'s), for a new registry record's candidates (linkedFor). */
  private readonly linkBlocks = new RecordBlocks();
  /** Records added one by one since the postings were last packed. */
  private recentRecords = 0;
  /** Per list (source id): whether it names each person once, and its records when that was judged. */
  private readonly listsJudged = new Map<number, { records: number; once: boolean }>();
  /** Per list (source id): its records in the index, counted as they come (a report matched is not one). */
  private readonly listRecords = new Map<number, number>();

  constructor(
    readonly model: CompiledModel,
    options: MatchIndexOptions = {},
    features?: RecordFeatures,
  ) {
    this.features = features ?? new RecordFeatures(1 << 16);
    this.tf = new TermFrequencies();
    this.scorer = new Scorer(this.features, model, this.tf);
    this.rules = [
      ...matchRules.map((r) => ({
        keys: singleKey(r),
        ...(r.queryKeys ? { queryKeys: r.queryKeys } : {}),
        narrowBy: allNarrowings,
        forced: false,
        share: 1,
        bare: false,
        alikeFamily: r.alikeFamily === true,
      })),
      ...broadMatchRules.map((r) => ({
        keys: singleKey(r),
        narrowBy: r.narrowBy,
        forced: r.narrowBy.length > 0,
        share: 1,
        bare: r.bare === true,
        alikeFamily: false,
      })),
      ...slipMatchRules.map((r) => ({
        keys: r.keys,
        narrowBy: r.narrowBy,
        forced: r.broad === true,
        share: SLIP_SHARE,
        bare: false,
        alikeFamily: false,
      })),
    ];
    this.postings = this.rules.map(() => new Postings());
    this.stamp = new Uint32Array(1 << 16);
    this.maxPosting = options.maxPosting ?? 4000;
    this.splitFrom = options.splitFrom ?? SUBLIST_FROM;
    this.listSample = options.listSample ?? LIST_SAMPLE;
  }

  get size(): number {
    return this.features.size;
  }

  /** An index over records already prepared (read in parallel by the caller); duplicate ids keep the first. */
  static fromFeatures(
    model: CompiledModel,
    features: RecordFeatures,
    options: MatchIndexOptions = {},
  ): MatchIndex {
    const index = new MatchIndex(model, options, features);
    features.settleNameOrder();
    for (let i = 0; i < features.size; i++) {
      const id = features.ids[i] as string;
      if (!index.byId.has(id)) index.byId.set(id, i);
      index.tf.add(features, i);
      index.countList(i);
    }
    index.pack();
    return index;
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  /** The record's position in the index's features, or -1. */
  indexOf(id: string): number {
    return this.byId.get(id) ?? -1;
  }

  /** Adds many records, then packs the postings (the way to load a registry). Ids already present are skipped. */
  load(records: Iterable<{ id: string; fields: PersonRecordFields }>): void {
    for (const { id, fields } of records) this.append(id, fields);
    this.pack();
  }

  /**
   * Adds a record without registering it in the postings: for bulk loading (stream records in with `append`, then
   * `pack` once). Returns false when the id is already present.
   */
  append(id: string, fields: PersonRecordFields): boolean {
    if (this.byId.has(id)) return false;
    const i = this.features.add(id, fields);
    this.byId.set(id, i);
    this.tf.add(this.features, i);
    this.countList(i);
    return true;
  }

  private countList(i: number): void {
    const s = this.features.source[i] as number;
    if (s >= 0) this.listRecords.set(s, (this.listRecords.get(s) ?? 0) + 1);
  }

  /** Packs the postings of every record appended so far. */
  pack(): void {
    this.rebuild();
  }

  /** Adds one record as it arrives (registered in the postings at once). */
  add(id: string, fields: PersonRecordFields): number {
    const existing = this.byId.get(id);
    if (existing !== undefined) return existing;
    const i = this.features.add(id, fields);
    this.byId.set(id, i);
    this.tf.add(this.features, i);
    this.countList(i);
    if (this.features.hasName(i)) {
      this.rules.forEach((rule, r) => {
        rule.keys(this.features, i, (key) => (this.postings[r] as Postings).add(key, i));
      });
    }
    // A nameless record too, under the linking rules that key it (its detainee number and branch).
    this.linkBlocks.add(this.features, i);
    // Packed again once a quarter of the registry came since: counted in records, not keys (a record gives some
    // sixty keys across the rules, so counting keys packed a 1M registry again every 4,000 new records: 11.6 s of
    // the loop's 31 s of CPU for 10,000 records, profiled on PostgreSQL).
    this.recentRecords++;
    if (this.recentRecords > 4096 && this.recentRecords > this.features.size / 4) this.rebuild();
    return i;
  }

  private rebuild(): void {
    this.recentRecords = 0;
    // A registry's lists read in their own order of writing, as `athar link` reads them (settleNameOrder); the term
    // frequencies follow the names.
    this.features.settleNameOrder({
      before: (i) => this.tf.remove(this.features, i),
      after: (i) => this.tf.add(this.features, i),
    });
    this.rules.forEach((rule, r) => {
      // Only lists a query narrows: every list of a broad rule, the lists of another rule once long.
      const from = rule.forced
        ? this.splitFrom
        : Math.max(this.splitFrom, Math.floor(this.maxPosting * rule.share) + 1);
      (this.postings[r] as Postings).build(this.features, rule, from);
    });
    this.linkBlocks.build(this.features);
  }

  /** The best `k` registry records for a report, strongest first. */
  top(fields: PersonRecordFields, k: number): MatchCandidate[] {
    return this.withQuery(fields, (q) => this.rank(q, k, this.features.size));
  }

  /** The best `k` other records for a record already in the index (the tracing loop's new records). */
  topFor(id: string, k: number): MatchCandidate[] {
    const q = this.byId.get(id);
    if (q === undefined) return [];
    return this.rank(q, k, this.features.size, q);
  }

  /**
   * A record already in the index against the registry as `athar link` pairs it: exactly the partners the linking
   * rules' blocking gives it (record-blocks.ts), all of them scored, strongest first. The tracing loop links a new
   * registry record by these, so that the loop, `athar registry link` and `athar link` weigh the same pairs; the
   * broad search (topFor) would score hundreds of records per record at 1M, nearly all of them hopeless.
   */
  linkedFor(id: string): MatchCandidate[] {
    const q = this.byId.get(id);
    if (q === undefined) return [];
    this.scorer.records = Math.max(2, this.features.size);
    const prior = this.model.priorWeight(this.features.size);
    const out = this.linkBlocks.partners(this.features, q).map((i) => {
      const weight = prior + this.scorer.score(q, i);
      return {
        recordId: this.features.ids[i] as string,
        index: i,
        weight,
        probability: probabilityOf(weight),
      };
    });
    return out.sort((x, y) => y.weight - x.weight || x.index - y.index);
  }

  /** The records blocking pairs an indexed record with (record-blocks.ts): for tests and diagnostics. */
  linkedPartners(id: string): number[] {
    const q = this.byId.get(id);
    return q === undefined ? [] : this.linkBlocks.partners(this.features, q);
  }

  /**
   * The pair's weight (log2 Bayes factor, prior left out) and the evidence against it, for two indexed records:
   * what the clustering guard asks of a record joining a person.
   */
  pair(idA: string, idB: string): { weight: number; disagreement: number } | undefined {
    const a = this.byId.get(idA);
    const b = this.byId.get(idB);
    if (a === undefined || b === undefined) return undefined;
    this.scorer.records = Math.max(2, this.features.size);
    const weight = this.scorer.score(a, b);
    return { weight, disagreement: this.scorer.lastDisagreement(this.model.model.clustering.tolerance) };
  }

  /**
   * Whether each list (source id) names each person once, judged as `athar link` judges it (clustering
   * `listsNamingOnce`): the list's own pairs that the linking rules' blocks give (linkedFor's partners), those one
   * person beyond doubt counted. A list of more than `listSample` records is judged by a stride sample of them, each
   * sampled record's partners counted (every such pair is met from both its records, so the sample's count is twice
   * the pairs among as many records). Remembered per list, and judged again once the list has grown by an eighth.
   * `pause` is awaited now and then, so that a server answers while a long list is judged. Reviewers' joinings are
   * not read here: the tracing loop refuses a merge on this, and a refused merge goes to a reviewer.
   */
  async judgeLists(sources: Iterable<number>, pause?: () => Promise<void>): Promise<Map<number, boolean>> {
    const f = this.features;
    const stale = new Map<number, number[]>();
    for (const s of sources) {
      const known = this.listsJudged.get(s);
      const records = this.listRecords.get(s) ?? 0;
      if (s >= 0 && !(known && records * 8 <= known.records * 9)) stale.set(s, []);
    }
    // The records of the lists to judge, in one pass over the registry; a remembered verdict costs none.
    if (stale.size > 0) for (let i = 0; i < f.size; i++) stale.get(f.source[i] as number)?.push(i);
    for (const [source, members] of stale) {
      const sample = Math.min(members.length, this.listSample);
      const stride = members.length / Math.max(1, sample);
      const records = Math.max(2, f.size);
      const beyondDoubt = this.duplicateWeight();
      let met = 0;
      for (let k = 0; k < sample; k++) {
        // Set again after each pause: a query answered meanwhile sets it for a registry with its report in it.
        this.scorer.records = records;
        const i = members[Math.floor(k * stride)] as number;
        if (!f.hasName(i)) continue;
        for (const j of this.linkBlocks.partners(f, i)) {
          if (f.source[j] === source && this.scorer.score(i, j) >= beyondDoubt) met++;
        }
        if (pause && (k & 63) === 63) await pause();
      }
      // met / 2 pairs among `sample` records: namesEachOnce(pairs, records) at the list's own share.
      this.listsJudged.set(source, { records: members.length, once: namesEachOnce(met / 2, sample) });
    }
    const out = new Map<number, boolean>();
    for (const s of sources) if (s >= 0) out.set(s, this.listNamesEachOnce(s));
    return out;
  }

  /** The remembered verdict of judgeLists on the list (source id); false for a list never judged. */
  listNamesEachOnce(source: number): boolean {
    return this.listsJudged.get(source)?.once === true;
  }

  /** The weight (prior left out) at which a pair is one person beyond doubt (clustering `duplicateProbability`). */
  duplicateWeight(): number {
    return beyondDoubtWeight(this.priorWeight());
  }

  /** The waterfall of two indexed records. */
  explainPair(idA: string, idB: string): Explanation | undefined {
    const a = this.byId.get(idA);
    const b = this.byId.get(idB);
    if (a === undefined || b === undefined) return undefined;
    this.scorer.records = Math.max(2, this.features.size);
    return explainPair(this.scorer, a, b, this.features.size);
  }

  /** The prior weight of a pair in a registry of this size. */
  priorWeight(): number {
    return this.model.priorWeight(Math.max(2, this.features.size));
  }

  private rank(q: number, k: number, records: number, exclude = -1): MatchCandidate[] {
    {
      const n = records - 1;
      this.scorer.records = Math.max(2, n + 1);
      const prior = this.model.priorWeight(n + 1);
      const best: MatchCandidate[] = [];
      let worst = Number.NEGATIVE_INFINITY;
      let worstIndex = -1;
      this.candidates(q, (i) => {
        if (i === exclude) return;
        const weight = this.weigh(q, i);
        // The best k by weight, then by position: the same whatever order the candidates come in.
        if (best.length >= k && (weight < worst || (weight === worst && i > worstIndex))) return;
        const candidate = {
          recordId: this.features.ids[i] as string,
          index: i,
          weight,
          probability: probabilityOf(prior + weight),
        };
        best.push(candidate);
        best.sort((x, y) => y.weight - x.weight || x.index - y.index);
        if (best.length > k) best.pop();
        const last = best[best.length - 1] as MatchCandidate;
        worst = last.weight;
        worstIndex = last.index;
      });
      for (const c of best) c.weight = prior + c.weight;
      return best;
    }
  }

  /**
   * The pair's weight (prior left out), the names read in the other order of writing where one record writes the
   * family name first and the other does not (nameOrder), less what such a reading costs.
   */
  private weigh(q: number, i: number): number {
    const weight = this.scorer.score(q, i);
    const order = nameOrder(this.features, q, i);
    if (order === undefined) return weight;
    return Math.max(weight, this.inOrder(q, order, () => this.scorer.score(q, i)) - ORDER_COST);
  }

  /** Runs `work` with record q's names read as `order` says, then puts them back. */
  private inOrder<T>(q: number, order: NameOrder, work: () => T): T {
    const f = this.features;
    const saved = [f.first[q], f.father[q], f.grandfather[q], f.family[q]] as number[];
    const written = saved.filter((v) => v >= 0);
    // q written in order, read as the other writes it (family first), or the other way round.
    const read =
      order === 'b_family_first'
        ? [written[written.length - 1] as number, ...written.slice(0, -1)]
        : [...written.slice(1), written[0] as number];
    f.first[q] = read[0] as number;
    f.father[q] = read.length > 2 ? (read[1] as number) : -1;
    f.grandfather[q] = read.length > 3 ? (read[2] as number) : -1;
    f.family[q] = read.length > 1 ? (read[read.length - 1] as number) : -1;
    try {
      return work();
    } finally {
      [f.first[q], f.father[q], f.grandfather[q], f.family[q]] = saved as [number, number, number, number];
    }
  }

  /** The waterfall of a report against one registry record. */
  explain(fields: PersonRecordFields, recordId: string): Explanation | undefined {
    const i = this.byId.get(recordId);
    if (i === undefined) return undefined;
    return this.withQuery(fields, (q) => {
      const explanation = this.explainWeighed(q, i);
      explanation.recordA = '(query)';
      return explanation;
    });
  }

  /**
   * The waterfall of two indexed records as the match weighs them (topFor): with the names read in the other order
   * of writing where that weighs more, its cost a step of its own. explainPair is the pair as `athar link` weighs it.
   */
  explainMatch(idA: string, idB: string): Explanation | undefined {
    const a = this.byId.get(idA);
    const b = this.byId.get(idB);
    if (a === undefined || b === undefined) return undefined;
    return this.explainWeighed(a, b);
  }

  private explainWeighed(q: number, i: number): Explanation {
    this.scorer.records = Math.max(2, this.features.size);
    const plain = explainPair(this.scorer, q, i, this.features.size);
    const order = nameOrder(this.features, q, i);
    if (order === undefined) return plain;
    const read = this.inOrder(q, order, () => explainPair(this.scorer, q, i, this.features.size));
    if (read.bayesFactor - ORDER_COST <= plain.bayesFactor) return plain;
    read.steps.push({
      comparison: 'name_order',
      level: order,
      valueA: '',
      valueB: '',
      weight: -ORDER_COST,
      cumulative: read.total - ORDER_COST,
    });
    read.bayesFactor -= ORDER_COST;
    read.total -= ORDER_COST;
    read.probability = probabilityOf(read.total);
    read.nameOrder = order;
    return read;
  }

  /** Runs `work` with the report prepared as a temporary last record, then lets it go. */
  private withQuery<T>(fields: PersonRecordFields, work: (q: number) => T): T {
    const q = this.features.add('(query)', fields);
    this.tf.add(this.features, q);
    try {
      return work(q);
    } finally {
      this.tf.remove(this.features, q);
      this.features.removeLast();
    }
  }

  /** Each registry record sharing a blocking key with record q, once. */
  private candidates(q: number, visit: (i: number) => void): void {
    const f = this.features;
    if (!f.hasName(q)) return;
    if (this.stamp.length < f.size) {
      const grown = new Uint32Array(Math.max(f.size, this.stamp.length * 2));
      grown.set(this.stamp);
      this.stamp = grown;
    }
    this.query = (this.query + 1) >>> 0;
    if (this.query === 0) {
      this.stamp.fill(0);
      this.query = 1;
    }
    const stamp = this.stamp;
    const id = this.query;
    // q's value for each narrowing, and the values a record must have to share it with q (birth: a year either
    // side; arrest, death: a month).
    const own = {} as Record<Narrowing, number>;
    // Whether each narrowing is shared within one: read here once, not per candidate (shares).
    const near = {} as Record<Narrowing, boolean>;
    const wanted = new Map<Narrowing, number[]>();
    for (const what of narrowings) {
      const v = narrowingValue(f, what, q);
      own[what] = v;
      near[what] = nearNarrowings.has(what);
      wanted.set(what, v < 0 ? [] : near[what] ? [v - 1, v, v + 1].filter((y) => y >= 0) : [v]);
    }
    const shares = (i: number, what: Narrowing): boolean => {
      const v = own[what];
      if (v < 0) return false;
      const value = narrowingValue(f, what, i);
      return near[what] ? withinOne(v, value) : value === v;
    };
    const take = (i: number) => {
      if (i === q || stamp[i] === id) return;
      stamp[i] = id;
      visit(i);
    };
    // A candidate passed over here stays unstamped: another rule may still bring it.
    const familyQ = f.family[q] as number;
    const man = familyQ >= 0 && !isWoman(f.sex[q] as number);
    const sim = this.scorer.sim;
    const alike = (i: number) => {
      const v = f.family[i] as number;
      return v < 0 || sim.get(familyQ, v) >= similarSimilarity;
    };
    // Stamps tested first: a candidate already taken costs no similarity lookup.
    const takeAlike = (i: number) => {
      if (i !== q && stamp[i] !== id && alike(i)) take(i);
    };
    this.rules.forEach((rule, r) => {
      const postings = this.postings[r] as Postings;
      const by = rule.narrowBy;
      // A query that gives nothing to narrow by (a forensic line's first and father's name alone) reads a two-name
      // list whole further. Its month of death does not count here: a forensic line always has one, and it narrows
      // only a list past BROAD_BARE.
      const whole =
        rule.bare &&
        by.every((what) => what === forensicNarrowing || (wanted.get(what) as number[]).length === 0)
          ? BROAD_BARE
          : BROAD_WHOLE;
      const onlyAlike = man && rule.alikeFamily;
      const takeHere = onlyAlike ? takeAlike : take;
      (rule.queryKeys ?? rule.keys)(f, q, (key: number, neighbour = false) => {
        // A broad rule, or a very common key (محمد المصري), keeps the records that also share one more thing.
        const size = postings.size(key);
        const narrow = rule.forced || neighbour ? size > whole : size > this.maxPosting * rule.share;
        const takeShared = (i: number) => {
          if (i === q || stamp[i] === id || (onlyAlike && !alike(i))) return;
          // A loop, not by.some(…): no closure made per candidate on the longest lists.
          let shared = false;
          for (let w = 0; w < by.length && !shared; w++) shared = shares(i, by[w] as Narrowing);
          if (!shared) return;
          stamp[i] = id;
          visit(i);
        };
        if (!narrow) {
          postings.forEach(key, takeHere);
        } else if (postings.isSplit(key)) {
          // The same records as testing the whole list, read from its sub-lists (in another order).
          for (const what of by) postings.forEachSharing(key, what, wanted.get(what) as number[], takeHere);
          postings.forEachRecent(key, takeShared);
        } else {
          postings.forEach(key, takeShared);
        }
      });
    });
  }
}
