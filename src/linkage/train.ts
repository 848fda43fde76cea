import { blockingRules, candidatePairs, defaultBlockingOptions, trainingRules } from './blocking.js';
import {
  type Comparison,
  type Context,
  comparisons,
  contextOf,
  levelGroups,
  lineageCount,
} from './comparisons.js';
import type { RecordFeatures } from './features.js';
import {
  CompiledModel,
  floorVariants,
  type LinkageModel,
  type ModelLevel,
  modelVersion,
  probabilityOf,
  uIn,
} from './model.js';
import { Random, WeightedPicker } from './random.js';
import { Scorer } from './scorer.js';
import { orderByKey } from './sort.js';
import { TermFrequencies } from './term-frequencies.js';

/** A training pass: EM on the pairs of one blocking rule; the comparisons the rule fixes are not estimated. */
export interface TrainingPass {
  rule: string;
  fixed: readonly string[];
}

/** The passes that estimate m (the contexts' u are estimated between rounds of them). */
export const defaultPasses: readonly TrainingPass[] = [
  { rule: 'first+family', fixed: ['first_name', 'family_name'] },
  { rule: 'first+birth_date', fixed: ['first_name', 'birth_date'] },
  { rule: 'detainee_number+branch', fixed: ['detainee_number', 'arresting_branch'] },
];

export interface TrainingOptions {
  seed?: number | string;
  /** Random pairs for each u sample (default 2M, at most all pairs). */
  randomPairs?: number;
  passes?: readonly TrainingPass[];
  iterations?: number;
  /** Prefix of the new model's version. */
  versionPrefix?: string;
  /**
   * Weight of the base model's m as a prior in EM, in pseudo-pairs per pass (default 200): m is estimated as
   * (expected matched pairs at the level + strength × base m) / (matched pairs + strength), so levels few pairs show
   * keep the shipped model's value instead of what a handful of pairs make of them.
   */
  priorStrength?: number;
  /**
   * What to estimate: `all` (default) — u among strangers from random pairs, m by EM, the contexts' u, the family
   * line and the prior; `strangers` — only u among strangers, from random pairs (an unbiased sample of the data's
   * own names and fields), everything else kept from the base. EM's m, without labels, mistakes namesakes and
   * relatives for matches on data unlike the base's (docs/linkage.md, "Training").
   */
  estimate?: 'all' | 'strangers';
  synthetic?: boolean;
  now?: string;
}

export interface TrainingReport {
  randomPairs: number;
  passes: { rule: string; pairs: number; lambda: number; iterations: number }[];
  matchesPerRecord: number;
  familyLineNonMatchesPerRecord: number;
}

type Table = number[][];
/** u per context. */
type UTables = [Table, Table, Table];

const smoothing = 0.5;

function emptyTable(): Table {
  return comparisons.map((c) => new Array<number>(c.levels.length).fill(0));
}

/**
 * m with the cross-script name levels tied to the same-script ones (transliteration = exact + variant, and so on):
 * a same-person pair agrees across scripts as often as within one, and a pass whose blocks hold few cross-script
 * pairs then still gives them an m.
 */
function tieScripts(m: number[], c: number): number[] {
  if (!(comparisons[c] as Comparison).groups) return m;
  const out = m.slice();
  out[5] = (m[1] as number) + (m[2] as number);
  out[6] = m[3] as number;
  out[7] = m[4] as number;
  out[9] = m[8] as number;
  return out;
}

/** Shares within each level group (level 0, "missing", carries no weight). */
function normalise(counts: number[], c: number): number[] {
  const out = new Array<number>(counts.length).fill(0);
  for (const group of levelGroups(comparisons[c] as Comparison)) {
    let total = 0;
    for (const l of group) total += (counts[l] as number) + smoothing;
    for (const l of group) out[l] = ((counts[l] as number) + smoothing) / total;
  }
  return out;
}

