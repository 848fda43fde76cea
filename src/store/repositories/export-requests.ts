import type { ExportRequestTable } from '../schema.js';
import type { Db } from '../store.js';

export type ExportRequestRow = ExportRequestTable;

/** Export requests and their steps (docs/exchange.md). */
export class ExportRequestRepository {
  constructor(private readonly db: Db) {}

  async insert(row: ExportRequestTable): Promise<void> {
    await this.db.insertInto('export_requests').values(row).execute();
  }

  async get(id: string): Promise<ExportRequestRow | undefined> {
    return this.db.selectFrom('export_requests').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Moves a request on, only from the status it is expected to be in; false when it was not. */
  async advance(id: string, from: readonly string[], patch: Partial<ExportRequestTable>): Promise<boolean> {
    const result = await this.db
      .updateTable('export_requests')
      .set(patch)
      .where('id', '=', id)
      .where('status', 'in', [...from])
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Newest first; `mine` limits to one requester's. */
  async list(
    limit: number,
    options: { requestedBy?: string; status?: string } = {},
  ): Promise<ExportRequestRow[]> {
    let q = this.db.selectFrom('export_requests').selectAll();
    if (options.requestedBy) q = q.where('requested_by', '=', options.requestedBy);
    if (options.status) q = q.where('status', '=', options.status);
    return q.orderBy('requested_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  }

  /** Ready files past their time. */
  async expiredBy(nowIso: string): Promise<ExportRequestRow[]> {
    return this.db
      .selectFrom('export_requests')
      .selectAll()
      .where('status', '=', 'ready')
      .where('expires_at', '<', nowIso)
      .execute();
  }
}
