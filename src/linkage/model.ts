import { createHash } from 'node:crypto';
import { z } from 'zod';
import { type Comparison, type Context, comparisons, familyNameAt, nameDiffers } from './comparisons.js';

export const modelFormat = 'athar-linkage-model';
export const modelFormatVersion = 1;

const probability = z.number().gt(0).lt(1);

const levelSchema = z.object({
  label: z.string(),
  /** P(level | same person). */
  m: probability,
  /** P(level | two different people, strangers). */
  u: probability,
  /** P(level | two different people of one family name: relatives, namesakes). All but family_name. */
  uSameFamilyName: probability.optional(),
  /** P(level | two different people of one family line: siblings, namesakes). Not for family-line fields. */
  uWithinFamily: probability.optional(),
});

export const modelSchema = z.object({
  format: z.literal(modelFormat),
  formatVersion: z.literal(modelFormatVersion),
  version: z.string().min(1),
  description: z.string().optional(),
  trainedOn: z
    .object({
      records: z.number().int().nonnegative(),
      at: z.string(),
      synthetic: z.boolean(),
      randomPairs: z.number().int().nonnegative(),
      passes: z.array(
        z.object({ rule: z.string(), pairs: z.number().int().nonnegative(), lambda: z.number() }),
      ),
    })
    .optional(),
  /** Expected number of other records of the same person per record: sets the prior for a data set's size. */
  matchesPerRecord: z.number().positive(),
  familyLine: z.object({
    /** P(family line agrees | same person). */
    m: probability,
    /**
     * Other records per record that share its family line but are another person: siblings, cousins named alike,
     * namesakes. Sets P(family line agrees | different people) for a data set's size.
     */
    nonMatchesPerRecord: z.number().positive(),
  }),
  /** Pairs at or above this match probability are links. */
  threshold: probability,
  /** The tracing loop links a pair at or above this probability by itself (docs/tracing.md). */
  autoLinkAt: probability.optional(),
  /** The tracing loop queues a pair from this probability up to autoLinkAt for a reviewer. */
  reviewFrom: probability.optional(),
  clustering: z.object({
    /**
     * A merge is refused when a pair across the two clusters disagrees (see minDisagreement) and has a match
     * probability below this.
     */
    minCrossProbability: z.number().min(0).lt(1),
    /**
     * Bits of evidence against (the sum of a pair's negative field weights) that make a pair across two clusters
     * a disagreeing one. A pair that merely lacks evidence (a list row with first and family name only) does not
     * stop a merge. Default 1.
     */
    minDisagreement: z.number().nonnegative().default(1),
    /**
     * Field weights against milder than this many bits are within tolerance and not counted as disagreement: the
     * levels true pairs show often (arrest dates months apart, another town or governorate written — often a town
     * inside it —, a grandfather's name spelt otherwise). What is left is a field that says "two people" (another
     * birth year, father, first name, branch). Default 0: every negative weight counts.
     */
    tolerance: z.number().nonnegative().default(0),
  }),
  termFrequency: z.object({ maxAdjustment: z.number().nonnegative() }),
  comparisons: z.array(z.object({ name: z.string(), levels: z.array(levelSchema) })),
});

/** The model file (JSON): m and u per comparison level and context, prior, threshold and clustering guard. */
export type LinkageModel = z.infer<typeof modelSchema>;
export type ModelLevel = LinkageModel['comparisons'][number]['levels'][number];

export class ModelError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ModelError';
  }
}

/**
 * A model file written before some of a comparison's later levels (`Comparison.later`: a model trained and saved by
 * an earlier athar) gets them as copies of the levels they were part of: it scores every pair as it did. Only a file
 * whose levels are exactly the comparison's without its later ones; anything else is left for the check that names
 * the levels it needs.
 */
function addLaterLevels(comparison: Comparison, levels: ModelLevel[] | undefined): void {
  const later = comparison.later ?? [];
  if (!levels || later.length === 0) return;
  const older = comparison.levels.slice(1).filter((label) => !later.some(([added]) => added === label));
  if (levels.map((l) => l.label).join(',') !== older.join(',')) return;
  for (const [added, from] of later) {
    const level = levels.find((l) => l.label === from);
    if (level) levels.push({ ...level, label: added });
  }
}

