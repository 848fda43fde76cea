/**
 * Judging linkage on a test world: link its records with a model (the library's linkFeatures, the same blocking,
 * scoring and guarded clustering as `athar link`) and report
 *
 * - pairwise precision, recall and F1, and the world's ceiling (world.ts: F1 at precision 1 of a linker that links
 *   exactly the pairs whose records each fit one person), and F1 / ceiling;
 * - pair completeness: the linkable true pairs (both records identifiable) that blocking made candidates;
 * - candidates per record;
 * - guard refusals: links (pairs at or above the threshold) the clustering guard refused, and how many of them were
 *   one person;
 * - expected calibration error over the labelled candidate pairs (10 equal-width bins of predicted probability;
 *   Σ bin share × |mean predicted − observed share of true pairs|), with its reliability table, over all candidate
 *   pairs and over the pairs the model is unsure of (predicted 0.02–0.98), where the tracing loop's thresholds sit;
 * - interactive match: for sampled records with a name, of people with several records with a name, the share whose top 10
 *   (MatchIndex) holds another record of the same person;
 * - the exact-name baseline: records clustered by their whole normalised name.
 */

import type { PersonRecordFields } from '../../src/domain/person-record.js';
import { pairwiseQuality } from '../../src/linkage/evaluate.js';
import { RecordFeatures } from '../../src/linkage/features.js';
import { linkFeatures } from '../../src/linkage/link.js';
import { MatchIndex } from '../../src/linkage/match-index.js';
import { type CompiledModel, probabilityOf } from '../../src/linkage/model.js';
import { normalizeName } from '../../src/linkage/name-kit.js';

export interface LabelledWorld {
  name: string;
  records: { fields: PersonRecordFields & { record_id: string }; person: number }[];
  /** Per record, whether it fits exactly one person (the ceiling's test); undefined: every record counts. */
  identifiable?: Uint8Array;
  /** F1 at precision 1 (world.ts). */
  ceiling: number;
}

export interface ReliabilityBin {
  from: number;
  to: number;
  pairs: number;
  meanPredicted: number;
  observed: number;
}

export interface WorldFigures {
  world: string;
  records: number;
  truePairs: number;
  ceiling: number;
  precision: number;
  recall: number;
  f1: number;
  f1OverCeiling: number;
  pairCompleteness: number;
  /**
   * The same among records with a name: a nameless record (a forensic line with only its numbers) is blocked by its
   * detainee number and branch alone, so its pairs with records that do not carry the number are never candidates.
   */
  pairCompletenessNamed: number;
  candidatePairs: number;
  candidatesPerRecord: number;
  links: number;
  guardRefusals: number;
  guardRefusalsOfTrueLinks: number;
  ece: number;
  eceUnsure: number;
  reliability: ReliabilityBin[];
  /** Among candidate pairs at or above the probability, the share that are true (per threshold asked). */
  precisionAt: Record<string, { pairs: number; precision: number; recall: number }>;
  matchTop10?: number;
  matchQueries?: number;
  baselineF1: number;
  seconds: number;
}

function labels(values: readonly (string | number)[]): Int32Array {
  const ids = new Map<string | number, number>();
  return Int32Array.from(values, (v) => {
    let id = ids.get(v);
    if (id === undefined) {
      id = ids.size;
      ids.set(v, id);
    }
    return id;
  });
}

function exactName(f: PersonRecordFields): string {
  const parts =
    f.full_name ?? [f.first_name, f.father_name, f.grandfather_name, f.family_name].filter(Boolean).join(' ');
  return normalizeName(parts);
}

export function reliabilityOf(
  probabilities: ArrayLike<number>,
  truth: ArrayLike<number>,
  from = 0,
  to = 1,
  bins = 10,
): { ece: number; table: ReliabilityBin[] } {
  const count = new Float64Array(bins);
  const sumP = new Float64Array(bins);
  const sumT = new Float64Array(bins);
  let total = 0;
  for (let k = 0; k < probabilities.length; k++) {
    const p = probabilities[k] as number;
    if (!(p >= from && p <= to)) continue; // NaN (a pair met twice) is left out
    const b = Math.min(bins - 1, Math.floor(p * bins));
    count[b] = (count[b] as number) + 1;
    sumP[b] = (sumP[b] as number) + p;
    sumT[b] = (sumT[b] as number) + (truth[k] as number);
    total++;
  }
  let ece = 0;
  const table: ReliabilityBin[] = [];
  for (let b = 0; b < bins; b++) {
    const c = count[b] as number;
    if (c === 0) continue;
    const mp = (sumP[b] as number) / c;
    const ob = (sumT[b] as number) / c;
    ece += (c / Math.max(1, total)) * Math.abs(mp - ob);
    table.push({ from: b / bins, to: (b + 1) / bins, pairs: c, meanPredicted: mp, observed: ob });
  }
  return { ece, table };
}

export interface EvaluateOptions {
  /** Probabilities at which to state the precision of candidate pairs (e.g. the tracing loop's autoLinkAt). */
  precisionAt?: readonly number[];
  /** Match queries to sample (0: skip the match figure). */
  matchQueries?: number;
}

