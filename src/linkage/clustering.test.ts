import { describe, expect, it } from 'vitest';
import {
  type ClusterOptions,
  clusterPairs,
  disagree,
  listsNamingOnce,
  type PairScore,
  pairKey,
} from './clustering.js';
import { comparisons } from './comparisons.js';
import { Scorer } from './scorer.js';
import { TermFrequencies } from './term-frequencies.js';
import { compiledShippedModel, featuresOf } from './test-fixtures.js';

/** Scores from a table (pairs not listed are neutral). */
function table(weights: Record<string, number>): PairScore {
  return { score: (a, b) => weights[`${Math.min(a, b)}-${Math.max(a, b)}`] ?? 0 };
}

/** Pairs' weights and their fields' weights (NaN: a side does not say), from a table. */
function fieldsTable(pairs: Record<string, { weight: number; fields: number[] }>): PairScore {
  let last: number[] = [];
  return {
    score(x, y) {
      const pair = pairs[`${Math.min(x, y)}-${Math.max(x, y)}`] ?? { weight: 0, fields: [] };
      last = pair.fields;
      return pair.weight;
    },
    lastFieldWeights(out) {
      out.fill(Number.NaN);
      last.forEach((v, c) => {
        out[c] = v;
      });
    },
  };
}

function cluster(
  rows: Parameters<typeof featuresOf>[0],
  links: [number, number, number][],
  weights: Record<string, number>,
  extra: Partial<ClusterOptions> = {},
) {
  const f = featuresOf(rows);
  const a = Int32Array.from(links, (l) => l[0]);
  const b = Int32Array.from(links, (l) => l[1]);
  const w = Float32Array.from(links, (l) => l[2]);
  return clusterPairs(f, a, b, w, links.length, table(weights), {
    thresholdWeight: 10,
    guardWeight: -5,
    ...extra,
  });
}

