import type { Readable } from 'node:stream';
import sharp, { type Metadata, type Sharp, type SharpOptions } from 'sharp';
import {
  type DecodeOptions,
  type DecodeOutcome,
  type DerivedViews,
  type EncodedImage,
  type ImageDecoder,
  pdqWorkingSide,
  type RawImage,
  thumbnailSide,
} from './image-decoder.js';
import { displayedSize } from './media.js';

/** The blurred view is the thumbnail shrunk to this many pixels on its long side, then enlarged smoothly. */
const blurredSide = 16;
const thumbnailQuality = 80;

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
    let metadata: Metadata;
    try {
      metadata = await open(input, { failOn: 'none', limitInputPixels: false }).metadata();
    } catch (error) {
      return { status: 'undecodable', message: messageOf(error) };
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
    const displayed = displayedSize(width, height, orientation);
    try {
      const pipeline = open(input, {
        failOn: 'warning',
        limitInputPixels: options.maxPixels,
        autoOrient: true,
        sequentialRead: true,
      });
      if (displayed.width > pdqWorkingSide || displayed.height > pdqWorkingSide) {
        pipeline.resize(pdqWorkingSide, pdqWorkingSide, { fit: 'fill' });
      }
      pipeline.removeAlpha().toColourspace('srgb').raw({ depth: 'uchar' });
      const { data, info } = await pipeline.toBuffer({ resolveWithObject: true });
      const pixels: RawImage = { data, width: info.width, height: info.height, channels: info.channels };
      return { status: 'decoded', image: { width, height, orientation, format, pixels } };
    } catch (error) {
      return { status: 'undecodable', message: messageOf(error), width, height, orientation, format };
    }
  }

  async deriveViews(pixels: RawImage, displayed: { width: number; height: number }): Promise<DerivedViews> {
    const raw = { raw: { width: pixels.width, height: pixels.height, channels: pixels.channels as 3 } };
    const size = fitWithin(displayed, thumbnailSide);
    const tiny = fitWithin(displayed, blurredSide);
    const [thumbnail, small] = await Promise.all([
      sharp(pixels.data, raw)
        .resize(size.width, size.height, { fit: 'fill' })
        .jpeg({ quality: thumbnailQuality })
        .toBuffer(),
      sharp(pixels.data, raw).resize(tiny.width, tiny.height, { fit: 'fill' }).raw().toBuffer(),
    ]);
    // Enlarging a 16-pixel image smoothly leaves colour and layout, and nothing that can be recognised.
    const blurred = await sharp(small, { raw: { width: tiny.width, height: tiny.height, channels: 3 } })
      .resize(size.width, size.height, { fit: 'fill', kernel: 'cubic' })
      .blur(1.5)
      .jpeg({ quality: thumbnailQuality })
      .toBuffer();
    return { thumbnail: jpeg(thumbnail, size), blurred: jpeg(blurred, size) };
  }
}

/** A pipeline reading a buffer, or a fresh stream (a stream can be read once; each pipeline gets its own). */
function open(input: Buffer | (() => Readable), options: SharpOptions): Sharp {
  if (Buffer.isBuffer(input)) return sharp(input, options);
  const pipeline = sharp(options);
  const stream = input();
  stream.on('error', (error) => pipeline.destroy(error));
  stream.pipe(pipeline);
  return pipeline;
}

function fitWithin(size: { width: number; height: number }, side: number): { width: number; height: number } {
  const scale = Math.min(1, side / Math.max(size.width, size.height));
  return {
    width: Math.max(1, Math.round(size.width * scale)),
    height: Math.max(1, Math.round(size.height * scale)),
  };
}

function jpeg(data: Buffer, size: { width: number; height: number }): EncodedImage {
  return { data, mediaType: 'image/jpeg', ...size };
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
