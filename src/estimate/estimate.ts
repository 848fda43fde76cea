/**
 * `estimateFromHistories`: the one entry point the CLI and the registry service call. Capture histories (who is on
 * which list, optionally by stratum) in; per stratum the number observed, the estimated total with its interval,
 * the model and why, and every warning — or, where the data cannot support one, a refusal and no number.
 */
import { defaultLcmcrOptions, estimateLcmcr, type LcmcrOptions, type LcmcrResult } from './lcmcr.js';
import {
  defaultLoglinearOptions,
  estimateLoglinear,
  type LoglinearOptions,
  type LoglinearResult,
} from './loglinear.js';
import { normalCdf, quantileSorted } from './math.js';
import { Rng } from './random.js';
import {
  type CaptureHistory,
  EstimateInputError,
  type EstimateWarning,
  type Refusal,
  refusalOf,
  type StratumTable,
  summarise,
  type TableSummary,
  tableWarnings,
  tally,
} from './tables.js';

export type Method = 'loglinear' | 'lcmcr' | 'both';

export interface EstimateInput {
  /** The lists (sources), in the order of the bits of each history's mask. */
  lists: readonly string[];
  /** One person set: the linkage taken as certain. */
  histories?: Iterable<CaptureHistory>;
  /** Or several person sets drawn from the linkage's uncertainty (see linkage.ts): the results are mixed. */
  linkageSamples?: readonly Iterable<CaptureHistory>[];
}

export interface EstimateOptions {
  method: Method;
  level: number;
  seed: number | string;
  loglinear: Partial<LoglinearOptions>;
  lcmcr: Partial<LcmcrOptions>;
  /** Keep LCMCR's posterior draws in the report (large; off by default). */
  keepDraws: boolean;
}

export const defaultEstimateOptions: EstimateOptions = {
  method: 'both',
  level: 0.95,
  seed: 1,
  loglinear: {},
  lcmcr: {},
  keepDraws: false,
};

export interface MethodEstimate {
  method: 'loglinear' | 'lcmcr';
  /** The estimated total (observed + missed by every list). */
  estimate: number;
  interval: { lower: number; upper: number | null; level: number };
  /** The model in words. */
  model: string;
  why: string;
  warnings: EstimateWarning[];
  /** The method's own figures (for one person set; for several, the first). */
  details: Omit<LoglinearResult, 'warnings'> | Omit<LcmcrResult, 'warnings' | 'draws'>;
  /** With several linkage samples: how they were combined and how much they widened the interval. */
  linkage?: LinkageSummary;
  /** LCMCR's draws, when `keepDraws`. */
  draws?: number[];
}

export interface MethodRefusal {
  method: 'loglinear' | 'lcmcr';
  refusal: Refusal;
}

export type MethodOutcome = MethodEstimate | MethodRefusal;

export interface LinkageSummary {
  samples: number;
  /** Per-sample estimates' range. */
  estimates: { min: number; median: number; max: number };
  /** The combined interval's width over the mean per-sample width (≥ 1 when linkage adds uncertainty). */
  widening: number | null;
  combination: string;
}

export interface StratumEstimate {
  stratum: string;
  /** People observed (with several linkage samples, the median over them). */
  observed: number;
  observedRange?: { min: number; max: number };
  listSizes: Record<string, number>;
  onSeveralLists: number;
  /** Set when the stratum gets no number at all. */
  refusal?: Refusal;
  loglinear?: MethodOutcome;
  lcmcr?: MethodOutcome;
  warnings: EstimateWarning[];
}

export interface EstimateReport {
  lists: string[];
  method: Method;
  level: number;
  seed: number | string;
  linkageSamples: number;
  /** Set when nothing can be estimated at all (fewer than three lists, a list with no records). */
  refusal?: Refusal;
  strata: StratumEstimate[];
  /** The strata summed, when there are several (see docs/estimation.md for how intervals combine). */
  total?: { observed: number; loglinear?: TotalOutcome; lcmcr?: TotalOutcome };
}