/** Shares within each level group, with `strength` pseudo-counts spread as the prior's shares. */
function normaliseWithPrior(
  counts: number[],
  c: number,
  prior: number[] | undefined,
  strength: number,
): number[] {
  if (!prior || strength <= 0) return normalise(counts, c);
  const out = new Array<number>(counts.length).fill(0);
  for (const group of levelGroups(comparisons[c] as Comparison)) {
    let priorTotal = 0;
    for (const l of group) priorTotal += prior[l] as number;
    let total = 0;
    const cell = (l: number) =>
      (counts[l] as number) + smoothing + (strength * (prior[l] as number)) / Math.max(1e-9, priorTotal);
    for (const l of group) total += cell(l);
    for (const l of group) out[l] = cell(l) / total;
  }
  return out;
}

/** Distinct level patterns of some pairs, with counts: EM runs on patterns, not pairs. */
class Patterns {
  readonly levels: Uint8Array[] = [];
  readonly counts: number[] = [];
  readonly contexts: Context[] = [];
  pairs = 0;
  private readonly index = new Map<number, number>();
  private readonly radix = comparisons.map((c) => c.levels.length);

  add(levels: Uint8Array): void {
    let key = 0;
    for (let c = comparisons.length - 1; c >= 0; c--)
      key = key * (this.radix[c] as number) + (levels[c] as number);
    this.pairs++;
    const at = this.index.get(key);
    if (at !== undefined) {
      this.counts[at] = (this.counts[at] as number) + 1;
      return;
    }
    this.index.set(key, this.levels.length);
    this.levels.push(levels.slice());
    this.counts.push(1);
    this.contexts.push(contextOf(levels));
  }
}

function rulePatterns(
  scorer: Scorer,
  f: RecordFeatures,
  ruleName: string,
  keep: (c: Context) => boolean,
): Patterns {
  const rule = [...blockingRules, ...trainingRules].find((r) => r.name === ruleName);
  if (!rule) throw new Error(`unknown blocking rule ${ruleName}`);
  const { pairs } = candidatePairs(f, [rule], defaultBlockingOptions);
  const patterns = new Patterns();
  const levels = new Uint8Array(comparisons.length);
  for (let p = 0; p < pairs.length; p++) {
    scorer.levelsOf(pairs.a[p] as number, pairs.b[p] as number, levels);
    if (keep(contextOf(levels))) patterns.add(levels);
  }
  return patterns;
}

/** Pairs drawn uniformly among all pairs whose family names share a key, kept when their context is 1. */
function sameFamilyNamePatterns(scorer: Scorer, f: RecordFeatures, random: Random, wanted: number): Patterns {
  const n = f.size;
  const keys = new Uint32Array(n);
  const members = new Int32Array(n);
  let count = 0;
  for (let i = 0; i < n; i++) {
    const v = f.family[i] as number;
    if (v < 0 || !f.hasName(i)) continue;
    keys[count] = f.names.keyOf(v);
    members[count++] = i;
  }
  const order = orderByKey(keys, count);
  const blockStart = new Int32Array(count);
  const blockSize = new Int32Array(count);
  let start = 0;
  while (start < count) {
    let end = start + 1;
    while (end < count && keys[order[end] as number] === keys[order[start] as number]) end++;
    for (let k = start; k < end; k++) {
      blockStart[k] = start;
      blockSize[k] = end - start;
    }
    start = end;
  }
  const patterns = new Patterns();
  const weights = Array.from(blockSize, (s) => s - 1);
  if (weights.every((w) => w === 0)) return patterns;
  const picker = new WeightedPicker(weights);
  const levels = new Uint8Array(comparisons.length);
  let drawn = 0;
  let tries = 0;
  while (drawn < wanted && tries < wanted * 4) {
    tries++;
    const k = picker.index(random);
    const size = blockSize[k] as number;
    const other = (blockStart[k] as number) + random.int(size);
    if (other === k) continue;
    drawn++;
    scorer.levelsOf(members[order[k] as number] as number, members[order[other] as number] as number, levels);
    if (contextOf(levels) === 1) patterns.add(levels);
  }
  return patterns;
}

