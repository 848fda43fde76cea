import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { importRecords, ingest, recordCustody, testSigner } from '../../../test/ledger-fixtures.js';
import { createTestStore, describeEachDialect } from '../../../test/stores.js';
import { FsBlobStore } from '../../blobs/fs-blob-store.js';
import type { Config } from '../../config/config.js';
import { parseCheckpoint } from '../../ledger/checkpoint.js';
import { leafHash } from '../../ledger/hash.js';
import { ed25519Signer, signNote } from '../../ledger/note.js';
import { verifyInclusion } from '../../ledger/tree.js';
import type { Store } from '../../store/store.js';
import { ensureLedgerKey } from './key.js';
import { LedgerLog } from './log.js';
import { LedgerIntegrityError, LedgerSequencer } from './sequencer.js';
import { verifyAll } from './verify.js';

interface Archive {
  store: Store & { dispose(): Promise<void> };
  blobs: FsBlobStore;
  config: Config;
  sequencer: LedgerSequencer;
  items: Awaited<ReturnType<typeof ingest>>[];
  views: Awaited<ReturnType<typeof recordCustody>>[];
  records: Awaited<ReturnType<typeof importRecords>>;
  dir: string;
}

const opened: Archive[] = [];
afterEach(async () => {
  for (const a of opened.splice(0)) {
    await a.store.dispose();
    fs.rmSync(a.dir, { recursive: true, force: true });
  }
});

/** A small synthetic archive: three items with their bytes, views of them, 300 imported records; all logged. */
async function archive(dialect: 'sqlite' | 'postgres'): Promise<Archive> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-verify-'));
  const store = await createTestStore(dialect);
  const blobs = new FsBlobStore(path.join(dir, 'blobs'));
  await blobs.init();
  const config = { dataDir: dir, log: { level: 'silent', origin: 'athar.test/log' } } as Config;
  const key = await ensureLedgerKey(config, store);
  const sequencer = new LedgerSequencer(store, ed25519Signer(key));
  const items = [];
  const views = [];
  for (let i = 0; i < 3; i++) {
    const { sha256 } = await blobs.put(Buffer.from(`synthetic evidence file ${i} ${'x'.repeat(100)}`));
    const ingested = await ingest(store, sha256);
    items.push(ingested);
    views.push(await recordCustody(store, ingested.item, 'viewed_original'));
  }
  await sequencer.publish();
  const records = await importRecords(store, 300);
  await sequencer.publish();
  const a = { store, blobs, config, sequencer, items, views, records, dir };
  opened.push(a);
  return a;
}

const verify = (a: Archive) => verifyAll({ store: a.store, blobs: a.blobs, config: a.config });
const codes = (report: Awaited<ReturnType<typeof verify>>) =>
  [...new Set(report.problems.map((p) => p.code))].sort();

