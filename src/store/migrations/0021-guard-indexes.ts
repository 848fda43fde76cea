import type { Kysely, Migration } from 'kysely';

/**
 * Indexes for the clustering guard's lookups (issue 18): the tracing loop reads the pairs kept apart and the
 * reviewers' decisions that involve a batch's records, by either side of the pair. Without them each lookup read
 * the whole table, a cost that grew with every decision reviewers made.
 */
export function guardIndexes(): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: a migration works on an untyped database
    async up(db: Kysely<any>) {
      await db.schema
        .createIndex('link_constraints_record')
        .on('link_constraints')
        .column('record_id')
        .execute();
      await db.schema
        .createIndex('link_constraints_other')
        .on('link_constraints')
        .column('other_record_id')
        .execute();
      await db.schema.createIndex('decisions_record_b').on('decisions').column('record_b').execute();
      await db.schema
        .createIndex('decisions_superseded_by')
        .on('decisions')
        .column('superseded_by')
        .execute();
    },
  };
}
