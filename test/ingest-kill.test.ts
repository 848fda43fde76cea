/**
 * A kill -9 in the middle of `athar ingest` loses nothing and leaves nothing half-stored: the CLI runs in a child
 * process that is really killed, then runs again to completion.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FsBlobStore } from '../src/blobs/fs-blob-store.js';
import { CustodyRepository } from '../src/store/repositories/custody.js';
import { EvidenceRepository } from '../src/store/repositories/evidence.js';
import { IngestRunRepository } from '../src/store/repositories/ingest-runs.js';
import { openStore } from '../src/store/store.js';
import { syntheticPhoto } from './evidence-files.js';
import { createTestDatabase, dialects, type TestDatabase } from './stores.js';

const bin = path.resolve(import.meta.dirname, '../bin/athar.js');
// Enough for more than two commit batches (64 files each) however fast the machine ingests: a kill must land
// between batches, and a watcher must see rows appear batch by batch.
const photos = 150;

describe.each(dialects)('a kill -9 during ingest [%s]', (dialect) => {
  let dir: string;
  let database: TestDatabase;
  let folder: string;
  let args: string[];
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-kill-'));
    database = await createTestDatabase(dialect);
    folder = path.join(dir, 'photos');
    fs.mkdirSync(folder);
    for (let i = 0; i < photos; i++) {
      fs.writeFileSync(
        path.join(folder, `photo-${String(i).padStart(3, '0')}.jpg`),
        await syntheticPhoto(5000 + i, 640, 480),
      );
    }
    const url = database.config.kind === 'sqlite' ? `sqlite:${database.config.file}` : database.config.url;
    args = [
      'ingest',
      '--data',
      path.join(dir, 'data'),
      '--database-url',
      url,
      '--no-progress',
      '--concurrency',
      '2',
    ];
  });
  afterAll(async () => {
    await database.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('loses nothing, duplicates nothing and leaves nothing half-stored', async () => {
    const blobsRoot = path.join(dir, 'data', 'blobs');
    const child = spawn(process.execPath, [bin, ...args, folder], { stdio: ['ignore', 'pipe', 'pipe'] });
    // Kill once some blobs are in place, i.e. in the middle of the work.
    await waitFor(() => countFiles(path.join(blobsRoot, 'sha256')) >= 12, child);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('close', resolve));

    const store = await openStore(database.config);
    const blobs = new FsBlobStore(blobsRoot);
    try {
      const repo = new EvidenceRepository(store.db);
      const committed = (await repo.listAll()).length;
      expect(committed, 'the kill came after the last commit').toBeLessThan(photos);
      // Every blob at its final name is whole; every row's blobs are there.
      for await (const sha of blobs.list()) expect((await blobs.verify(sha)).ok, sha).toBe(true);
      for (const item of await repo.listAll()) {
        for (const sha of [item.sha256, item.thumbnailSha256!, item.blurredSha256!]) {
          expect((await blobs.verify(sha)).ok).toBe(true);
        }
      }
      const runs = await new IngestRunRepository(store.db).list();
      expect(runs.map((r) => r.status)).toEqual(['running']);

      const again = await runCli([...args, '--json', folder]);
      expect(again.code, again.stderr).toBe(0);
      const summary = JSON.parse(again.stdout) as Record<string, unknown>;
      expect(summary).toMatchObject({
        status: 'finished',
        seen: photos,
        stored: photos - committed,
        alreadyPresent: committed,
        refused: 0,
      });

      const items = await repo.listAll();
      expect(items).toHaveLength(photos);
      expect(new Set(items.map((i) => i.sha256)).size).toBe(photos);
      const custody = new CustodyRepository(store.db);
      for (const item of items) {
        expect(await repo.locations(item.id)).toHaveLength(1);
        expect(await custody.count({ evidenceId: item.id, kind: 'ingested' })).toBe(1);
        expect(item.pdq).toMatch(/^[0-9a-f]{64}$/);
      }
      const statuses = (await new IngestRunRepository(store.db).list()).map((r) => r.status).sort();
      expect(statuses).toEqual(['finished', 'interrupted']);
    } finally {
      await store.close();
    }
  });
});

describe.each(dialects)('blobs and rows during an ingest [%s]', (dialect) => {
  let dir: string;
  let database: TestDatabase;
  let folder: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-order-'));
    database = await createTestDatabase(dialect);
    folder = path.join(dir, 'photos');
    fs.mkdirSync(folder);
    for (let i = 0; i < photos; i++) {
      fs.writeFileSync(path.join(folder, `p-${i}.jpg`), await syntheticPhoto(7000 + i, 480, 360));
    }
  });
  afterAll(async () => {
    await database.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('never shows a committed row whose blobs are not all in place, batch after batch', async () => {
    const url = database.config.kind === 'sqlite' ? `sqlite:${database.config.file}` : database.config.url;
    const blobsRoot = path.join(dir, 'data', 'blobs');
    const child = spawn(
      process.execPath,
      [bin, 'ingest', '--data', path.join(dir, 'data'), '--database-url', url, '--no-progress', folder],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    let running = true;
    void exited.then(() => {
      running = false;
    });
    // Watch the rows as they commit, from another connection, and check every blob they name each time.
    await waitFor(() => fs.existsSync(path.join(dir, 'data')), child);
    let store: Awaited<ReturnType<typeof openStore>> | undefined;
    while (!store && running) {
      store = await openStore(database.config, { migrate: false }).catch(() => undefined);
      if (!store) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const blobs = new FsBlobStore(blobsRoot);
    const checked = new Set<string>();
    const seenCounts = new Set<number>();
    let lastReadError: unknown;
    try {
      // After the ingest exits, reads go on until every row is seen: one read can fail while the writer closes
      // (SQLite checkpoints its log then), and a failed read is retried, not taken for an empty table.
      for (let readsAfterExit = 0; running || (checked.size < 3 * photos && readsAfterExit < 200); ) {
        if (!running) readsAfterExit++;
        const rows = store
          ? await store.db
              .selectFrom('evidence_items')
              .select(['sha256', 'thumbnail_sha256', 'blurred_sha256'])
              .execute()
              .catch((error: unknown) => {
                lastReadError = error;
                return undefined;
              })
          : undefined;
        if (rows) seenCounts.add(rows.length);
        for (const row of rows ?? []) {
          for (const sha of [row.sha256, row.thumbnail_sha256, row.blurred_sha256]) {
            if (!sha || checked.has(sha)) continue;
            expect((await blobs.verify(sha)).ok, `a row names ${sha} before it is in place`).toBe(true);
            checked.add(sha);
          }
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect(await exited, `the ingest said: ${stderr}`).toBe(0);
      expect(checked.size, `blobs checked; the last failed read said: ${String(lastReadError)}`).toBe(
        3 * photos,
      );
      // Rows were seen at several points of the run, not only at its end.
      expect([...seenCounts].filter((n) => n > 0 && n < photos).length).toBeGreaterThan(0);
    } finally {
      await store?.close();
    }
  });
});

function countFiles(root: string): number {
  if (!fs.existsSync(root)) return 0;
  let n = 0;
  for (const entry of fs.readdirSync(root, { withFileTypes: true, recursive: true })) if (entry.isFile()) n++;
  return n;
}

async function waitFor(condition: () => boolean, child: ChildProcess): Promise<void> {
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const started = Date.now();
  while (!condition()) {
    if (child.exitCode !== null) throw new Error(`ingest ended before it could be killed: ${stderr}`);
    if (Date.now() - started > 60_000) throw new Error('ingest did not start storing within a minute');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
