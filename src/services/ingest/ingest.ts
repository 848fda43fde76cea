import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { PassThrough, type Readable, Transform } from 'node:stream';
import exifr from 'exifr';
import { fileTypeFromBuffer } from 'file-type';
import type { StagedBlob } from '../../blobs/blob-store.js';
import { hammingDistance } from '../../evidence/hamming.js';
import type { ImageDecoder } from '../../evidence/image-decoder.js';
import {
  displayedSize,
  displayName,
  isImageType,
  mediaTypeOf,
  nameSuggestsImage,
  sanitizeMetadata,
  structuralDamage,
  withDamage,
} from '../../evidence/media.js';
import { chooseGroup, nearDuplicateDistance } from '../../evidence/near-duplicates.js';
import { type PdqHash, pdqFromHex, pdqOfPicture, pdqToHex } from '../../evidence/pdq.js';
import { PdqIndex } from '../../evidence/pdq-index.js';
import { encodePng } from '../../evidence/png.js';
import { blurredOf, thumbnailOf } from '../../evidence/views.js';
import { newId, nowIso } from '../../ids.js';
import type { CustodyEventInput } from '../../store/repositories/custody.js';
import { type EvidenceGroup, EvidenceRepository } from '../../store/repositories/evidence.js';
import { IngestRunRepository } from '../../store/repositories/ingest-runs.js';
import { SourceRepository } from '../../store/repositories/sources.js';
import type { EvidenceItemTable, EvidenceLocationTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import { version } from '../../version.js';
import type { AppContext } from '../context.js';
import { recordCustodyEvents } from '../evidence/custody.js';
import { baseName, describeFsError, type FoundFile, walkRoots } from './ingest-walk.js';

export interface IngestOptions {
  /** Files and folders to ingest. */
  paths: readonly string[];
  /** Who runs the ingest (recorded on every custody event). */
  actor: string;
  /** The source the files come from (made on first use). */
  source?: string | null;
  /** Who handed the material over, when not the actor. */
  custodian?: string | null;
  note?: string | null;
  decoder: ImageDecoder;
  /** Files processed at once (default: 4 per core). */
  concurrency?: number;
  /** Images with more pixels are stored without derived views (default 268,402,689, i.e. 16383²). */
  maxPixels?: number;
  /** Files up to this size are read into memory in one go, larger ones stream into the vault (default 32 MiB). */
  inMemoryLimit?: number;
  /** Called once the walk is done, with what will be read. */
  onPlan?: (plan: { files: number; bytes: number }) => void;
  /** Called after each file. */
  onProgress?: (progress: IngestProgress) => void;
  /** Aborting stops taking new files; those in hand are finished and committed. */
  signal?: AbortSignal;
  /** The run's id, when the caller must know it before the run ends (a browser upload follows its progress). */
  runId?: string;
}

export interface IngestProgress {
  files: number;
  /** Bytes of the files done so far, as sized by the walk. */
  bytes: number;
  totalFiles: number;
  totalBytes: number;
}

export type ProblemOutcome = 'refused' | 'skipped' | 'undecodable' | 'too_large';

export interface IngestProblem {
  path: string;
  pathB64: string;
  outcome: ProblemOutcome;
  reason: string;
}

export interface IngestSummary {
  runId: string;
  status: 'finished' | 'interrupted';
  /** Regular files found under the roots. */
  seen: number;
  /** New items: their bytes were not in the vault before. */
  stored: number;
  /** Files whose bytes were already in the vault (a new path for them is recorded). */
  alreadyPresent: number;
  /** Stored, but the image could not be decoded (flagged with the decoder's message). */
  undecodable: number;
  /** Stored, but over the pixel limit: no derived views. */
  tooLarge: number;
  /** Not stored: empty, unreadable, links out of the roots, special files. */
  refused: number;
  /** Not read because they are reachable another way (links inside the roots). */
  skipped: number;
  /** Bytes read. */
  bytes: number;
  seconds: number;
  filesPerSecond: number;
  bytesPerSecond: number;
  problems: IngestProblem[];
}

const defaultInMemoryLimit = 32 * 1024 * 1024;
/** How much of a streamed file is kept for type sniffing and metadata. */
const headBytes = 1024 * 1024;
const defaultMaxPixels = 268_402_689;
const viewQuality = 80;
const commitBatch = 64;
const commitDelayMs = 100;
/** Entries waiting to commit before files are taken more slowly. */
const maxPending = 4 * commitBatch;
const openFlags = fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK;

/**
 * `athar ingest`: walks the roots, and for each regular file reads its bytes once, storing them in the blob store
 * (durable before anything refers to them) and typing them from their magic bytes; images are decoded once,
 * shrunk on load, into pixels from which the PDQ hash and the two derived views are made. Rows (item, where it
 * was found, custody event, near-duplicate group) commit in small batches after the blobs they name are durable,
 * so a run killed at any point leaves whole items or none, and a second run picks up what is missing. Content
 * already in the vault is not stored again; a new path for it is recorded; a path already recorded is a no-op.
 */
export async function ingest(ctx: AppContext, options: IngestOptions): Promise<IngestSummary> {
  const started = performance.now();
  const walk = await walkRoots(options.paths);
  const host = os.hostname();
  const runs = new IngestRunRepository(ctx.store.db);
  await markDeadRuns(runs, host);

  const source = options.source
    ? await new SourceRepository(ctx.store.db).findOrCreate(options.source, 'other', options.actor)
    : undefined;
  const runId = options.runId ?? newId();
  await runs.create({
    id: runId,
    startedAt: nowIso(ctx.clock),
    actor: options.actor,
    custodian: options.custodian ?? null,
    sourceId: source?.id ?? null,
    note: options.note ?? null,
    roots: walk.roots.map((r) => ({ path: displayName(r), pathB64: r.toString('base64') })),
    atharVersion: version,
    host,
    pid: process.pid,
  });

  const problems: IngestProblem[] = walk.problems.map((p) => problem(p.path, p.outcome, p.reason));
  const summary: IngestSummary = {
    runId,
    status: 'finished',
    seen: walk.files.length,
    stored: 0,
    alreadyPresent: 0,
    undecodable: 0,
    tooLarge: 0,
    refused: walk.problems.filter((p) => p.outcome === 'refused').length,
    skipped: walk.problems.filter((p) => p.outcome === 'skipped').length,
    bytes: 0,
    seconds: 0,
    filesPerSecond: 0,
    bytesPerSecond: 0,
    problems,
  };
  const totalBytes = walk.files.reduce((sum, f) => sum + f.size, 0);
  options.onPlan?.({ files: walk.files.length, bytes: totalBytes });

  const committer = new Committer(ctx, await loadGroups(ctx.store.db), () => {
    // Bytes another run committed after this one found them new: counted as stored, they were already present.
    summary.stored--;
    summary.alreadyPresent++;
  });
  const custodyBase = {
    run: runId,
    athar_version: version,
    host,
    os_user: safeUserName(),
    custodian: options.custodian ?? null,
    source: options.source ?? null,
    note: options.note ?? null,
  };
  const job: FileJob = {
    ctx,
    options,
    runId,
    sourceId: source?.id ?? null,
    custodyBase,
    committer,
    repo: new EvidenceRepository(ctx.store.db),
    inFlight: new Map(),
    maxPixels: options.maxPixels ?? defaultMaxPixels,
    inMemoryLimit: options.inMemoryLimit ?? defaultInMemoryLimit,
    readBuffers: new ReadBuffers(),
  };

  let next = 0;
  let done = 0;
  let handled = 0;
  let plannedDone = 0;
  const concurrency = Math.max(1, options.concurrency ?? os.availableParallelism() * 4);
  let failure: unknown;
  const worker = async () => {
    while (next < walk.files.length && !options.signal?.aborted && failure === undefined) {
      await committer.room();
      if (next >= walk.files.length || options.signal?.aborted || failure !== undefined) break;
      const file = walk.files[next++]!;
      const lease: BufferLease = { buffer: undefined };
      // The bar counts a file once its rows are committed (or, with nothing to write, once it is handled), so an
      // interrupted run never shows more than it kept (issue 21, Reliability 6).
      let reported = false;
      const report = () => {
        if (reported) return;
        reported = true;
        done++;
        plannedDone += file.size;
        options.onProgress?.({
          files: done,
          bytes: plannedDone,
          totalFiles: walk.files.length,
          totalBytes,
        });
      };
      try {
        const outcome = await ingestFile(job, file, lease, report);
        if (!outcome.queued) report();
        summary.bytes += outcome.bytes;
        count(summary, outcome);
        if (outcome.problem)
          problems.push(problem(file.path, outcome.problem.outcome, outcome.problem.reason));
      } catch (error) {
        failure ??= error;
      } finally {
        job.readBuffers.give(lease);
      }
      handled++;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, walk.files.length) }, worker));
  try {
    await committer.close();
  } catch (error) {
    failure ??= error;
  }
  summary.seconds = (performance.now() - started) / 1000;
  summary.filesPerSecond = summary.seconds > 0 ? handled / summary.seconds : 0;
  summary.bytesPerSecond = summary.seconds > 0 ? summary.bytes / summary.seconds : 0;
  if (failure !== undefined) {
    await runs.finish(runId, 'failed', nowIso(ctx.clock), countsOf(summary)).catch(() => {});
    throw failure;
  }
  summary.status = handled < walk.files.length ? 'interrupted' : 'finished';
  await runs.finish(runId, summary.status, nowIso(ctx.clock), countsOf(summary));
  return summary;
}

