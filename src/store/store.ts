import { type CompiledQuery, type Kysely, Migrator, sql, type Transaction } from 'kysely';
import type { Config } from '../config/config.js';
import { type Capabilities, postgresCapabilities, sqliteCapabilities } from './capabilities.js';
import { openPostgres } from './dialects/postgres.js';
import { openSqlite } from './dialects/sqlite.js';
import { StoreError } from './errors.js';
import { allMigrations } from './migrations/index.js';
import { syncGazetteer } from './repositories/places.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database> | Transaction<Database>;

/** The database athar runs on, whichever dialect; repositories take it, services never see the dialect. */
export interface Store {
  readonly db: Kysely<Database>;
  readonly capabilities: Capabilities;
  /** Where the data lives, fit for messages (no password). */
  readonly location: string;
  /** What was opened: a worker thread opens the same database with it (it holds the URL's password). */
  readonly database: Config['database'];
  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T>;
  /**
   * Commits appends (statements compiled by `db`) in one transaction; resolves once they are committed. For
   * append-only rows such as the audit log's, which a group-commit writer batches.
   */
  append(statements: readonly CompiledQuery[]): Promise<void>;
  /**
   * A compiled select's rows as arrays, in its column order: for reads of a million rows (exports), where building
   * an object per row costs more than reading it.
   */
  rows(query: CompiledQuery): Promise<unknown[][]>;
  close(): Promise<void>;
}

const appMarker = 'athar';

/**
 * Opens the configured database, refuses one that belongs to something else, and (by default) brings its schema
 * up to date and the gazetteer in sync.
 */
export async function openStore(
  database: Config['database'],
  options: { migrate?: boolean; readOnly?: boolean } = {},
): Promise<Store> {
  let db: Kysely<Database>;
  let capabilities: Capabilities;
  let location: string;
  let rows: Store['rows'];
  if (database.kind === 'sqlite') {
    let raw: ReturnType<typeof openSqlite>['raw'];
    ({ db, raw } = openSqlite(database.file, { readOnly: options.readOnly === true }));
    rows = async (query) =>
      raw
        .prepare(query.sql)
        .raw(true)
        .all(...(query.parameters as unknown[])) as unknown[][];
    capabilities = sqliteCapabilities;
    location = database.file;
  } else {
    let pool: Awaited<ReturnType<typeof openPostgres>>['pool'];
    ({ db, pool } = await openPostgres(database.url, database.poolSize, {
      readOnly: options.readOnly === true,
    }));
    rows = async (query) =>
      (await pool.query({ text: query.sql, values: [...query.parameters], rowMode: 'array' })).rows;
    capabilities = postgresCapabilities;
    location = database.url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
  }
  const store: Store = {
    db,
    capabilities,
    location,
    database,
    transaction: (work) => db.transaction().execute(work),
    // One statement commits on its own (on PostgreSQL no BEGIN/COMMIT round trips). On SQLite the appends use the
    // one connection: a commit by a second connection (a worker-thread appender was tried) makes every other
    // connection drop its page cache, which doubled the person page's CPU (docs/decisions.md).
    append: async (statements) => {
      if (statements.length === 1) await db.executeQuery(statements[0] as CompiledQuery);
      else
        await db.transaction().execute(async (trx) => {
          for (const statement of statements) await trx.executeQuery(statement);
        });
    },
    rows,
    close: () => db.destroy(),
  };
  try {
    await refuseForeign(store);
    if (options.readOnly) await refuseUnmigrated(store);
    else if (options.migrate !== false) {
      await migrate(store);
      await syncGazetteer(store);
    }
  } catch (error) {
    await db.destroy().catch(() => {});
    throw error;
  }
  return store;
}

/**
 * Tables in athar's own namespace, the SQLite file or the connection's current PostgreSQL schema, through the
 * dialect's introspector (athar's own on PostgreSQL: dialects/postgres.ts).
 */
async function tableNames(store: Store): Promise<string[]> {
  const tables = await store.db.introspection.getTables({ withInternalKyselyTables: true });
  return tables.map((t) => t.name).sort();
}

/** A database with tables but without athar's marker is someone else's: never migrate over it. */
async function refuseForeign(store: Store): Promise<void> {
  const names = await tableNames(store);
  if (names.length === 0) return;
  if (!names.includes('kysely_migration') || !names.includes('meta')) {
    const shown = names.slice(0, 5).join(', ') + (names.length > 5 ? ', …' : '');
    throw new StoreError(
      `${store.location} already holds tables that are not athar's (${shown}); give athar its own database`,
      'foreign_database',
    );
  }
  const marker = await store.db
    .selectFrom('meta')
    .select('value')
    .where('key', '=', 'app')
    .executeTakeFirst();
  if (marker && marker.value !== appMarker) {
    throw new StoreError(`${store.location} belongs to ${marker.value}, not athar`, 'foreign_database');
  }
}

/** A read-only open cannot migrate: a schema behind this athar's is refused in one line. */
async function refuseUnmigrated(store: Store): Promise<void> {
  const names = await tableNames(store);
  if (!names.includes('kysely_migration')) {
    throw new StoreError(`${store.location} holds no athar database (run athar init)`, 'not_a_database');
  }
  const done = new Set(
    (await sql<{ name: string }>`select name from kysely_migration`.execute(store.db)).rows.map(
      (r) => r.name,
    ),
  );
  const pending = Object.keys(await allMigrations(store.capabilities)).filter((name) => !done.has(name));
  if (pending.length > 0) {
    throw new StoreError(
      `${store.location} is at an older schema (${pending.join(', ')} not applied); open it once with write access to migrate it`,
      'migration_failed',
    );
  }
}

export async function migrate(store: Store): Promise<string[]> {
  // The migration tables live in athar's schema, named so that they are created there (athar's introspector,
  // dialects/postgres.ts, looks in that schema only: another schema's tables are never taken for its own).
  const schema =
    store.capabilities.dialect === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(store.db)).rows[0]?.schema
      : undefined;
  const migrator = new Migrator({
    db: store.db,
    provider: { getMigrations: async () => allMigrations(store.capabilities) },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new StoreError(
      `migration ${failed} failed on ${store.location}: ${(error as Error).message ?? String(error)}`,
      'migration_failed',
    );
  }
  await store.db
    .insertInto('meta')
    .values({ key: 'app', value: appMarker })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Reads a meta value (instance settings such as the log origin). */
export async function getMeta(db: Db, key: string): Promise<string | undefined> {
  const row = await db.selectFrom('meta').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value;
}

export async function setMeta(db: Db, key: string, value: string): Promise<void> {
  await db
    .insertInto('meta')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}

/** Checks the connection still answers (health endpoint). */
export async function ping(store: Store): Promise<void> {
  await sql`select 1`.execute(store.db);
}

/**
 * Runs a job that writes a great deal in many transactions (a registry-wide link): on SQLite its write-ahead log is
 * copied into the database every ~100 MB rather than SQLite's 4 MB, so pages the job writes again and again (index
 * pages, the tables' last pages) are copied once per stretch, not once per transaction (1M-record registry link:
 * commits 11.7 → 8.2 s). Durability is unchanged: every commit still syncs the log (synchronous=FULL).
 */
export async function inLargeWrites<T>(store: Store, work: () => Promise<T>): Promise<T> {
  if (store.capabilities.dialect !== 'sqlite') return work();
  await sql`pragma wal_autocheckpoint = 25000`.execute(store.db);
  try {
    return await work();
  } finally {
    await sql`pragma wal_autocheckpoint = 1000`.execute(store.db);
  }
}
