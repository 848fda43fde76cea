import { createHash, randomBytes } from 'node:crypto';
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
  type VerifyResult,
} from './blob-store.js';

/**
 * Blobs as files: `<root>/sha256/ab/cd/<hex>`. A put streams into `<root>/tmp/`, hashing as it goes, fsyncs the
 * file, renames it into place and fsyncs the folder, so a crash leaves either the whole blob or nothing there
 * (at worst a stray temp file, swept on the next start).
 */
export class FsBlobStore implements BlobStore {
  private readonly tmpDir: string;
  readonly location: string;

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
      await handle.sync();
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

  private async writeAndPlace(
    sha256: string,
    size: number,
    write: (handle: fsp.FileHandle) => Promise<void>,
  ): Promise<PutResult> {
    const tmp = path.join(this.tmpDir, `${Date.now()}-${randomBytes(8).toString('hex')}`);
    const handle = await fsp.open(tmp, 'wx', 0o640);
    try {
      await write(handle);
      await handle.sync();
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
    await fsp.mkdir(dir, { recursive: true });
    // Blobs are read-only once placed: nothing in athar rewrites evidence.
    await fsp.chmod(tmp, 0o440);
    await fsp.rename(tmp, target);
    await fsyncDir(dir);
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

async function fsyncDir(dir: string): Promise<void> {
  const handle = await fsp.open(dir, fs.constants.O_RDONLY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Reads a whole stream into memory (tests and small views only). */
export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
