import { familyNameAt } from './comparisons.js';
import { precision, type RecordFeatures, womanAmong } from './features.js';
import { log2Odds } from './model.js';

/** Scores any pair on demand (the guard compares pairs the blocking never proposed). */
export interface PairScore {
  score(a: number, b: number): number;
  /**
   * The evidence against the last pair scored: the sum of its negative field weights (≤ 0). Without it, every
   * pair scoring below the guard counts as disagreeing.
   */
  lastDisagreement?(tolerance?: number): number;
  /** Each comparison's weight for the last pair scored (NaN where a side is missing); see `disagree`. */
  lastFieldWeights?(out: Float64Array): void;
}

export interface ClusterOptions {
  /** Pairs with a Bayes factor (log2) at or above this are links. */
  thresholdWeight: number;
  /**
   * A merge is refused when a pair across the two clusters disagrees (at least `minDisagreement` bits against) and
   * scores below this: two different people.
   */
  guardWeight: number;
  /** Bits against that make a pair a disagreeing one (default 1). */
  minDisagreement?: number;
  /** Field weights against milder than this are within tolerance, not disagreement (default 0). */
  tolerance?: number;
  /** Pairs a reviewer rejected: never in one cluster. Keys from `pairKey`. */
  cannotLink?: ReadonlySet<number>;
  /**
   * Pairs people put together (a reviewer's match, a manual link): one cluster before any link is weighed, with no
   * guard — the model does not second-guess them, though its own links must pass the guard against them.
   */
  mustLink?: readonly (readonly [number, number])[];
  /** Pairs across two clusters checked at most (a deterministic stride sample beyond). */
  maxGuardPairs?: number;
  /**
   * A record linked to a cluster it was not put in (the guard kept the two apart) by a link within this many bits of
   * its strongest link into its own cluster is ambiguous and left on its own (default 0.5: odds within a factor of
   * √2, so it is left alone when its own cluster is less than about 59% likely); 0 turns it off.
   */
  ambiguityBits?: number;
  /**
   * Such a record stays in its own cluster when its mean weight against that cluster's records (every candidate pair,
   * links or not) is at least this many bits above its mean against the other's (default 3: its own cluster's
   * records agree with it eight times as strongly, on average, as the rival's).
   */
  ambiguitySupportBits?: number;
  /**
   * A pair of one list at or above this weight shows that the list names someone twice (a family reporting a
   * relative again, a register's transfer); so does a pair of one list that people put together (`mustLink`). A list
   * with fewer such pairs than one per thousand of its records names each person once, and two of its records are
   * never one cluster unless that pair itself reaches this weight (`listsNamingOnce`). Undefined: no list is taken
   * to name each person once.
   */
  duplicateWeight?: number;
  /** Told of every link the guard refused (the pair's index and why): evaluation counts refused true links. */
  onRefused?: (pair: number, why: 'registry' | 'list' | 'rejected' | 'chronology' | 'different') => void;
}

export interface ClusterStats {
  /** Pairs at or above the threshold. */
  links: number;
  /** Links that joined two clusters. */
  merges: number;
  /** Links refused because the two clusters hold two lines of one registry with different detainee numbers. */
  refusedRegistryConflict: number;
  /** Links refused because the two clusters hold two records of a list that names each person once. */
  refusedSameList: number;
  /** Links refused because a reviewer rejected a pair across the two clusters. */
  refusedRejected: number;
  /** Links refused because a record of one cluster died long before a record of the other was arrested. */
  refusedChronology: number;
  /** Links refused because some pair across the two clusters disagrees and is too weak to be one person. */
  refusedClearlyDifferent: number;
  /** Records left on their own: linked about as strongly to two clusters the guard kept apart (`ambiguityBits`). */
  ambiguous: number;
  clusters: number;
  largestCluster: number;
}

export interface Clustering {
  /** For each record, the index of its cluster's first record. */
  clusterOf: Int32Array;
  stats: ClusterStats;
}

/** A number naming an unordered pair of record indexes. */
export function pairKey(a: number, b: number): number {
  return a < b ? a * 4294967296 + b : b * 4294967296 + a;
}

/**
 * Groups records from scored pairs. Links are taken strongest first; two clusters merge only if no pair across them
 * is a known conflict (same registry, different detainee numbers; two records of a list that names each person once;
 * a reviewer's rejection) and none both disagrees
 * and scores below the guard. So a chain of weak links cannot join two people whose own records disagree, while a
 * bare record (a name and little else) that agrees with everything it meets can join a cluster.
 */