function problem(path: Buffer, outcome: ProblemOutcome, reason: string): IngestProblem {
  return { path: displayName(path), pathB64: path.toString('base64'), outcome, reason };
}

function count(summary: IngestSummary, outcome: FileOutcome): void {
  if (outcome.result === 'stored') summary.stored++;
  else if (outcome.result === 'already_present') summary.alreadyPresent++;
  else summary.refused++;
  if (outcome.problem?.outcome === 'undecodable') summary.undecodable++;
  if (outcome.problem?.outcome === 'too_large') summary.tooLarge++;
}

/** The counts kept on the run's row (the problem list stays in the command's output). */
function countsOf(summary: IngestSummary): Record<string, number> {
  const { runId: _r, status: _s, problems: _p, ...counts } = summary;
  return counts;
}

/** Runs left "running" on this host by a process that no longer exists were interrupted (e.g. kill -9). */
async function markDeadRuns(runs: IngestRunRepository, host: string): Promise<void> {
  for (const run of await runs.runningOn(host)) {
    if (run.pid !== process.pid && !processAlive(run.pid)) {
      await runs.finish(run.id, 'interrupted', nowIso(), null);
    }
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function safeUserName(): string | null {
  try {
    return os.userInfo().username;
  } catch {
    return null;
  }
}

interface FileJob {
  ctx: AppContext;
  options: IngestOptions;
  runId: string;
  sourceId: string | null;
  custodyBase: Record<string, unknown>;
  committer: Committer;
  repo: EvidenceRepository;
  /** Items being stored in this run, by SHA-256: a second copy waits for the first to commit. */
  inFlight: Map<string, Promise<string>>;
  maxPixels: number;
  inMemoryLimit: number;
  readBuffers: ReadBuffers;
}

type FileOutcome = {
  bytes: number;
  result: 'stored' | 'already_present' | 'refused';
  problem?: { outcome: ProblemOutcome; reason: string };
  /** Rows were handed to the committer: progress counts the file when they commit. */
  queued?: boolean;
};

// Opening, sizing, reading (up to the in-memory limit) and closing a file are synchronous: each is a short system
// call, and through libuv's pool each waited behind the decodes queued there (4 threads), so that a third of the
// photos in hand were waiting to be opened or read instead of being decoded. `athar ingest` is a batch command
// with nothing else to serve meanwhile.
async function ingestFile(
  job: FileJob,
  file: FoundFile,
  lease: BufferLease,
  committed: () => void,
): Promise<FileOutcome> {
  const { ctx } = job;
  let fd: number;
  try {
    fd = fs.openSync(file.path, openFlags);
  } catch (error) {
    return refused(`cannot be opened: ${describeFsError(error)}`);
  }
  let sha256: string;
  let size: number;
  let content: Buffer | undefined;
  let head: Buffer;
  /** The original, written but not yet durable: the commit of its row makes it so first. */
  let original: StagedBlob | undefined;
  /** Whether the blob store held these bytes already. */
  let storedBefore: boolean;
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) return refused('is no longer a regular file');
    if (stat.size === 0) return refused('empty file (0 bytes)');
    if (stat.size <= job.inMemoryLimit) {
      try {
        content = readWhole(fd, stat.size, job.readBuffers, lease);
      } catch (error) {
        return refused(`cannot be read: ${describeFsError(error)}`);
      }
      if (content.length === 0) return refused('empty file (0 bytes)');
      original = await ctx.blobs.stage(content);
      sha256 = original.sha256;
      size = original.size;
      storedBefore = original.existed;
      head = content.subarray(0, headBytes);
    } else {
      const tap = new HeadTap(headBytes);
      const stream = fs.createReadStream(file.path, { fd, autoClose: false });
      let readError: unknown;
      stream.on('error', (error) => {
        readError = error;
        tap.destroy(error);
      });
      try {
        const put = await ctx.blobs.put(stream.pipe(tap));
        sha256 = put.sha256;
        size = put.size;
        storedBefore = put.existed;
      } catch (error) {
        if (readError) return refused(`cannot be read: ${describeFsError(readError)}`);
        throw error;
      }
      head = tap.head();
    }
  } finally {
    try {
      fs.closeSync(fd);
    } catch {
      // Nothing was written through it: a failed close loses nothing.
    }
  }
  const staged: StagedBlob[] = original ? [original] : [];

  const pathB64 = file.path.toString('base64');
  const pathKey = createHash('sha256').update(file.path).digest('hex');
  const location = (evidenceId: string): EvidenceLocationTable => ({
    id: newId(),
    evidence_id: evidenceId,
    ingest_run_id: job.runId,
    source_id: job.sourceId,
    path_key: pathKey,
    path_b64: pathB64,
    path: displayName(file.path),
    size_bytes: size,
    modified_at: Number.isFinite(file.modifiedMs) ? new Date(file.modifiedMs).toISOString() : null,
    found_at: nowIso(ctx.clock),
  });
  const custody = (alreadyPresent: boolean) => ({
    ...job.custodyBase,
    sha256,
    size_bytes: size,
    source_path: displayName(file.path),
    source_path_b64: pathB64,
    ...(alreadyPresent ? { already_present: true } : {}),
  });

  // The first task to meet this content owns it until its row commits; copies met meanwhile wait for that.
  const pending = job.inFlight.get(sha256);
  let settle: (id: string) => void = () => {};
  let fail: (error: unknown) => void = () => {};
  if (!pending) {
    const committed = new Promise<string>((resolve, reject) => {
      settle = resolve;
      fail = reject;
    });
    committed.catch(() => {});
    job.inFlight.set(sha256, committed);
    committed.finally(() => job.inFlight.delete(sha256)).catch(() => {});
  }
  let existing: string | undefined;
  try {
    // Bytes new to the blob store belong to no item (an item's blobs are durable before its row commits), so
    // only content already stored is looked up; one committed meanwhile by another run is caught at commit.
    if (pending) existing = await pending;
    else if (storedBefore) existing = await job.repo.idBySha256(sha256);
  } catch (error) {
    fail(error);
    await ctx.blobs.discard(staged);
    throw error;
  }
  if (existing) {
    settle(existing);
    await ctx.blobs.discard(staged);
    if (!(await job.repo.hasLocation(existing, pathKey))) {
      job.committer.add({
        kind: 'copy',
        actor: job.options.actor,
        location: location(existing),
        custody: custody(true),
        committed,
      });
      return { bytes: size, result: 'already_present', queued: true };
    }
    return { bytes: size, result: 'already_present' };
  }

  try {
    const described = await describe(job, sha256, content, head, file.path, staged);
    const id = newId();
    const name = baseName(file.path);
    const row: EvidenceItemTable = {
      id,
      sha256,
      size_bytes: size,
      media_type: described.mediaType,
      original_name_b64: name.toString('base64'),
      original_name: displayName(name),
      source_id: job.sourceId,
      width: described.width,
      height: described.height,
      orientation: described.orientation,
      pdq: described.pdq ? pdqToHex(described.pdq) : null,
      pdq_quality: described.pdqQuality,
      metadata: described.metadata === null ? null : JSON.stringify(described.metadata),
      decodable: described.decodeStatus === 'undecodable' || described.decodeStatus === 'pixel_limit' ? 0 : 1,
      decode_error: described.decodeError,
      graphic: 1,
      thumbnail_sha256: described.thumbnailSha256,
      blurred_sha256: described.blurredSha256,
      created_at: nowIso(ctx.clock),
      created_by: job.options.actor,
      decode_status: described.decodeStatus,
      ingest_run_id: job.runId,
    };
    job.committer.add({
      kind: 'item',
      row,
      location: location(id),
      // The derived views and PDQ ride in the logged event, so `athar verify` can tell a pointer aimed elsewhere.
      custody: {
        ...custody(false),
        thumbnail_sha256: row.thumbnail_sha256,
        blurred_sha256: row.blurred_sha256,
        pdq: row.pdq,
      },
      pdq: described.pdq,
      blobs: staged,
      settle,
      fail,
      committed,
    });
    const outcome: FileOutcome = { bytes: size, result: 'stored', queued: true };
    if (described.decodeStatus === 'undecodable') {
      outcome.problem = { outcome: 'undecodable', reason: described.decodeError ?? 'undecodable' };
    } else if (described.decodeStatus === 'pixel_limit') {
      outcome.problem = { outcome: 'too_large', reason: described.decodeError ?? 'over the pixel limit' };
    }
    return outcome;
  } catch (error) {
    fail(error);
    await ctx.blobs.discard(staged).catch(() => {});
    throw error;
  }

  function refused(reason: string): FileOutcome {
    return { bytes: 0, result: 'refused', problem: { outcome: 'refused', reason } };
  }
}

