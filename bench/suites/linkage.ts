/**
 * Linkage at scale, on `athar synth` data: dedupe (athar link) of 100k people (~180k records) and of ~1M records,
 * and interactive matching against a ~1M-record registry; each beside a naive exact-name baseline measured in the
 * same run. Linking and matching run as the real CLI in a child process (its own time and peak memory); quality is
 * pairwise precision/recall/F1 against truth.csv, stated beside the generator's ceiling.
 * `--quick`: small sizes.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { PersonRecordFields } from '../../src/domain/person-record.js';
import { pairwiseQuality } from '../../src/linkage/evaluate.js';
import { normalizeName } from '../../src/linkage/name-kit.js';
import { readPersonCsv } from '../../src/services/batch/person-csv.js';
import { runSynth } from '../../src/services/batch/synth.js';
import { type BenchRow, percentile, quick, report } from '../harness.js';

const bin = path.resolve(import.meta.dirname, '..', '..', 'bin', 'athar.js');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-bench-linkage-'));
const rows: BenchRow[] = [];
const log = (text: string) => process.stderr.write(`linkage: ${text}\n`);

function athar(args: string[]): Promise<{ json: Record<string, unknown>; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args, '--json'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`athar ${args[0]} exited ${code}`));
      resolve({ json: JSON.parse(out), ms: performance.now() - started });
    });
  });
}

async function readCsv(file: string): Promise<{ id: string; fields: PersonRecordFields }[]> {
  const out: { id: string; fields: PersonRecordFields }[] = [];
  await readPersonCsv(file, (r) => out.push({ id: r.id, fields: r.fields }));
  return out;
}

function readPairs(file: string): string[][] {
  return fs
    .readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split(','));
}

/** The naive baseline's key: the whole name, normalised, parts in order. */
function exactName(f: PersonRecordFields): string {
  const parts =
    f.full_name ?? [f.first_name, f.father_name, f.grandfather_name, f.family_name].filter(Boolean).join(' ');
  return normalizeName(parts);
}

/** Integer labels for string labels, in a shared numbering. */
function labels(values: string[]): Int32Array {
  const ids = new Map<string, number>();
  return Int32Array.from(values, (v) => {
    let id = ids.get(v);
    if (id === undefined) {
      id = ids.size;
      ids.set(v, id);
    }
    return id;
  });
}

async function linkSuite(people: number, size: string): Promise<void> {
  const dir = path.join(work, `link-${people}`);
  log(`${size}: generating`);
  const synth = await runSynth({ people, out: dir, seed: 1 });
  log(`${size}: ${synth.records} records; linking`);
  const out = path.join(dir, 'clusters.csv');
  const { json, ms } = await athar(['link', synth.files.records, '--out', out]);
  const truth = new Map(readPairs(synth.files.truth).map(([r, p]) => [r as string, p as string]));
  const clusters = readPairs(out);
  const predicted = labels(clusters.map((c) => c[1] as string));
  const actual = labels(clusters.map((c) => truth.get(c[0] as string) as string));
  const q = pairwiseQuality(predicted, actual);

  const records = await readCsv(synth.files.records);
  const started = performance.now();
  const keys = records.map((r) => {
    const key = exactName(r.fields);
    return key === '' ? `\u0000${r.id}` : key;
  });
  const baselineLabels = labels(keys);
  const baselineMs = performance.now() - started;
  const b = pairwiseQuality(baselineLabels, labels(records.map((r) => truth.get(r.id) as string)));

  const timings = json.timingsMs as Record<string, number>;
  rows.push({
    suite: 'linkage',
    name: 'link (dedupe, athar link)',
    size,
    throughput: { value: synth.records / (ms / 1000), unit: 'records/s' },
    peakRssMiB: json.peakMemoryMiB as number,
    ratio: { against: 'exact-name F1', value: q.f1 / Math.max(1e-9, b.f1), goal: 'F1 ≥ 0.95' },
    extra: {
      records: synth.records,
      wall_s: Math.round(ms / 100) / 10,
      precision: q.precision,
      recall: q.recall,
      f1: q.f1,
      ceiling: synth.ceiling,
      candidate_pairs: json.candidatePairs as number,
      read_s: (timings.reading ?? 0) / 1000,
      block_s: (timings.blocking ?? 0) / 1000,
      score_cluster_s: (timings.clustering ?? 0) / 1000,
    },
  });
  rows.push({
    suite: 'linkage',
    name: 'baseline: exact normalised name',
    size,
    throughput: { value: synth.records / (baselineMs / 1000), unit: 'records/s' },
    extra: { precision: b.precision, recall: b.recall, f1: b.f1 },
  });
  log(
    `${size}: F1 ${q.f1.toFixed(4)} (P ${q.precision.toFixed(4)} R ${q.recall.toFixed(4)}), ceiling ${synth.ceiling.toFixed(4)}; baseline F1 ${b.f1.toFixed(4)}; ${Math.round(ms / 1000)} s`,
  );
  fs.rmSync(dir, { recursive: true, force: true });
}

