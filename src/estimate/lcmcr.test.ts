import { describe, expect, it } from 'vitest';
import { effectiveSampleSize, estimateLcmcr, splitRHat } from './lcmcr.js';
import { Rng } from './random.js';
import { type Scenario, simulateTables } from './simulate.js';
import { summarise } from './tables.js';

const twoClasses: Scenario = {
  name: 'lcmcr-test',
  lists: 5,
  strata: [{ name: 'all', size: 3000 }],
  capture: {
    kind: 'classes',
    classes: [
      { share: 0.3, probabilities: [0.6, 0.5, 0.55, 0.6, 0.45] },
      { share: 0.7, probabilities: [0.12, 0.15, 0.1, 0.14, 0.12] },
    ],
  },
};

describe('LCMCR', () => {
  const { tables, truth } = simulateTables(twoClasses, 'lcmcr-recovers');
  const table = tables[0]!;
  const summary = summarise(table);
  const options = { seed: 11, burnIn: 3000, samples: 400, thinning: 25 };

  it('recovers a simulated total within its interval where the log-linear models’ independence fails (seed 11)', () => {
    const r = estimateLcmcr(table, summary, options);
    const size = truth[0]!.size;
    expect(summary.observed).toBeLessThan(size);
    expect(r.interval.lower).toBeLessThanOrEqual(size);
    expect(r.interval.upper).toBeGreaterThanOrEqual(size);
    expect(r.estimate).toBeGreaterThan(summary.observed);
    expect(r.draws).toHaveLength(2 * 400);
    expect(r.convergence.rHat).toBeLessThan(1.1);
    expect(r.why).toContain('2 chains × (3000 burn-in + 400 × 25)');
    expect(r.priors).toBe('K* = 10, α ~ Gamma(0.25, 0.25), λ ~ Beta(1, 1), p(N) ∝ 1/N');
  });

  it('is deterministic for a seed, and a different seed gives different draws', () => {
    const small = { ...options, burnIn: 200, samples: 50, thinning: 2 };
    const a = estimateLcmcr(table, summary, small);
    const b = estimateLcmcr(table, summary, small);
    const c = estimateLcmcr(table, summary, { ...small, seed: 12 });
    expect(Array.from(a.draws)).toEqual(Array.from(b.draws));
    expect(Array.from(a.draws)).not.toEqual(Array.from(c.draws));
  });

  it('never draws fewer than the observed, and warns when the chains are too short to trust', () => {
    const r = estimateLcmcr(table, summary, { seed: 3, burnIn: 0, samples: 20, thinning: 1 });
    for (const n of r.draws) expect(n).toBeGreaterThanOrEqual(summary.observed);
    expect(r.warnings.map((w) => w.code)).toContain('not-converged');
  });
});

describe('convergence diagnostics', () => {
  it('split-R̂ is near 1 for independent draws and large for chains stuck apart; ESS falls with autocorrelation', () => {
    const rng = new Rng(5);
    const iid = () => Float64Array.from({ length: 2000 }, () => rng.normal());
    expect(splitRHat([iid(), iid()])).toBeLessThan(1.01);
    const shifted = iid().map((v) => v + 3);
    expect(splitRHat([iid(), shifted])).toBeGreaterThan(1.5);
    expect(effectiveSampleSize(iid())).toBeGreaterThan(1500);
    // An AR(1) chain with φ = 0.9 has τ = (1 + φ)/(1 − φ) = 19.
    const ar = new Float64Array(20_000);
    for (let i = 1; i < ar.length; i++) ar[i] = 0.9 * ar[i - 1]! + rng.normal();
    const ess = effectiveSampleSize(ar);
    expect(ess).toBeGreaterThan(20_000 / 30);
    expect(ess).toBeLessThan(20_000 / 12);
  });
});