/**
 * Trains the model on the data at hand.
 * 1. u among strangers, from random pairs.
 * 2. u among people of one family name: pairs drawn within family names, EM with m and u both free.
 * 3. u among people of one family line (father + family blocks), EM with m and u both free; also how many such
 *    non-matches a record has.
 * 4. m by EM on the pairs of at least two more blocking rules, u fixed, each pass leaving the comparisons its rule
 *    fixes to the others; estimates are averaged with those of steps 2–3.
 * 5. The expected matches per record and the share of matches whose family line agrees, from all blocked pairs.
 * Term frequencies are not part of training (they adjust at scoring time).
 */
export function trainModel(
  f: RecordFeatures,
  base: LinkageModel,
  options: TrainingOptions = {},
): { model: LinkageModel; report: TrainingReport } {
  // Names read as linking reads them (a list that writes the family name first).
  f.settleNameOrder();
  const random = new Random(options.seed ?? 1);
  const tf = TermFrequencies.of(f);
  const scorer = new Scorer(f, new CompiledModel(base), tf, 20);
  const levels = new Uint8Array(comparisons.length);
  const n = f.size;
  const iterations = options.iterations ?? 60;
  const wanted = Math.min(options.randomPairs ?? 2_000_000, (n * (n - 1)) / 2);

  const uCounts = emptyTable();
  let sampled = 0;
  while (sampled < wanted && n > 1) {
    const a = random.int(n);
    const b = random.int(n);
    if (a === b) continue;
    scorer.levelsOf(a, b, levels);
    for (let c = 0; c < comparisons.length; c++) {
      const row = uCounts[c] as number[];
      row[levels[c] as number] = (row[levels[c] as number] as number) + 1;
    }
    sampled++;
  }
  const baseTable = (pick: (level: ModelLevel) => number): Table =>
    base.comparisons.map((c) => [0, ...c.levels.map(pick)]);
  const m0 = baseTable((l) => l.m);
  const u: UTables = [
    uCounts.map((row, c) => normalise(row, c)),
    baseTable((l) => uIn(l, 1)),
    baseTable((l) => uIn(l, 2)),
  ];
  const report: TrainingReport = {
    randomPairs: sampled,
    passes: [],
    matchesPerRecord: base.matchesPerRecord,
    familyLineNonMatchesPerRecord: base.familyLine.nonMatchesPerRecord,
  };
  const lineage = new Set(Array.from({ length: lineageCount }, (_, c) => c));
  const named = sameFamilyNamePatterns(scorer, f, random.fork('family-name'), wanted);
  const line = rulePatterns(scorer, f, 'father+family', (c) => c === 2);
  const passes = (options.passes ?? defaultPasses).map((pass) => ({
    pass,
    patterns: rulePatterns(scorer, f, pass.rule, () => true),
    fixed: new Set(pass.fixed.map((name) => comparisons.findIndex((c) => c.name === name))),
  }));
  let m = m0;
  let nonMatchesPerRecord = base.familyLine.nonMatchesPerRecord;
  const lineWeightOf = (perRecord: number) =>
    Math.log2(base.familyLine.m / Math.min(0.5, perRecord / Math.max(1, n - 1)));
  // m and the contexts' u depend on each other: two rounds of m (u fixed), then u per context (m fixed).
  const rounds = options.estimate === 'strangers' ? 0 : 2;
  for (let round = 0; round < rounds; round++) {
    report.passes = [];
    const sums = emptyTable();
    const estimates = new Array<number>(comparisons.length).fill(0);
    for (const { pass, patterns, fixed } of passes) {
      const result = emMatchOnly(
        patterns,
        m,
        u,
        lineWeightOf(nonMatchesPerRecord),
        fixed,
        iterations,
        m0,
        options.priorStrength ?? 200,
      );
      report.passes.push({
        rule: pass.rule,
        pairs: patterns.pairs,
        lambda: result.lambda,
        iterations: result.iterations,
      });
      for (let c = 0; c < comparisons.length; c++) {
        if (fixed.has(c)) continue;
        estimates[c] = (estimates[c] as number) + 1;
        const row = sums[c] as number[];
        (result.m[c] as number[]).forEach((v, l) => {
          row[l] = (row[l] as number) + v;
        });
      }
    }
    const previous = m;
    m = sums.map((row, c) =>
      tieScripts(
        (estimates[c] as number) > 0
          ? row.map((v) => v / (estimates[c] as number))
          : (previous[c] as number[]),
        c,
      ),
    );
    const sameName = emUnmatched(named, m, u[1], new Set([0]), iterations);
    report.passes.push({
      rule: 'family (same family name)',
      pairs: named.pairs,
      lambda: sameName.lambda,
      iterations: sameName.iterations,
    });
    u[1] = sameName.u.map((row, c) => (c === 0 ? (u[0][0] as number[]) : row));
    const within = emUnmatched(line, m, u[2], lineage, iterations);
    report.passes.push({
      rule: 'father+family (same family line)',
      pairs: line.pairs,
      lambda: within.lambda,
      iterations: within.iterations,
    });
    u[2] = within.u;
    nonMatchesPerRecord = Math.max(1e-4, (2 * (1 - within.lambda) * line.pairs) / Math.max(1, n));
  }
  report.familyLineNonMatchesPerRecord = nonMatchesPerRecord;
  neutraliseUnseen(m, u, [uCounts], [named, line, ...passes.map((p) => p.patterns)]);

  const trained: Omit<LinkageModel, 'version'> = {
    format: base.format,
    formatVersion: base.formatVersion,
    description: base.description,
    matchesPerRecord: base.matchesPerRecord,
    familyLine: { m: base.familyLine.m, nonMatchesPerRecord },
    threshold: base.threshold,
    clustering: base.clustering,
    termFrequency: base.termFrequency,
    comparisons: comparisons.map((comparison, c) => ({
      name: comparison.name,
      levels: comparison.levels.slice(1).map((label, k) => {
        const at = k + 1;
        const level: ModelLevel = {
          label,
          m: clampProbability((m[c] as number[])[at] as number),
          u: clampProbability((u[0][c] as number[])[at] as number),
        };
        if (c > 0) level.uSameFamilyName = clampProbability((u[1][c] as number[])[at] as number);
        if (!comparison.lineage) level.uWithinFamily = clampProbability((u[2][c] as number[])[at] as number);
        return level;
      }),
    })),
  };
  trained.comparisons = floorVariants(trained.comparisons);
  if (rounds > 0) {
    const expected = expectedMatches(f, new CompiledModel({ ...trained, version: 'training' }), tf);
    trained.matchesPerRecord = expected.perRecord;
    trained.familyLine.m = expected.lineM;
    report.matchesPerRecord = expected.perRecord;
  }
  trained.trainedOn = {
    records: n,
    at: options.now ?? new Date().toISOString(),
    synthetic: options.synthetic ?? false,
    randomPairs: sampled,
    passes: report.passes.map((p) => ({ rule: p.rule, pairs: p.pairs, lambda: p.lambda })),
  };
  return {
    model: { ...trained, version: modelVersion(trained, options.versionPrefix ?? 'trained') },
    report,
  };
}