describe('guarded clustering', () => {
  const named = (n: number) => Array.from({ length: n }, (_, i) => ({ first_name: `n${i}` }));
  /** Two lines of one registry with different detainee numbers, and a family's report between them. */
  const twoLinesAndAReport = [
    { first_name: 'a', source: 'registry-235', detainee_number: '100' },
    { first_name: 'a', source: 'family' },
    { first_name: 'a', source: 'registry-235', detainee_number: '200' },
  ];

  it('merges records linked above the threshold, strongest first, and names clusters by their first record', () => {
    const { clusterOf, stats } = cluster(
      named(4),
      [
        [0, 1, 20],
        [2, 3, 12],
        [1, 3, 5],
      ],
      {},
    );
    expect(Array.from(clusterOf)).toEqual([0, 0, 2, 2]);
    expect(stats).toMatchObject({ links: 2, merges: 2, clusters: 2, largestCluster: 2 });
  });

  it('does not let a chain of links join two records that are clearly different people', () => {
    // 0–1 and 1–2 link, but 0 and 2 disagree (weight −20): 2 stays out.
    const { clusterOf, stats } = cluster(
      named(3),
      [
        [0, 1, 15],
        [1, 2, 14],
      ],
      { '0-1': 15, '1-2': 14, '0-2': -20 },
    );
    expect(clusterOf[0]).toBe(clusterOf[1]);
    expect(clusterOf[2]).not.toBe(clusterOf[0]);
    expect(stats.refusedClearlyDifferent).toBe(1);
  });

  it('lets a pair that only lacks evidence pass the guard, but not one that disagrees', () => {
    // 0–1 and 1–2 link; 0–2 is weak (−8) in both runs: bare (nothing against) it passes, disagreeing it stops.
    const run = (against: number) => {
      let last = 0;
      const scorer: PairScore = {
        score(x, y) {
          const key = `${Math.min(x, y)}-${Math.max(x, y)}`;
          last = key === '0-2' ? against : 0;
          return ({ '0-1': 15, '1-2': 14, '0-2': -8 } as Record<string, number>)[key] ?? 0;
        },
        lastDisagreement: () => last,
      };
      const f = featuresOf(named(3));
      return clusterPairs(
        f,
        Int32Array.from([0, 1]),
        Int32Array.from([1, 2]),
        Float32Array.from([15, 14]),
        2,
        scorer,
        {
          thresholdWeight: 10,
          guardWeight: -5,
          minDisagreement: 1,
        },
      );
    };
    expect(new Set(run(0).clusterOf).size).toBe(1);
    const split = run(-3);
    expect(split.clusterOf[2]).not.toBe(split.clusterOf[0]);
    expect(split.stats.refusedClearlyDifferent).toBe(1);
  });

  it('never puts two lines of one registry with different detainee numbers in one cluster', () => {
    const rows = twoLinesAndAReport;
    const { clusterOf, stats } = cluster(
      rows,
      [
        [0, 1, 30],
        [1, 2, 25],
      ],
      {},
    );
    expect(clusterOf[0]).toBe(clusterOf[1]);
    expect(clusterOf[2]).toBe(2);
    expect(stats.refusedRegistryConflict).toBe(1);
  });

  it('never joins a death to an arrest more than two years after it, and allows a year misread on each side', () => {
    const rows = [
      { first_name: 'a', death_date: '2012-03-01' },
      { first_name: 'a' },
      { first_name: 'a', arrest_date: '2014-05' },
      { first_name: 'b', death_date: '2013-07' },
      { first_name: 'b', arrest_date: '2015-06-30' },
    ];
    // 0 and 2 meet only through the bare record 1: the chain holds no pair the guard's scores call different.
    const { clusterOf, stats } = cluster(
      rows,
      [
        [0, 1, 30],
        [1, 2, 25],
        [3, 4, 20],
      ],
      {},
    );
    expect(clusterOf[1]).toBe(clusterOf[0]);
    expect(clusterOf[2]).toBe(2);
    expect(stats.refusedChronology).toBe(1);
    // Died in July 2013 (up to its last day), arrested on 30 June 2015: within two years, one person.
    expect(clusterOf[4]).toBe(clusterOf[3]);
  });

  it('leaves on its own a record that fits two people the guard kept apart about equally', () => {
    const rows = twoLinesAndAReport;
    // The family's record links to both registry lines, 30 and 29.7 bits: either would be a guess.
    const { clusterOf, stats } = cluster(
      rows,
      [
        [0, 1, 30],
        [1, 2, 29.7],
      ],
      {},
    );
    expect(new Set(clusterOf).size).toBe(3);
    expect(stats).toMatchObject({ ambiguous: 1, clusters: 3, refusedRegistryConflict: 1 });
    // Over half a bit apart (odds beyond √2), the stronger link holds.
    const clear = cluster(
      rows,
      [
        [0, 1, 30],
        [1, 2, 29.3],
      ],
      {},
    );
    expect(Array.from(clear.clusterOf)).toEqual([0, 0, 2]);
    expect(clear.stats.ambiguous).toBe(0);
    // Records people put together stay together, however ambiguous.
    const kept = cluster(
      rows,
      [
        [0, 1, 30],
        [1, 2, 29.5],
      ],
      {},
      { mustLink: [[0, 1]] },
    );
    expect(kept.clusterOf[1]).toBe(kept.clusterOf[0]);
  });

  it("counts a link as ambiguous only into a cluster that could be the record's person", () => {
    // A hospital's row, dead in June 2015, links as strongly to a man arrested in 2013 and to his namesake arrested
    // in March 2016 (within the chronology guard's two years, so the link is refused by the registry, not dates).
    const dates = cluster(
      [
        { first_name: 'a', source: 'registry-235', detainee_number: '100', arrest_date: '2013-01-10' },
        { first_name: 'a', source: 'hospital', death_date: '2015-06-16' },
        { first_name: 'a', source: 'registry-235', detainee_number: '200', arrest_date: '2016-03-01' },
      ],
      [
        [0, 1, 30],
        [1, 2, 29.9],
      ],
      {},
    );
    expect(Array.from(dates.clusterOf)).toEqual([0, 0, 2]);
    expect(dates.stats.ambiguous).toBe(0);
    // A press list's row fits two namesakes; one of them already has his line in that list (record 3).
    const namesakes = [
      { first_name: 'a', source: 'registry-235', detainee_number: '100' },
      { first_name: 'a', source: 'press-list' },
      { first_name: 'a', source: 'registry-235', detainee_number: '200' },
      { first_name: 'a', source: 'press-list' },
    ];
    const links: [number, number, number][] = [
      [2, 3, 31],
      [0, 1, 30],
      [1, 2, 29.9],
    ];
    const lists = cluster(namesakes, links, {});
    expect(Array.from(lists.clusterOf)).toEqual([0, 0, 2, 2]);
    expect(lists.stats.ambiguous).toBe(0);
    // When its own cluster holds another row of that list too (record 4), the list says nothing: ambiguous again.
    const both = cluster(
      [...namesakes, { first_name: 'a', source: 'press-list' }],
      [[0, 4, 31], ...links],
      {},
    );
    expect(both.clusterOf[1]).toBe(1);
    expect(both.stats.ambiguous).toBe(1);
  });

  it('keeps an ambiguous record in its cluster when that cluster agrees with it more on average', () => {
    // The family's row links to both registry lines about equally (30, 29.7), but the other record of line 100's
    // cluster (3) agrees with it too (25), while the other record of line 200's (4) disagrees (−10): means 27.5
    // against 9.85, over three bits apart.
    const rows = [
      ...twoLinesAndAReport,
      { first_name: 'a', source: 'notices' },
      { first_name: 'a', source: 'press' },
    ];
    const pairs = (against: number): [number, number, number][] => [
      [0, 3, 31],
      [2, 4, 31],
      [0, 1, 30],
      [1, 2, 29.7],
      [1, 3, 25],
      [1, 4, against],
    ];
    const agreed = cluster(rows, pairs(-10), {});
    expect(Array.from(agreed.clusterOf)).toEqual([0, 0, 2, 0, 2]);
    expect(agreed.stats.ambiguous).toBe(0);
    // Line 200's other record agrees about as well (24: means 27.5 and 26.85): a guess again, left on its own.
    const even = cluster(rows, pairs(24), {});
    expect(even.clusterOf[1]).toBe(1);
    expect(even.stats.ambiguous).toBe(1);
    // Without the test (0), only the strongest links count: on its own.
    const off = cluster(rows, pairs(-10), {}, { ambiguitySupportBits: 0 });
    expect(off.clusterOf[1]).toBe(1);
  });

  it('of links of equal weight, takes first the one whose records are in order', () => {
    // Synthetic: two namesakes the guard keeps apart, one taken in 2017, one in 2014; a hospital list's bare row of
    // the name says he died in May 2016, and links to each alike (the 2017 link listed first).
    const { clusterOf } = cluster(
      [
        { full_name: 'محمد محمود سبين', arrest_date: '2017-06-03' },
        { full_name: 'محمد محمود سبين', arrest_date: '2014-09-21' },
        { full_name: 'محمد محمود سبين', death_date: '2016-05-17' },
      ],
      [
        [0, 2, 15],
        [1, 2, 15],
      ],
      { '0-1': -10 },
    );
    // He joins the man taken before he died, and stays: the other could not be him (taken after his death).
    expect(clusterOf[2]).toBe(clusterOf[1]);
    expect(clusterOf[2]).not.toBe(clusterOf[0]);
  });

  it('never puts two records of a list that names each person once in one cluster, but for a pair beyond doubt', () => {
    // Synthetic: a hospital list names two namesakes, each by his name and date of death; a family's report of one
    // of them links to both, to the first a little more strongly.
    const rows = [
      { full_name: 'محمد عمر العظمة', death_date: '2019-10-22', source: 'hospital' },
      { full_name: 'محمد عمر العظمة', death_date: '2021-05-23', source: 'hospital' },
      { first_name: 'محمد', father_name: 'عمر', family_name: 'العظمة', source: 'family' },
    ];
    const links: [number, number, number][] = [
      [0, 2, 16],
      [1, 2, 15],
    ];
    const apart = cluster(rows, links, {}, { duplicateWeight: 20 });
    expect(apart.clusterOf[2]).toBe(apart.clusterOf[0]);
    expect(apart.clusterOf[1]).not.toBe(apart.clusterOf[0]);
    expect(apart.stats.refusedSameList).toBe(1);
    // Without the rule the report chains the two into one.
    expect(cluster(rows, links, {}).stats.clusters).toBe(1);
    // Two rows of the list that are one person beyond doubt (its rare duplicate) still join.
    const duplicate = cluster(rows, [...links, [0, 1, 25]], { '0-1': 25 }, { duplicateWeight: 20 });
    expect(duplicate.stats.clusters).toBe(1);
  });

  it('takes a list to name each person once unless its own pairs show someone twice', () => {
    // Synthetic: a register of twenty lines, none one person beyond doubt with another; a family's reports, one of
    // whose pairs is (a relative reported twice); a camp's roll, two of whose lines a reviewer put together.
    const rows = [
      ...Array.from({ length: 20 }, (_, k) => ({ full_name: `سطر ${k}`, source: 'register' })),
      ...Array.from({ length: 20 }, (_, k) => ({ full_name: `بلاغ ${k}`, source: 'family' })),
      ...Array.from({ length: 20 }, (_, k) => ({ full_name: `سجل ${k}`, source: 'camp' })),
    ];
    const f = featuresOf(rows);
    const a = Int32Array.of(0, 20, 40);
    const b = Int32Array.of(1, 21, 41);
    const w = Float32Array.of(12, 25, 12);
    const once = listsNamingOnce(f, a, b, w, 3, 20, [[40, 41]]);
    const source = (i: number) => f.source[i] as number;
    expect([...once]).toEqual([source(0)]);
    expect(once.has(source(20))).toBe(false);
    expect(once.has(source(40))).toBe(false);
  });

  it("keeps a reviewer's rejected pair apart, even through a third record", () => {
    const { clusterOf, stats } = cluster(
      named(3),
      [
        [0, 1, 30],
        [1, 2, 30],
      ],
      {},
      { cannotLink: new Set([pairKey(0, 2)]) },
    );
    expect(clusterOf[2]).not.toBe(clusterOf[0]);
    expect(stats.refusedRejected).toBe(1);
  });
});

