import {
  type Insertable,
  type InsertQueryBuilder,
  type InsertResult,
  type RawBuilder,
  type SqlBool,
  sql,
} from 'kysely';
import { type Capabilities, chunkRows } from './capabilities.js';
import type { Database } from './schema.js';
import { slices } from './slices.js';
import type { Db } from './store.js';

/**
 * PostgreSQL: rows as a SELECT from one JSON parameter (`json_populate_recordset` over the table's own row type),
 * for `INSERT … SELECT`. A VALUES list of thousands of rows binds, and the server parses, tens of thousands of
 * parameters: at 1M records `registry link` spent about three times as long on that as on inserting the rows
 * (12.8 s for 158k links against 3.7 s for the same rows from a table; bench/RESULTS.md 2026-12-03). Every row
 * must have the keys of the first.
 */
export function rowsFromJson(table: keyof Database & string, rows: readonly object[]): RawBuilder<unknown> {
  return sql`select ${sql.join(columnsOf(rows).map((c) => sql.ref(c)))} from json_populate_recordset(null::${sql.table(
    table,
  )}, ${JSON.stringify(rows)}::json)`;
}

/** The column names of rows built alike (the keys of the first). */
export function columnsOf<T extends object>(rows: readonly T[]): (keyof T & string)[] {
  return Object.keys(rows[0] ?? {}) as (keyof T & string)[];
}

/** Rows (or ids) this many at most per statement from one JSON parameter (a few MB). */
export const jsonChunk = 20_000;

/**
 * SQLite: rows as a SELECT from one JSON parameter (each row an array in column order), for `INSERT … SELECT`, in
 * their order. Building a VALUES list of thousands of bound parameters through the query builder cost more than
 * SQLite's inserting of them (1M-record registry link, bench/RESULTS.md 2026-12-04). Only for rows whose values
 * are strings, numbers and nulls (JSON carries these exactly: doubles round-trip bit for bit through SQLite's
 * JSON); undefined when a value is anything else, and the caller binds as before.
 */
export function sqliteRowsFromJson(
  columns: readonly string[],
  rows: readonly object[],
): RawBuilder<unknown> | undefined {
  const arrays: unknown[][] = new Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as Record<string, unknown>;
    const values = new Array(columns.length);
    for (let k = 0; k < columns.length; k++) {
      const v = row[columns[k] as string] ?? null;
      if (v !== null && typeof v !== 'string' && (typeof v !== 'number' || !Number.isFinite(v)))
        return undefined;
      values[k] = v;
    }
    arrays[i] = values;
  }
  // `where true`: without it SQLite would read an upsert's ON CONFLICT as the join's ON.
  return sql`select ${sql.join(columns.map((c, k) => sql`j.value ->> ${sql.lit(k)} as ${sql.ref(c)}`))}
    from json_each(${JSON.stringify(arrays)}) as j where true order by j.key`;
}

/**
 * Inserts many rows of one table, from one JSON parameter per 20,000 rows on both dialects; VALUES lists under the
 * parameter limit where a row holds what JSON does not carry (bytes; on SQLite also booleans: sqliteInserts).
 */
export async function insertRows<T extends keyof Database & string>(
  db: Db,
  caps: Capabilities,
  table: T,
  rows: readonly Insertable<Database[T]>[],
): Promise<void> {
  if (rows.length === 0) return;
  // Kysely's types cannot follow a table name chosen by the caller; the rows are typed by the signature.
  const into = db.insertInto(table as keyof Database) as unknown as {
    values(v: readonly object[]): { execute(): Promise<unknown> };
    columns(c: readonly string[]): { expression(e: RawBuilder<unknown>): { execute(): Promise<unknown> } };
  };
  if (caps.dialect === 'postgres') {
    for (const part of slices(rows as readonly object[], jsonChunk)) {
      // Bytes would reach JSON as {"type":"Buffer",…}: such rows are bound as values.
      if (part.some((row) => Object.values(row).some((v) => v instanceof Uint8Array)))
        for (const chunk of chunkRows(caps, part)) await into.values(chunk).execute();
      else await into.columns(columnsOf(part)).expression(rowsFromJson(table, part)).execute();
    }
    return;
  }
  for (const statement of sqliteInserts(db, caps, table, rows)) await statement.execute();
}

