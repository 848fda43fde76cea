import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { Readable } from 'node:stream';
import { fileTypeFromBuffer } from 'file-type';
import { readAll } from '../../blobs/index.js';
import {
  type AnnotationKind,
  identifierKey,
  isAnnotationKind,
  isReadFrom,
  type ReadFrom,
} from '../../evidence/identifiers.js';
import type { ImageDecoder } from '../../evidence/image-decoder.js';
import {
  displayedSize,
  isImageType,
  mediaTypeOf,
  nameSuggestsImage,
  structuralDamage,
  withDamage,
} from '../../evidence/media.js';
import { nearDuplicateDistance } from '../../evidence/near-duplicates.js';
import { pdqFromHex, pdqOfPicture, pdqToHex } from '../../evidence/pdq.js';
import { PdqIndex } from '../../evidence/pdq-index.js';
import { type Annotation, AnnotationRepository } from '../../store/repositories/annotations.js';
import { type CustodyEvent, CustodyRepository } from '../../store/repositories/custody.js';
import {
  type EvidenceGroup,
  type EvidenceItem,
  type EvidenceLocation,
  EvidenceRepository,
} from '../../store/repositories/evidence.js';
import type { AppContext } from '../context.js';
import { describeFsError } from '../ingest/ingest-walk.js';
import { recordCustody } from './custody.js';

export class EvidenceError extends Error {
  constructor(
    message: string,
    readonly code: 'not_found' | 'ambiguous' | 'invalid' | 'reason_required' | 'no_view',
  ) {
    super(message);
    this.name = 'EvidenceError';
  }
}

/** An item by its id, its SHA-256, or a SHA-256 prefix of at least 8 hex digits. */
export async function resolveEvidence(ctx: AppContext, ref: string): Promise<EvidenceItem> {
  const repo = new EvidenceRepository(ctx.store.db);
  const text = ref.trim().toLowerCase();
  const byId = await repo.get(text);
  if (byId) return byId;
  if (/^[0-9a-f]{64}$/.test(text)) {
    const bySha = await repo.findBySha256(text);
    if (bySha) return bySha;
  } else if (/^[0-9a-f]{8,63}$/.test(text)) {
    const found = await repo.findBySha256Prefix(text, 2);
    if (found.length === 1) return found[0]!;
    if (found.length > 1) {
      throw new EvidenceError(`${ref} matches more than one item's SHA-256; give more digits`, 'ambiguous');
    }
  }
  throw new EvidenceError(`no evidence item ${ref} (give its id, SHA-256 or a SHA-256 prefix)`, 'not_found');
}

export interface EvidenceDetails {
  item: EvidenceItem;
  locations: EvidenceLocation[];
  annotations: Annotation[];
  custody: CustodyEvent[];
  group: { id: string; size: number } | null;
}

/** Everything known about one item (reading it is not a custody event: no pixels are shown). */
export async function showEvidence(ctx: AppContext, ref: string): Promise<EvidenceDetails> {
  const item = await resolveEvidence(ctx, ref);
  const repo = new EvidenceRepository(ctx.store.db);
  const group = await repo.group(item.id);
  return {
    item,
    locations: await repo.locations(item.id),
    annotations: await new AnnotationRepository(ctx.store.db).listForEvidence(item.id),
    custody: await new CustodyRepository(ctx.store.db).listForEvidence(item.id),
    group: group ? { id: group.groupId, size: (await repo.groupMembers(group.groupId)).length } : null,
  };
}

export interface SimilarItems {
  item: EvidenceItem;
  maxDistance: number;
  /** Items whose PDQ hash is within maxDistance bits, nearest first. */
  neighbours: { item: EvidenceItem; distance: number }[];
  /** The item's near-duplicate group (connected by links of at most 31 bits), the item included. */
  group: { id: string; members: (EvidenceGroup & { item: EvidenceItem })[] } | null;
}