describe('disagree: two groups of records as two people', () => {
  const options = { guardWeight: -5, minDisagreement: 1, tolerance: 2.5 };
  // Fields: 0 father's name, 1 first name, 2 arrest date.

  it('takes a field one record of a group reads otherwise (an OCR slip) as noise when another record agrees', () => {
    // 0 and 1 are one man (1 read his father محمود as حمود); 2 is the family's report with محمود.
    const scorer = fieldsTable({
      '0-2': { weight: 20, fields: [4.5, 8, 1.9] },
      '1-2': { weight: -8, fields: [-5.6, 8, Number.NaN] },
    });
    expect(disagree([0, 1], [2], scorer, options)).toBe(false);
  });

  it('takes one agreeing pair among more against as a slip, not noise', () => {
    // 0 is Mahmood of a Latin list; 1, 2 and 3 are another man: محمد, a scanned محمذ (a slip of محمد that reads
    // near Mahmood) and Muhammad. Only the slip agrees with 0's first name; the two others are against it.
    const scorer = fieldsTable({
      '0-1': { weight: -3, fields: [Number.NaN, -5.9, Number.NaN] },
      '0-2': { weight: 14, fields: [Number.NaN, 3.8, Number.NaN] },
      '0-3': { weight: -7, fields: [Number.NaN, -5.9, Number.NaN] },
    });
    expect(disagree([0], [1, 2, 3], scorer, options)).toBe(true);
    // With the slip and one record against, it is noise (as the OCR slip above).
    expect(disagree([0], [1, 2], scorer, options)).toBe(false);
  });

  it('keeps brothers apart: their first names differ on every pair that has both', () => {
    // 0 is Ahmad, 1 a bare row (family and father only) that met him; 2 is his brother Mohammad.
    const scorer = fieldsTable({
      '0-2': { weight: -9, fields: [4.5, -5.9, Number.NaN] },
      '1-2': { weight: 12, fields: [4.5, Number.NaN, Number.NaN] },
    });
    expect(disagree([0, 1], [2], scorer, options)).toBe(true);
  });

  it('counts nothing milder than the tolerance, and nothing in a pair at or above the guard', () => {
    const mild = fieldsTable({ '0-1': { weight: -8, fields: [Number.NaN, Number.NaN, -1.7] } });
    expect(disagree([0], [1], mild, options)).toBe(false);
    const strong = fieldsTable({ '0-1': { weight: 6, fields: [-5.6, 8, 10] } });
    expect(disagree([0], [1], strong, options)).toBe(false);
    const alone = fieldsTable({ '0-1': { weight: -8, fields: [-5.6, 8, Number.NaN] } });
    expect(disagree([0], [1], alone, options)).toBe(true);
  });
});

