import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readAll } from '../src/blobs/index.js';
import { type ApiClient, type ApiHarness, createApi } from './api.js';
import { syntheticPhoto } from './evidence-files.js';
import { describeEachDialect } from './stores.js';
import { zipOf } from './zip-file.js';

/**
 * Browser uploads through the real server: files and a zip staged, ingested by `athar ingest`'s code, each file's
 * outcome kept, originals byte for byte, the staging folder removed; the size limit; another user's upload unseen.
 * SYNTHETIC photos only.
 */
describeEachDialect('browser uploads', (store) => {
  let api: ApiHarness;
  let documenter: ApiClient;
  const limit = 400_000;

  beforeAll(async () => {
    api = await createApi(store(), { ATHAR_UPLOAD_MAX_BYTES: String(limit) });
    documenter = await api.as('documenter');
  });
  afterAll(async () => api.close());

  const put = (client: ApiClient, id: string, where: string, bytes: Buffer) =>
    client.inject({
      method: 'PUT',
      url: `/api/uploads/${id}/files?path=${encodeURIComponent(where)}`,
      headers: { 'content-type': 'application/octet-stream' },
      payload: bytes,
    });

  async function finished(id: string) {
    for (let i = 0; i < 200; i++) {
      const res = await documenter.get(`/api/uploads/${id}`);
      if (res.json().status !== 'ingesting') return res.json();
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('the upload did not finish');
  }

  it('stages files and a zip, ingests them, keeps each outcome and removes the staged copies', async () => {
    const a = await syntheticPhoto(9101, 320, 240);
    const b = await syntheticPhoto(9102, 320, 240);
    const started = await documenter.post('/api/uploads');
    expect(started.statusCode).toBe(201);
    const { id, maxBytes } = started.json();
    expect(maxBytes).toBe(limit);
    expect((await put(documenter, id, 'Folder 215/card-a.jpg', a)).statusCode).toBe(201);
    // A path that tries to leave the staging folder is kept inside it.
    const sneaky = await put(documenter, id, '../../outside/card-b.jpg', b);
    expect(sneaky.json().path).toBe('outside/card-b.jpg');
    const zip = zipOf([
      { name: 'batch/card-c.jpg', bytes: await syntheticPhoto(9103, 320, 240) },
      { name: 'batch/again-a.jpg', bytes: a },
    ]);
    expect((await put(documenter, id, 'batch.zip', zip)).statusCode).toBe(201);
    const other = await api.as('documenter');
    expect((await other.get(`/api/uploads/${id}`)).statusCode).toBe(404);

    const ingest = await documenter.post(`/api/uploads/${id}/ingest`, { source: 'synthetic upload test' });
    expect(ingest.statusCode).toBe(202);
    expect((await documenter.post(`/api/uploads/${id}/ingest`, {})).statusCode).toBe(409);
    const done = await finished(id);
    expect(done.status).toBe('finished');
    const byPath = Object.fromEntries(
      (done.outcomes as { path: string; outcome: string; evidenceId?: string }[]).map((o) => [o.path, o]),
    );
    expect(Object.fromEntries(Object.entries(byPath).map(([p, o]) => [p, o.outcome]))).toEqual({
      'Folder 215/card-a.jpg': expect.stringMatching(/^(stored|already_present)$/),
      'outside/card-b.jpg': 'stored',
      'batch.zip': 'unpacked',
      'batch/batch/card-c.jpg': 'stored',
      'batch/batch/again-a.jpg': expect.stringMatching(/^(stored|already_present)$/),
    });
    // The same bytes twice: one item, found at two paths.
    expect(byPath['Folder 215/card-a.jpg']?.evidenceId).toBe(byPath['batch/batch/again-a.jpg']?.evidenceId);
    const item = await api.ctx.store.db
      .selectFrom('evidence_items')
      .select(['sha256', 'ingest_run_id'])
      .where('id', '=', byPath['outside/card-b.jpg']?.evidenceId as string)
      .executeTakeFirstOrThrow();
    expect(item.ingest_run_id).toBe(done.runId);
    expect((await readAll(await api.ctx.blobs.open(item.sha256))).equals(b)).toBe(true);
    expect(fs.existsSync(path.join(api.ctx.config.uploads.dir, id))).toBe(false);
    const run = await documenter.get(`/api/ingest-runs/${done.runId}`);
    expect(run.json().status).toBe('finished');
  });

  it('refuses a file that would take the upload past its limit, and keeps nothing of it', async () => {
    const { id } = (await documenter.post('/api/uploads')).json();
    const big = Buffer.alloc(limit + 1, 7);
    const res = await put(documenter, id, 'too-big.bin', big);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([expect.objectContaining({ path: 'body.file' })]);
    expect(fs.existsSync(path.join(api.ctx.config.uploads.dir, id, 'files', 'too-big.bin'))).toBe(false);
    expect((await documenter.get(`/api/uploads/${id}`)).json().files).toBe(0);
    expect((await documenter.post(`/api/uploads/${id}/ingest`, {})).statusCode).toBe(400);
  });

  it('is for documenters only', async () => {
    const reviewer = await api.as('reviewer');
    expect((await reviewer.post('/api/uploads')).statusCode).toBe(403);
  });
});
