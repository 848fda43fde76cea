/**
 * The log's figures (issue 6): durable appends per second, batched, on SQLite (goal ≥ 20,000/s) and PostgreSQL;
 * inclusion-proof time from stored tiles at 1M and 10M entries (goal ≤ 1 ms); `athar verify` time per 100k
 * entries and per GB of blobs. All data is synthetic. `--quick` uses smaller sizes.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FsBlobStore } from '../../src/blobs/fs-blob-store.js';
import type { Config } from '../../src/config/config.js';
import { newId } from '../../src/ids.js';
import { custodyEntry, type LogEntry, recordEntry } from '../../src/ledger/entries.js';
import { ed25519Signer, generateEd25519Key } from '../../src/ledger/note.js';
import { TreeBuilder, tileWidth } from '../../src/ledger/tiles.js';
import { ensureLedgerKey } from '../../src/services/ledger/key.js';
import { appendLogEntries } from '../../src/services/ledger/ledger.js';
import { LedgerLog } from '../../src/services/ledger/log.js';
import { LedgerSequencer } from '../../src/services/ledger/sequencer.js';
import { verifyAll } from '../../src/services/ledger/verify.js';
import { LedgerRepository } from '../../src/store/repositories/ledger.js';
import type { RecordTable } from '../../src/store/schema.js';
import { openStore, type Store } from '../../src/store/store.js';
import { type BenchRow, percentile, quick, report } from '../harness.js';
import { benchPostgresStore } from '../pg-store.js';

const rows: BenchRow[] = [];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-bench-ledger-'));
const log = (text: string) => process.stderr.write(`${text}\n`);

function syntheticEntry(n: number): LogEntry {
  const sha = randomBytes(32).toString('hex');
  return {
    v: 1,
    kind: 'custody.viewed_original',
    at: new Date(Date.UTC(2026, 0, 1) + n).toISOString(),
    actor: 'user-synthetic',
    subject: { type: 'evidence_item', id: `ev-${n % 5000}`, sha256: sha },
    rows: [{ table: 'custody_events', id: `ce-${n}`, sha256: randomBytes(32).toString('hex') }],
  };
}

/** Stages the entries in transactions of `perTransaction`, then sequences them; both durable on commit. */
async function appends(
  store: Store,
  entries: LogEntry[],
  perTransaction: number,
): Promise<{ ms: number; stageMs: number }> {
  const count = entries.length;
  const sequencer = new LedgerSequencer(store, ed25519Signer(generateEd25519Key('bench.athar/log')), {
    batchSize: 5000,
  });
  const start = performance.now();
  for (let i = 0; i < count; i += perTransaction) {
    await store.transaction((trx) => appendLogEntries(trx, entries.slice(i, i + perTransaction)));
  }
  const stageMs = performance.now() - start;
  await sequencer.flush();
  await sequencer.checkpoint({ force: true });
  return { ms: performance.now() - start, stageMs };
}

/** CPU seconds this process used while `work` ran: with two shared cores, wall time alone says little. */
async function cpuSeconds<T>(work: () => Promise<T>): Promise<{ value: T; cpuS: number }> {
  const before = process.cpuUsage();
  const value = await work();
  const used = process.cpuUsage(before);
  return { value, cpuS: (used.user + used.system) / 1e6 };
}

async function appendRow(store: Store, label: string, count: number): Promise<void> {
  const entries = Array.from({ length: count }, (_, i) => syntheticEntry(i));
  const {
    value: { ms, stageMs },
    cpuS,
  } = await cpuSeconds(() => appends(store, entries, 1000));
  const perSecond = count / (ms / 1000);
  rows.push({
    suite: 'ledger',
    name: `durable appends, batched (${label})`,
    size: `${count.toLocaleString('en-US')} entries, 1,000 per transaction`,
    throughput: { value: perSecond, unit: 'entries/s' },
    ratio: { against: '20,000/s goal', value: perSecond / 20_000, goal: '≥ 1' },
    extra: {
      stageMs: Math.round(stageMs),
      sequenceMs: Math.round(ms - stageMs),
      entriesPerCpuSecond: Math.round(count / cpuS),
    },
  });
  log(`${label}: ${Math.round(perSecond)} entries/s`);
}

