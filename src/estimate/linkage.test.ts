import { describe, expect, it } from 'vitest';
import { estimateFromHistories, type MethodEstimate } from './estimate.js';
import { type LinkageRecord, samplePersonSets } from './linkage.js';
import { simulatePeople } from './simulate.js';

describe('person sets sampled from the linkage', () => {
  const records: LinkageRecord[] = [
    { id: 'a1', list: 0, stratum: 'Homs' },
    { id: 'b1', list: 1, stratum: 'Homs' },
    { id: 'c1', list: 2, stratum: 'Hama' },
    { id: 'a2', list: 0, stratum: 'Homs' },
  ];

  it('a confirmed match always links, a rejected pair never does, and a probability links that often', () => {
    const sets = samplePersonSets(
      records,
      [
        { a: 'a1', b: 'b1', probability: 0.1, decision: 'match' },
        { a: 'b1', b: 'c1', probability: 0.99, decision: 'non-match' },
        { a: 'a2', b: 'c1', probability: 0.3 },
      ],
      { samples: 2000, seed: 1 },
    );
    let linked = 0;
    for (const people of sets) {
      expect(people.some((p) => p.mask === 0b011 && p.stratum === 'Homs')).toBe(true);
      expect(people.some((p) => p.mask === 0b110 || p.mask === 0b111)).toBe(false);
      if (people.some((p) => p.mask === 0b101)) linked++;
    }
    expect(linked / sets.length).toBeGreaterThan(0.26);
    expect(linked / sets.length).toBeLessThan(0.34);
  });

  it('a person’s stratum is the one most of their records give', () => {
    const sets = samplePersonSets(
      records,
      [
        { a: 'a1', b: 'c1', probability: 1 },
        { a: 'c1', b: 'a2', probability: 1 },
      ],
      { samples: 1, seed: 1 },
    );
    expect(sets[0]).toContainEqual({ mask: 0b101, stratum: 'Homs' });
  });

  it('names a pair that points at no record, and a probability outside 0…1', () => {
    expect(() =>
      samplePersonSets(records, [{ a: 'a1', b: 'zz', probability: 0.5 }], { samples: 1, seed: 1 }),
    ).toThrow(/names record zz/);
    expect(() =>
      samplePersonSets(records, [{ a: 'a1', b: 'b1', probability: 1.5 }], { samples: 1, seed: 1 }),
    ).toThrow(/outside 0…1/);
  });

  it('uncertain links widen the estimate’s interval to hold the linkage’s doubt (both methods)', () => {
    // A SYNTHETIC world: people on 3 lists; each person's records on several lists are joined by a pair the linkage
    // gives probability 0.8, and 2% of records by a false pair to a stranger at probability 0.2.
    const { histories } = simulatePeople(
      {
        name: 'linkage',
        lists: 3,
        strata: [{ name: 'all', size: 3000 }],
        capture: { kind: 'loglinear', logits: [-0.9, -1.1, -1.3] },
      },
      'linkage-world',
    );
    const recs: LinkageRecord[] = [];
    const pairs: { a: string; b: string; probability: number }[] = [];
    histories.forEach((h, person) => {
      const mine: string[] = [];
      for (let j = 0; j < 3; j++) {
        if (!(h.mask & (1 << j))) continue;
        const id = `p${person}-l${j}`;
        recs.push({ id, list: j });
        mine.push(id);
      }
      for (let i = 1; i < mine.length; i++) pairs.push({ a: mine[0]!, b: mine[i]!, probability: 0.8 });
    });
    for (let i = 0; i + 50 < recs.length; i += 50)
      pairs.push({ a: recs[i]!.id, b: recs[i + 50]!.id, probability: 0.2 });
    const lists = ['A', 'B', 'C'];
    const samples = samplePersonSets(recs, pairs, { samples: 20, seed: 3 });
    const options = { lcmcr: { burnIn: 500, samples: 100, thinning: 5 } };
    const certain = estimateFromHistories({ lists, histories }, options).strata[0]!;
    const uncertain = estimateFromHistories({ lists, linkageSamples: samples }, options).strata[0]!;
    for (const method of ['loglinear', 'lcmcr'] as const) {
      const a = certain[method] as MethodEstimate;
      const b = uncertain[method] as MethodEstimate;
      expect(b.linkage?.samples).toBe(20);
      expect(b.interval.upper! - b.interval.lower).toBeGreaterThan(a.interval.upper! - a.interval.lower);
    }
    expect(uncertain.observedRange!.max).toBeGreaterThan(uncertain.observedRange!.min);
  });
});
