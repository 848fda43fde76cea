import type { ImportTable } from '../schema.js';
import type { Db } from '../store.js';

/** Imports and their progress, for the live progress page. */
export class ImportRepository {
  constructor(private readonly db: Db) {}

  async create(row: ImportTable): Promise<void> {
    await this.db.insertInto('imports').values(row).execute();
  }

  async update(id: string, values: Partial<Omit<ImportTable, 'id'>>): Promise<void> {
    await this.db.updateTable('imports').set(values).where('id', '=', id).execute();
  }

  async get(id: string): Promise<ImportTable | undefined> {
    return this.db.selectFrom('imports').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Up to `limit` imports, newest first, with id below `before` (ids sort by time). */
  async page(before: string | undefined, limit: number): Promise<ImportTable[]> {
    return this.db
      .selectFrom('imports')
      .selectAll()
      .$if(before !== undefined, (q) => q.where('id', '<', before as string))
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }
}
