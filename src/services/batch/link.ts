import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { RuleStats } from '../../linkage/blocking.js';
import type { ClusterStats } from '../../linkage/clustering.js';
import { CountTable } from '../../linkage/count-table.js';
import { type Explanation, explainPair } from '../../linkage/explain.js';
import { type FeatureIssues, RecordFeatures } from '../../linkage/features.js';
import { linkFeatures } from '../../linkage/link.js';
import { CompiledModel, type LinkageModel, probabilityOf } from '../../linkage/model.js';
import { hashString } from '../../linkage/random.js';
import { type SafeTrainingReport, trainSafely } from '../../linkage/retrain.js';
import { Scorer } from '../../linkage/scorer.js';
import { orderByKey } from '../../linkage/sort.js';
import { TermFrequencies } from '../../linkage/term-frequencies.js';
import { answerOf, startWorker } from '../../worker-entry.js';
import { readModelFile, writeModelFile } from './linkage-model-file.js';
import {
  CsvError,
  type CsvFileSummary,
  type CsvRecord,
  type CsvSegment,
  CsvWriter,
  csvSegments,
  readPersonCsv,
} from './person-csv.js';
import type { ReadJob, ReadResult } from './read-worker.js';
import { defaultWorkers, SCORING_THREADS_FROM, scoreInWorkers } from './score-pool.js';

export type LinkStage = 'reading' | 'training' | 'blocking' | 'scoring' | 'clustering' | 'writing';

export interface LinkRunOptions {
  inputs: string[];
  /** CLUSTERS.csv: `record_id,cluster_id` for every input record. */
  out?: string;
  /** PAIRS.csv: scored pairs at or above `pairsMinProbability` (default: the threshold). */
  pairs?: string;
  pairsMinProbability?: number;
  /** A model file; default: the model that ships. */
  model?: string;
  /** Retrain on the input before linking. */
  train?: boolean;
  /** Where to save the retrained model. */
  saveModel?: string;
  /** Overrides the model's threshold (match probability). */
  threshold?: number;
  /** Scoring threads (default: one per core from SCORING_THREADS_FROM records, else this thread alone). */
  workers?: number;
  /** Explain this pair of record ids. */
  explain?: [string, string];
  onProgress?: (stage: LinkStage, done: number, total: number) => void;
}

export interface LinkSummary {
  inputs: CsvFileSummary[];
  records: number;
  clusters: number;
  /** Records in a cluster of two or more. */
  linkedRecords: number;
  singletons: number;
  /** Rows without any name: kept, each its own cluster unless its detainee number and branch link it. */
  rowsWithoutName: number;
  /** Unreadable dates per column, treated as missing. */
  invalidDates: FeatureIssues['invalidDates'];
  model: { version: string; threshold: number; trained: boolean; saved?: string };
  training?: SafeTrainingReport;
  blocking?: RuleStats[];
  candidatePairs: number;
  clustering?: ClusterStats;
  pairsWritten?: number;
  explanation?: Explanation;
  timingsMs: Partial<Record<LinkStage | 'total', number>>;
  /** Peak resident memory of the process (MiB). */
  peakMemoryMiB?: number;
}

/** Peak resident memory of this process so far, in MiB (Linux reports maxRSS in KiB). */
export function peakMemoryMiB(): number {
  return Math.round(process.resourceUsage().maxRSS / 1024);
}

/**
 * Reads person-record CSVs into prepared features; duplicate record ids stop the run, named. A large file is split
 * in two on a row boundary and its second half prepared by a worker thread while this thread prepares the first.
 */