/** The items that look like this one: PDQ neighbours and the near-duplicate group. */
export async function similarEvidence(
  ctx: AppContext,
  ref: string,
  maxDistance = nearDuplicateDistance,
): Promise<SimilarItems> {
  if (!Number.isInteger(maxDistance) || maxDistance < 0 || maxDistance > 256) {
    throw new EvidenceError(`distance must be a whole number from 0 to 256, got ${maxDistance}`, 'invalid');
  }
  const item = await resolveEvidence(ctx, ref);
  const repo = new EvidenceRepository(ctx.store.db);
  const hash = item.pdq ? pdqFromHex(item.pdq) : undefined;
  if (!hash) {
    throw new EvidenceError(
      `item ${item.id} has no PDQ hash (${item.decodeStatus === 'not_image' ? 'not an image' : (item.decodeError ?? 'not decoded')})`,
      'no_view',
    );
  }
  const index = new PdqIndex();
  for (const h of await repo.listHashed()) {
    const other = pdqFromHex(h.pdq);
    if (other && h.id !== item.id) index.add(h.id, other);
  }
  const found = index.query(hash, maxDistance);
  const items = new Map((await repo.getMany(found.map((f) => f.id))).map((i) => [i.id, i]));
  const membership = await repo.group(item.id);
  let group: SimilarItems['group'] = null;
  if (membership) {
    const members = await repo.groupMembers(membership.groupId);
    const memberItems = new Map((await repo.getMany(members.map((m) => m.evidenceId))).map((i) => [i.id, i]));
    group = {
      id: membership.groupId,
      members: members.map((m) => ({ ...m, item: memberItems.get(m.evidenceId)! })),
    };
  }
  return {
    item,
    maxDistance,
    neighbours: found.map((f) => ({ item: items.get(f.id)!, distance: f.distance })),
    group,
  };
}

export interface AnnotateInput {
  evidence: string;
  kind: string;
  value: string;
  readFrom?: string | null;
  recordId?: string | null;
  actor: string;
}

/** Adds an annotation (e.g. a card's detainee number) and its custody event, together. */
export async function annotateEvidence(ctx: AppContext, input: AnnotateInput): Promise<Annotation> {
  const kind = input.kind.trim();
  if (!isAnnotationKind(kind)) {
    throw new EvidenceError(
      `unknown annotation kind ${JSON.stringify(input.kind)} (detainee_number, branch_number, forensic_report_number or note)`,
      'invalid',
    );
  }
  const readFrom = input.readFrom?.trim() || null;
  if (readFrom !== null && !isReadFrom(readFrom)) {
    throw new EvidenceError(
      `unknown place ${JSON.stringify(input.readFrom)} (card, body, overlay, file_name, folder or other)`,
      'invalid',
    );
  }
  const value = input.value.trim();
  if (!value) throw new EvidenceError('the value is empty', 'invalid');
  const valueKey = kind === 'note' ? value.normalize('NFKC').toLowerCase() : identifierKey(value);
  if (!valueKey) throw new EvidenceError(`${JSON.stringify(value)} has no letters or digits`, 'invalid');
  requireActor(input.actor);
  const item = await resolveEvidence(ctx, input.evidence);
  if (input.recordId) await requireRecord(ctx, input.recordId);
  return ctx.store.transaction(async (trx) => {
    const annotation = await new AnnotationRepository(trx).create({
      evidenceId: item.id,
      kind: kind as AnnotationKind,
      value,
      valueKey,
      readFrom: readFrom as ReadFrom | null,
      recordId: input.recordId ?? null,
      createdBy: input.actor,
    });
    await recordCustody(trx, {
      evidenceId: item.id,
      kind: 'annotated',
      actor: input.actor,
      at: annotation.createdAt,
      details: {
        annotation: annotation.id,
        kind,
        value,
        read_from: readFrom,
        record: input.recordId ?? null,
      },
    });
    return annotation;
  });
}

/** Links an annotation to a person record (or unlinks it, with null), as a custody event. */
export async function linkAnnotation(
  ctx: AppContext,
  annotationId: string,
  recordId: string | null,
  actor: string,
): Promise<Annotation> {
  requireActor(actor);
  const annotations = new AnnotationRepository(ctx.store.db);
  const annotation = await annotations.get(annotationId);
  if (!annotation) throw new EvidenceError(`no annotation ${annotationId}`, 'not_found');
  if (recordId) await requireRecord(ctx, recordId);
  await ctx.store.transaction(async (trx) => {
    await new AnnotationRepository(trx).setRecord(annotationId, recordId);
    await recordCustody(trx, {
      evidenceId: annotation.evidenceId,
      kind: 'annotated',
      actor,
      details: { annotation: annotationId, record: recordId, previous_record: annotation.recordId },
    });
  });
  return { ...annotation, recordId };
}

