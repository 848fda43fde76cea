import type { Kysely, Migration } from 'kysely';
import type { Capabilities } from '../capabilities.js';

/**
 * Family intake: reports with their case reference and hashed secret, consent choices kept as an append-only
 * history, the ante-mortem profile, and the family's contact details encrypted at rest in their own table.
 */
export function intake(caps: Capabilities): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: a migration works on an untyped database
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('family_reports')
        .addColumn('id', 'text', (c) => c.primaryKey())
        /** The case reference a family quotes (ATH-XXXX-XXXX); random, never derived from the id. */
        .addColumn('reference', 'text', (c) => c.notNull().unique())
        /** SHA-256 hex of the case secret; the secret is shown once and never stored. */
        .addColumn('secret_hash', 'text', (c) => c.notNull())
        /** received | under_review | contact_liaison | closed */
        .addColumn('status', 'text', (c) => c.notNull())
        /** The record of kind family_report that the report made. */
        .addColumn('record_id', 'text', (c) => c.notNull().references('records.id'))
        /** ar | en: the language the family wrote in. */
        .addColumn('language', 'text', (c) => c.notNull())
        /** public (the family, anonymously) | liaison (filed by a liaison on the family's behalf) */
        .addColumn('channel', 'text', (c) => c.notNull())
        .addColumn('filed_by', 'text', (c) => c.references('users.id'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('status_changed_at', 'text', (c) => c.notNull())
        .addColumn('status_changed_by', 'text', (c) => c.references('users.id'))
        .execute();
      await db.schema.createIndex('family_reports_record').on('family_reports').column('record_id').execute();
      await db.schema.createIndex('family_reports_status').on('family_reports').column('status').execute();

      /** Append-only: a withdrawal or grant is a new row; the latest row per purpose is what holds. */
      await db.schema
        .createTable('report_consents')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('report_id', 'text', (c) => c.notNull().references('family_reports.id'))
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('granted', 'integer', (c) => c.notNull())
        .addColumn('recorded_at', 'text', (c) => c.notNull())
        /** The liaison who recorded a change; null for the family's own choice on the public form. */
        .addColumn('recorded_by', 'text', (c) => c.references('users.id'))
        .execute();
      await db.schema
        .createIndex('report_consents_report')
        .on('report_consents')
        .columns(['report_id', 'purpose'])
        .execute();
      await db.schema
        .createIndex('report_consents_purpose')
        .on('report_consents')
        .column('purpose')
        .execute();

      await db.schema
        .createTable('antemortem_profiles')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('report_id', 'text', (c) => c.notNull().unique().references('family_reports.id'))
        /** JSON object: every field of the profile, each a value, 'unknown' or 'not_asked'. */
        .addColumn('profile', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text', (c) => c.references('users.id'))
        .execute();

      /** Restricted: contact details, AES-256-GCM under the contacts key (docs/intake.md). */
      await db.schema
        .createTable('contacts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('report_id', 'text', (c) => c.notNull().unique().references('family_reports.id'))
        /** Ciphertext followed by the 16-byte GCM tag. */
        .addColumn('ciphertext', caps.binaryType, (c) => c.notNull())
        .addColumn('nonce', caps.binaryType, (c) => c.notNull())
        /** Which key sealed the row: first 8 bytes of SHA-256(key), hex. */
        .addColumn('key_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
    },
  };
}
