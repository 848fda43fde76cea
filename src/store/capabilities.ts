import { slices } from './slices.js';

/**
 * What differs between the dialects, declared as data (after Kysely's DialectAdapter). Repositories and
 * migrations consult these flags; services never see the dialect.
 */
export interface Capabilities {
  readonly dialect: 'sqlite' | 'postgres';
  /** Column type for raw bytes. */
  readonly binaryType: 'blob' | 'bytea';
  /** Cross-process advisory locks (PostgreSQL); SQLite relies on its single write lock instead. */
  readonly advisoryLocks: boolean;
  /** Bound parameters one statement may carry; batch inserts are chunked below it. */
  readonly maxParameters: number;
  /** Whether several connections may write at once (pooled PostgreSQL) or writes serialise (SQLite). */
  readonly concurrentWriters: boolean;
}

export const sqliteCapabilities: Capabilities = {
  dialect: 'sqlite',
  binaryType: 'blob',
  advisoryLocks: false,
  maxParameters: 32_766,
  concurrentWriters: false,
};

export const postgresCapabilities: Capabilities = {
  dialect: 'postgres',
  binaryType: 'bytea',
  advisoryLocks: true,
  maxParameters: 65_535,
  concurrentWriters: true,
};

/** Splits rows so that one insert statement stays under the dialect's parameter limit. */
export function chunkRows<T extends object>(caps: Capabilities, rows: readonly T[]): T[][] {
  if (rows.length === 0) return [];
  const columns = Math.max(1, Object.keys(rows[0] as object).length);
  const size = Math.max(1, Math.floor((caps.maxParameters - 1) / columns));
  return slices(rows, size);
}