async function sqliteStore(name: string): Promise<Store> {
  const dir = path.join(tmp, name);
  fs.mkdirSync(dir);
  return openStore({ kind: 'sqlite', file: path.join(dir, 'athar.db') });
}

/** Stores the tiles of a tree of `size` synthetic leaves, without entries: proofs read tiles only. */
async function tree(store: Store, size: number): Promise<void> {
  const repo = new LedgerRepository(store.db, store.capabilities);
  const builder = new TreeBuilder();
  const chunk = tileWidth * 1024;
  for (let at = 0; at < size; at += chunk) {
    const n = Math.min(chunk, size - at);
    const leaves = randomBytes(n * 32);
    for (let i = 0; i < n; i++) builder.append(leaves.subarray(i * 32, i * 32 + 32));
    const tiles = builder.takeCompleted();
    await store.transaction((trx) => new LedgerRepository(trx, store.capabilities).upsertTiles(tiles));
  }
  await store.transaction(async (trx) => {
    const r = new LedgerRepository(trx, store.capabilities);
    await r.upsertTiles(builder.takeChanged());
    await r.setSize(size);
  });
  void repo;
}

async function proofRow(size: number): Promise<void> {
  const store = await sqliteStore(`proofs-${size}`);
  const buildStart = performance.now();
  await tree(store, size);
  const buildMs = performance.now() - buildStart;
  const ledger = new LedgerLog(store);
  const times: number[] = [];
  const samples = quick ? 300 : 2000;
  for (let i = 0; i < samples; i++) {
    const index = Math.floor(Math.random() * size);
    const start = performance.now();
    await ledger.inclusionPath(index, size);
    times.push(performance.now() - start);
  }
  const p50 = percentile(times, 50);
  rows.push({
    suite: 'ledger',
    name: 'inclusion proof from stored tiles (SQLite)',
    size: `${size.toLocaleString('en-US')} entries, ${samples} random indexes`,
    throughput: { value: 1000 / (times.reduce((a, b) => a + b, 0) / times.length), unit: 'proofs/s' },
    p50Ms: p50,
    p95Ms: percentile(times, 95),
    ratio: { against: '1 ms goal', value: p50, goal: '≤ 1' },
    extra: { treeBuildS: Math.round(buildMs / 100) / 10 },
  });
  log(`proofs at ${size}: p50 ${p50.toFixed(3)} ms`);
  await store.close();
}

function syntheticRecord(sourceId: string, n: number): RecordTable {
  return {
    id: newId(),
    source_id: sourceId,
    external_id: `row-${n}`,
    kind: 'registry_line',
    original: JSON.stringify({ full_name: `Synthetic Person ${n}` }),
    full_name: `Synthetic Person ${n}`,
    first_name: null,
    father_name: null,
    grandfather_name: null,
    family_name: null,
    mother_name: null,
    name_normalized: null,
    name_script: 'latn',
    sex: null,
    birth_date: null,
    birth_year: 1970 + (n % 40),
    governorate_id: null,
    place_of_origin: null,
    arrest_date: null,
    arresting_branch_id: null,
    detainee_number: String(10_000 + n),
    death_date: null,
    forensic_report_number: null,
    notes: null,
    created_at: new Date(Date.UTC(2026, 0, 1) + n).toISOString(),
    created_by: 'user-synthetic',
  };
}

