/**
 * Log-linear multiple systems estimation (Fienberg 1972; Bishop, Fienberg and Holland 1975, ch. 6): a Poisson GLM
 * fitted to the 2^K − 1 observed cells of the capture table, whose intercept, extrapolated to the cell no list saw,
 * is the estimate of those missed by every list.
 *
 * The family: every model with the intercept, all K main effects and any subset of the K(K−1)/2 pairwise
 * interactions (no three-way or higher terms: the K-way term is never estimable, and the three-way terms are left
 * out so that a model stays one a reader can say in words — "lists A and B are dependent"). Models are chosen by
 * BIC (by default) or AIC, over all of them for K ≤ 5 lists (8, 64 or 1,024 models) and by a bidirectional stepwise
 * search from the independence model for K = 6 (32,768 models would take minutes per stratum). The interval is the
 * multinomial profile-likelihood interval of the chosen model (Cormack 1992), as Rcapture's closedpCI.t computes it.
 */
import { fitPoisson, type PoissonFit } from './irls.js';
import { chiSquare1Quantile, stirlingRemainder } from './math.js';
import type { EstimateWarning, Refusal, StratumTable, TableSummary } from './tables.js';

export type Criterion = 'bic' | 'aic';

export interface LoglinearOptions {
  /** Which criterion chooses the model. BIC by default: see docs/estimation.md (chosen on tune seeds). */
  criterion: Criterion;
  /** Interval level, 0.95 by default. */
  level: number;
  /** 'auto': exhaustive up to `exhaustiveUpTo` lists, stepwise above. */
  search: 'auto' | 'exhaustive' | 'stepwise';
  exhaustiveUpTo: number;
  /** The profile looks for an upper bound up to this many times the estimated missing (then says it has none). */
  upperSearchFactor: number;
}

export const defaultLoglinearOptions: LoglinearOptions = {
  criterion: 'bic',
  level: 0.95,
  search: 'auto',
  exhaustiveUpTo: 5,
  upperSearchFactor: 1000,
};

/** A model of the family: which pairwise terms it has, as a bit mask over `pairsOf(K)`. */
export interface ModelSummary {
  /** e.g. "A×B + C×D", or "independence". */
  name: string;
  terms: string[];
  parameters: number;
  deviance: number;
  df: number;
  aic: number;
  bic: number;
  /** n + exp(intercept): the Poisson (conditional) estimate. */
  estimate: number;
}

export interface LoglinearResult {
  method: 'loglinear';
  observed: number;
  estimate: number;
  missing: number;
  standardError: number;
  interval: { lower: number; upper: number | null; level: number };
  /** Where the profile likelihood peaks (the multinomial estimate; within a fraction of a person of `estimate`). */
  profileMaximum: number;
  model: ModelSummary;
  criterion: Criterion;
  search: 'exhaustive' | 'stepwise';
  modelsFitted: number;
  /** Models left out, and why (a term with no overlap behind it, a fit at the boundary). */
  modelsExcluded: number;
  exclusions: string[];
  /** The best few models by the criterion, the chosen one first. */
  ranking: (ModelSummary & { delta: number })[];
  /** What the other criterion would have chosen. */
  otherCriterion: { criterion: Criterion; model: string; estimate: number };
  why: string;
  warnings: EstimateWarning[];
}

export type LoglinearOutcome = LoglinearResult | { method: 'loglinear'; refusal: Refusal };

/** The pairs (i, j), i < j, in the order their bits are numbered. */
export function pairsOf(k: number): [number, number][] {
  const pairs: [number, number][] = [];
  for (let i = 0; i < k; i++) for (let j = i + 1; j < k; j++) pairs.push([i, j]);
  return pairs;
}

/**
 * The design matrix of a model over the cells 1…2^K − 1 (and cell 0 last, when `withUnobserved`): columns are the
 * intercept, the K list indicators, then x_i·x_j for each pair in `pairMask`. Every such design has full column
 * rank (its columns are a subset of the Möbius basis of the 2^K cells without the K-way term), so the fit never
 * needs to drop a column.
 */
