import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { importRecords, testSigner } from '../../../test/ledger-fixtures.js';
import { describeEachDialect } from '../../../test/stores.js';
import { FsBlobStore } from '../../blobs/fs-blob-store.js';
import { loadConfig } from '../../config/config.js';
import { parseCheckpoint } from '../../ledger/checkpoint.js';
import { leafHash, toHex } from '../../ledger/hash.js';
import { ed25519Verifier, openNote } from '../../ledger/note.js';
import { decodeBundle, TileSet, tileKey, tilePath, tilesForPlan } from '../../ledger/tiles.js';
import { inclusionPlan, resolvePlan, verifyInclusion } from '../../ledger/tree.js';
import type { AppContext } from '../../services/context.js';
import { LedgerSequencer } from '../../services/ledger/sequencer.js';
import { type App, buildServer } from '../app.js';

describeEachDialect('the log over HTTP', (store) => {
  const signer = testSigner();
  let app: App;
  let dir: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-log-routes-'));
    const blobs = new FsBlobStore(path.join(dir, 'blobs'));
    await blobs.init();
    const config = loadConfig({ ATHAR_DATA: dir, ATHAR_LOG_LEVEL: 'silent' });
    const ctx: AppContext = { config, store: store(), blobs, clock: Date.now, close: async () => {} };
    app = await buildServer(ctx, { logger: false });
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers 404 while the log has no checkpoint', async () => {
    const res = await app.inject({ method: 'GET', url: '/log/checkpoint' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('application/problem+json');
  });

  it('serves the signed checkpoint as text that a verifier opens', async () => {
    await importRecords(store(), 300);
    await new LedgerSequencer(store(), signer).publish();
    const res = await app.inject({ method: 'GET', url: '/log/checkpoint' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    const opened = openNote(res.body, [ed25519Verifier(signer.key)]);
    expect(opened.ok && parseCheckpoint(opened.text)).toMatchObject({ ok: true, checkpoint: { size: 300 } });
  });

  it('serves full tiles as immutable and partial tiles at the width asked', async () => {
    const entries = await store().db.selectFrom('ledger_entries').select('entry').orderBy('idx').execute();
    const full = await app.inject({ method: 'GET', url: '/log/tile/0/000' });
    expect(full.statusCode).toBe(200);
    expect(full.headers['content-type']).toBe('application/octet-stream');
    expect(full.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(full.rawPayload.length).toBe(8192);
    expect(toHex(full.rawPayload.subarray(5 * 32, 6 * 32))).toBe(
      toHex(leafHash(Buffer.from(entries[5]?.entry as string))),
    );

    const part = await app.inject({ method: 'GET', url: '/log/tile/0/001.p/44' });
    expect(part.statusCode).toBe(200);
    expect(part.headers['cache-control']).toBe('public, max-age=60');
    expect(part.rawPayload.length).toBe(44 * 32);
    const shorter = await app.inject({ method: 'GET', url: '/log/tile/0/001.p/3' });
    expect(shorter.rawPayload).toEqual(part.rawPayload.subarray(0, 96));
  });

  it('serves entry bundles, gzipped when the client accepts it', async () => {
    const entries = await store().db.selectFrom('ledger_entries').select('entry').orderBy('idx').execute();
    const plain = await app.inject({ method: 'GET', url: '/log/tile/entries/001.p/44' });
    expect(decodeBundle(plain.rawPayload)?.map((e) => Buffer.from(e).toString())).toEqual(
      entries.slice(256, 300).map((e) => e.entry),
    );
    const zipped = await app.inject({
      method: 'GET',
      url: '/log/tile/entries/000',
      headers: { 'accept-encoding': 'gzip, identity' },
    });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(decodeBundle(gunzipSync(zipped.rawPayload))).toHaveLength(256);
  });

  it.each([
    ['a tile the log has not reached', '/log/tile/0/002'],
    ['a partial tile wider than the log', '/log/tile/0/001.p/45'],
    ['a bundle the log has not reached', '/log/tile/entries/005'],
    ['a malformed tile path', '/log/tile/00/000'],
  ])('answers 404 for %s', async (_, url) => {
    const res = await app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(404);
  });

  it('describes the log routes in the OpenAPI document', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, unknown>;
    };
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/log/checkpoint', '/log/tile/{*}']));
  });

  it('lets a client prove an entry from the served tiles alone', async () => {
    const cp = openNote((await app.inject({ method: 'GET', url: '/log/checkpoint' })).body, [
      ed25519Verifier(signer.key),
    ]);
    const parsed = cp.ok ? parseCheckpoint(cp.text) : undefined;
    if (!parsed?.ok) throw new Error('checkpoint did not open');
    const { size, root } = parsed.checkpoint;
    const bundle =
      decodeBundle((await app.inject({ method: 'GET', url: '/log/tile/entries/001.p/44' })).rawPayload) ?? [];
    for (const index of [0, 200, 255, 256, 299]) {
      const plan = inclusionPlan(index, size);
      const fetched = new Map<string, Uint8Array>();
      for (const t of tilesForPlan(plan, size)) {
        fetched.set(
          tileKey(t.level, t.index),
          (await app.inject({ method: 'GET', url: `/log/${tilePath(t)}` })).rawPayload,
        );
      }
      const proof = resolvePlan(plan, new TileSet(fetched).read);
      const leaf =
        index >= 256
          ? leafHash(bundle[index - 256] as Uint8Array)
          : (fetched.get(tileKey(0, 0)) as Uint8Array).subarray(index * 32, index * 32 + 32);
      expect(verifyInclusion(index, size, leaf, proof, root)).toBe(true);
    }
  });
});
