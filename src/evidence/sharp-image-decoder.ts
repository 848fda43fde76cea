import type { Readable } from 'node:stream';
import sharp, { type Metadata, type Sharp, type SharpOptions } from 'sharp';
import {
  type DecodeOptions,
  type DecodeOutcome,
  decodeSide,
  type ImageDecoder,
  type RawImage,
  wholeDecodeSide,
} from './image-decoder.js';
import { readJpegHeader } from './jpeg-header.js';

/**
 * The ImageDecoder on sharp (libvips). Images are seen once, so sharp's operation cache is off. Decoding fails on
 * the decoder's first warning (a truncated JPEG is reported as such, never quietly grey-filled), and the pixel
 * limit is checked from the header before anything is decoded.
 */
export class SharpImageDecoder implements ImageDecoder {
  constructor() {
    sharp.cache(false);
  }

  async decode(input: Buffer | (() => Readable), options: DecodeOptions): Promise<DecodeOutcome> {
    // A JPEG in memory tells its size and orientation from its markers; anything else asks libvips.
    const jpeg = Buffer.isBuffer(input) ? readJpegHeader(input) : undefined;
    let metadata: Pick<Metadata, 'width' | 'height' | 'format' | 'orientation'>;
    if (jpeg) {
      metadata = { ...jpeg, format: 'jpeg', orientation: jpeg.orientation ?? undefined };
    } else {
      try {
        metadata = await open(input, { failOn: 'none', limitInputPixels: false }).metadata();
      } catch (error) {
        return { status: 'undecodable', message: messageOf(error) };
      }
    }
    const { width, height, format } = metadata;
    const orientation = metadata.orientation ?? null;
    if (!width || !height) {
      return { status: 'undecodable', message: 'the image has no size', format, orientation };
    }
    if (width * height > options.maxPixels) {
      return {
        status: 'pixel_limit',
        message: `${width}×${height} is ${width * height} pixels, over the limit of ${options.maxPixels}`,
        width,
        height,
        orientation,
        format,
      };
    }
    try {
      const pipeline = pixelsPipeline(input, { width, height }, options.maxPixels);
      const { data, info } = await pipeline.toBuffer({ resolveWithObject: true });
      const pixels: RawImage = { data, width: info.width, height: info.height, channels: info.channels };
      return { status: 'decoded', image: { width, height, orientation, format, pixels } };
    } catch (error) {
      return { status: 'undecodable', message: messageOf(error), width, height, orientation, format };
    }
  }

  async encodeJpeg(image: RawImage, quality: number): Promise<Buffer> {
    return (
      sharp(image.data, {
        raw: { width: image.width, height: image.height, channels: image.channels as 1 | 2 | 3 | 4 },
      })
        // Huffman tables left standard: optimising them saves a few percent of a view's bytes for half again
        // the encoding time.
        .jpeg({ quality, optimiseCoding: false })
        .toBuffer()
    );
  }
}

/**
 * The one decode: the picture as displayed (EXIF orientation applied), 8-bit RGB, whole up to 512 on its long
 * side, else shrunk on load to at most 320 (see image-decoder.ts). Exported so that the benchmark's baseline
 * decodes exactly as ingest does.
 */
export function pixelsPipeline(
  input: Buffer | string | (() => Readable),
  stored: { width: number; height: number },
  maxPixels: number,
): Sharp {
  const pipeline = open(input, {
    failOn: 'warning',
    limitInputPixels: maxPixels,
    autoOrient: true,
    sequentialRead: true,
  });
  // libvips shrinks JPEG and WebP while decoding (DCT scaling), then reduces the rest of the way; a triangle
  // filter is enough ahead of PDQ's own tent filter and the thumbnail's area average, and costs less than Lanczos.
  if (Math.max(stored.width, stored.height) > wholeDecodeSide) {
    pipeline.resize(decodeSide, decodeSide, { fit: 'inside', kernel: 'linear' });
  }
  return pipeline.removeAlpha().toColourspace('srgb').raw({ depth: 'uchar' });
}

/**
 * A pipeline reading a buffer or a file, or a fresh stream (a stream can be read once; each pipeline gets its
 * own).
 */
function open(input: Buffer | string | (() => Readable), options: SharpOptions): Sharp {
  if (Buffer.isBuffer(input) || typeof input === 'string') return sharp(input, options);
  const pipeline = sharp(options);
  const stream = input();
  stream.on('error', (error) => pipeline.destroy(error));
  stream.pipe(pipeline);
  return pipeline;
}

function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  // libvips messages end with newlines and may repeat a line; one line is what a person reads.
  return [
    ...new Set(
      text
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean),
    ),
  ].join('; ');
}
