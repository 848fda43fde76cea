import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SharpImageDecoder } from '../src/evidence/sharp-image-decoder.js';
import { servicesOf } from '../src/services/index.js';
import { ingest } from '../src/services/ingest/ingest.js';
import { initLedger } from '../src/services/ledger/setup.js';
import { type ApiClient, type ApiHarness, createApi } from './api.js';
import { syntheticPhoto } from './evidence-files.js';
import { describeEachDialect } from './stores.js';

// Synthetic photos only.
describeEachDialect('export requests', (store) => {
  let api: ApiHarness;
  let asker: ApiClient;
  let approver: ApiClient;
  let items: string[];
  beforeAll(async () => {
    api = await createApi(store(), { ATHAR_EXPORT_HOURS: '2' });
    await initLedger(api.ctx);
    asker = await api.as('investigator');
    approver = await api.as('investigator');
    const photos = path.join(api.dir, 'photos');
    fs.mkdirSync(photos);
    for (let i = 0; i < 2; i++)
      fs.writeFileSync(path.join(photos, `p${i}.jpg`), await syntheticPhoto(900 + i));
    await ingest(api.ctx, { paths: [photos], actor: 'tester', decoder: new SharpImageDecoder() });
    items = (await store().db.selectFrom('evidence_items').select('id').execute()).map((r) => r.id);
  });
  afterAll(async () => api.close());

  const bundle = () => ({
    what: { kind: 'bundle', scope: { kind: 'evidence', evidenceIds: items } },
    purpose: 'criminal_proceedings',
    reason: 'requested by the investigating judge (synthetic case)',
  });

  it('is asked for with a reason by an investigator, refused to other roles and without a reason', async () => {
    const documenter = await api.as('documenter');
    expect((await documenter.post('/api/exports', bundle())).statusCode).toBe(403);
    expect((await asker.post('/api/exports', { ...bundle(), reason: 'court' })).statusCode).toBe(400);
    const missing = await asker.post('/api/exports', {
      ...bundle(),
      what: { kind: 'bundle', scope: { kind: 'evidence', evidenceIds: ['no-such-item'] } },
    });
    expect(missing.statusCode).toBe(404);
  });

  it('is approved by another person only, built, fetched by its requester, and expires', async () => {
    const asked = await asker.post('/api/exports', bundle());
    expect(asked.statusCode, asked.body).toBe(201);
    const id = asked.json().id as string;
    expect(asked.json().status).toBe('requested');
    // Not by the requester; not fetched before it is built.
    expect((await asker.post(`/api/exports/${id}/approve`, {})).statusCode).toBe(403);
    expect((await asker.get(`/api/exports/${id}/file`)).statusCode).toBe(409);
    const listed = (await approver.get('/api/exports')).json().items.map((r: { id: string }) => r.id);
    expect(listed).toContain(id);
    const approved = await approver.post(`/api/exports/${id}/approve`, { note: 'checked the order' });
    expect(approved.statusCode, approved.body).toBe(200);
    await servicesOf(api.ctx).exports.settle();
    const ready = (await asker.get(`/api/exports/${id}`)).json();
    expect(ready, JSON.stringify(ready)).toMatchObject({
      status: 'ready',
      fileSha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    // The approver cannot fetch it; the requester can, and the bytes are the file's.
    expect((await approver.get(`/api/exports/${id}/file`)).statusCode).toBe(404);
    const file = await asker.get(`/api/exports/${id}/file`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/zip');
    expect(file.rawPayload.subarray(0, 2).toString()).toBe('PK');
    const audit = await store()
      .db.selectFrom('audit_log')
      .select('action')
      .where('subject_id', '=', id)
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.action)).toEqual([
      'export.requested',
      'export.approved',
      'export.ready',
      'export.fetched',
    ]);
    const handed = await store()
      .db.selectFrom('custody_events')
      .select(['kind', 'actor'])
      .where('kind', '=', 'transferred')
      .execute();
    expect(handed).toEqual([{ kind: 'transferred', actor: asker.user?.id }]);

    // Past its hours (here: its time set back, as hours passing would) the file is removed and no longer fetched.
    await store()
      .db.updateTable('export_requests')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', id)
      .execute();
    expect((await asker.get(`/api/exports/${id}/file`)).statusCode).toBe(409);
    expect((await asker.get(`/api/exports/${id}`)).json().status).toBe('expired');
    expect(fs.existsSync(path.join(api.ctx.config.exports.dir, `${id}.zip`))).toBe(false);
  });

  it('is refused by the approver, and then never built', async () => {
    const asked = (await asker.post('/api/exports', bundle())).json();
    const refused = await approver.post(`/api/exports/${asked.id}/refuse`, { note: 'no order' });
    expect(refused.json()).toMatchObject({ status: 'refused', decisionNote: 'no order' });
    expect((await approver.post(`/api/exports/${asked.id}/approve`, {})).statusCode).toBe(409);
    expect((await asker.get(`/api/exports/${asked.id}/file`)).statusCode).toBe(409);
  });
});
