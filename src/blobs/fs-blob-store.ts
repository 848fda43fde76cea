import { createHash, randomBytes, webcrypto } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  BlobIntegrityError,
  BlobNotFoundError,
  type BlobStore,
  isSha256Hex,
  type PutResult,
  type StagedBlob,
  type VerifyResult,
} from './blob-store.js';
import { Flusher } from './flusher.js';

/**
 * Flushes at once, each on a thread of the flusher's (flusher.ts) rather than libuv's, which image decoding
 * shares: the filesystem's journal commits concurrent flushes together (8 at once ingested photos 5–10% faster
 * than 2). One flusher serves every store of the process; its threads do not keep the process alive when idle.
 */
const flushConcurrency = 8;
const flusher = new Flusher(flushConcurrency);
/**
 * Contents at least this large are hashed off the main thread. Below it, hashing here (about 0.2 ms for a
 * 400 KiB photo) costs less than the wait for a turn in libuv's pool behind the decodes queued there.
 */
const offThreadHashBytes = 1024 * 1024;

/** A staged blob of this store: its temp file, still open for the flush, or nothing when the content existed. */
class FsStagedBlob implements StagedBlob {
  state: 'staged' | 'persisted' | 'discarded';
  constructor(
    readonly store: FsBlobStore,
    readonly sha256: string,
    readonly size: number,
    readonly tmp: string | null,
    /** Open until the flush; null once closed. */
    public fd: number | null,
  ) {
    this.state = tmp ? 'staged' : 'persisted';
  }
  get existed(): boolean {
    return this.tmp === null;
  }
}

/**
 * Blobs as files: `<root>/sha256/ab/cd/<hex>`. A put streams into `<root>/tmp/`, hashing as it goes, fsyncs the
 * file, renames it into place and fsyncs the folder, so a crash leaves either the whole blob or nothing there
 * (at worst a stray temp file, swept on the next start). Staged blobs wait in `tmp/` until `persist` does the
 * same for all of them at once: every file flushed, renamed, and each folder flushed once.
 */
export class FsBlobStore implements BlobStore {
  private readonly tmpDir: string;
  readonly location: string;
  /** Blob folders known to exist (made by this store), so that placing a blob rarely needs a mkdir. */
  private readonly knownDirs = new Set<string>();

  constructor(private readonly root: string) {
    this.tmpDir = path.join(root, 'tmp');
    this.location = root;
  }

  /** Makes the folders and removes temp files older than a day (left by crashes). */
  async init(): Promise<void> {
    await fsp.mkdir(path.join(this.root, 'sha256'), { recursive: true });
    await fsp.mkdir(this.tmpDir, { recursive: true });
    const dayAgo = Date.now() - 24 * 3600 * 1000;
    for (const name of await fsp.readdir(this.tmpDir)) {
      const file = path.join(this.tmpDir, name);
      const stat = await fsp.stat(file).catch(() => undefined);
      if (stat && stat.mtimeMs < dayAgo) await fsp.rm(file, { force: true });
    }
  }

