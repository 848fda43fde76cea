import type { Kysely, Migration } from 'kysely';
import type { Capabilities } from '../capabilities.js';

/**
 * The tracing loop (docs/tracing.md): every record belongs to a person; persons merged away keep answering with the
 * person they went to; records waiting to be linked and matched are queued in the transaction that stores them;
 * links the model made keep its provenance; reports keep their candidates; one job at a time holds the lock.
 */
export function tracing(caps: Capabilities): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: a migration works on an untyped database
    async up(db: Kysely<any>) {
      /** A person whose records all went to another: the one it went to, and when. */
      await db.schema.alterTable('persons').addColumn('merged_into', 'text').execute();
      await db.schema.alterTable('persons').addColumn('merged_at', 'text').execute();

      /** Records (and evidence labels) to link and match, in the order they were stored; removed when done. */
      await db.schema
        .createTable('tracing_queue')
        .addColumn('seq', caps.dialect === 'postgres' ? 'bigint' : 'integer', (c) =>
          caps.dialect === 'postgres'
            ? c.primaryKey().generatedByDefaultAsIdentity()
            : c.primaryKey().autoIncrement(),
        )
        /** record | label */
        .addColumn('kind', 'text', (c) => c.notNull())
        /** The record's id, or for a label the evidence item's. */
        .addColumn('subject_id', 'text', (c) => c.notNull())
        /** The import that stored the record, to show its progress; null otherwise. */
        .addColumn('import_id', 'text')
        .addColumn('enqueued_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('tracing_queue_import').on('tracing_queue').column('import_id').execute();

      /** Provenance of a link the model made: the model, the probability, the pair it rests on, its explanation. */
      await db.schema
        .createTable('model_links')
        .addColumn('link_id', 'text', (c) => c.primaryKey().references('record_links.id'))
        .addColumn('run_id', 'text', (c) => c.notNull())
        .addColumn('model_version', 'text', (c) => c.notNull())
        /** The record already in the person that this record matched. */
        .addColumn('matched_record', 'text', (c) => c.notNull())
        .addColumn('probability', 'double precision', (c) => c.notNull())
        .addColumn('match_weight', 'double precision', (c) => c.notNull())
        .addColumn('explanation', 'text')
        .execute();

      /** A person taken apart from a record by a person: the model never puts them together again. */
      await db.schema
        .createTable('link_constraints')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('record_id', 'text', (c) => c.notNull().references('records.id'))
        /** The other side: a record (kept apart from record_id). */
        .addColumn('other_record_id', 'text', (c) => c.notNull().references('records.id'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text')
        .addColumn('reason', 'text')
        .execute();

      /** Runs of the registry-wide job and of the incremental loop: what they did, and their progress. */
      await db.schema
        .createTable('tracing_runs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        /** full | incremental */
        .addColumn('kind', 'text', (c) => c.notNull())
        /** running | finished | failed | interrupted */
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('stage', 'text')
        .addColumn('done', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('records', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('links', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('review_pairs', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('model_version', 'text')
        .addColumn('started_by', 'text')
        .addColumn('started_at', 'text', (c) => c.notNull())
        .addColumn('finished_at', 'text')
        .addColumn('failure', 'text')
        .execute();

      /** One row per lock name: who holds it and until when (a holder that dies lets it lapse). */
      await db.schema
        .createTable('job_locks')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('owner', 'text', (c) => c.notNull())
        .addColumn('run_id', 'text')
        .addColumn('acquired_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute();

      /** What the archive holds that may be a family report's missing person; shown to liaisons only. */
      await db.schema
        .createTable('report_candidates')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('report_id', 'text', (c) => c.notNull().references('family_reports.id'))
        .addColumn('record_id', 'text', (c) => c.references('records.id'))
        .addColumn('evidence_id', 'text', (c) => c.references('evidence_items.id'))
        .addColumn('probability', 'double precision', (c) => c.notNull())
        .addColumn('match_weight', 'double precision')
        .addColumn('model_version', 'text', (c) => c.notNull())
        .addColumn('explanation', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('report_candidates_report')
        .on('report_candidates')
        .columns(['report_id', 'probability'])
        .execute();

      /** How much a reviewer's minute does on this pair (docs/tracing.md "Review order"); higher first. */
      await db.schema
        .alterTable('candidate_pairs')
        .addColumn('priority', 'double precision', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createIndex('candidate_pairs_priority')
        .on('candidate_pairs')
        .columns(['status', 'priority'])
        .execute();
    },
  };
}
