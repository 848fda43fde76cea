/** Special functions the estimators need, written for the ranges they are used on. */

const logFactorialTable = (() => {
  const t = new Float64Array(256);
  for (let i = 2; i < 256; i++) t[i] = t[i - 1]! + Math.log(i);
  return t;
})();

/** log(x!) for x ≥ 0 (not necessarily whole: the profile likelihood asks for it at fractional counts). */
export function logFactorial(x: number): number {
  if (Number.isInteger(x) && x < 256) return logFactorialTable[x]!;
  return logGamma(x + 1);
}

/** log Γ(x) for x > 0 (Lanczos, g = 7, n = 9; relative error near 1e-15). */
export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
  const xm = x - 1;
  let s = lanczos[0]!;
  const t = xm + 7.5;
  for (let i = 1; i < 9; i++) s += lanczos[i]! / (xm + i);
  return 0.5 * Math.log(2 * Math.PI) + (xm + 0.5) * Math.log(t) - t + Math.log(s);
}

const lanczos = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

/**
 * log(x!) − (x·log x − x), the part of Stirling's formula that stays small. Differences of log-factorials of
 * large counts cancel almost entirely; written through this remainder they keep their digits.
 */
export function stirlingRemainder(x: number): number {
  if (x <= 0) return 0;
  if (x < 16) return logFactorial(x) - (x * Math.log(x) - x);
  const inv = 1 / x;
  const inv2 = inv * inv;
  return (
    0.5 * Math.log(2 * Math.PI * x) +
    inv * (1 / 12 - inv2 * (1 / 360 - inv2 * (1 / 1260 - inv2 * (1 / 1680 - inv2 / 1188))))
  );
}

/** The standard normal quantile (Acklam's rational approximation, refined by one Halley step). */
export function normalQuantile(p: number): number {
  if (p <= 0) return Number.NEGATIVE_INFINITY;
  if (p >= 1) return Number.POSITIVE_INFINITY;
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716,
    2.506628277459239,
  ];
  const b = [
    -54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572,
  ];
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const low = 0.02425;
  let x: number;
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p));
    x =
      (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) /
      ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1);
  } else if (p <= 1 - low) {
    const q = p - 0.5;
    const r = q * q;
    x =
      ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) /
      (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1);
  } else {
    const q = Math.sqrt(-2 * Math.log(1 - p));
    x =
      -(((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) /
      ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1);
  }
  const e = normalCdf(x) - p;
  const u = e * Math.sqrt(2 * Math.PI) * Math.exp((x * x) / 2);
  return x - u / (1 + (x * u) / 2);
}

/** The standard normal distribution function. */
export function normalCdf(x: number): number {
  return 0.5 * erfc(-x / Math.SQRT2);
}

/** erfc with relative error below 1.2e-7 everywhere (the Chebyshev fit of Numerical Recipes' erfcc): enough for
 * interval levels and mixture quantiles, which are read to three or four digits. */
export function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 +
                            t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

/** The chi-square(1) quantile: the square of a normal quantile. */
export function chiSquare1Quantile(p: number): number {
  const z = normalQuantile(0.5 + p / 2);
  return z * z;
}

/**
 * Quantile of sorted values by R's default rule (type 7: linear interpolation between order statistics), so a
 * posterior interval reads the same as `quantile(N, c(0.025, 0.5, 0.975))` in R.
 */
export function quantileSorted(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(n - 1, lo + 1);
  return (sorted[lo] as number) + (h - lo) * ((sorted[hi] as number) - (sorted[lo] as number));
}
