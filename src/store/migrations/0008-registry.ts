import type { Kysely, Migration } from 'kysely';

/**
 * The registry's own tables (docs/registry.md): append-only assertions from which a case status is derived, typed
 * relations between persons (retracted, never deleted), the name keys that make name search an index lookup, and
 * imports with their progress.
 */
export function registry(): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: a migration works on an untyped database
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('assertions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('record_id', 'text', (c) => c.references('records.id'))
        .addColumn('person_id', 'text', (c) => c.references('persons.id'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('statement', 'text')
        /** When the claim was made (by the source), which may be long before it reached athar. */
        .addColumn('asserted_at', 'text', (c) => c.notNull())
        .addColumn('asserted_by', 'text')
        .addColumn('source_id', 'text', (c) => c.references('sources.id'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text')
        .execute();
      await db.schema.createIndex('assertions_record').on('assertions').column('record_id').execute();
      await db.schema.createIndex('assertions_person').on('assertions').column('person_id').execute();

      await db.schema
        .createTable('relations')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('person_a', 'text', (c) => c.notNull().references('persons.id'))
        .addColumn('person_b', 'text', (c) => c.notNull().references('persons.id'))
        /** same_person | parent_child (a is the parent) | sibling | spouse | alleged_perpetrator (a of b) */
        .addColumn('type', 'text', (c) => c.notNull())
        /** maybe | likely | certain */
        .addColumn('certainty', 'text', (c) => c.notNull())
        .addColumn('note', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text')
        .addColumn('retracted_at', 'text')
        .addColumn('retracted_by', 'text')
        .addColumn('retract_reason', 'text')
        .execute();
      await db.schema.createIndex('relations_a').on('relations').column('person_a').execute();
      await db.schema.createIndex('relations_b').on('relations').column('person_b').execute();

      // One row per (key, record): the primary key is the index name search reads.
      await db.schema
        .createTable('record_name_keys')
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('record_id', 'text', (c) => c.notNull().references('records.id'))
        .addPrimaryKeyConstraint('record_name_keys_pk', ['key', 'record_id'])
        .execute();

      await db.schema.createIndex('records_arrest_date').on('records').column('arrest_date').execute();

      await db.schema
        .createTable('imports')
        .addColumn('id', 'text', (c) => c.primaryKey())
        /** running | finished | failed */
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('source_name', 'text')
        .addColumn('file_name', 'text', (c) => c.notNull())
        .addColumn('dry_run', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('done', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('skipped', 'integer', (c) => c.notNull().defaultTo(0))
        /** JSON array of { row, line, field, message }, at most a thousand. */
        .addColumn('errors', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('error_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('failure', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text')
        .addColumn('finished_at', 'text')
        .execute();
    },
  };
}
