/**
 * What of a file's own metadata every evidence reader sees, and what is provenance (issue 21, Security 2): pure.
 * EXIF, XMP and IPTC name and locate people — GPS, Artist, OwnerName, a camera's serial number, a folder named after
 * a witness — so the full metadata goes only to `evidence:provenance`. The summary keeps what a reviewer needs to
 * read an image: when it was taken and by what kind of camera (its dimensions are columns of their own).
 */

export interface MetadataSummary {
  capturedAt: string | null;
  cameraMake: string | null;
  cameraModel: string | null;
}

function segment(metadata: unknown, name: string): Record<string, unknown> {
  if (metadata === null || typeof metadata !== 'object') return {};
  const value = (metadata as Record<string, unknown>)[name];
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
}

function text(value: unknown): string | null {
  if (typeof value === 'string' && value.trim() !== '') return value.trim().slice(0, 200);
  if (value instanceof Date) return value.toISOString();
  return null;
}

/** The capture date and camera model of parsed metadata (exifr's segments: ifd0, exif, …), or nulls. */
export function metadataSummary(metadata: unknown): MetadataSummary | null {
  if (metadata === null || metadata === undefined) return null;
  const ifd0 = segment(metadata, 'ifd0');
  const exif = segment(metadata, 'exif');
  return {
    capturedAt: text(exif.DateTimeOriginal) ?? text(exif.CreateDate) ?? text(ifd0.ModifyDate),
    cameraMake: text(ifd0.Make),
    cameraModel: text(ifd0.Model),
  };
}