/** An item's custody details as a copy of content stored meanwhile: the views named are the other item's. */
function copyDetails(details: Record<string, unknown>): Record<string, unknown> {
  const { thumbnail_sha256: _t, blurred_sha256: _b, pdq: _p, ...rest } = details;
  return { ...rest, already_present: true };
}

interface Described {
  mediaType: string;
  width: number | null;
  height: number | null;
  orientation: number | null;
  pdq: PdqHash | null;
  pdqQuality: number | null;
  metadata: unknown;
  decodeStatus: 'decoded' | 'undecodable' | 'pixel_limit' | 'not_image';
  decodeError: string | null;
  thumbnailSha256: string | null;
  blurredSha256: string | null;
}

/**
 * Type, metadata and (for images) PDQ and derived views; the derived views are staged in the blob store (added to
 * `staged`), to be made durable with the original before the item's row commits.
 */
async function describe(
  job: FileJob,
  sha256: string,
  content: Buffer | undefined,
  head: Buffer,
  path: Buffer,
  staged: StagedBlob[],
): Promise<Described> {
  const sniffed = await fileTypeFromBuffer(head).catch(() => undefined);
  const mediaType = mediaTypeOf(sniffed?.mime, head.subarray(0, 4096));
  const described: Described = {
    mediaType,
    width: null,
    height: null,
    orientation: null,
    pdq: null,
    pdqQuality: null,
    metadata: null,
    decodeStatus: 'not_image',
    decodeError: null,
    thumbnailSha256: null,
    blurredSha256: null,
  };
  const claimsImage = !sniffed && nameSuggestsImage(displayName(baseName(path)));
  if (!isImageType(mediaType) && !claimsImage) return described;
  if (isImageType(mediaType)) described.metadata = await readMetadata(content ?? head);

  const input = content ?? (() => openBlob(job.ctx, sha256));
  const outcome = await job.options.decoder.decode(input, { maxPixels: job.maxPixels });
  if (outcome.status !== 'decoded') {
    described.decodeStatus = outcome.status;
    described.decodeError = claimsImage
      ? `named like an image but its content matches no known type; the decoder says: ${outcome.message}`
      : withDamage(outcome.message, content && structuralDamage(mediaType, content));
    described.width = outcome.width ?? null;
    described.height = outcome.height ?? null;
    described.orientation = outcome.orientation ?? null;
    return described;
  }
  const { image } = outcome;
  described.decodeStatus = 'decoded';
  described.width = image.width;
  described.height = image.height;
  described.orientation = image.orientation;
  const derived = deriveViews(job.options.decoder, image);
  described.pdq = derived.pdq.hash;
  described.pdqQuality = derived.pdq.quality;
  const views = await Promise.all([
    job.ctx.blobs.stage(await derived.thumbnail),
    job.ctx.blobs.stage(derived.blurred),
  ]);
  staged.push(...views);
  described.thumbnailSha256 = views[0].sha256;
  described.blurredSha256 = views[1].sha256;
  return described;
}

