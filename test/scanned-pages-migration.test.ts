import { expect, it } from 'vitest';
import { OcrRowRepository } from '../src/store/repositories/ocr-rows.js';
import { migrate, openStore } from '../src/store/store.js';
import { createTestDatabase, dialects, migrateBefore } from './stores.js';

/**
 * Migration 0023 adds the pages a scan's read covered and each page's size (docs/ocr.md, "Scanned registries"): a
 * page read before it, one image, reads back as one page with no per-page sizes. Synthetic rows only.
 */
for (const dialect of dialects) {
  it(`reads a page read made before 0023 as one page [${dialect}]`, async () => {
    const database = await createTestDatabase(dialect);
    const store = await openStore(database.config, { migrate: false });
    try {
      await migrateBefore(store, dialect, '0023');
      const now = new Date().toISOString();
      // biome-ignore lint/suspicious/noExplicitAny: the tables as they were before 0023
      const db = store.db as any;
      await db
        .insertInto('evidence_items')
        .values({
          id: 'synthetic-scan',
          sha256: 'a'.repeat(64),
          size_bytes: 1,
          media_type: 'image/png',
          created_at: now,
        })
        .execute();
      await db
        .insertInto('ocr_page_reads')
        .values({
          evidence_id: 'synthetic-scan',
          engine: 'athar-rows/3 tesseract/5.3.0 ara',
          outcome: 'proposed',
          reason: null,
          rows: 1,
          page_width: 1240,
          page_height: 1754,
          skew: 0,
          date_column: null,
          seconds: 1,
          read_at: now,
          read_by: null,
        })
        .execute();

      await migrate(store);
      const [read] = await new OcrRowRepository(store.db).readsOf('synthetic-scan');
      expect(read).toMatchObject({ pages: 1, pageSizes: null, pageWidth: 1240, pageHeight: 1754 });
    } finally {
      await store.close();
      await database.drop();
    }
  });
}