export async function evaluateWorld(
  world: LabelledWorld,
  model: CompiledModel,
  options: EvaluateOptions = {},
): Promise<WorldFigures> {
  const started = performance.now();
  const n = world.records.length;
  const f = new RecordFeatures(n);
  for (const r of world.records) f.add(r.fields.record_id, r.fields);
  const person = Int32Array.from(world.records, (r) => r.person);
  // The guard's refusals, as the run makes them (pair indexes; which are true links is read once the pairs are back).
  const refusals: number[] = [];
  const link = await linkFeatures(f, model, { onRefused: (p) => refusals.push(p) });
  const quality = pairwiseQuality(link.clusterOf, person);

  const { a, b } = link.candidates.pairs;
  const count = link.candidates.pairs.length;
  const id = world.identifiable;
  let linkableFound = 0;
  let linkableNamedFound = 0;
  const probabilities = new Float64Array(count);
  const isTrue = new Uint8Array(count);
  // Blocking may emit a pair twice (a spelling rule, or an oversized block's overlapping parts, meeting a pair an
  // earlier rule compared outside a full block): each pair counts once here.
  // Sharded: one Set holds at most 2^24 keys, and a world of 1M records has more candidate pairs than that.
  const shards = Array.from({ length: 64 }, () => new Set<number>());
  let unique = 0;
  for (let p = 0; p < count; p++) {
    const x = a[p] as number;
    const y = b[p] as number;
    const key = x < y ? x * 4294967296 + y : y * 4294967296 + x;
    const seen = shards[(x + y) & 63] as Set<number>;
    if (seen.has(key)) {
      probabilities[p] = Number.NaN;
      continue;
    }
    seen.add(key);
    unique++;
    const same = person[x] === person[y];
    isTrue[p] = same ? 1 : 0;
    probabilities[p] = probabilityOf(link.priorWeight + (link.weights[p] as number));
    if (same && (!id || (id[x] && id[y]))) {
      linkableFound++;
      if (f.hasName(x) && f.hasName(y)) linkableNamedFound++;
    }
  }
  // Linkable true pairs: within one person, pairs of identifiable records.
  const perPerson = new Map<number, number>();
  const perPersonNamed = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    if (id && !id[i]) continue;
    const q = person[i] as number;
    perPerson.set(q, (perPerson.get(q) ?? 0) + 1);
    if (f.hasName(i)) perPersonNamed.set(q, (perPersonNamed.get(q) ?? 0) + 1);
  }
  let refusedTrue = 0;
  for (const p of refusals) if (person[a[p] as number] === person[b[p] as number]) refusedTrue++;
  const refused = refusals.length;
  let linkable = 0;
  for (const c of perPerson.values()) linkable += (c * (c - 1)) / 2;
  let linkableNamed = 0;
  for (const c of perPersonNamed.values()) linkableNamed += (c * (c - 1)) / 2;

  const all = reliabilityOf(probabilities, isTrue);
  const unsure = reliabilityOf(probabilities, isTrue, 0.02, 0.98);
  const precisionAt: WorldFigures['precisionAt'] = {};
  for (const t of options.precisionAt ?? []) {
    let pairs = 0;
    let hits = 0;
    for (let p = 0; p < count; p++) {
      if (Number.isNaN(probabilities[p] as number) || (probabilities[p] as number) < t) continue;
      pairs++;
      hits += isTrue[p] as number;
    }
    precisionAt[String(t)] = {
      pairs,
      precision: pairs === 0 ? 1 : hits / pairs,
      recall: quality.truePairs === 0 ? 1 : hits / quality.truePairs,
    };
  }

  let matchTop10: number | undefined;
  let matchQueries: number | undefined;
  if ((options.matchQueries ?? 0) > 0) {
    const index = MatchIndex.fromFeatures(model, f);
    const sizes = new Map<number, number>();
    // Records with a name, per person: a query is a record with a name (a family's report always has one), and the
    // record it should find has one too — a nameless forensic line is matched to the registry by its numbers, as an
    // identification, never by a search of names.
    for (let i = 0; i < n; i++)
      if (f.hasName(i)) sizes.set(person[i] as number, (sizes.get(person[i] as number) ?? 0) + 1);
    const eligible: number[] = [];
    for (let i = 0; i < n; i++)
      if ((sizes.get(person[i] as number) ?? 0) > 1 && (!id || id[i]) && f.hasName(i)) eligible.push(i);
    const want = Math.min(options.matchQueries ?? 0, eligible.length);
    const stride = eligible.length / Math.max(1, want);
    let hits = 0;
    for (let k = 0; k < want; k++) {
      const q = eligible[Math.floor(k * stride)] as number;
      const top = index.topFor(f.ids[q] as string, 10);
      if (top.some((c) => person[c.index] === person[q])) hits++;
    }
    matchTop10 = want === 0 ? 1 : hits / want;
    matchQueries = want;
  }

  const baseline = pairwiseQuality(
    labels(world.records.map((r) => exactName(r.fields) || `\u0000${r.fields.record_id}`)),
    person,
  );
  return {
    world: world.name,
    records: n,
    truePairs: quality.truePairs,
    ceiling: world.ceiling,
    precision: quality.precision,
    recall: quality.recall,
    f1: quality.f1,
    f1OverCeiling: quality.f1 / world.ceiling,
    pairCompleteness: linkable === 0 ? 1 : linkableFound / linkable,
    pairCompletenessNamed: linkableNamed === 0 ? 1 : linkableNamedFound / linkableNamed,
    candidatePairs: unique,
    candidatesPerRecord: unique / Math.max(1, n),
    links: link.clustering.links,
    guardRefusals: refused,
    guardRefusalsOfTrueLinks: refusedTrue,
    ece: all.ece,
    eceUnsure: unsure.ece,
    reliability: all.table,
    precisionAt,
    ...(matchTop10 !== undefined ? { matchTop10, matchQueries } : {}),
    baselineF1: baseline.f1,
    seconds: (performance.now() - started) / 1000,
  };
}