export function clusterPairs(
  f: RecordFeatures,
  pairA: Int32Array,
  pairB: Int32Array,
  weights: Float32Array | Float64Array,
  count: number,
  scorer: PairScore,
  options: ClusterOptions,
): Clustering {
  const n = f.size;
  const parent = new Int32Array(n);
  for (let i = 0; i < n; i++) parent[i] = i;
  const members: (number[] | undefined)[] = new Array(n);
  const find = (x: number): number => {
    let r = x;
    while (parent[r] !== r) r = parent[r] as number;
    while (parent[x] !== r) {
      const next = parent[x] as number;
      parent[x] = r;
      x = next;
    }
    return r;
  };
  const links: number[] = [];
  for (let p = 0; p < count; p++) if ((weights[p] as number) >= options.thresholdWeight) links.push(p);
  // Of links of equal weight (bare rows of one name weigh alike against each namesake), those whose own two records
  // are in order, at no slack, first: a hospital's "died 2016-05" then joins the namesake taken in 2014 before the one
  // taken in 2017 (whom the merges' two years of slack would still admit).
  const late = (p: number) => (strictlyOutOfOrder(f, pairA[p] as number, pairB[p] as number) ? 1 : 0);
  links.sort((x, y) => (weights[y] as number) - (weights[x] as number) || late(x) - late(y) || x - y);
  const stats: ClusterStats = {
    links: links.length,
    merges: 0,
    refusedRegistryConflict: 0,
    refusedSameList: 0,
    refusedRejected: 0,
    refusedChronology: 0,
    refusedClearlyDifferent: 0,
    ambiguous: 0,
    clusters: 0,
    largestCluster: n > 0 ? 1 : 0,
  };
  const maxGuard = options.maxGuardPairs ?? 10_000;
  const once =
    options.duplicateWeight === undefined
      ? noLists
      : listsNamingOnce(f, pairA, pairB, weights, count, options.duplicateWeight, options.mustLink ?? []);
  // Per cluster (at its root): the earliest day by which one of its records says the person had died, and the
  // latest day on which one says the person was still to be arrested.
  const deathBy = new Float64Array(n);
  const arrestFrom = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    deathBy[i] = latestDeathDay(f, i);
    arrestFrom[i] = earliestArrestDay(f, i);
  }
  const union = (ra: number, rb: number) => {
    const ma = members[ra] ?? [ra];
    const mb = members[rb] ?? [rb];
    const [big, small, rootBig, rootSmall] = ma.length >= mb.length ? [ma, mb, ra, rb] : [mb, ma, rb, ra];
    for (const x of small) big.push(x);
    parent[rootSmall] = rootBig;
    members[rootBig] = big;
    members[rootSmall] = undefined;
    if (big.length > stats.largestCluster) stats.largestCluster = big.length;
    deathBy[rootBig] = Math.min(deathBy[rootBig] as number, deathBy[rootSmall] as number);
    arrestFrom[rootBig] = Math.max(arrestFrom[rootBig] as number, arrestFrom[rootSmall] as number);
  };
  for (const [x, y] of options.mustLink ?? []) {
    const ra = find(x);
    const rb = find(y);
    if (ra !== rb) union(ra, rb);
  }
  for (const p of links) {
    const ra = find(pairA[p] as number);
    const rb = find(pairB[p] as number);
    if (ra === rb) continue;
    const ma = members[ra] ?? [ra];
    const mb = members[rb] ?? [rb];
    const verdict = outOfOrder(
      deathBy[ra] as number,
      arrestFrom[ra] as number,
      deathBy[rb] as number,
      arrestFrom[rb] as number,
      chronologySlack,
    )
      ? 'chronology'
      : guard(f, ma, mb, scorer, options, maxGuard, once);
    if (verdict === 'registry') stats.refusedRegistryConflict++;
    else if (verdict === 'list') stats.refusedSameList++;
    else if (verdict === 'rejected') stats.refusedRejected++;
    else if (verdict === 'chronology') stats.refusedChronology++;
    else if (verdict === 'different') stats.refusedClearlyDifferent++;
    if (verdict !== 'ok') {
      options.onRefused?.(p, verdict);
      continue;
    }
    union(ra, rb);
    stats.merges++;
  }
  const root = new Int32Array(n);
  for (let i = 0; i < n; i++) root[i] = find(i);
  // Per cluster (lazily, at its root): how many of its records each list holds.
  const lists = new Map<number, Map<number, number>>();
  const listsOf = (r: number): Map<number, number> => {
    let counts = lists.get(r);
    if (!counts) {
      counts = new Map();
      for (const m of members[r] ?? [r]) {
        const s = f.source[m] as number;
        if (s >= 0) counts.set(s, (counts.get(s) ?? 0) + 1);
      }
      lists.set(r, counts);
    }
    return counts;
  };
  const couldBe = (x: number, r: number): boolean => {
    const s = f.source[x] as number;
    if (s >= 0 && listsOf(r).has(s) && listsOf(root[x] as number).get(s) === 1) return false;
    return !outOfOrder(
      latestDeathDay(f, x),
      earliestArrestDay(f, x),
      deathBy[r] as number,
      arrestFrom[r] as number,
      0,
    );
  };
  const alone = detachAmbiguous(n, root, links, pairA, pairB, weights, count, options, couldBe);
  stats.ambiguous = alone.size;
  // A cluster's id is its first record's (in input order); a record left on its own is its own.
  const firstOf = new Int32Array(n).fill(-1);
  const clusterOf = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    if (alone.has(i)) {
      clusterOf[i] = i;
      stats.clusters++;
      continue;
    }
    const r = root[i] as number;
    if (firstOf[r] === -1) {
      firstOf[r] = i;
      stats.clusters++;
    }
    clusterOf[i] = firstOf[r] as number;
  }
  return { clusterOf, stats };
}

