import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SharpImageDecoder } from '../src/evidence/sharp-image-decoder.js';
import { ingest } from '../src/services/ingest/ingest.js';
import { type ApiClient, type ApiHarness, createApi } from './api.js';
import { syntheticPhoto } from './evidence-files.js';
import { describeEachDialect } from './stores.js';

/** The evidence grid's filters and bulk annotation through the real server; SYNTHETIC photos only. */
describeEachDialect('the evidence grid', (store) => {
  let api: ApiHarness;
  let documenter: ApiClient;

  beforeAll(async () => {
    api = await createApi(store());
    documenter = await api.as('documenter');
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-grid-'));
    const photo = await syntheticPhoto(7701, 480, 360);
    fs.writeFileSync(path.join(folder, 'a.jpg'), photo);
    fs.writeFileSync(
      path.join(folder, 'b.jpg'),
      await sharp(photo).resize(400, 300).jpeg({ quality: 70 }).toBuffer(),
    );
    fs.writeFileSync(path.join(folder, 'c.jpg'), await syntheticPhoto(7702, 480, 360));
    await ingest(api.ctx, {
      paths: [folder],
      actor: documenter.user?.id as string,
      decoder: new SharpImageDecoder(),
    });
    fs.rmSync(folder, { recursive: true, force: true });
  });
  afterAll(async () => api.close());

  const names = async (query: string) =>
    ((await documenter.get(`/api/evidence?${query}`)).json().items as { originalName: string }[])
      .map((i) => i.originalName)
      .sort();

  it('filters by near-duplicates, by group and by the day stored', async () => {
    expect(await names('nearDuplicates=true')).toEqual(['a.jpg', 'b.jpg']);
    expect(await names('nearDuplicates=false')).toEqual(['c.jpg']);
    const items = (await documenter.get('/api/evidence?nearDuplicates=true')).json().items;
    expect(items[0].groupSize).toBe(2);
    expect(await names(`group=${items[0].groupId}`)).toEqual(['a.jpg', 'b.jpg']);
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    expect(await names(`from=${today}&to=${today}`)).toEqual(['a.jpg', 'b.jpg', 'c.jpg']);
    expect(await names(`to=${yesterday}`)).toEqual([]);
    expect((await documenter.get('/api/evidence?from=yesterday')).statusCode).toBe(400);
  });

  it('annotates many items alike, answering per item', async () => {
    const ids = (
      (await documenter.get('/api/evidence?nearDuplicates=true')).json().items as { id: string }[]
    ).map((i) => i.id);
    const res = await documenter.post('/api/evidence/annotations', {
      evidenceIds: [...ids, '00000000-0000-7000-8000-000000000000'],
      kind: 'branch_number',
      value: '215',
      readFrom: 'folder',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().items.map((i: { ok: boolean }) => i.ok)).toEqual([true, true, false]);
    expect(await names('hasAnnotations=true')).toEqual(['a.jpg', 'b.jpg']);
    const custody = await api.ctx.store.db
      .selectFrom('custody_events')
      .select('kind')
      .where('kind', '=', 'annotated')
      .execute();
    expect(custody).toHaveLength(2);
    const reviewer = await api.as('reviewer');
    expect(
      (await reviewer.post('/api/evidence/annotations', { evidenceIds: ids, kind: 'note', value: 'x' }))
        .statusCode,
    ).toBe(403);
  });
});