/**
 * A level no training pair shows (a date known only to the year when the data's dates are all full) gets m = u,
 * weight 0: smoothing alone would give it m ≈ 0.5 / matched pairs against u ≈ 0.5 / random pairs, a large weight
 * drawn from nothing. Names are left alone: their cross-script levels take the same-script m on purpose (tieScripts).
 */
function neutraliseUnseen(m: Table, u: UTables, counts: Table[], patterns: Patterns[]): void {
  const seen = comparisons.map((c) => new Array<boolean>(c.levels.length).fill(false));
  for (const table of counts) {
    table.forEach((row, c) => {
      row.forEach((v, l) => {
        if (v > 0) (seen[c] as boolean[])[l] = true;
      });
    });
  }
  for (const p of patterns) {
    for (const levels of p.levels) {
      for (let c = 0; c < comparisons.length; c++) (seen[c] as boolean[])[levels[c] as number] = true;
    }
  }
  // The smoothing mass the unseen levels held goes back to the seen ones, in proportion.
  const reassign = (row: number[], unseen: number[], share: (l: number) => number) => {
    let before = 0;
    let after = 0;
    for (const l of unseen) {
      before += row[l] as number;
      after += share(l);
    }
    const scale = (1 - after) / (1 - before);
    row.forEach((v, l) => {
      if (l > 0) row[l] = unseen.includes(l) ? share(l) : v * scale;
    });
  };
  seen.forEach((row, c) => {
    if ((comparisons[c] as Comparison).groups) return;
    const unseen = row.flatMap((was, l) => (l === 0 || was ? [] : [l]));
    if (unseen.length === 0) return;
    const shares = (u[0][c] as number[]).slice();
    const share = (l: number) => shares[l] as number;
    // Rows may be shared between tables (a context that keeps strangers' u): each is reassigned once.
    for (const r of new Set([m[c], ...u.map((table) => table[c])])) reassign(r as number[], unseen, share);
  });
}

