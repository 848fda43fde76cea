import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import type { SignedIn } from '../../access/caller.js';
import { DomainError } from '../../domain/errors.js';
import { SharpImageDecoder } from '../../evidence/sharp-image-decoder.js';
import { newId, nowIso } from '../../ids.js';
import { EvidenceCatalogueRepository } from '../../store/repositories/evidence-catalogue.js';
import { type Upload, type UploadOutcome, UploadRepository } from '../../store/repositories/uploads.js';
import type { AuditService } from '../audit/audit.js';
import type { AppContext } from '../context.js';
import { ingest } from './ingest.js';

/** Folder segments a browser may send: no parent steps, no control characters, a bounded depth and length. */
export function stagedPath(sent: string): string {
  const segments = sent
    .normalize('NFC')
    .split(/[\\/]+/)
    .map((s) =>
      [...s]
        .filter((c) => c.charCodeAt(0) > 0x1f && c.charCodeAt(0) !== 0x7f)
        .join('')
        .trim(),
    )
    .filter((s) => s !== '' && s !== '.' && s !== '..');
  if (segments.length === 0) throw new DomainError('invalid', 'the file has no name', { field: 'path' });
  if (segments.length > 32 || segments.some((s) => Buffer.byteLength(s) > 255)) {
    throw new DomainError('invalid', 'the file’s folder path is too deep or a name too long', {
      field: 'path',
    });
  }
  return segments.join('/');
}

const zipName = /\.zip$/i;
/** Entries a zip may hold; more is refused rather than unpacked (a zip bomb of tiny files). */
const maxZipEntries = 100_000;
/** Uploads left in <data>/uploads this long (a closed browser) are removed at the next upload. */
const staleMs = 24 * 60 * 60 * 1000;

/**
 * Browser uploads for a documenter: files (or a zip, or a folder's files with their paths) are staged in a folder of
 * the data folder's own, then ingested by the same code as `athar ingest` (so the originals are stored byte for
 * byte, with custody events and log entries), then the staged copies are removed. Each file's outcome is kept.
 */
