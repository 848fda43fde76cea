import { describe, expect, it } from 'vitest';
import { logFactorial } from './math.js';
import { Rng } from './random.js';

function moments(draw: () => number, n: number): { mean: number; variance: number } {
  let s = 0;
  let s2 = 0;
  for (let i = 0; i < n; i++) {
    const x = draw();
    s += x;
    s2 += x * x;
  }
  const mean = s / n;
  return { mean, variance: s2 / n - mean * mean };
}

describe('the samplers', () => {
  const rng = new Rng('random-test');
  const n = 100_000;
  // Each mean within 5 standard errors, each variance within 5% (tolerances far outside chance at these n).
  const cases: [string, () => number, number, number][] = [
    ['binomial(10⁶, 0.3) — transformed rejection', () => rng.binomial(1e6, 0.3), 3e5, 2.1e5],
    ['binomial(50, 0.4)', () => rng.binomial(50, 0.4), 20, 12],
    ['binomial(40, 0.8) — by its complement', () => rng.binomial(40, 0.8), 32, 6.4],
    ['binomial(1000, 0.004) — inversion', () => rng.binomial(1000, 0.004), 4, 3.984],
    ['poisson(10⁵) — transformed rejection', () => rng.poisson(1e5), 1e5, 1e5],
    ['poisson(3) — multiplication', () => rng.poisson(3), 3, 3],
    ['gamma(0.3)', () => rng.gamma(0.3), 0.3, 0.3],
    ['gamma(400)', () => rng.gamma(400), 400, 400],
    ['beta(2, 5)', () => rng.beta(2, 5), 2 / 7, 10 / (49 * 8)],
    ['negative binomial(1000, 0.2)', () => rng.negativeBinomial(1000, 0.2), 4000, 20_000],
  ];
  for (const [name, draw, mean, variance] of cases) {
    it(`${name}: mean ${mean}, variance ${variance}`, () => {
      const m = moments(draw, n);
      expect(Math.abs(m.mean - mean)).toBeLessThan(5 * Math.sqrt(variance / n));
      expect(Math.abs(m.variance - variance) / variance).toBeLessThan(0.05);
    });
  }

  it('binomial(100, 0.3) follows its probability function (χ² over the cells with 5 or more expected)', () => {
    const draws = 200_000;
    const hist = new Float64Array(101);
    for (let i = 0; i < draws; i++) hist[rng.binomial(100, 0.3)]!++;
    let chi = 0;
    let cells = 0;
    for (let k = 0; k <= 100; k++) {
      const p = Math.exp(
        logFactorial(100) -
          logFactorial(k) -
          logFactorial(100 - k) +
          k * Math.log(0.3) +
          (100 - k) * Math.log(0.7),
      );
      if (draws * p < 5) continue;
      chi += (hist[k]! - draws * p) ** 2 / (draws * p);
      cells++;
    }
    // χ²(≈38) exceeds 70 with probability about 0.001.
    expect(cells).toBeGreaterThan(30);
    expect(chi).toBeLessThan(70);
  });

  it('multinomial splits its count exactly, ordered or not', () => {
    const out = new Float64Array(4);
    rng.multinomial(1000, [1, 2, 3, 4], out, [3, 2, 1, 0]);
    expect(out.reduce((s, v) => s + v, 0)).toBe(1000);
    rng.multinomial(7, [0, 1, 0, 0], out);
    expect(Array.from(out)).toEqual([0, 7, 0, 0]);
  });

  it('is deterministic per seed and independent per fork', () => {
    const a = new Rng(42);
    const b = new Rng(42);
    expect([a.uniform(), a.uniform()]).toEqual([b.uniform(), b.uniform()]);
    expect(new Rng(42).fork('x').uniform()).not.toBe(new Rng(42).fork('y').uniform());
  });
});
