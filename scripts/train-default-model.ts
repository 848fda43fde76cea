/**
 * Retrains the model that ships (src/linkage/default-model.json) by EM on synthetic data, reproducibly:
 *   npx tsx scripts/train-default-model.ts [--people 100000] [--seed 1] [--split-later]
 * The starting values are the current file's; the result is labelled as trained on synthetic data. With
 * --split-later only the levels the file lacks (comparisons.ts `later`) and the levels they were part of change: the
 * latter's m and u are shared out between the two as EM finds them — how the near levels (out of similar) and
 * within_two_years (out of different) got their values without moving the weights the other levels had been
 * measured with. With --floor-variants nothing is trained: the file's variant levels are raised to their floor
 * (model.ts floorVariants, which training applies too) and every other value is kept.
 */
import fs from 'node:fs';
import { comparisons } from '../src/linkage/comparisons.js';
import { RecordFeatures } from '../src/linkage/features.js';
import { floorVariants, modelVersion, parseModel } from '../src/linkage/model.js';
import { generate } from '../src/linkage/synth/generator.js';
import { trainModel } from '../src/linkage/train.js';

const arg = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? (process.argv[at + 1] ?? fallback) : fallback;
};
const people = Number(arg('people', '100000'));
const seed = Number(arg('seed', '1'));
const file = new URL('../src/linkage/default-model.json', import.meta.url);
const raw: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
const base = parseModel(raw, file.pathname);
// Keys in the file's own order, so that a diff of the file shows only what changed.
const write = (model: object) => {
  const order = [...new Set([...Object.keys(raw as object), ...Object.keys(model)])];
  const values = model as Record<string, unknown>;
  fs.writeFileSync(
    file,
    `${JSON.stringify(Object.fromEntries(order.map((k) => [k, values[k]])), null, 2)}\n`,
  );
};
// What the file says of itself: training floors the variant levels too (trainModel).
const floored = 'a variant spelling weighed at least as the weaker of exact and cross-script agreement';
if (process.argv.includes('--floor-variants')) {
  const { version: _, ...kept } = base;
  kept.comparisons = floorVariants(base.comparisons);
  if (kept.description && !kept.description.includes(floored))
    kept.description = kept.description.replace('; retrain', `, ${floored}; retrain`);
  const version = modelVersion(kept, 'synthetic');
  write({ ...kept, version });
  process.stderr.write(`${version}: variant levels floored, nothing trained\n`);
  process.exit(0);
}
const { records } = generate({ people, seed });
const features = new RecordFeatures(records.length);
for (const r of records) features.add(r.fields.record_id, r.fields);
const trained = trainModel(features, base, { seed, synthetic: true, versionPrefix: 'synthetic' });
const { report } = trained;
let model = trained.model;
if (process.argv.includes('--split-later')) {
  // Each later level the file lacks (comparisons.ts `later`: near, within_two_years) is shared out of the level it was
  // part of as EM finds the two on the data, m and each u alike; every other level keeps the file's values, and each
  // group still sums to 1.
  const rawComparisons = (raw as { comparisons?: { levels?: { label?: string }[] }[] }).comparisons ?? [];
  const { version: _, ...kept } = base;
  kept.comparisons = base.comparisons.map((c, i) => {
    const levels = c.levels.map((l) => ({ ...l }));
    const inFile = new Set((rawComparisons[i]?.levels ?? []).map((l) => l.label));
    const at = (label: string) => levels.find((l) => l.label === label);
    const est = (label: string) => trained.model.comparisons[i]?.levels.find((l) => l.label === label);
    for (const [added, from] of comparisons[i]?.later ?? []) {
      const n = at(added);
      const s = at(from);
      const en = est(added);
      const es = est(from);
      if (!n || !s || !en || !es || inFile.has(added)) continue;
      for (const key of ['m', 'u', 'uSameFamilyName', 'uWithinFamily'] as const) {
        const total = s[key];
        const share = (en[key] ?? 0) / ((en[key] ?? 0) + (es[key] ?? 0));
        if (total === undefined || !(share >= 0)) continue;
        n[key] = total * share;
        s[key] = total * (1 - share);
      }
    }
    return { ...c, levels };
  });
  model = { ...kept, version: modelVersion(kept, 'synthetic') };
}
model.description = `The model that ships: trained by EM on athar synth data (${people} people, seed ${seed}), ${floored}; retrain on your own data with athar link --train.`;
write(model);
process.stderr.write(`${model.version}: ${JSON.stringify(report)}\n`);
