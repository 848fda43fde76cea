import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { Readable } from 'node:stream';
import { fileTypeFromBuffer } from 'file-type';
import { readAll } from '../../blobs/index.js';
import { DomainError } from '../../domain/errors.js';
import { type AnnotationKind, isAnnotationKind, isReadFrom, type ReadFrom } from '../../domain/evidence.js';
import { identifierKey } from '../../evidence/identifiers.js';
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
import { LookupRepository } from '../../store/repositories/lookups.js';
import { TracingRepository } from '../../store/repositories/tracing.js';
import type { AppContext } from '../context.js';
import { describeFsError } from '../ingest/ingest-walk.js';
import { tracingQueued } from '../tracing/signal.js';
import { recordCustody } from './custody.js';

/** The vault's catalogue: items by id or hash, near-duplicates, annotations and identifier search, blurred views. */
export class EvidenceCatalogue {
  constructor(private readonly ctx: AppContext) {}

  /** An item by its id, its SHA-256, or a SHA-256 prefix of at least 8 hex digits. */
  async resolve(ref: string): Promise<EvidenceItem> {
    const repo = new EvidenceRepository(this.ctx.store.db);
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
        throw new DomainError('invalid', `${ref} matches more than one item's SHA-256; give more digits`);
      }
    }
    throw new DomainError('not_found', `no evidence item ${ref} (give its id, SHA-256 or a SHA-256 prefix)`);
  }

  /** Everything known about one item (reading it is not a custody event: no pixels are shown). */
  async show(ref: string): Promise<EvidenceDetails> {
    const item = await this.resolve(ref);
    const repo = new EvidenceRepository(this.ctx.store.db);
    const group = await repo.group(item.id);
    return {
      item,
      locations: await repo.locations(item.id),
      annotations: await new AnnotationRepository(this.ctx.store.db).listForEvidence(item.id),
      custody: await new CustodyRepository(this.ctx.store.db).listForEvidence(item.id),
      group: group ? { id: group.groupId, size: (await repo.groupMembers(group.groupId)).length } : null,
    };
  }

  /** The items that look like this one: PDQ neighbours and the near-duplicate group. */
  async similar(ref: string, maxDistance = nearDuplicateDistance): Promise<SimilarItems> {
    if (!Number.isInteger(maxDistance) || maxDistance < 0 || maxDistance > 256) {
      throw new DomainError('invalid', `distance must be a whole number from 0 to 256, got ${maxDistance}`);
    }
    const item = await this.resolve(ref);
    const repo = new EvidenceRepository(this.ctx.store.db);
    const hash = item.pdq ? pdqFromHex(item.pdq) : undefined;
    if (!hash) {
      throw new DomainError(
        'conflict',
        `item ${item.id} has no PDQ hash (${item.decodeStatus === 'not_image' ? 'not an image' : (item.decodeError ?? 'not decoded')})`,
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
      const memberItems = new Map(
        (await repo.getMany(members.map((m) => m.evidenceId))).map((i) => [i.id, i]),
      );
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

  /** Adds an annotation (e.g. a card's detainee number) and its custody event, together. */
  async annotate(input: AnnotateInput): Promise<Annotation> {
    const kind = input.kind.trim();
    if (!isAnnotationKind(kind)) {
      throw new DomainError(
        'invalid',
        `unknown annotation kind ${JSON.stringify(input.kind)} (detainee_number, branch_number, forensic_report_number or note)`,
      );
    }
    const readFrom = input.readFrom?.trim() || null;
    if (readFrom !== null && !isReadFrom(readFrom)) {
      throw new DomainError(
        'invalid',
        `unknown place ${JSON.stringify(input.readFrom)} (card, body, overlay, file_name, folder or other)`,
      );
    }
    const value = input.value.trim();
    if (!value) throw new DomainError('invalid', 'the value is empty');
    const valueKey = kind === 'note' ? value.normalize('NFKC').toLowerCase() : identifierKey(value);
    if (!valueKey) throw new DomainError('invalid', `${JSON.stringify(value)} has no letters or digits`);
    requireActor(input.actor);
    const item = await this.resolve(input.evidence);
    if (input.recordId) await this.requireRecord(input.recordId);
    const done = await this.ctx.store.transaction(async (trx) => {
      const annotation = await new AnnotationRepository(trx).create({
        evidenceId: item.id,
        kind: kind as AnnotationKind,
        value,
        valueKey,
        readFrom: readFrom as ReadFrom | null,
        recordId: input.recordId ?? null,
        createdBy: input.actor,
      });
      // A card number: the tracing loop compares the item's cards with the registry.
      if (kind !== 'note') {
        await new TracingRepository(trx, this.ctx.store.capabilities).enqueue(
          [{ kind: 'label', subjectId: item.id }],
          annotation.createdAt,
        );
      }
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
    if (kind !== 'note') tracingQueued(this.ctx.store);
    return done;
  }

  /** Attaches an annotation to a person record (or detaches it, with null), as a custody event. */
  async attachAnnotation(annotationId: string, recordId: string | null, actor: string): Promise<Annotation> {
    requireActor(actor);
    const annotations = new AnnotationRepository(this.ctx.store.db);
    const annotation = await annotations.get(annotationId);
    if (!annotation) throw new DomainError('not_found', `no annotation ${annotationId}`);
    if (recordId) await this.requireRecord(recordId);
    await this.ctx.store.transaction(async (trx) => {
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
  async annotationsForRecord(recordId: string): Promise<{ annotation: Annotation; item: EvidenceItem }[]> {
    const found = await new AnnotationRepository(this.ctx.store.db).listForRecord(recordId);
    const items = new Map(
      (
        await new EvidenceRepository(this.ctx.store.db).getMany([...new Set(found.map((a) => a.evidenceId))])
      ).map((i) => [i.id, i]),
    );
    return found.map((annotation) => ({ annotation, item: items.get(annotation.evidenceId)! }));
  }

  /** Annotations whose value matches however it was written (digits in either script, separators), with items. */
  async searchIdentifiers(
    value: string,
    kind?: string,
  ): Promise<{ key: string; matches: { annotation: Annotation; item: EvidenceItem }[] }> {
    if (kind && !isAnnotationKind(kind)) throw new DomainError('invalid', `unknown annotation kind ${kind}`);
    const key = kind === 'note' ? value.trim().normalize('NFKC').toLowerCase() : identifierKey(value);
    if (!key) throw new DomainError('invalid', `${JSON.stringify(value)} has no letters or digits`);
    const found = await new AnnotationRepository(this.ctx.store.db).findByKey(key, kind);
    const items = new Map(
      (
        await new EvidenceRepository(this.ctx.store.db).getMany([...new Set(found.map((a) => a.evidenceId))])
      ).map((i) => [i.id, i]),
    );
    return {
      key,
      matches: found.map((annotation) => ({ annotation, item: items.get(annotation.evidenceId)! })),
    };
  }

  /**
   * The blurred view: what anyone allowed to see the item is shown by default. Not a custody event. A PNG a few
   * kilobytes long (a JPEG for items stored before athar made PNGs), to be shown enlarged to thumbnail size.
   */
  async blurredView(ref: string): Promise<ViewStream> {
    const item = await this.resolve(ref);
    if (!item.blurredSha256) throw new DomainError('conflict', noViewReason(item));
    const bytes = await readAll(await this.ctx.blobs.open(item.blurredSha256));
    const png = bytes.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    return {
      stream: Readable.from([bytes]),
      mediaType: png ? 'image/png' : 'image/jpeg',
      sha256: item.blurredSha256,
      size: bytes.length,
    };
  }

  private async requireRecord(recordId: string): Promise<void> {
    if (!(await new LookupRepository(this.ctx.store.db).exists('records', recordId)))
      throw new DomainError('not_found', `no record ${recordId}`);
  }
}

export interface EvidenceDetails {
  item: EvidenceItem;
  locations: EvidenceLocation[];
  annotations: Annotation[];
  custody: CustodyEvent[];
  group: { id: string; size: number } | null;
}

export interface SimilarItems {
  item: EvidenceItem;
  maxDistance: number;
  /** Items whose PDQ hash is within maxDistance bits, nearest first. */
  neighbours: { item: EvidenceItem; distance: number }[];
  /** The item's near-duplicate group (connected by links of at most 31 bits), the item included. */
  group: { id: string; members: (EvidenceGroup & { item: EvidenceItem })[] } | null;
}

export interface AnnotateInput {
  evidence: string;
  kind: string;
  value: string;
  readFrom?: string | null;
  recordId?: string | null;
  actor: string;
}

export interface ViewStream {
  stream: Readable;
  mediaType: string;
  sha256: string;
  size: number | undefined;
}

function noViewReason(item: EvidenceItem): string {
  if (item.decodeStatus === 'pixel_limit')
    return `item ${item.id} is over the pixel limit: no views were made`;
  if (item.decodeStatus === 'undecodable') return `item ${item.id} could not be decoded: ${item.decodeError}`;
  return `item ${item.id} is not an image (${item.mediaType}): it has no views`;
}

function requireActor(actor: string): void {
  if (!actor?.trim()) throw new DomainError('invalid', 'an actor is required');
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