/** Validates a parsed model file against the comparisons this code knows; one line per problem. */
export function parseModel(value: unknown, where = 'model'): LinkageModel {
  const parsed = modelSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ModelError(`${where}: ${issue?.path.join('.') || '(root)'}: ${issue?.message}`);
  }
  const model = parsed.data;
  const names = model.comparisons.map((c) => c.name);
  const expected = comparisons.map((c) => c.name);
  if (names.join(',') !== expected.join(',')) {
    throw new ModelError(
      `${where}: comparisons must be ${expected.join(', ')} in that order (found ${names.join(', ')})`,
    );
  }
  comparisons.forEach((comparison, c) => {
    addLaterLevels(comparison, model.comparisons[c]?.levels);
    const levels = model.comparisons[c]?.levels ?? [];
    const labels = levels.map((l) => l.label);
    const want = comparison.levels.slice(1);
    if (labels.join(',') !== want.join(',')) {
      throw new ModelError(
        `${where}: ${comparison.name} levels must be ${want.join(', ')} (found ${labels.join(', ') || 'none'})`,
      );
    }
    if (c > 0 && levels.some((l) => l.uSameFamilyName === undefined)) {
      throw new ModelError(`${where}: ${comparison.name}: every level needs uSameFamilyName`);
    }
    if (!comparison.lineage && levels.some((l) => l.uWithinFamily === undefined)) {
      throw new ModelError(`${where}: ${comparison.name}: every level needs uWithinFamily`);
    }
  });
  return model;
}

/**
 * A woman is often listed under her husband's family name by one list (a commission's, a camp's) and under her
 * father's by another (a register, her family's report). So for a pair where one record is a woman's, family names
 * that differ are far more common among her own records than the model's m says: m becomes q + (1 − q)·m, q being
 * the share of her pairs with one list of each kind. q is a prior, 1/16, not fitted: on the test worlds (dev seed)
 * any q from 1/32 to 1/8 gave the same F1 within 0.001; without it (q = 0) her records under two family names never
 * link, and with the field left out entirely (q = 1) two women of one first name and birth year did.
 */
export const womanTwoFamilyNames = 1 / 16;

export function womanFamilyWeight(m: number, u: number): number {
  return Math.log2((womanTwoFamilyNames + (1 - womanTwoFamilyNames) * m) / u);
}

/** A content-derived version for a freshly trained model: the parameters' hash, so equal models share it. */
export function modelVersion(model: Omit<LinkageModel, 'version'>, prefix: string): string {
  const digest = createHash('sha256')
    .update(
      JSON.stringify({
        c: model.comparisons,
        p: model.matchesPerRecord,
        l: model.familyLine,
        t: model.threshold,
        g: model.clustering,
        f: model.termFrequency,
      }),
    )
    .digest('hex');
  return `${prefix}-${digest.slice(0, 12)}`;
}

export function log2Odds(p: number): number {
  return Math.log2(p / (1 - p));
}

export function probabilityOf(weight: number): number {
  const odds = 2 ** weight;
  return Number.isFinite(odds) ? odds / (1 + odds) : 1;
}

/**
 * A name's variant spelling within one script (Mahmoud / Mahmud, Musays / Moussays, العيسي / عيسى) is the same name
 * written by another hand, as a transliteration is the same name written in the other script: its m is raised (from
 * the exact level's, so the group still sums to 1) until it weighs, against strangers, at least the weaker of the
 * two agreements, spelt alike and across scripts. EM on athar synth, whose lists each keep one spelling habit, put a
 * variant family name 2.7 bits under both (8.1 against 10.8 and 11.2); lists written by French, English, German and
 * Turkish hands spell a third of one person's names differently (test world A). Dev seed 7, F1 / ceiling at 20k
 * people: A 0.9490 → 0.9512, B 0.9413 → 0.9417, C 0.9426 → 0.9432, athar synth the same; 100k people: A 0.9299 →
 * 0.9349, C 0.9363 → 0.9371. Raised to the transliteration's weight alone (the grandfather's variant to 9.3 bits
 * where exact agreement weighs 3.8) did no better, and a higher m still (a variant weighing more than exact
 * agreement) cost A precision (bench/RESULTS.md). Returns new comparisons; the model's other levels are kept.
 */