async function matchSuite(people: number, size: string, queryCount: number): Promise<void> {
  const dir = path.join(work, `match-${people}`);
  log(`${size}: generating registry and queries`);
  const synth = await runSynth({ people, out: dir, seed: 2 });
  const truth = new Map(readPairs(synth.files.truth).map(([r, p]) => [r as string, p as string]));
  const lines = fs.readFileSync(synth.files.records, 'utf8').trimEnd().split('\n');
  const header = lines[0] as string;
  // A query is one record of a person who has other records: those stay in the registry.
  const seen = new Map<string, number>();
  for (const line of lines.slice(1)) {
    const person = truth.get(line.slice(0, line.indexOf(','))) as string;
    seen.set(person, (seen.get(person) ?? 0) + 1);
  }
  const queries: string[] = [];
  const registry: string[] = [];
  const taken = new Set<string>();
  const stride = Math.max(1, Math.floor(lines.length / (queryCount * 2)));
  lines.slice(1).forEach((line, k) => {
    const person = truth.get(line.slice(0, line.indexOf(','))) as string;
    if (
      queries.length < queryCount &&
      k % stride === 0 &&
      (seen.get(person) ?? 0) >= 2 &&
      !taken.has(person)
    ) {
      taken.add(person);
      queries.push(line);
    } else {
      registry.push(line);
    }
  });
  const registryFile = path.join(dir, 'registry.csv');
  const queryFile = path.join(dir, 'queries.csv');
  fs.writeFileSync(registryFile, `${header}\n${registry.join('\n')}\n`);
  fs.writeFileSync(queryFile, `${header}\n${queries.join('\n')}\n`);
  log(`${size}: ${registry.length} registry records, ${queries.length} queries; matching`);
  const out = path.join(dir, 'matches.csv');
  const { json } = await athar(['match', registryFile, '--queries', queryFile, '--top', '10', '--out', out]);
  const hits = new Set<string>();
  for (const [query, , record] of readPairs(out)) {
    if (truth.get(query as string) === truth.get(record as string)) hits.add(query as string);
  }
  const latency = json.latencyMs as { p50: number; p95: number };
  const hitRate = hits.size / queries.length;

  // Baseline: the registry keyed by exact normalised name; a query's top 10 are the first 10 under its key.
  const registryRecords = await readCsv(registryFile);
  const byName = new Map<string, string[]>();
  for (const r of registryRecords) {
    const key = exactName(r.fields);
    if (!key) continue;
    const list = byName.get(key);
    if (list) list.push(r.id);
    else byName.set(key, [r.id]);
  }
  const queryRecords = await readCsv(queryFile);
  const times: number[] = [];
  let baselineHits = 0;
  for (const q of queryRecords) {
    const t = performance.now();
    const top = (byName.get(exactName(q.fields)) ?? []).slice(0, 10);
    times.push(performance.now() - t);
    if (top.some((id) => truth.get(id) === truth.get(q.id))) baselineHits++;
  }
  rows.push({
    suite: 'linkage',
    name: 'match: top 10 (athar match)',
    size,
    p50Ms: latency.p50,
    p95Ms: latency.p95,
    throughput: {
      value: 1000 / Math.max(1e-6, (json.latencyMs as { mean: number }).mean),
      unit: 'queries/s',
    },
    peakRssMiB: json.peakMemoryMiB as number,
    ratio: {
      against: 'exact-name top-10 hit rate',
      value: hitRate / Math.max(1e-9, baselineHits / queries.length),
      goal: 'p95 ≤ 20 ms, hit ≥ 0.99',
    },
    extra: {
      registry: registry.length,
      queries: queries.length,
      top10_hit_rate: hitRate,
      index_build_s: (json.indexBuildMs as number) / 1000,
    },
  });
  rows.push({
    suite: 'linkage',
    name: 'baseline: exact-name lookup',
    size,
    p50Ms: percentile(times, 50),
    p95Ms: percentile(times, 95),
    extra: { top10_hit_rate: baselineHits / queries.length },
  });
  log(
    `${size}: top-10 hit ${hitRate.toFixed(4)}, p50 ${latency.p50} ms, p95 ${latency.p95} ms; baseline hit ${(baselineHits / queries.length).toFixed(4)}`,
  );
  fs.rmSync(dir, { recursive: true, force: true });
}

try {
  if (quick) {
    await linkSuite(3000, '3k people');
    await matchSuite(3000, '3k people', 300);
  } else {
    // BENCH_LINKAGE=link1m (or a comma list of link100k, link1m, match) runs part of the suite while iterating.
    const parts = new Set((process.env.BENCH_LINKAGE ?? 'link100k,link1m,match').split(','));
    if (parts.has('link100k')) await linkSuite(100_000, '100k people');
    if (parts.has('link1m')) await linkSuite(554_000, '1M records');
    if (parts.has('match')) await matchSuite(554_000, '1M-record registry', 2000);
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
report(rows);