/**
 * SQLite: the INSERT statements for many rows of one table, made one at a time (so one JSON text is held at once):
 * one from a JSON parameter per 20,000 rows (sqliteRowsFromJson), or VALUES lists under the parameter limit for a
 * part whose rows hold something JSON does not carry. The caller may add ON CONFLICT to each.
 */
export function* sqliteInserts<T extends keyof Database & string>(
  db: Db,
  caps: Capabilities,
  table: T,
  rows: readonly Insertable<Database[T]>[],
): Generator<InsertQueryBuilder<Database, T, InsertResult>> {
  // Kysely's types cannot follow a table name chosen by the caller; the rows are typed by the signature.
  const into = () =>
    db.insertInto(table) as unknown as InsertQueryBuilder<Database, T, InsertResult> & {
      columns(c: readonly string[]): {
        expression(e: RawBuilder<unknown>): InsertQueryBuilder<Database, T, InsertResult>;
      };
      values(v: readonly object[]): InsertQueryBuilder<Database, T, InsertResult>;
    };
  for (const part of slices(rows as readonly object[], jsonChunk)) {
    const columns = columnsOf(part);
    const select = sqliteRowsFromJson(columns, part);
    if (select) yield into().columns(columns).expression(select);
    else for (const chunk of chunkRows(caps, part)) yield into().values(chunk);
  }
}

/**
 * Ids for `column IN (…)`, a statement's worth at a time: on PostgreSQL all of them as one array parameter
 * (`= any($1::text[])`: a list of hundreds of parameters is bound and planned every time), on SQLite 20,000 a
 * statement as one JSON parameter, and when the dialect is not known 500 bound parameters a statement.
 */
export function idParts(caps: Capabilities | undefined, ids: readonly string[]): (readonly string[])[] {
  if (ids.length === 0) return [];
  if (caps?.dialect === 'postgres') return [ids];
  return slices(ids, caps?.dialect === 'sqlite' ? jsonChunk : 500);
}

/** `column` is one of `ids` (one part of idParts). */
export function isOneOf(
  caps: Capabilities | undefined,
  column: string,
  ids: readonly string[],
): RawBuilder<SqlBool> {
  if (caps?.dialect === 'postgres') return sql<SqlBool>`${sql.ref(column)} = any(${ids}::text[])`;
  // SQLite looks each one up in the column's index (the list is made a temporary b-tree first, so in index order).
  if (caps?.dialect === 'sqlite')
    return sql<SqlBool>`${sql.ref(column)} in (select value from json_each(${JSON.stringify(ids)}))`;
  return sql<SqlBool>`${sql.ref(column)} in (${sql.join(ids)})`;
}

/** Rows deleted at once from which a queue table is vacuumed: below it autovacuum keeps up. */
const reclaimFrom = 10_000;

/**
 * After a great many rows of a queue table were deleted at once (a registry-wide run's queue, a command's staged log
 * entries): on PostgreSQL the dead rows stay in the table until autovacuum comes, and until then every look at the
 * queue (a count, its first row) reads them all — 20–50 ms each at 1M, on every report the loop takes. Vacuumed
 * and analysed at once. SQLite frees the pages itself. Not inside a transaction.
 */
export async function reclaimDeleted(
  db: Db,
  caps: Capabilities,
  table: 'tracing_queue' | 'ledger_queue',
  deleted: number,
) {
  if (caps.dialect === 'postgres' && deleted >= reclaimFrom)
    await sql`vacuum (analyze) ${sql.table(table)}`.execute(db);
}