type Verdict = 'ok' | 'registry' | 'list' | 'rejected' | 'chronology' | 'different';

const noLists: ReadonlySet<number> = new Set();

/**
 * A pair of one list this likely to be one person shows that the list names someone twice (a family reporting a
 * relative again, a register's transfer); a list with (almost) no such pairs names each person once.
 */
export const duplicateProbability = 0.99;

/** The weight (prior left out) at which a pair is one person beyond doubt, for a data set of this prior. */
export function beyondDoubtWeight(priorWeight: number): number {
  return log2Odds(duplicateProbability) - priorWeight;
}

/**
 * Whether a list of `records` records with `beyondDoubt` pairs of its own at or above `duplicateProbability` names each
 * person once: fewer such pairs than one per thousand of its records (a list's namesakes give one now and then; a
 * list that names people twice gives many).
 */
export function namesEachOnce(beyondDoubt: number, records: number): boolean {
  return beyondDoubt * 1000 < records;
}

/**
 * The lists (source ids) that name each person once: fewer of their own pairs at or above `duplicateWeight` than one
 * per thousand of their records, and none that people put together. A register, a hospital's or a press list, a
 * camp's roll names each person once; a family's reports or a commission's merged submissions name some twice, and
 * show it by pairs of their own that are one person beyond doubt (on the test worlds, 0.3–1.7% of such a list's
 * records, against at most 0.02% — one namesake pair — in lists that name each person once; any share from 0.05% to
 * 0.3% gives the same figures). Two records of such a list in one cluster are two people, as two lines of one
 * registry with different detainee numbers are. Dev seed 7, F1 / ceiling: A 0.9413 → 0.9487 (20k people), 0.9216 →
 * 0.9297 (100k); B 0.9369 → 0.9414, 0.9280 → 0.9334; athar synth +0.0008, +0.0009; C −0.0001, +0.0001 (seed 3, 20k:
 * A +0.0075, B +0.0052, athar synth +0.0005, C the same).
 */
export function listsNamingOnce(
  f: RecordFeatures,
  pairA: Int32Array,
  pairB: Int32Array,
  weights: Float32Array | Float64Array,
  count: number,
  duplicateWeight: number,
  mustLink: readonly (readonly [number, number])[],
): ReadonlySet<number> {
  const records = new Map<number, number>();
  for (let i = 0; i < f.size; i++) {
    const s = f.source[i] as number;
    if (s >= 0) records.set(s, (records.get(s) ?? 0) + 1);
  }
  const twice = new Map<number, number>();
  const add = (s: number, by: number) => twice.set(s, (twice.get(s) ?? 0) + by);
  for (let p = 0; p < count; p++) {
    const s = f.source[pairA[p] as number] as number;
    if (s >= 0 && s === f.source[pairB[p] as number] && (weights[p] as number) >= duplicateWeight) add(s, 1);
  }
  for (const [x, y] of mustLink) {
    const s = f.source[x] as number;
    if (s >= 0 && s === f.source[y]) add(s, Number.POSITIVE_INFINITY);
  }
  const once = new Set<number>();
  for (const [s, n] of records) if (namesEachOnce(twice.get(s) ?? 0, n)) once.add(s);
  return once;
}

