import type { AccountRequestTable } from '../schema.js';
import type { Db } from '../store.js';

export type AccountRequestRow = AccountRequestTable;

/** Account changes awaiting a second admin (resets, role changes), and what became of them (docs/access.md). */
export class AccountRequestRepository {
  constructor(private readonly db: Db) {}

  async insert(row: AccountRequestRow): Promise<void> {
    await this.db.insertInto('account_requests').values(row).execute();
  }

  async get(id: string): Promise<AccountRequestRow | undefined> {
    return this.db.selectFrom('account_requests').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The request awaiting a decision about this user, if any. */
  async awaitingFor(userId: string): Promise<AccountRequestRow | undefined> {
    return this.db
      .selectFrom('account_requests')
      .selectAll()
      .where('user_id', '=', userId)
      .where('status', '=', 'requested')
      .executeTakeFirst();
  }

  /** Every request awaiting a decision, oldest first. */
  async awaiting(): Promise<AccountRequestRow[]> {
    return this.db
      .selectFrom('account_requests')
      .selectAll()
      .where('status', '=', 'requested')
      .orderBy('requested_at')
      .orderBy('id')
      .execute();
  }

  /** Requests awaiting a decision past their time. */
  async expiredBy(nowIso: string): Promise<AccountRequestRow[]> {
    return this.db
      .selectFrom('account_requests')
      .selectAll()
      .where('status', '=', 'requested')
      .where('expires_at', '<=', nowIso)
      .execute();
  }

  /** Settles a request still awaiting a decision; false when it no longer was (decided, cancelled, expired). */
  async settle(
    id: string,
    patch: Pick<AccountRequestRow, 'status' | 'decided_at'> & { decided_by: string | null },
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('account_requests')
      .set(patch)
      .where('id', '=', id)
      .where('status', '=', 'requested')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