describe("a woman's family names", () => {
  it("never make two people of her by themselves: her father's family name in one list, her husband's in another", () => {
    const familyAt = comparisons.findIndex((c) => c.name === 'family_name');
    const fields = (family: number) => {
      const out = [8, 4.5, 6];
      out[familyAt] = family;
      return out;
    };
    // 0 and 1: a register and her family's report (her father's family name); 2: a commission's list (her husband's).
    const pairs = {
      '0-1': { weight: 20, fields: fields(7) },
      '0-2': { weight: 15, fields: fields(-6) },
      '1-2': { weight: -8, fields: fields(-6) },
    };
    const scorer = fieldsTable(pairs);
    const run = (sex: string | undefined, name = ['نور', 'نور', 'Nour'], lastSex?: string) => {
      const f = featuresOf([
        { first_name: name[0], ...(sex ? { sex } : {}) },
        { first_name: name[1] },
        { first_name: name[2], ...(lastSex ? { sex: lastSex } : {}) },
      ]);
      const links = [
        [0, 1, 20],
        [0, 2, 15],
      ];
      const a = Int32Array.from(links, (l) => l[0] as number);
      const b = Int32Array.from(links, (l) => l[1] as number);
      const w = Float32Array.from(links, (l) => l[2] as number);
      return clusterPairs(f, a, b, w, 2, scorer, {
        thresholdWeight: 10,
        guardWeight: -5,
        minDisagreement: 1,
        tolerance: 2.5,
      }).clusterOf;
    };
    expect(Array.from(run('أنثى'))).toEqual([0, 0, 0]);
    // A first name listed as a woman's only says so as well, in either script.
    expect(Array.from(run(undefined, ['زينب', 'زينب', 'Zaynab']))).toEqual([0, 0, 0]);
    // Not known to be a woman (نور is a man's name too), or said to be a man: the family names count against the merge.
    expect(Array.from(run(undefined))).toEqual([0, 0, 2]);
    expect(Array.from(run('ذكر'))).toEqual([0, 0, 2]);
    // A woman by her first name, but the other list says this one is a man: as the scorer reads a woman's pair
    // (womanPair), the family names count.
    expect(Array.from(run(undefined, ['زينب', 'زينب', 'Zaynab'], 'male'))).toEqual([0, 0, 2]);
  });
});

