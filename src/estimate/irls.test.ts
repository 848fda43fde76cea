import { describe, expect, it } from 'vitest';
import { fitPoisson, poissonDeviance } from './irls.js';
import { fitModel } from './loglinear.js';
import type { StratumTable } from './tables.js';

/** A 3-list table from pattern strings ("110" = on lists A and B, not C). */
function table3(cells: Record<string, number>): StratumTable {
  const counts = new Float64Array(8);
  for (const [pattern, count] of Object.entries(cells)) {
    let mask = 0;
    for (let j = 0; j < 3; j++) if (pattern[j] === '1') mask |= 1 << j;
    counts[mask] = count;
  }
  return { stratum: 'all', lists: 3, counts };
}

const cells = { '100': 60, '010': 45, '110': 20, '001': 30, '101': 12, '011': 9, '111': 6 };

describe('IRLS on tables whose answers are known by hand', () => {
  it('two lists, independence: the unobserved cell is Lincoln–Petersen’s n10·n01/n11', () => {
    // Cells 10, 01, 11 with design (1, a, b): the model is saturated on three cells.
    const x = Float64Array.from([1, 1, 0, 1, 0, 1, 1, 1, 1]);
    const y = Float64Array.from([70, 50, 25]);
    const fit = fitPoisson(x, y, 3);
    expect(fit.converged).toBe(true);
    expect(Math.exp(fit.beta[0]!)).toBeCloseTo((70 * 50) / 25, 9);
    expect(fit.deviance).toBeLessThan(1e-9);
  });

  it('three lists, all pairwise terms: n000 = n111·n100·n010·n001 / (n110·n101·n011)', () => {
    const t = table3(cells);
    const { missing, fit } = fitModel(t, 0b111);
    expect(fit.converged).toBe(true);
    expect(missing).toBeCloseTo((6 * 60 * 45 * 30) / (20 * 12 * 9), 8);
  });

  it('three lists, only A×B: C is independent of (A, B), so n000 = n001 · Σ n_ab0 / Σ n_ab1 over ab ≠ 00', () => {
    const t = table3(cells);
    const { missing } = fitModel(t, 0b001);
    const theta = (60 + 45 + 20) / (12 + 9 + 6);
    expect(missing).toBeCloseTo(30 * theta, 8);
  });

  it('three lists, independence: the fitted margins equal the observed margins (the likelihood equations)', () => {
    const t = table3(cells);
    const { fit } = fitModel(t, 0);
    const y = t.counts.subarray(1);
    const margin = (values: ArrayLike<number>, list: number) => {
      let s = 0;
      for (let mask = 1; mask < 8; mask++) if (mask & (1 << list)) s += values[mask - 1] as number;
      return s;
    };
    let fittedTotal = 0;
    let observedTotal = 0;
    for (let i = 0; i < 7; i++) {
      fittedTotal += fit.mu[i]!;
      observedTotal += y[i]!;
    }
    expect(fittedTotal).toBeCloseTo(observedTotal, 8);
    for (let list = 0; list < 3; list++) expect(margin(fit.mu, list)).toBeCloseTo(margin(y, list), 8);
    // Deviance and AIC as R reports them for this table (glm, then AIC(); R 4.2.2).
    expect(fit.deviance).toBeCloseTo(0.6837825228579761, 9);
    expect(fit.aic).toBeCloseTo(42.40127, 4);
    expect(fit.deviance).toBeCloseTo(poissonDeviance(y, fit.mu), 12);
  });

  it('converges to the same fit from a poor start (step halving), and reports it converged', () => {
    const t = table3(cells);
    const good = fitModel(t, 0b011);
    const poor = fitModel(t, 0b011, Float64Array.from([12, -9, 8, -7, 5, 5]));
    expect(poor.fit.converged).toBe(true);
    expect(poor.missing).toBeCloseTo(good.missing, 8);
  });

  it('a term resting on empty cells sends the fit to the boundary, and the fit says so', () => {
    // A and C never meet (cells 101 and 111 empty): the A×C term runs to −∞, as in R ("fitted rates numerically 0").
    const t = table3({ ...cells, '101': 0, '111': 0 });
    const { fit } = fitModel(t, 0b010);
    expect(fit.beta[4]!).toBeLessThan(-10);
    expect(fit.boundary).toBe(true);
    expect(fitModel(t, 0b001).fit.boundary).toBe(false);
  });

  it('returns (XᵀWX)⁻¹ when asked: the intercept variance matches R’s vcov for the independence model', () => {
    const t = table3(cells);
    const { fit } = fitModel(t, 0, undefined, true);
    const v = fit.covariance![0]!;
    // vcov(glm(y ~ A + B + C, family = poisson))[1, 1] in R 4.2.2, and Rcapture's standard error of N.
    expect(v).toBeCloseTo(0.0418144953, 9);
    const m = Math.exp(fit.beta[0]!);
    expect(Math.sqrt(m + m * m * v)).toBeCloseTo(29.0001532933, 6);
  });
});