async function verifyRows(entries: number, blobBytes: number): Promise<void> {
  const dir = path.join(tmp, 'verify');
  fs.mkdirSync(dir);
  const config = { dataDir: dir, log: { level: 'silent', origin: 'bench.athar/log' } } as Config;
  const store = await openStore({ kind: 'sqlite', file: path.join(dir, 'athar.db') });
  const blobs = new FsBlobStore(path.join(dir, 'blobs'));
  await blobs.init();
  const key = await ensureLedgerKey(config, store);
  const sequencer = new LedgerSequencer(store, ed25519Signer(key));

  // Blobs of 4 MiB each, every one an ingested evidence item.
  const fileSize = 4 * 1024 * 1024;
  for (let i = 0; i * fileSize < blobBytes; i++) {
    const { sha256 } = await blobs.put(randomBytes(fileSize));
    const item = {
      id: newId(),
      sha256,
      size_bytes: fileSize,
      media_type: 'application/octet-stream',
      original_name_b64: null,
      original_name: null,
      source_id: null,
      width: null,
      height: null,
      orientation: null,
      pdq: null,
      pdq_quality: null,
      metadata: null,
      decodable: 0,
      decode_error: null,
      graphic: 1,
      thumbnail_sha256: null,
      blurred_sha256: null,
      created_at: new Date().toISOString(),
      created_by: 'user-synthetic',
    };
    const event = {
      id: newId(),
      evidence_id: item.id,
      kind: 'ingested',
      actor: 'user-synthetic',
      at: item.created_at,
      reason: null,
      details: null,
      ledger_index: null,
    };
    await store.transaction(async (trx) => {
      await trx.insertInto('evidence_items').values(item).execute();
      await trx.insertInto('custody_events').values(event).execute();
      await appendLogEntries(trx, [custodyEntry(event, item)]);
    });
  }
  const sourceId = newId();
  await store.db
    .insertInto('sources')
    .values({
      id: sourceId,
      name: 'synthetic bench list',
      kind: 'list',
      description: null,
      reliability_notes: null,
      created_at: new Date().toISOString(),
      created_by: null,
    })
    .execute();
  for (let at = 0; at < entries; at += 1000) {
    const records = Array.from({ length: Math.min(1000, entries - at) }, (_, i) =>
      syntheticRecord(sourceId, at + i),
    );
    await store.transaction(async (trx) => {
      for (let i = 0; i < records.length; i += 500)
        await trx
          .insertInto('records')
          .values(records.slice(i, i + 500))
          .execute();
      await appendLogEntries(
        trx,
        records.map((r) => recordEntry('record.imported', r)),
      );
    });
    await sequencer.flush();
  }
  await sequencer.publish();
  const { value: result, cpuS } = await cpuSeconds(() => verifyAll({ store, blobs, config }));
  if (!result.ok) throw new Error(`bench archive did not verify: ${result.problems[0]?.message}`);
  const logMs = result.log.ms + result.rows.ms;
  rows.push({
    suite: 'ledger',
    name: 'athar verify: log and covered rows (SQLite)',
    size: `${result.log.entries.toLocaleString('en-US')} entries, ${result.rows.checked.toLocaleString('en-US')} rows`,
    throughput: { value: result.log.entries / (logMs / 1000), unit: 'entries/s' },
    extra: {
      msPer100kEntries: Math.round((logMs / result.log.entries) * 100_000),
      logMs: result.log.ms,
      rowsMs: result.rows.ms,
      cpuSecondsWholeVerify: Math.round(cpuS * 10) / 10,
    },
  });
  rows.push({
    suite: 'ledger',
    name: 'athar verify: blobs re-hashed',
    size: `${result.blobs.checked} blobs, ${(result.blobs.bytes / 2 ** 20).toFixed(0)} MiB`,
    throughput: { value: result.blobs.bytes / 2 ** 20 / (result.blobs.ms / 1000), unit: 'MiB/s' },
    extra: { secondsPerGiB: Math.round((result.blobs.ms / 1000 / (result.blobs.bytes / 2 ** 30)) * 10) / 10 },
  });
  log(`verify: ${logMs} ms for ${result.log.entries} entries; blobs ${result.blobs.ms} ms`);
  await store.close();
}

try {
  const sqlite = await sqliteStore('appends');
  await appendRow(sqlite, 'SQLite', quick ? 20_000 : 200_000);
  await sqlite.close();
  const postgres = await benchPostgresStore('athar_bench', 4);
  if (postgres) {
    await appendRow(postgres.store, 'PostgreSQL', quick ? 10_000 : 100_000);
    await postgres.drop();
  }
  for (const size of quick ? [100_000, 1_000_000] : [1_000_000, 10_000_000]) await proofRow(size);
  await verifyRows(quick ? 20_000 : 100_000, quick ? 64 * 2 ** 20 : 512 * 2 ** 20);
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
report(rows);
