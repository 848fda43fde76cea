/**
 * The Bayesian non-parametric latent-class model of Manrique-Vallier (2016, Biometrics 72, "Bayesian population
 * size estimation using Dirichlet process mixtures"), the model of the R package LCMCR:
 *
 *   each person belongs to a latent class z ~ π, and given the class, is on list j with probability λ_jz,
 *   independently of the other lists; π ~ stick-breaking(α) truncated at K* classes; α ~ Gamma(a_α, b_α) with
 *   a_α = b_α = 0.25; λ_jk ~ Beta(1, 1); and p(N) ∝ 1/N.
 *
 * Heterogeneous capture (some people far easier to find than others, on every list at once) is what breaks the
 * log-linear models; a mixture of classes each with its own capture probabilities absorbs it. The Gibbs sampler is
 * the package's, on the table of capture patterns rather than person by person (the same chain in law: people with
 * one pattern are exchangeable), so its cost does not grow with the number of people:
 *
 *   1. split each pattern's count among the classes (multinomial, ∝ π_k Π_j λ_jk^x_j (1 − λ_jk)^(1−x_j));
 *   2. λ_jk | · ~ Beta(1 + on list j in class k, 1 + not on it), the unobserved counted as off every list;
 *   3. π | · by stick-breaking: V_k ~ Beta(1 + n_k, α + Σ_{h>k} n_h), computed on the log scale;
 *   4. n0 | · ~ NegativeBinomial(n, 1 − p0), p0 = Σ_k π_k Π_j (1 − λ_jk) — what the 1/N prior gives;
 *   5. the n0 unobserved split among the classes ∝ π_k Π_j (1 − λ_jk);
 *   6. α | · ~ Gamma(a_α + K* − 1, b_α − log π_K*).
 *
 * Deterministic for a seed: each chain draws from its own stream forked from the seed.
 */
import { quantileSorted } from './math.js';
import { Rng } from './random.js';
import type { EstimateWarning, StratumTable, TableSummary } from './tables.js';

export interface LcmcrOptions {
  /** K*, the truncation of the stick-breaking prior (LCMCR's K). */
  classes: number;
  aAlpha: number;
  bAlpha: number;
  /** Iterations discarded at the start of each chain (after a 500-iteration warm-up with α held, as LCMCR does). */
  burnIn: number;
  /** Draws kept per chain. */
  samples: number;
  /** Iterations per kept draw. */
  thinning: number;
  chains: number;
  seed: number | string;
  level: number;
}

export const defaultLcmcrOptions: LcmcrOptions = {
  classes: 10,
  aAlpha: 0.25,
  bAlpha: 0.25,
  burnIn: 10_000,
  samples: 1000,
  // N mixes slowly (its autocorrelation time is a few hundred iterations on hard tables, as HRDAG found too), so a
  // kept draw every 50 iterations rather than LCMCR's default 10.
  thinning: 50,
  chains: 2,
  seed: 1,
  level: 0.95,
};

export interface LcmcrResult {
  method: 'lcmcr';
  observed: number;
  /** The posterior median of N. */
  estimate: number;
  mean: number;
  missing: number;
  interval: { lower: number; upper: number; level: number };
  /** Every kept draw of N, chain after chain (for mixing over linkage samples and summing strata). */
  draws: Float64Array;
  convergence: {
    chains: number;
    burnIn: number;
    samples: number;
    thinning: number;
    /** Split-R̂ of N over the chains' halves (Gelman et al., BDA3 §11.4); near 1 when they agree. */
    rHat: number;
    /** Effective number of independent draws of N (Geyer's initial positive sequence, summed over chains). */
    effectiveSamples: number;
    note: string;
  };
  /**
   * How the truncation fared: classes holding anyone (observed or imputed) per draw, and the posterior mean weight
   * of the last class — the catch-all the truncation leaves. Above 1% the truncation may bind.
   */
  classes: { truncation: number; occupiedMedian: number; occupiedMax: number; lastClassWeight: number };
  priors: string;
  why: string;
  warnings: EstimateWarning[];
}