/**
 * What athar derives from a decoded picture: its PDQ hash, the thumbnail (JPEG) and the blurred view (PNG). Ingest
 * stores them; `athar verify --recompute` derives them again and compares (the same athar and libvips give the
 * same bytes).
 */
export function deriveViews(
  decoder: ImageDecoder,
  image: Extract<Awaited<ReturnType<ImageDecoder['decode']>>, { status: 'decoded' }>['image'],
): { pdq: ReturnType<typeof pdqOfPicture>; thumbnail: Promise<Buffer>; blurred: Buffer } {
  const { pixels } = image;
  const thumbnailPixels = thumbnailOf(pixels);
  const thumbnail = decoder.encodeJpeg(thumbnailPixels, viewQuality);
  // Hashing and the blurred view are made on this thread while the encoder works on libuv's.
  const blurred = encodePng(blurredOf(thumbnailPixels));
  const displayed = displayedSize(image.width, image.height, image.orientation);
  const pdq = pdqOfPicture(pixels.data, pixels.width, pixels.height, pixels.channels, displayed);
  return { pdq, thumbnail, blurred };
}

export { defaultMaxPixels };

const metadataOptions = {
  tiff: true,
  exif: true,
  gps: true,
  xmp: true,
  iptc: true,
  icc: false,
  jfif: false,
  ihdr: true,
  interop: false,
  makerNote: false,
  userComment: true,
  mergeOutput: false,
  translateKeys: true,
  translateValues: false,
  reviveValues: false,
  sanitize: true,
  silentErrors: true,
};

