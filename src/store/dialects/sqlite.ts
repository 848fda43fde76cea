import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  Kysely,
  SqliteAdapter,
  SqliteDialect,
  SqliteDriver,
} from 'kysely';
import { StoreError } from '../errors.js';
import type { Database } from '../schema.js';

// SQLite does run DDL inside transactions; telling Kysely so makes every migration all-or-nothing, as on PostgreSQL.
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/**
 * Transactions take the write lock when they begin (`BEGIN IMMEDIATE`), not at their first write. A plain
 * (deferred) `BEGIN` that reads and then writes while another process committed meanwhile cannot be upgraded and
 * fails at once with "database is locked", busy timeout or not (SQLite will not wait on a stale snapshot); an
 * immediate one waits up to the busy timeout for the other writer instead (issue 21, Reliability 1; docs/decisions.md).
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  /**
   * On some errors (a full disk, an I/O error) SQLite has already rolled the transaction back; the rollback that
   * follows would fail with "cannot rollback - no transaction is active" and hide the error that matters.
   */
  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await super.rollbackTransaction(connection);
    } catch (error) {
      if (!/no transaction is active/.test((error as Error).message)) throw error;
    }
  }
}

/** A read-only file takes no write lock: its transactions are plain (deferred) reads of one snapshot. */
class ReadOnlySqliteDriver extends SqliteDriver {}

class AtharSqliteDialect extends SqliteDialect {
  constructor(
    private readonly options: ConstructorParameters<typeof SqliteDialect>[0],
    private readonly readOnly = false,
  ) {
    super(options);
  }
  override createAdapter() {
    return new TransactionalDdlSqliteAdapter();
  }
  override createDriver() {
    return this.readOnly ? new ReadOnlySqliteDriver(this.options) : new ImmediateSqliteDriver(this.options);
  }
}

/** How long a writer waits for another process's write lock before SQLite answers "database is locked". */
export const sqliteBusyTimeoutMs = 10_000;

/** How many distinct SQL texts keep a prepared statement (athar's queries are a few hundred shapes). */
const statementCacheSize = 500;

/**
 * The database as Kysely's SQLite driver sees it, preparing each SQL text once: the driver calls `prepare` for every
 * query, and compiling the statement cost about a seventh of the person page's CPU. A bounded LRU keyed by the SQL
 * text; a statement still being iterated (`busy`, e.g. by a stream) is never handed out twice, so a fresh one is
 * prepared for that call instead.
 */
export class StatementCache {
  private readonly statements = new Map<string, SQLite.Statement>();

  constructor(
    private readonly raw: SQLite.Database,
    private readonly limit = statementCacheSize,
  ) {}

  prepare(sql: string): SQLite.Statement {
    const cached = this.statements.get(sql);
    if (cached) {
      if (cached.busy) return this.raw.prepare(sql);
      // Map order is insertion order: re-inserting marks the statement most recently used.
      this.statements.delete(sql);
      this.statements.set(sql, cached);
      return cached;
    }
    const statement = this.raw.prepare(sql);
    this.statements.set(sql, statement);
    if (this.statements.size > this.limit) {
      const oldest = this.statements.keys().next().value as string;
      this.statements.delete(oldest);
    }
    return statement;
  }

  get size(): number {
    return this.statements.size;
  }

  close(): void {
    this.statements.clear();
    this.raw.close();
  }
}

const header = Buffer.from('SQLite format 3\0', 'latin1');

/** Takes the group and other bits off a file, if it is there and ours to change (a read-only copy is left alone). */
export function ownerOnly(file: string): void {
  try {
    const stat = fs.statSync(file);
    if ((stat.mode & 0o077) !== 0) fs.chmodSync(file, stat.mode & 0o7700);
  } catch {
    // Missing, or not ours to change: nothing to do here.
  }
}

/**
 * Opens an existing database for reading only, writing nothing beside it (`athar verify` on a read-only copy,
 * issue 21 Reliability 6); `query_only` refuses any write. A WAL database needs its shared-memory file, which a
 * read-only folder cannot take: then the database (and its write-ahead log) are copied to a private temporary
 * folder and read there; the copy goes when the process ends.
 */
