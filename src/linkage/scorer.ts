import { type Comparison, type Context, comparisons, contextOf, lineageCount } from './comparisons.js';
import type { RecordFeatures } from './features.js';
import type { CompiledModel } from './model.js';
import { NameSimilarity } from './similarity-cache.js';
import type { TermColumn, TermFrequencies } from './term-frequencies.js';

interface TfSlot {
  comparison: number;
  column: TermColumn;
  lineage: boolean;
  levels: Uint8Array;
}

/**
 * Scores record pairs: the log2 Bayes factor of "same person" against "different people", summed over the
 * comparisons' levels, with term-frequency adjustments on agreeing names. The u side depends on the pair's context
 * (comparisons.contextOf): strangers, people of one family name, or of one family line. No allocation per pair; one
 * Scorer per thread (it owns a similarity cache).
 */
export class Scorer {
  readonly sim: NameSimilarity;
  private readonly levels = new Uint8Array(comparisons.length);
  private readonly tfSlots: TfSlot[];
  private readonly fns: Comparison['level'][];
  private lineWeight = 0;
  private recordCount = 0;
  private lastContext: Context = 0;

  constructor(
    readonly features: RecordFeatures,
    readonly model: CompiledModel,
    readonly tf: TermFrequencies,
    cacheBits = 18,
  ) {
    this.sim = new NameSimilarity(features.names, cacheBits);
    this.fns = comparisons.map((c) => c.level);
    this.tfSlots = [];
    comparisons.forEach((c, i) => {
      if (!c.termFrequency) return;
      const levels = new Uint8Array(c.levels.length);
      for (const l of c.termFrequency.levels) levels[l] = 1;
      this.tfSlots.push({
        comparison: i,
        column: c.termFrequency.column as TermColumn,
        lineage: !!c.lineage,
        levels,
      });
    });
    this.records = features.size;
  }

  /** The size of the data set the pairs come from (it sets the family line's weight). */
  get records(): number {
    return this.recordCount;
  }

  set records(n: number) {
    this.recordCount = n;
    this.lineWeight = this.model.familyLineWeight(n);
  }

  /** The pair's log2 Bayes factor. */
  score(a: number, b: number): number {
    const f = this.features;
    const levels = this.levels;
    const offsets = this.model.offsets;
    const fns = this.fns;
    for (let c = 0; c < lineageCount; c++) levels[c] = (fns[c] as Comparison['level'])(f, a, b, this.sim);
    const context = contextOf(levels);
    this.lastContext = context;
    const table = this.model.weights[context];
    let total = context === 2 ? this.lineWeight : 0;
    for (let c = 0; c < lineageCount; c++)
      total += table[(offsets[c] as number) + (levels[c] as number)] as number;
    for (let c = lineageCount; c < fns.length; c++) {
      const level = (fns[c] as Comparison['level'])(f, a, b, this.sim);
      levels[c] = level;
      total += table[(offsets[c] as number) + level] as number;
    }
    for (let s = 0; s < this.tfSlots.length; s++) {
      const slot = this.tfSlots[s] as TfSlot;
      if (context === 2 && slot.lineage) continue;
      const level = levels[slot.comparison] as number;
      if (slot.levels[level] === 1) total += this.adjustment(slot, level, a, b, context);
    }
    return total;
  }

  /** The levels of the last pair scored (valid until the next call). */
  lastLevels(): Uint8Array {
    return this.levels;
  }

  /** The context of the last pair scored. */
  context(): Context {
    return this.lastContext;
  }

  /** The family line's joint weight in this data set. */
  familyLineWeight(): number {
    return this.lineWeight;
  }

  /** Levels of a pair into `out`, without scoring (training). */
  levelsOf(a: number, b: number, out: Uint8Array): void {
    for (let c = 0; c < this.fns.length; c++)
      out[c] = (this.fns[c] as Comparison['level'])(this.features, a, b, this.sim);
  }

  /**
   * The term-frequency adjustment of an agreeing name level: log2(u_level / tf), with tf the share of records
   * carrying that name (the commoner of the two keys when they differ), bounded by the model's maxAdjustment.
   */
  private adjustment(slot: TfSlot, level: number, a: number, b: number, context: Context): number {
    const column = this.features[slot.column];
    const names = this.features.names;
    const ka = names.keyOf(column[a] as number);
    const kb = names.keyOf(column[b] as number);
    const shareA = this.tf.log2Share(slot.column, ka);
    const share = ka === kb ? shareA : Math.max(shareA, this.tf.log2Share(slot.column, kb));
    const u = this.model.log2u[context][(this.model.offsets[slot.comparison] as number) + level] as number;
    const adj = u - share;
    const cap = this.model.maxAdjustment;
    return Math.min(cap, Math.max(-cap, adj));
  }

  /** Each term-frequency adjustment of the last scored pair, by comparison index (explanations). */
  adjustmentsOfLast(a: number, b: number): Map<number, number> {
    const out = new Map<number, number>();
    for (const slot of this.tfSlots) {
      if (this.lastContext === 2 && slot.lineage) continue;
      const level = this.levels[slot.comparison] as number;
      if (slot.levels[level] === 1)
        out.set(slot.comparison, this.adjustment(slot, level, a, b, this.lastContext));
    }
    return out;
  }
}
