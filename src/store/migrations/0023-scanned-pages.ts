import type { Kysely, Migration } from 'kysely';

/**
 * Multi-page scans (docs/ocr.md, "Scanned registries"): a PDF or a multi-page TIFF is read page by page, so a read
 * records how many pages it read and each page's size (the boxes of a page's rows are in that page's pixels;
 * `page_width` and `page_height` stay the first page's). Null on reads made before: those read one page.
 */
export function scannedPages(): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: a migration works on an untyped database
    async up(db: Kysely<any>) {
      await db.schema.alterTable('ocr_page_reads').addColumn('pages', 'integer').execute();
      /** JSON: [[width, height], …], one pair a page, in pixels of the page as read and shown. */
      await db.schema.alterTable('ocr_page_reads').addColumn('page_sizes', 'text').execute();
    },
  };
}
