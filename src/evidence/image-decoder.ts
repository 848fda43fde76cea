import type { Readable } from 'node:stream';

/** 8-bit pixels, row-major, interleaved channels. */
export interface RawImage {
  data: Uint8Array;
  width: number;
  height: number;
  channels: number;
}

export interface DecodedImage {
  /** The image's size as stored in the file (before EXIF orientation). */
  width: number;
  height: number;
  /** EXIF orientation 1–8 when the file has one. */
  orientation: number | null;
  /** The decoder's name for the format (jpeg, png, …). */
  format: string;
  /**
   * The picture as displayed (EXIF orientation applied), RGB. When either displayed side exceeds 512 it is
   * resampled to exactly 512×512, as the PDQ reference does before hashing; otherwise it is at full size.
   */
  pixels: RawImage;
}

export type DecodeOutcome =
  | { status: 'decoded'; image: DecodedImage }
  /** Corrupt, truncated or of a format the decoder cannot read: `message` is the decoder's own words. */
  | {
      status: 'undecodable';
      message: string;
      width?: number;
      height?: number;
      orientation?: number | null;
      format?: string;
    }
  /** More pixels than allowed (a decompression bomb, or just huge): not decoded at all. */
  | {
      status: 'pixel_limit';
      message: string;
      width: number;
      height: number;
      orientation: number | null;
      format: string;
    };

export interface DecodeOptions {
  /** Largest width × height decoded; above it the outcome is `pixel_limit`. */
  maxPixels: number;
}

export interface EncodedImage {
  data: Buffer;
  mediaType: string;
  width: number;
  height: number;
}

export interface DerivedViews {
  thumbnail: EncodedImage;
  /** The same thumbnail so blurred that nothing graphic can be made out: what is shown unless asked otherwise. */
  blurred: EncodedImage;
}

/**
 * Image decoding behind one seam (the sharp implementation lives in sharp-image-decoder.ts): the core never
 * imports an image library, and tests and benchmarks can measure each side alone.
 */
export interface ImageDecoder {
  /** Decodes once, shrinking on load, to the pixels PDQ and the derived views are made from. */
  decode(input: Buffer | (() => Readable), options: DecodeOptions): Promise<DecodeOutcome>;
  /** Thumbnail and blurred thumbnail of the displayed picture, from the decoded pixels. */
  deriveViews(pixels: RawImage, displayed: { width: number; height: number }): Promise<DerivedViews>;
}

/** What the reference resamples larger images to before hashing. */
export const pdqWorkingSide = 512;
/** Long side of thumbnails. */
export const thumbnailSide = 256;
