import type { Kysely, Migration } from 'kysely';

/**
 * Bodies and their labels, and the history of identifications.
 *
 * A photographed body is keyed on (collection, branch, detainee number, examination number), each part as a search
 * key (identifierKey; '' when the part is unknown, so the unique index treats "unknown" as one value) — never on
 * the detainee number alone, which branches reuse. Every label is kept exactly as read, with where it was read
 * (card, body, overlay, file name, folder) and on which evidence item.
 *
 * identification_steps keeps who proposed, confirmed, informed or rejected an identification, with a note; the
 * identifications row holds the state (and is what the log vouches for).
 */
export function review(): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: a migration works on an untyped database
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('bodies')
        .addColumn('id', 'text', (c) => c.primaryKey())
        /** The collection the photos belong to (e.g. a leak's name); numbers are only unique within one. */
        .addColumn('collection', 'text', (c) => c.notNull())
        .addColumn('branch_key', 'text', (c) => c.notNull())
        .addColumn('detainee_key', 'text', (c) => c.notNull())
        .addColumn('examination_key', 'text', (c) => c.notNull())
        /** The parts as first given, for display. */
        .addColumn('branch', 'text')
        .addColumn('detainee_number', 'text')
        .addColumn('examination_number', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text')
        .execute();
      await db.schema
        .createIndex('bodies_key')
        .on('bodies')
        .columns(['collection', 'branch_key', 'detainee_key', 'examination_key'])
        .unique()
        .execute();
      await db.schema.createIndex('bodies_detainee').on('bodies').column('detainee_key').execute();

      await db.schema
        .createTable('body_labels')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('body_id', 'text', (c) => c.notNull().references('bodies.id'))
        .addColumn('evidence_id', 'text', (c) => c.notNull().references('evidence_items.id'))
        /** branch | detainee_number | examination_number | other (words, "ج", …) */
        .addColumn('part', 'text', (c) => c.notNull())
        /** Exactly as read. */
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('value_key', 'text', (c) => c.notNull())
        /** card | body | overlay | file_name | folder | other */
        .addColumn('read_from', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text')
        .execute();
      await db.schema.createIndex('body_labels_body').on('body_labels').column('body_id').execute();
      await db.schema.createIndex('body_labels_evidence').on('body_labels').column('evidence_id').execute();

      await db.schema
        .createTable('identification_steps')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('identification_id', 'text', (c) => c.notNull().references('identifications.id'))
        /** proposed | confirmed | family_informed | rejected */
        .addColumn('step', 'text', (c) => c.notNull())
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('at', 'text', (c) => c.notNull())
        .addColumn('note', 'text')
        .execute();
      await db.schema
        .createIndex('identification_steps_identification')
        .on('identification_steps')
        .column('identification_id')
        .execute();
      await db.schema
        .createIndex('identifications_status')
        .on('identifications')
        .columns(['status', 'id'])
        .execute();
    },
  };
}
