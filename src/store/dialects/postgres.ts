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