function clampProbability(p: number): number {
  return Math.min(1 - 1e-6, Math.max(1e-6, p));
}

function changeBetween(a: Table, b: Table): number {
  let change = 0;
  a.forEach((row, c) => {
    row.forEach((v, l) => {
      change = Math.max(change, Math.abs(v - ((b[c] as number[])[l] as number)));
    });
  });
  return change;
}

/**
 * EM for the u of one context with m fixed: among pairs that share what the context names (a family name, a family
 * line), which are one person and how the others — relatives, namesakes — differ. The comparisons that define the
 * context stay out. With m fixed the split is forced to be "same person or not", not "same clan or not".
 */
function emUnmatched(
  patterns: Patterns,
  m: Table,
  u0: Table,
  excluded: Set<number>,
  iterations: number,
): { u: Table; lambda: number; iterations: number } {
  let u = u0.map((row) => row.slice());
  let lambda = 0.2;
  let done = 0;
  for (let it = 0; it < iterations; it++) {
    done = it + 1;
    const uMass = emptyTable();
    let matchMass = 0;
    let allMass = 0;
    for (let p = 0; p < patterns.levels.length; p++) {
      const levels = patterns.levels[p] as Uint8Array;
      let logRatio = Math.log2(lambda / (1 - lambda));
      for (let c = 0; c < levels.length; c++) {
        const l = levels[c] as number;
        if (l === 0 || excluded.has(c)) continue;
        logRatio += Math.log2(((m[c] as number[])[l] as number) / ((u[c] as number[])[l] as number));
      }
      const posterior = probabilityOf(logRatio);
      const count = patterns.counts[p] as number;
      matchMass += count * posterior;
      allMass += count;
      for (let c = 0; c < levels.length; c++) {
        const l = levels[c] as number;
        if (l !== 0)
          (uMass[c] as number[])[l] = ((uMass[c] as number[])[l] as number) + count * (1 - posterior);
      }
    }
    const nextU = uMass.map((row, c) => (excluded.has(c) ? (u[c] as number[]) : normalise(row, c)));
    const nextLambda = Math.min(0.999, Math.max(1e-6, matchMass / Math.max(1, allMass)));
    const change = Math.max(Math.abs(nextLambda - lambda), changeBetween(nextU, u));
    u = nextU;
    lambda = nextLambda;
    if (change < 1e-5) break;
  }
  return { u, lambda, iterations: done };
}

/**
 * EM for m with u fixed (each pair weighed against its context's u), over a rule's pairs; the rule's fixed
 * comparisons stay out of the likelihood and are not estimated.
 */