/** EXIF, XMP and IPTC as found (dates kept as the file writes them: EXIF times carry no zone). */
async function readMetadata(bytes: Buffer): Promise<unknown> {
  try {
    const parsed = (await exifr.parse(bytes, metadataOptions)) as Record<string, unknown> | undefined;
    if (!parsed || Object.keys(parsed).length === 0) return null;
    const { errors: _errors, ...segments } = parsed;
    return sanitizeMetadata(segments);
  } catch {
    return null;
  }
}

/** A pooled read buffer a file holds until it is done (nothing of it is kept: views and metadata are copies). */
interface BufferLease {
  buffer: Buffer | undefined;
}

/**
 * Read buffers of 1 MiB for the files that fit, used again once a file is done. A fresh buffer for every photo,
 * on top of its decoded pixels, made V8 collect its whole heap every few dozen photos (external memory counts
 * towards that), costing about 0.7 ms of CPU a photo. Larger files get buffers of their own.
 */
class ReadBuffers {
  static readonly capacity = 1024 * 1024;
  private readonly free: Buffer[] = [];

  take(lease: BufferLease): Buffer {
    const buffer = this.free.pop() ?? Buffer.allocUnsafeSlow(ReadBuffers.capacity);
    lease.buffer = buffer;
    return buffer;
  }

