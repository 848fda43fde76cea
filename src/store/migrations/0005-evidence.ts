import type { Kysely, Migration } from 'kysely';

/**
 * The evidence vault's bookkeeping beside the foundation's evidence_items, annotations and custody_events:
 * ingest runs, every place an item was found, near-duplicate groups, and how an image decoded.
 */
export function evidence(): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: a migration works on an untyped database
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('ingest_runs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('started_at', 'text', (c) => c.notNull())
        .addColumn('finished_at', 'text')
        /** running | finished | interrupted | failed */
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('custodian', 'text')
        .addColumn('source_id', 'text', (c) => c.references('sources.id'))
        .addColumn('note', 'text')
        .addColumn('roots', 'text', (c) => c.notNull())
        .addColumn('athar_version', 'text', (c) => c.notNull())
        .addColumn('host', 'text', (c) => c.notNull())
        .addColumn('pid', 'integer', (c) => c.notNull())
        .addColumn('counts', 'text')
        .execute();
      await db.schema
        .createIndex('ingest_runs_status')
        .on('ingest_runs')
        .columns(['status', 'host'])
        .execute();

      await db.schema
        .createTable('evidence_locations')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('evidence_id', 'text', (c) => c.notNull().references('evidence_items.id'))
        .addColumn('ingest_run_id', 'text', (c) => c.notNull().references('ingest_runs.id'))
        .addColumn('source_id', 'text', (c) => c.references('sources.id'))
        /** SHA-256 of the path's bytes: paths can be longer than an index entry may be. */
        .addColumn('path_key', 'text', (c) => c.notNull())
        .addColumn('path_b64', 'text', (c) => c.notNull())
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('size_bytes', 'bigint', (c) => c.notNull())
        .addColumn('modified_at', 'text')
        .addColumn('found_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('evidence_locations_item_path')
        .on('evidence_locations')
        .columns(['evidence_id', 'path_key'])
        .unique()
        .execute();
      await db.schema
        .createIndex('evidence_locations_path')
        .on('evidence_locations')
        .column('path_key')
        .execute();
      await db.schema
        .createIndex('evidence_locations_run')
        .on('evidence_locations')
        .column('ingest_run_id')
        .execute();

      await db.schema
        .createTable('evidence_groups')
        .addColumn('evidence_id', 'text', (c) => c.primaryKey().references('evidence_items.id'))
        .addColumn('group_id', 'text', (c) => c.notNull())
        .addColumn('nearest_id', 'text', (c) => c.references('evidence_items.id'))
        .addColumn('nearest_distance', 'integer')
        .addColumn('assigned_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('evidence_groups_group').on('evidence_groups').column('group_id').execute();

      /** decoded | undecodable | pixel_limit | not_image */
      await db.schema.alterTable('evidence_items').addColumn('decode_status', 'text').execute();
      await db.schema.alterTable('evidence_items').addColumn('ingest_run_id', 'text').execute();
      await db.schema.createIndex('evidence_items_pdq').on('evidence_items').column('pdq').execute();
      await db.schema
        .createIndex('evidence_items_decode')
        .on('evidence_items')
        .column('decode_status')
        .execute();

      await db.schema.createIndex('annotations_record').on('annotations').column('record_id').execute();
      await db.schema
        .createIndex('custody_events_kind_at')
        .on('custody_events')
        .columns(['kind', 'at'])
        .execute();
    },
  };
}
