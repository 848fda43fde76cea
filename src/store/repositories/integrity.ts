import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import type { Db } from '../store.js';

/** A database handle that may name any table: verify walks tables by name from the log's list of covered ones. */
type AnyTables = Kysely<Database & Record<string, Record<string, unknown>>>;

/** What `athar verify` reads beside the log: rows page by page, and which items name a blob. */
export class IntegrityRepository {
  constructor(private readonly db: Db) {}

  private get any(): AnyTables {
    return this.db as unknown as AnyTables;
  }

  /** The items whose original, thumbnail or blurred view is this blob. */
  async itemsNamingBlob(sha256: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('evidence_items')
      .select('id')
      .where((eb) =>
        eb.or([
          eb('sha256', '=', sha256),
          eb('thumbnail_sha256', '=', sha256),
          eb('blurred_sha256', '=', sha256),
        ]),
      )
      .execute();
    return rows.map((r) => r.id);
  }

  /** A page of items' blob names, by id after `after`. */
  blobsPage(after: string, limit: number) {
    return this.db
      .selectFrom('evidence_items')
      .select(['id', 'sha256', 'thumbnail_sha256', 'blurred_sha256'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /** A page of a table's rows (these columns), by id after `after`. */
  async rowsPage(
    table: string,
    columns: readonly string[],
    after: string,
    limit: number,
  ): Promise<Record<string, unknown>[]> {
    return (await this.any
      .selectFrom(table)
      .select(columns as string[])
      .where('id', '>', after)
      .orderBy('id')
      .limit(limit)
      .execute()) as Record<string, unknown>[];
  }

  /** The ids among these that a table holds. */
  async existing(table: string, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = (await this.any
      .selectFrom(table)
      .select('id')
      .where('id', 'in', [...ids])
      .execute()) as { id: string }[];
    return new Set(rows.map((r) => r.id));
  }
}
