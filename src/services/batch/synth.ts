import fs from 'node:fs';
import path from 'node:path';
import { personRecordColumns } from '../../domain/person-record.js';
import { generate, type SynthStats, syntheticLabel } from '../../linkage/synth/generator.js';
import { CsvWriter } from './person-csv.js';

export interface SynthRunResult extends SynthStats {
  out: string;
  files: { records: string; truth: string; stats: string };
  seed: number | string;
  label: string;
}

/**
 * `athar synth`: writes records.csv (the person-record CSV), truth.csv (`record_id,person_id`) and stats.json (the
 * generator's figures, with the ceiling linkage F1 is stated beside) into `out`. Deterministic for a seed.
 */
export async function runSynth(options: {
  people: number;
  out: string;
  seed?: number | string;
}): Promise<SynthRunResult> {
  const seed = options.seed ?? 1;
  fs.mkdirSync(options.out, { recursive: true });
  const { records, personIds, stats } = generate({ people: options.people, seed });
  const files = {
    records: path.join(options.out, 'records.csv'),
    truth: path.join(options.out, 'truth.csv'),
    stats: path.join(options.out, 'stats.json'),
  };
  const writer = new CsvWriter(files.records, personRecordColumns);
  const truth = new CsvWriter(files.truth, ['record_id', 'person_id']);
  for (const { fields, person } of records) {
    writer.row(personRecordColumns.map((c) => fields[c] ?? ''));
    truth.row([fields.record_id, personIds[person] as string]);
  }
  await Promise.all([writer.close(), truth.close()]);
  const result: SynthRunResult = { out: options.out, files, seed, label: syntheticLabel, ...stats };
  fs.writeFileSync(files.stats, `${JSON.stringify(result, null, 2)}\n`);
  return result;
}