describe('a circumstance never makes two people by itself', () => {
  it('leaves the arresting branch out of the evidence against a pair (transfers between branches)', () => {
    const f = featuresOf([
      {
        first_name: 'نور',
        father_name: 'عمر',
        family_name: 'الخلف',
        arresting_branch: 'Branch 248',
        birth_year: '1993',
      },
      {
        first_name: 'نور',
        father_name: 'عمر',
        family_name: 'الخلف',
        arresting_branch: 'Branch 261',
        birth_year: '1990',
      },
    ]);
    const scorer = new Scorer(f, compiledShippedModel(), TermFrequencies.of(f));
    scorer.score(0, 1);
    const levels = scorer.lastLevels();
    const branchAt = comparisons.findIndex((c) => c.name === 'arresting_branch');
    const birthAt = comparisons.findIndex((c) => c.name === 'birth_date');
    expect(comparisons[branchAt]?.levels[levels[branchAt] as number]).toBe('different');
    const fields = new Float64Array(16);
    scorer.lastFieldWeights(fields);
    expect(fields[branchAt]).toBeNaN();
    expect(fields[birthAt]).toBeLessThan(-2.5);
    // The birth years disagree beyond tolerance; the branches are not counted.
    expect(scorer.lastDisagreement(2.5)).toBeCloseTo(fields[birthAt] as number, 6);
  });

  it('leaves the date of death out of the evidence against a pair (a civil registry records a date of its own)', () => {
    const f = featuresOf([
      { first_name: 'ياسر', father_name: 'علي', family_name: 'المصري', death_date: '2012-10-03' },
      { first_name: 'ياسر', father_name: 'علي', family_name: 'المصري', death_date: '2015-05-05' },
    ]);
    const scorer = new Scorer(f, compiledShippedModel(), TermFrequencies.of(f));
    const weight = scorer.score(0, 1);
    const deathAt = comparisons.findIndex((c) => c.name === 'death_date');
    expect(comparisons[deathAt]?.levels[scorer.lastLevels()[deathAt] as number]).toBe('different');
    const fields = new Float64Array(16);
    scorer.lastFieldWeights(fields);
    expect(fields[deathAt]).toBeNaN();
    expect(scorer.lastDisagreement(2)).toBe(0);
    // It still weighs in the score: the same pair with one date of death scores higher.
    const g = featuresOf([
      { first_name: 'ياسر', father_name: 'علي', family_name: 'المصري', death_date: '2012-10-03' },
      { first_name: 'ياسر', father_name: 'علي', family_name: 'المصري', death_date: '2012-10-03' },
    ]);
    expect(new Scorer(g, compiledShippedModel(), TermFrequencies.of(g)).score(0, 1)).toBeGreaterThan(
      weight + 5,
    );
  });
});
