/**
 * Backups from the browser's API (the /backups screen): an admin backs up into the server's backup folder in the
 * background, a second backup copies only new blobs, a snapshot is checked by re-hashing its blobs (a changed blob
 * is named), and nobody else may do any of it. Every step is an audit row. Data synthetic.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servicesOf } from '../src/services/index.js';
import { AuditRepository } from '../src/store/repositories/audit.js';
import { openStore, type Store } from '../src/store/store.js';
import { type ApiClient, type ApiHarness, createApi } from './api.js';
import { createTestDatabase, dialects, type TestDatabase } from './stores.js';

interface Job {
  id: string;
  kind: string;
  status: string;
  snapshot: string | null;
  report: { blobs: { copied: number; reused: number }; keys: string[] } | null;
  check: { ok: boolean; problems: string[]; blobsChecked: number } | null;
  failure: string | null;
}

describe.each(dialects)('backups over HTTP [%s]', (dialect) => {
  let api: ApiHarness;
  let admin: ApiClient;
  let database: TestDatabase;
  let store: Store;

  beforeAll(async () => {
    // The server's configuration names the database it backs up: the harness gets the test database's URL.
    database = await createTestDatabase(dialect);
    store = await openStore(database.config);
    const url = database.config.kind === 'sqlite' ? `sqlite:${database.config.file}` : database.config.url;
    api = await createApi(store, { ATHAR_DATABASE_URL: url });
    admin = await api.as('admin');
  });
  afterAll(async () => {
    await servicesOf(api.ctx).backups.settle();
    await api.close();
    await store.close();
    await database.drop();
  });

  const finished = async (id: string): Promise<Job> => {
    await servicesOf(api.ctx).backups.settle();
    const view = (await admin.get('/api/backups')).json() as { jobs: Job[] };
    const job = view.jobs.find((j) => j.id === id);
    if (!job) throw new Error(`no job ${id}`);
    return job;
  };

  it('backs up in the background, copies only new blobs the second time, and checks a snapshot blob by blob', async () => {
    await api.ctx.blobs.put(Buffer.from('SYNTHETIC blob one'));
    const first = await admin.post('/api/backups', { keys: false });
    expect(first.statusCode, first.body).toBe(202);
    const one = await finished(first.json().id);
    expect(one).toMatchObject({ kind: 'backup', status: 'finished', failure: null });
    expect(one.report?.blobs.copied).toBe(1);
    expect(one.report?.keys).toEqual([]);

    await api.ctx.blobs.put(Buffer.from('SYNTHETIC blob two'));
    const two = await finished((await admin.post('/api/backups', { keys: false })).json().id);
    expect(two.report?.blobs).toMatchObject({ copied: 1, reused: 1 });

    const view = (await admin.get('/api/backups')).json();
    expect(view.target).toBe(api.ctx.config.backups.dir);
    expect(view.snapshots.map((s: { id: string }) => s.id)).toEqual([two.snapshot, one.snapshot]);
    expect(view.snapshots[0]).toMatchObject({ complete: true, blobs: { count: 2 } });
    expect(view.snapshots[0].rows).toBeGreaterThan(0);
    // Owner-only: a backup folder holds the archive.
    expect(fs.statSync(view.target).mode & 0o077).toBe(0);

    const checked = await finished((await admin.post(`/api/backups/${two.snapshot}/check`, {})).json().id);
    expect(checked.check).toMatchObject({ ok: true, blobsChecked: 2, problems: [] });

    // A changed blob in the backup folder is named by the check.
    const blobsDir = path.join(view.target, 'blobs', 'sha256');
    const a = fs.readdirSync(blobsDir)[0] as string;
    const b = fs.readdirSync(path.join(blobsDir, a))[0] as string;
    const file = path.join(blobsDir, a, b, fs.readdirSync(path.join(blobsDir, a, b))[0] as string);
    fs.chmodSync(file, 0o600);
    const bytes = fs.readFileSync(file);
    bytes[0] = (bytes[0] ?? 0) ^ 1;
    fs.writeFileSync(file, bytes);
    const tampered = await finished((await admin.post(`/api/backups/${two.snapshot}/check`, {})).json().id);
    expect(tampered.check?.ok).toBe(false);
    expect(tampered.check?.problems.join('\n')).toContain(path.basename(file));

    const unknown = await admin.post('/api/backups/20990101T000000Z/check', {});
    expect(unknown.statusCode).toBe(409);

    const actions = (await new AuditRepository(api.ctx.store.db).query({})).map((r) => r.action);
    for (const action of ['backup.started', 'backup.finished', 'backup.check_started', 'backup.checked'])
      expect(actions).toContain(action);
  });

  it('keeps the keys in a backup only when asked', async () => {
    fs.mkdirSync(path.join(api.ctx.config.dataDir, 'keys'), { recursive: true });
    fs.writeFileSync(path.join(api.ctx.config.dataDir, 'keys', 'synthetic.key'), 'SYNTHETIC', {
      mode: 0o600,
    });
    const job = await finished((await admin.post('/api/backups', { keys: true })).json().id);
    expect(job.report?.keys).toEqual(['synthetic.key']);
    const view = (await admin.get('/api/backups')).json();
    expect(view.snapshots[0].keys).toEqual(['synthetic.key']);
  });

  it('is for admins only', async () => {
    for (const role of ['documenter', 'reviewer', 'liaison', 'investigator'] as const) {
      const client = await api.as(role);
      expect((await client.get('/api/backups')).statusCode).toBe(403);
      expect((await client.post('/api/backups', { keys: false })).statusCode).toBe(403);
    }
  });
});
