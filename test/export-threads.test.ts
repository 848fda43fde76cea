import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { recordColumns } from '../src/exchange/export-formats.js';
import { exportData } from '../src/services/exchange/export.js';
import { importRecords } from '../src/services/imports/record-import.js';
import { evidenceContext } from './evidence-context.js';
import { describeEachDialect } from './stores.js';

/**
 * Issue 22: a records export cut into id ranges that worker threads encode side by side writes the same file as
 * this thread alone — every record once, in id order, family reports still withheld, JSON still one document.
 * Synthetic names only.
 */
const csvOf = (rows: number, prefix: string) =>
  `record_id,full_name,father_name,birth_year,notes\n${Array.from(
    { length: rows },
    (_, i) =>
      `${prefix}-${i},"Synthetic Person ${prefix} ${i}",Father ${i % 97},${1950 + (i % 50)},${i % 7 === 0 ? '"a note, with ""quotes"" and a\nline break"' : ''}`,
  ).join('\n')}\n`;

describeEachDialect('records export in worker threads', (getStore) => {
  let ctx: Awaited<ReturnType<typeof evidenceContext>>;
  beforeAll(async () => {
    ctx = await evidenceContext(getStore());
    await importRecords(ctx.store, [csvOf(2300, 'line')], {
      kind: 'registry_line',
      actor: null,
      fileName: 'synthetic-registry.csv',
      batchSize: 500,
    });
    await importRecords(ctx.store, [csvOf(170, 'report')], {
      kind: 'family_report',
      actor: null,
      fileName: 'synthetic-reports.csv',
      batchSize: 500,
    });
  });
  afterAll(() => ctx.dispose());

  const run = async (format: 'csv' | 'json' | 'pfif', workers: number) => {
    const out = path.join(ctx.dir, `records-${workers}.${format}`);
    const report = await exportData(ctx, {
      kind: 'records',
      format,
      out,
      purpose: null,
      pageSize: 100,
      workers,
    });
    const text = fs.readFileSync(out, 'utf8');
    fs.rmSync(out);
    // The export's time is in the file (JSON's exportedAt, PFIF's entry_date): runs differ in it alone.
    return {
      report,
      raw: text,
      text: text.replace(/"exportedAt":"[^"]*"/, '').replace(/<pfif:entry_date>[^<]*</g, '<'),
    };
  };

  for (const format of ['csv', 'json', 'pfif'] as const) {
    it(`writes the same ${format} with two threads over many ranges as with this thread alone`, async () => {
      const alone = await run(format, 1);
      const threads = await run(format, 2);
      expect(threads.report).toMatchObject({ exported: 2300, withheld: 170 });
      expect(alone.report).toMatchObject({ exported: 2300, withheld: 170 });
      expect(threads.text).toBe(alone.text);
      if (format === 'json') {
        const doc = JSON.parse(threads.raw);
        expect(doc.items).toHaveLength(2300);
        const ids = doc.items.map((r: { record_id: string }) => r.record_id);
        expect([...ids].sort()).toEqual(ids);
        expect(new Set(ids).size).toBe(2300);
        // Rows are written as they are made (exactRows): every column, in the export's order.
        for (const item of doc.items.slice(0, 50)) expect(Object.keys(item)).toEqual([...recordColumns]);
      }
      if (format === 'csv') expect(threads.text).not.toContain('Synthetic Person report');
    }, 60_000);
  }
});
