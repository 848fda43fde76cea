import type { Kysely, Migration } from 'kysely';

/**
 * Scanned registries (docs/ocr.md): each page read by an engine version once (`ocr_page_reads`: the outcome, or
 * why nothing was proposed, and the page's size the boxes are given in), and the rows it proposed
 * (`ocr_rows`: the fields read as JSON, the row's box and confidence), never accepted by the machine: a
 * documenter accepts, corrects or rejects each, and an accepted or corrected one becomes a record.
 */
export function scannedRows(): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: a migration works on an untyped database
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('ocr_page_reads')
        .addColumn('evidence_id', 'text', (c) => c.notNull().references('evidence_items.id'))
        /** e.g. "athar-rows/1 tesseract/5.3.0 ara+eng": a new version reads the page again. */
        .addColumn('engine', 'text', (c) => c.notNull())
        /** proposed | no_rows | not_image | body_photo | unavailable | failed */
        .addColumn('outcome', 'text', (c) => c.notNull())
        .addColumn('reason', 'text')
        .addColumn('rows', 'integer', (c) => c.notNull())
        /** The picture the boxes are given in (as displayed, at its stored size). */
        .addColumn('page_width', 'integer')
        .addColumn('page_height', 'integer')
        .addColumn('skew', 'double precision')
        /** arrest_date | death_date | birth_date: what the page's headings say its dates are. */
        .addColumn('date_column', 'text')
        .addColumn('seconds', 'double precision', (c) => c.notNull())
        .addColumn('read_at', 'text', (c) => c.notNull())
        .addColumn('read_by', 'text')
        .addPrimaryKeyConstraint('ocr_page_reads_pk', ['evidence_id', 'engine'])
        .execute();
      await db.schema
        .createTable('ocr_rows')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('evidence_id', 'text', (c) => c.notNull().references('evidence_items.id'))
        /** 1 for an image; the page of a multi-page scan. */
        .addColumn('page', 'integer', (c) => c.notNull())
        /** 1-based, top to bottom, among the rows proposed on the page. */
        .addColumn('row_index', 'integer', (c) => c.notNull())
        .addColumn('box_x', 'integer', (c) => c.notNull())
        .addColumn('box_y', 'integer', (c) => c.notNull())
        .addColumn('box_width', 'integer', (c) => c.notNull())
        .addColumn('box_height', 'integer', (c) => c.notNull())
        /** The row as read, right to left. */
        .addColumn('text', 'text', (c) => c.notNull())
        /** JSON: fullName, firstName, fatherName, grandfatherName, familyName, rowNumber, detaineeNumber, date. */
        .addColumn('fields', 'text', (c) => c.notNull())
        /** JSON: each field's confidence 0–1. */
        .addColumn('field_confidence', 'text', (c) => c.notNull())
        .addColumn('confidence', 'double precision', (c) => c.notNull())
        .addColumn('engine', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        /** proposed | accepted | corrected | rejected */
        .addColumn('status', 'text', (c) => c.notNull())
        /** JSON: the fields as the documenter corrected them. */
        .addColumn('corrected_fields', 'text')
        .addColumn('decided_by', 'text')
        .addColumn('decided_at', 'text')
        /** The record an acceptance or correction made, and its source. */
        .addColumn('record_id', 'text')
        .addColumn('source_id', 'text')
        .execute();
      await db.schema
        .createIndex('ocr_rows_evidence')
        .on('ocr_rows')
        .columns(['evidence_id', 'page', 'row_index'])
        .execute();
      await db.schema
        .createIndex('ocr_rows_status')
        .on('ocr_rows')
        .columns(['status', 'confidence'])
        .execute();
    },
  };
}
