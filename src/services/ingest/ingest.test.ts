import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { evidenceContext } from '../../../test/evidence-context.js';
import {
  decompressionBombPng,
  mkdirs,
  randomBytesOf,
  syntheticPhoto,
  writeFileNamed,
} from '../../../test/evidence-files.js';
import { describeEachDialect } from '../../../test/stores.js';
import { SharpImageDecoder } from '../../evidence/sharp-image-decoder.js';
import { CustodyRepository } from '../../store/repositories/custody.js';
import { EvidenceRepository } from '../../store/repositories/evidence.js';
import { IngestRunRepository } from '../../store/repositories/ingest-runs.js';
import { version } from '../../version.js';
import type { AppContext } from '../context.js';
import { hashEvidenceFiles } from '../evidence/evidence.js';
import { type IngestOptions, ingest } from './ingest.js';

const decoder = new SharpImageDecoder();

describeEachDialect('ingest', (store) => {
  let ctx: Awaited<ReturnType<typeof evidenceContext>>;
  beforeAll(async () => {
    ctx = await evidenceContext(store());
  });
  afterAll(() => ctx.dispose());

  const run = (paths: string[], extra: Partial<IngestOptions> = {}) =>
    ingest(ctx, { paths, actor: 'tester', decoder, ...extra });

  async function countRows(c: AppContext) {
    const n = async (table: 'evidence_items' | 'evidence_locations' | 'custody_events' | 'evidence_groups') =>
      Number(
        (
          await c.store.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return {
      items: await n('evidence_items'),
      locations: await n('evidence_locations'),
      custody: await n('custody_events'),
      groups: await n('evidence_groups'),
    };
  }

  it('stores each file once with its type, metadata, PDQ, views, location and custody event', async () => {
    const folder = mkdirs(ctx.dir, 'first');
    fs.writeFileSync(path.join(folder, 'photo.jpg'), await syntheticPhoto(101, 800, 600));
    fs.writeFileSync(path.join(folder, 'scan.png'), await syntheticPhoto(102, 300, 400, 'png'));
    fs.writeFileSync(
      path.join(folder, 'report.pdf'),
      Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n'),
    );
    fs.writeFileSync(path.join(folder, 'list.csv'), 'detainee_number,branch\n1234,215\n');
    const summary = await run([folder], {
      source: 'synthetic test source',
      custodian: 'a documenter',
      note: 'test',
    });
    expect(summary).toMatchObject({ status: 'finished', seen: 4, stored: 4, alreadyPresent: 0, refused: 0 });
    expect(summary.bytes).toBeGreaterThan(0);

    const repo = new EvidenceRepository(ctx.store.db);
    const photoBytes = fs.readFileSync(path.join(folder, 'photo.jpg'));
    const sha = (await ctx.blobs.put(photoBytes)).sha256;
    const photo = (await repo.findBySha256(sha))!;
    expect(photo).toMatchObject({
      mediaType: 'image/jpeg',
      sizeBytes: photoBytes.length,
      originalName: 'photo.jpg',
      width: 800,
      height: 600,
      decodable: true,
      decodeStatus: 'decoded',
      graphic: true,
      ingestRunId: summary.runId,
      createdBy: 'tester',
    });
    expect(photo.pdq).toMatch(/^[0-9a-f]{64}$/);
    expect(photo.pdqQuality).toBeGreaterThanOrEqual(50);
    expect((photo.metadata as { ifd0?: { Make?: string } }).ifd0?.Make).toBe('athar-test');
    for (const [view, format, width, height] of [
      [photo.thumbnailSha256!, 'jpeg', 320, 240],
      [photo.blurredSha256!, 'png', 48, 36],
    ] as const) {
      expect((await ctx.blobs.verify(view)).ok).toBe(true);
      const meta = await sharp(await readBlob(ctx, view)).metadata();
      expect(meta).toMatchObject({ format, width, height });
    }
    expect(photo.thumbnailSha256).not.toBe(photo.blurredSha256);

    const pdf = (await repo.findBySha256(
      (
        await ctx.blobs.put(fs.readFileSync(path.join(folder, 'report.pdf')))
      ).sha256,
    ))!;
    expect(pdf).toMatchObject({
      mediaType: 'application/pdf',
      decodeStatus: 'not_image',
      pdq: null,
      thumbnailSha256: null,
    });
    const csv = (await repo.findBySha256(
      (
        await ctx.blobs.put(fs.readFileSync(path.join(folder, 'list.csv')))
      ).sha256,
    ))!;
    expect(csv.mediaType).toBe('text/plain');

    const [location] = await repo.locations(photo.id);
    expect(location).toMatchObject({
      path: path.join(fs.realpathSync(folder), 'photo.jpg'),
      sizeBytes: photoBytes.length,
    });
    const custody = await new CustodyRepository(ctx.store.db).listForEvidence(photo.id);
    expect(custody).toHaveLength(1);
    expect(custody[0]).toMatchObject({ kind: 'ingested', actor: 'tester' });
    expect(custody[0]!.details).toMatchObject({
      run: summary.runId,
      athar_version: version,
      source_path: location!.path,
      custodian: 'a documenter',
      source: 'synthetic test source',
      sha256: sha,
    });
    const runRow = await new IngestRunRepository(ctx.store.db).get(summary.runId);
    expect(runRow).toMatchObject({ status: 'finished', actor: 'tester', atharVersion: version });
    expect(runRow!.counts).toMatchObject({ seen: 4, stored: 4 });
  });

  it('changes nothing when the same folder is ingested again', async () => {
    const folder = mkdirs(ctx.dir, 'again');
    for (let i = 0; i < 3; i++)
      fs.writeFileSync(path.join(folder, `p${i}.jpg`), await syntheticPhoto(200 + i));
    await run([folder]);
    const before = await countRows(ctx);
    const second = await run([folder]);
    expect(second).toMatchObject({ seen: 3, stored: 0, alreadyPresent: 3, refused: 0 });
    expect(await countRows(ctx)).toEqual(before);
  });

  it('records a known file found at a new path as a new location of the same item', async () => {
    const folder = mkdirs(ctx.dir, 'copies');
    const bytes = await syntheticPhoto(300);
    fs.writeFileSync(path.join(folder, 'a.jpg'), bytes);
    await run([path.join(folder, 'a.jpg')]);
    const before = await countRows(ctx);
    const other = mkdirs(ctx.dir, 'copies-elsewhere');
    fs.writeFileSync(path.join(other, 'renamed.jpg'), bytes);
    const summary = await run([other]);
    expect(summary).toMatchObject({ stored: 0, alreadyPresent: 1 });
    const after = await countRows(ctx);
    expect(after).toEqual({ ...before, locations: before.locations + 1, custody: before.custody + 1 });
    const item = (await new EvidenceRepository(ctx.store.db).findBySha256(
      (
        await ctx.blobs.put(bytes)
      ).sha256,
    ))!;
    expect(
      (await new EvidenceRepository(ctx.store.db).locations(item.id)).map((l) => path.basename(l.path)),
    ).toEqual(['a.jpg', 'renamed.jpg']);
    expect(item.originalName).toBe('a.jpg');
  });

  it('restores an original lost from the store and records the new place of its item', async () => {
    const bytes = await syntheticPhoto(310);
    const sha = createHash('sha256').update(bytes).digest('hex');
    const first = mkdirs(ctx.dir, 'lost-original');
    fs.writeFileSync(path.join(first, 'a.jpg'), bytes);
    await run([first]);
    // Lost out of band: the item is stored, its bytes no longer are, so they look new to the blob store.
    fs.rmSync(path.join(ctx.dir, 'blobs', 'sha256', sha.slice(0, 2), sha.slice(2, 4), sha));
    const second = mkdirs(ctx.dir, 'lost-original-again');
    fs.writeFileSync(path.join(second, 'b.jpg'), bytes);
    const summary = await run([second]);
    expect(summary).toMatchObject({ stored: 0, alreadyPresent: 1 });
    expect((await ctx.blobs.verify(sha)).ok).toBe(true);
    const repo = new EvidenceRepository(ctx.store.db);
    const item = (await repo.findBySha256(sha))!;
    expect((await repo.locations(item.id)).map((l) => path.basename(l.path))).toEqual(['a.jpg', 'b.jpg']);
    const events = await new CustodyRepository(ctx.store.db).listForEvidence(item.id);
    expect(events.map((e) => e.details?.already_present ?? false)).toEqual([false, true]);
  });

  it('stores two copies met in one run once, with both locations', async () => {
    const folder = mkdirs(ctx.dir, 'twins');
    const bytes = await syntheticPhoto(400);
    fs.writeFileSync(path.join(folder, 'one.jpg'), bytes);
    fs.writeFileSync(path.join(folder, 'two.jpg'), bytes);
    const summary = await run([folder], { concurrency: 4 });
    expect(summary).toMatchObject({ seen: 2, stored: 1, alreadyPresent: 1 });
    const item = (await new EvidenceRepository(ctx.store.db).findBySha256(
      (
        await ctx.blobs.put(bytes)
      ).sha256,
    ))!;
    expect(await new EvidenceRepository(ctx.store.db).locations(item.id)).toHaveLength(2);
    expect(await new CustodyRepository(ctx.store.db).count({ evidenceId: item.id })).toBe(2);
  });

  it('keeps broken files as evidence, refuses what cannot be stored, and says why', async () => {
    const root = mkdirs(ctx.dir, 'broken');
    const outside = mkdirs(ctx.dir, 'outside');
    fs.writeFileSync(path.join(outside, 'secret.jpg'), await syntheticPhoto(500));
    const photo = await syntheticPhoto(501, 400, 300);
    fs.writeFileSync(path.join(root, 'truncated.jpg'), photo.subarray(0, Math.floor(photo.length / 2)));
    fs.writeFileSync(path.join(root, 'empty.jpg'), Buffer.alloc(0));
    fs.writeFileSync(path.join(root, 'noise.jpg'), randomBytesOf(5000, 7));
    fs.writeFileSync(path.join(root, 'bomb.png'), decompressionBombPng());
    const oddName = Buffer.from([0x73, 0x75, 0x72, 0xe9, 0xff, 0x2d, 0xd8, 0x2e, 0x6a, 0x70, 0x67]); // "suré\xff-\xd8.jpg" in Latin-1
    const oddPath = writeFileNamed(root, oddName, await syntheticPhoto(502, 200, 150));
    fs.symlinkSync(path.join(outside, 'secret.jpg'), path.join(root, 'link-out.jpg'));
    fs.symlinkSync(path.join(root, 'truncated.jpg'), path.join(root, 'link-in.jpg'));
    fs.symlinkSync(outside, path.join(root, 'folder-out'));
    execFileSync('mkfifo', [path.join(root, 'pipe')]);

    const summary = await run([root]);
    expect(summary).toMatchObject({
      seen: 5,
      stored: 4,
      alreadyPresent: 0,
      undecodable: 2,
      tooLarge: 1,
      refused: 4,
      skipped: 1,
    });
    const reasons = Object.fromEntries(summary.problems.map((p) => [path.basename(p.path), p]));
    expect(reasons['empty.jpg']).toMatchObject({ outcome: 'refused', reason: 'empty file (0 bytes)' });
    expect(reasons['link-out.jpg']).toMatchObject({ outcome: 'refused' });
    expect(reasons['link-out.jpg']!.reason).toMatch(/outside the given folders/);
    expect(reasons['folder-out']!.reason).toMatch(/outside the given folders/);
    expect(reasons['link-in.jpg']).toMatchObject({ outcome: 'skipped' });
    expect(reasons.pipe).toMatchObject({ outcome: 'refused', reason: 'not a regular file (named pipe)' });
    expect(reasons['truncated.jpg']!.outcome).toBe('undecodable');
    expect(reasons['bomb.png']!.outcome).toBe('too_large');

    const repo = new EvidenceRepository(ctx.store.db);
    const byName = async (name: string) => {
      const row = await ctx.store.db
        .selectFrom('evidence_items')
        .select('id')
        .where('original_name', '=', name)
        .where('ingest_run_id', '=', summary.runId)
        .executeTakeFirstOrThrow();
      return (await repo.get(row.id))!;
    };
    const truncated = await byName('truncated.jpg');
    expect(truncated).toMatchObject({
      decodable: false,
      decodeStatus: 'undecodable',
      width: 400,
      height: 300,
      pdq: null,
    });
    expect(truncated.decodeError).toMatch(/premature end|truncated/i);
    expect((await ctx.blobs.verify(truncated.sha256)).ok).toBe(true);

    const noise = await byName('noise.jpg');
    expect(noise).toMatchObject({
      mediaType: 'application/octet-stream',
      decodable: false,
      decodeStatus: 'undecodable',
    });
    expect(noise.decodeError).toMatch(/named like an image/);

    const bomb = await byName('bomb.png');
    expect(bomb).toMatchObject({
      mediaType: 'image/png',
      decodeStatus: 'pixel_limit',
      width: 50_000,
      height: 50_000,
      thumbnailSha256: null,
      blurredSha256: null,
    });
    expect(await readBlob(ctx, bomb.sha256)).toEqual(fs.readFileSync(path.join(root, 'bomb.png')));

    const odd = await ctx.store.db
      .selectFrom('evidence_items')
      .select(['id', 'original_name_b64', 'original_name'])
      .where('ingest_run_id', '=', summary.runId)
      .where('original_name_b64', '=', oddName.toString('base64'))
      .executeTakeFirstOrThrow();
    expect(Buffer.from(odd.original_name_b64!, 'base64').equals(oddName)).toBe(true);
    expect(odd.original_name).toContain('\ufffd');
    const [oddLocation] = await repo.locations(odd.id);
    const expectedPath = Buffer.concat([Buffer.from(`${fs.realpathSync(root)}/`), oddName]);
    expect(Buffer.from(oddLocation!.pathB64, 'base64').equals(expectedPath)).toBe(true);
    expect(oddPath.subarray(-oddName.length).equals(oddName)).toBe(true);
    expect((await repo.get(odd.id))!.decodeStatus).toBe('decoded');

    // Nothing of what lies outside the root was read.
    const secretSha = (await ctx.blobs.put(fs.readFileSync(path.join(outside, 'secret.jpg')))).sha256;
    expect(await repo.findBySha256(secretSha)).toBeUndefined();
  });

  it('streams a file larger than the memory limit into the vault and decodes the stored copy', async () => {
    const folder = mkdirs(ctx.dir, 'large');
    const bytes = await syntheticPhoto(800, 900, 600);
    fs.writeFileSync(path.join(folder, 'large.jpg'), bytes);
    const summary = await run([folder], { inMemoryLimit: 10_000 });
    expect(summary).toMatchObject({ stored: 1, undecodable: 0, bytes: bytes.length });
    const sha = (await ctx.blobs.put(bytes)).sha256;
    const item = (await new EvidenceRepository(ctx.store.db).findBySha256(sha))!;
    expect(item).toMatchObject({ mediaType: 'image/jpeg', decodeStatus: 'decoded', width: 900, height: 600 });
    expect((item.metadata as { ifd0?: { Make?: string } }).ifd0?.Make).toBe('athar-test');
    const [fromBuffer] = await hashEvidenceFiles([path.join(folder, 'large.jpg')], decoder);
    expect(item.pdq).toBe(fromBuffer!.pdq);
  });

  it('describes each of many files read at once from its own bytes (read buffers are used again)', async () => {
    // More files than are in hand at once, of sizes around the pooled buffers' 1 MiB, photos among them: a
    // buffer handed on too early would give one file another's hash, bytes, metadata or PDQ.
    const folder = mkdirs(ctx.dir, 'many');
    const files: string[] = [];
    for (let i = 0; i < 24; i++) {
      const file = path.join(folder, `f-${i}.${i % 3 === 0 ? 'jpg' : 'bin'}`);
      const size = [1_000, 300_000, 1024 * 1024 - 2, 1024 * 1024 - 1, 1024 * 1024, 1_500_000][i % 6]!;
      fs.writeFileSync(file, i % 3 === 0 ? await syntheticPhoto(900 + i, 320, 240) : randomBytesOf(size, i));
      files.push(file);
    }
    const summary = await run([folder], { concurrency: 6 });
    expect(summary).toMatchObject({ seen: 24, stored: 24, refused: 0, undecodable: 0 });
    const repo = new EvidenceRepository(ctx.store.db);
    const hashed = await hashEvidenceFiles(files, decoder);
    for (const [i, file] of files.entries()) {
      const bytes = fs.readFileSync(file);
      const sha = createHash('sha256').update(bytes).digest('hex');
      const item = (await repo.findBySha256(sha))!;
      expect(item, file).toMatchObject({ sizeBytes: bytes.length, originalName: path.basename(file) });
      expect(item.pdq, file).toBe(hashed[i]!.pdq ?? null);
      const stored = Buffer.concat(await (await ctx.blobs.open(sha)).toArray());
      expect(stored.equals(bytes), file).toBe(true);
    }
  });

  it('groups a photo with its edits and keeps an unrelated photo apart', async () => {
    const folder = mkdirs(ctx.dir, 'near');
    const original = await syntheticPhoto(600, 1200, 900);
    fs.writeFileSync(path.join(folder, 'original.jpg'), original);
    fs.writeFileSync(
      path.join(folder, 'smaller.jpg'),
      await sharp(original).resize(600).jpeg({ quality: 60 }).toBuffer(),
    );
    fs.writeFileSync(
      path.join(folder, 'brighter.png'),
      await sharp(original).modulate({ brightness: 1.15 }).png().toBuffer(),
    );
    fs.writeFileSync(
      path.join(folder, 'cropped.jpg'),
      await sharp(original).extract({ left: 20, top: 15, width: 1160, height: 870 }).jpeg().toBuffer(),
    );
    fs.writeFileSync(path.join(folder, 'other.jpg'), await syntheticPhoto(601, 1200, 900));
    const summary = await run([folder]);
    expect(summary.stored).toBe(5);
    const rows = await ctx.store.db
      .selectFrom('evidence_items')
      .innerJoin('evidence_groups', 'evidence_groups.evidence_id', 'evidence_items.id')
      .select(['evidence_items.original_name as name', 'evidence_groups.group_id as groupId'])
      .where('evidence_items.ingest_run_id', '=', summary.runId)
      .execute();
    const group = Object.fromEntries(rows.map((r) => [r.name, r.groupId]));
    expect(group['smaller.jpg']).toBe(group['original.jpg']);
    expect(group['brighter.png']).toBe(group['original.jpg']);
    expect(group['cropped.jpg']).toBe(group['original.jpg']);
    expect(group['other.jpg']).not.toBe(group['original.jpg']);
  });

  it('stops taking files when aborted, and a second run stores the rest', async () => {
    const folder = mkdirs(ctx.dir, 'aborted');
    // More files than a run holds uncommitted (4 batches of 64): progress counts committed files, so the abort comes
    // with the first batch's commit; the files in hand still commit, and some are left for the second run.
    const total = 320;
    for (let i = 0; i < total; i++)
      fs.writeFileSync(path.join(folder, `p${i}.jpg`), await syntheticPhoto(700 + i, 32, 24));
    const controller = new AbortController();
    const first = await run([folder], {
      concurrency: 1,
      signal: controller.signal,
      onProgress: () => controller.abort(),
    });
    expect(first.status).toBe('interrupted');
    expect(first.stored).toBeGreaterThanOrEqual(1);
    expect(first.stored).toBeLessThan(total);
    expect((await new IngestRunRepository(ctx.store.db).get(first.runId))!.status).toBe('interrupted');
    const second = await run([folder]);
    expect(second).toMatchObject({
      status: 'finished',
      stored: total - first.stored,
      alreadyPresent: first.stored,
    });
  });

  it('reports progress in committed files: never ahead of the rows stored (issue 21)', async () => {
    const folder = mkdirs(ctx.dir, 'progress');
    for (let i = 0; i < 12; i++)
      fs.writeFileSync(path.join(folder, `q${i}.jpg`), await syntheticPhoto(900 + i, 160, 120));
    const items = () =>
      ctx.store.db
        .selectFrom('evidence_items')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
        .then((r) => Number(r.n));
    const base = await items();
    const seen: Promise<[number, number]>[] = [];
    await run([folder], {
      concurrency: 8,
      onProgress: (p) => {
        seen.push(items().then((n) => [p.files, n - base]));
      },
    });
    const pairs = await Promise.all(seen);
    expect(pairs.length).toBe(12);
    for (const [files, stored] of pairs) expect(stored).toBeGreaterThanOrEqual(files);
  });

  it('marks a run left running by a dead process as interrupted', async () => {
    const runs = new IngestRunRepository(ctx.store.db);
    const os = await import('node:os');
    await runs.create({
      id: '00000000-0000-7000-8000-000000000001',
      startedAt: new Date().toISOString(),
      actor: 'tester',
      custodian: null,
      sourceId: null,
      note: null,
      roots: [],
      atharVersion: version,
      host: os.hostname(),
      pid: 2 ** 22 + 12345,
    });
    await run([mkdirs(ctx.dir, 'nothing')]);
    expect((await runs.get('00000000-0000-7000-8000-000000000001'))!.status).toBe('interrupted');
  });

  it('refuses a path that does not exist before starting', async () => {
    await expect(run([path.join(ctx.dir, 'missing')])).rejects.toThrow(/missing: does not exist/);
  });
});

async function readBlob(ctx: AppContext, sha256: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await ctx.blobs.open(sha256)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
