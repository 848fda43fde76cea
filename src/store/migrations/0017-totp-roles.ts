import type { Kysely, Migration } from 'kysely';

/**
 * TOTP for the roles that read contact details or evidence originals (issue 21, Security 10; docs/access.md "TOTP"):
 * existing liaisons and investigators must use TOTP from now on, and those not yet enrolled reach only enrolment
 * until they are. New accounts and role changes follow ATHAR_TOTP_ROLES in the account service; a migration cannot
 * read configuration, so it applies the default's readers of contacts and originals.
 */
export function totpRoles(): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: a migration works on an untyped database
    async up(db: Kysely<any>) {
      const readers = ['liaison', 'investigator'];
      await db.updateTable('users').set({ totp_required: 1 }).where('role', 'in', readers).execute();
      await db
        .updateTable('sessions')
        .set({ enrolment_only: 1 })
        .where(
          'user_id',
          'in',
          db.selectFrom('users').select('id').where('role', 'in', readers).where('totp_secret', 'is', null),
        )
        .execute();
    },
  };
}