  pathOf(sha256: string): string {
    if (!isSha256Hex(sha256)) throw new Error(`not a SHA-256 hex digest: ${JSON.stringify(sha256)}`);
    return path.join(this.root, 'sha256', sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  }

  async put(
    content: Readable | Buffer | Uint8Array,
    options: { expectedSha256?: string } = {},
  ): Promise<PutResult> {
    if (content instanceof Uint8Array) {
      const sha256 = createHash('sha256').update(content).digest('hex');
      if (options.expectedSha256 && options.expectedSha256 !== sha256) {
        throw new BlobIntegrityError(options.expectedSha256, sha256);
      }
      if (await this.has(sha256)) return { sha256, size: content.byteLength, existed: true };
      return this.writeAndPlace(sha256, content.byteLength, async (handle) => {
        await handle.writeFile(content);
      });
    }
    // Stream: write to a temp file while hashing; only then is the name known.
    const tmp = path.join(this.tmpDir, `${Date.now()}-${randomBytes(8).toString('hex')}`);
    const handle = await fsp.open(tmp, 'wx', 0o640);
    const hash = createHash('sha256');
    let size = 0;
    try {
      for await (const chunk of content) {
        const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
        hash.update(buf);
        size += buf.byteLength;
        let offset = 0;
        while (offset < buf.byteLength) {
          const { bytesWritten } = await handle.write(buf, offset, buf.byteLength - offset);
          offset += bytesWritten;
        }
      }
      await fsyncFd(handle.fd);
    } catch (error) {
      await handle.close().catch(() => {});
      await fsp.rm(tmp, { force: true });
      throw error;
    }
    await handle.close();
    const sha256 = hash.digest('hex');
    if (options.expectedSha256 && options.expectedSha256 !== sha256) {
      await fsp.rm(tmp, { force: true });
      throw new BlobIntegrityError(options.expectedSha256, sha256);
    }
    if (await this.has(sha256)) {
      await fsp.rm(tmp, { force: true });
      return { sha256, size, existed: true };
    }
    await this.place(tmp, sha256);
    return { sha256, size, existed: false };
  }

  // Staging and persisting make the calls that do not wait for the disk (open, write into the page cache, close,
  // rename) synchronously: an ingest stages three blobs per photo, and a trip through libuv's thread pool for
  // each call cost more than the calls themselves. The flushes, which wait for the disk, stay asynchronous.

  async stage(content: Buffer | Uint8Array): Promise<StagedBlob> {
    const sha256 = await sha256Of(content);
    if (fs.existsSync(this.pathOf(sha256)))
      return new FsStagedBlob(this, sha256, content.byteLength, null, null);
    const tmp = this.tmpName();
    // Read-only from the start (the open descriptor may still write): nothing in athar rewrites evidence.
    const fd = fs.openSync(tmp, 'wx', 0o440);
    try {
      let offset = 0;
      while (offset < content.byteLength) offset += fs.writeSync(fd, content, offset);
    } catch (error) {
      fs.closeSync(fd);
      fs.rmSync(tmp, { force: true });
      throw error;
    }
    return new FsStagedBlob(this, sha256, content.byteLength, tmp, fd);
  }

  async persist(blobs: readonly StagedBlob[]): Promise<void> {
    const placing = new Map<string, FsStagedBlob>();
    const duplicates: FsStagedBlob[] = [];
    for (const blob of blobs) {
      const staged = this.own(blob);
      if (staged.state === 'discarded') throw new Error(`blob ${staged.sha256} was discarded, not persisted`);
      if (staged.state !== 'staged') continue;
      if (placing.has(staged.sha256)) duplicates.push(staged);
      else placing.set(staged.sha256, staged);
    }
    await this.discard(duplicates);
    const files = [...placing.values()];
    const open = new Set(files);
    try {
      await flusher.fsyncAll(files.map((b) => b.fd as number));
      const dirs = new Set<string>();
      for (const b of files) {
        fs.closeSync(b.fd as number);
        b.fd = null;
        open.delete(b);
        const target = this.pathOf(b.sha256);
        const dir = path.dirname(target);
        if (!this.knownDirs.has(dir)) {
          for (const parent of foldersChangedBy(dir, fs.mkdirSync(dir, { recursive: true })))
            dirs.add(parent);
          this.knownDirs.add(dir);
        }
        fs.renameSync(b.tmp as string, target);
        dirs.add(dir);
      }
      const dirFds: number[] = [];
      try {
        for (const dir of dirs) dirFds.push(fs.openSync(dir, fs.constants.O_RDONLY));
        await flusher.fsyncAll(dirFds);
      } finally {
        for (const fd of dirFds) fs.closeSync(fd);
      }
    } catch (error) {
      // Closed here and forgotten, so that a later discard cannot close a number the system has reused.
      for (const b of open) {
        fs.close(b.fd as number, () => {});
        b.fd = null;
      }
      throw error;
    }
    for (const b of files) b.state = 'persisted';
    for (const b of duplicates) b.state = 'persisted';
  }

  async discard(blobs: readonly StagedBlob[]): Promise<void> {
    for (const blob of blobs) {
      const staged = this.own(blob);
      if (staged.state !== 'staged') continue;
      staged.state = 'discarded';
      if (staged.fd !== null) fs.closeSync(staged.fd);
      staged.fd = null;
      fs.rmSync(staged.tmp as string, { force: true });
    }
  }

  private own(blob: StagedBlob): FsStagedBlob {
    if (!(blob instanceof FsStagedBlob) || blob.store !== this) {
      throw new Error(`blob ${blob.sha256} was not staged by this store`);
    }
    return blob;
  }

  private tmpName(): string {
    return path.join(this.tmpDir, `${Date.now()}-${randomBytes(8).toString('hex')}`);
  }

  private async writeAndPlace(
    sha256: string,
    size: number,
    write: (handle: fsp.FileHandle) => Promise<void>,
  ): Promise<PutResult> {
    const tmp = path.join(this.tmpDir, `${Date.now()}-${randomBytes(8).toString('hex')}`);
    const handle = await fsp.open(tmp, 'wx', 0o640);
    try {
      await write(handle);
      await fsyncFd(handle.fd);
    } catch (error) {
      await handle.close().catch(() => {});
      await fsp.rm(tmp, { force: true });
      throw error;
    }
    await handle.close();
    await this.place(tmp, sha256);
    return { sha256, size, existed: false };
  }

  private async place(tmp: string, sha256: string): Promise<void> {
    const target = this.pathOf(sha256);
    const dir = path.dirname(target);
    const changed = foldersChangedBy(dir, await fsp.mkdir(dir, { recursive: true }));
    // Blobs are read-only once placed: nothing in athar rewrites evidence.
    await fsp.chmod(tmp, 0o440);
    await fsp.rename(tmp, target);
    for (const folder of [dir, ...changed]) await fsyncDir(folder);
  }

  async has(sha256: string): Promise<boolean> {
    try {
      await fsp.access(this.pathOf(sha256));
      return true;
    } catch {
      return false;
    }
  }

  async size(sha256: string): Promise<number | undefined> {
    const stat = await fsp.stat(this.pathOf(sha256)).catch(() => undefined);
    return stat?.size;
  }

  async open(sha256: string): Promise<Readable> {
    const file = this.pathOf(sha256);
    const handle = await fsp.open(file, 'r').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') throw new BlobNotFoundError(sha256);
      throw error;
    });
    return handle.createReadStream();
  }

  async verify(sha256: string): Promise<VerifyResult> {
    let stream: Readable;
    try {
      stream = await this.open(sha256);
    } catch (error) {
      if (error instanceof BlobNotFoundError) return { sha256, ok: false, found: 'missing' };
      throw error;
    }
    const hash = createHash('sha256');
    let size = 0;
    for await (const chunk of stream) {
      hash.update(chunk as Buffer);
      size += (chunk as Buffer).byteLength;
    }
    const found = hash.digest('hex');
    return found === sha256 ? { sha256, ok: true, size } : { sha256, ok: false, found, size };
  }

  async *list(): AsyncIterable<string> {
    const base = path.join(this.root, 'sha256');
    const level1 = await fsp.readdir(base).catch(() => [] as string[]);
    for (const a of level1.sort()) {
      const level2 = await fsp.readdir(path.join(base, a)).catch(() => [] as string[]);
      for (const b of level2.sort()) {
        const names = await fsp.readdir(path.join(base, a, b)).catch(() => [] as string[]);
        for (const name of names.sort()) if (isSha256Hex(name)) yield name;
      }
    }
  }
}

