import { describe, expect, it } from 'vitest';
import { CompiledModel, ModelError, parseModel } from './model.js';
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
});