/** Runs the sampler on one stratum's table. */
export function estimateLcmcr(
  table: StratumTable,
  summary: TableSummary,
  options: Partial<LcmcrOptions> = {},
): LcmcrResult {
  const o = { ...defaultLcmcrOptions, ...options };
  const root = new Rng(o.seed);
  const chains: Float64Array[] = [];
  const occupied: number[] = [];
  let lastClassWeight = 0;
  for (let c = 0; c < o.chains; c++) {
    const run = runChain(table, summary, o, root.fork(`${table.stratum}\u0000chain ${c}`));
    chains.push(run.draws);
    occupied.push(...run.occupied);
    lastClassWeight += run.lastClassWeight / o.chains;
  }
  const draws = new Float64Array(o.chains * o.samples);
  chains.forEach((d, c) => {
    draws.set(d, c * o.samples);
  });
  const sorted = Float64Array.from(draws).sort();
  const tail = (1 - o.level) / 2;
  const estimate = quantileSorted(sorted, 0.5);
  let mean = 0;
  for (const v of draws) mean += v;
  mean /= draws.length;
  const rHat = splitRHat(chains);
  const effectiveSamples = chains.reduce((s, d) => s + effectiveSampleSize(d), 0);
  occupied.sort((a, b) => a - b);
  const warnings: EstimateWarning[] = [];
  const converged = (o.chains < 2 || rHat < 1.05) && effectiveSamples >= 100;
  if (!converged) {
    warnings.push({
      code: 'not-converged',
      message: `the sampler may not have converged (R̂ ${rHat.toFixed(3)}, ${Math.round(effectiveSamples)} effective draws): run it longer (more burn-in and thinning) before trusting the interval`,
    });
  }
  if (lastClassWeight > 0.01) {
    warnings.push({
      code: 'classes-full',
      message: `the last of the ${o.classes} latent classes holds ${(lastClassWeight * 100).toFixed(1)}% of the population on average: the truncation may bind; raise K*`,
    });
  }
  const note =
    `${o.chains} chain${o.chains === 1 ? '' : 's'} × (${o.burnIn} burn-in + ${o.samples} × ${o.thinning}) iterations; ` +
    `split-R̂ ${rHat.toFixed(3)}, ${Math.round(effectiveSamples)} effective draws of ${draws.length}` +
    (converged ? '' : ' — not converged');
  return {
    method: 'lcmcr',
    observed: summary.observed,
    estimate,
    mean,
    missing: estimate - summary.observed,
    interval: {
      lower: quantileSorted(sorted, tail),
      upper: quantileSorted(sorted, 1 - tail),
      level: o.level,
    },
    draws,
    convergence: {
      chains: o.chains,
      burnIn: o.burnIn,
      samples: o.samples,
      thinning: o.thinning,
      rHat,
      effectiveSamples,
      note,
    },
    classes: {
      truncation: o.classes,
      occupiedMedian: occupied[Math.floor(occupied.length / 2)] ?? 0,
      occupiedMax: occupied[occupied.length - 1] ?? 0,
      lastClassWeight,
    },
    priors: `K* = ${o.classes}, α ~ Gamma(${o.aAlpha}, ${o.bAlpha}), λ ~ Beta(1, 1), p(N) ∝ 1/N`,
    why: `posterior median and ${Math.round(o.level * 100)}% equal-tailed interval of N under the latent-class model (heterogeneous capture, lists independent within a class); ${note}`,
    warnings,
  };
}

interface ChainRun {
  draws: Float64Array;
  occupied: number[];
  lastClassWeight: number;
}

