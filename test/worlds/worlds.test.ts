import { describe, expect, it } from 'vitest';
import { beyondDoubtWeight, listsNamingOnce } from '../../src/linkage/clustering.js';
import { RecordFeatures } from '../../src/linkage/features.js';
import { linkFeatures } from '../../src/linkage/link.js';
import { MatchIndex } from '../../src/linkage/match-index.js';
import { CompiledModel } from '../../src/linkage/model.js';
import { readModelFile } from '../../src/services/batch/linkage-model-file.js';
import { commissionWorld } from './commission.js';
import { diasporaWorld } from './diaspora.js';
import { evaluateWorld, reliabilityOf } from './evaluate.js';
import { labelled } from './index.js';
import { registriesWorld } from './registries.js';
import { bit, ceilingOf, worldLabel } from './world.js';

describe('test worlds', () => {
  for (const [name, make] of [
    ['diaspora', diasporaWorld],
    ['registries', registriesWorld],
    ['commission', commissionWorld],
  ] as const) {
    it(`${name}: deterministic for a seed, labelled synthetic, a ceiling below 1`, () => {
      const a = make(400, 3);
      const b = make(400, 3);
      expect(a.records.map((r) => r.fields)).toEqual(b.records.map((r) => r.fields));
      expect(make(400, 4).records.map((r) => r.fields)).not.toEqual(a.records.map((r) => r.fields));
      expect(a.records.every((r) => r.fields.notes === worldLabel)).toBe(true);
      expect(new Set(a.records.map((r) => r.person)).size).toBe(400);
      const c = ceilingOf(a);
      expect(c.truePairs).toBeGreaterThan(50);
      expect(c.recall).toBeGreaterThan(0.5);
      expect(c.recall).toBeLessThanOrEqual(1);
      expect(c.f1).toBeCloseTo((2 * c.recall) / (1 + c.recall), 10);
    });
  }

  it('diaspora writes Latin lists in several habits and Arabic reports', () => {
    const w = diasporaWorld(2000, 1);
    const sources = new Set(w.records.map((r) => r.fields.source.replace(/-\d+$/, '')));
    expect([...sources].sort()).toEqual(
      expect.arrayContaining([
        'world-a-camp-tr',
        'world-a-commission-fr',
        'world-a-ngo-de',
        'world-a-press-en',
      ]),
    );
    const text = w.records.map((r) => Object.values(r.fields).join('|')).join('\n');
    expect(text).toMatch(/\bAl-[A-Z]/);
    expect(text).toMatch(/\bEl[- ][A-Z]/);
    expect(text).toMatch(/ (bin|ibn) /);
    expect(text).toMatch(/[٠-٩]{4}/);
    expect(text).toMatch(/ş/);
  });

  it('registries carry Persian letters, tatweel and OCR slips', () => {
    const text = registriesWorld(2000, 1)
      .records.map((r) => Object.values(r.fields).join('|'))
      .join('\n');
    expect(text).toMatch(/[یک]/);
    expect(text).toMatch(/ـ/);
  });

  it('commission merges Arabic reports and registers, a forensic list and Latin lists, with their habits', () => {
    const w = commissionWorld(3000, 5);
    const perPerson = w.records.length / w.people.length;
    expect(perPerson).toBeGreaterThan(1.6);
    expect(perPerson).toBeLessThan(2);
    expect(ceilingOf(w).recall).toBeLessThan(1); // namesakes, twins and nameless rows fit several people
    const latin = w.records.filter((r) => /ngo|league|un-/.test(r.fields.source));
    const latinText = latin.map((r) => Object.values(r.fields).join('|')).join('\n');
    expect(latin.some((r) => /^Al[a-z]{3,}$/.test(r.fields.family_name ?? ''))).toBe(true); // Al glued
    expect(latinText).toMatch(/\bAl-[A-Z]/);
    expect(latinText).toMatch(/\bEl-[A-Z]/);
    expect(latinText).toMatch(/ (bin|ibn) /);
    expect(latinText).toMatch(/\b(Abdul|Abdel)[a-z]/);
    expect(latin.some((r) => /^[A-Z-]{3,}( [A-Z-]+)* [A-Z][a-z]/.test(r.fields.full_name ?? ''))).toBe(true); // FAMILY First
    const text = w.records.map((r) => Object.values(r.fields).join('|')).join('\n');
    expect(text).toMatch(/[٠-٩]{4}/);
    expect(text).toMatch(/[یک]/);
    expect(text).toMatch(/ـ/);
    // A kunya for the first name, and a woman under her husband's family name: written, but not carried.
    const first = bit('first');
    const family = bit('family');
    expect(
      w.records.some(
        (r) =>
          /^(أبو|ابو|Abu|Abou|Abo) /.test(r.fields.first_name ?? r.fields.full_name ?? '') &&
          !(r.carries & first),
      ),
    ).toBe(true);
    expect(
      w.records.some((r) => w.people[r.person]?.[5] === 'f' && r.fields.family_name && !(r.carries & family)),
    ).toBe(true);
    // A forensic row with no name at all; a register written family-first.
    const forensic = w.records.filter((r) => r.fields.source === 'world-c-forensic');
    expect(
      forensic.some((r) => !r.fields.full_name && !r.fields.first_name && r.fields.detainee_number),
    ).toBe(true);
    expect(
      w.records.some(
        (r) =>
          r.fields.source.startsWith('world-c-register-') &&
          r.fields.full_name?.split(' ')[0] === w.people[r.person]?.[3],
      ),
    ).toBe(true);
    // The same person twice in one list.
    const seen = new Set<string>();
    expect(
      w.records.some((r) => {
        const k = `${r.person}|${r.fields.source}`;
        if (seen.has(k)) return true;
        seen.add(k);
        return false;
      }),
    ).toBe(true);
  });

  it('reliability: a perfectly calibrated list has no error', () => {
    const p = [0.05, 0.05, 0.95, 0.95];
    expect(reliabilityOf(p, [0, 0, 1, 1]).ece).toBeCloseTo(0.05, 10);
    expect(reliabilityOf([0, 1], [0, 1]).ece).toBe(0);
  });

  it('evaluates a small world with the shipped model', async () => {
    const model = new CompiledModel(readModelFile());
    const fig = await evaluateWorld(labelled(registriesWorld(600, 2)), model, { matchQueries: 50 });
    expect(fig.f1).toBeGreaterThan(0.7);
    expect(fig.pairCompleteness).toBeGreaterThan(0.8);
    expect(fig.matchTop10).toBeGreaterThan(0.8);
    expect(fig.baselineF1).toBeLessThan(fig.f1);
    // No nameless records in this world: the two completeness figures are one.
    expect(fig.pairCompletenessNamed).toBe(fig.pairCompleteness);
  });

  it("judges which lists name each person once in the match index as a linking run does (the tracing loop's guard)", async () => {
    const model = new CompiledModel(readModelFile());
    const world = labelled(commissionWorld(5000, 4));
    const f = new RecordFeatures(world.records.length);
    for (const r of world.records) f.add(r.fields.record_id, r.fields);
    const link = await linkFeatures(f, model);
    const run = listsNamingOnce(
      f,
      link.candidates.pairs.a,
      link.candidates.pairs.b,
      link.weights,
      link.candidates.pairs.length,
      beyondDoubtWeight(link.priorWeight),
      [],
    );
    // Every record of every list read.
    const index = MatchIndex.fromFeatures(model, f, { listSample: Number.POSITIVE_INFINITY });
    const sources = new Set(Array.from(f.source.subarray(0, f.size)));
    const verdicts = await index.judgeLists(sources);
    const judged = [...sources].filter((s) => verdicts.get(s));
    expect(new Set(judged)).toEqual(new Set(run));
    // Some of the world's lists name each person once; others hold pairs of their own that are one person beyond doubt.
    expect(judged.length).toBeGreaterThan(0);
    expect(judged.length).toBeLessThan(sources.size);
    // A longer list is judged by a stride sample of its records (the default, 256: nine of the twenty lists, of
    // 264 to 3,423 records, sampled here): the same verdicts.
    const sampled = await MatchIndex.fromFeatures(model, f).judgeLists(sources);
    expect(new Set([...sources].filter((s) => sampled.get(s)))).toEqual(new Set(run));
  });

  it('counts pair completeness among named records apart (world C has nameless forensic lines)', async () => {
    const model = new CompiledModel(readModelFile());
    const fig = await evaluateWorld(labelled(commissionWorld(800, 3)), model);
    expect(fig.pairCompletenessNamed).toBeGreaterThan(fig.pairCompleteness);
    expect(fig.pairCompletenessNamed).toBeLessThanOrEqual(1);
  });
});