export function designMatrix(
  k: number,
  pairMask: number,
  withUnobserved = false,
): { x: Float64Array; rows: number; p: number } {
  const pairs = pairsOf(k).filter((_, t) => pairMask & (1 << t));
  const p = 1 + k + pairs.length;
  const cells = 1 << k;
  const rows = cells - 1 + (withUnobserved ? 1 : 0);
  const x = new Float64Array(rows * p);
  for (let r = 0; r < rows; r++) {
    const mask = r < cells - 1 ? r + 1 : 0;
    const base = r * p;
    x[base] = 1;
    for (let j = 0; j < k; j++) x[base + 1 + j] = (mask >> j) & 1;
    for (let t = 0; t < pairs.length; t++) {
      const [a, b] = pairs[t]!;
      x[base + 1 + k + t] = ((mask >> a) & 1) * ((mask >> b) & 1);
    }
  }
  return { x, rows, p };
}

export function modelName(
  k: number,
  pairMask: number,
  names: readonly string[],
): { name: string; terms: string[] } {
  const terms = pairsOf(k)
    .filter((_, t) => pairMask & (1 << t))
    .map(([a, b]) => `${names[a]}×${names[b]}`);
  return { name: terms.length === 0 ? 'independence' : terms.join(' + '), terms };
}

interface FittedModel {
  pairMask: number;
  fit: PoissonFit;
  parameters: number;
  missing: number;
  aic: number;
  bic: number;
}

/** Fits one model to a table's observed cells. */
export function fitModel(
  table: StratumTable,
  pairMask: number,
  start?: Float64Array,
  covariance = false,
): { fit: PoissonFit; p: number; missing: number } {
  const k = table.lists;
  const { x, p } = designMatrix(k, pairMask);
  const y = table.counts.subarray(1);
  const fit = fitPoisson(x, y, p, { start, covariance });
  return { fit, p, missing: Math.exp(fit.beta[0]!) };
}

/**
 * Fits the family to one stratum's table, chooses a model and gives its estimate and profile interval.
 * `summary` and `names` come from tables.ts; refusals of the table itself are the caller's (see estimate.ts).
 */