  give(lease: BufferLease): void {
    if (lease.buffer && this.free.length < 64) this.free.push(lease.buffer);
    lease.buffer = undefined;
  }
}

/**
 * The whole file, read through its descriptor in one call when it is as large as `size` said: the buffer has a
 * byte to spare, so a short read means the end was reached, and a file that grew meanwhile is read on.
 */
function readWhole(fd: number, size: number, buffers: ReadBuffers, lease: BufferLease): Buffer {
  let buffer = size < ReadBuffers.capacity ? buffers.take(lease) : Buffer.allocUnsafeSlow(size + 1);
  let length = 0;
  for (;;) {
    const want = buffer.length - length;
    const got = fs.readSync(fd, buffer, length, want, null);
    length += got;
    if (got < want) return buffer.subarray(0, length);
    const larger = Buffer.allocUnsafeSlow(buffer.length * 2);
    buffer.copy(larger, 0, 0, length);
    buffer = larger;
  }
}

function openBlob(ctx: AppContext, sha256: string): Readable {
  const out = new PassThrough();
  ctx.blobs.open(sha256).then(
    (stream) => {
      stream.on('error', (error) => out.destroy(error));
      stream.pipe(out);
    },
    (error: unknown) => out.destroy(error as Error),
  );
  return out;
}

