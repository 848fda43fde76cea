import { type Context, compareAll, comparisons, contextOf, familyNameAt, nameAgrees } from './comparisons.js';
import { type RecordFeatures, womanPair } from './features.js';
import type { CompiledModel } from './model.js';
import { NameSimilarity } from './similarity-cache.js';
import { combinationKey, type TermColumn, type TermFrequencies } from './term-frequencies.js';

/** 1 for the comparisons that are circumstances (Comparison.circumstance), by index. */
const circumstance = Uint8Array.from(comparisons, (c) => (c.circumstance ? 1 : 0));

/**
 * The level whose u a name's term-frequency adjustment is taken against: a variant spelling (level 2) against
 * exact agreement (1), as Splink does. How common a name is says how often strangers share it; the variant level's
 * own weight already says what a spelling difference costs — taking the variant's u again would count it twice.
 */
function tfBase(level: number): number {
  return level === 2 ? 1 : level;
}

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
  private lineWeight = 0;
  private recordCount = 0;
  private lastContext: Context = 0;
  private lastJoint = false;
  private lastLine = 0;
  private lastWoman = 0;
  private readonly familyAt = familyNameAt;
  private readonly firstAt = comparisons.findIndex((c) => c.name === 'first_name');
  private readonly motherAt = comparisons.findIndex((c) => c.name === 'mother_name');

  constructor(
    readonly features: RecordFeatures,
    readonly model: CompiledModel,
    readonly tf: TermFrequencies,
    cacheBits = 18,
  ) {
    this.sim = new NameSimilarity(features.names, cacheBits);
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
    tf.expectedSame = model.model.matchesPerRecord * 0.9;
  }

  /** The size of the data set the pairs come from (it sets the family line's weight). */
  get records(): number {
    return this.recordCount;
  }

  set records(n: number) {
    this.recordCount = n;
    this.lineWeight = this.model.familyLineWeight(n);
    this.log2LineU = Math.log2(this.model.model.familyLine.m) - this.lineWeight;
  }

  private log2LineU = 0;

  /** The pair's log2 Bayes factor. */
  score(a: number, b: number): number {
    const levels = this.levels;
    const offsets = this.model.offsets;
    compareAll(this.features, a, b, this.sim, levels);
    const context = contextOf(levels);
    this.lastContext = context;
    const table = this.model.weights[context];
    let total = 0;
    for (let c = 0; c < levels.length; c++)
      total += table[(offsets[c] as number) + (levels[c] as number)] as number;
    const joint = context === 0 ? Number.NaN : this.jointAdjustment(a, b, context);
    this.lastJoint = !Number.isNaN(joint);
    if (this.lastJoint) total += joint;
    if (context === 2) total += this.lastLine;
    // A woman's records under two family names (model.womanFamilyWeight).
    const shift = this.model.womanFamilyShift[levels[this.familyAt] as number] as number;
    this.lastWoman = shift !== 0 && womanPair(this.features, a, b) ? shift : 0;
    total += this.lastWoman;
    for (let s = 0; s < this.tfSlots.length; s++) {
      const slot = this.tfSlots[s] as TfSlot;
      if (context === 2 && slot.lineage) continue;
      if (this.lastJoint && (slot.comparison === this.firstAt || slot.comparison === this.familyAt)) continue;
      const level = levels[slot.comparison] as number;
      if (slot.levels[level] === 1) total += this.adjustment(slot, level, a, b, context);
    }
    return total;
  }

  /**
   * Name combinations are not independent, and a combination only the pair itself carries is strong evidence, so
   * where names agree on the same keys their frequency is taken jointly:
   * - family-name context, first name agrees: one adjustment log2(u_first · u_family / tf(first + family)) replaces
   *   the two fields' own;
   * - family-line context: the line's weight is log2(m_line / tf(father + family)) — or, when the first name also
   *   agrees, the line and first name together log2(m_line · m_first / tf(first + father + family)) — rather than
   *   the average line's. Sets `lastLine` (the line step). NaN when no joint adjustment applies.
   */
  private jointAdjustment(a: number, b: number, context: Context): number {
    const f = this.features;
    const names = f.names;
    const levels = this.levels;
    const offsets = this.model.offsets;
    const cap = this.model.maxAdjustment;
    const familyKey = names.keyOf(f.family[a] as number);
    const familyKeysAgree = familyKey === names.keyOf(f.family[b] as number);
    const firstLevel = levels[this.firstAt] as number;
    const firstA = f.first[a] as number;
    const firstKey = firstA >= 0 ? names.keyOf(firstA) : -1;
    const firstKeysAgree =
      nameAgrees(firstLevel) && firstKey === names.keyOf(f.first[b] as number) && familyKeysAgree;
    if (context === 1) {
      if (!firstKeysAgree) return Number.NaN;
      const u =
        (this.model.log2u[1][(offsets[this.firstAt] as number) + tfBase(firstLevel)] as number) +
        (this.model.log2u[0][
          (offsets[this.familyAt] as number) + tfBase(levels[this.familyAt] as number)
        ] as number);
      const adj = u - this.tf.log2JointShare('first+family', combinationKey(firstKey, familyKey));
      return Math.min(cap, Math.max(-cap, adj));
    }
    this.lastLine = this.lineWeight;
    const fatherKey = names.keyOf(f.father[a] as number);
    if (!familyKeysAgree || fatherKey !== names.keyOf(f.father[b] as number)) return Number.NaN;
    if (firstKeysAgree) {
      const u =
        this.log2LineU +
        (this.model.log2u[2][(offsets[this.firstAt] as number) + tfBase(firstLevel)] as number);
      const share = this.tf.log2JointShare(
        'first+father+family',
        combinationKey(firstKey, fatherKey, familyKey),
      );
      return Math.min(cap, Math.max(-cap, u - share));
    }
    const share = this.tf.log2JointShare('father+family', combinationKey(fatherKey, familyKey));
    this.lastLine = this.lineWeight + Math.min(cap, Math.max(-cap, this.log2LineU - share));
    return Number.NaN;
  }

  /**
   * The evidence against the last pair scored: the sum of its negative field weights (≤ 0), leaving out those
   * milder than `tolerance` bits (the model's clustering.tolerance) and circumstances (Comparison.circumstance).
   */
  lastDisagreement(tolerance = 0): number {
    const table = this.model.weights[this.lastContext];
    const offsets = this.model.offsets;
    let against = 0;
    for (let c = 0; c < this.levels.length; c++) {
      if (circumstance[c] === 1) continue;
      let w = table[(offsets[c] as number) + (this.levels[c] as number)] as number;
      if (c === this.familyAt) w += this.lastWoman;
      if (w < 0 && w <= -tolerance) against += w;
    }
    return against;
  }

  /**
   * Each comparison's weight for the last pair scored, into `out` (NaN where a side is missing, level 0, and for a
   * circumstance). Term frequencies and the family line's joint step are left out: these are the fields' own
   * verdicts on whether the two are one person.
   */
  lastFieldWeights(out: Float64Array): void {
    const table = this.model.weights[this.lastContext];
    const offsets = this.model.offsets;
    for (let c = 0; c < this.levels.length; c++) {
      const level = this.levels[c] as number;
      out[c] =
        level === 0 || circumstance[c] === 1 ? Number.NaN : (table[(offsets[c] as number) + level] as number);
    }
    out[this.familyAt] = (out[this.familyAt] as number) + this.lastWoman;
  }

  /**
   * What the last pair's family name weighed beyond its level's weight: a woman's records under two family names
   * (model.womanFamilyWeight), 0 for anyone else.
   */
  lastWomanFamilyShift(): number {
    return this.lastWoman;
  }

  /** The family line's step of the last pair scored (its weight, with its frequency adjustment). */
  lastLineWeight(): number {
    return this.lastLine;
  }

  /** Whether the last pair scored took the joint first + family adjustment (shown on first_name). */
  lastJointAdjustment(): boolean {
    return this.lastJoint;
  }

  /** The levels of the last pair scored (valid until the next call). */
  lastLevels(): Uint8Array {
    return this.levels;
  }

  /** The context of the last pair scored. */
  context(): Context {
    return this.lastContext;
  }

  /** The average family line's weight in this data set (before its frequency adjustment). */
  averageLineWeight(): number {
    return this.lineWeight;
  }

  /** Levels of a pair into `out`, without scoring (training). */
  levelsOf(a: number, b: number, out: Uint8Array): void {
    compareAll(this.features, a, b, this.sim, out);
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
    const base = slot.comparison === this.motherAt ? level : tfBase(level);
    const u = this.model.log2u[context][(this.model.offsets[slot.comparison] as number) + base] as number;
    const adj = u - share;
    const cap = this.model.maxAdjustment;
    return Math.min(cap, Math.max(-cap, adj));
  }

  /** Each term-frequency adjustment of the last scored pair, by comparison index (explanations). */
  adjustmentsOfLast(a: number, b: number): Map<number, number> {
    const out = new Map<number, number>();
    if (this.lastJoint) out.set(this.firstAt, this.jointAdjustment(a, b, this.lastContext));
    for (const slot of this.tfSlots) {
      if (this.lastContext === 2 && slot.lineage) continue;
      if (this.lastJoint && (slot.comparison === this.firstAt || slot.comparison === this.familyAt)) continue;
      const level = this.levels[slot.comparison] as number;
      if (slot.levels[level] === 1)
        out.set(slot.comparison, this.adjustment(slot, level, a, b, this.lastContext));
    }
    return out;
  }
}