/**
 * Days a death may precede an arrest in one person's records: two years, so that a year misread on each side (the
 * model's own tolerance for one date, `within_a_year`), or a day and month swapped, never splits a person.
 */
export const chronologySlack = 731;

/** The last day the record's date of death can be (its month's or year's end); +∞ without one. */
function latestDeathDay(f: RecordFeatures, i: number): number {
  const p = f.deathPrecision[i] as number;
  if (p === precision.none) return Number.POSITIVE_INFINITY;
  const day = f.deathDay[i] as number;
  return p === precision.day ? day : p === precision.month ? day + 30 : day + 365;
}

/** The first day the record's date of arrest can be (its month's or year's start); −∞ without one. */
function earliestArrestDay(f: RecordFeatures, i: number): number {
  return (f.arrestPrecision[i] as number) === precision.none
    ? Number.NEGATIVE_INFINITY
    : (f.arrestDay[i] as number);
}

/**
 * Whether one side's records say the person died more than `slack` days before the other's say the person was
 * arrested (each side: its latest day of death, its earliest day of arrest): nobody is arrested after death, so these
 * are two people however alike their names. The merges allow `chronologySlack`; an ambiguous record's other cluster
 * none (`couldBe`).
 */
function outOfOrder(
  deathA: number,
  arrestA: number,
  deathB: number,
  arrestB: number,
  slack: number,
): boolean {
  return deathA + slack < arrestB || deathB + slack < arrestA;
}

/** Whether one of the two records says the person died before the other says he was arrested (no slack). */
function strictlyOutOfOrder(f: RecordFeatures, a: number, b: number): boolean {
  return outOfOrder(
    latestDeathDay(f, a),
    earliestArrestDay(f, a),
    latestDeathDay(f, b),
    earliestArrestDay(f, b),
    0,
  );
}

function guard(
  f: RecordFeatures,
  ma: number[],
  mb: number[],
  scorer: PairScore,
  options: ClusterOptions,
  maxGuard: number,
  once: ReadonlySet<number>,
): Verdict {
  for (const x of ma) {
    const dx = f.detainee[x] as number;
    if (dx < 0) continue;
    const sx = f.source[x] as number;
    for (const y of mb) {
      const dy = f.detainee[y] as number;
      if (dy >= 0 && dy !== dx && sx >= 0 && f.source[y] === sx) return 'registry';
    }
  }
  if (once.size > 0) {
    // Save a pair that is one person beyond doubt: a list's rare duplicate (one list deduplicated on its own).
    const beyondDoubt = options.duplicateWeight ?? Number.POSITIVE_INFINITY;
    for (const x of ma) {
      const sx = f.source[x] as number;
      if (sx < 0 || !once.has(sx)) continue;
      for (const y of mb) if (f.source[y] === sx && scorer.score(x, y) < beyondDoubt) return 'list';
    }
  }
  if (options.cannotLink && options.cannotLink.size > 0) {
    for (const x of ma) for (const y of mb) if (options.cannotLink.has(pairKey(x, y))) return 'rejected';
  }
  // A woman is often listed under her husband's family name (a commission's or camp's list) and under her father's
  // in a register or her family's report: for her, the family name alone never makes two people (the scorer's
  // woman's pair, womanPair, for two groups: a record says she is a woman, none says he is a man).
  const woman = womanAmong(f, ma, mb);
  return disagree(ma, mb, scorer, options, maxGuard, woman ? familyNameAt : -1) ? 'different' : 'ok';
}

/** Comparisons a pair can be scored on (scorer.lastFieldWeights). */
const maxComparisons = 16;

