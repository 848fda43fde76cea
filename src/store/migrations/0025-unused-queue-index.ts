import type { Kysely, Migration } from 'kysely';

/**
 * The review queue has been served by priority (candidate_pairs_priority, 0011) since the tracing loop; the index on
 * (status, probability) that served the old order is read by no query, yet every review pair written updated it
 * (at 1M records `registry link` writes ~400k pairs).
 */
export function unusedQueueIndex(): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: a migration works on an untyped database
    async up(db: Kysely<any>) {
      await db.schema.dropIndex('candidate_pairs_queue').execute();
    },
  };
}