export class UploadService {
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly ctx: AppContext,
    private readonly audit: AuditService,
  ) {}

  private get repo(): UploadRepository {
    return new UploadRepository(this.ctx.store.db);
  }

  get maxBytes(): number {
    return this.ctx.config.uploads.maxBytes;
  }

  private folder(id: string): string {
    return path.join(this.ctx.config.uploads.dir, id);
  }

  private async owned(id: string, caller: SignedIn): Promise<Upload> {
    const upload = await this.repo.get(id);
    // Another user's upload reads as none: its file names are theirs.
    if (!upload || upload.createdBy !== caller.actor.userId)
      throw new DomainError('not_found', `no upload ${id}`);
    return upload;
  }

  async start(caller: SignedIn): Promise<{ id: string; maxBytes: number }> {
    await this.removeStale();
    const id = newId();
    await fsp.mkdir(path.join(this.folder(id), 'files'), { recursive: true, mode: 0o700 });
    await this.repo.create({ id, created_by: caller.actor.userId, created_at: nowIso(this.ctx.clock) });
    await this.audit.record(caller, { action: 'upload_started', subjectType: 'upload', subjectId: id });
    return { id, maxBytes: this.maxBytes };
  }

  /** Stages one file's bytes as they arrive; refused (and removed) when the upload would pass its limit. */
  async receive(
    id: string,
    sentPath: string,
    body: Readable,
    caller: SignedIn,
  ): Promise<{ path: string; bytes: number }> {
    const upload = await this.owned(id, caller);
    if (upload.status !== 'receiving')
      throw new DomainError('conflict', 'this upload is already being ingested');
    const relative = stagedPath(sentPath);
    const target = path.join(this.folder(id), 'files', ...relative.split('/'));
    await fsp.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    const room = this.maxBytes - upload.bytes;
    let bytes = 0;
    const limit = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        if (bytes > room) done(new DomainError('invalid', 'larger than the upload limit', { field: 'file' }));
        else done(null, chunk);
      },
    });
    try {
      // wx: a second file sent under the same path does not overwrite the first.
      await pipeline(body, limit, fs.createWriteStream(target, { flags: 'wx', mode: 0o600 }));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST')
        throw new DomainError('conflict', `${relative} was already sent in this upload`, { field: 'path' });
      await fsp.rm(target, { force: true });
      if (error instanceof DomainError) throw this.tooLarge();
      throw error;
    }
    if (!(await this.repo.addFile(id, bytes, this.maxBytes))) {
      await fsp.rm(target, { force: true });
      throw this.tooLarge();
    }
    return { path: relative, bytes };
  }

  private tooLarge(): DomainError {
    return new DomainError(
      'invalid',
      `the upload would be larger than its limit of ${this.maxBytes} bytes; send the rest as another upload`,
      { field: 'file' },
    );
  }

  /**
   * Starts the ingest of what was staged, in the background: zips are unpacked (within the limit), the folder is
   * ingested as `athar ingest` would, each file's outcome kept on the upload, the staged copies removed.
   */
  async ingest(
    id: string,
    input: { source?: string | null; note?: string | null },
    caller: SignedIn,
  ): Promise<Upload> {
    const upload = await this.owned(id, caller);
    if (upload.files === 0)
      throw new DomainError('invalid', 'send at least one file first', { field: 'file' });
    const sourceName = input.source?.trim() || null;
    const note = input.note?.trim() || null;
    if (!(await this.repo.startIngest(id, { sourceName, note }))) {
      throw new DomainError('conflict', 'this upload is already being ingested');
    }
    await this.audit.record(caller, {
      action: 'upload_ingested',
      subjectType: 'upload',
      subjectId: id,
      details: { files: upload.files, bytes: upload.bytes },
    });
    const job = this.run(id, { sourceName, note }, caller).finally(() => this.running.delete(job));
    this.running.add(job);
    return (await this.repo.get(id)) as Upload;
  }

  private async run(
    id: string,
    input: { sourceName: string | null; note: string | null },
    caller: SignedIn,
  ): Promise<void> {
    const root = path.join(this.folder(id), 'files');
    const repo = this.repo;
    try {
      const unpacked = await this.unpackZips(root);
      const runId = newId();
      const summary = await ingest(this.ctx, {
        paths: [root],
        actor: caller.actor.userId,
        source: input.sourceName,
        note: input.note ?? 'uploaded in the browser',
        decoder: new SharpImageDecoder(),
        runId,
        onPlan: () => void repo.setRun(id, runId),
      });
      await repo.setRun(id, runId);
      const outcomes = await this.outcomes(root, runId, summary.problems, unpacked);
      // Removed before the upload reads as finished: nothing staged outlives what follows it.
      await fsp.rm(this.folder(id), { recursive: true, force: true });
      await repo.finish(id, { status: 'finished', outcomes, failure: null, at: nowIso(this.ctx.clock) });
    } catch (error) {
      await fsp.rm(this.folder(id), { recursive: true, force: true }).catch(() => {});
      await repo
        .finish(id, {
          status: 'failed',
          outcomes: null,
          failure: error instanceof Error ? error.message : String(error),
          at: nowIso(this.ctx.clock),
        })
        .catch(() => {});
    }
  }

  /** Each staged file's outcome, by its path inside the upload. */
  private async outcomes(
    root: string,
    runId: string,
    problems: readonly { path: string; outcome: string; reason: string }[],
    unpacked: UploadOutcome[],
  ): Promise<UploadOutcome[]> {
    const inside = (p: string) => path.relative(root, p).split(path.sep).join('/');
    const byPath = new Map<string, UploadOutcome>();
    for (const place of await this.repo.runLocations(runId)) {
      const rel = inside(place.path);
      byPath.set(rel, {
        path: rel,
        outcome: place.storedByRun ? 'stored' : 'already_present',
        evidenceId: place.evidenceId,
      });
    }
    for (const p of problems) {
      const rel = inside(p.path);
      byPath.set(rel, { ...byPath.get(rel), path: rel, outcome: p.outcome, reason: p.reason });
    }
    return [...unpacked, ...[...byPath.values()].sort((a, b) => a.path.localeCompare(b.path))];
  }

  /** Unpacks every staged zip beside itself (its name without .zip as the folder) and removes the zip. */
  private async unpackZips(root: string): Promise<UploadOutcome[]> {
    const out: UploadOutcome[] = [];
    const zips = (await fsp.readdir(root, { recursive: true, withFileTypes: true }))
      .filter((e) => e.isFile() && zipName.test(e.name))
      .map((e) => path.join(e.parentPath, e.name));
    let room = this.maxBytes;
    for (const zip of zips) {
      const rel = path.relative(root, zip).split(path.sep).join('/');
      const into = zip.replace(zipName, '');
      try {
        const { files, bytes } = await unzipInto(zip, into, room);
        room -= bytes;
        out.push({ path: rel, outcome: 'unpacked', reason: `${files} files` });
      } catch (error) {
        await fsp.rm(into, { recursive: true, force: true });
        out.push({ path: rel, outcome: 'refused', reason: (error as Error).message });
      }
      await fsp.rm(zip, { force: true });
    }
    return out;
  }

  /** The upload with its progress: files its ingest run has recorded so far. */
  async get(id: string, caller: SignedIn): Promise<{ upload: Upload; found: number }> {
    const upload = await this.owned(id, caller);
    if (!upload.runId) return { upload, found: 0 };
    const found = await new EvidenceCatalogueRepository(this.ctx.store.db).locationsPerRun([upload.runId]);
    return { upload, found: found.get(upload.runId) ?? 0 };
  }

  async list(caller: SignedIn, limit = 20): Promise<Upload[]> {
    return this.repo.listBy(caller.actor.userId, limit);
  }

  /** Waits for the ingests this process runs (a closing server lets them finish). */
  async settle(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }

  private async removeStale(): Promise<void> {
    const dir = this.ctx.config.uploads.dir;
    const entries = await fsp.readdir(dir, { withFileTypes: true }).catch(() => []);
    const now = this.ctx.clock();
    for (const e of entries) {
      if (!e.isDirectory()) continue;
      const full = path.join(dir, e.name);
      const stat = await fsp.stat(full).catch(() => undefined);
      if (stat && now - stat.mtimeMs > staleMs) {
        const upload = await this.repo.get(e.name);
        if (upload?.status !== 'ingesting') await fsp.rm(full, { recursive: true, force: true });
      }
    }
  }
}