/** Passes bytes through and keeps the first `limit` of them. */
class HeadTap extends Transform {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  constructor(private readonly limit: number) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    if (this.kept < this.limit) {
      const part = chunk.subarray(0, this.limit - this.kept);
      this.chunks.push(Buffer.from(part));
      this.kept += part.length;
    }
    this.push(chunk);
    callback();
  }
  head(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

type Entry =
  | {
      kind: 'item';
      row: EvidenceItemTable;
      location: EvidenceLocationTable;
      custody: Record<string, unknown>;
      pdq: PdqHash | null;
      /** The blobs the row names that are not durable yet. */
      blobs: StagedBlob[];
      settle: (id: string) => void;
      fail: (error: unknown) => void;
      /** Called once the entry's rows are committed. */
      committed?: () => void;
    }
  | {
      kind: 'copy';
      actor: string;
      location: EvidenceLocationTable;
      custody: Record<string, unknown>;
      committed?: () => void;
    };

interface Groups {
  index: PdqIndex;
  groupOf: Map<string, string>;
  members: Map<string, string[]>;
  quality: Map<string, number | null>;
}

async function loadGroups(db: Db): Promise<Groups> {
  const groups: Groups = {
    index: new PdqIndex(),
    groupOf: new Map(),
    members: new Map(),
    quality: new Map(),
  };
  for (const item of await new EvidenceRepository(db).listHashed()) {
    const hash = pdqFromHex(item.pdq);
    if (!hash) continue;
    const groupId = item.groupId ?? item.id;
    groups.index.add(item.id, hash);
    groups.groupOf.set(item.id, groupId);
    groups.quality.set(item.id, item.quality);
    const list = groups.members.get(groupId);
    if (list) list.push(item.id);
    else groups.members.set(groupId, [item.id]);
  }
  return groups;
}

/**
 * Writes rows in batches, one transaction each, in the order files finished: an item, where it was found, its
 * custody event and its near-duplicate group commit together. Only one batch is written at a time.
 */
class Committer {
  private queue: Entry[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private error: unknown;
  /** Entries added and not yet written, and who waits for room among them. */
  private pending = 0;
  private waiting: (() => void)[] = [];

  constructor(
    private readonly ctx: AppContext,
    private readonly groups: Groups,
    private readonly onAlreadyPresent: () => void,
  ) {}

  add(entry: Entry): void {
    if (this.error !== undefined) {
      if (entry.kind === 'item') entry.fail(this.error);
      throw this.error;
    }
    this.queue.push(entry);
    this.pending++;
    if (this.queue.length >= commitBatch) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), commitDelayMs);
  }

  /**
   * Resolves when fewer than `maxPending` entries wait to be written: when the disk is slower than decoding, files
   * are taken no faster than their rows commit (staged blobs hold a descriptor each until then).
   */
  async room(): Promise<void> {
    while (this.pending >= maxPending && this.error === undefined) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  async close(): Promise<void> {
    this.flush();
    await this.writing;
    if (this.error !== undefined) throw this.error;
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.queue.length === 0) return;
    const batch = this.queue;
    this.queue = [];
    this.writing = this.writing
      .then(() => this.write(batch))
      .finally(() => {
        this.pending -= batch.length;
        for (const wake of this.waiting.splice(0)) wake();
      });
  }

  private async write(batch: Entry[]): Promise<void> {
    const items = batch.filter((e): e is Extract<Entry, { kind: 'item' }> => e.kind === 'item');
    if (this.error !== undefined) {
      for (const e of items) e.fail(this.error);
      await this.ctx.blobs.discard(items.flatMap((e) => e.blobs)).catch(() => {});
      return;
    }
    const settled: { entry: Extract<Entry, { kind: 'item' }>; id: string }[] = [];
    const added: { id: string; hash: PdqHash; groupId: string; quality: number | null }[] = [];
    const merges: { from: string[]; into: string }[] = [];
    try {
      // The batch's one durability point: every blob its rows name is on disk before they commit.
      await this.ctx.blobs.persist(items.flatMap((e) => e.blobs));
      await this.ctx.store.transaction(async (trx) => {
        const repo = new EvidenceRepository(trx);
        const stored = await repo.insertMany(items.map((e) => e.row));
        // Content another run committed meanwhile: this file becomes a new location of that item.
        const ids = new Map<Entry, string>();
        for (const entry of batch) {
          if (entry.kind === 'copy') ids.set(entry, entry.location.evidence_id);
          else if (stored.has(entry.row.id)) ids.set(entry, entry.row.id);
          else ids.set(entry, (await repo.idBySha256(entry.row.sha256)) as string);
        }
        const locations = batch.map((e) => ({ ...e.location, evidence_id: ids.get(e) as string }));
        const located = await repo.addLocations(locations);
        const events: CustodyEventInput[] = [];
        batch.forEach((entry, i) => {
          const isNew = entry.kind === 'item' && stored.has(entry.row.id);
          if (!located.has(locations[i]!.id) && !isNew) return;
          events.push({
            evidenceId: ids.get(entry) as string,
            kind: 'ingested',
            actor: entry.kind === 'copy' ? entry.actor : (entry.row.created_by as string),
            at: entry.kind === 'copy' ? entry.location.found_at : entry.row.created_at,
            details: entry.kind === 'item' && !isNew ? copyDetails(entry.custody) : entry.custody,
          });
        });
        await recordCustodyEvents(trx, events);
        const groups: EvidenceGroup[] = [];
        for (const entry of items) {
          if (stored.has(entry.row.id) && entry.pdq) {
            const assignment = this.group(
              entry.row.id,
              entry.pdq,
              entry.row.pdq_quality ?? 0,
              entry.row.created_at,
              added,
              groups,
            );
            if (assignment.merged.length > 0)
              merges.push({ from: assignment.merged, into: assignment.groupId });
          }
          settled.push({ entry, id: ids.get(entry) as string });
        }
        await repo.setGroups(groups);
        for (const m of merges) await repo.mergeGroups(m.from, m.into);
      });
    } catch (error) {
      this.error = error;
      for (const e of items) e.fail(error);
      await this.ctx.blobs.discard(items.flatMap((e) => e.blobs)).catch(() => {});
      return;
    }
    for (const a of added) this.remember(a.id, a.hash, a.groupId, a.quality);
    for (const m of merges) this.mergeInMemory(m.from, m.into);
    for (const { entry, id } of settled) {
      if (id !== entry.row.id) this.onAlreadyPresent();
      entry.settle(id);
    }
    for (const entry of batch) entry.committed?.();
  }

  /**
   * Chooses the item's group, seeing items added earlier in the same batch, and notes it in `groups` (moving
   * those earlier items too when their groups merge into it); the batch writes them in one go.
   */
  private group(
    id: string,
    hash: PdqHash,
    quality: number,
    at: string,
    added: { id: string; hash: PdqHash; groupId: string; quality: number | null }[],
    groups: EvidenceGroup[],
  ) {
    const neighbours = this.groups.index.query(hash, nearDuplicateDistance).map((n) => ({
      id: n.id,
      distance: n.distance,
      groupId: this.groups.groupOf.get(n.id) ?? n.id,
      quality: this.groups.quality.get(n.id) ?? null,
    }));
    // Items of this batch are not in the index until it commits.
    for (const a of added) {
      const distance = hammingDistance(hash, a.hash);
      if (distance <= nearDuplicateDistance)
        neighbours.push({ id: a.id, distance, groupId: a.groupId, quality: a.quality });
    }
    const choice = chooseGroup(id, quality, neighbours);
    if (choice.merged.length > 0) {
      for (const a of added) if (choice.merged.includes(a.groupId)) a.groupId = choice.groupId;
      for (const g of groups) if (choice.merged.includes(g.groupId)) g.groupId = choice.groupId;
    }
    groups.push({
      evidenceId: id,
      groupId: choice.groupId,
      nearestId: choice.nearest?.id ?? null,
      nearestDistance: choice.nearest?.distance ?? null,
      assignedAt: at,
    });
    added.push({ id, hash, groupId: choice.groupId, quality });
    return choice;
  }

  private remember(id: string, hash: PdqHash, groupId: string, quality: number | null): void {
    this.groups.index.add(id, hash);
    this.groups.groupOf.set(id, groupId);
    this.groups.quality.set(id, quality);
    const list = this.groups.members.get(groupId);
    if (list) list.push(id);
    else this.groups.members.set(groupId, [id]);
  }

  private mergeInMemory(from: string[], into: string): void {
    const target = this.groups.members.get(into) ?? [];
    for (const g of from) {
      for (const member of this.groups.members.get(g) ?? []) {
        this.groups.groupOf.set(member, into);
        target.push(member);
      }
      this.groups.members.delete(g);
    }
    this.groups.members.set(into, target);
  }
}
