import { CountTable } from './count-table.js';
import type { RecordFeatures } from './features.js';

/** The name columns whose values carry a term-frequency adjustment. */
export const termColumns = ['first', 'father', 'grandfather', 'family', 'motherFirst'] as const;
export type TermColumn = (typeof termColumns)[number];

/** Name combinations whose joint frequency is counted. */
export const combinations = ['first+family', 'father+family', 'first+father+family'] as const;
export type Combination = (typeof combinations)[number];

export interface TermFrequencySnapshot {
  counts: Record<TermColumn, Int32Array>;
  totals: Record<TermColumn, number>;
  joint: Record<Combination, { keys: Float64Array; counts: Int32Array; used: number; total: number }>;
}

/** A number naming a combination of up to three name keys (two 26-bit halves: collisions only merge counts). */
export function combinationKey(x: number, y: number, z = -1): number {
  let h = Math.imul(x ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ y ^ (h >>> 13), 0xc2b2ae35);
  h = Math.imul(h ^ z ^ (h >>> 16), 0x27d4eb2f);
  h ^= h >>> 15;
  return (h & 0x3ffffff) * 67108864 + ((Math.imul(x, 0x165667b1) + Math.imul(y, 31) + z) & 0x3ffffff);
}

/**
 * How often each name (by its cross-script key) occurs in each name column of the data being linked, and how often
 * each first + family name combination does: an agreement on a rare name says more than one on محمد. Counted from
 * the data at hand, never stored in the model; updated as records arrive.
 *
 * The share used as u is that of the *other* records carrying the name that are not the same person:
 * (count − 1 − expected same-person records) / total, floored. For common names this is the plain frequency; for a
 * name only the pair itself carries it is small, as it should be.
 */
export class TermFrequencies {
  private counts: Record<TermColumn, Int32Array>;
  private readonly totals: Record<TermColumn, number>;
  private readonly joint: Record<Combination, CountTable>;
  private readonly jointTotals: Record<Combination, number>;
  /** Expected other records of the same person that carry the same name (set from the model). */
  expectedSame = 1;

  constructor(snapshot?: TermFrequencySnapshot) {
    this.counts = snapshot
      ? { ...snapshot.counts }
      : {
          first: new Int32Array(1024),
          father: new Int32Array(1024),
          grandfather: new Int32Array(1024),
          family: new Int32Array(1024),
          motherFirst: new Int32Array(1024),
        };
    this.totals = snapshot
      ? { ...snapshot.totals }
      : { first: 0, father: 0, grandfather: 0, family: 0, motherFirst: 0 };
    this.joint = {
      'first+family': snapshot ? CountTable.from(snapshot.joint['first+family']) : new CountTable(),
      'father+family': snapshot ? CountTable.from(snapshot.joint['father+family']) : new CountTable(),
      'first+father+family': snapshot
        ? CountTable.from(snapshot.joint['first+father+family'])
        : new CountTable(),
    };
    this.jointTotals = {
      'first+family': snapshot?.joint['first+family'].total ?? 0,
      'father+family': snapshot?.joint['father+family'].total ?? 0,
      'first+father+family': snapshot?.joint['first+father+family'].total ?? 0,
    };
  }

  private bump(combination: Combination, key: number, by: 1 | -1): void {
    this.joint[combination].add(key, by);
    this.jointTotals[combination] += by;
  }

  static of(f: RecordFeatures): TermFrequencies {
    const tf = new TermFrequencies();
    for (let i = 0; i < f.size; i++) tf.add(f, i);
    return tf;
  }

  add(f: RecordFeatures, i: number): void {
    this.count1(f, i, 1);
  }

  /** Takes a record's names back out (a match query, once answered). */
  remove(f: RecordFeatures, i: number): void {
    this.count1(f, i, -1);
  }

  private count1(f: RecordFeatures, i: number, by: 1 | -1): void {
    for (const column of termColumns) {
      const value = f[column][i] as number;
      if (value < 0) continue;
      const key = f.names.keyOf(value);
      let counts = this.counts[column];
      if (key >= counts.length) {
        const grown = new Int32Array(Math.max(key + 1, counts.length * 2));
        grown.set(counts);
        counts = grown;
        this.counts[column] = grown;
      }
      counts[key] = (counts[key] as number) + by;
      this.totals[column] += by;
    }
    const family = f.family[i] as number;
    if (family < 0) return;
    const familyKey = f.names.keyOf(family);
    const first = f.first[i] as number;
    const father = f.father[i] as number;
    const firstKey = first >= 0 ? f.names.keyOf(first) : -1;
    const fatherKey = father >= 0 ? f.names.keyOf(father) : -1;
    if (firstKey >= 0) this.bump('first+family', combinationKey(firstKey, familyKey), by);
    if (fatherKey >= 0) this.bump('father+family', combinationKey(fatherKey, familyKey), by);
    if (firstKey >= 0 && fatherKey >= 0) {
      this.bump('first+father+family', combinationKey(firstKey, fatherKey, familyKey), by);
    }
  }

  /** log2 of the share of records carrying this key in `column` that are another person (see the class). */
  log2Share(column: TermColumn, key: number): number {
    return this.log2Others(this.counts[column][key] ?? 0, this.totals[column]);
  }

  /** The same for a combination of name keys (see combinationKey). */
  log2JointShare(combination: Combination, key: number): number {
    return this.log2Others(this.joint[combination].get(key), this.jointTotals[combination]);
  }

  private log2Others(count: number, total: number): number {
    const others = Math.max(0.1, count - 1 - Math.min(count - 1, this.expectedSame));
    return Math.log2(others / Math.max(1, total));
  }

  count(column: TermColumn, key: number): number {
    return this.counts[column][key] ?? 0;
  }

  snapshot(): TermFrequencySnapshot {
    const counts = {} as Record<TermColumn, Int32Array>;
    for (const column of termColumns) {
      const source = this.counts[column];
      const shared = new Int32Array(new SharedArrayBuffer(source.length * 4));
      shared.set(source);
      counts[column] = shared;
    }
    const joint = {} as TermFrequencySnapshot['joint'];
    for (const combination of combinations) {
      joint[combination] = { ...this.joint[combination].shared(), total: this.jointTotals[combination] };
    }
    return { counts, totals: { ...this.totals }, joint };
  }
}
