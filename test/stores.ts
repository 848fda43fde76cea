import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migrator, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, inject } from 'vitest';
import type { Config } from '../src/config/config.js';
import { allMigrations } from '../src/store/migrations/index.js';
import { openStore, type Store } from '../src/store/store.js';

export const dialects = ['sqlite', 'postgres'] as const;
export type Dialect = (typeof dialects)[number];

export interface TestDatabase {
  config: Config['database'];
  /** Removes the file (a PostgreSQL schema goes with the run's database). */
  drop(): Promise<void>;
}

/**
 * A database nobody else uses: a new SQLite file in a temp folder, or a new schema in the run's PostgreSQL
 * database (selected through the connection's search_path, so migrations and queries land there).
 */
export async function createTestDatabase(dialect: Dialect): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-test-'));
    return {
      config: { kind: 'sqlite', file: path.join(dir, 'athar.db') },
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const base = inject('pgUrl');
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  await client.query(`create schema ${schema}`);
  await client.end();
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    config: { kind: 'postgres', url: url.toString(), poolSize: 4 },
    // The schema stays until the run's database is dropped (global-setup.ts). Dropping it here once raced with
    // other files migrating (Kysely's own introspector read every schema; athar's now reads its own only, and
    // src/store/own-schema.test.ts holds it to that); one drop at the end costs less anyway.
    drop: async () => {},
  };
}

/** Opens a migrated store on a fresh database; `close` also drops the database. */
export async function createTestStore(dialect: Dialect): Promise<Store & { dispose(): Promise<void> }> {
  const database = await createTestDatabase(dialect);
  const store = await openStore(database.config);
  return Object.assign(store, {
    async dispose() {
      await store.close();
      await database.drop();
    },
  });
}

/**
 * The storage contract: runs the same suite once on SQLite and once on PostgreSQL, each against its own fresh,
 * migrated database shared by the suite's tests.
 */
export function describeEachDialect(
  title: string,
  suite: (store: () => Store, dialect: Dialect) => void,
): void {
  describe.each(dialects)(`${title} [%s]`, (dialect) => {
    let store: (Store & { dispose(): Promise<void> }) | undefined;
    beforeAll(async () => {
      store = await createTestStore(dialect);
    });
    afterAll(async () => {
      await store?.dispose();
    });
    suite(() => {
      if (!store) throw new Error('store not ready');
      return store;
    }, dialect);
  });
}

/**
 * Runs athar's migrations older than `version` only (as migrate() does: on PostgreSQL the migration tables in
 * athar's own schema), so that a test can write rows as a data folder before that migration held them.
 */
export async function migrateBefore(store: Store, dialect: Dialect, version: string): Promise<void> {
  const all = allMigrations(store.capabilities);
  const before = Object.fromEntries(Object.entries(all).filter(([name]) => name < version));
  const search =
    dialect === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(store.db)).rows[0]?.schema
      : undefined;
  const migrator = new Migrator({
    db: store.db,
    provider: { getMigrations: async () => before },
    ...(search ? { migrationTableSchema: search } : {}),
  });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
}