/**
 * Whether two groups of records are two people: some pair across them scores below the guard and holds evidence
 * against of at least `minDisagreement` bits, counting only its fields weighing against beyond `tolerance` **on
 * which fewer pairs across the groups agree than weigh against**. One person's records read a field in more than
 * one way — an OCR slip in a father's name (حمود for محمود), a birth year off — and a record of the other group that
 * agrees with one of those readings shows the field is noise, not a second person; two brothers differ in a field
 * on every pair. One agreeing pair among more against is a slip's doing too, on the other side: Mahmood, a list's
 * other man, read near a register's محمذ (an OCR slip of محمد) while he differs from its two other records, محمد
 * and Muhammad — until 2026-12-07 one agreeing pair made the field noise, and such chains joined two men. Dev seed
 * 7, F1 / ceiling: A +0.0007 (20k people), +0.0008 (100k); B +0.0006, +0.0007; athar synth +0.0002 at both; C the
 * same (seed 3, 20k: A +0.0004, B +0.0005, athar synth +0.0003). Strictly more agreeing than against (a slip against
 * one other record: one each) lost B 0.0025 and athar synth 0.0025.
 * Without per-field weights, any pair below the guard with evidence against counts. Pairs across the groups
 * beyond `maxGuard` are a deterministic stride sample.
 */
export function disagree(
  ma: readonly number[],
  mb: readonly number[],
  scorer: PairScore,
  options: Pick<ClusterOptions, 'guardWeight' | 'minDisagreement' | 'tolerance'>,
  maxGuard = 10_000,
  /** A comparison that does not count against the merge (its index; -1: none). Needs per-field weights. */
  ignore = -1,
): boolean {
  const total = ma.length * mb.length;
  const stride = total > maxGuard ? Math.ceil(total / maxGuard) : 1;
  const against = -(options.minDisagreement ?? 1);
  const tolerance = options.tolerance ?? 0;
  if (!scorer.lastFieldWeights) {
    for (let k = 0; k < total; k += stride) {
      const x = ma[Math.floor(k / mb.length)] as number;
      const y = mb[k % mb.length] as number;
      if (scorer.score(x, y) >= options.guardWeight) continue;
      if (!scorer.lastDisagreement || scorer.lastDisagreement(tolerance) <= against) return true;
    }
    return false;
  }
  // First pass, as without per-field weights: the pairs below the guard with evidence against. Most merges have
  // none, and cost no more than that. Only then is each field's best weight across the groups needed (a second pass).
  const width = mb.length;
  const disagreeing: number[] = [];
  for (let k = 0; k < total; k += stride) {
    const x = ma[Math.floor(k / width)] as number;
    const y = mb[k % width] as number;
    if (scorer.score(x, y) >= options.guardWeight) continue;
    if ((scorer.lastDisagreement?.(tolerance) ?? against) <= against) disagreeing.push(k);
  }
  if (disagreeing.length === 0) return false;
  // Per field, the pairs across that agree on it (or weigh within the tolerance) and those that weigh against it
  // beyond; NaN (a side missing, or a circumstance) is neither.
  const agreeing = guardAgreeing.fill(0);
  const opposing = guardOpposing.fill(0);
  const fields = guardFields;
  for (let k = 0; k < total; k += stride) {
    scorer.score(ma[Math.floor(k / width)] as number, mb[k % width] as number);
    scorer.lastFieldWeights(fields);
    for (let c = 0; c < maxComparisons; c++) {
      const v = fields[c] as number;
      if (v > -tolerance) agreeing[c] = (agreeing[c] as number) + 1;
      else if (v <= -tolerance) opposing[c] = (opposing[c] as number) + 1;
    }
  }
  for (const k of disagreeing) {
    scorer.score(ma[Math.floor(k / width)] as number, mb[k % width] as number);
    scorer.lastFieldWeights(fields);
    let sum = 0;
    for (let c = 0; c < maxComparisons; c++) {
      const v = fields[c] as number;
      // NaN fails both tests and is skipped.
      if (c !== ignore && v <= -tolerance && v < 0 && (agreeing[c] as number) < (opposing[c] as number))
        sum += v;
    }
    if (sum <= against) return true;
  }
  return false;
}

// Scratch for `disagree` (single-threaded, not reentrant).
const guardAgreeing = new Int32Array(maxComparisons);
const guardOpposing = new Int32Array(maxComparisons);
const guardFields = new Float64Array(maxComparisons).fill(Number.NaN);

