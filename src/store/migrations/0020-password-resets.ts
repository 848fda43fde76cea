import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Password resets that wait for a second admin (issue 21, Security 10; docs/access.md "Password resets by two
 * admins"): a reset that would leave a reader of contacts or originals without an enrolled authenticator is asked
 * for by one admin and carried out only when another approves it. One request awaits a decision per user at most.
 */
export function passwordResets(): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: a migration works on an untyped database
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('password_reset_requests')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        /** 1 when the authenticator is to be removed too (a lost phone). */
        .addColumn('reset_totp', 'integer', (c) => c.notNull())
        /** requested | approved | refused | cancelled | expired */
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('requested_by', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('requested_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('decided_by', 'text', (c) => c.references('users.id'))
        .addColumn('decided_at', 'text')
        .execute();
      await db.schema
        .createIndex('password_reset_requests_awaiting')
        .on('password_reset_requests')
        .column('user_id')
        .unique()
        .where(sql.ref('status'), '=', 'requested')
        .execute();
    },
  };
}
