import type { Kysely, Migration } from 'kysely';

/**
 * Keyed limits (issue 21, Security 3 and 4). `rate_limits` is made again: its keys are now HMACs under a key of the
 * day kept in keys/ (never the plain SHA-256 of an address, which gives the address back), each key names one
 * window, and the only time a row keeps is `bucket`, the start of the 6-hour span in which its window ends (so a
 * row dates a filing to those hours, and is pruned once they are over). `sign_in_backoff` holds the back-off of
 * sign-in per address and per typed username (known or not), keyed the same way; it replaces the lockout columns
 * of `users` (left in place, no longer read). The rows dropped here only forget at most one window.
 */
export function keyedLimits(): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: a migration works on an untyped database
    async up(db: Kysely<any>) {
      await db.schema.dropTable('rate_limits').execute();
      await db.schema
        .createTable('rate_limits')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('bucket', 'text', (c) => c.notNull())
        .addColumn('count', 'integer', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('rate_limits_bucket').on('rate_limits').column('bucket').execute();
      await db.schema
        .createTable('sign_in_backoff')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('failures', 'integer', (c) => c.notNull())
        .addColumn('not_before', 'text', (c) => c.notNull())
        .addColumn('forget_after', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('sign_in_backoff_forget_after')
        .on('sign_in_backoff')
        .column('forget_after')
        .execute();
      await db.updateTable('users').set({ failed_logins: 0, locked_until: null }).execute();
    },
  };
}
