/**
 * Interpreting what a file is, from facts gathered elsewhere (magic bytes, its name, parsed metadata): pure.
 */

/** Media types athar hands to the image decoder. */
const decodableImageTypes = new Set([
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'image/tiff',
  'image/avif',
  'image/heic',
  'image/heif',
  'image/jp2',
  'image/jxl',
  'image/bmp',
  'image/svg+xml',
]);

/** Names that promise an image, so content that matches no known type is still tried (and flagged) as one. */
const imageNameExtension = /\.(jpe?g|jfif|png|webp|gif|tiff?|avif|heic|heif|jp2|jxl|bmp)$/i;

export function isImageType(mediaType: string): boolean {
  return decodableImageTypes.has(mediaType);
}

export function nameSuggestsImage(name: string): boolean {
  return imageNameExtension.test(name);
}

/**
 * The media type recorded for a file: what its magic bytes say; else text/plain for valid UTF-8 without control
 * characters; else application/octet-stream. Names are never trusted for the type.
 */
export function mediaTypeOf(sniffed: string | undefined, head: Uint8Array): string {
  if (sniffed) return sniffed;
  return looksLikeText(head) ? 'text/plain' : 'application/octet-stream';
}

function looksLikeText(head: Uint8Array): boolean {
  if (head.length === 0) return false;
  for (const byte of head) {
    if (byte < 0x09 || (byte > 0x0d && byte < 0x20 && byte !== 0x1b) || byte === 0x7f) return false;
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, trimIncompleteUtf8(head)));
    return true;
  } catch {
    return false;
  }
}

/** The length of `bytes` without a UTF-8 sequence cut off at its end (a head is a prefix of the file). */
function trimIncompleteUtf8(bytes: Uint8Array): number {
  let end = bytes.length;
  for (let back = 1; back <= 3 && end - back >= 0; back++) {
    const b = bytes[end - back]!;
    if ((b & 0xc0) === 0x80) continue;
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    if (need > back) end -= back;
    break;
  }
  return end;
}

/** A file name for display: its bytes as UTF-8, invalid sequences shown as U+FFFD (the exact bytes are kept apart). */
export function displayName(bytes: Uint8Array): string {
  return new TextDecoder('utf-8').decode(bytes);
}

/** EXIF orientations 5–8 turn the picture a quarter: the displayed width is the stored height. */
export function displayedSize(
  width: number,
  height: number,
  orientation: number | null | undefined,
): { width: number; height: number } {
  return orientation && orientation >= 5 && orientation <= 8
    ? { width: height, height: width }
    : { width, height };
}

const maxInlineBytes = 64;
const maxStringLength = 4096;
const maxArrayItems = 256;
const maxDepth = 6;

/**
 * Metadata (EXIF, XMP, IPTC as parsed) made fit to store as JSON: byte arrays become {"$bytes": n, "hex": …}
 * (hex only when short), NUL padding is trimmed from strings, very long strings and arrays are cut (and say so),
 * non-finite numbers become null, dates their ISO text. Values are otherwise kept as the file gave them.
 */
export function sanitizeMetadata(value: unknown, depth = 0): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') {
    const trimmed = value.replace(/\0+$/, '');
    return trimmed.length > maxStringLength ? `${trimmed.slice(0, maxStringLength)}…` : trimmed;
  }
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (ArrayBuffer.isView(value)) {
    const bytes = new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    return bytes.length <= maxInlineBytes
      ? { $bytes: bytes.length, hex: Buffer.from(bytes).toString('hex') }
      : { $bytes: bytes.length };
  }
  if (depth >= maxDepth) return null;
  if (Array.isArray(value)) {
    const items = value.slice(0, maxArrayItems).map((v) => sanitizeMetadata(v, depth + 1));
    if (value.length > maxArrayItems) items.push(`… ${value.length - maxArrayItems} more`);
    return items;
  }
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      if (typeof v === 'function') continue;
      out[key] = sanitizeMetadata(v, depth + 1);
    }
    return out;
  }
  return null;
}

/**
 * A structural reason a file of this type cannot be whole, read from its bytes: a JPEG without its end-of-image
 * marker, a PNG without its closing IEND chunk. Decoders running side by side do not always say which warning
 * stopped them; this does, deterministically.
 */
export function structuralDamage(mediaType: string, bytes: Uint8Array): string | null {
  if (mediaType === 'image/jpeg') {
    let end = bytes.length;
    // Some writers pad after the marker.
    while (end > 2 && (bytes[end - 1] === 0x00 || bytes[end - 1] === 0x0a || bytes[end - 1] === 0x0d)) end--;
    const whole = end >= 2 && bytes[end - 2] === 0xff && bytes[end - 1] === 0xd9;
    return whole
      ? null
      : `truncated: the JPEG stops after ${bytes.length} bytes without its end-of-image marker`;
  }
  if (mediaType === 'image/png') {
    const tail = Buffer.from(bytes.subarray(Math.max(0, bytes.length - 16))).toString('latin1');
    return tail.includes('IEND')
      ? null
      : `truncated: the PNG stops after ${bytes.length} bytes without its IEND chunk`;
  }
  return null;
}

/** The decoder's words, and what the bytes themselves show when the decoder did not say it. */
export function withDamage(message: string, damage: string | null | undefined): string {
  return damage && !/premature|truncat/i.test(message) ? `${message} (${damage})` : message;
}
