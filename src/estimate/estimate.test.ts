import { describe, expect, it } from 'vitest';
import { estimateFromHistories, type MethodEstimate } from './estimate.js';
import { simulatePeople, strataOf } from './simulate.js';
import { type CaptureHistory, EstimateInputError, tally } from './tables.js';

const lists = ['A', 'B', 'C'];

/** Histories from pattern strings ("110" = on A and B) with counts. */
function people(cells: Record<string, number>, stratum?: string): CaptureHistory[] {
  return Object.entries(cells).map(([pattern, count]) => {
    let mask = 0;
    for (let j = 0; j < pattern.length; j++) if (pattern[j] === '1') mask |= 1 << j;
    return stratum === undefined ? { mask, count } : { mask, count, stratum };
  });
}

const healthy = { '100': 60, '010': 45, '110': 20, '001': 30, '101': 12, '011': 9, '111': 6 };
const quickLcmcr = { burnIn: 500, samples: 200, thinning: 5 };

describe('refusals: no number, never a made-up one', () => {
  it('fewer than three lists', () => {
    const r = estimateFromHistories({ lists: ['A', 'B'], histories: people({ '10': 5, '01': 4, '11': 3 }) });
    expect(r.refusal?.code).toBe('too-few-lists');
    expect(r.refusal?.message).toMatch(/at least three lists \(got 2\)/);
    expect(r.strata).toEqual([]);
  });

  it('a list with no records at all', () => {
    const r = estimateFromHistories({ lists, histories: people({ '100': 5, '010': 4, '110': 3 }) });
    expect(r.refusal?.code).toBe('empty-list');
    expect(r.refusal?.message).toMatch(/list C has no records/);
    expect(r.strata).toEqual([]);
  });

  it('a stratum with no overlaps, and a stratum where one list has no one, while the others are estimated', () => {
    const r = estimateFromHistories(
      {
        lists,
        histories: [
          ...people(healthy, 'Homs'),
          ...people({ '100': 40, '010': 30, '001': 20 }, 'Hama'),
          ...people({ '100': 40, '010': 30, '110': 5 }, 'Idlib'),
        ],
      },
      { method: 'loglinear' },
    );
    const [homs, hama, idlib] = r.strata;
    expect(homs!.refusal).toBeUndefined();
    expect((homs!.loglinear as MethodEstimate).estimate).toBeGreaterThan(homs!.observed);
    expect(hama!.refusal?.code).toBe('no-overlaps');
    expect(hama!.loglinear).toBeUndefined();
    expect(hama!.observed).toBe(90);
    expect(idlib!.refusal?.code).toBe('empty-list');
    expect(idlib!.refusal?.message).toMatch(/list C has no records in this stratum/);
    // And so the total has no number either.
    expect(r.total?.loglinear && 'refusal' in r.total.loglinear).toBe(true);
  });

  it('malformed histories are an input error naming the history', () => {
    expect(() => tally(3, [{ mask: 0 }])).toThrow(/history 1 is on no list/);
    expect(() => tally(3, [{ mask: 1 }, { mask: 9 }])).toThrow(/history 2 has list mask 9, outside 1…7/);
    expect(() => tally(3, [{ mask: 1, count: 1.5 }])).toThrow(EstimateInputError);
    expect(() => estimateFromHistories({ lists: ['A', 'A', 'B'], histories: [] })).toThrow(/distinct/);
  });
});

describe('warnings', () => {
  const warn = (cells: Record<string, number>) =>
    estimateFromHistories(
      { lists, histories: people(cells) },
      { method: 'loglinear' },
    ).strata[0]!.warnings.map((w) => w.code);

  it('too few overlaps', () => {
    expect(warn({ '100': 300, '010': 200, '001': 250, '110': 3, '101': 8, '011': 7, '111': 1 })).toContain(
      'few-overlaps',
    );
    expect(
      warn({ '100': 300, '010': 200, '001': 250, '110': 40, '101': 38, '011': 30, '111': 9 }),
    ).not.toContain('few-overlaps');
  });

  it('a list that is a subset of another, naming both', () => {
    const r = estimateFromHistories(
      { lists, histories: people({ '100': 60, '010': 45, '110': 20, '011': 9, '111': 6 }) },
      { method: 'loglinear' },
    );
    const subset = r.strata[0]!.warnings.find((w) => w.code === 'subset');
    expect(subset?.message).toMatch(/list C is a subset of list B/);
  });

  it('sparse cells', () => {
    expect(warn({ '100': 60, '010': 45, '110': 20, '001': 30, '101': 12, '011': 9 })).toContain(
      'sparse-cells',
    );
    expect(warn(healthy)).not.toContain('sparse-cells');
  });

  it('a list that holds everyone: warned, and the log-linear method refuses while LCMCR still answers', () => {
    const r = estimateFromHistories(
      { lists, histories: people({ '100': 50, '110': 20, '101': 12, '111': 6 }) },
      { lcmcr: quickLcmcr },
    );
    const s = r.strata[0]!;
    expect(s.warnings.map((w) => w.code)).toContain('contains-all');
    expect(s.loglinear && 'refusal' in s.loglinear && s.loglinear.refusal.code).toBe('not-estimable');
    expect(s.lcmcr && 'estimate' in s.lcmcr).toBe(true);
  });
});