/**
 * Unpacks a zip into a folder: regular files only, each path cleaned as a browser's is (no parent steps, no
 * absolute paths), stopping once the unpacked bytes pass `room` or the entries pass the cap.
 */
export function unzipInto(
  zip: string,
  into: string,
  room: number,
): Promise<{ files: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    yauzl.open(
      zip,
      { lazyEntries: true, strictFileNames: false, validateEntrySizes: true },
      (error, file) => {
        if (error || !file) return reject(new Error(`not a readable zip: ${error?.message ?? 'unknown'}`));
        let files = 0;
        let bytes = 0;
        let entries = 0;
        const fail = (why: Error) => {
          file.close();
          reject(why);
        };
        file.on('error', fail);
        file.on('end', () => resolve({ files, bytes }));
        file.on('entry', (entry: yauzl.Entry) => {
          entries++;
          if (entries > maxZipEntries) return fail(new Error(`more than ${maxZipEntries} entries`));
          const isDirectory = entry.fileName.endsWith('/');
          // Unix mode in the high bits: anything but a regular file (a link, a device) is left out.
          const mode = (entry.externalFileAttributes >>> 16) & 0o170000;
          if (isDirectory || (mode !== 0 && mode !== 0o100000)) return file.readEntry();
          bytes += entry.uncompressedSize;
          if (bytes > room) return fail(new Error('larger than the upload limit once unpacked'));
          let relative: string;
          try {
            relative = stagedPath(entry.fileName);
          } catch {
            return file.readEntry();
          }
          const target = path.join(into, ...relative.split('/'));
          file.openReadStream(entry, (err, stream) => {
            if (err || !stream) return fail(err ?? new Error('unreadable entry'));
            fsp
              .mkdir(path.dirname(target), { recursive: true, mode: 0o700 })
              .then(() => pipeline(stream, fs.createWriteStream(target, { flags: 'wx', mode: 0o600 })))
              .then(() => {
                files++;
                file.readEntry();
              })
              .catch((e: Error) => fail(e));
          });
        });
        file.readEntry();
      },
    );
  });
}