export function estimateLoglinear(
  table: StratumTable,
  summary: TableSummary,
  names: readonly string[],
  options: Partial<LoglinearOptions> = {},
): LoglinearOutcome {
  const o = { ...defaultLoglinearOptions, ...options };
  const k = table.lists;
  const n = summary.observed;
  const logN = Math.log(n);
  const full = summary.listSizes.indexOf(n);
  if (full >= 0) {
    return {
      method: 'loglinear',
      refusal: {
        code: 'not-estimable',
        message: `list ${names[full]} contains every person observed, so every log-linear model puts the missing at 0 by construction; that is not an estimate`,
      },
    };
  }
  const pairs = pairsOf(k);
  // A pairwise term whose two lists share no one sits at −∞: models with it are left out.
  let usable = 0;
  const exclusions: string[] = [];
  pairs.forEach(([a, b], t) => {
    if (summary.overlaps[a]![b]! > 0) usable |= 1 << t;
    else exclusions.push(`${names[a]}×${names[b]}: the two lists share no one, so the term is not estimable`);
  });

  const fitted = new Map<number, FittedModel | null>();
  let independenceBeta: Float64Array | undefined;
  let excludedCount = 0;
  const boundaryNames: string[] = [];
  const fitOne = (pairMask: number): FittedModel | null => {
    if (fitted.has(pairMask)) return fitted.get(pairMask)!;
    if ((pairMask & ~usable) !== 0) {
      fitted.set(pairMask, null);
      excludedCount++;
      return null;
    }
    let start: Float64Array | undefined;
    if (independenceBeta) {
      start = new Float64Array(1 + k + popcount(pairMask));
      start.set(independenceBeta);
    }
    let { fit, p, missing } = fitModel(table, pairMask, start);
    if (!fit.converged && start) ({ fit, p, missing } = fitModel(table, pairMask));
    if (!fit.converged || !Number.isFinite(missing) || !Number.isFinite(fit.deviance)) {
      fitted.set(pairMask, null);
      excludedCount++;
      if (boundaryNames.length < 5) boundaryNames.push(modelName(k, pairMask, names).name);
      return null;
    }
    const aic = fit.aic;
    const model: FittedModel = { pairMask, fit, parameters: p, missing, aic, bic: aic + (logN - 2) * p };
    fitted.set(pairMask, model);
    if (pairMask === 0) independenceBeta = fit.beta;
    return model;
  };
  const score = (m: FittedModel, c: Criterion) => (c === 'bic' ? m.bic : m.aic);

  const exhaustive = o.search === 'exhaustive' || (o.search === 'auto' && k <= o.exhaustiveUpTo);
  fitOne(0);
  if (exhaustive) {
    for (let mask = 1; mask < 1 << pairs.length; mask++) fitOne(mask);
  } else {
    for (const c of new Set<Criterion>([o.criterion, o.criterion === 'bic' ? 'aic' : 'bic'])) {
      stepwise(fitOne, pairs.length, (m) => score(m, c));
    }
  }
  if (boundaryNames.length > 0) {
    exclusions.push(
      `${boundaryNames.join('; ')}${excludedCount > boundaryNames.length ? ' and others' : ''}: the fit did not converge (a boundary of the table)`,
    );
  }
  const candidates = [...fitted.values()].filter((m): m is FittedModel => m !== null);
  if (candidates.length === 0) {
    return {
      method: 'loglinear',
      refusal: { code: 'not-estimable', message: 'no model of the family could be fitted to this table' },
    };
  }
  const order = (c: Criterion) =>
    [...candidates].sort(
      (a, b) => score(a, c) - score(b, c) || a.parameters - b.parameters || a.pairMask - b.pairMask,
    );
  const ranked = order(o.criterion);
  const best = ranked[0]!;
  const other: Criterion = o.criterion === 'bic' ? 'aic' : 'bic';
  const otherBest = order(other)[0]!;
  const describe = (m: FittedModel): ModelSummary => {
    const { name, terms } = modelName(k, m.pairMask, names);
    return {
      name,
      terms,
      parameters: m.parameters,
      deviance: m.fit.deviance,
      df: (1 << k) - 1 - m.parameters,
      aic: m.aic,
      bic: m.bic,
      estimate: n + m.missing,
    };
  };
  const chosen = describe(best);
  const ranking = ranked
    .slice(0, 5)
    .map((m) => ({ ...describe(m), delta: score(m, o.criterion) - score(best, o.criterion) }));

  // Standard error (the delta method, as Rcapture reports it) from the chosen model's information.
  const withCov = fitModel(table, best.pairMask, best.fit.beta, true);
  const varIntercept = withCov.fit.covariance?.[0] ?? Number.NaN;
  const standardError = Math.sqrt(best.missing + best.missing ** 2 * varIntercept);

  const profile = profileInterval(table, best.pairMask, n, best.missing, best.fit.beta, o);
  const warnings: EstimateWarning[] = [];
  if (profile.upper === null) {
    warnings.push({
      code: 'no-upper-bound',
      message: `the profile likelihood does not fall far enough below its peak within ${o.upperSearchFactor}× the estimated missing: the data set no upper bound under ${chosen.name}`,
    });
  }
  if (profile.lowerAtObserved) {
    warnings.push({
      code: 'lower-bound-at-observed',
      message:
        'the interval reaches down to the number observed: the data do not rule out that the lists missed almost no one',
    });
  }
  if (chosen.df > 0 && chosen.deviance > chosen.df + 3 * Math.sqrt(2 * chosen.df)) {
    warnings.push({
      code: 'poor-fit',
      message: `the chosen model fits poorly (deviance ${chosen.deviance.toFixed(1)} on ${chosen.df} df): the lists' dependence or heterogeneity is not captured by pairwise terms; compare the latent-class estimate`,
    });
  }
  const close = ranking.filter((m) => m.delta > 0 && m.delta < 2);
  if (close.length > 0) {
    const spread = close.map((m) => m.estimate);
    const lo = Math.min(chosen.estimate, ...spread);
    const hi = Math.max(chosen.estimate, ...spread);
    if (profile.upper !== null && (lo < profile.lower || hi > profile.upper)) {
      warnings.push({
        code: 'models-disagree',
        message: `models almost as good by ${o.criterion.toUpperCase()} (within 2) give ${Math.round(lo)}–${Math.round(hi)}, outside this interval: the choice of model matters more than the interval says`,
      });
    }
  }
  const why =
    `${o.criterion.toUpperCase()} ${score(best, o.criterion).toFixed(1)} is the lowest of ${candidates.length} models fitted ` +
    `(${exhaustive ? `all models with pairwise terms` : 'stepwise search from independence'}${excludedCount > 0 ? `; ${excludedCount} left out` : ''})` +
    (ranking[1] ? `; next best ${ranking[1].name} (+${ranking[1].delta.toFixed(1)})` : '') +
    (otherBest.pairMask === best.pairMask
      ? `; ${other.toUpperCase()} chooses the same model`
      : `; ${other.toUpperCase()} would choose ${modelName(k, otherBest.pairMask, names).name} (estimate ${Math.round(n + otherBest.missing)})`);
  return {
    method: 'loglinear',
    observed: n,
    estimate: n + best.missing,
    missing: best.missing,
    standardError,
    interval: { lower: profile.lower, upper: profile.upper, level: o.level },
    profileMaximum: profile.maximum,
    model: chosen,
    criterion: o.criterion,
    search: exhaustive ? 'exhaustive' : 'stepwise',
    modelsFitted: candidates.length,
    modelsExcluded: excludedCount,
    exclusions,
    ranking,
    otherCriterion: {
      criterion: other,
      model: modelName(k, otherBest.pairMask, names).name,
      estimate: n + otherBest.missing,
    },
    why,
    warnings,
  };
}