export function floorVariants(modelComparisons: LinkageModel['comparisons']): LinkageModel['comparisons'] {
  return modelComparisons.map((c) => {
    const levels = c.levels.map((l) => ({ ...l }));
    const at = (label: string) => levels.find((l) => l.label === label);
    const exact = at('exact');
    const variant = at('variant');
    const across = at('transliteration');
    if (!exact || !variant || !across) return { ...c, levels };
    const floor = Math.min(exact.m / exact.u, across.m / across.u);
    // Never more than half of what exact agreement holds: a model whose names all but never agree stays as it is.
    const wanted = Math.min(variant.u * floor, variant.m + exact.m / 2);
    if (wanted > variant.m) {
      exact.m -= wanted - variant.m;
      variant.m = wanted;
    }
    return { ...c, levels };
  });
}

/** The u of a level in a context (family_name keeps strangers' u in context 1; see comparisons.contextOf). */
export function uIn(level: ModelLevel, context: Context): number {
  if (context === 2) return level.uWithinFamily ?? level.u;
  if (context === 1) return level.uSameFamilyName ?? level.u;
  return level.u;
}

/** The model as lookup tables for the scorer, one per context. */
export class CompiledModel {
  readonly offsets: Int32Array;
  /**
   * log2(m/u) per context, comparison and level, flattened; level 0 (missing) is 0. In the family-line context
   * the family-line fields weigh 0: they count jointly in the family line's own step.
   */
  readonly weights: [Float64Array, Float64Array, Float64Array];
  /** log2(u) per context, comparison and level (term-frequency adjustments). */
  readonly log2u: [Float64Array, Float64Array, Float64Array];
  readonly maxAdjustment: number;
  /**
   * What a differing family name weighs for a woman, less what it weighs for anyone (by the family name's level; 0
   * where the names do not differ): see `womanFamilyWeight`.
   */
  readonly womanFamilyShift: Float64Array;

  constructor(readonly model: LinkageModel) {
    this.offsets = new Int32Array(comparisons.length);
    let total = 0;
    comparisons.forEach((c, i) => {
      this.offsets[i] = total;
      total += c.levels.length;
    });
    const table = () => new Float64Array(total);
    this.weights = [table(), table(), table()];
    this.log2u = [table(), table(), table()];
    comparisons.forEach((c, i) => {
      const levels = model.comparisons[i]?.levels ?? [];
      levels.forEach((level, l) => {
        const at = (this.offsets[i] as number) + l + 1;
        for (const context of [0, 1, 2] as const) {
          const u = uIn(level, context);
          this.log2u[context][at] = Math.log2(u);
          this.weights[context][at] = context === 2 && c.lineage ? 0 : Math.log2(level.m / u);
        }
      });
    });
    this.maxAdjustment = model.termFrequency.maxAdjustment;
    const family = comparisons[familyNameAt] as (typeof comparisons)[number];
    this.womanFamilyShift = new Float64Array(family.levels.length);
    (model.comparisons[familyNameAt]?.levels ?? []).forEach((level, l) => {
      if (!nameDiffers(l + 1)) return;
      this.womanFamilyShift[l + 1] = womanFamilyWeight(level.m, level.u) - Math.log2(level.m / level.u);
    });
  }

  get version(): string {
    return this.model.version;
  }

  weight(comparison: number, level: number, context: Context = 0): number {
    return this.weights[context][(this.offsets[comparison] as number) + level] as number;
  }

  /** log2 prior odds that two records of a data set of `records` records are one person. */
  priorWeight(records: number): number {
    const lambda = Math.min(0.5, this.model.matchesPerRecord / Math.max(1, records - 1));
    return log2Odds(lambda);
  }

  /** log2(m/u) of an agreeing family line in a data set of `records` records. */
  familyLineWeight(records: number): number {
    const u = Math.min(0.5, this.model.familyLine.nonMatchesPerRecord / Math.max(1, records - 1));
    return Math.log2(this.model.familyLine.m / u);
  }

  /** The Bayes factor (log2) a pair needs to reach the threshold in a data set of this size. */
  thresholdWeight(records: number): number {
    return log2Odds(this.model.threshold) - this.priorWeight(records);
  }

  /**
   * The Bayes factor (log2) below which a pair that disagrees is taken for two people (the clustering guard).
   */
  guardWeight(records: number): number {
    return log2Odds(this.model.clustering.minCrossProbability) - this.priorWeight(records);
  }
}
