import { describe, expect, it } from 'vitest';
import { CompiledModel } from '../../src/linkage/model.js';
import { readModelFile } from '../../src/services/batch/linkage-model-file.js';
import { diasporaWorld } from './diaspora.js';
import { evaluateWorld, reliabilityOf } from './evaluate.js';
import { labelled } from './index.js';
import { registriesWorld } from './registries.js';
import { ceilingOf, worldLabel } from './world.js';

describe('test worlds', () => {
  for (const [name, make] of [
    ['diaspora', diasporaWorld],
    ['registries', registriesWorld],
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
  });
});