export interface TotalEstimate {
  method: 'loglinear' | 'lcmcr';
  estimate: number;
  interval: { lower: number; upper: number | null; level: number };
  why: string;
}

export type TotalOutcome = TotalEstimate | MethodRefusal;

/** Estimates every stratum of the input. Throws EstimateInputError on malformed histories. */
export function estimateFromHistories(
  input: EstimateInput,
  options: Partial<EstimateOptions> = {},
): EstimateReport {
  const o: EstimateOptions = { ...defaultEstimateOptions, ...options };
  const lists = [...input.lists];
  if (new Set(lists).size !== lists.length) throw new EstimateInputError('list names must be distinct');
  if ((input.histories === undefined) === (input.linkageSamples === undefined)) {
    throw new EstimateInputError('give either histories or linkageSamples');
  }
  const sets = input.histories ? [input.histories] : [...input.linkageSamples!];
  if (sets.length === 0) throw new EstimateInputError('linkageSamples is empty');
  const report: EstimateReport = {
    lists,
    method: o.method,
    level: o.level,
    seed: o.seed,
    linkageSamples: input.linkageSamples ? sets.length : 0,
    strata: [],
  };
  if (lists.length < 3) {
    const refusal = refusalOf({ observed: 0 } as TableSummary, lists)!;
    return { ...report, refusal };
  }
  const perSample = sets.map((h) => tally(lists.length, h));
  const strata: string[] = [];
  for (const tables of perSample)
    for (const t of tables) if (!strata.includes(t.stratum)) strata.push(t.stratum);

  // A list with no one on it anywhere is an input problem, not a stratum's: nothing is estimated.
  const everywhere = new Array<number>(lists.length).fill(0);
  for (const t of perSample[0]!) {
    summarise(t).listSizes.forEach((s, j) => {
      everywhere[j]! += s;
    });
  }
  const empty = lists.filter((_, j) => everywhere[j] === 0);
  if (empty.length > 0) {
    return {
      ...report,
      refusal: {
        code: 'empty-list',
        message: `${empty.map((n) => `list ${n}`).join(' and ')} ${empty.length === 1 ? 'has' : 'have'} no records: check the input, or estimate without ${empty.length === 1 ? 'it' : 'them'}`,
      },
    };
  }

  const wants = (m: 'loglinear' | 'lcmcr') => o.method === m || o.method === 'both';
  for (const stratum of strata) {
    const tables = perSample.map(
      (ts) =>
        ts.find((t) => t.stratum === stratum) ?? {
          stratum,
          lists: lists.length,
          counts: new Float64Array(1 << lists.length),
        },
    );
    // Each stratum's stream comes from the seed and its own name, so it does not depend on the other strata.
    report.strata.push(
      estimateStratum(stratum, tables, lists, o, wants, new Rng(`${o.seed}\u0000${stratum}`)),
    );
  }
  if (report.strata.length > 1) report.total = totalOf(report.strata, o, wants);
  if (!o.keepDraws) {
    for (const s of report.strata) if (s.lcmcr && 'draws' in s.lcmcr) delete s.lcmcr.draws;
  }
  return report;
}

