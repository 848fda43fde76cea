/**
 * What a JPEG's header declares — its size and EXIF orientation — read from its markers, without decoding
 * (pure). The decoder needs both before it decodes (the pixel limit, and how far to shrink on load); reading
 * them here spares a trip through the image library for every photo. Anything unexpected gives undefined, and
 * the image library is asked instead.
 */

export interface JpegHeader {
  width: number;
  height: number;
  /** EXIF orientation 1–8, or null without one. */
  orientation: number | null;
}

/** Start-of-frame markers (baseline, progressive, lossless, arithmetic): C0–CF except C4, C8 and CC. */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

export function readJpegHeader(bytes: Uint8Array): JpegHeader | undefined {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined;
  let size: { width: number; height: number } | undefined;
  let orientation: number | null | undefined;
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1]!;
    // Fill bytes, and markers that stand alone.
    if (marker === 0xff) {
      at++;
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    // The entropy-coded data (or the end) follows: every header segment has been seen.
    if (marker === 0xda || marker === 0xd9) break;
    const length = (bytes[at + 2]! << 8) | bytes[at + 3]!;
    const start = at + 4;
    const end = at + 2 + length;
    if (length < 2 || end > bytes.length) return undefined;
    if (marker === 0xe1 && orientation === undefined && isExif(bytes, start, end)) {
      orientation = exifOrientation(bytes.subarray(start + 6, end));
    } else if (isStartOfFrame(marker) && !size && end - start >= 5) {
      size = {
        height: (bytes[start + 1]! << 8) | bytes[start + 2]!,
        width: (bytes[start + 3]! << 8) | bytes[start + 4]!,
      };
    }
    at = end;
  }
  if (!size || size.width === 0 || size.height === 0) return undefined;
  return { ...size, orientation: orientation ?? null };
}

function isExif(bytes: Uint8Array, start: number, end: number): boolean {
  const tag = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]; // "Exif\0\0"
  return end - start > tag.length && tag.every((b, i) => bytes[start + i] === b);
}

/** Tag 0x0112 of IFD0 in a TIFF structure (EXIF's), when it holds 1–8; null otherwise. */
function exifOrientation(tiff: Uint8Array): number | null {
  if (tiff.length < 8) return null;
  const little = tiff[0] === 0x49 && tiff[1] === 0x49;
  if (!little && !(tiff[0] === 0x4d && tiff[1] === 0x4d)) return null;
  const u16 = (o: number) => (little ? tiff[o]! | (tiff[o + 1]! << 8) : (tiff[o]! << 8) | tiff[o + 1]!);
  const u32 = (o: number) => (little ? u16(o) + u16(o + 2) * 65536 : u16(o) * 65536 + u16(o + 2));
  if (u16(2) !== 42) return null;
  const ifd = u32(4);
  if (ifd + 2 > tiff.length) return null;
  const entries = u16(ifd);
  for (let i = 0; i < entries; i++) {
    const entry = ifd + 2 + 12 * i;
    if (entry + 12 > tiff.length) return null;
    // SHORT (type 3), one value, held in the first two bytes of the value field.
    if (u16(entry) === 0x0112) {
      if (u16(entry + 2) !== 3 || u32(entry + 4) !== 1) return null;
      const value = u16(entry + 8);
      return value >= 1 && value <= 8 ? value : null;
    }
  }
  return null;
}