/**
 * The folders whose entries a recursive mkdir of `dir` changed, given the first folder it created (if any): the
 * parent of each folder it made. They are flushed too, or a new folder could vanish with the blob in it.
 */
function foldersChangedBy(dir: string, firstCreated: string | undefined): string[] {
  if (!firstCreated) return [];
  const changed = [path.dirname(firstCreated)];
  for (let folder = dir; folder !== firstCreated && folder !== path.dirname(folder); ) {
    folder = path.dirname(folder);
    changed.push(folder);
  }
  return changed.filter((f) => f !== dir);
}

async function fsyncDir(dir: string): Promise<void> {
  const handle = await fsp.open(dir, fs.constants.O_RDONLY);
  try {
    await fsyncFd(handle.fd);
  } finally {
    await handle.close();
  }
}

function fsyncFd(fd: number): Promise<void> {
  return flusher.fsync(fd);
}

/** Reads a whole stream into memory (tests and small views only). */
export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * SHA-256 hex of bytes in memory. Large contents are hashed by WebCrypto, which runs on libuv's threads: hashing a
 * 30 MB scan on the main thread would hold up everything else the process does for tens of milliseconds.
 */
async function sha256Of(content: Buffer | Uint8Array): Promise<string> {
  if (content.byteLength < offThreadHashBytes) return createHash('sha256').update(content).digest('hex');
  return Buffer.from(await webcrypto.subtle.digest('SHA-256', content)).toString('hex');
}
