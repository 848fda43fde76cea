import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Account changes that wait for a second admin (issue 21, Security 10; docs/access.md "Account changes by two
 * admins"): a password reset that would leave a reader of contacts or originals without an enrolled authenticator,
 * and a role change that gives an account `contacts:read` or `evidence:original` it did not have, are asked for by
 * one admin and carried out only when another approves. One request of either kind awaits a decision per user at
 * most: a reset decided under one role must not be approved under another.
 */
export function accountRequests(): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: a migration works on an untyped database
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('account_requests')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        /** password_reset | role_change */
        .addColumn('kind', 'text', (c) => c.notNull())
        /** 1 when a reset removes the authenticator too (a lost phone); 0 for a role change. */
        .addColumn('reset_totp', 'integer', (c) => c.notNull())
        /** The role asked for, for a role change; null for a reset. */
        .addColumn('role', 'text')
        /** requested | approved | refused | cancelled | expired */
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('requested_by', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('requested_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('decided_by', 'text', (c) => c.references('users.id'))
        .addColumn('decided_at', 'text')
        .execute();
      await db.schema
        .createIndex('account_requests_awaiting')
        .on('account_requests')
        .column('user_id')
        .unique()
        .where(sql.ref('status'), '=', 'requested')
        .execute();
    },
  };
}
