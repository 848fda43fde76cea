import { logFactorial } from './math.js';

/**
 * A Poisson GLM with log link, fitted by iteratively reweighted least squares — the algorithm of R's `glm.fit`,
 * written out so athar needs no R at run time. Each step solves the weighted least-squares problem by Householder
 * QR of √w·X (never by forming XᵀWX, whose condition number is the square of the design's), halves the step when
 * the deviance grows or stops being finite, and stops when the deviance's relative change is below `tolerance`
 * (R's rule, tighter by default: the estimate of an unobserved cell is exp(intercept), so the intercept must be
 * exact to far more digits than a fit's deviance needs).
 */

export interface PoissonFitOptions {
  /** Stop when |D − D_prev| / (|D| + 0.1) < tolerance. R's default is 1e-8. */
  tolerance?: number;
  maxIterations?: number;
  /** Starting coefficients (a fit of a neighbouring model or table); otherwise R's start, μ = y + 0.1. */
  start?: Float64Array;
  /** Also return (XᵀWX)⁻¹ at the solution. */
  covariance?: boolean;
}

export interface PoissonFit {
  beta: Float64Array;
  mu: Float64Array;
  deviance: number;
  /** −2·log-likelihood + 2·p, as R's `AIC()` of a Poisson glm. */
  aic: number;
  /** Σ log y! over the cells (for turning deviance into a log-likelihood). */
  logLikelihood: number;
  iterations: number;
  converged: boolean;
  /** (XᵀWX)⁻¹, p × p row-major, when asked for. */
  covariance?: Float64Array;
  /**
   * Some fitted cell is numerically 0 (below 1e-10 of the mean count): a coefficient has run off to ±∞, the MLE
   * lies on the boundary of the table (R warns "fitted rates numerically 0 occurred").
   */
  boundary: boolean;
}

/**
 * Fits log μ = Xβ to counts y. `x` is row-major, `rows × p`. The design must have full column rank (every design
 * athar builds does; see loglinear.ts).
 */
export function fitPoisson(
  x: Float64Array,
  y: Float64Array,
  p: number,
  options: PoissonFitOptions = {},
): PoissonFit {
  const rows = y.length;
  const tolerance = options.tolerance ?? 1e-12;
  const maxIterations = options.maxIterations ?? 100;
  const beta = new Float64Array(p);
  const eta = new Float64Array(rows);
  const mu = new Float64Array(rows);
  const z = new Float64Array(rows);
  const w = new Float64Array(rows);
  const a = new Float64Array(rows * p);
  const rhs = new Float64Array(rows);
  const next = new Float64Array(p);

  if (options.start) {
    beta.set(options.start);
    linearPredictor(x, beta, rows, p, eta);
    for (let i = 0; i < rows; i++) mu[i] = Math.exp(clampEta(eta[i]!));
  } else {
    for (let i = 0; i < rows; i++) {
      mu[i] = y[i]! + 0.1;
      eta[i] = Math.log(mu[i]!);
    }
  }
  let deviance = poissonDeviance(y, mu);
  // R's start (μ = y + 0.1) is not a point of the model and fits better than any, so the first step may raise the
  // deviance; from then on every point is the model's and a rise means the step overshot.
  let atModelPoint = options.start !== undefined;
  let converged = false;
  let iterations = 0;
  for (; iterations < maxIterations; iterations++) {
    for (let i = 0; i < rows; i++) {
      const m = mu[i]!;
      z[i] = eta[i]! + (y[i]! - m) / m;
      w[i] = m;
    }
    solveWeightedLeastSquares(x, z, w, rows, p, a, rhs, next);
    // Take the step; halve it while the deviance is not finite or grows (a boundary, or a poor start).
    let step = 1;
    let trial = Number.POSITIVE_INFINITY;
    for (let halvings = 0; halvings < 40; halvings++) {
      for (let j = 0; j < p; j++) next[j] = beta[j]! + step * (next[j]! - beta[j]!);
      linearPredictor(x, next, rows, p, eta);
      for (let i = 0; i < rows; i++) mu[i] = Math.exp(clampEta(eta[i]!));
      trial = poissonDeviance(y, mu);
      if (Number.isFinite(trial) && (!atModelPoint || trial <= deviance * (1 + 1e-12) + 1e-12)) break;
      // Recover the full step's target from the halved one before halving again.
      for (let j = 0; j < p; j++) next[j] = beta[j]! + (next[j]! - beta[j]!) / step;
      step /= 2;
    }
    beta.set(next);
    const wasModelPoint = atModelPoint;
    atModelPoint = true;
    const change = Math.abs(trial - deviance) / (Math.abs(trial) + 0.1);
    deviance = trial;
    if (wasModelPoint && change < tolerance) {
      converged = true;
      iterations++;
      break;
    }
  }
  let meanCount = 0;
  for (let i = 0; i < rows; i++) meanCount += y[i]! / rows;
  let boundary = false;
  for (let i = 0; i < rows; i++) if (mu[i]! < 1e-10 * Math.max(meanCount, 1)) boundary = true;
  let logYFactorial = 0;
  for (let i = 0; i < rows; i++) logYFactorial += logFactorial(y[i]!);
  let logLikelihood = -logYFactorial;
  for (let i = 0; i < rows; i++) {
    const m = mu[i]!;
    const yi = y[i]!;
    logLikelihood += (yi > 0 ? yi * Math.log(m) : 0) - m;
  }
  const fit: PoissonFit = {
    beta,
    mu,
    deviance,
    aic: -2 * logLikelihood + 2 * p,
    logLikelihood,
    iterations,
    converged,
    boundary,
  };
  if (options.covariance) {
    for (let i = 0; i < rows; i++) w[i] = mu[i]!;
    fit.covariance = inverseInformation(x, w, rows, p);
  }
  return fit;
}

