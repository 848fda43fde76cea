import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SharpImageDecoder } from '../src/evidence/sharp-image-decoder.js';
import { ingest } from '../src/services/ingest/ingest.js';
import { AuditRepository } from '../src/store/repositories/audit.js';
import { type ApiClient, type ApiHarness, createApi } from './api.js';
import { mkdirs, syntheticPhoto } from './evidence-files.js';
import { describeEachDialect } from './stores.js';

/**
 * Issue 21, Security 2: what names or locates a witness — full metadata, found-at paths, custody details, ingest
 * custodians — goes only to evidence:provenance, and is audited when read. Synthetic names and files only.
 */
describeEachDialect('evidence provenance', (store) => {
  let api: ApiHarness;
  let investigator: ApiClient;
  let id: string;
  let runId: string;
  const secrets = [
    'A Synthetic Witness',
    'witness-synthetic-folder',
    'synthetic custodian',
    'synthetic ingest note',
  ];

  beforeAll(async () => {
    api = await createApi(store());
    investigator = await api.as('investigator');
    const folder = mkdirs(api.dir, 'incoming', secrets[1] as string);
    const photo = await sharp(await syntheticPhoto(5101, 320, 240))
      .withExif({
        IFD0: { Make: 'athar-test', Model: 'synthetic', Artist: secrets[0] as string },
      })
      .jpeg()
      .toBuffer();
    fs.writeFileSync(path.join(folder, 'photo.jpg'), photo);
    const summary = await ingest(api.ctx, {
      paths: [folder],
      actor: investigator.user?.id as string,
      source: 'synthetic provenance collection',
      custodian: secrets[2] as string,
      note: secrets[3] as string,
      decoder: new SharpImageDecoder(),
    });
    runId = summary.runId;
    id = (await api.ctx.store.db.selectFrom('evidence_items').select('id').executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => api.close());

  const provenanceReads = (action: string) => new AuditRepository(api.ctx.store.db).query({ action });

  it('shows every other evidence reader the dimensions, capture date and camera model, and nothing that names or locates a person', async () => {
    for (const role of ['documenter', 'reviewer', 'liaison'] as const) {
      const client = await api.as(role);
      const item = await client.get(`/api/evidence/${id}`);
      expect(item.statusCode).toBe(200);
      const body = item.json();
      expect(body.provenance).toBe(false);
      expect(body).toMatchObject({ width: 320, height: 240 });
      expect(body.metadata).toMatchObject({ cameraMake: 'athar-test', cameraModel: 'synthetic' });
      expect(body.locations[0].path).toBeNull();
      expect(body.custody.every((c: { details: unknown }) => c.details === null)).toBe(true);
      const runs = await client.get('/api/ingest-runs');
      const run = await client.get(`/api/ingest-runs/${runId}`);
      for (const text of [item.body, runs.body, run.body]) {
        for (const secret of secrets) expect(text, `${role} sees ${secret}`).not.toContain(secret);
      }
    }
    expect(await provenanceReads('evidence_provenance_read')).toEqual([]);
    expect(await provenanceReads('ingest_runs_provenance_read')).toEqual([]);
  });

  it('shows provenance to an investigator and audits each read; a token without the scope sees the default view', async () => {
    const item = await investigator.get(`/api/evidence/${id}`);
    expect(item.json().provenance).toBe(true);
    expect(item.body).toContain(secrets[0]);
    expect(item.body).toContain(secrets[1]);
    expect(item.body).toContain(secrets[2]);
    const run = await investigator.get(`/api/ingest-runs/${runId}`);
    expect(run.json()).toMatchObject({ custodian: secrets[2], note: secrets[3] });
    const reads = await provenanceReads('evidence_provenance_read');
    expect(reads.map((r) => [r.subjectId, r.actorId])).toEqual([[id, investigator.user?.id]]);
    expect((await provenanceReads('ingest_runs_provenance_read')).map((r) => r.subjectId)).toEqual([runId]);

    const minted = await investigator.post('/api/tokens', { name: 'reader', scopes: ['evidence:read'] });
    expect(minted.statusCode).toBe(201);
    const viaToken = await api.app.inject({
      method: 'GET',
      url: `/api/evidence/${id}`,
      headers: { authorization: `Bearer ${minted.json().token}` },
    });
    expect(viaToken.statusCode).toBe(200);
    expect(viaToken.json().provenance).toBe(false);
    for (const secret of secrets) expect(viaToken.body).not.toContain(secret);
  });
});
