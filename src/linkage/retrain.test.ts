import { describe, expect, it } from 'vitest';
import { candidatePairs } from './blocking.js';
import { RecordFeatures } from './features.js';
import { parseModel } from './model.js';
import {
  ESTIMATE_MARGIN,
  estimatedF1s,
  type LabelledPair,
  labelledF1,
  trainFromLabelledPairs,
  trainSafely,
} from './retrain.js';
import { generate } from './synth/generator.js';
import { shippedModel } from './test-fixtures.js';
import { trainModel } from './train.js';

function world(people: number) {
  const out = generate({ people, seed: 5 });
  const f = new RecordFeatures(out.records.length);
  for (const r of out.records) f.add(r.fields.record_id, r.fields);
  const person = out.records.map((r) => r.person);
  const { pairs } = candidatePairs(f);
  const decided: LabelledPair[] = [];
  for (let p = 0; p < pairs.length; p += 3) {
    const a = pairs.a[p] as number;
    const b = pairs.b[p] as number;
    decided.push({ a, b, match: person[a] === person[b] });
  }
  return { f, decided };
}

describe('training that never hurts', () => {
  it('trainFromLabelledPairs: m from the decided matches, the base as a prior, u untouched', () => {
    const { f, decided } = world(1500);
    const base = shippedModel();
    const { model, report } = trainFromLabelledPairs(f, base, decided, { now: '2026-01-01T00:00:00.000Z' });
    expect(() => parseModel(JSON.parse(JSON.stringify(model)))).not.toThrow();
    expect(model.version).toMatch(/^reviewed-[0-9a-f]{12}$/);
    expect(report.matches).toBeGreaterThan(100);
    expect(report.matches + report.nonMatches).toBe(decided.length);
    model.comparisons.forEach((c, i) => {
      c.levels.forEach((l, k) => {
        expect(l.u).toBe(base.comparisons[i]?.levels[k]?.u);
      });
    });
    // Each distribution still sums to 1 within its group; decided pairs agree on the first name.
    const first = model.comparisons.find((c) => c.name === 'first_name')!;
    const sameScript = new Set(['exact', 'variant', 'near', 'similar', 'different']);
    const shares = first.levels.filter((l) => sameScript.has(l.label)).map((l) => l.m);
    expect(shares).toHaveLength(5);
    expect(shares.reduce((s, m) => s + m, 0)).toBeCloseTo(1, 6);
    // Nothing decided: the base's m.
    const none = trainFromLabelledPairs(f, base, []);
    none.model.comparisons.forEach((c, i) => {
      c.levels.forEach((l, k) => {
        expect(l.m).toBeCloseTo(base.comparisons[i]?.levels[k]?.m as number, 5);
      });
    });
    expect(labelledF1(f, model, decided)).toBeGreaterThan(0.8);
  });

  it('trainSafely keeps the base when the decisions say it is better, and judges by them', () => {
    const { f, decided } = world(1500);
    const base = shippedModel();
    // Enough decisions: the two models are judged on them, and the better one kept.
    const { model, report } = trainSafely(f, base, { decisions: decided, randomPairs: 100_000 });
    expect(report.judgedBy).toBe('decisions');
    expect(report.f1.trained).toBeGreaterThan(0);
    expect(
      report.kept === 'trained' ? report.f1.trained >= report.f1.base : report.f1.base > report.f1.trained,
    ).toBe(true);
    expect(model === base).toBe(report.kept === 'base');
    const e = estimatedF1s(f, base, base);
    expect(e.a).toBeCloseTo(e.b, 10);
  });

  it('without decisions re-estimates only strangers’ u, and keeps a trained model only clearly ahead', () => {
    const { f } = world(800);
    const base = shippedModel();
    const { model } = trainModel(f, base, {
      randomPairs: 50_000,
      estimate: 'strangers',
      now: '2026-01-01T00:00:00.000Z',
    });
    expect(model.matchesPerRecord).toBe(base.matchesPerRecord);
    expect(model.familyLine).toEqual(base.familyLine);
    model.comparisons.forEach((c, i) => {
      c.levels.forEach((l, k) => {
        const b = base.comparisons[i]?.levels[k];
        // (a level the data never shows is neutralised: m = u, a small shift)
        expect(l.m).toBeCloseTo(b?.m as number, 2);
        if (b?.uSameFamilyName !== undefined) expect(l.uSameFamilyName).toBeCloseTo(b.uSameFamilyName, 2);
      });
    });
    // Strangers' u is the data's own: some level moved.
    const moved = model.comparisons.some((c, i) =>
      c.levels.some((l, k) => Math.abs(l.u - (base.comparisons[i]?.levels[k]?.u as number)) > 1e-6),
    );
    expect(moved).toBe(true);
    const safe = trainSafely(f, base, { randomPairs: 50_000, now: '2026-01-01T00:00:00.000Z' });
    expect(safe.report.judgedBy).toBe('estimate');
    expect(safe.report.kept).toBe(
      safe.report.f1.trained >= safe.report.f1.base + ESTIMATE_MARGIN ? 'trained' : 'base',
    );
    expect(safe.model.matchesPerRecord).toBe(base.matchesPerRecord);
  });
});