export async function readRecords(
  inputs: string[],
  onProgress?: (done: number) => void,
  options: { parallel?: boolean; parallelMinBytes?: number } = {},
): Promise<{ features: RecordFeatures; files: CsvFileSummary[] }> {
  const features = new RecordFeatures(1 << 16);
  const files: CsvFileSummary[] = [];
  const lines: number[] = [];
  const fileOf: number[] = [];
  const prefixRowIds = inputs.length > 1;
  const onRecord = (k: number) => (record: CsvRecord) => {
    features.add(record.id, record.fields);
    lines.push(record.line);
    fileOf.push(k);
    if ((features.size & 0xffff) === 0) onProgress?.(features.size);
  };
  for (const [k, file] of inputs.entries()) {
    const segments =
      options.parallel === false ? undefined : await segmentsOf(file, options.parallelMinBytes);
    if (!segments) {
      files.push(await readPersonCsv(file, onRecord(k), { prefixRowIds }));
      continue;
    }
    const [first, second] = segments as [CsvSegment, CsvSegment];
    const pending = readInWorker({ file, segment: second, prefixRowIds });
    const summary = await readPersonCsv(file, onRecord(k), { prefixRowIds, segment: first });
    const rowsBefore = summary.rows;
    const other = await pending;
    // Ids made from row numbers count from the start of the file.
    const name = path.basename(file);
    other.features.ids = other.features.ids.map((id, r) => {
      if (other.derived[r] !== 1) return id;
      const row = rowsBefore + (other.rows[r] as number);
      return prefixRowIds ? `${name}:${row}` : String(row);
    });
    features.absorb(other.features);
    for (let r = 0; r < other.lines.length; r++) {
      lines.push(other.lines[r] as number);
      fileOf.push(k);
    }
    files.push({ file, rows: rowsBefore + other.lines.length, ignoredColumns: summary.ignoredColumns });
  }
  const duplicates = duplicateIds(features.ids);
  if (duplicates.length > 0) {
    const named = duplicates
      .slice(0, 20)
      .map((i) => `${features.ids[i]} (${inputs[fileOf[i] as number]} line ${lines[i]})`);
    const more = duplicates.length > 20 ? ` and ${duplicates.length - 20} more` : '';
    throw new CsvError(`duplicate record_id: ${named.join(', ')}${more}`);
  }
  // Once every file is read: training, --explain and linking then read each list's names in its own order.
  features.settleNameOrder();
  return { features, files };
}

async function segmentsOf(file: string, minBytes?: number): Promise<CsvSegment[] | undefined> {
  try {
    return await csvSegments(file, 2, minBytes);
  } catch {
    // Unreadable here: the plain read reports the problem with the file's name.
    return undefined;
  }
}

function readInWorker(job: ReadJob): Promise<ReadResult> {
  const worker = startWorker(import.meta.url, 'read-worker', { workerData: job });
  return answerOf<ReadResult>(worker, (error) =>
    error.name === 'CsvError'
      ? new CsvError(error.message)
      : new Error(error.message || 'a reading thread failed'),
  );
}

/**
 * Indexes of ids that repeat an earlier id, in input order. Hashes sorted by radix, strings compared only where
 * hashes meet: a million ids take a fraction of a second, no set of strings.
 */
export function duplicateIds(ids: readonly string[]): number[] {
  const n = ids.length;
  const hashes = new Uint32Array(n);
  for (let i = 0; i < n; i++) hashes[i] = hashString(ids[i] as string);
  const order = orderByKey(hashes, n);
  const out: number[] = [];
  let start = 0;
  while (start < n) {
    let end = start + 1;
    const h = hashes[order[start] as number];
    while (end < n && hashes[order[end] as number] === h) end++;
    if (end - start > 1) {
      const seen = new Set<string>();
      for (let k = start; k < end; k++) {
        const i = order[k] as number;
        if (seen.has(ids[i] as string)) out.push(i);
        seen.add(ids[i] as string);
      }
    }
    start = end;
  }
  return out.sort((a, b) => a - b);
}

/**
 * `athar link`: dedupe and link person-record CSVs. Every input record gets a cluster (its own when nothing links
 * it); the cluster id is the record_id of the cluster's first record in input order.
 */
