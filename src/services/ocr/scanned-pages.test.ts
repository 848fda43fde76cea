import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { evidenceContext } from '../../../test/evidence-context.js';
import { mkdirs } from '../../../test/evidence-files.js';
import { multiPageTiff, pdfOfPages } from '../../../test/ocr/documents.js';
import { pageSample } from '../../../test/ocr/synthetic.js';
import { describeEachDialect } from '../../../test/stores.js';
import type { SignedIn } from '../../access/caller.js';
import { SharpImageDecoder } from '../../evidence/sharp-image-decoder.js';
import { type OcrEngine, OcrFailure } from '../../ocr/engine.js';
import { servicesOf } from '../index.js';
import { ingest } from '../ingest/ingest.js';
import { DocumentPages } from './document-pages.js';
import { OcrService } from './ocr.js';
import { ScannedPages } from './scanned-pages.js';
import { probeTesseract } from './tesseract.js';

const probe = probeTesseract();
const pdfOk = new DocumentPages().pdfAvailable();
const documenter: SignedIn = {
  actor: { userId: 'documenter-1', role: 'documenter' } as SignedIn['actor'],
  ip: null,
  channel: 'http',
};

describeEachDialect(
  'scanned registry pages read into proposed rows (SYNTHETIC pages, real tesseract)',
  (store) => {
    let ctx: Awaited<ReturnType<typeof evidenceContext>>;
    let page: Awaited<ReturnType<typeof pageSample>>;
    let dated: Awaited<ReturnType<typeof pageSample>>;
    let second: Awaited<ReturnType<typeof pageSample>>;
    beforeAll(async () => {
      ctx = await evidenceContext(store());
      const folder = mkdirs(ctx.dir, 'scans');
      // The common names: this checks the service's flow; the bench measures accuracy on unlisted names too.
      page = await pageSample(200, { handwritten: false, names: 'common' });
      fs.writeFileSync(path.join(folder, 'list-200.png'), page.image);
      dated = await pageSample(331, { handwritten: false, dates: 'indic' });
      fs.writeFileSync(path.join(folder, 'dated-331.png'), dated.image);
      // A broken PDF: read and failed with its reason, the items after it still read.
      fs.writeFileSync(path.join(folder, 'report.pdf'), Buffer.from('%PDF-1.4\n%%EOF\n'));
      // Two-page documents: the page of list-200.png, then a second list.
      second = await pageSample(202, { handwritten: false, names: 'common' });
      fs.writeFileSync(path.join(folder, 'register.tiff'), await multiPageTiff([page.image, second.image]));
      fs.writeFileSync(path.join(folder, 'register.pdf'), await pdfOfPages([page.image, second.image]));
      await ingest(ctx, { paths: [folder], actor: 'documenter-1', decoder: new SharpImageDecoder() });
    });
    afterAll(() => ctx.dispose());
    const scans = () => servicesOf(ctx).scans;
    const itemNamed = async (name: string) =>
      (
        await ctx.store.db
          .selectFrom('evidence_items')
          .select('id')
          .where('original_name', '=', name)
          .executeTakeFirstOrThrow()
      ).id;

    it.runIf(probe.ok)(
      'reads a page once into rows with names in parts, numbers and boxes; an accepted row becomes a record of the scan’s source, a rejected one does not',
      async () => {
        const item = await itemNamed('list-200.png');
        const pdf = await itemNamed('report.pdf');
        const first = await scans().read([pdf, item], documenter);
        expect(first).toMatchObject({ items: 2, proposed: 1, notImage: 0, failed: pdfOk ? 1 : 0 });
        if (pdfOk)
          expect(first.problems).toEqual([
            {
              evidenceId: pdf,
              outcome: 'failed',
              reason: expect.stringMatching(/^unreadable: the PDF could not be read: ./),
            },
          ]);
        expect(first.rows).toBeGreaterThanOrEqual(page.rows.length - 1);
        // The same versions do not read it again.
        expect(await scans().read([item], documenter)).toMatchObject({ alreadyRead: 1, proposed: 0 });
        // The card reader leaves a scanned page alone.
        const cards = servicesOf(ctx).ocr;
        expect(await cards.unread(100)).not.toContain(item);

        const listed = await scans().rows(item, documenter);
        expect(listed.sourceName).toBe('Scan list-200.png');
        expect(listed.reads[0]).toMatchObject({ outcome: 'proposed', pageWidth: 1240, pageHeight: 1754 });
        const rows = listed.rows;
        const byNumber = new Map(page.rows.map((r) => [r.number, r]));
        let matched = 0;
        for (const row of rows) {
          expect(row.status).toBe('proposed');
          expect(row.page).toBe(1);
          expect(row.box.width).toBeGreaterThan(100);
          const truth = row.fields.detaineeNumber ? byNumber.get(row.fields.detaineeNumber) : undefined;
          if (truth && truth.name === row.fields.fullName) matched++;
        }
        expect(matched).toBeGreaterThanOrEqual(page.rows.length - 3);

        const [a, b, c] = rows;
        const decided = await scans().decide(item, {
          caller: documenter,
          decisions: [
            { row: a!.id, action: 'accept' },
            { row: b!.id, action: 'correct', fields: { familyName: 'المصحح', fullName: 'اسم مصحح المصحح' } },
            { row: c!.id, action: 'reject' },
          ],
        });
        expect(decided.errors).toEqual([]);
        const after = new Map(decided.rows.map((r) => [r.id, r]));
        expect(after.get(a!.id)).toMatchObject({ status: 'accepted', decidedBy: 'documenter-1' });
        expect(after.get(b!.id)).toMatchObject({ status: 'corrected' });
        expect(after.get(c!.id)).toMatchObject({ status: 'rejected', recordId: null });
        const source = await servicesOf(ctx).sources.get(decided.sourceId!);
        expect(source).toMatchObject({ name: 'Scan list-200.png', kind: 'document' });
        const records = await ctx.store.db
          .selectFrom('records')
          .selectAll()
          .where('source_id', '=', decided.sourceId!)
          .orderBy('external_id')
          .execute();
        expect(records).toHaveLength(2);
        const accepted = records.find((r) => r.id === after.get(a!.id)!.recordId)!;
        expect(accepted).toMatchObject({
          kind: 'registry_line',
          external_id: `${item}/p1/r${a!.index}`,
          full_name: a!.fields.fullName,
          detainee_number: a!.fields.detaineeNumber ?? null,
          created_by: 'documenter-1',
        });
        const corrected = records.find((r) => r.id === after.get(b!.id)!.recordId)!;
        expect(corrected).toMatchObject({ full_name: 'اسم مصحح المصحح', family_name: 'المصحح' });
        // A row decided already is refused, naming who decided it.
        await expect(
          scans().decide(item, { caller: documenter, decisions: [{ row: c!.id, action: 'accept' }] }),
        ).rejects.toThrow(/already rejected by documenter-1/);
        const audit = await ctx.store.db
          .selectFrom('audit_log')
          .select('action')
          .where('subject_id', '=', item)
          .execute();
        expect(audit.map((r) => r.action)).toEqual(
          expect.arrayContaining(['ocr.page_read', 'ocr.rows_read', 'ocr.rows_decided']),
        );
      },
      120_000,
    );

    it.runIf(probe.ok)(
      'reads dates written in Arabic-Indic digits (glyph classifier) into rows, and an accepted row’s date becomes the record’s arrest date',
      async () => {
        const item = await itemNamed('dated-331.png');
        expect(await scans().read([item], documenter)).toMatchObject({ proposed: 1, failed: 0 });
        const listed = await scans().rows(item, documenter);
        expect(listed.reads[0]).toMatchObject({ dateColumn: 'arrest_date' });
        expect(listed.reads[0]!.engine).toMatch(/^athar-rows\/3 /);
        const byNumber = new Map(dated.rows.map((r) => [r.number, r]));
        const right = listed.rows.filter((r) => {
          const truth = r.fields.detaineeNumber ? byNumber.get(r.fields.detaineeNumber) : undefined;
          return truth?.date !== undefined && r.fields.date === truth.date;
        });
        expect(right.length).toBeGreaterThanOrEqual(dated.rows.length - 4);
        const row = right[0]!;
        const decided = await scans().decide(item, {
          caller: documenter,
          decisions: [{ row: row.id, action: 'accept' }],
        });
        expect(decided.errors).toEqual([]);
        const record = await ctx.store.db
          .selectFrom('records')
          .selectAll()
          .where('external_id', '=', `${item}/p1/r${row.index}`)
          .executeTakeFirstOrThrow();
        expect(record).toMatchObject({
          detainee_number: row.fields.detaineeNumber,
          arrest_date: byNumber.get(row.fields.detaineeNumber!)!.date,
        });
      },
      120_000,
    );

    for (const name of ['register.tiff', 'register.pdf']) {
      it.runIf(probe.ok && (name.endsWith('.tiff') || pdfOk))(
        `reads every page of a two-page document (${name}): rows numbered per page, each box in its page's pixels, and serves page 2`,
        async () => {
          const item = await itemNamed(name);
          const done = await scans().read([item], documenter);
          expect(done).toMatchObject({ items: 1, proposed: 1, pages: 2, failed: 0 });
          const listed = await scans().rows(item, documenter);
          const read = listed.reads[0]!;
          expect(read).toMatchObject({ outcome: 'proposed', pages: 2 });
          expect(read.pageSizes).toHaveLength(2);
          const [one, two] = read.pageSizes!;
          expect(read).toMatchObject({ pageWidth: one!.width, pageHeight: one!.height });
          // A TIFF's pages at their own size; a PDF's as rendered (150 dpi pages at 200 dpi).
          expect(two!.width).toBe(name.endsWith('.pdf') ? 1654 : 1240);
          for (const [p, truth] of [
            [1, page],
            [2, second],
          ] as const) {
            const rows = listed.rows.filter((r) => r.page === p);
            expect(rows.length).toBeGreaterThanOrEqual(truth.rows.length - 2);
            expect(rows.map((r) => r.index)).toEqual(rows.map((_, i) => i + 1));
            const size = read.pageSizes![p - 1]!;
            for (const r of rows) expect(r.box.x + r.box.width).toBeLessThanOrEqual(size.width + 2);
            const byNumber = new Map(truth.rows.map((r) => [r.number, r]));
            const matched = rows.filter((r) => {
              const t = r.fields.detaineeNumber ? byNumber.get(r.fields.detaineeNumber) : undefined;
              return t?.name === r.fields.fullName;
            });
            // Read as the page alone would be (the bench measures accuracy): most names right on each page.
            expect(matched.length).toBeGreaterThanOrEqual(Math.floor(truth.rows.length * 0.6));
          }
          // The page view serves page 2 (audited with its page), and names a page out of range.
          const view = await scans().pageView(item, documenter, 2);
          const chunks: Buffer[] = [];
          for await (const c of view.stream) chunks.push(c as Buffer);
          const shown = await sharp(Buffer.concat(chunks)).metadata();
          expect(shown).toMatchObject({ format: 'jpeg', height: 1600 });
          await expect(scans().pageView(item, documenter, 3)).rejects.toThrow(/page 3: item .* has 2 pages/);
          const viewed = await ctx.store.db
            .selectFrom('audit_log')
            .select('details')
            .where('subject_id', '=', item)
            .where('action', '=', 'ocr.page_viewed')
            .execute();
          expect(viewed.map((v) => JSON.parse(String(v.details)))).toEqual([
            expect.objectContaining({ page: 2 }),
          ]);
        },
        180_000,
      );
    }

    it('reports a page the engine cannot read with its reason, and records nothing while the engine is off', async () => {
      const item = await itemNamed('list-200.png');
      const services = servicesOf(ctx);
      const deps = { catalogue: services.catalogue, bodyLabels: services.bodyLabels };
      const crashing: OcrEngine = {
        info: { name: 'crashing', version: '0' },
        concurrency: 1,
        recognize: async () => {
          throw new OcrFailure('crashed', 'the engine died on this page (SYNTHETIC)');
        },
        close: async () => {},
      };
      const pagesWith = (ocr: OcrService) =>
        new ScannedPages(ctx, {
          catalogue: services.catalogue,
          ocr,
          registry: services.registry,
          sources: services.sources,
          audit: services.audit,
        });
      const failed = await pagesWith(new OcrService(ctx, deps, crashing)).read([item], documenter);
      expect(failed).toMatchObject({ items: 1, failed: 1, proposed: 0 });
      expect(failed.problems).toEqual([
        { evidenceId: item, outcome: 'failed', reason: 'crashed: the engine died on this page (SYNTHETIC)' },
      ]);
      // In a document of several pages, the reason names the page.
      const tiff = await itemNamed('register.tiff');
      const inDocument = await pagesWith(new OcrService(ctx, deps, crashing)).read([tiff], documenter);
      expect(inDocument.problems).toEqual([
        {
          evidenceId: tiff,
          outcome: 'failed',
          reason: 'page 1 of 2: crashed: the engine died on this page (SYNTHETIC)',
        },
      ]);
      const off = new OcrService({ ...ctx, config: { ...ctx.config, ocr: { tesseract: null } } }, deps);
      const unavailable = await pagesWith(off).read([item], documenter);
      expect(unavailable).toMatchObject({ items: 1, unavailable: 1 });
      expect(unavailable.problems[0]!.reason).toMatch(/ATHAR_TESSERACT=off/);
      const reads = await ctx.store.db
        .selectFrom('ocr_page_reads')
        .select('outcome')
        .where('evidence_id', '=', item)
        .execute();
      expect(reads.map((r) => r.outcome).sort()).toEqual(probe.ok ? ['failed', 'proposed'] : ['failed']);
    });
  },
);
