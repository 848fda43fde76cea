import { createHash } from 'node:crypto';
import {
  type ColumnMetadata,
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type DatabaseMetadataOptions,
  DEFAULT_MIGRATION_LOCK_TABLE,
  DEFAULT_MIGRATION_TABLE,
  Kysely,
  PostgresDialect,
  type SchemaMetadata,
  sql,
  type TableMetadata,
} from 'kysely';
import pg from 'pg';
import { redactUrl } from '../../config/config.js';
import { StoreError } from '../errors.js';
import type { Database } from '../schema.js';

// int8 (counts, identities) as numbers: athar's counters stay far below 2^53.
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20) return (value: string) => Number.parseInt(value, 10);
    return pg.types.getTypeParser(oid, format);
  },
};

/** Distinct statements one connection keeps prepared; beyond it, queries are planned each time as before. */
const preparedPerConnection = 200;
const statementNames = new Map<string, string>();

/** The name a SQL text is prepared under (the same on every connection). */
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) {
    name = `athar_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    if (statementNames.size >= 5_000) statementNames.clear();
    statementNames.set(text, name);
  }
  return name;
}

/**
 * Makes a new connection prepare its parameterised reads once (named statements): planning, not running, was most
 * of PostgreSQL's time on the person page (about 1.3 ms of CPU against 0.2 ms prepared). Only single SELECT/WITH
 * texts with parameters are named, and at most `preparedPerConnection` per connection. A prepared plan follows
 * schema changes, except that a `select *` whose table gained a column fails until reconnecting: migrations run
 * before the server answers. Not for a pooler in transaction mode (pgbouncer), which loses named statements.
 */
export function prepareReads(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const prepared = new Set<string>();
  (client as { query: unknown }).query = (...args: unknown[]) => {
    const [text, values] = args;
    if (
      args.length === 2 &&
      typeof text === 'string' &&
      Array.isArray(values) &&
      values.length > 0 &&
      /^\s*(select|with)\s/i.test(text) &&
      !text.includes(';')
    ) {
      const name = statementName(text);
      if (prepared.has(name) || prepared.size < preparedPerConnection) {
        prepared.add(name);
        return query({ name, text, values });
      }
    }
    return query(...args);
  };
}

/**
 * Reads athar's own schema only (the connection's current one), from pg_catalog. Kysely's introspector reads every
 * schema of the database and names each in privilege checks, so a schema that another tenant of the database
 * (tests, a second instance, another application) dropped meanwhile failed the read — and with it athar's
 * migration, whose migrator introspects to find its own tables ("schema … does not exist").
 */
export class OwnSchemaIntrospector implements DatabaseIntrospector {
  // biome-ignore lint/suspicious/noExplicitAny: the introspector reads catalog tables outside athar's schema type
  constructor(private readonly db: Kysely<any>) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string | null }>`select current_schema() as name`.execute(this.db);
    return rows.flatMap((r) => (r.name ? [{ name: r.name }] : []));
  }

  async getTables(
    options: DatabaseMetadataOptions = { withInternalKyselyTables: false },
  ): Promise<TableMetadata[]> {
    const { rows } = await sql<CatalogColumn>`
      select n.nspname as schema, c.relname as table, c.relkind as kind, a.attname as column,
        a.attnotnull as not_null, a.atthasdef as has_default, a.attidentity as identity,
        t.typname as type, tn.nspname as type_schema,
        pg_get_expr(d.adbin, d.adrelid) as default_expression, col_description(c.oid, a.attnum) as comment
      from pg_catalog.pg_class c
      join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      left join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      left join pg_catalog.pg_type t on t.oid = a.atttypid
      left join pg_catalog.pg_namespace tn on tn.oid = t.typnamespace
      left join pg_catalog.pg_attrdef d on d.adrelid = c.oid and d.adnum = a.attnum
      where n.nspname = current_schema() and c.relkind in ('r', 'v', 'p')
      order by c.relname, a.attnum`.execute(this.db);
    const internal = new Set([DEFAULT_MIGRATION_TABLE, DEFAULT_MIGRATION_LOCK_TABLE]);
    const tables = new Map<
      string,
      { name: string; schema: string; isView: boolean; columns: ColumnMetadata[] }
    >();
    for (const r of rows) {
      if (!options.withInternalKyselyTables && internal.has(r.table)) continue;
      let table = tables.get(r.table);
      if (!table) {
        table = { name: r.table, schema: r.schema, isView: r.kind === 'v', columns: [] };
        tables.set(r.table, table);
      }
      if (r.column === null) continue;
      table.columns.push({
        name: r.column,
        dataType: r.type ?? '',
        dataTypeSchema: r.type_schema ?? undefined,
        isNullable: !r.not_null,
        hasDefaultValue: r.has_default === true,
        isAutoIncrementing: r.identity !== '' || /^nextval\(/.test(r.default_expression ?? ''),
        comment: r.comment ?? undefined,
      });
    }
    return [...tables.values()];
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) };
  }
}

interface CatalogColumn {
  schema: string;
  table: string;
  kind: string;
  column: string | null;
  not_null: boolean | null;
  has_default: boolean | null;
  identity: string | null;
  type: string | null;
  type_schema: string | null;
  default_expression: string | null;
  comment: string | null;
}

/** Kysely's PostgreSQL dialect with athar's introspector (above). */
class AtharPostgresDialect extends PostgresDialect {
  // biome-ignore lint/suspicious/noExplicitAny: as Kysely's own signature
  override createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new OwnSchemaIntrospector(db);
  }
}

/** Explains a connection failure in one line, without the password. */
export function describePgError(url: string, error: unknown): string {
  const e = error as { code?: string; message?: string };
  const where = redactUrl(url);
  switch (e.code) {
    case 'ECONNREFUSED':
      return `cannot reach PostgreSQL at ${where}: connection refused (is the server running?)`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `cannot reach PostgreSQL at ${where}: host not found`;
    case 'ETIMEDOUT':
      return `cannot reach PostgreSQL at ${where}: connection timed out`;
    case '3D000':
      return `PostgreSQL at ${where}: ${e.message} (create it with ENCODING 'UTF8')`;
    case '28P01':
    case '28000':
      return `PostgreSQL at ${where} refused the login: ${e.message}`;
    default:
      return `PostgreSQL at ${where}: ${e.message ?? String(error)}`;
  }
}

/**
 * The URL with a server setting for every session it opens, added to any `options` it holds already (a setting
 * passed beside the URL would be overridden by the URL's own `options`).
 */
export function withSessionSetting(url: string, setting: string): string {
  const parsed = new URL(url);
  const options = parsed.searchParams.get('options');
  parsed.searchParams.set('options', `${options ? `${options} ` : ''}-c ${setting}`);
  return parsed.toString();
}

/** Opens a pool and proves it works: reachable, logged in, UTF-8 (Arabic text must survive and compare). */
export async function openPostgres(
  url: string,
  poolSize: number,
  options: { readOnly?: boolean } = {},
): Promise<{ db: Kysely<Database>; pool: pg.Pool }> {
  const pool = new pg.Pool({
    // Read-only sessions (athar verify, a registry-wide run's second reader): the server itself refuses any write.
    // Set as the session starts, not by a query on connecting, which pg would queue beside the first query the pool
    // hands the client out for (deprecated: one query at a time per client).
    connectionString: options.readOnly ? withSessionSetting(url, 'default_transaction_read_only=on') : url,
    max: poolSize,
    types,
    connectionTimeoutMillis: 10_000,
    application_name: 'athar',
  });
  // An idle client dropped by the server must not crash the process.
  pool.on('error', () => {});
  pool.on('connect', prepareReads);
  // A client in use when the server goes away emits 'error' too; unheard, it would end the process with a stack
  // trace. Its query fails as well, and that failure is what is reported (store/errors.ts storageFault).
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  try {
    const result = await pool.query<{ server_encoding: string }>('show server_encoding');
    const encoding = result.rows[0]?.server_encoding;
    if (encoding !== 'UTF8') {
      throw new StoreError(
        `PostgreSQL database at ${redactUrl(url)} has encoding ${encoding}; athar needs UTF8 (CREATE DATABASE … ENCODING 'UTF8' TEMPLATE template0)`,
        'bad_encoding',
      );
    }
  } catch (error) {
    await pool.end().catch(() => {});
    if (error instanceof StoreError) throw error;
    throw new StoreError(describePgError(url, error), 'unreachable');
  }
  return { db: new Kysely<Database>({ dialect: new AtharPostgresDialect({ pool }) }), pool };
}
