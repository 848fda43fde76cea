import { describe, expect, it } from 'vitest';
import { CompiledModel, floorVariants, type LinkageModel, ModelError, parseModel } from './model.js';
import { shippedModel } from './test-fixtures.js';

describe('the model file', () => {
  it('ships a valid model with a version', () => {
    const model = shippedModel();
    expect(model.version).toMatch(/\S/);
    const compiled = new CompiledModel(model);
    expect(compiled.priorWeight(1_000_000)).toBeLessThan(compiled.priorWeight(1000));
  });

  it('reads a model file written before the later levels as it was: near weighs as similar did, within two years as different', () => {
    const older = structuredClone(shippedModel());
    for (const c of older.comparisons) c.levels = c.levels.filter((l) => !l.label.endsWith('near'));
    const family = parseModel(older).comparisons[0]!;
    const at = (label: string) => family.levels.find((l) => l.label === label);
    expect(at('near')).toEqual({ ...at('similar'), label: 'near' });
    expect(at('transliteration_near')).toEqual({
      ...at('transliteration_similar'),
      label: 'transliteration_near',
    });
    // The shipped file's near levels are its own, not copies.
    const shipped = shippedModel().comparisons[0]!;
    expect(shipped.levels.find((l) => l.label === 'near')?.m).not.toBe(
      shipped.levels.find((l) => l.label === 'similar')?.m,
    );
    // The event dates' within_two_years, likewise a copy of different.
    const arrest = parseModel(older).comparisons.find((c) => c.name === 'arrest_date')!;
    const olderArrest = structuredClone(shippedModel());
    for (const c of olderArrest.comparisons)
      c.levels = c.levels.filter((l) => l.label !== 'within_two_years');
    const read = parseModel(olderArrest).comparisons.find((c) => c.name === 'arrest_date')!;
    const of = (levels: typeof read.levels, label: string) => levels.find((l) => l.label === label);
    expect(of(read.levels, 'within_two_years')).toEqual({
      ...of(read.levels, 'different'),
      label: 'within_two_years',
    });
    expect(of(arrest.levels, 'within_two_years')?.m).not.toBe(of(arrest.levels, 'different')?.m);
    // A file with one of the two is not an older file: refused.
    const half = structuredClone(shippedModel());
    half.comparisons[0]!.levels = half.comparisons[0]!.levels.filter((l) => l.label !== 'near');
    expect(() => parseModel(half)).toThrow(/family_name levels must be/);
  });

  it('names the field that is wrong', () => {
    const model = structuredClone(shippedModel());
    model.comparisons[0]!.levels[0]!.m = 2;
    expect(() => parseModel(model, 'm.json')).toThrow(/m\.json: comparisons\.0\.levels\.0\.m/);
    const reordered = structuredClone(shippedModel());
    reordered.comparisons.reverse();
    expect(() => parseModel(reordered)).toThrow(ModelError);
    const relabelled = structuredClone(shippedModel());
    relabelled.comparisons[5]!.levels[0]!.label = 'identical';
    expect(() => parseModel(relabelled)).toThrow(/sex levels must be same, different/);
  });

  it('weighs a variant spelling within one script at least as the weaker of exact and cross-script agreement', () => {
    const weight = (l: { m: number; u: number }) => Math.log2(l.m / l.u);
    const names = ['first_name', 'father_name', 'grandfather_name', 'family_name'];
    const holds = (comparisons: LinkageModel['comparisons']) => {
      for (const name of names) {
        const c = comparisons.find((x) => x.name === name)!;
        const at = (label: string) => c.levels.find((l) => l.label === label)!;
        expect(weight(at('variant')), name).toBeGreaterThanOrEqual(
          Math.min(weight(at('exact')), weight(at('transliteration'))) - 1e-9,
        );
        const sameScript = ['exact', 'variant', 'near', 'similar', 'different'];
        expect(
          sameScript.reduce((sum, label) => sum + at(label).m, 0),
          name,
        ).toBeCloseTo(1, 6);
      }
    };
    // The file that ships holds the floor (scripts/train-default-model.ts --floor-variants).
    holds(shippedModel().comparisons);

    // A model under the floor: its family variant weighing 5 bits under exact agreement.
    const under = structuredClone(shippedModel());
    const family = under.comparisons.find((c) => c.name === 'family_name')!;
    const level = (comparisons: LinkageModel['comparisons'], name: string, label: string) =>
      comparisons.find((c) => c.name === name)!.levels.find((l) => l.label === label)!;
    const exact = level(under.comparisons, 'family_name', 'exact');
    const variant = level(under.comparisons, 'family_name', 'variant');
    const lowered = (variant.u * exact.m) / exact.u / 32;
    exact.m += variant.m - lowered;
    variant.m = lowered;
    const sum = exact.m + variant.m;
    const floored = floorVariants(under.comparisons);
    holds(floored);
    const raised = level(floored, 'family_name', 'variant');
    expect(raised.m).toBeGreaterThan(variant.m * 20);
    // Taken from exact agreement: the two hold what they held; u and every other level are as they were.
    expect(raised.m + level(floored, 'family_name', 'exact').m).toBeCloseTo(sum, 12);
    expect(raised.u).toBe(variant.u);
    for (const label of ['similar', 'different', 'near', 'transliteration', 'transliteration_similar'])
      expect(level(floored, 'family_name', label)).toEqual(level(under.comparisons, 'family_name', label));
    expect(floored.find((c) => c.name === 'sex')).toEqual(under.comparisons.find((c) => c.name === 'sex'));
    // The input is not changed, and a model that holds the floor comes back as it was.
    expect(family.levels.find((l) => l.label === 'variant')!.m).toBe(variant.m);
    expect(floorVariants(shippedModel().comparisons)).toEqual(shippedModel().comparisons);
    // Never more than half of exact agreement's m moves: a name that all but never agrees stays so.
    const rare = structuredClone(under.comparisons);
    const rareExact = level(rare, 'family_name', 'exact');
    rareExact.m = 0.001;
    const moved =
      level(floorVariants(rare), 'family_name', 'variant').m - level(rare, 'family_name', 'variant').m;
    expect(moved).toBeLessThanOrEqual(0.0005 + 1e-15);
  });
});
