import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import yauzl from 'yauzl';
import yazl from 'yazl';
import type { BagReader, BagSink } from '../../exchange/bag-io.js';

/**
 * The two places a bag lives: a folder, or a zip file (RFC 8493 §4.2: one top-level folder inside, named after the
 * file). Everything is written owner-only (0700 folders, 0600 files): a court bundle holds originals.
 */

const dirMode = 0o700;
const fileMode = 0o600;
const readChunk = 1 << 20;

/** A target that already holds something: a bag is only ever made in an empty place. */
export class BagPlaceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BagPlaceError';
  }
}

export function isZipPath(target: string): boolean {
  return target.toLowerCase().endsWith('.zip');
}

/** Opens a sink for `target`: a `.zip` file, else a folder (new, or empty). */
export async function openBagSink(target: string): Promise<BagSink> {
  return isZipPath(target) ? ZipBagSink.create(target) : DirBagSink.create(target);
}

export async function openBagReader(source: string): Promise<BagReader> {
  const stat = await fsp.stat(source).catch(() => undefined);
  if (!stat) throw new BagPlaceError(`${source}: no such file or folder`);
  if (stat.isDirectory()) return new DirBagReader(source);
  return ZipBagReader.open(source);
}

function writeAll(fd: number, chunk: Uint8Array): void {
  let offset = 0;
  while (offset < chunk.byteLength) offset += fs.writeSync(fd, chunk, offset);
}

/**
 * A file's bytes in large chunks, read synchronously: verifying a bag is reading and hashing, and on a busy
 * machine each read's trip through libuv's pool waited longer than the read took. Each chunk is a fresh buffer
 * (callers may keep them).
 */
export function* readChunks(file: string, chunkSize = 4 << 20): Generator<Buffer> {
  const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  try {
    const size = fs.fstatSync(fd).size;
    let left = size;
    while (left > 0) {
      const buffer = Buffer.allocUnsafe(Math.min(chunkSize, left));
      const n = fs.readSync(fd, buffer, 0, buffer.length, null);
      if (n === 0) break;
      left -= n;
      yield n === buffer.length ? buffer : buffer.subarray(0, n);
    }
  } finally {
    fs.closeSync(fd);
  }
}

async function* asAsync(chunks: Iterable<Buffer>): AsyncGenerator<Buffer> {
  yield* chunks;
}

