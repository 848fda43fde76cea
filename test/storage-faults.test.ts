import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { importRecords } from '../src/services/imports/record-import.js';
import { StoreError, storageFault } from '../src/store/errors.js';
import { openStore } from '../src/store/store.js';
import { createApi } from './api.js';
import { runAthar } from './cli.js';
import { pgRelay } from './pg-proxy.js';
import { createTestDatabase, createTestStore } from './stores.js';

/**
 * Issue 21, Reliability 4: storage faults reported as what they are. PostgreSQL "stopping" is a relay cut between
 * athar and the shared server; a full disk is SQLite's page limit. Synthetic rows only.
 */
const csvOf = (rows: number) =>
  `record_id,full_name\n${Array.from({ length: rows }, (_, i) => `f-${i},Synthetic Person ${i}`).join('\n')}\n`;

describe('storage faults', () => {
  it('names the storage faults and nothing else', () => {
    expect(
      storageFault({ code: '57P01', message: 'terminating connection due to administrator command' }),
    ).toMatchObject({ code: 'connection_lost' });
    expect(storageFault(new Error('Connection terminated unexpectedly'))).toMatchObject({
      code: 'connection_lost',
    });
    expect(storageFault({ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' })).toBeInstanceOf(
      StoreError,
    );
    expect(storageFault({ code: 'SQLITE_FULL', message: 'database or disk is full' })).toMatchObject({
      code: 'disk_full',
    });
    expect(storageFault({ code: 'SQLITE_CONSTRAINT_UNIQUE', message: 'UNIQUE constraint failed' })).toBe(
      undefined,
    );
    expect(storageFault(new Error('something else'))).toBe(undefined);
  });

  it('SQLite: a full disk is reported as a full disk, not "cannot rollback"', async () => {
    const store = await createTestStore('sqlite');
    try {
      const pages = (await sql<{ page_count: number }>`pragma page_count`.execute(store.db)).rows[0]
        ?.page_count;
      await sql.raw(`pragma max_page_count = ${Number(pages) + 4}`).execute(store.db);
      const error = await importRecords(store, [csvOf(5000)], {
        kind: 'other',
        actor: null,
        fileName: 'full.csv',
        batchSize: 2000,
      }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeDefined();
      expect((error as Error).message).not.toMatch(/cannot rollback/);
      expect(storageFault(error)).toMatchObject({ code: 'disk_full' });
    } finally {
      await store.dispose();
    }
  });

  it('PostgreSQL: the server answers 503 while the database is gone', async () => {
    const relay = await pgRelay();
    const database = await createTestDatabase('postgres');
    if (database.config.kind !== 'postgres') throw new Error('postgres expected');
    const store = await openStore({ ...database.config, url: relay.url(database.config.url) });
    const api = await createApi(store);
    try {
      const documenter = await api.as('documenter');
      expect((await documenter.get('/api/records')).statusCode).toBe(200);
      await relay.cut();
      const res = await documenter.get('/api/records');
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ code: 'unavailable' });
      expect((await api.anonymous.get('/healthz')).statusCode).toBe(503);
    } finally {
      await api.close().catch(() => {});
      await store.close().catch(() => {});
    }
  });

  it('PostgreSQL: an import whose database stops exits 2 with one line, no stack trace', async () => {
    const relay = await pgRelay();
    const database = await createTestDatabase('postgres');
    if (database.config.kind !== 'postgres') throw new Error('postgres expected');
    const url = relay.url(database.config.url);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-pgstop-'));
    try {
      expect((await runAthar(['init', '--data', dir, '--database-url', url])).code).toBe(0);
      const file = path.join(dir, 'big.csv');
      fs.writeFileSync(file, csvOf(200_000));
      const run = runAthar(['import', file, '--data', dir, '--database-url', url, '--kind', 'other']);
      // Cut once the import is writing (watched directly, not through the relay).
      const direct = await openStore(database.config, { migrate: false });
      try {
        for (let i = 0; i < 600; i++) {
          const n = await direct.db
            .selectFrom('records')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow();
          if (Number(n.n) > 0) break;
          await new Promise((r) => setTimeout(r, 50));
        }
      } finally {
        await direct.close();
      }
      await relay.cut();
      const done = await run;
      expect(done.code).toBe(2);
      expect(done.stderr).toMatch(/athar: the database stopped answering/);
      expect(done.stderr).not.toMatch(/\n\s+at /);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('bad inputs named (issue 21, Reliability 4)', () => {
  it('names a symbolic link loop given to ingest as a loop', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-loop-'));
    try {
      fs.symlinkSync('b', path.join(dir, 'a'));
      fs.symlinkSync('a', path.join(dir, 'b'));
      const run = await runAthar(['ingest', '--data', path.join(dir, 'data'), path.join(dir, 'a')]);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/a: is a symbolic link loop/);
      // Inside a folder, a loop is refused as a loop too.
      fs.mkdirSync(path.join(dir, 'folder'));
      fs.symlinkSync('self', path.join(dir, 'folder', 'self'));
      const inside = await runAthar(['ingest', '--data', path.join(dir, 'data'), path.join(dir, 'folder')]);
      expect(inside.stdout + inside.stderr).toMatch(/self: symbolic link loop/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
