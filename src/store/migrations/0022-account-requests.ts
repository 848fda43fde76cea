import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Account changes that wait for a second admin (issue 21, Security 10; docs/access.md "Account changes by two
 * admins"): the password resets of 0020 and, now, role changes that give an account `contacts:read` or
 * `evidence:original` it did not have (one admin could otherwise demote a liaison, reset it in one step and promote
 * it back). One table for both: `kind` says which, `role` is the role asked for. The partial unique index still
 * lets one request of either kind await per user: a reset must not be approved under another role than it was
 * asked under. A new migration rather than an edit of 0020, which data folders made since it merged have run.
 */
export function accountRequests(): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: a migration works on an untyped database
    async up(db: Kysely<any>) {
      await db.schema.dropIndex('password_reset_requests_awaiting').execute();
      await db.schema.alterTable('password_reset_requests').renameTo('account_requests').execute();
      /** password_reset | role_change; every earlier row was a reset. */
      await db.schema
        .alterTable('account_requests')
        .addColumn('kind', 'text', (c) => c.notNull().defaultTo('password_reset'))
        .execute();
      /** The role asked for (role_change); null for a reset. */
      await db.schema.alterTable('account_requests').addColumn('role', 'text').execute();
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