function openSqliteReadOnly(file: string): { db: Kysely<Database>; raw: SQLite.Database } {
  if (!fs.existsSync(file)) throw new StoreError(`no database at ${file} (run athar init)`, 'not_a_database');
  checkHeader(file);
  const attempt = (name: string) => {
    const raw = new SQLite(name, { readonly: true, fileMustExist: true });
    try {
      raw.pragma('query_only = ON');
      raw.pragma(`busy_timeout = ${sqliteBusyTimeoutMs}`);
      raw.prepare('select count(*) from sqlite_master').get();
      return raw;
    } catch (error) {
      raw.close();
      throw error;
    }
  };
  let raw: SQLite.Database;
  try {
    raw = attempt(file);
  } catch {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-readonly-'));
    fs.chmodSync(dir, 0o700);
    process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
    const copy = path.join(dir, path.basename(file));
    try {
      fs.copyFileSync(file, copy);
      if (fs.existsSync(`${file}-wal`)) fs.copyFileSync(`${file}-wal`, `${copy}-wal`);
      raw = attempt(copy);
    } catch (again) {
      fs.rmSync(dir, { recursive: true, force: true });
      throw new StoreError(
        `${file} cannot be opened for reading: ${(again as Error).message}`,
        'not_a_database',
      );
    }
  }
  return {
    db: new Kysely<Database>({
      dialect: new AtharSqliteDialect({ database: new StatementCache(raw) }, true),
    }),
    raw,
  };
}

function checkHeader(file: string): void {
  const stat = fs.statSync(file);
  if (!stat.isFile()) throw new StoreError(`database path ${file} is not a file`, 'not_a_database');
  if (stat.size === 0) return;
  const fd = fs.openSync(file, 'r');
  const head = Buffer.alloc(16);
  fs.readSync(fd, head, 0, 16, 0);
  fs.closeSync(fd);
  if (!head.equals(header)) {
    throw new StoreError(
      `${file} is not a SQLite database (its first 16 bytes are not the SQLite header)`,
      'not_a_database',
    );
  }
}

/**
 * Opens (or creates) the SQLite file with the settings athar relies on: WAL so readers never block the writer,
 * foreign keys enforced, a busy timeout instead of immediate SQLITE_BUSY, and full sync so a committed row
 * survives power loss (custody records are evidence).
 */
export function openSqlite(
  file: string,
  options: { readOnly?: boolean } = {},
): { db: Kysely<Database>; raw: SQLite.Database } {
  const dir = path.dirname(file);
  if (options.readOnly) return openSqliteReadOnly(file);
  if (!fs.existsSync(dir)) {
    throw new StoreError(
      `database folder ${dir} does not exist (run athar init, or set ATHAR_DATA)`,
      'not_writable',
    );
  }
  if (fs.existsSync(file)) {
    const stat = fs.statSync(file);
    if (!stat.isFile()) throw new StoreError(`database path ${file} is not a file`, 'not_a_database');
    if (stat.size > 0) {
      const fd = fs.openSync(file, 'r');
      const head = Buffer.alloc(16);
      fs.readSync(fd, head, 0, 16, 0);
      fs.closeSync(fd);
      if (!head.equals(header)) {
        throw new StoreError(
          `${file} is not a SQLite database (its first 16 bytes are not the SQLite header)`,
          'not_a_database',
        );
      }
    }
  }
  try {
    fs.accessSync(dir, fs.constants.W_OK);
  } catch {
    throw new StoreError(`database folder ${dir} is not writable`, 'not_writable');
  }
  // Owner-only (issue 21, Security 6): made 0600 before SQLite opens it, so its WAL and shared-memory files, which
  // SQLite makes with the database's own mode, are 0600 too; files made earlier with wider modes are narrowed.
  if (!fs.existsSync(file)) fs.closeSync(fs.openSync(file, 'a', 0o600));
  ownerOnly(file);
  let raw: SQLite.Database;
  try {
    raw = new SQLite(file);
    raw.pragma('journal_mode = WAL');
    raw.pragma('foreign_keys = ON');
    raw.pragma(`busy_timeout = ${sqliteBusyTimeoutMs}`);
    raw.pragma('synchronous = FULL');
    raw.pragma('temp_store = MEMORY');
    raw.pragma('cache_size = -65536');
    // Reads through a memory map rather than read() calls: log proofs at 10M entries drop from ~1.2 to ~0.86 ms.
    raw.pragma('mmap_size = 1073741824');
    raw.prepare('select count(*) from sqlite_master').get();
    for (const companion of [`${file}-wal`, `${file}-shm`, `${file}-journal`]) ownerOnly(companion);
  } catch (error) {
    throw new StoreError(
      `${file} cannot be opened as a SQLite database: ${(error as Error).message}`,
      'not_a_database',
    );
  }
  return {
    db: new Kysely<Database>({ dialect: new AtharSqliteDialect({ database: new StatementCache(raw) }) }),
    raw,
  };
}
