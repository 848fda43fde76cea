import type { Database } from '../schema.js';
import { slices } from '../slices.js';
import type { Db } from '../store.js';

/** Tables whose rows are looked up by id to check that a reference names something. */
type IdTable = {
  [T in keyof Database]: Database[T] extends { id: string } ? T : never;
}[keyof Database];

/** Existence checks by id: what a service asks before it writes a row that refers to another. */
export class LookupRepository {
  constructor(private readonly db: Db) {}

  async exists(table: IdTable, id: string): Promise<boolean> {
    const row = await this.db
      .selectFrom(table as 'records')
      .select('id')
      .where('id', '=', id)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The ids among these that name a row of the table (asked 500 at a time). */
  async existing(table: IdTable, ids: readonly string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (const part of slices(ids, 500)) {
      const rows = await this.db
        .selectFrom(table as 'records')
        .select('id')
        .where('id', 'in', part)
        .execute();
      for (const r of rows) found.add(r.id);
    }
    return found;
  }
}