function runChain(table: StratumTable, summary: TableSummary, o: LcmcrOptions, rng: Rng): ChainRun {
  const J = table.lists;
  const K = Math.max(1, Math.floor(o.classes));
  const n = summary.observed;
  // The patterns that hold anyone, with their counts and list indicators.
  const masks: number[] = [];
  const cellCounts: number[] = [];
  for (let m = 1; m < table.counts.length; m++) {
    if (table.counts[m]! > 0) {
      masks.push(m);
      cellCounts.push(table.counts[m]!);
    }
  }
  const M = masks.length;
  const on = new Uint8Array(M * J);
  for (let m = 0; m < M; m++) for (let j = 0; j < J; j++) on[m * J + j] = (masks[m]! >> j) & 1;

  const lambda = new Float64Array(J * K); // lambda[j*K + k]
  const nu = new Float64Array(K);
  const logNu = new Float64Array(K);
  const cellClass = new Float64Array(M * K); // counts of pattern m in class k
  const zero = new Float64Array(K); // counts of the unobserved in class k
  const total = new Float64Array(K);
  const observedInClass = new Float64Array(K);
  const ones = new Float64Array(J * K);
  const weights = new Float64Array(K);
  const missWeights = new Float64Array(K);
  const scratch = new Float64Array(K);
  const pair = new Float64Array(2);
  // Per pattern (and for the unobserved), the classes heaviest first: the multinomial split then uses its count up
  // after a class or two and stops. Kept between iterations, so re-sorting (insertion sort) is nearly free.
  const orders = new Int32Array((M + 1) * K);
  for (let m = 0; m <= M; m++) for (let k = 0; k < K; k++) orders[m * K + k] = k;
  const sortOrder = (m: number, w: Float64Array) => {
    const base = m * K;
    for (let i = base + 1; i < base + K; i++) {
      const c = orders[i]!;
      const wc = w[c]!;
      let j = i - 1;
      while (j >= base && w[orders[j]!]! < wc) {
        orders[j + 1] = orders[j]!;
        j--;
      }
      orders[j + 1] = c;
    }
    return base;
  };
  let alpha = 1;
  let n0 = 0;

  // Start as LCMCR does: λ at each list's share of the observed, most weight on the first four classes, α small.
  for (let j = 0; j < J; j++) {
    const share = summary.listSizes[j]! / n;
    for (let k = 0; k < K; k++) lambda[j * K + k] = share;
  }
  if (K > 4) {
    for (let k = 0; k < K; k++) nu[k] = k < 4 ? 0.225 : 0.1 / (K - 4);
  } else {
    nu.fill(1 / K);
  }
  for (let k = 0; k < K; k++) logNu[k] = Math.log(nu[k]!);
  alpha = 0.3 / K;

  const sampleCells = () => {
    for (let m = 0; m < M; m++) {
      for (let k = 0; k < K; k++) {
        let w = nu[k]!;
        for (let j = 0; j < J; j++) {
          const l = lambda[j * K + k]!;
          w *= on[m * J + j] ? l : 1 - l;
        }
        weights[k] = w;
      }
      rng.multinomial(cellCounts[m]!, weights, scratch, orders, sortOrder(m, weights));
      cellClass.set(scratch, m * K);
    }
  };
  const sampleLambda = () => {
    ones.fill(0);
    observedInClass.fill(0);
    for (let m = 0; m < M; m++) {
      for (let k = 0; k < K; k++) {
        const c = cellClass[m * K + k]!;
        if (c === 0) continue;
        observedInClass[k] = observedInClass[k]! + c;
        for (let j = 0; j < J; j++) if (on[m * J + j]) ones[j * K + k] = ones[j * K + k]! + c;
      }
    }
    for (let k = 0; k < K; k++) total[k] = observedInClass[k]! + zero[k]!;
    for (let j = 0; j < J; j++) {
      for (let k = 0; k < K; k++) {
        const a = ones[j * K + k]!;
        lambda[j * K + k] = rng.beta(1 + a, 1 + total[k]! - a);
      }
    }
  };
  const sampleNu = () => {
    let remaining = 0;
    for (let k = 0; k < K; k++) remaining += total[k]!;
    let logRest = 0; // log Π_{h<k} (1 − V_h)
    for (let k = 0; k < K - 1; k++) {
      remaining -= total[k]!;
      rng.logBetaPair(1 + total[k]!, alpha + remaining, pair);
      logNu[k] = pair[0]! + logRest;
      logRest += pair[1]!;
      nu[k] = Math.exp(logNu[k]!);
    }
    logNu[K - 1] = logRest;
    nu[K - 1] = Math.exp(logRest);
  };
  const sampleMissing = () => {
    let p0 = 0;
    for (let k = 0; k < K; k++) {
      let w = nu[k]!;
      for (let j = 0; j < J; j++) w *= 1 - lambda[j * K + k]!;
      missWeights[k] = w;
      p0 += w;
    }
    n0 = rng.negativeBinomial(n, 1 - Math.min(p0, 1 - 1e-15));
    rng.multinomial(n0, missWeights, zero, orders, sortOrder(M, missWeights));
  };
  const sampleAlpha = () => {
    alpha = rng.gamma(o.aAlpha + K - 1) / (o.bAlpha - logNu[K - 1]!);
  };
  const iterate = (withAlpha: boolean) => {
    sampleCells();
    sampleLambda();
    sampleNu();
    sampleMissing();
    if (withAlpha) sampleAlpha();
  };

  for (let i = 0; i < 500; i++) iterate(false);
  relabelByWeight(K, J, nu, logNu, lambda, zero);
  for (let i = 0; i < o.burnIn; i++) iterate(true);
  const draws = new Float64Array(o.samples);
  const occupied: number[] = [];
  let lastClassWeight = 0;
  for (let s = 0; s < o.samples; s++) {
    for (let t = 0; t < o.thinning; t++) iterate(true);
    draws[s] = n + n0;
    lastClassWeight += nu[K - 1]! / o.samples;
    let used = 0;
    for (let k = 0; k < K; k++) if (observedInClass[k]! + zero[k]! > 0) used++;
    occupied.push(used);
  }
  return { draws, occupied, lastClassWeight };
}

