import type { RecordFeatures } from './features.js';

/** The name columns whose values carry a term-frequency adjustment. */
export const termColumns = ['first', 'father', 'grandfather', 'family', 'motherFirst'] as const;
export type TermColumn = (typeof termColumns)[number];

export interface TermFrequencySnapshot {
  counts: Record<TermColumn, Int32Array>;
  totals: Record<TermColumn, number>;
}

/**
 * How often each name (by its cross-script key) occurs in each name column of the data being linked: an exact
 * agreement on a rare family name says more than one on محمد. Counted from the data at hand, never stored in the
 * model; updated as records arrive.
 */
export class TermFrequencies {
  private counts: Record<TermColumn, Int32Array>;
  private readonly totals: Record<TermColumn, number>;

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
  }

  static of(f: RecordFeatures): TermFrequencies {
    const tf = new TermFrequencies();
    for (let i = 0; i < f.size; i++) tf.add(f, i);
    return tf;
  }

  add(f: RecordFeatures, i: number): void {
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
      counts[key] = (counts[key] as number) + 1;
      this.totals[column]++;
    }
  }

  /** log2 of the share of records whose value in `column` has this key (at least one occurrence assumed). */
  log2Share(column: TermColumn, key: number): number {
    const count = this.counts[column][key] ?? 0;
    const total = this.totals[column];
    return Math.log2(Math.max(1, count) / Math.max(1, total));
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
    return { counts, totals: { ...this.totals } };
  }
}
