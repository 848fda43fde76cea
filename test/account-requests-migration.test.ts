import { expect, it } from 'vitest';
import { migrate, openStore } from '../src/store/store.js';
import { createTestDatabase, dialects, migrateBefore } from './stores.js';

/**
 * Migration 0022 turns 0020's password_reset_requests into account_requests (issue 21, Security 10): a data folder
 * that ran 0020 keeps its requests, each now a password reset, and still holds one awaiting request per account.
 * Synthetic rows only.
 */
for (const dialect of dialects) {
  it(`keeps the resets asked for before 0022 as password_reset requests [${dialect}]`, async () => {
    const database = await createTestDatabase(dialect);
    const store = await openStore(database.config, { migrate: false });
    try {
      await migrateBefore(store, dialect, '0022');
      const now = new Date().toISOString();
      // biome-ignore lint/suspicious/noExplicitAny: the table of 0020 is no longer in the typed schema
      const db = store.db as any;
      await db
        .insertInto('users')
        .values({
          id: 'synthetic-user',
          username: 'synthetic-liaison',
          password_hash: 'x',
          role: 'liaison',
          must_change_password: 0,
          disabled: 0,
          created_at: now,
        })
        .execute();
      await db
        .insertInto('users')
        .values({
          id: 'synthetic-admin',
          username: 'synthetic-admin',
          password_hash: 'x',
          role: 'admin',
          must_change_password: 0,
          disabled: 0,
          created_at: now,
        })
        .execute();
      await db
        .insertInto('password_reset_requests')
        .values({
          id: 'synthetic-request',
          user_id: 'synthetic-user',
          reset_totp: 1,
          status: 'requested',
          requested_by: 'synthetic-admin',
          requested_at: now,
          expires_at: now,
        })
        .execute();

      await migrate(store);
      const rows = await store.db.selectFrom('account_requests').selectAll().execute();
      expect(rows).toEqual([
        expect.objectContaining({
          id: 'synthetic-request',
          kind: 'password_reset',
          role: null,
          reset_totp: 1,
        }),
      ]);
      const second = {
        id: 'synthetic-second',
        user_id: 'synthetic-user',
        kind: 'role_change',
        reset_totp: 0,
        role: 'investigator',
        status: 'requested',
        requested_by: 'synthetic-admin',
        requested_at: now,
        expires_at: now,
        decided_by: null,
        decided_at: null,
      };
      // One awaiting request per account, whatever its kind.
      await expect(store.db.insertInto('account_requests').values(second).execute()).rejects.toThrow();
      await store.db.updateTable('account_requests').set({ status: 'refused' }).execute();
      await store.db.insertInto('account_requests').values(second).execute();
    } finally {
      await store.close();
      await database.drop();
    }
  });
}