function emMatchOnly(
  patterns: Patterns,
  m0: Table,
  u: UTables,
  lineWeight: number,
  fixed: Set<number>,
  iterations: number,
  prior?: Table,
  strength = 0,
): { m: Table; lambda: number; iterations: number } {
  let m = m0.map((row) => row.slice());
  let lambda = 0.3;
  let done = 0;
  for (let it = 0; it < iterations; it++) {
    done = it + 1;
    const mass = emptyTable();
    let matchMass = 0;
    let allMass = 0;
    for (let p = 0; p < patterns.levels.length; p++) {
      const levels = patterns.levels[p] as Uint8Array;
      const context = patterns.contexts[p] as Context;
      const ut = u[context];
      let logRatio = Math.log2(lambda / (1 - lambda)) + (context === 2 ? lineWeight : 0);
      for (let c = 0; c < levels.length; c++) {
        const l = levels[c] as number;
        if (l === 0 || fixed.has(c)) continue;
        if (context === 2 && c < lineageCount) continue;
        const uc = ((context === 1 && c === 0 ? u[0] : ut)[c] as number[])[l] as number;
        logRatio += Math.log2(((m[c] as number[])[l] as number) / uc);
      }
      const posterior = probabilityOf(logRatio);
      const count = patterns.counts[p] as number;
      matchMass += count * posterior;
      allMass += count;
      for (let c = 0; c < levels.length; c++) {
        const l = levels[c] as number;
        if (l !== 0) (mass[c] as number[])[l] = ((mass[c] as number[])[l] as number) + count * posterior;
      }
    }
    const next = mass.map((row, c) =>
      fixed.has(c) ? (m[c] as number[]) : normaliseWithPrior(row, c, prior?.[c], strength),
    );
    const nextLambda = Math.min(0.999, Math.max(1e-6, matchMass / Math.max(1, allMass)));
    const change = Math.max(Math.abs(nextLambda - lambda), changeBetween(next, m));
    m = next;
    lambda = nextLambda;
    if (change < 1e-5) break;
  }
  return { m, lambda, iterations: done };
}

/**
 * Expected other records of the same person per record (the prior's size-free form) and the share of matches whose
 * family line agrees, found together as a fixed point over all blocked pairs (matches outside every block are not
 * counted, so the first errs low).
 */
function expectedMatches(
  f: RecordFeatures,
  model: CompiledModel,
  tf: TermFrequencies,
): { perRecord: number; lineM: number } {
  const n = f.size;
  let perRecord = model.model.matchesPerRecord;
  let lineM = model.model.familyLine.m;
  if (n < 2) return { perRecord, lineM };
  const { pairs } = candidatePairs(f);
  const scorer = new Scorer(f, model, tf, 20);
  const weights = new Float64Array(pairs.length);
  const inLine = new Uint8Array(pairs.length);
  const log2m0 = Math.log2(lineM);
  for (let p = 0; p < pairs.length; p++) {
    const w = scorer.score(pairs.a[p] as number, pairs.b[p] as number);
    const within = scorer.context() === 2;
    inLine[p] = within ? 1 : 0;
    weights[p] = within ? w - log2m0 : w;
  }
  for (let it = 0; it < 100; it++) {
    const lambda = Math.min(0.5, perRecord / (n - 1));
    const priorWeight = Math.log2(lambda / (1 - lambda));
    const log2m = Math.log2(lineM);
    let expected = 0;
    let expectedInLine = 0;
    for (let p = 0; p < weights.length; p++) {
      const within = inLine[p] === 1;
      const post = probabilityOf(priorWeight + (weights[p] as number) + (within ? log2m : 0));
      expected += post;
      if (within) expectedInLine += post;
    }
    const next = Math.max(1e-6, (2 * expected) / n);
    const nextLine = clampProbability(expected > 0 ? expectedInLine / expected : lineM);
    const done = Math.abs(next - perRecord) < 1e-6 && Math.abs(nextLine - lineM) < 1e-6;
    perRecord = next;
    lineM = nextLine;
    if (done) break;
  }
  return { perRecord, lineM };
}
