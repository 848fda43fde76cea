import type { Kysely, Migration } from 'kysely';

/** TOTP enrolment and replay protection on users; sessions limited to enrolment until TOTP is set up. */
export function accounts(): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: a migration works on an untyped database
    async up(db: Kysely<any>) {
      /** A secret offered for enrolment, active only once a code from it is confirmed. */
      await db.schema.alterTable('users').addColumn('totp_pending_secret', 'text').execute();
      /** The last TOTP time step accepted: a code is refused if its step is not newer (no replay). */
      await db.schema.alterTable('users').addColumn('totp_last_step', 'integer').execute();
      /** 1 while the user must still enrol TOTP: the session may only reach the enrolment routes. */
      await db.schema
        .alterTable('sessions')
        .addColumn('enrolment_only', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}
