import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SharpImageDecoder } from '../src/evidence/sharp-image-decoder.js';
import { ingest } from '../src/services/ingest/ingest.js';
import { probeTesseract } from '../src/services/ocr/tesseract.js';
import { type ApiClient, type ApiHarness, createApi } from './api.js';
import { pageSample } from './ocr/synthetic.js';
import { describeEachDialect } from './stores.js';

const probe = probeTesseract();

describeEachDialect('scanned registry rows over the API (SYNTHETIC page)', (store) => {
  let api: ApiHarness;
  let documenter: ApiClient;
  let reviewer: ApiClient;
  let liaison: ApiClient;
  let item: string;
  beforeAll(async () => {
    api = await createApi(store());
    documenter = await api.as('documenter');
    reviewer = await api.as('reviewer');
    liaison = await api.as('liaison');
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-scan-api-'));
    fs.writeFileSync(
      path.join(folder, 'list.png'),
      (await pageSample(201, { handwritten: false, dates: 'latin' })).image,
    );
    await ingest(api.ctx, { paths: [folder], actor: documenter.user!.id, decoder: new SharpImageDecoder() });
    fs.rmSync(folder, { recursive: true, force: true });
    item = (await api.ctx.store.db.selectFrom('evidence_items').select('id').executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => api.close());

  it.runIf(probe.ok)(
    'reads a page on request, lists its rows, serves its page view, and a documenter’s decisions make records; a reviewer may look but not read or decide',
    async () => {
      // Not read as a page yet: no page view.
      expect((await documenter.get(`/api/evidence/${item}/page`)).statusCode).toBe(409);
      expect((await reviewer.post(`/api/evidence/${item}/rows/read`, {})).statusCode).toBe(403);
      const read = await documenter.post(`/api/evidence/${item}/rows/read`, {});
      expect(read.statusCode).toBe(200);
      expect(read.json()).toMatchObject({ items: 1, proposed: 1 });
      const listed = await reviewer.get(`/api/evidence/${item}/rows`);
      expect(listed.statusCode).toBe(200);
      const body = listed.json();
      expect(body.sourceName).toBe('Scan list.png');
      expect(body.reads[0]).toMatchObject({
        outcome: 'proposed',
        pageWidth: 1240,
        pageHeight: 1754,
        dateColumn: 'arrest_date',
      });
      const rows = (
        body.items as { id: string; fields: { fullName?: string; date?: string }; status: string }[]
      ).filter((r) => r.fields.date);
      expect(rows.length).toBeGreaterThan(10);
      const view = await reviewer.get(`/api/evidence/${item}/page`);
      expect(view.statusCode).toBe(200);
      expect(view.headers['content-type']).toBe('image/jpeg');
      expect((await reviewer.get(`/api/evidence/${item}/page?page=1`)).statusCode).toBe(200);
      // A page out of range names the pages there are; a page that is no number is refused.
      const beyond = await reviewer.get(`/api/evidence/${item}/page?page=2`);
      expect(beyond.statusCode).toBe(404);
      expect(beyond.json().detail).toMatch(/page 2: item .* has one page/);
      expect((await reviewer.get(`/api/evidence/${item}/page?page=0`)).statusCode).toBe(400);
      expect(listed.json().reads[0]).toMatchObject({ pages: 1, pageSizes: [{ width: 1240, height: 1754 }] });
      expect(
        (
          await reviewer.post(`/api/evidence/${item}/rows/decisions`, {
            decisions: [{ row: rows[0]!.id, action: 'accept' }],
          })
        ).statusCode,
      ).toBe(403);
      // A liaison writes records but does not annotate evidence: not a decider of scanned rows.
      const byLiaison = await liaison.post(`/api/evidence/${item}/rows/decisions`, {
        decisions: [{ row: rows[0]!.id, action: 'accept' }],
      });
      expect(byLiaison.statusCode).toBe(403);
      const decided = await documenter.post(`/api/evidence/${item}/rows/decisions`, {
        sourceName: 'SYNTHETIC register, page 1',
        decisions: [
          { row: rows[0]!.id, action: 'accept' },
          { row: rows[1]!.id, action: 'reject' },
        ],
      });
      expect(decided.statusCode).toBe(200);
      const out = decided.json();
      expect(out.errors).toEqual([]);
      const first = (out.items as { id: string; status: string; recordId: string | null }[]).find(
        (r) => r.id === rows[0]!.id,
      )!;
      expect(first.status).toBe('accepted');
      const record = await documenter.get(`/api/records/${first.recordId}`);
      expect(record.statusCode).toBe(200);
      // The page's heading says its dates are of arrest: the accepted row's date is the record's date of arrest.
      expect(record.json()).toMatchObject({
        kind: 'registry_line',
        fullName: rows[0]!.fields.fullName,
        arrestDate: rows[0]!.fields.date,
      });
      const again = await documenter.post(`/api/evidence/${item}/rows/decisions`, {
        decisions: [{ row: rows[1]!.id, action: 'accept' }],
      });
      expect(again.statusCode).toBe(409);
    },
    120_000,
  );
});