describe('estimateFromHistories', () => {
  it('estimates each stratum and the total; both methods; deterministic for a seed', () => {
    const { histories, truth } = simulatePeople(
      {
        name: 't',
        lists: 4,
        strata: strataOf(12_000, 3, 'gov'),
        capture: {
          kind: 'loglinear',
          logits: [-1, -1.2, -1.4, -1.1],
          pairs: [{ lists: [0, 1], logOddsRatio: 0.8 }],
        },
      },
      'estimate-strata',
    );
    const input = { lists: ['A', 'B', 'C', 'D'], histories };
    const r = estimateFromHistories(input, { seed: 7, lcmcr: quickLcmcr });
    expect(r.strata.map((s) => s.stratum)).toEqual(['gov 01', 'gov 02', 'gov 03']);
    for (const s of r.strata) {
      const ll = s.loglinear as MethodEstimate;
      const lc = s.lcmcr as MethodEstimate;
      expect(ll.model).toContain('A×B');
      expect(ll.interval.lower).toBeLessThan(ll.estimate);
      expect(ll.interval.upper!).toBeGreaterThan(ll.estimate);
      expect(lc.interval.lower).toBeLessThanOrEqual(lc.estimate);
      expect(lc.draws).toBeUndefined();
      const size = truth.find((t) => t.stratum === s.stratum)!.size;
      expect(Math.abs(ll.estimate - size) / size).toBeLessThan(0.15);
    }
    const total = r.total!.loglinear as { estimate: number; interval: { lower: number; upper: number } };
    const sum = r.strata.reduce((acc, s) => acc + (s.loglinear as MethodEstimate).estimate, 0);
    expect(total.estimate).toBeCloseTo(sum, 6);
    expect(total.interval.lower).toBeLessThan(sum);
    const again = estimateFromHistories(input, { seed: 7, lcmcr: quickLcmcr });
    expect(JSON.stringify(again)).toBe(JSON.stringify(r));
    const other = estimateFromHistories(input, { seed: 8, lcmcr: quickLcmcr, method: 'lcmcr' });
    expect((other.strata[0]!.lcmcr as MethodEstimate).interval).not.toEqual(
      (r.strata[0]!.lcmcr as MethodEstimate).interval,
    );
  });

  it('a stratum’s numbers do not depend on which other strata are in the input', () => {
    const alone = estimateFromHistories({ lists, histories: people(healthy, 'Homs') }, { lcmcr: quickLcmcr });
    const together = estimateFromHistories(
      { lists, histories: [...people(healthy, 'Aleppo'), ...people(healthy, 'Homs')] },
      { lcmcr: quickLcmcr },
    );
    expect(together.strata[1]!.lcmcr).toEqual(alone.strata[0]!.lcmcr);
  });

  it('with several linkage samples, mixes them: the interval spans the samples’ spread', () => {
    const samples = [
      people(healthy),
      people({ ...healthy, '110': 14, '100': 66, '010': 51 }),
      people({ ...healthy, '110': 26, '100': 54, '010': 39 }),
    ];
    const single = estimateFromHistories({ lists, histories: samples[0]! }, { method: 'loglinear' });
    const mixed = estimateFromHistories({ lists, linkageSamples: samples }, { method: 'loglinear' });
    const one = single.strata[0]!.loglinear as MethodEstimate;
    const many = mixed.strata[0]!.loglinear as MethodEstimate;
    expect(mixed.linkageSamples).toBe(3);
    expect(many.linkage?.samples).toBe(3);
    expect(many.linkage!.widening!).toBeGreaterThan(1);
    expect(many.interval.upper! - many.interval.lower).toBeGreaterThan(
      one.interval.upper! - one.interval.lower,
    );
    expect(many.interval.lower).toBeLessThanOrEqual(many.linkage!.estimates.min);
    expect(many.interval.upper!).toBeGreaterThanOrEqual(many.linkage!.estimates.max);
  });
});
