import type { PersonRecordFields } from '../domain/person-record.js';
import {
  type BlockingRule,
  broadMatchRules,
  matchRules,
  type Narrowing,
  slipMatchRules,
} from './blocking.js';
import { type Explanation, explainPair } from './explain.js';
import { RecordFeatures } from './features.js';
import type { CompiledModel } from './model.js';
import { probabilityOf } from './model.js';
import { Scorer } from './scorer.js';
import { KeyedRecords, orderByKey } from './sort.js';
import { TermFrequencies } from './term-frequencies.js';

const allNarrowings: readonly Narrowing[] = ['birth', 'father', 'mother'];
/**
 * A spelling-tolerant rule's list is narrowed once longer than this share of maxPosting: a deletion variant meets
 * many names by construction (محمد with any family name one letter from the report's). At 1M records this took the
 * match bench's p95 from 14.5–18.9 ms to 10.2–13.0 ms with the same top-10 hit rate (0.992).
 */
const SLIP_SHARE = 0.25;

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
}

/** One rule's postings: a sorted, packed part built in bulk, and a map for records added since. */
class Postings {
  keys = new Uint32Array(0);
  starts = new Int32Array(1);
  members = new Int32Array(0);
  readonly recent = new Map<number, number[]>();
  recentCount = 0;

  /** Packs the keys of records [0, n) (recent additions are folded in). */
  build(f: RecordFeatures, rule: IndexRule): void {
    const n = f.size;
    const list = new KeyedRecords(n);
    let owner = 0;
    const push = (key: number) => list.push(key, owner);
    for (let i = 0; i < n; i++) {
      if (!f.hasName(i)) continue;
      owner = i;
      rule.keys(f, i, push);
    }
    const { keys, records: owners, count } = list;
    const order = orderByKey(keys, count);
    const distinct: number[] = [];
    const starts: number[] = [];
    this.members = new Int32Array(count);
    for (let k = 0; k < count; k++) {
      const at = order[k] as number;
      const key = keys[at] as number;
      if (distinct.length === 0 || distinct[distinct.length - 1] !== key) {
        distinct.push(key);
        starts.push(k);
      }
      this.members[k] = owners[at] as number;
    }
    starts.push(count);
    this.keys = Uint32Array.from(distinct);
    this.starts = Int32Array.from(starts);
    this.recent.clear();
    this.recentCount = 0;
  }

  add(key: number, i: number): void {
    const list = this.recent.get(key);
    if (list) list.push(i);
    else this.recent.set(key, [i]);
    this.recentCount++;
  }

  /** Calls `visit` for each record under `key`; returns how many there were. */
  forEach(key: number, visit: (i: number) => void): number {
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.keys[mid] as number) < key) lo = mid + 1;
      else hi = mid;
    }
    let seen = 0;
    if (lo < this.keys.length && this.keys[lo] === key) {
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
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.keys[mid] as number) < key) lo = mid + 1;
      else hi = mid;
    }
    const packed =
      lo < this.keys.length && this.keys[lo] === key
        ? (this.starts[lo + 1] as number) - (this.starts[lo] as number)
        : 0;
    return packed + (this.recent.get(key)?.length ?? 0);
  }
}

/** A rule as the index uses it: one key or several per record, and what a narrowed list's records must share. */
interface IndexRule {
  keys(f: RecordFeatures, i: number, push: (key: number) => void): void;
  narrowBy: readonly Narrowing[];
  /** Narrowed whatever the list's length (a broad rule). */
  forced: boolean;
  /** A list longer than maxPosting × this is narrowed (a slip rule's keys meet more names: sooner). */
  share: number;
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
  private readonly byId = new Map<string, number>();

