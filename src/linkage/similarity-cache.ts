import { compareNames } from './name-kit.js';
import type { NameVocabulary } from './vocabulary.js';

/**
 * Name-pair similarities, remembered in a direct-mapped table: name vocabularies are small and heavily repeated
 * (محمد against أحمد comes up millions of times), so most comparisons are one multiply and one array read.
 */
export class NameSimilarity {
  private readonly keys: Float64Array;
  private readonly values: Float32Array;
  private readonly mask: number;

  constructor(
    private readonly names: NameVocabulary,
    bits = 18,
  ) {
    this.keys = new Float64Array(1 << bits).fill(-1);
    this.values = new Float32Array(1 << bits);
    this.mask = (1 << bits) - 1;
  }

  /** Similarity in [0,1] of two name ids (both ≥ 0). */
  get(a: number, b: number): number {
    if (a === b) return 1;
    const lo = Math.min(a, b);
    const hi = Math.max(a, b);
    const key = lo * 16777216 + hi;
    const slot = (Math.imul(lo, 0x9e3779b1) ^ Math.imul(hi, 0x85ebca77)) & this.mask;
    if (this.keys[slot] === key) return this.values[slot] as number;
    this.keys[slot] = key;
    this.values[slot] = this.compare(lo, hi);
    // The stored (single-precision) value, so that a pair's similarity does not depend on whether it was cached.
    return this.values[slot] as number;
  }

  /**
   * The best of the names as written and either read as another habit of lists writes it (name-kit's
   * habitReadings: Turkish c for ج, German dsch, sch, ch and j, s for ز).
   */
  private compare(a: number, b: number): number {
    const x = this.names.prepared(a);
    const y = this.names.prepared(b);
    let best = compareNames(x, y);
    if (best >= 1) return best;
    for (const r of this.names.habitPrepared(a)) best = Math.max(best, compareNames(r, y));
    for (const r of this.names.habitPrepared(b)) best = Math.max(best, compareNames(x, r));
    return best;
  }
}