function estimateStratum(
  stratum: string,
  tables: StratumTable[],
  lists: string[],
  o: EstimateOptions,
  wants: (m: 'loglinear' | 'lcmcr') => boolean,
  rng: Rng,
): StratumEstimate {
  const summaries = tables.map(summarise);
  const first = summaries[0]!;
  const observed = summaries.map((s) => s.observed).sort((a, b) => a - b);
  const result: StratumEstimate = {
    stratum,
    observed: quantileSorted(observed, 0.5),
    listSizes: Object.fromEntries(lists.map((name, j) => [name, first.listSizes[j]!])),
    onSeveralLists: first.onSeveral,
    warnings: [],
  };
  if (tables.length > 1) result.observedRange = { min: observed[0]!, max: observed[observed.length - 1]! };
  const refusals = summaries.map((s) => refusalOf(s, lists));
  const refused = refusals.findIndex((r) => r !== undefined);
  if (refused >= 0) {
    result.refusal =
      tables.length === 1
        ? refusals[0]!
        : {
            code: 'linkage-sample-refused',
            message: `${refusals.filter(Boolean).length} of ${tables.length} linkage samples give no estimate here (${refusals[refused]!.message})`,
          };
    return result;
  }
  result.warnings = mergeWarnings(
    tables.map((t, i) => tableWarnings(t, summaries[i]!, lists)),
    tables.length,
  );

  if (wants('loglinear')) {
    const runs = tables.map((t, i) =>
      estimateLoglinear(t, summaries[i]!, lists, {
        ...defaultLoglinearOptions,
        ...o.loglinear,
        level: o.level,
      }),
    );
    result.loglinear = combineLoglinear(runs, o.level);
  }
  if (wants('lcmcr')) {
    const seedBase = rng.uint32();
    const runs = tables.map((t, i) =>
      estimateLcmcr(t, summaries[i]!, {
        ...defaultLcmcrOptions,
        ...o.lcmcr,
        level: o.level,
        seed: `${seedBase}:${i}`,
      }),
    );
    result.lcmcr = combineLcmcr(runs, o.level);
  }
  const a = result.loglinear;
  const b = result.lcmcr;
  if (a && b && 'estimate' in a && 'estimate' in b) {
    const disjoint =
      (a.interval.upper !== null && a.interval.upper < b.interval.lower) ||
      (b.interval.upper !== null && b.interval.upper < a.interval.lower);
    if (disjoint) {
      result.warnings.push({
        code: 'methods-disagree',
        message:
          'the log-linear and latent-class intervals do not overlap: at least one model is wrong here. Heterogeneous capture (some people easier to find on every list) favours the latent-class estimate; dependence between particular lists favours the log-linear one',
      });
    }
  }
  return result;
}