/**
 * Records that fit two people about equally: a bare list row ("Muhammad Ar-Rabhah") that links to two clusters the
 * guard kept apart (two men of that name who disagree elsewhere), its strongest link into its own cluster less than
 * `ambiguityBits` stronger than its strongest link into the other. Putting it in either is a guess that is wrong
 * about half the time; left on its own, its pairs go to review. Records people put together stay.
 *
 * A link counts only into a cluster that could be the record's person (`couldBe`): not one whose records say he was
 * arrested after the record says he died, or the other way round, and not one that already holds a row of the
 * record's own list when its own cluster holds none besides it — a list names a person once, so that row is the
 * list's line for the other man. A hospital's "محمد علي الضخوت, died 2015" then stays with the one of two namesakes
 * arrested before that.
 *
 * The strongest link is one pair's evidence; a cluster is several records. So a record whose own cluster's records
 * agree with it, on average over all its candidate pairs with them, `ambiguitySupportBits` more than the rival's
 * stays: a bare row in a cluster whose other rows all agree with it, against a namesake one of whose rows links as
 * strongly while the others disagree (another father, another year of birth). Dev seed 7, F1 / ceiling at 20k
 * people: A 0.9361 → 0.9363, B 0.9316 → 0.9317, C +0.0003, athar synth +0.0003; at 100k: A +0.0001, B +0.0003, C
 * +0.0005, athar synth +0.0003. Moving the record into the rival cluster when the rival's mean was the higher lost on
 * every world.
 */
function detachAmbiguous(
  n: number,
  root: Int32Array,
  links: readonly number[],
  pairA: Int32Array,
  pairB: Int32Array,
  weights: Float32Array | Float64Array,
  count: number,
  options: ClusterOptions,
  couldBe: (x: number, root: number) => boolean,
): Set<number> {
  const out = new Set<number>();
  const bits = options.ambiguityBits ?? 0.5;
  if (bits <= 0 || links.length === 0) return out;
  const within = new Float64Array(n).fill(Number.NEGATIVE_INFINITY);
  const across = new Float64Array(n).fill(Number.NEGATIVE_INFINITY);
  // The cluster of each record's strongest link across.
  const rival = new Int32Array(n).fill(-1);
  for (const p of links) {
    const x = pairA[p] as number;
    const y = pairB[p] as number;
    const w = weights[p] as number;
    if (root[x] === root[y]) {
      if (w > (within[x] as number)) within[x] = w;
      if (w > (within[y] as number)) within[y] = w;
    } else {
      if (w > (across[x] as number) && couldBe(x, root[y] as number)) {
        across[x] = w;
        rival[x] = root[y] as number;
      }
      if (w > (across[y] as number) && couldBe(y, root[x] as number)) {
        across[y] = w;
        rival[y] = root[x] as number;
      }
    }
  }
  const kept = new Set<number>();
  for (const [x, y] of options.mustLink ?? []) {
    kept.add(x);
    kept.add(y);
  }
  for (let i = 0; i < n; i++) {
    const w = within[i] as number;
    const a = across[i] as number;
    if (w === Number.NEGATIVE_INFINITY || a === Number.NEGATIVE_INFINITY || kept.has(i)) continue;
    if (w - a < bits) out.add(i);
  }
  const support = options.ambiguitySupportBits ?? 3;
  if (out.size === 0 || !(support > 0)) return out;
  // Per ambiguous record (its slot; -1 for the rest, most records): the sum and count of its candidate pairs'
  // weights into its own cluster and into the rival. One pass over every candidate pair, so the test per pair is an
  // array read.
  const slot = new Int32Array(n).fill(-1);
  const ambiguous = [...out];
  ambiguous.forEach((x, k) => {
    slot[x] = k;
  });
  const sums = new Float64Array(ambiguous.length * 4);
  const tally = (x: number, y: number, w: number) => {
    const k = (slot[x] as number) * 4;
    const r = root[y] as number;
    const at = r === root[x] ? k : r === rival[x] ? k + 2 : -1;
    if (at < 0) return;
    sums[at] = (sums[at] as number) + w;
    sums[at + 1] = (sums[at + 1] as number) + 1;
  };
  for (let p = 0; p < count; p++) {
    const x = pairA[p] as number;
    const y = pairB[p] as number;
    if ((slot[x] as number) >= 0) tally(x, y, weights[p] as number);
    if ((slot[y] as number) >= 0) tally(y, x, weights[p] as number);
  }
  ambiguous.forEach((x, k) => {
    const own = (sums[4 * k] as number) / Math.max(1, sums[4 * k + 1] as number);
    const other = (sums[4 * k + 2] as number) / Math.max(1, sums[4 * k + 3] as number);
    if (own - other >= support) out.delete(x);
  });
  return out;
}
