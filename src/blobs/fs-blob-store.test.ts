import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { beforeEach, describe, expect, it } from 'vitest';
import { BlobIntegrityError, BlobNotFoundError } from './blob-store.js';
import { FsBlobStore, readAll } from './fs-blob-store.js';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('filesystem blob store', () => {
  let root: string;
  let blobs: FsBlobStore;
  beforeEach(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-blobs-'));
    blobs = new FsBlobStore(root);
    await blobs.init();
  });

  it('stores a stream under sha256/ab/cd/<hex> and reads it back byte for byte', async () => {
    const content = Buffer.from('synthetic evidence bytes \u0000\u00ff', 'latin1');
    const result = await blobs.put(Readable.from([content.subarray(0, 5), content.subarray(5)]));
    const hex = sha(content);
    expect(result).toEqual({ sha256: hex, size: content.length, existed: false });
    expect(fs.existsSync(path.join(root, 'sha256', hex.slice(0, 2), hex.slice(2, 4), hex))).toBe(true);
    expect(await readAll(await blobs.open(hex))).toEqual(content);
    expect(await blobs.size(hex)).toBe(content.length);
  });

  it('deduplicates by content and leaves no temp files behind', async () => {
    const content = Buffer.alloc(300_000, 7);
    await blobs.put(content);
    const again = await blobs.put(Readable.from([content]));
    expect(again.existed).toBe(true);
    expect(fs.readdirSync(path.join(root, 'tmp'))).toEqual([]);
    const listed: string[] = [];
    for await (const h of blobs.list()) listed.push(h);
    expect(listed).toEqual([sha(content)]);
  });

  it('refuses content that does not match the expected hash, storing nothing', async () => {
    const error = await blobs
      .put(Readable.from([Buffer.from('abc')]), { expectedSha256: 'f'.repeat(64) })
      .catch((e) => e);
    expect(error).toBeInstanceOf(BlobIntegrityError);
    expect(await blobs.has(sha(Buffer.from('abc')))).toBe(false);
    expect(fs.readdirSync(path.join(root, 'tmp'))).toEqual([]);
  });

  it('verifies stored blobs and names what it found when a byte was flipped', async () => {
    const content = Buffer.from('original bytes');
    const { sha256 } = await blobs.put(content);
    expect((await blobs.verify(sha256)).ok).toBe(true);
    const file = blobs.pathOf(sha256);
    fs.chmodSync(file, 0o640);
    const tampered = Buffer.from(content);
    tampered[0] = (tampered[0] as number) ^ 1;
    fs.writeFileSync(file, tampered);
    expect(await blobs.verify(sha256)).toEqual({
      sha256,
      ok: false,
      found: sha(tampered),
      size: content.length,
    });
  });

  it('reports a missing blob', async () => {
    const missing = 'a'.repeat(64);
    expect(await blobs.verify(missing)).toEqual({ sha256: missing, ok: false, found: 'missing' });
    await expect(blobs.open(missing)).rejects.toBeInstanceOf(BlobNotFoundError);
  });

  it('rejects names that are not SHA-256 digests (no path tricks)', () => {
    expect(() => blobs.pathOf('../../etc/passwd')).toThrow(/not a SHA-256/);
  });

  it('keeps staged blobs out of their names until persisted, then places each once', async () => {
    const a = Buffer.from('staged evidence a');
    const b = Buffer.alloc(200_000, 3);
    const staged = [await blobs.stage(a), await blobs.stage(b), await blobs.stage(a)];
    expect(staged.map((s) => s.sha256)).toEqual([sha(a), sha(b), sha(a)]);
    expect(staged.map((s) => s.existed)).toEqual([false, false, false]);
    // What a crash at this point would leave: temp files only, nothing under a blob's name.
    expect(await blobs.has(sha(a))).toBe(false);
    expect(fs.readdirSync(path.join(root, 'tmp'))).toHaveLength(3);

    await blobs.persist(staged);
    for (const content of [a, b]) {
      expect(await readAll(await blobs.open(sha(content)))).toEqual(content);
      expect(fs.statSync(blobs.pathOf(sha(content))).mode & 0o777).toBe(0o440);
    }
    expect(fs.readdirSync(path.join(root, 'tmp'))).toEqual([]);
    await blobs.persist(staged);
    const listed: string[] = [];
    for await (const h of blobs.list()) listed.push(h);
    expect(listed.sort()).toEqual([sha(a), sha(b)].sort());
  });

  it('writes nothing when staging content already stored', async () => {
    const content = Buffer.from('already here');
    await blobs.put(content);
    const staged = await blobs.stage(content);
    expect(staged).toMatchObject({ sha256: sha(content), size: content.length, existed: true });
    expect(fs.readdirSync(path.join(root, 'tmp'))).toEqual([]);
    await blobs.persist([staged]);
  });

  it('removes a discarded blob and refuses to persist it', async () => {
    const staged = await blobs.stage(Buffer.from('given up'));
    await blobs.discard([staged]);
    expect(fs.readdirSync(path.join(root, 'tmp'))).toEqual([]);
    await expect(blobs.persist([staged])).rejects.toThrow(/discarded/);
    expect(await blobs.has(staged.sha256)).toBe(false);
  });

  it('persists only blobs it staged', async () => {
    const otherRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-blobs-'));
    const other = new FsBlobStore(otherRoot);
    await other.init();
    const staged = await other.stage(Buffer.from('elsewhere'));
    await expect(blobs.persist([staged])).rejects.toThrow(/not staged by this store/);
    await other.discard([staged]);
    fs.rmSync(otherRoot, { recursive: true, force: true });
  });

  it('sweeps temp files left by a crash more than a day ago', async () => {
    const stale = path.join(root, 'tmp', 'stale');
    fs.writeFileSync(stale, 'half');
    const old = new Date(Date.now() - 2 * 24 * 3600 * 1000);
    fs.utimesSync(stale, old, old);
    await new FsBlobStore(root).init();
    expect(fs.existsSync(stale)).toBe(false);
  });
});
