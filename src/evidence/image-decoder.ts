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
   * The picture as displayed (EXIF orientation applied), RGB: whole when its long side is at most 512 pixels,
   * else shrunk on load to at most 320 on its long side (aspect kept, never enlarged). The one decode PDQ and
   * both derived views are made from.
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

/**
 * Image decoding and encoding behind one seam (the sharp implementation lives in sharp-image-decoder.ts): the
 * core never imports an image library, and tests and benchmarks can measure each side alone.
 */
export interface ImageDecoder {
  /** Decodes once, shrinking on load, to the pixels PDQ and the derived views are made from. */
  decode(input: Buffer | (() => Readable), options: DecodeOptions): Promise<DecodeOutcome>;
  /** JPEG of 8-bit RGB pixels (the derived views). */
  encodeJpeg(image: RawImage, quality: number): Promise<Buffer>;
}

/** Pictures up to this long side are decoded whole: PDQ's reference hashes them at their own size. */
export const wholeDecodeSide = 512;

/**
 * Larger pictures are shrunk on load to at most this long side. JPEG decoders shrink by 1/2, 1/4 or 1/8 while
 * decoding (libvips takes the largest that leaves at least the size asked, and halves it again when the result
 * would land exactly on it); 320 lets a 2-megapixel photo (1632 wide) decode at 1/4 where 512 needs 1/2, a
 * quarter less work. The decoded picture is the thumbnail as it is, and PDQ from it stays as close to the
 * reference hashes as from 512 (see docs/evidence.md).
 */
export const decodeSide = 320;
