import type { Kysely, Migration } from 'kysely';

/**
 * OCR (docs/ocr.md): each item read by an engine version once (`ocr_reads`: the outcome, or why nothing was
 * proposed), and what it proposed (`ocr_proposals`: a card number with its confidence, box and engine), never
 * confirmed by the machine: a reviewer confirms, corrects or rejects each, and a confirmed one becomes a body label.
 */
export function ocr(): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: a migration works on an untyped database
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('ocr_reads')
        .addColumn('evidence_id', 'text', (c) => c.notNull().references('evidence_items.id'))
        /** e.g. "athar-cards/1 tesseract/5.3.0": a new version reads every item again. */
        .addColumn('engine', 'text', (c) => c.notNull())
        /** proposed | no_card | no_numbers | unclear_numbers | not_image | failed */
        .addColumn('outcome', 'text', (c) => c.notNull())
        .addColumn('reason', 'text')
        .addColumn('seconds', 'double precision', (c) => c.notNull())
        .addColumn('read_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('ocr_reads_pk', ['evidence_id', 'engine'])
        .execute();
      await db.schema
        .createTable('ocr_proposals')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('evidence_id', 'text', (c) => c.notNull().references('evidence_items.id'))
        /** branch | detainee_number | examination_number */
        .addColumn('part', 'text', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('value_key', 'text', (c) => c.notNull())
        .addColumn('confidence', 'double precision', (c) => c.notNull())
        /** card | body | overlay: where it was read (readFromPlaces). */
        .addColumn('read_from', 'text', (c) => c.notNull())
        .addColumn('box_x', 'integer', (c) => c.notNull())
        .addColumn('box_y', 'integer', (c) => c.notNull())
        .addColumn('box_width', 'integer', (c) => c.notNull())
        .addColumn('box_height', 'integer', (c) => c.notNull())
        .addColumn('engine', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        /** proposed | confirmed | corrected | rejected */
        .addColumn('status', 'text', (c) => c.notNull())
        /** The value the reviewer gave when correcting. */
        .addColumn('corrected_value', 'text')
        .addColumn('decided_by', 'text')
        .addColumn('decided_at', 'text')
        /** The body label a confirmation or correction made. */
        .addColumn('body_label_id', 'text')
        .execute();
      await db.schema
        .createIndex('ocr_proposals_evidence')
        .on('ocr_proposals')
        .column('evidence_id')
        .execute();
      await db.schema
        .createIndex('ocr_proposals_status')
        .on('ocr_proposals')
        .columns(['status', 'confidence'])
        .execute();
    },
  };
}