function mergeWarnings(perSample: EstimateWarning[][], samples: number): EstimateWarning[] {
  const byCode = new Map<string, { warning: EstimateWarning; count: number }>();
  for (const list of perSample) {
    const seen = new Set<string>();
    for (const w of list) {
      const key = `${w.code}\u0000${samples === 1 ? w.message : ''}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const entry = byCode.get(key);
      if (entry) entry.count++;
      else byCode.set(key, { warning: w, count: 1 });
    }
  }
  return [...byCode.values()].map(({ warning, count }) =>
    samples === 1 || count === samples
      ? warning
      : { ...warning, message: `${warning.message} (in ${count} of ${samples} linkage samples)` },
  );
}

function combineLoglinear(runs: ReturnType<typeof estimateLoglinear>[], level: number): MethodOutcome {
  const refusedAt = runs.findIndex((r) => 'refusal' in r);
  if (refusedAt >= 0) {
    const r = runs[refusedAt] as { refusal: Refusal };
    return {
      method: 'loglinear',
      refusal:
        runs.length === 1
          ? r.refusal
          : {
              code: 'linkage-sample-refused',
              message: `${runs.filter((x) => 'refusal' in x).length} of ${runs.length} linkage samples give no log-linear estimate (${r.refusal.message})`,
            },
    };
  }
  const results = runs as LoglinearResult[];
  const firstRun = results[0]!;
  const { warnings: _warnings, ...details } = firstRun;
  const base: MethodEstimate = {
    method: 'loglinear',
    estimate: firstRun.estimate,
    interval: firstRun.interval,
    model: firstRun.model.name,
    why: firstRun.why,
    warnings: mergeWarnings(
      results.map((r) => r.warnings),
      results.length,
    ),
    details,
  };
  if (results.length === 1) return base;
  // Mix the samples' sampling distributions, each approximated by a two-piece normal with the sample's estimate
  // as its mode and its profile interval as its 95% range on each side.
  const z = quantileOfStandardNormal(level);
  const parts = results.map((r) => ({
    mode: r.estimate,
    left: Math.max((r.estimate - r.interval.lower) / z, 1e-9),
    right: r.interval.upper === null ? null : Math.max((r.interval.upper - r.estimate) / z, 1e-9),
  }));
  const unbounded = parts.some((p) => p.right === null);
  const cdf = (x: number) =>
    parts.reduce((s, p) => {
      const right = p.right ?? 0;
      // Two-piece normal: mass left/(left+right) below the mode.
      const wl = p.left / (p.left + right);
      if (x <= p.mode) return s + 2 * wl * normalCdf((x - p.mode) / p.left);
      return s + wl + (1 - wl) * (2 * normalCdf((x - p.mode) / right) - 1);
    }, 0) / parts.length;
  const lo = Math.min(...results.map((r) => r.interval.lower));
  const hi = Math.max(...results.map((r) => r.interval.upper ?? r.estimate));
  const tail = (1 - level) / 2;
  const lower = Math.max(
    Math.min(...results.map((r) => r.observed)),
    invert(cdf, tail, lo - (hi - lo), hi + (hi - lo)),
  );
  const estimate = invert(cdf, 0.5, lo - (hi - lo), hi + (hi - lo));
  const upper = unbounded ? null : invert(cdf, 1 - tail, lo - (hi - lo), hi + 2 * (hi - lo));
  const widths = results.map((r) => (r.interval.upper ?? Number.NaN) - r.interval.lower);
  const meanWidth = widths.reduce((s, w) => s + w, 0) / widths.length;
  const estimates = results.map((r) => r.estimate).sort((a, b) => a - b);
  const models = new Map<string, number>();
  for (const r of results) models.set(r.model.name, (models.get(r.model.name) ?? 0) + 1);
  const [topModel, topCount] = [...models].sort((a, b) => b[1] - a[1])[0]!;
  return {
    ...base,
    estimate,
    interval: { lower, upper, level },
    model: models.size === 1 ? topModel : `${topModel} (in ${topCount} of ${results.length} linkage samples)`,
    why: `${firstRun.criterion.toUpperCase()} chose the model in each of ${results.length} linkage samples; the samples' profile intervals are mixed`,
    linkage: {
      samples: results.length,
      estimates: {
        min: estimates[0]!,
        median: quantileSorted(estimates, 0.5),
        max: estimates[estimates.length - 1]!,
      },
      widening: upper === null || !Number.isFinite(meanWidth) ? null : (upper - lower) / meanWidth,
      combination:
        'an equal mixture of the samples’ estimates, each spread as a two-piece normal matching its profile interval',
    },
  };
}

/** Pools the draws of every run (kept on the result for the total; the caller strips them unless asked). */
function combineLcmcr(runs: LcmcrResult[], level: number): MethodEstimate {
  const first = runs[0]!;
  const { warnings: _warnings, draws: _draws, ...details } = first;
  const pooled = new Float64Array(runs.reduce((s, r) => s + r.draws.length, 0));
  let at = 0;
  for (const r of runs) {
    pooled.set(r.draws, at);
    at += r.draws.length;
  }
  const sorted = Float64Array.from(pooled).sort();
  const tail = (1 - level) / 2;
  const result: MethodEstimate = {
    method: 'lcmcr',
    estimate: quantileSorted(sorted, 0.5),
    interval: { lower: quantileSorted(sorted, tail), upper: quantileSorted(sorted, 1 - tail), level },
    model: `latent classes (K* = ${first.classes.truncation})`,
    why: first.why,
    warnings: mergeWarnings(
      runs.map((r) => r.warnings),
      runs.length,
    ),
    details,
  };
  result.draws = Array.from(pooled);
  if (runs.length > 1) {
    const estimates = runs.map((r) => r.estimate).sort((a, b) => a - b);
    const meanWidth = runs.reduce((s, r) => s + (r.interval.upper - r.interval.lower), 0) / runs.length;
    result.why = `posterior draws pooled over ${runs.length} linkage samples (a mixture of their posteriors)`;
    result.linkage = {
      samples: runs.length,
      estimates: {
        min: estimates[0]!,
        median: quantileSorted(estimates, 0.5),
        max: estimates[estimates.length - 1]!,
      },
      widening: (result.interval.upper! - result.interval.lower) / meanWidth,
      combination: 'the posterior draws of every linkage sample pooled (Sadinle 2018)',
    };
  }
  return result;
}

/**
 * The strata summed. LCMCR: the strata's draws added index by index (their chains are independent, so the sums
 * are draws of the total's posterior). Log-linear: estimates added; each side of the interval combined as
 * independent normal errors (√Σ of squared half-widths) — an approximation, said so in docs/estimation.md.
 */
function totalOf(
  strata: StratumEstimate[],
  o: EstimateOptions,
  wants: (m: 'loglinear' | 'lcmcr') => boolean,
): EstimateReport['total'] {
  const observed = strata.reduce((s, x) => s + x.observed, 0);
  const total: NonNullable<EstimateReport['total']> = { observed };
  const blocked = strata.find((s) => s.refusal);
  const refusal = (method: 'loglinear' | 'lcmcr', stratum: string): MethodRefusal => ({
    method,
    refusal: {
      code: 'not-estimable',
      message: `stratum ${stratum} has no ${method} estimate, so the total has none`,
    },
  });
  if (wants('loglinear')) {
    const missing = blocked ?? strata.find((s) => !s.loglinear || !('estimate' in s.loglinear));
    if (missing) total.loglinear = refusal('loglinear', missing.stratum);
    else {
      const parts = strata.map((s) => s.loglinear as MethodEstimate);
      const estimate = parts.reduce((s, p) => s + p.estimate, 0);
      const left = Math.sqrt(parts.reduce((s, p) => s + (p.estimate - p.interval.lower) ** 2, 0));
      const unbounded = parts.some((p) => p.interval.upper === null);
      const right = unbounded
        ? 0
        : Math.sqrt(parts.reduce((s, p) => s + (p.interval.upper! - p.estimate) ** 2, 0));
      total.loglinear = {
        method: 'loglinear',
        estimate,
        interval: {
          lower: Math.max(observed, estimate - left),
          upper: unbounded ? null : estimate + right,
          level: o.level,
        },
        why: 'the strata’s estimates summed; each side of the interval combined as independent errors (approximate)',
      };
    }
  }
  if (wants('lcmcr')) {
    const missing = blocked ?? strata.find((s) => !s.lcmcr || !('estimate' in s.lcmcr));
    if (missing) total.lcmcr = refusal('lcmcr', missing.stratum);
    else {
      const parts = strata.map((s) => (s.lcmcr as MethodEstimate).draws!);
      const length = Math.min(...parts.map((d) => d.length));
      const sums = new Float64Array(length);
      for (const d of parts) for (let i = 0; i < length; i++) sums[i] = sums[i]! + d[i]!;
      const sorted = sums.sort();
      const tail = (1 - o.level) / 2;
      total.lcmcr = {
        method: 'lcmcr',
        estimate: quantileSorted(sorted, 0.5),
        interval: {
          lower: quantileSorted(sorted, tail),
          upper: quantileSorted(sorted, 1 - tail),
          level: o.level,
        },
        why: 'the strata’s posterior draws summed (independent chains)',
      };
    }
  }
  return total;
}

function quantileOfStandardNormal(level: number): number {
  return invert(normalCdf, 0.5 + level / 2, -10, 10);
}

/** Inverts an increasing function by bisection. */
function invert(f: (x: number) => number, target: number, lo: number, hi: number): number {
  let a = lo;
  let b = hi;
  for (let i = 0; i < 200 && b - a > 1e-9 * Math.max(1, Math.abs(b)); i++) {
    const m = (a + b) / 2;
    if (f(m) < target) a = m;
    else b = m;
  }
  return (a + b) / 2;
}
