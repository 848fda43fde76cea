import type { Kysely, Migration } from 'kysely';

/**
 * Export requests (docs/exchange.md): a court bundle or a data export asked for with a reason by one person,
 * approved by another, built once approved, fetched until it expires. Every step is also a custody event (for
 * the items it holds) and an audit row.
 */
export function exportRequests(): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: a migration works on an untyped database
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('export_requests')
        .addColumn('id', 'text', (c) => c.primaryKey())
        /** bundle | export */
        .addColumn('kind', 'text', (c) => c.notNull())
        /** What it holds, as JSON: a bundle's scope, or an export's kind and format. */
        .addColumn('scope', 'text', (c) => c.notNull())
        /** The consent purpose the records go out for. */
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        /** requested | refused | approved | building | ready | failed | expired */
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('requested_by', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('requested_at', 'text', (c) => c.notNull())
        .addColumn('decided_by', 'text', (c) => c.references('users.id'))
        .addColumn('decided_at', 'text')
        .addColumn('decision_note', 'text')
        .addColumn('file_name', 'text')
        .addColumn('file_sha256', 'text')
        .addColumn('file_bytes', 'integer')
        .addColumn('ready_at', 'text')
        .addColumn('expires_at', 'text')
        .addColumn('fetched_at', 'text')
        .addColumn('failure', 'text')
        .execute();
      await db.schema.createIndex('export_requests_status').on('export_requests').column('status').execute();
    },
  };
}
