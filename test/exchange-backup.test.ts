/**
 * Backup and restore on both dialects: a consistent copy while the archive is open, blobs copied once across
 * backups, owner-only files, restore into empty places only, and afterwards `verify` is clean and every count
 * matches. Then the same through the real binary. All data synthetic.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../src/config/config.js';
import { SharpImageDecoder } from '../src/evidence/sharp-image-decoder.js';
import type { AppContext } from '../src/services/context.js';
import { openContext } from '../src/services/context.js';
import { BackupError, backup, restore } from '../src/services/exchange/backup.js';
import { importRecords } from '../src/services/imports/record-import.js';
import { ingest } from '../src/services/ingest/ingest.js';
import { openLedger } from '../src/services/ledger/setup.js';
import { verifyAll } from '../src/services/ledger/verify.js';
import { initialise } from '../src/services/setup.js';
import { runAthar } from './cli.js';
import { syntheticPhoto } from './evidence-files.js';
import { createTestDatabase, dialects, type TestDatabase } from './stores.js';

const count = async (
  ctx: AppContext,
  table: 'records' | 'evidence_items' | 'custody_events' | 'ledger_entries',
) =>
  Number(
    (
      await ctx.store.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe.each(dialects)('backup and restore [%s]', (dialect) => {
  let dir: string;
  let database: TestDatabase;
  let ctx: AppContext;
  let targetDb: string | undefined;
  const urlOf = (d: TestDatabase) => (d.config.kind === 'sqlite' ? `sqlite:${d.config.file}` : d.config.url);

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-backup-'));
    database = await createTestDatabase(dialect);
    ({ ctx } = await initialise(
      loadConfig({ ATHAR_DATA: path.join(dir, 'data'), ATHAR_DATABASE_URL: urlOf(database) }, {}),
    ));
    const photos = path.join(dir, 'photos');
    fs.mkdirSync(photos);
    for (let i = 0; i < 4; i++)
      fs.writeFileSync(path.join(photos, `p${i}.jpg`), await syntheticPhoto(300 + i));
    await ingest(ctx, { paths: [photos], actor: 'tester', decoder: new SharpImageDecoder() });
    const csv = [
      'record_id,full_name,birth_year',
      ...Array.from({ length: 300 }, (_, i) => `s${i},Synthetic Person ${i},${1950 + (i % 50)}`),
    ].join('\n');
    await importRecords(ctx.store, [csv], {
      kind: 'registry_line',
      actor: 'tester',
      fileName: 'synthetic.csv',
    });
    await openLedger(ctx).sequencer.publish();
  }, 120_000);
  afterAll(async () => {
    await ctx?.close();
    await database.drop();
    if (targetDb) {
      const admin = new pg.Client({ connectionString: inject('pgUrl') });
      await admin.connect();
      await admin.query(`drop database if exists ${targetDb} with (force)`);
      await admin.end();
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('backs up while open, copies each blob once, and restores to a clean, identical archive', async () => {
    const target = path.join(dir, 'backup');
    const first = await backup(ctx, target);
    expect(first.blobs.count).toBe(12);
    expect(first.blobs.copied).toBe(12);
    expect(first.keys).toEqual(expect.arrayContaining(['log.key', 'contacts.key']));
    // A change, then a second backup to the same target: only the new blobs travel.
    const more = path.join(dir, 'more');
    fs.mkdirSync(more);
    fs.writeFileSync(path.join(more, 'p9.jpg'), await syntheticPhoto(399));
    await ingest(ctx, { paths: [more], actor: 'tester', decoder: new SharpImageDecoder() });
    await openLedger(ctx).sequencer.publish();
    const second = await backup(ctx, target);
    expect(second.blobs).toMatchObject({ count: 15, copied: 3, reused: 12 });
    expect(fs.statSync(target).mode & 0o777).toBe(0o700);
    const snapDir = path.join(target, 'snapshots', second.snapshot);
    for (const name of fs.readdirSync(snapDir)) {
      const stat = fs.statSync(path.join(snapDir, name));
      expect(stat.mode & 0o077, name).toBe(0);
    }

    let restoredConfig: ReturnType<typeof loadConfig>;
    if (dialect === 'sqlite') {
      restoredConfig = loadConfig({ ATHAR_DATA: path.join(dir, 'restored') }, {});
    } else {
      targetDb = `athar_restore_${Date.now().toString(36)}`;
      const admin = new pg.Client({ connectionString: inject('pgUrl') });
      await admin.connect();
      await admin.query(
        `create database ${targetDb} encoding 'UTF8' lc_collate 'C.UTF-8' lc_ctype 'C.UTF-8' template template0`,
      );
      await admin.end();
      const url = new URL(database.config.kind === 'postgres' ? database.config.url : '');
      url.pathname = `/${targetDb}`;
      restoredConfig = loadConfig(
        { ATHAR_DATA: path.join(dir, 'restored'), ATHAR_DATABASE_URL: url.toString() },
        {},
      );
    }
    const report = await restore(target, restoredConfig);
    expect(report.snapshot).toBe(second.snapshot);
    expect(report.blobs).toBe(15);
    const restored = await openContext(restoredConfig);
    try {
      const check = await verifyAll(restored);
      expect(check.problems).toEqual([]);
      expect(check.ok).toBe(true);
      for (const table of ['records', 'evidence_items', 'custody_events', 'ledger_entries'] as const) {
        expect(await count(restored, table), table).toBe(await count(ctx, table));
      }
    } finally {
      await restored.close();
    }
    // A place that now holds something is refused.
    await expect(restore(target, restoredConfig)).rejects.toThrow(BackupError);
    await expect(restore(target, restoredConfig)).rejects.toThrow(/not empty|exists/);
  }, 120_000);
});

describe('athar backup / restore (real binary)', () => {
  it('warns that the backup holds the keys, restores, verifies, and refuses a non-empty place', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-backup-cli-'));
    try {
      const data = path.join(dir, 'data');
      const photos = path.join(dir, 'photos');
      fs.mkdirSync(photos);
      fs.writeFileSync(path.join(photos, 'p.jpg'), await syntheticPhoto(77));
      expect((await runAthar(['ingest', '--data', data, '--no-progress', photos])).code).toBe(0);
      const b = await runAthar(['backup', '--data', data, '--out', path.join(dir, 'bk'), '--json']);
      expect(b.code, b.stderr).toBe(0);
      expect(b.stderr).toMatch(/warning: the backup holds the keys/);
      const again = await runAthar(['backup', '--data', data, '--out', path.join(dir, 'bk'), '--json']);
      expect(JSON.parse(again.stdout).blobs).toMatchObject({ copied: 0, reused: 3 });
      const r = await runAthar([
        'restore',
        path.join(dir, 'bk'),
        '--data',
        path.join(dir, 'restored'),
        '--json',
      ]);
      expect(r.code, r.stderr).toBe(0);
      expect((await runAthar(['verify', '--data', path.join(dir, 'restored')])).code).toBe(0);
      const twice = await runAthar(['restore', path.join(dir, 'bk'), '--data', path.join(dir, 'restored')]);
      expect(twice.code).toBe(2);
      expect(twice.stderr).toMatch(/not empty/);
      const noKeys = await runAthar(['backup', '--data', data, '--out', path.join(dir, 'bk2'), '--no-keys']);
      expect(noKeys.code).toBe(0);
      expect(noKeys.stderr).not.toMatch(/holds the keys/);
      expect(
        (await runAthar(['restore', path.join(dir, 'nothing'), '--data', path.join(dir, 'r2')])).code,
      ).toBe(2);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
