import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';

/**
 * A consistent copy of the database while athar runs, and its way back: SQLite's online backup API (one step, so
 * one read transaction: the copy is one moment even while the server writes), or `pg_dump` in the snapshot of
 * a repeatable-read transaction that also counts the rows, so the counts are the dump's. Restoring goes into an
 * empty place only. (A database adapter: it may move to src/store/ when the services are reorganised.)
 */

export class DatabaseCopyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DatabaseCopyError';
  }
}

export type TableCounts = Record<string, number>;

/** Every table's row count in a SQLite file (athar's and Kysely's migration tables alike). */
export function sqliteCounts(file: string): TableCounts {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const tables = db
      .prepare(
        "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name",
      )
      .all() as { name: string }[];
    return Object.fromEntries(
      tables.map((t) => [
        t.name,
        Number((db.prepare(`select count(*) as n from "${t.name}"`).get() as { n: number }).n),
      ]),
    );
  } finally {
    db.close();
  }
}

export async function backupSqlite(source: string, target: string): Promise<TableCounts> {
  const db = new SQLite(source, { readonly: true, fileMustExist: true });
  try {
    // All pages in one step: a step is one read transaction, so writers between steps cannot make it restart.
    await db.backup(target, { progress: () => 0x7fffffff });
  } finally {
    db.close();
  }
  // One self-contained file: the copy leaves WAL mode (athar sets it again when it opens a restored database).
  const copy = new SQLite(target, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = delete');
  } finally {
    copy.close();
  }
  fs.chmodSync(target, 0o600);
  return sqliteCounts(target);
}

/** The libpq environment for a URL, so that no password is ever on a command line. */
export function libpqEnv(url: string): NodeJS.ProcessEnv {
  const u = new URL(url);
  const env: NodeJS.ProcessEnv = {
    PGHOST: decodeURIComponent(u.hostname || 'localhost'),
    PGPORT: u.port || '5432',
    PGDATABASE: decodeURIComponent(u.pathname.replace(/^\//, '')) || 'postgres',
  };
  if (u.username) env.PGUSER = decodeURIComponent(u.username);
  if (u.password) env.PGPASSWORD = decodeURIComponent(u.password);
  const options = u.searchParams.get('options');
  if (options) env.PGOPTIONS = options;
  const sslmode = u.searchParams.get('sslmode');
  if (sslmode) env.PGSSLMODE = sslmode;
  return env;
}

export async function pgToolVersion(tool: 'pg_dump' | 'pg_restore'): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(tool, ['--version'], (error, stdout) =>
      error
        ? reject(
            new DatabaseCopyError(
              `${tool} is not installed (apt-get install postgresql-client): a PostgreSQL backup needs it`,
            ),
          )
        : resolve(stdout.trim()),
    ),
  );
}

function run(tool: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('error', (error) => reject(new DatabaseCopyError(`${tool}: ${error.message}`)));
    child.on('close', (code) =>
      code === 0
        ? resolve(stdout)
        : reject(
            new DatabaseCopyError(
              `${tool} failed (exit ${code}): ${stderr.trim().split('\n').slice(-3).join(' ')}`,
            ),
          ),
    );
  });
}

async function countSchema(client: pg.Client, schema: string): Promise<TableCounts> {
  const tables = await client.query<{ name: string }>(
    "select table_name as name from information_schema.tables where table_schema = $1 and table_type = 'BASE TABLE' order by table_name",
    [schema],
  );
  const out: TableCounts = {};
  for (const { name } of tables.rows) {
    const r = await client.query<{ n: string }>(`select count(*) as n from "${schema}"."${name}"`);
    out[name] = Number(r.rows[0]?.n);
  }
  return out;
}

/** pg_dump of athar's schema in the snapshot its rows were counted in. */
export async function backupPostgres(
  url: string,
  target: string,
): Promise<{ counts: TableCounts; schema: string; tool: string }> {
  const tool = await pgToolVersion('pg_dump');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('begin isolation level repeatable read read only');
    const schema = (await client.query<{ s: string }>('select current_schema() as s')).rows[0]?.s;
    if (!schema) throw new DatabaseCopyError('the connection has no current schema');
    const snapshot = (await client.query<{ id: string }>('select pg_export_snapshot() as id')).rows[0]
      ?.id as string;
    const counts = await countSchema(client, schema);
    await run(
      'pg_dump',
      [
        '--format=custom',
        '--compress=1',
        '--no-owner',
        '--no-privileges',
        `--schema=${schema}`,
        `--snapshot=${snapshot}`,
        `--file=${target}`,
      ],
      libpqEnv(url),
    );
    await client.query('commit');
    fs.chmodSync(target, 0o600);
    return { counts, schema, tool };
  } finally {
    await client.end();
  }
}

/** Refuses a PostgreSQL target whose schema already holds tables; says whether the schema exists. */
export async function requireEmptyPostgres(url: string, schema: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect().catch((error: Error) => {
    throw new DatabaseCopyError(`cannot connect to the target database: ${error.message}`);
  });
  try {
    const r = await client.query<{ n: string }>(
      'select count(*) as n from information_schema.tables where table_schema = $1',
      [schema],
    );
    if (Number(r.rows[0]?.n) > 0) {
      throw new DatabaseCopyError(
        `the target database's schema ${schema} already holds ${r.rows[0]?.n} tables: restore goes into an empty place only`,
      );
    }
    const exists = await client.query('select 1 from pg_namespace where nspname = $1', [schema]);
    return exists.rowCount !== 0;
  } finally {
    await client.end();
  }
}

export async function restorePostgres(dump: string, url: string, schema: string): Promise<TableCounts> {
  await pgToolVersion('pg_restore');
  const exists = await requireEmptyPostgres(url, schema);
  const env = libpqEnv(url);
  let list: string | undefined;
  const args = [
    '--no-owner',
    '--no-privileges',
    '--exit-on-error',
    '--single-transaction',
    `--dbname=${env.PGDATABASE}`,
  ];
  if (exists) {
    // The dump creates its schema; an existing empty one (`public` is in every new database) is used as it is.
    const toc = await run('pg_restore', ['--list', dump], env);
    const quoted = schema.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const keep = toc
      .split('\n')
      .filter((line) => !new RegExp(`(SCHEMA - ${quoted} |COMMENT - SCHEMA ${quoted} )`).test(line));
    list = path.join(os.tmpdir(), `athar-restore-${process.pid}-${Date.now()}.list`);
    fs.writeFileSync(list, `${keep.join('\n')}\n`, { mode: 0o600 });
    args.push(`--use-list=${list}`);
  }
  try {
    await run('pg_restore', [...args, dump], env);
  } finally {
    if (list) fs.rmSync(list, { force: true });
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await countSchema(client, schema);
  } finally {
    await client.end();
  }
}
