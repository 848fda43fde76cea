import { performance } from 'node:perf_hooks';
import type { PersonRecordFields } from '../../domain/person-record.js';
import type { FeatureIssues } from '../../linkage/features.js';
import { MatchIndex } from '../../linkage/match-index.js';
import { CompiledModel } from '../../linkage/model.js';
import { peakMemoryMiB, readRecords } from './link.js';
import { readModelFile } from './linkage-model-file.js';
import { CsvError, type CsvFileSummary, CsvWriter, readPersonCsv } from './person-csv.js';

export interface MatchRunOptions {
  registry: string;
  queries: string;
  top: number;
  out: string;
  model?: string;
  onProgress?: (stage: 'indexing' | 'matching', done: number, total: number) => void;
}

export interface MatchSummary {
  registry: CsvFileSummary & { records: number };
  queries: CsvFileSummary & { answered: number; withoutName: number };
  top: number;
  model: { version: string };
  /** Rows written to OUT (query_id,rank,record_id,score). */
  rows: number;
  indexBuildMs: number;
  /** Per-query latency (index lookup, scoring, ranking). */
  latencyMs: { p50: number; p95: number; max: number; mean: number };
  invalidDates: { registry: FeatureIssues['invalidDates'] };
  /** Peak resident memory of the process (MiB). */
  peakMemoryMiB?: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

const round = (x: number) => Math.round(x * 1000) / 1000;

/**
 * `athar match`: indexes the registry CSV, then answers each query row with its top K registry records:
 * `query_id,rank,record_id,score` (score = match probability). Duplicate record ids in either file stop the run.
 */
export async function runMatch(options: MatchRunOptions): Promise<MatchSummary> {
  const model = readModelFile(options.model);
  const started = performance.now();
  const { features, files } = await readRecords([options.registry], (n) =>
    options.onProgress?.('indexing', n, 0),
  );
  const index = MatchIndex.fromFeatures(new CompiledModel(model), features);
  const registrySummary = files[0] as CsvFileSummary;
  const indexBuildMs = Math.round(performance.now() - started);

  const queries: { id: string; fields: PersonRecordFields }[] = [];
  const querySeen = new Set<string>();
  const queryDuplicates = new Set<string>();
  const querySummary = await readPersonCsv(options.queries, (record) => {
    if (querySeen.has(record.id)) queryDuplicates.add(record.id);
    querySeen.add(record.id);
    queries.push({ id: record.id, fields: record.fields });
  });
  if (queryDuplicates.size) {
    throw new CsvError(
      `duplicate record_id in ${options.queries}: ${[...queryDuplicates].slice(0, 20).join(', ')}`,
    );
  }

  const writer = new CsvWriter(options.out, ['query_id', 'rank', 'record_id', 'score']);
  const latencies: number[] = [];
  let written = 0;
  let withoutName = 0;
  queries.forEach((query, q) => {
    const t = performance.now();
    const top = index.top(query.fields, options.top);
    latencies.push(performance.now() - t);
    if (top.length === 0 && !hasName(query.fields)) withoutName++;
    top.forEach((c, rank) => {
      writer.row([query.id, rank + 1, c.recordId, c.probability.toFixed(6)]);
      written++;
    });
    if ((q & 1023) === 0) options.onProgress?.('matching', q, queries.length);
  });
  await writer.close();
  latencies.sort((a, b) => a - b);
  const mean = latencies.reduce((s, x) => s + x, 0) / Math.max(1, latencies.length);
  return {
    registry: { ...registrySummary, records: index.size },
    queries: { ...querySummary, answered: queries.length, withoutName },
    top: options.top,
    model: { version: model.version },
    rows: written,
    indexBuildMs,
    latencyMs: {
      p50: round(percentile(latencies, 50)),
      p95: round(percentile(latencies, 95)),
      max: round(latencies[latencies.length - 1] ?? 0),
      mean: round(mean),
    },
    invalidDates: { registry: index.features.issues.invalidDates },
    peakMemoryMiB: peakMemoryMiB(),
  };
}

function hasName(fields: PersonRecordFields): boolean {
  return !!(
    fields.full_name ||
    fields.first_name ||
    fields.father_name ||
    fields.grandfather_name ||
    fields.family_name
  );
}
