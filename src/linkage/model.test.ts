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
