/**
 * Retrains the model that ships (src/linkage/default-model.json) by EM on synthetic data, reproducibly:
 *   npx tsx scripts/train-default-model.ts [--people 100000] [--seed 1]
 * The starting values are the current file's; the result is labelled as trained on synthetic data.
 */
import fs from 'node:fs';
import { RecordFeatures } from '../src/linkage/features.js';
import { parseModel } from '../src/linkage/model.js';
import { generate } from '../src/linkage/synth/generator.js';
import { trainModel } from '../src/linkage/train.js';

const arg = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? (process.argv[at + 1] ?? fallback) : fallback;
};
const people = Number(arg('people', '100000'));
const seed = Number(arg('seed', '1'));
const file = new URL('../src/linkage/default-model.json', import.meta.url);
const base = parseModel(JSON.parse(fs.readFileSync(file, 'utf8')), file.pathname);
const { records } = generate({ people, seed });
const features = new RecordFeatures(records.length);
for (const r of records) features.add(r.fields.record_id, r.fields);
const { model, report } = trainModel(features, base, { seed, synthetic: true, versionPrefix: 'synthetic' });
model.description = `The model that ships: trained by EM on athar synth data (${people} people, seed ${seed}); retrain on your own data with athar link --train.`;
fs.writeFileSync(file, `${JSON.stringify(model, null, 2)}\n`);
process.stderr.write(`${model.version}: ${JSON.stringify(report)}\n`);