function toBuffer(chunk: Uint8Array): Buffer {
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

export class DirBagSink implements BagSink {
  private readonly madeDirs = new Set<string>();
  private readonly syncs: Promise<void>[] = [];

  private constructor(
    readonly location: string,
    private readonly created: boolean,
  ) {}

  static async create(dir: string): Promise<DirBagSink> {
    const stat = await fsp.stat(dir).catch(() => undefined);
    if (stat && !stat.isDirectory()) throw new BagPlaceError(`${dir} exists and is not a folder`);
    if (stat && (await fsp.readdir(dir)).length > 0)
      throw new BagPlaceError(`${dir} is not empty: a bag is made in an empty or new folder`);
    if (!stat) await fsp.mkdir(dir, { recursive: true, mode: dirMode });
    return new DirBagSink(path.resolve(dir), !stat);
  }

  async write(file: string, content: AsyncIterable<Uint8Array> | Uint8Array): Promise<void> {
    const target = path.join(this.location, file);
    const dir = path.dirname(target);
    if (!this.madeDirs.has(dir)) {
      await fsp.mkdir(dir, { recursive: true, mode: dirMode });
      this.madeDirs.add(dir);
    }
    // Writes into the page cache are synchronous: a trip through libuv's pool per chunk cost more than the copy
    // (`athar bundle` is a batch command; nothing else waits on its event loop). The flush, which waits for the
    // disk, runs on the pool while the next file is written; flush() waits for them all before the declaration.
    const fd = fs.openSync(target, 'wx', fileMode);
    try {
      if (content instanceof Uint8Array) writeAll(fd, content);
      else for await (const chunk of content) writeAll(fd, chunk);
    } catch (error) {
      fs.closeSync(fd);
      throw error;
    }
    this.syncs.push(
      new Promise<void>((resolve, reject) =>
        fs.fdatasync(fd, (error) => fs.close(fd, () => (error ? reject(error) : resolve()))),
      ),
    );
  }

  async flush(): Promise<void> {
    await Promise.all(this.syncs.splice(0));
    for (const dir of [...this.madeDirs, this.location]) {
      const handle = await fsp.open(dir, 'r');
      await handle.sync().finally(() => handle.close());
    }
  }

  async close(): Promise<void> {
    await this.flush();
  }

  async abort(): Promise<void> {
    await Promise.allSettled(this.syncs.splice(0));
    if (this.created) await fsp.rm(this.location, { recursive: true, force: true });
    else
      for (const name of await fsp.readdir(this.location))
        await fsp.rm(path.join(this.location, name), { recursive: true, force: true });
  }
}

/** Photos and other originals are stored as they are; the text files are deflated. */
function compressible(file: string): boolean {
  return !file.startsWith('data/originals/');
}

export class ZipBagSink implements BagSink {
  private readonly zip = new yazl.ZipFile();
  private readonly partial: string;
  private readonly done: Promise<void>;
  private readonly root: string;
  private failure: Error | undefined;

  private constructor(readonly location: string) {
    this.partial = `${location}.partial`;
    this.root = path.basename(location).replace(/\.zip$/i, '');
    const out = fs.createWriteStream(this.partial, { flags: 'wx', mode: fileMode, highWaterMark: readChunk });
    this.done = new Promise<void>((resolve, reject) => {
      out.on('close', resolve);
      out.on('error', (error) => {
        this.failure = error;
        reject(error);
      });
    });
    this.done.catch(() => {});
    (this.zip.outputStream as Readable).pipe(out);
  }

  static async create(file: string): Promise<ZipBagSink> {
    const target = path.resolve(file);
    if (fs.existsSync(target)) throw new BagPlaceError(`${file} exists already: a bag is never written over`);
    if (fs.existsSync(`${target}.partial`))
      throw new BagPlaceError(`${file}.partial exists: remove what an earlier build left`);
    await fsp.mkdir(path.dirname(target), { recursive: true, mode: dirMode });
    return new ZipBagSink(target);
  }

  async write(file: string, content: AsyncIterable<Uint8Array> | Uint8Array): Promise<void> {
    if (this.failure) throw this.failure;
    const name = `${this.root}/${file}`;
    const options = { compress: compressible(file), mtime: new Date(), mode: 0o100600 };
    if (content instanceof Uint8Array) {
      this.zip.addBuffer(toBuffer(content), name, options);
      return;
    }
    const stream = Readable.from(content, { objectMode: false, highWaterMark: readChunk });
    const ended = new Promise<void>((resolve, reject) => {
      stream.on('end', resolve);
      stream.on('error', reject);
    });
    this.zip.addReadStream(stream, name, options);
    await ended;
  }

  async flush(): Promise<void> {
    if (this.failure) throw this.failure;
  }

  /** The central directory, a flush, then the file's own name: only a finished zip ever has it. */
  async close(): Promise<void> {
    this.zip.end();
    await this.done;
    const handle = await fsp.open(this.partial, 'r');
    await handle.sync().finally(() => handle.close());
    await fsp.rename(this.partial, this.location);
    const dir = await fsp.open(path.dirname(this.location), 'r');
    await dir.sync().finally(() => dir.close());
  }

  async abort(): Promise<void> {
    (this.zip.outputStream as Readable).unpipe();
    await fsp.rm(this.partial, { force: true });
  }
}

export class DirBagReader implements BagReader {
  readonly location: string;
  constructor(dir: string) {
    this.location = path.resolve(dir);
  }

  async list(): Promise<string[]> {
    const out: string[] = [];
    const walk = async (rel: string) => {
      for (const entry of await fsp.readdir(path.join(this.location, rel), { withFileTypes: true })) {
        const child = rel ? `${rel}/${entry.name}` : entry.name;
        if (entry.isDirectory()) await walk(child);
        else out.push(child);
      }
    };
    await walk('');
    return out;
  }

  async open(file: string): Promise<AsyncIterable<Uint8Array>> {
    const full = path.join(this.location, file);
    // Checked now, so that a missing file rejects here as the interface says.
    fs.accessSync(full, fs.constants.R_OK);
    return asAsync(readChunks(full));
  }

  async close(): Promise<void> {}
}

/** A zipped bag: entries under one top-level folder (the bag's base), which is stripped from the paths. */
export class ZipBagReader implements BagReader {
  private constructor(
    readonly location: string,
    private readonly zip: yauzl.ZipFile,
    private readonly entries: Map<string, yauzl.Entry>,
  ) {}

  static async open(file: string): Promise<ZipBagReader> {
    const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
      yauzl.open(
        file,
        { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false },
        (error, z) =>
          error
            ? reject(new BagPlaceError(`${file} is not a readable zip file: ${error.message}`))
            : resolve(z as yauzl.ZipFile),
      ),
    );
    const all: yauzl.Entry[] = await new Promise((resolve, reject) => {
      const found: yauzl.Entry[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        found.push(entry);
        zip.readEntry();
      });
      zip.on('end', () => resolve(found));
      zip.on('error', reject);
      zip.readEntry();
    });
    const names = all.map((e) => e.fileName).filter((n) => !n.endsWith('/'));
    const tops = new Set(names.map((n) => n.split('/')[0]));
    const prefix = tops.size === 1 && names.every((n) => n.includes('/')) ? `${[...tops][0]}/` : '';
    const entries = new Map<string, yauzl.Entry>();
    for (const entry of all) {
      if (entry.fileName.endsWith('/')) continue;
      entries.set(entry.fileName.slice(prefix.length), entry);
    }
    return new ZipBagReader(path.resolve(file), zip, entries);
  }

  async list(): Promise<string[]> {
    return [...this.entries.keys()];
  }

  async open(file: string): Promise<AsyncIterable<Uint8Array>> {
    const entry = this.entries.get(file);
    if (!entry) throw new Error(`${file} is not in ${this.location}`);
    return new Promise((resolve, reject) =>
      this.zip.openReadStream(entry, (error, stream) =>
        error ? reject(error) : resolve(stream as Readable),
      ),
    );
  }

  async close(): Promise<void> {
    this.zip.close();
  }
}
