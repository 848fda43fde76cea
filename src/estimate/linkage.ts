/**
 * The linkage's uncertainty, carried into the estimate. Multiple systems estimation counts people, and which
 * records are one person is itself an estimate: a missed link makes one person two (inflating the lists' apparent
 * independence and the estimate), a false link makes two people one. Following Sadinle (2018, "Bayesian
 * propagation of record linkage uncertainty into population size estimation of human rights violations", Annals
 * of Applied Statistics 12(2)), athar samples whole person sets from the linkage, estimates on each, and mixes the
 * results: the interval then holds both the sampling and the linkage uncertainty.
 *
 * A person set is drawn by keeping each candidate pair as a link with its probability (a reviewer's decision
 * overrides it: a confirmed match always links, a rejected one never does) and taking connected components.
 */
import { Rng } from './random.js';
import { type CaptureHistory, EstimateInputError } from './tables.js';

export interface LinkageRecord {
  id: string;
  /** Index of the list (source) the record comes from. */
  list: number;
  stratum?: string;
}

export interface CandidatePair {
  a: string;
  b: string;
  /** The linkage model's probability that a and b are one person. */
  probability: number;
  /** A reviewer's decision, where there is one; 'unsure' leaves the probability in charge. */
  decision?: 'match' | 'non-match' | 'unsure';
}

/**
 * Draws `samples` person sets and returns each as capture histories (one per person). A person's stratum is the
 * one most of their records give (ties: the first record's).
 */
export function samplePersonSets(
  records: readonly LinkageRecord[],
  pairs: readonly CandidatePair[],
  options: { samples: number; seed: number | string },
): CaptureHistory[][] {
  const index = new Map<string, number>();
  records.forEach((r, i) => {
    if (index.has(r.id)) throw new EstimateInputError(`record ${r.id} appears twice`);
    if (!Number.isInteger(r.list) || r.list < 0 || r.list > 30) {
      throw new EstimateInputError(`record ${r.id} has list ${r.list}: lists are numbered 0…30`);
    }
    index.set(r.id, i);
  });
  const edges: { a: number; b: number; p: number }[] = [];
  pairs.forEach((pair, i) => {
    const a = index.get(pair.a);
    const b = index.get(pair.b);
    if (a === undefined || b === undefined) {
      throw new EstimateInputError(
        `pair ${i + 1} names record ${a === undefined ? pair.a : pair.b}, which is not among the records`,
      );
    }
    if (!(pair.probability >= 0 && pair.probability <= 1)) {
      throw new EstimateInputError(
        `pair ${i + 1} (${pair.a}, ${pair.b}) has probability ${pair.probability}, outside 0…1`,
      );
    }
    const p = pair.decision === 'match' ? 1 : pair.decision === 'non-match' ? 0 : pair.probability;
    if (p > 0) edges.push({ a, b, p });
  });
  const rng = new Rng(options.seed);
  const parent = new Int32Array(records.length);
  const out: CaptureHistory[][] = [];
  for (let s = 0; s < options.samples; s++) {
    for (let i = 0; i < parent.length; i++) parent[i] = i;
    const find = (x: number): number => {
      let r = x;
      while (parent[r] !== r) r = parent[r]!;
      let y = x;
      while (parent[y] !== r) {
        const next = parent[y]!;
        parent[y] = r;
        y = next;
      }
      return r;
    };
    for (const e of edges) {
      if (e.p < 1 && rng.uniform() >= e.p) continue;
      const ra = find(e.a);
      const rb = find(e.b);
      if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
    }
    out.push(historiesOfComponents(records, find));
  }
  return out;
}

function historiesOfComponents(
  records: readonly LinkageRecord[],
  find: (x: number) => number,
): CaptureHistory[] {
  const people = new Map<number, { mask: number; strata: Map<string, number>; first?: string }>();
  records.forEach((r, i) => {
    const root = find(i);
    let person = people.get(root);
    if (!person) {
      person = { mask: 0, strata: new Map() };
      people.set(root, person);
    }
    person.mask |= 1 << r.list;
    if (r.stratum !== undefined) {
      person.strata.set(r.stratum, (person.strata.get(r.stratum) ?? 0) + 1);
      person.first ??= r.stratum;
    }
  });
  const histories: CaptureHistory[] = [];
  for (const person of people.values()) {
    let stratum = person.first;
    let most = stratum === undefined ? 0 : person.strata.get(stratum)!;
    for (const [name, count] of person.strata) {
      if (count > most) {
        most = count;
        stratum = name;
      }
    }
    histories.push(stratum === undefined ? { mask: person.mask } : { mask: person.mask, stratum });
  }
  return histories;
}
