/**
 * What ingest learns from a file's bytes: type from the magic bytes, metadata, and for images the one
 * shrink-on-load decode, its PDQ hash and the two derived views (staged in the blob store). Shared by the main
 * thread and the ingest workers (ingest-worker.ts), which run it for files held in memory.
 */
import type { Readable } from 'node:stream';
import exifr from 'exifr';
import { fileTypeFromBuffer } from 'file-type';
import type { BlobStore, StagedBlob } from '../blobs/blob-store.js';
import type { ImageDecoder } from '../evidence/image-decoder.js';
import {
  displayedSize,
  isImageType,
  mediaTypeOf,
  nameSuggestsImage,
  sanitizeMetadata,
  structuralDamage,
  withDamage,
} from '../evidence/media.js';
import { type PdqHash, pdqOfPicture } from '../evidence/pdq.js';
import { encodePng } from '../evidence/png.js';
import { blurredOf, thumbnailOf } from '../evidence/views.js';

/** How much of a streamed file is kept for type sniffing and metadata. */
export const headBytes = 1024 * 1024;
const viewQuality = 80;

export interface Described {
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

export interface DescribeInput {
  /** The whole file when it was read into memory; else `head` and `open` stand for it. */
  content: Buffer | undefined;
  /** Its first bytes (up to `headBytes`). */
  head: Buffer;
  /** The file's name as displayed (an image named so whose content matches no known type is still tried). */
  name: string;
  /** The stored copy, for a file too large to be held in memory. */
  open: () => Readable;
  maxPixels: number;
}

/**
 * Type, metadata and (for images) PDQ and derived views; the derived views are staged in the blob store (added to
 * `staged`), to be made durable with the original before the item's row commits.
 */
export async function describeFile(
  decoder: ImageDecoder,
  blobs: BlobStore,
  input: DescribeInput,
  staged: StagedBlob[],
): Promise<Described> {
  const { content, head } = input;
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
  const claimsImage = !sniffed && nameSuggestsImage(input.name);
  if (!isImageType(mediaType) && !claimsImage) return described;
  if (isImageType(mediaType)) described.metadata = await readMetadata(content ?? head);

  const outcome = await decoder.decode(content ?? input.open, { maxPixels: input.maxPixels });
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
  const { pixels } = image;
  const thumbnailPixels = thumbnailOf(pixels);
  const encoding = decoder.encodeJpeg(thumbnailPixels, viewQuality);
  // Hashing and the blurred view are made on this thread while the encoder works on libuv's.
  const blurredPng = encodePng(blurredOf(thumbnailPixels));
  const displayed = displayedSize(image.width, image.height, image.orientation);
  const pdq = pdqOfPicture(pixels.data, pixels.width, pixels.height, pixels.channels, displayed);
  described.pdq = pdq.hash;
  described.pdqQuality = pdq.quality;
  const views = await Promise.all([blobs.stage(await encoding), blobs.stage(blurredPng)]);
  staged.push(...views);
  described.thumbnailSha256 = views[0].sha256;
  described.blurredSha256 = views[1].sha256;
  return described;
}

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
