import { logFactorial } from './math.js';

/**
 * Seeded random numbers for the estimation core: a uniform generator (sfc32, two outputs per 53-bit double) and the
 * distributions the simulator and the LCMCR sampler draw from. Every sampler here is exact (rejection methods, no
 * normal approximation for large counts), so a posterior or a simulation does not change character with its size;
 * and every one is deterministic for a seed, on every machine.
 */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  private spareNormal = Number.NaN;

  constructor(seed: number | string) {
    const s = typeof seed === 'number' ? mix32(seed) : hashText(seed);
    this.a = 0x9e3779b9;
    this.b = 0x243f6a88 ^ s;
    this.c = 0xb7e15162;
    this.d = s;
    for (let i = 0; i < 20; i++) this.uint32();
  }

  uint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform on (0, 1), never 0 (so a log is always finite), with 53 random bits. */
  uniform(): number {
    for (;;) {
      const hi = this.uint32() >>> 5;
      const lo = this.uint32() >>> 6;
      const u = (hi * 67108864 + lo) / 9007199254740992;
      if (u > 0) return u;
    }
  }

  /** An independent stream for a named part of a run (a chain, a stratum, a linkage sample). */
  fork(label: string | number): Rng {
    return new Rng((this.uint32() ^ hashText(String(label))) >>> 0);
  }

  /** Standard normal (polar method). */
  normal(): number {
    if (!Number.isNaN(this.spareNormal)) {
      const z = this.spareNormal;
      this.spareNormal = Number.NaN;
      return z;
    }
    for (;;) {
      const u = 2 * this.uniform() - 1;
      const v = 2 * this.uniform() - 1;
      const s = u * u + v * v;
      if (s > 0 && s < 1) {
        const f = Math.sqrt((-2 * Math.log(s)) / s);
        this.spareNormal = v * f;
        return u * f;
      }
    }
  }

  /** Gamma(shape, 1) (Marsaglia and Tsang; shape < 1 by the boost u^(1/shape)). */
  gamma(shape: number): number {
    if (shape < 1) return Math.exp(this.logGamma(shape));
    return this.gammaAtLeastOne(shape);
  }

  /**
   * log of a Gamma(shape, 1) draw. For small shapes the draw itself underflows to 0 (Gamma(0.01) is below 1e-300
   * often enough to matter), and stick-breaking weights need its log; this keeps it finite.
   */
  logGamma(shape: number): number {
    if (shape >= 1) return Math.log(this.gammaAtLeastOne(shape));
    return Math.log(this.gammaAtLeastOne(shape + 1)) + Math.log(this.uniform()) / shape;
  }

  private gammaAtLeastOne(shape: number): number {
    const d = shape - 1 / 3;
    const c = 1 / Math.sqrt(9 * d);
    for (;;) {
      let x: number;
      let v: number;
      do {
        x = this.normal();
        v = 1 + c * x;
      } while (v <= 0);
      v = v * v * v;
      const u = this.uniform();
      if (u < 1 - 0.0331 * x * x * x * x) return d * v;
      if (Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
    }
  }

  /** Beta(a, b). */
  beta(a: number, b: number): number {
    if (a >= 1 && b >= 1) {
      const x = this.gammaAtLeastOne(a);
      return x / (x + this.gammaAtLeastOne(b));
    }
    const logX = this.logGamma(a);
    const logY = this.logGamma(b);
    const m = Math.max(logX, logY);
    return Math.exp(logX - m) / (Math.exp(logX - m) + Math.exp(logY - m));
  }

  /**
   * log V and log(1 − V) of V ~ Beta(a, b) into `out[0]`, `out[1]`: both finite even when V is within 1e-300 of
   * 0 or 1 (a stick-breaking weight often is).
   */
  logBetaPair(a: number, b: number, out: Float64Array): void {
    const logX = this.logGamma(a);
    const logY = this.logGamma(b);
    const logSum = logAddExp(logX, logY);
    out[0] = logX - logSum;
    out[1] = logY - logSum;
  }

  /**
   * Poisson(mean): multiplication below 10; above, Hörmann's transformed rejection with squeeze (PTRS, 1993),
   * exact and O(1).
   */
  poisson(mean: number): number {
    if (!(mean > 0)) return 0;
    if (mean < 10) {
      const limit = Math.exp(-mean);
      let count = 0;
      let product = this.uniform();
      while (product > limit) {
        count++;
        product *= this.uniform();
      }
      return count;
    }
    const slam = Math.sqrt(mean);
    const logMean = Math.log(mean);
    const b = 0.931 + 2.53 * slam;
    const a = -0.059 + 0.02483 * b;
    const logInvAlpha = Math.log(1.1239 + 1.1328 / (b - 3.4));
    const vr = 0.9277 - 3.6224 / (b - 2);
    for (;;) {
      const u = this.uniform() - 0.5;
      const v = this.uniform();
      const us = 0.5 - Math.abs(u);
      const k = Math.floor(((2 * a) / us + b) * u + mean + 0.43);
      if (us >= 0.07 && v <= vr) return k;
      if (k < 0 || (us < 0.013 && v > us)) continue;
      if (Math.log(v) + logInvAlpha - Math.log(a / (us * us) + b) <= -mean + k * logMean - logFactorial(k))
        return k;
    }
  }

  /**
   * Binomial(n, p): inversion when n·min(p, 1−p) < 10, otherwise Hörmann's transformed rejection (BTRS, 1993),
   * exact and O(1) whatever n.
   */
  binomial(n: number, p: number): number {
    if (n <= 0 || p <= 0) return 0;
    if (p >= 1) return n;
    if (p > 0.5) return n - this.binomial(n, 1 - p);
    if (n * p < 10) return this.binomialInversion(n, p);
    const q = 1 - p;
    const spq = Math.sqrt(n * p * q);
    const b = 1.15 + 2.53 * spq;
    const a = -0.0873 + 0.0248 * b + 0.01 * p;
    const c = n * p + 0.5;
    const alpha = (2.83 + 5.1 / b) * spq;
    const vr = 0.92 - 4.2 / b;
    const r = p / q;
    const m = Math.floor((n + 1) * p);
    const h = (m + 0.5) * Math.log((m + 1) / (r * (n - m + 1))) + stirlingTail(m) + stirlingTail(n - m);
    for (;;) {
      const u = this.uniform() - 0.5;
      let v = this.uniform();
      const us = 0.5 - Math.abs(u);
      const k = Math.floor(((2 * a) / us + b) * u + c);
      if (k < 0 || k > n) continue;
      if (us >= 0.07 && v <= vr) return k;
      v = Math.log((v * alpha) / (a / (us * us) + b));
      const bound =
        h +
        (n + 1) * Math.log((n - m + 1) / (n - k + 1)) +
        (k + 0.5) * Math.log((r * (n - k + 1)) / (k + 1)) -
        stirlingTail(k) -
        stirlingTail(n - k);
      if (v <= bound) return k;
    }
  }

  private binomialInversion(n: number, p: number): number {
    if (n <= 0 || p <= 0) return 0;
    const q = 1 - p;
    const ratio = p / q;
    let f = Math.exp(n * Math.log1p(-p));
    if (f === 0) {
      // Only reachable for enormous n with tiny p (the mean stays under 16): count Bernoulli gaps instead.
      return this.binomialByGaps(n, p);
    }
    let u = this.uniform();
    let k = 0;
    while (u > f) {
      u -= f;
      f *= (ratio * (n - k)) / (k + 1);
      k++;
      if (k > n) return n;
    }
    return k;
  }

  /** Binomial by geometric gaps between successes: O(n·p) draws. */
  private binomialByGaps(n: number, p: number): number {
    const logQ = Math.log1p(-p);
    let position = 0;
    let count = 0;
    for (;;) {
      position += Math.floor(Math.log(this.uniform()) / logQ) + 1;
      if (position > n) return count;
      count++;
    }
  }

  /** Negative binomial: failures before `successes` successes, each trial succeeding with `p` (Gamma–Poisson). */
  negativeBinomial(successes: number, p: number): number {
    if (p >= 1) return 0;
    if (p <= 0) return Number.POSITIVE_INFINITY;
    return this.poisson(this.gamma(successes) * ((1 - p) / p));
  }

  /**
   * Multinomial(n, weights) into `out` (weights need not sum to 1). Small n by repeated categorical draws, larger
   * by conditional binomials, taken in the order `order[orderAt…]` when given (heaviest first: the count is used
   * up sooner).
   */
  multinomial(
    n: number,
    weights: ArrayLike<number>,
    out: Float64Array | Int32Array,
    order?: ArrayLike<number>,
    orderAt = 0,
  ): void {
    const k = weights.length;
    let total = 0;
    for (let i = 0; i < k; i++) {
      out[i] = 0;
      total += weights[i] as number;
    }
    if (n <= 0 || !(total > 0)) return;
    if (n <= 24) {
      for (let draw = 0; draw < n; draw++) {
        let x = this.uniform() * total;
        let i = 0;
        for (; i < k - 1; i++) {
          x -= weights[i] as number;
          if (x < 0) break;
        }
        out[i] = (out[i] as number) + 1;
      }
      return;
    }
    let remaining = n;
    let mass = total;
    for (let step = 0; step < k - 1 && remaining > 0; step++) {
      const i = order ? (order[orderAt + step] as number) : step;
      const w = weights[i] as number;
      const c = w >= mass ? remaining : this.binomial(remaining, w / mass);
      out[i] = c;
      remaining -= c;
      mass -= w;
    }
    if (remaining > 0) {
      const last = order ? (order[orderAt + k - 1] as number) : k - 1;
      out[last] = (out[last] as number) + remaining;
    }
  }
}

/** log k! − [½·log 2π + (k + ½)·log(k + 1) − (k + 1)]: Stirling's error at k + 1, as BTRS needs it. */
function stirlingTail(k: number): number {
  if (k < 10) return stirlingTailTable[k]!;
  const kp1 = k + 1;
  const kp1sq = kp1 * kp1;
  return (1 / 12 - (1 / 360 - 1 / 1260 / kp1sq) / kp1sq) / kp1;
}

const stirlingTailTable = Array.from(
  { length: 10 },
  (_, k) => logFactorial(k) - (0.5 * Math.log(2 * Math.PI) + (k + 0.5) * Math.log(k + 1) - (k + 1)),
);

export function logAddExp(a: number, b: number): number {
  if (a === Number.NEGATIVE_INFINITY) return b;
  if (b === Number.NEGATIVE_INFINITY) return a;
  return a > b ? a + Math.log1p(Math.exp(b - a)) : b + Math.log1p(Math.exp(a - b));
}

function mix32(x: number): number {
  let h = (Math.floor(x) ^ 0x5bd1e995) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** FNV-1a over UTF-16 code units. */
export function hashText(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