/** Orders the classes by weight, largest first (LCMCR does this once after its warm-up). */
function relabelByWeight(
  K: number,
  J: number,
  nu: Float64Array,
  logNu: Float64Array,
  lambda: Float64Array,
  zero: Float64Array,
): void {
  const order = Array.from({ length: K }, (_, k) => k).sort((a, b) => nu[b]! - nu[a]!);
  const nu2 = order.map((k) => nu[k]!);
  const logNu2 = order.map((k) => logNu[k]!);
  const zero2 = order.map((k) => zero[k]!);
  const lambda2 = new Float64Array(J * K);
  for (let j = 0; j < J; j++) for (let k = 0; k < K; k++) lambda2[j * K + k] = lambda[j * K + order[k]!]!;
  nu.set(nu2);
  logNu.set(logNu2);
  zero.set(zero2);
  lambda.set(lambda2);
}

/** Split-R̂: each chain cut in two halves, then the potential scale reduction of Gelman and Rubin. */
export function splitRHat(chains: Float64Array[]): number {
  const halves: Float64Array[] = [];
  for (const c of chains) {
    const h = Math.floor(c.length / 2);
    if (h < 2) return Number.NaN;
    halves.push(c.subarray(0, h), c.subarray(c.length - h));
  }
  const m = halves.length;
  const n = halves[0]!.length;
  const means = halves.map((h) => h.reduce((s, v) => s + v, 0) / n);
  const grand = means.reduce((s, v) => s + v, 0) / m;
  const between = (n / (m - 1)) * means.reduce((s, v) => s + (v - grand) ** 2, 0);
  const within =
    halves.reduce((s, h, i) => s + h.reduce((t, v) => t + (v - means[i]!) ** 2, 0) / (n - 1), 0) / m;
  if (within === 0) return between === 0 ? 1 : Number.POSITIVE_INFINITY;
  const varPlus = ((n - 1) / n) * within + between / n;
  return Math.sqrt(varPlus / within);
}

/** Effective sample size of one chain by Geyer's initial positive sequence of autocorrelation pairs. */
export function effectiveSampleSize(x: Float64Array): number {
  const n = x.length;
  if (n < 4) return n;
  let mean = 0;
  for (const v of x) mean += v;
  mean /= n;
  let var0 = 0;
  for (const v of x) var0 += (v - mean) ** 2;
  var0 /= n;
  if (var0 === 0) return n;
  const rho = (lag: number) => {
    let s = 0;
    for (let i = 0; i + lag < n; i++) s += (x[i]! - mean) * (x[i + lag]! - mean);
    return s / n / var0;
  };
  let sum = 0;
  for (let t = 0; t + 1 < n; t += 2) {
    const pair = (t === 0 ? 1 : rho(t)) + rho(t + 1);
    if (pair <= 0) break;
    sum += pair;
  }
  const tau = Math.max(1, 2 * sum - 1);
  return n / tau;
}