/** 2 Σ [y log(y/μ) − (y − μ)], with 0·log 0 = 0. */
export function poissonDeviance(y: Float64Array, mu: Float64Array): number {
  let d = 0;
  for (let i = 0; i < y.length; i++) {
    const yi = y[i]!;
    const m = mu[i]!;
    d += (yi > 0 ? yi * Math.log(yi / m) : 0) - (yi - m);
  }
  return 2 * d;
}

function clampEta(e: number): number {
  return Math.min(700, Math.max(-700, e));
}

function linearPredictor(
  x: Float64Array,
  beta: Float64Array,
  rows: number,
  p: number,
  out: Float64Array,
): void {
  for (let i = 0; i < rows; i++) {
    let s = 0;
    const base = i * p;
    for (let j = 0; j < p; j++) s += x[base + j]! * beta[j]!;
    out[i] = s;
  }
}

/** Minimises Σ w_i (z_i − x_iβ)² by Householder QR of √w·X, in place on scratch `a`; writes β to `out`. */
function solveWeightedLeastSquares(
  x: Float64Array,
  z: Float64Array,
  w: Float64Array,
  rows: number,
  p: number,
  a: Float64Array,
  rhs: Float64Array,
  out: Float64Array,
): void {
  for (let i = 0; i < rows; i++) {
    const s = Math.sqrt(w[i]!);
    const base = i * p;
    for (let j = 0; j < p; j++) a[base + j] = x[base + j]! * s;
    rhs[i] = z[i]! * s;
  }
  for (let k = 0; k < p; k++) {
    let norm = 0;
    for (let i = k; i < rows; i++) norm += a[i * p + k]! ** 2;
    norm = Math.sqrt(norm);
    if (norm === 0) continue;
    const akk = a[k * p + k]!;
    const alpha = akk > 0 ? -norm : norm;
    // v = a[k:, k] − alpha·e_1, stored in place; R_kk = alpha.
    a[k * p + k] = akk - alpha;
    let vv = 0;
    for (let i = k; i < rows; i++) vv += a[i * p + k]! ** 2;
    if (vv > 0) {
      for (let j = k + 1; j < p; j++) {
        let dot = 0;
        for (let i = k; i < rows; i++) dot += a[i * p + k]! * a[i * p + j]!;
        const f = (2 * dot) / vv;
        for (let i = k; i < rows; i++) a[i * p + j] = a[i * p + j]! - f * a[i * p + k]!;
      }
      let dot = 0;
      for (let i = k; i < rows; i++) dot += a[i * p + k]! * rhs[i]!;
      const f = (2 * dot) / vv;
      for (let i = k; i < rows; i++) rhs[i] = rhs[i]! - f * a[i * p + k]!;
    }
    a[k * p + k] = alpha;
  }
  // Back substitution R β = Qᵀ z√w (R is the upper triangle of a; below it lie the reflectors, unused here).
  for (let k = p - 1; k >= 0; k--) {
    let s = rhs[k]!;
    for (let j = k + 1; j < p; j++) s -= a[k * p + j]! * out[j]!;
    const r = a[k * p + k]!;
    out[k] = r === 0 ? 0 : s / r;
  }
}

/** (XᵀWX)⁻¹ by Cholesky: used once per fit, for a standard error, never inside the iteration. */
function inverseInformation(x: Float64Array, w: Float64Array, rows: number, p: number): Float64Array {
  const m = new Float64Array(p * p);
  for (let i = 0; i < rows; i++) {
    const base = i * p;
    const wi = w[i]!;
    for (let r = 0; r < p; r++) {
      const xr = x[base + r]! * wi;
      if (xr === 0) continue;
      for (let c = r; c < p; c++) m[r * p + c] = m[r * p + c]! + xr * x[base + c]!;
    }
  }
  for (let r = 0; r < p; r++) for (let c = 0; c < r; c++) m[r * p + c] = m[c * p + r]!;
  // Cholesky L Lᵀ = m, then invert.
  const l = new Float64Array(p * p);
  for (let j = 0; j < p; j++) {
    let s = m[j * p + j]!;
    for (let k = 0; k < j; k++) s -= l[j * p + k]! ** 2;
    const d = Math.sqrt(Math.max(s, 0));
    l[j * p + j] = d;
    for (let i = j + 1; i < p; i++) {
      let t = m[i * p + j]!;
      for (let k = 0; k < j; k++) t -= l[i * p + k]! * l[j * p + k]!;
      l[i * p + j] = d === 0 ? 0 : t / d;
    }
  }
  const inv = new Float64Array(p * p);
  const col = new Float64Array(p);
  for (let e = 0; e < p; e++) {
    // Solve L y = e_e, then Lᵀ x = y.
    for (let i = 0; i < p; i++) {
      let s = i === e ? 1 : 0;
      for (let k = 0; k < i; k++) s -= l[i * p + k]! * col[k]!;
      col[i] = s / l[i * p + i]!;
    }
    for (let i = p - 1; i >= 0; i--) {
      let s = col[i]!;
      for (let k = i + 1; k < p; k++) s -= l[k * p + i]! * inv[k * p + e]!;
      inv[i * p + e] = s / l[i * p + i]!;
    }
  }
  return inv;
}