  constructor(
    readonly model: CompiledModel,
    options: MatchIndexOptions = {},
    features?: RecordFeatures,
  ) {
    this.features = features ?? new RecordFeatures(1 << 16);
    this.tf = new TermFrequencies();
    this.scorer = new Scorer(this.features, model, this.tf);
    this.rules = [
      ...matchRules.map((r) => ({ keys: singleKey(r), narrowBy: allNarrowings, forced: false, share: 1 })),
      ...broadMatchRules.map((r) => ({
        keys: singleKey(r),
        narrowBy: r.narrowBy,
        forced: r.narrowBy.length > 0,
        share: 1,
      })),
      ...slipMatchRules.map((r) => ({
        keys: r.keys,
        narrowBy: r.narrowBy,
        forced: false,
        share: SLIP_SHARE,
      })),
    ];
    this.postings = this.rules.map(() => new Postings());
    this.stamp = new Uint32Array(1 << 16);
    this.maxPosting = options.maxPosting ?? 4000;
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
    for (let i = 0; i < features.size; i++) {
      const id = features.ids[i] as string;
      if (!index.byId.has(id)) index.byId.set(id, i);
      index.tf.add(features, i);
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
    return true;
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
    if (this.features.hasName(i)) {
      this.rules.forEach((rule, r) => {
        rule.keys(this.features, i, (key) => (this.postings[r] as Postings).add(key, i));
      });
    }
    const recent = this.postings.reduce((sum, p) => sum + p.recentCount, 0);
    if (recent > 4096 && recent > this.features.size / 4) this.rebuild();
    return i;
  }

  private rebuild(): void {
    this.rules.forEach((rule, r) => {
      (this.postings[r] as Postings).build(this.features, rule);
    });
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
      this.candidates(q, (i) => {
        if (i === exclude) return;
        const weight = this.scorer.score(q, i);
        if (best.length >= k && weight <= worst) return;
        const candidate = {
          recordId: this.features.ids[i] as string,
          index: i,
          weight,
          probability: probabilityOf(prior + weight),
        };
        best.push(candidate);
        best.sort((x, y) => y.weight - x.weight || x.index - y.index);
        if (best.length > k) best.pop();
        worst = (best[best.length - 1] as MatchCandidate).weight;
      });
      for (const c of best) c.weight = prior + c.weight;
      return best;
    }
  }

  /** The waterfall of a report against one registry record. */
  explain(fields: PersonRecordFields, recordId: string): Explanation | undefined {
    const i = this.byId.get(recordId);
    if (i === undefined) return undefined;
    return this.withQuery(fields, (q) => {
      this.scorer.records = Math.max(2, this.features.size);
      const explanation = explainPair(this.scorer, q, i, this.features.size);
      explanation.recordA = '(query)';
      return explanation;
    });
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
    const birth = f.birthYear[q] as number;
    const names = f.names;
    const keyOf = (v: number) => (v >= 0 ? names.keyOf(v) : -1);
    const fatherKey = keyOf(f.father[q] as number);
    const motherKey = keyOf(f.motherFirst[q] as number);
    const grandfatherKey = keyOf(f.grandfather[q] as number);
    const governorate = f.governorate[q] as number;
    const shares = (i: number, what: Narrowing): boolean => {
      switch (what) {
        case 'birth': {
          const year = f.birthYear[i] as number;
          return birth >= 0 && year >= 0 && year - birth <= 1 && birth - year <= 1;
        }
        case 'father':
          return fatherKey >= 0 && keyOf(f.father[i] as number) === fatherKey;
        case 'mother':
          return motherKey >= 0 && keyOf(f.motherFirst[i] as number) === motherKey;
        case 'governorate':
          return governorate >= 0 && f.governorate[i] === governorate;
        default:
          return grandfatherKey >= 0 && keyOf(f.grandfather[i] as number) === grandfatherKey;
      }
    };
    this.rules.forEach((rule, r) => {
      const postings = this.postings[r] as Postings;
      const by = rule.narrowBy;
      rule.keys(f, q, (key) => {
        // A broad rule, or a very common key (محمد المصري), keeps the records that also share one more thing.
        const narrow = rule.forced || postings.size(key) > this.maxPosting * rule.share;
        postings.forEach(key, (i) => {
          if (i === q || stamp[i] === id) return;
          if (narrow) {
            // A loop, not by.some(…): no closure made per candidate on the longest lists.
            let shared = false;
            for (let w = 0; w < by.length && !shared; w++) shared = shares(i, by[w] as Narrowing);
            if (!shared) return;
          }
          stamp[i] = id;
          visit(i);
        });
      });
    });
  }
}