/** The annotations linked to a person record, with their items (what the registry shows beside a record). */
export async function annotationsForRecord(
  ctx: AppContext,
  recordId: string,
): Promise<{ annotation: Annotation; item: EvidenceItem }[]> {
  const found = await new AnnotationRepository(ctx.store.db).listForRecord(recordId);
  const items = new Map(
    (await new EvidenceRepository(ctx.store.db).getMany([...new Set(found.map((a) => a.evidenceId))])).map(
      (i) => [i.id, i],
    ),
  );
  return found.map((annotation) => ({ annotation, item: items.get(annotation.evidenceId)! }));
}

/** Annotations whose value matches however it was written (digits in either script, separators), with items. */
export async function searchIdentifiers(
  ctx: AppContext,
  value: string,
  kind?: string,
): Promise<{ key: string; matches: { annotation: Annotation; item: EvidenceItem }[] }> {
  if (kind && !isAnnotationKind(kind)) throw new EvidenceError(`unknown annotation kind ${kind}`, 'invalid');
  const key = kind === 'note' ? value.trim().normalize('NFKC').toLowerCase() : identifierKey(value);
  if (!key) throw new EvidenceError(`${JSON.stringify(value)} has no letters or digits`, 'invalid');
  const found = await new AnnotationRepository(ctx.store.db).findByKey(key, kind);
  const items = new Map(
    (await new EvidenceRepository(ctx.store.db).getMany([...new Set(found.map((a) => a.evidenceId))])).map(
      (i) => [i.id, i],
    ),
  );
  return {
    key,
    matches: found.map((annotation) => ({ annotation, item: items.get(annotation.evidenceId)! })),
  };
}

export interface ViewStream {
  stream: Readable;
  mediaType: string;
  sha256: string;
  size: number | undefined;
}

/** Who is looking and why: required for anything beyond the blurred view. */
export interface Access {
  actor: string;
  reason: string;
}

/**
 * The blurred view: what anyone allowed to see the item is shown by default. Not a custody event. A PNG a few
 * kilobytes long (a JPEG for items stored before athar made PNGs), to be shown enlarged to thumbnail size.
 */
export async function openBlurredView(ctx: AppContext, ref: string): Promise<ViewStream> {
  const item = await resolveEvidence(ctx, ref);
  if (!item.blurredSha256) throw new EvidenceError(noViewReason(item), 'no_view');
  const bytes = await readAll(await ctx.blobs.open(item.blurredSha256));
  const png = bytes.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  return {
    stream: Readable.from([bytes]),
    mediaType: png ? 'image/png' : 'image/jpeg',
    sha256: item.blurredSha256,
    size: bytes.length,
  };
}

/**
 * The unblurred thumbnail. The caller has checked the actor may see it; this records the viewing (actor, reason)
 * as a custody event before any byte is handed out.
 */
export async function openUnblurredView(ctx: AppContext, ref: string, access: Access): Promise<ViewStream> {
  requireAccess(access);
  const item = await resolveEvidence(ctx, ref);
  if (!item.thumbnailSha256) throw new EvidenceError(noViewReason(item), 'no_view');
  await ctx.store.transaction((trx) =>
    recordCustody(trx, {
      evidenceId: item.id,
      kind: 'viewed_unblurred',
      actor: access.actor,
      reason: access.reason.trim(),
      details: { view: 'thumbnail', sha256: item.thumbnailSha256 },
    }),
  );
  return openBlob(ctx, item.thumbnailSha256, 'image/jpeg');
}

/** The original bytes, as stored. Recorded as a custody event (actor, reason) before any byte is handed out. */
export async function openOriginal(ctx: AppContext, ref: string, access: Access): Promise<ViewStream> {
  requireAccess(access);
  const item = await resolveEvidence(ctx, ref);
  await ctx.store.transaction((trx) =>
    recordCustody(trx, {
      evidenceId: item.id,
      kind: 'viewed_original',
      actor: access.actor,
      reason: access.reason.trim(),
      details: { sha256: item.sha256 },
    }),
  );
  return openBlob(ctx, item.sha256, item.mediaType);
}

async function openBlob(ctx: AppContext, sha256: string, mediaType: string): Promise<ViewStream> {
  return { stream: await ctx.blobs.open(sha256), mediaType, sha256, size: await ctx.blobs.size(sha256) };
}