export async function runLink(options: LinkRunOptions): Promise<LinkSummary> {
  const started = performance.now();
  const timings: LinkSummary['timingsMs'] = {};
  let mark = started;
  const lap = (stage: LinkStage | 'total') => {
    const now = performance.now();
    timings[stage] = Math.round(now - (stage === 'total' ? started : mark));
    mark = now;
  };
  const progress = options.onProgress;
  const { features, files } = await readRecords(options.inputs, (n) => progress?.('reading', n, 0));
  lap('reading');

  let model: LinkageModel = readModelFile(options.model);
  let training: SafeTrainingReport | undefined;
  if (options.train) {
    progress?.('training', 0, 1);
    // Kept only when it does at least as well as the model given (docs/linkage.md, "Training").
    const trained = trainSafely(features, model, { versionPrefix: 'trained' });
    model = trained.model;
    training = trained.report;
    if (options.saveModel) writeModelFile(options.saveModel, model);
    lap('training');
  }
  if (options.threshold !== undefined) model = { ...model, threshold: options.threshold };
  const compiled = new CompiledModel(model);

  const summary: LinkSummary = {
    inputs: files,
    records: features.size,
    clusters: 0,
    linkedRecords: 0,
    singletons: 0,
    rowsWithoutName: features.issues.rowsWithoutName,
    invalidDates: features.issues.invalidDates,
    model: {
      version: model.version,
      threshold: model.threshold,
      trained: !!options.train,
      ...(options.saveModel && options.train ? { saved: options.saveModel } : {}),
    },
    ...(training ? { training } : {}),
    candidatePairs: 0,
    timingsMs: timings,
  };

  if (options.explain) {
    const [idA, idB] = options.explain;
    const a = features.ids.indexOf(idA);
    const b = features.ids.indexOf(idB);
    if (a < 0 || b < 0) throw new CsvError(`no record with record_id ${a < 0 ? idA : idB} in the input`);
    const scorer = new Scorer(features, compiled, TermFrequencies.of(features));
    summary.explanation = explainPair(scorer, a, b, features.size);
  }
  if (!options.out) {
    lap('total');
    return summary;
  }

  const workers = options.workers ?? (features.size >= SCORING_THREADS_FROM ? defaultWorkers() : 1);
  const result = await linkFeatures(features, compiled, {
    scoring:
      workers > 1
        ? (tf) => scoreInWorkers(features, tf, model, workers, (d, t) => progress?.('scoring', d, t))
        : undefined,
    onStage: (stage, done, total) => {
      if (stage === 'scoring' && done === 0) lap('blocking');
      progress?.(stage, done, total);
    },
  });
  lap('clustering');
  summary.blocking = result.blocking;
  summary.candidatePairs = result.candidates.pairs.length;
  summary.clustering = result.clustering;

  progress?.('writing', 0, 1);
  const sizes = new Map<number, number>();
  for (const c of result.clusterOf) sizes.set(c, (sizes.get(c) ?? 0) + 1);
  summary.clusters = sizes.size;
  for (const size of sizes.values()) {
    if (size === 1) summary.singletons++;
    else summary.linkedRecords += size;
  }
  const writer = new CsvWriter(options.out, ['record_id', 'cluster_id']);
  for (let i = 0; i < features.size; i++) {
    writer.row([features.ids[i] as string, features.ids[result.clusterOf[i] as number] as string]);
  }
  await writer.close();
  if (options.pairs) {
    const floor = options.pairsMinProbability ?? model.threshold;
    const minWeight = Math.log2(floor / (1 - floor)) - result.priorWeight;
    const pairs = new CsvWriter(options.pairs, [
      'record_a',
      'record_b',
      'match_weight',
      'probability',
      'same_cluster',
    ]);
    const { a, b } = result.candidates.pairs;
    let written = 0;
    let above = 0;
    for (let p = 0; p < result.candidates.pairs.length; p++)
      if ((result.weights[p] as number) >= minWeight) above++;
    // A pair can come from two rules (windowed or overlapping sub-blocks): write it once.
    const seen = new CountTable(above);
    for (let p = 0; p < result.candidates.pairs.length; p++) {
      const w = result.weights[p] as number;
      if (w < minWeight) continue;
      const x = a[p] as number;
      const y = b[p] as number;
      const key = x * 4294967296 + y;
      if (seen.get(key) > 0) continue;
      seen.add(key, 1);
      const total = w + result.priorWeight;
      pairs.row([
        features.ids[x] as string,
        features.ids[y] as string,
        total.toFixed(3),
        probabilityOf(total).toFixed(6),
        result.clusterOf[x] === result.clusterOf[y] ? 1 : 0,
      ]);
      written++;
    }
    await pairs.close();
    summary.pairsWritten = written;
  }
  lap('writing');
  lap('total');
  summary.peakMemoryMiB = peakMemoryMiB();
  return summary;
}
