import { createHash } from 'node:crypto';
import { Kysely, PostgresDialect } from 'kysely';
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

/** Opens a pool and proves it works: reachable, logged in, UTF-8 (Arabic text must survive and compare). */
export async function openPostgres(
  url: string,
  poolSize: number,
): Promise<{ db: Kysely<Database>; pool: pg.Pool }> {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    types,
    connectionTimeoutMillis: 10_000,
    application_name: 'athar',
  });
  // An idle client dropped by the server must not crash the process.
  pool.on('error', () => {});
  pool.on('connect', prepareReads);
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
  return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), pool };
}
