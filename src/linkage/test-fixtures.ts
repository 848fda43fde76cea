import fs from 'node:fs';
import type { PersonRecordFields } from '../domain/person-record.js';
import { RecordFeatures } from './features.js';
import { CompiledModel, type LinkageModel, parseModel } from './model.js';

/** The model that ships, read for tests (the core does no I/O; the test fixture may). */
export function shippedModel(): LinkageModel {
  return parseModel(JSON.parse(fs.readFileSync(new URL('./default-model.json', import.meta.url), 'utf8')));
}

export function compiledShippedModel(): CompiledModel {
  return new CompiledModel(shippedModel());
}

/** Features of a few records given by their fields; ids r0, r1, … */
export function featuresOf(rows: PersonRecordFields[]): RecordFeatures {
  const f = new RecordFeatures(16);
  rows.forEach((fields, i) => {
    f.add(`r${i}`, fields);
  });
  return f;
}