/** Greedy bidirectional search: add or drop the one pairwise term that lowers the score most, until none does. */
function stepwise(
  fitOne: (mask: number) => FittedModel | null,
  terms: number,
  score: (m: FittedModel) => number,
): void {
  let current = fitOne(0);
  if (!current) return;
  for (;;) {
    let best: FittedModel | null = null;
    for (let t = 0; t < terms; t++) {
      const candidate = fitOne(current.pairMask ^ (1 << t));
      if (candidate && score(candidate) < score(best ?? current) - 1e-9) best = candidate;
    }
    if (!best) return;
    current = best;
  }
}

function popcount(x: number): number {
  let c = 0;
  for (let v = x; v; v &= v - 1) c++;
  return c;
}

export interface ProfileInterval {
  lower: number;
  upper: number | null;
  maximum: number;
  lowerAtObserved: boolean;
}

/**
 * The multinomial profile-likelihood interval for N under one model (Cormack 1992). For a trial N the zero cell
 * gets the count N − n and the Poisson model is fitted to the complete table; its deviance D(N) gives the profile
 * log-likelihood up to a constant, l(N) = log N! − log (N−n)! − N·log N + (N−n)·log(N−n) − D(N)/2, here written
 * through Stirling remainders so that nothing of size N·log N has to cancel. The interval is where
 * l(N) ≥ max l − χ²₁(level)/2.
 */