describeEachDialect('athar verify', (_store, dialect) => {
  it('finds an intact archive intact', async () => {
    const a = await archive(dialect);
    const report = await verify(a);
    expect(report.problems).toEqual([]);
    expect(report).toMatchObject({
      ok: true,
      origin: 'athar.test/log',
      blobs: { checked: 3 },
      log: { entries: 306, checkpoints: 2, latestCheckpoint: 306, unsigned: 0, staged: 0 },
      rows: { checked: 3 + 6 + 300 },
    });
  });

  it('names the evidence whose blob had a byte flipped', async () => {
    const a = await archive(dialect);
    const { item } = a.items[1] as Archive['items'][number];
    const file = a.blobs.pathOf(item.sha256);
    fs.chmodSync(file, 0o640);
    const bytes = fs.readFileSync(file);
    bytes[10] = (bytes[10] as number) ^ 0x01;
    fs.writeFileSync(file, bytes);
    const report = await verify(a);
    expect(report.ok).toBe(false);
    expect(report.problems).toEqual([
      expect.objectContaining({
        code: 'blob_corrupt',
        sha256: item.sha256,
        table: 'evidence_items',
        id: item.id,
      }),
    ]);
    expect(report.problems[0]?.message).toContain(`evidence item ${item.id}`);
  });

  it('names a registry row edited behind the log’s back, and the entry it no longer matches', async () => {
    const a = await archive(dialect);
    const record = a.records[42] as Archive['records'][number];
    await a.store.db
      .updateTable('records')
      .set({ detainee_number: '99999' })
      .where('id', '=', record.id)
      .execute();
    const report = await verify(a);
    expect(report.problems).toEqual([
      expect.objectContaining({ code: 'row_changed', table: 'records', id: record.id, entry: 6 + 42 }),
    ]);
  });

  it('names a custody event deleted from the database', async () => {
    const a = await archive(dialect);
    const view = a.views[0] as Archive['views'][number];
    await a.store.db.deleteFrom('custody_events').where('id', '=', view.id).execute();
    const report = await verify(a);
    expect(report.problems).toEqual([
      expect.objectContaining({ code: 'row_deleted', table: 'custody_events', id: view.id, entry: 1 }),
    ]);
  });

  it('names a deleted row even when its index row was deleted with it', async () => {
    const a = await archive(dialect);
    const view = a.views[2] as Archive['views'][number];
    await a.store.db.deleteFrom('custody_events').where('id', '=', view.id).execute();
    await a.store.db.deleteFrom('ledger_rows').where('row_id', '=', view.id).execute();
    const report = await verify(a);
    expect(codes(report)).toEqual(['row_deleted', 'row_index']);
    expect(report.problems.find((p) => p.code === 'row_deleted')).toMatchObject({ id: view.id, entry: 5 });
  });

  it('names two entries swapped in the log, and the checkpoint they break', async () => {
    const a = await archive(dialect);
    const rows = await a.store.db
      .selectFrom('ledger_entries')
      .select(['idx', 'entry'])
      .where('idx', 'in', [100, 101])
      .orderBy('idx')
      .execute();
    await a.store.transaction(async (trx) => {
      await trx
        .updateTable('ledger_entries')
        .set({ entry: rows[1]?.entry as string })
        .where('idx', '=', 100)
        .execute();
      await trx
        .updateTable('ledger_entries')
        .set({ entry: rows[0]?.entry as string })
        .where('idx', '=', 101)
        .execute();
    });
    const report = await verify(a);
    expect(report.ok).toBe(false);
    const mismatched = report.problems
      .filter((p) => p.code === 'tile_mismatch' && p.entry !== undefined)
      .map((p) => p.entry);
    expect(mismatched).toEqual([100, 101]);
    expect(report.problems.find((p) => p.code === 'root_mismatch')).toMatchObject({ checkpoint: 306 });
    expect(report.notes.join(' ')).toContain('between 6 and 306');
  });

  it('names a checkpoint signed with another key', async () => {
    const a = await archive(dialect);
    const latest = (await new LedgerLog(a.store).latestCheckpoint()) as { note: string; size: number };
    const text = latest.note.slice(0, latest.note.lastIndexOf('\n\n') + 1);
    const forged = signNote(text, [testSigner('athar.test/log')]);
    await a.store.db
      .updateTable('ledger_checkpoints')
      .set({ note: forged })
      .where('size', '=', latest.size)
      .execute();
    const report = await verify(a);
    expect(report.problems).toEqual([
      expect.objectContaining({ code: 'checkpoint_signature', checkpoint: 306 }),
    ]);
    expect(report.problems[0]?.message).toMatch(
      /no signature by a known key \(signed by athar\.test\/log\+[0-9a-f]{8}\)/,
    );
  });

  it('names an altered tile, which a standard client also rejects', async () => {
    const a = await archive(dialect);
    const tile = await a.store.db
      .selectFrom('ledger_tiles')
      .select('hashes')
      .where('level', '=', 0)
      .where('idx', '=', 0)
      .executeTakeFirstOrThrow();
    const altered = Buffer.from(tile.hashes);
    altered[17 * 32] = (altered[17 * 32] as number) ^ 0xff;
    await a.store.db
      .updateTable('ledger_tiles')
      .set({ hashes: altered })
      .where('level', '=', 0)
      .where('idx', '=', 0)
      .execute();

    const report = await verify(a);
    expect(report.problems).toEqual([
      expect.objectContaining({ code: 'tile_mismatch', tile: 'tile/0/000', entry: 17 }),
    ]);

    // A client proving entry 16 reads the altered hash as its sibling: the proof fails against the signed root.
    const log = new LedgerLog(a.store);
    const proof = await log.inclusionProof(16);
    const cp = parseCheckpoint(
      proof.checkpoint?.slice(0, proof.checkpoint.lastIndexOf('\n\n') + 1) as string,
    );
    const root = cp.ok ? cp.checkpoint.root : Buffer.alloc(32);
    const ok = verifyInclusion(
      16,
      proof.size,
      leafHash(Buffer.from(proof.entry)),
      proof.proof.map((h) => Buffer.from(h, 'base64')),
      root,
    );
    expect(ok).toBe(false);
  });

  it('refuses to sign a checkpoint over an altered edge tile', async () => {
    const a = await archive(dialect);
    // Tile 0/001 is still partial (entries 256–305): the next entries are hashed in beside it.
    const tile = await a.store.db
      .selectFrom('ledger_tiles')
      .select('hashes')
      .where('level', '=', 0)
      .where('idx', '=', 1)
      .executeTakeFirstOrThrow();
    const altered = Buffer.from(tile.hashes);
    altered[10 * 32] = (altered[10 * 32] as number) ^ 0xff;
    await a.store.db
      .updateTable('ledger_tiles')
      .set({ hashes: altered })
      .where('level', '=', 0)
      .where('idx', '=', 1)
      .execute();
    await importRecords(a.store, 5);
    await expect(a.sequencer.publish()).rejects.toThrow(LedgerIntegrityError);
    const report = await verify(a);
    expect(report.problems.find((p) => p.code === 'tile_mismatch')).toMatchObject({
      entry: 266,
      tile: 'tile/0/001',
    });
  });

  it('counts staged entries as the latest word on their rows, and says they are not yet sequenced', async () => {
    const a = await archive(dialect);
    await importRecords(a.store, 2);
    const report = await verify(a);
    expect(report.ok).toBe(true);
    expect(report.log.staged).toBe(2);
    expect(report.notes.join(' ')).toContain('2 entries are staged');
  });

  it('notices a row written without a log entry', async () => {
    const a = await archive(dialect);
    const record = {
      ...(a.records[0] as Archive['records'][number]),
      id: 'unlogged-record',
      external_id: 'x-1',
    };
    await a.store.db.insertInto('records').values(record).execute();
    const report = await verify(a);
    expect(report.problems).toEqual([
      expect.objectContaining({ code: 'row_unlogged', table: 'records', id: 'unlogged-record' }),
    ]);
  });

  it('notices entries removed from the end of the log', async () => {
    const a = await archive(dialect);
    await a.store.db.deleteFrom('ledger_entries').where('idx', '>=', 300).execute();
    await sql`update ledger_state set size = 300`.execute(a.store.db);
    const report = await verify(a);
    expect(codes(report)).toContain('checkpoint_beyond_log');
    expect(report.problems.find((p) => p.code === 'checkpoint_beyond_log')?.message).toContain(
      'checkpoint 306',
    );
  });
});
