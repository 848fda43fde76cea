import { type Kysely, type Migration, sql } from 'kysely';
import type { Capabilities } from '../capabilities.js';

/**
 * The first tables, for the domain words of design.md. Columns are chosen to rarely change: SQLite cannot alter a
 * column in place, so later changes add columns or tables rather than rewrite these.
 */
export function foundation(caps: Capabilities): Migration {
  return {
    // Migrations see the schema as it was then, not as src/store/schema.ts describes it now.
    // biome-ignore lint/suspicious/noExplicitAny: a migration works on an untyped database
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('meta')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('governorates')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('iso_code', 'text', (c) => c.notNull().unique())
        .addColumn('name_en', 'text', (c) => c.notNull())
        .addColumn('name_ar', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('governorate_aliases')
        .addColumn('governorate_id', 'text', (c) => c.notNull().references('governorates.id'))
        .addColumn('alias', 'text', (c) => c.notNull())
        .addColumn('alias_key', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('governorate_aliases_pk', ['governorate_id', 'alias'])
        .execute();
      await db.schema
        .createIndex('governorate_aliases_key')
        .on('governorate_aliases')
        .column('alias_key')
        .execute();

      await db.schema
        .createTable('branches')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('number', 'integer')
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('agency', 'text', (c) => c.notNull())
        .addColumn('name_en', 'text', (c) => c.notNull())
        .addColumn('name_ar', 'text', (c) => c.notNull())
        .addColumn('governorate_id', 'text', (c) => c.references('governorates.id'))
        .addColumn('notes', 'text')
        .execute();
      await db.schema
        .createTable('branch_aliases')
        .addColumn('branch_id', 'text', (c) => c.notNull().references('branches.id'))
        .addColumn('alias', 'text', (c) => c.notNull())
        .addColumn('alias_key', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('branch_aliases_pk', ['branch_id', 'alias'])
        .execute();
      await db.schema.createIndex('branch_aliases_key').on('branch_aliases').column('alias_key').execute();

      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('username', 'text', (c) => c.notNull().unique())
        .addColumn('display_name', 'text')
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('totp_secret', 'text')
        .addColumn('totp_required', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('must_change_password', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('failed_logins', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('locked_until', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('csrf_token', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('last_seen_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

      await db.schema
        .createTable('sources')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('reliability_notes', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text')
        .execute();

      await db.schema
        .createTable('records')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('source_id', 'text', (c) => c.notNull().references('sources.id'))
        .addColumn('external_id', 'text')
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('original', 'text', (c) => c.notNull())
        .addColumn('full_name', 'text')
        .addColumn('first_name', 'text')
        .addColumn('father_name', 'text')
        .addColumn('grandfather_name', 'text')
        .addColumn('family_name', 'text')
        .addColumn('mother_name', 'text')
        .addColumn('name_normalized', 'text')
        .addColumn('name_script', 'text', (c) => c.notNull().defaultTo('none'))
        .addColumn('sex', 'text')
        .addColumn('birth_date', 'text')
        .addColumn('birth_year', 'integer')
        .addColumn('governorate_id', 'text', (c) => c.references('governorates.id'))
        .addColumn('place_of_origin', 'text')
        .addColumn('arrest_date', 'text')
        .addColumn('arresting_branch_id', 'text', (c) => c.references('branches.id'))
        .addColumn('detainee_number', 'text')
        .addColumn('death_date', 'text')
        .addColumn('forensic_report_number', 'text')
        .addColumn('notes', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text')
        .execute();
      await db.schema
        .createIndex('records_source_external')
        .on('records')
        .columns(['source_id', 'external_id'])
        .unique()
        .execute();
      await db.schema.createIndex('records_governorate').on('records').column('governorate_id').execute();
      await db.schema.createIndex('records_branch').on('records').column('arresting_branch_id').execute();
      await db.schema.createIndex('records_detainee').on('records').column('detainee_number').execute();

      await db.schema
        .createTable('persons')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text')
        .execute();

      await db.schema
        .createTable('decisions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('record_a', 'text', (c) => c.notNull().references('records.id'))
        .addColumn('record_b', 'text', (c) => c.notNull().references('records.id'))
        .addColumn('decision', 'text', (c) => c.notNull())
        .addColumn('reviewer_id', 'text', (c) => c.notNull())
        .addColumn('decided_at', 'text', (c) => c.notNull())
        .addColumn('model_version', 'text')
        .addColumn('note', 'text')
        .addColumn('superseded_by', 'text')
        .addCheckConstraint('decisions_ordered', sql.raw('record_a < record_b'))
        .execute();
      await db.schema
        .createIndex('decisions_pair')
        .on('decisions')
        .columns(['record_a', 'record_b'])
        .execute();

      await db.schema
        .createTable('record_links')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('record_id', 'text', (c) => c.notNull().references('records.id'))
        .addColumn('person_id', 'text', (c) => c.notNull().references('persons.id'))
        .addColumn('linked_at', 'text', (c) => c.notNull())
        .addColumn('linked_by', 'text')
        .addColumn('basis', 'text', (c) => c.notNull())
        .addColumn('decision_id', 'text', (c) => c.references('decisions.id'))
        .addColumn('note', 'text')
        .addColumn('unlinked_at', 'text')
        .addColumn('unlinked_by', 'text')
        .addColumn('unlink_reason', 'text')
        .execute();
      // A record belongs to at most one person at a time; closed links stay as history.
      await db.schema
        .createIndex('record_links_active')
        .on('record_links')
        .column('record_id')
        .unique()
        .where(sql.ref('unlinked_at'), 'is', null)
        .execute();
      await db.schema.createIndex('record_links_person').on('record_links').column('person_id').execute();

      await db.schema
        .createTable('events')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('person_id', 'text', (c) => c.references('persons.id'))
        .addColumn('record_id', 'text', (c) => c.references('records.id'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('date_start', 'text')
        .addColumn('date_end', 'text')
        .addColumn('date_precision', 'text', (c) => c.notNull().defaultTo('unknown'))
        .addColumn('place', 'text')
        .addColumn('governorate_id', 'text', (c) => c.references('governorates.id'))
        .addColumn('branch_id', 'text', (c) => c.references('branches.id'))
        .addColumn('description', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text')
        .execute();
      await db.schema.createIndex('events_person').on('events').column('person_id').execute();
      await db.schema.createIndex('events_record').on('events').column('record_id').execute();

      await db.schema
        .createTable('evidence_items')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('sha256', 'text', (c) => c.notNull().unique())
        .addColumn('size_bytes', 'bigint', (c) => c.notNull())
        .addColumn('media_type', 'text', (c) => c.notNull())
        .addColumn('original_name_b64', 'text')
        .addColumn('original_name', 'text')
        .addColumn('source_id', 'text', (c) => c.references('sources.id'))
        .addColumn('width', 'integer')
        .addColumn('height', 'integer')
        .addColumn('orientation', 'integer')
        .addColumn('pdq', 'text')
        .addColumn('pdq_quality', 'integer')
        .addColumn('metadata', 'text')
        .addColumn('decodable', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('decode_error', 'text')
        .addColumn('graphic', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('thumbnail_sha256', 'text')
        .addColumn('blurred_sha256', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text')
        .execute();

      await db.schema
        .createTable('annotations')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('evidence_id', 'text', (c) => c.notNull().references('evidence_items.id'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('value_key', 'text', (c) => c.notNull())
        .addColumn('read_from', 'text')
        .addColumn('record_id', 'text', (c) => c.references('records.id'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text')
        .execute();
      await db.schema.createIndex('annotations_evidence').on('annotations').column('evidence_id').execute();
      await db.schema
        .createIndex('annotations_value')
        .on('annotations')
        .columns(['kind', 'value_key'])
        .execute();

      await db.schema
        .createTable('custody_events')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('evidence_id', 'text', (c) => c.references('evidence_items.id'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('at', 'text', (c) => c.notNull())
        .addColumn('reason', 'text')
        .addColumn('details', 'text')
        .addColumn('ledger_index', 'bigint')
        .execute();
      await db.schema
        .createIndex('custody_events_evidence')
        .on('custody_events')
        .column('evidence_id')
        .execute();

      await db.schema
        .createTable('candidate_pairs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('record_a', 'text', (c) => c.notNull().references('records.id'))
        .addColumn('record_b', 'text', (c) => c.notNull().references('records.id'))
        .addColumn('probability', 'double precision', (c) => c.notNull())
        .addColumn('match_weight', 'double precision', (c) => c.notNull())
        .addColumn('model_version', 'text', (c) => c.notNull())
        .addColumn('explanation', 'text')
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('open'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addCheckConstraint('candidate_pairs_ordered', sql.raw('record_a < record_b'))
        .execute();
      await db.schema
        .createIndex('candidate_pairs_pair')
        .on('candidate_pairs')
        .columns(['record_a', 'record_b'])
        .unique()
        .execute();
      await db.schema
        .createIndex('candidate_pairs_queue')
        .on('candidate_pairs')
        .columns(['status', 'probability'])
        .execute();

      await db.schema
        .createTable('identifications')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('evidence_id', 'text', (c) => c.notNull().references('evidence_items.id'))
        .addColumn('person_id', 'text', (c) => c.notNull().references('persons.id'))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('basis', 'text')
        .addColumn('proposed_by', 'text', (c) => c.notNull())
        .addColumn('proposed_at', 'text', (c) => c.notNull())
        .addColumn('first_confirmed_by', 'text')
        .addColumn('first_confirmed_at', 'text')
        .addColumn('second_confirmed_by', 'text')
        .addColumn('second_confirmed_at', 'text')
        .addColumn('informed_by', 'text')
        .addColumn('informed_at', 'text')
        .addCheckConstraint(
          'identifications_two_reviewers',
          sql.raw('second_confirmed_by is null or second_confirmed_by <> first_confirmed_by'),
        )
        .execute();
      await db.schema
        .createIndex('identifications_person')
        .on('identifications')
        .column('person_id')
        .execute();
      await db.schema
        .createIndex('identifications_evidence')
        .on('identifications')
        .column('evidence_id')
        .execute();

      await db.schema
        .createTable('audit_log')
        .addColumn('id', caps.dialect === 'postgres' ? 'bigint' : 'integer', (c) =>
          caps.dialect === 'postgres'
            ? c.primaryKey().generatedByDefaultAsIdentity()
            : c.primaryKey().autoIncrement(),
        )
        .addColumn('at', 'text', (c) => c.notNull())
        .addColumn('actor_id', 'text')
        .addColumn('actor_role', 'text')
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('subject_type', 'text')
        .addColumn('subject_id', 'text')
        .addColumn('details', 'text')
        .addColumn('ip', 'text')
        .execute();
      await db.schema.createIndex('audit_log_at').on('audit_log').column('at').execute();
      await db.schema
        .createIndex('audit_log_subject')
        .on('audit_log')
        .columns(['subject_type', 'subject_id'])
        .execute();
      await db.schema.createIndex('audit_log_actor').on('audit_log').column('actor_id').execute();
    },
  };
}
