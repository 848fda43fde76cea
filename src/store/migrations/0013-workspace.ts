import type { Kysely, Migration } from 'kysely';

/**
 * The staff workspace (issue 20): browser uploads and their per-file outcomes; the gazetteer's units as editable
 * entities (a parent unit, who added a unit or an alias); family reports assigned to a liaison, with case notes;
 * and the indexes that "what names this branch" reads. Columns are chosen so that later screens add rows, not
 * columns: outcomes are one JSON list, notes are append-only rows.
 */
export function workspace(): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: a migration works on an untyped database
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('uploads')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('created_by', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        /** receiving | ingesting | finished | failed */
        .addColumn('status', 'text', (c) => c.notNull())
        /** Files received so far, and their bytes (what the size limit counts). */
        .addColumn('files', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('bytes', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('source_name', 'text')
        .addColumn('note', 'text')
        /** The ingest run that stored the files (the same code as `athar ingest`). */
        .addColumn('run_id', 'text', (c) => c.references('ingest_runs.id'))
        /** JSON array of { path, outcome, evidenceId?, reason? }, one per file, once the ingest ended. */
        .addColumn('outcomes', 'text')
        .addColumn('failure', 'text')
        .addColumn('finished_at', 'text')
        .execute();
      await db.schema.createIndex('uploads_creator').on('uploads').columns(['created_by', 'id']).execute();

      /** A unit's place in its hierarchy: branch → directorate → agency. */
      await db.schema
        .alterTable('branches')
        .addColumn('parent_id', 'text', (c) => c.references('branches.id'))
        .execute();
      await db.schema.alterTable('branches').addColumn('created_at', 'text').execute();
      await db.schema
        .alterTable('branches')
        .addColumn('created_by', 'text', (c) => c.references('users.id'))
        .execute();
      await db.schema.createIndex('branches_parent').on('branches').column('parent_id').execute();
      /** Who met a spelling in the field and added it (null: the gazetteer's own). */
      await db.schema.alterTable('branch_aliases').addColumn('created_at', 'text').execute();
      await db.schema
        .alterTable('branch_aliases')
        .addColumn('created_by', 'text', (c) => c.references('users.id'))
        .execute();
      await db.schema.createIndex('events_branch').on('events').column('branch_id').execute();
      // A branch's or a governorate's records newest first (the branch page, search filtered by place) read these
      // in order instead of sorting every match: at 1M records, 50k records of one branch sorted took a second.
      await db.schema.dropIndex('records_branch').execute();
      await db.schema
        .createIndex('records_branch_id')
        .on('records')
        .columns(['arresting_branch_id', 'id'])
        .execute();
      await db.schema.dropIndex('records_governorate').execute();
      await db.schema
        .createIndex('records_governorate_id')
        .on('records')
        .columns(['governorate_id', 'id'])
        .execute();
      await db.schema
        .createIndex('body_labels_value')
        .on('body_labels')
        .columns(['part', 'value_key'])
        .execute();

      /** The liaison a report is assigned to (their worklist). */
      await db.schema
        .alterTable('family_reports')
        .addColumn('assigned_to', 'text', (c) => c.references('users.id'))
        .execute();
      await db.schema.alterTable('family_reports').addColumn('assigned_at', 'text').execute();
      await db.schema
        .createIndex('family_reports_assigned')
        .on('family_reports')
        .columns(['assigned_to', 'id'])
        .execute();
      /** A liaison's case notes on a report: append-only, never edited. */
      await db.schema
        .createTable('report_notes')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('report_id', 'text', (c) => c.notNull().references('family_reports.id'))
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text', (c) => c.references('users.id'))
        .execute();
      await db.schema.createIndex('report_notes_report').on('report_notes').column('report_id').execute();
    },
  };
}
