import { describe, expect, it } from 'vitest';
import { designMatrix, estimateLoglinear, type LoglinearResult, modelName, pairsOf } from './loglinear.js';
import { type Scenario, simulateTables } from './simulate.js';
import { type StratumTable, summarise } from './tables.js';

const names = ['A', 'B', 'C', 'D', 'E', 'F'];

function table3(cells: Record<string, number>): StratumTable {
  const counts = new Float64Array(8);
  for (const [pattern, count] of Object.entries(cells)) {
    let mask = 0;
    for (let j = 0; j < 3; j++) if (pattern[j] === '1') mask |= 1 << j;
    counts[mask] = count;
  }
  return { stratum: 'all', lists: 3, counts };
}

function run(table: StratumTable, options = {}): LoglinearResult {
  const r = estimateLoglinear(table, summarise(table), names.slice(0, table.lists), options);
  if ('refusal' in r) throw new Error(r.refusal.message);
  return r;
}

/** A world whose truth is in the family: list log-odds and the given pairwise log odds ratios. */
function world(lists: number, size: number, pairs: [number, number, number][]): Scenario {
  return {
    name: 'test',
    lists,
    strata: [{ name: 'all', size }],
    capture: {
      kind: 'loglinear',
      logits: Array.from({ length: lists }, (_, j) => -1.2 - 0.15 * j),
      pairs: pairs.map(([a, b, g]) => ({ lists: [a, b] as [number, number], logOddsRatio: g })),
    },
  };
}

describe('the model family', () => {
  it('has 1 + K + (its pairs) columns and names models in the lists’ words', () => {
    expect(pairsOf(4)).toEqual([
      [0, 1],
      [0, 2],
      [0, 3],
      [1, 2],
      [1, 3],
      [2, 3],
    ]);
    const { x, rows, p } = designMatrix(4, 0b100001, true);
    expect([rows, p]).toEqual([16, 7]);
    // The last row is the unobserved cell: intercept only.
    expect(Array.from(x.subarray(15 * 7))).toEqual([1, 0, 0, 0, 0, 0, 0]);
    // Cell 1011 (lists A, B, D): A×B on, C×D off.
    const row = Array.from(x.subarray((0b1011 - 1) * 7, 0b1011 * 7));
    expect(row).toEqual([1, 1, 1, 0, 1, 1, 0]);
    expect(modelName(4, 0b100001, names).name).toBe('A×B + C×D');
    expect(modelName(4, 0, names).name).toBe('independence');
  });
});

describe('model choice', () => {
  it('BIC finds the pairwise dependence a large table was drawn with (4 lists, exhaustive)', () => {
    const { tables } = simulateTables(
      world(4, 60_000, [
        [0, 1, 0.9],
        [2, 3, -0.7],
      ]),
      'choice-4',
    );
    const r = run(tables[0]!);
    expect(r.search).toBe('exhaustive');
    expect(r.modelsFitted).toBe(64);
    expect(r.model.name).toBe('A×B + C×D');
    expect(r.why).toMatch(/^BIC [\d.]+ is the lowest of 64 models/);
    expect(r.ranking[0]!.name).toBe(r.model.name);
    expect(r.ranking[1]!.delta).toBeGreaterThan(0);
  });

  it('AIC keeps more terms than BIC on the same table, and each says what the other would choose', () => {
    let differs = 0;
    for (let seed = 0; seed < 12; seed++) {
      const { tables } = simulateTables(world(4, 3000, [[0, 1, 0.5]]), `aic-bic-${seed}`);
      const bic = run(tables[0]!, { criterion: 'bic' });
      const aic = run(tables[0]!, { criterion: 'aic' });
      expect(aic.model.parameters).toBeGreaterThanOrEqual(bic.model.parameters);
      expect(bic.otherCriterion.model).toBe(aic.model.name);
      if (aic.model.name !== bic.model.name) {
        differs++;
        expect(bic.why).toContain(`AIC would choose ${aic.model.name}`);
      } else expect(bic.why).toContain('AIC chooses the same model');
    }
    expect(differs).toBeGreaterThan(0);
  });

  it('six lists: the stepwise search recovers the true terms without fitting all 32,768 models', () => {
    const { tables } = simulateTables(
      world(6, 400_000, [
        [0, 1, 0.8],
        [2, 5, -0.6],
        [3, 4, 0.5],
      ]),
      'stepwise-6',
    );
    const r = run(tables[0]!);
    expect(r.search).toBe('stepwise');
    expect(r.modelsFitted).toBeLessThan(400);
    expect(r.model.name).toBe('A×B + C×F + D×E');
  });

  it('a pair of lists that never meet: models with their term are left out, and the reason is given', () => {
    const t = table3({ '100': 60, '010': 45, '110': 20, '001': 30, '011': 9 });
    const r = run(t);
    expect(r.modelsExcluded).toBe(4);
    expect(r.modelsFitted).toBe(4);
    expect(r.exclusions[0]).toMatch(/A×C: the two lists share no one/);
    expect(r.model.terms).not.toContain('A×C');
  });
});

describe('the estimate and its interval', () => {
  it('matches R: estimate 312.3654, profile peak 310.486, 95% interval 263.447–379.2295 (R 4.2.2, glm + optimize/uniroot)', () => {
    const t = table3({ '100': 60, '010': 45, '110': 20, '001': 30, '101': 12, '011': 9, '111': 6 });
    const r = run(t);
    expect(r.model.name).toBe('independence');
    expect(r.estimate).toBeCloseTo(312.365433004912, 8);
    expect(r.profileMaximum).toBeCloseTo(310.4863, 3);
    expect(r.interval.lower).toBeCloseTo(263.447, 2);
    expect(r.interval.upper!).toBeCloseTo(379.2295, 2);
    expect(r.standardError).toBeCloseTo(29.0001532933, 6);
  });

  it('covers the truth of a log-linear world in most of 40 independent draws (the profile interval is honest)', () => {
    let covered = 0;
    const trials = 40;
    for (let seed = 0; seed < trials; seed++) {
      const { tables, truth } = simulateTables(world(3, 4000, [[0, 1, 0.6]]), `coverage-${seed}`);
      const r = run(tables[0]!);
      const size = truth[0]!.size;
      if (r.interval.lower <= size && r.interval.upper !== null && size <= r.interval.upper) covered++;
    }
    // 95% nominal: 40 trials fall below 33 with probability under 1% if the interval is right.
    expect(covered).toBeGreaterThanOrEqual(33);
  });

  it('says when the data set no upper bound within the search, instead of inventing one', () => {
    // Large lists barely overlapping: the profile falls off so slowly that its 95% bound lies beyond 2× the estimate.
    const t = table3({ '100': 400, '010': 380, '001': 350, '110': 1, '101': 1, '011': 1 });
    const bounded = run(t);
    expect(bounded.interval.upper!).toBeGreaterThan(3 * bounded.estimate);
    const r = run(t, { upperSearchFactor: 2 });
    expect(r.interval.upper).toBeNull();
    expect(r.warnings.map((w) => w.code)).toContain('no-upper-bound');
  });

  it('refuses when one list holds everyone observed (every model puts the missing at 0)', () => {
    const t = table3({ '100': 50, '110': 20, '101': 12, '111': 6 });
    const r = estimateLoglinear(t, summarise(t), names.slice(0, 3));
    expect('refusal' in r && r.refusal.code).toBe('not-estimable');
  });
});