function noViewReason(item: EvidenceItem): string {
  if (item.decodeStatus === 'pixel_limit')
    return `item ${item.id} is over the pixel limit: no views were made`;
  if (item.decodeStatus === 'undecodable') return `item ${item.id} could not be decoded: ${item.decodeError}`;
  return `item ${item.id} is not an image (${item.mediaType}): it has no views`;
}

function requireAccess(access: Access): void {
  requireActor(access.actor);
  if (!access.reason?.trim()) {
    throw new EvidenceError(
      'a reason is required to see an unblurred view or an original',
      'reason_required',
    );
  }
}

function requireActor(actor: string): void {
  if (!actor?.trim()) throw new EvidenceError('an actor is required', 'invalid');
}

async function requireRecord(ctx: AppContext, recordId: string): Promise<void> {
  const row = await ctx.store.db
    .selectFrom('records')
    .select('id')
    .where('id', '=', recordId)
    .executeTakeFirst();
  if (!row) throw new EvidenceError(`no record ${recordId}`, 'not_found');
}

export interface FileHash {
  file: string;
  sha256?: string;
  sizeBytes?: number;
  mediaType?: string;
  pdq?: string | null;
  pdqQuality?: number | null;
  width?: number | null;
  height?: number | null;
  error?: string;
}

/**
 * `athar evidence hash`: SHA-256, type, size and, for images, PDQ hash, quality and dimensions of each file, with
 * nothing stored. Files up to 32 MiB are read once; a larger image is read again, as a stream, to decode it.
 */
export async function hashEvidenceFiles(
  paths: readonly string[],
  decoder: ImageDecoder,
  maxPixels = 268_402_689,
): Promise<FileHash[]> {
  const out: FileHash[] = [];
  for (const file of paths) {
    let read: { sha256: string; size: number; head: Buffer; bytes?: Buffer };
    try {
      read = await readFileOnce(file, 32 * 1024 * 1024);
    } catch (error) {
      out.push({ file, error: describeFsError(error) });
      continue;
    }
    const sniffed = await fileTypeFromBuffer(read.head).catch(() => undefined);
    const mediaType = mediaTypeOf(sniffed?.mime, read.head.subarray(0, 4096));
    const entry: FileHash = { file, sha256: read.sha256, sizeBytes: read.size, mediaType };
    const claimsImage = !sniffed && nameSuggestsImage(file);
    if ((isImageType(mediaType) || claimsImage) && read.size > 0) {
      const outcome = await decoder.decode(read.bytes ?? (() => fs.createReadStream(file)), { maxPixels });
      entry.width = outcome.status === 'decoded' ? outcome.image.width : (outcome.width ?? null);
      entry.height = outcome.status === 'decoded' ? outcome.image.height : (outcome.height ?? null);
      if (outcome.status === 'decoded') {
        const { image } = outcome;
        const displayed = displayedSize(image.width, image.height, image.orientation);
        const pdq = pdqOfPicture(
          image.pixels.data,
          image.pixels.width,
          image.pixels.height,
          image.pixels.channels,
          displayed,
        );
        entry.pdq = pdqToHex(pdq.hash);
        entry.pdqQuality = pdq.quality;
      } else {
        entry.pdq = null;
        entry.pdqQuality = null;
        entry.error = withDamage(outcome.message, read.bytes && structuralDamage(mediaType, read.bytes));
      }
    }
    out.push(entry);
  }
  return out;
}

/** SHA-256 of a file's bytes, read once as a stream; keeps the bytes when the file is small, else its head. */
async function readFileOnce(
  path: string,
  keepUpTo: number,
): Promise<{ sha256: string; size: number; head: Buffer; bytes?: Buffer }> {
  const handle = await fsp.open(path, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  try {
    if (!(await handle.stat()).isFile())
      throw Object.assign(new Error('not a regular file'), { code: 'EISDIR' });
    const hash = createHash('sha256');
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of handle.createReadStream({ autoClose: false })) {
      const buf = chunk as Buffer;
      hash.update(buf);
      if (size < keepUpTo) chunks.push(buf);
      size += buf.length;
    }
    const kept = Buffer.concat(chunks);
    return {
      sha256: hash.digest('hex'),
      size,
      head: kept.subarray(0, 1024 * 1024),
      ...(size <= keepUpTo ? { bytes: kept } : {}),
    };
  } finally {
    await handle.close();
  }
}
