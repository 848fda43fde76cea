/**
 * Linkage on independent test worlds (test/worlds/: A "diaspora & commission lists", B "scanned & typed
 * registries", C "commission merge") and on athar synth, with the shipped model: F1 beside each world's ceiling (F1 at precision 1),
 * pair completeness, candidates per record, guard refusals of true links, calibration error, precision at the
 * tracing loop's thresholds, interactive match top 10, and the exact-name baseline. Judged by the worst world.
 * In-process (the library's linkFeatures, one thread). Sizes: 20k people, 100k with `--large`, 550k (about 1M
 * records) with `--million`; `--quick`: 3k people. `BENCH_WORLDS_SEED` picks the seed (default 1, the reported one).
 */
import { CompiledModel } from '../../src/linkage/model.js';
import { readModelFile } from '../../src/services/batch/linkage-model-file.js';
import { tracingPolicy } from '../../src/services/tracing/policy.js';
import { evaluateWorld, type WorldFigures } from '../../test/worlds/evaluate.js';
import { makeWorld, worldNames } from '../../test/worlds/index.js';
import { type BenchRow, quick, report } from '../harness.js';

const large = process.argv.includes('--large');
const million = process.argv.includes('--million');
const people = quick ? 3000 : million ? 550_000 : large ? 100_000 : 20_000;
const seed = Number(process.env.BENCH_WORLDS_SEED ?? 1);
const size = `${people / 1000}k people`;
const model = new CompiledModel(readModelFile());
// The tracing loop's thresholds (docs/tracing.md): precision of candidate pairs at reviewFrom and autoLinkAt.
const tracing = tracingPolicy(model.model);
const policy = [tracing.reviewFrom, tracing.autoLinkAt];
const rows: BenchRow[] = [];
const figures: WorldFigures[] = [];
const log = (text: string) => process.stderr.write(`linkage-worlds: ${text}\n`);

for (const name of worldNames) {
  const world = makeWorld(name, people, seed);
  log(`${world.name}: ${world.records.length} records; linking`);
  const fig = await evaluateWorld(world, model, { precisionAt: policy, matchQueries: quick ? 300 : 2000 });
  figures.push(fig);
  const auto = fig.precisionAt[String(policy[1])];
  rows.push({
    suite: 'linkage-worlds',
    name: fig.world,
    size: `${size} (${fig.records} records)`,
    throughput: { value: fig.records / fig.seconds, unit: 'records/s' },
    ratio: { against: 'ceiling', value: fig.f1OverCeiling, goal: 'F1 ≥ 0.97 × ceiling' },
    extra: {
      precision: fig.precision,
      recall: fig.recall,
      f1: fig.f1,
      ceiling: fig.ceiling,
      pair_completeness: fig.pairCompleteness,
      pair_completeness_named: fig.pairCompletenessNamed,
      candidates_per_record: fig.candidatesPerRecord,
      guard_refused_true: fig.guardRefusalsOfTrueLinks,
      guard_refused: fig.guardRefusals,
      ece: fig.ece,
      ece_unsure: fig.eceUnsure,
      auto_link_precision: auto?.precision ?? Number.NaN,
      match_top10: fig.matchTop10 ?? Number.NaN,
      baseline_f1: fig.baselineF1,
    },
  });
  log(
    `${fig.world}: F1 ${fig.f1.toFixed(4)} (P ${fig.precision.toFixed(4)} R ${fig.recall.toFixed(4)}) ceiling ${fig.ceiling.toFixed(4)} → ${fig.f1OverCeiling.toFixed(3)}; completeness ${fig.pairCompleteness.toFixed(4)} (named ${fig.pairCompletenessNamed.toFixed(4)}); ${fig.candidatesPerRecord.toFixed(2)} candidates/record; guard refused ${fig.guardRefusalsOfTrueLinks}/${fig.guardRefusals} true; ECE ${fig.ece.toFixed(4)} (unsure ${fig.eceUnsure.toFixed(4)}); top10 ${fig.matchTop10?.toFixed(4)}; baseline F1 ${fig.baselineF1.toFixed(4)}`,
  );
}

const worst = (pick: (f: WorldFigures) => number) => Math.min(...figures.map(pick));
rows.push({
  suite: 'linkage-worlds',
  name: 'worst world',
  size,
  ratio: { against: 'ceiling', value: worst((f) => f.f1OverCeiling), goal: 'F1 ≥ 0.97 × ceiling' },
  extra: {
    pair_completeness: worst((f) => f.pairCompleteness),
    pair_completeness_named: worst((f) => f.pairCompletenessNamed),
    match_top10: worst((f) => f.matchTop10 ?? 1),
    ece_max: -worst((f) => -f.ece),
  },
});
report(rows);