export function profileInterval(
  table: StratumTable,
  pairMask: number,
  n: number,
  missing: number,
  startBeta: Float64Array,
  options: Pick<LoglinearOptions, 'level' | 'upperSearchFactor'>,
): ProfileInterval {
  const k = table.lists;
  const { x, rows, p } = designMatrix(k, pairMask, true);
  const y = new Float64Array(rows);
  y.set(table.counts.subarray(1));
  let beta = startBeta;
  const profile = (bigN: number): number => {
    const n0 = bigN - n;
    y[rows - 1] = n0;
    const fit = fitPoisson(x, y, p, { start: beta });
    if (fit.converged) beta = fit.beta;
    return stirlingRemainder(bigN) - stirlingRemainder(n0) - fit.deviance / 2;
  };
  const lowest = n + Math.min(0.5, missing / 2);
  const nHat = n + missing;
  // The peak lies below the Poisson estimate (l′(N̂) < 0), above the observed.
  const maximum = goldenMaximum(profile, lowest, Math.max(nHat, lowest), Math.max(1e-3, 1e-9 * nHat));
  beta = startBeta;
  const lmax = profile(maximum);
  const target = lmax - chiSquare1Quantile(options.level) / 2;
  const f = (bigN: number) => profile(bigN) - target;

  let lower: number;
  let lowerAtObserved = false;
  const fLowest = f(lowest);
  if (fLowest >= 0) {
    lower = n;
    lowerAtObserved = true;
  } else {
    lower = brentRoot(f, lowest, maximum, fLowest, lmax - target, 1e-6 * nHat + 1e-6);
  }

  beta = startBeta;
  const limit = n + options.upperSearchFactor * Math.max(missing, 1);
  let a = maximum;
  let fa = lmax - target;
  let b = maximum + Math.max(1, 0.5 * (maximum - n), maximum - lower);
  let fb = f(b);
  let upper: number | null = null;
  while (fb >= 0 && b < limit) {
    a = b;
    fa = fb;
    b = Math.min(limit, maximum + 2 * (b - maximum));
    fb = f(b);
  }
  if (fb < 0) upper = brentRoot(f, a, b, fa, fb, 1e-6 * nHat + 1e-6);
  return { lower, upper, maximum, lowerAtObserved };
}

function goldenMaximum(f: (x: number) => number, lo: number, hi: number, tolerance: number): number {
  if (hi - lo <= tolerance) return hi;
  const g = (Math.sqrt(5) - 1) / 2;
  let a = lo;
  let b = hi;
  let c = b - g * (b - a);
  let d = a + g * (b - a);
  let fc = f(c);
  let fd = f(d);
  while (b - a > tolerance) {
    if (fc > fd) {
      b = d;
      d = c;
      fd = fc;
      c = b - g * (b - a);
      fc = f(c);
    } else {
      a = c;
      c = d;
      fc = fd;
      d = a + g * (b - a);
      fd = f(d);
    }
  }
  // The peak may sit at an end of the bracket (then the golden search crawls to it); compare the ends too.
  const mid = (a + b) / 2;
  const ends: [number, number][] = [
    [mid, f(mid)],
    [lo, f(lo)],
    [hi, f(hi)],
  ];
  ends.sort((u, v) => v[1] - u[1]);
  return ends[0]![0];
}

/** Brent–Dekker root of f on [a, b], where f(a) and f(b) have opposite signs. */
export function brentRoot(
  f: (x: number) => number,
  a0: number,
  b0: number,
  fa0: number,
  fb0: number,
  tolerance: number,
): number {
  let a = a0;
  let b = b0;
  let fa = fa0;
  let fb = fb0;
  if (fa === 0) return a;
  if (fb === 0) return b;
  let c = a;
  let fc = fa;
  let d = b - a;
  let e = d;
  for (let iteration = 0; iteration < 200; iteration++) {
    if (fb * fc > 0) {
      c = a;
      fc = fa;
      d = b - a;
      e = d;
    }
    if (Math.abs(fc) < Math.abs(fb)) {
      a = b;
      b = c;
      c = a;
      fa = fb;
      fb = fc;
      fc = fa;
    }
    const tol = 2 * Number.EPSILON * Math.abs(b) + tolerance / 2;
    const m = (c - b) / 2;
    if (Math.abs(m) <= tol || fb === 0) return b;
    if (Math.abs(e) >= tol && Math.abs(fa) > Math.abs(fb)) {
      const s = fb / fa;
      let p: number;
      let q: number;
      if (a === c) {
        p = 2 * m * s;
        q = 1 - s;
      } else {
        const qa = fa / fc;
        const r = fb / fc;
        p = s * (2 * m * qa * (qa - r) - (b - a) * (r - 1));
        q = (qa - 1) * (r - 1) * (s - 1);
      }
      if (p > 0) q = -q;
      else p = -p;
      if (2 * p < Math.min(3 * m * q - Math.abs(tol * q), Math.abs(e * q))) {
        e = d;
        d = p / q;
      } else {
        d = m;
        e = d;
      }
    } else {
      d = m;
      e = d;
    }
    a = b;
    fa = fb;
    b += Math.abs(d) > tol ? d : m > 0 ? tol : -tol;
    fb = f(b);
  }
  return b;
}
