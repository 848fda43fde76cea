import { Readable } from 'node:stream';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decompressionBombPng, randomBytesOf, syntheticPhoto } from '../../test/evidence-files.js';
import { SharpImageDecoder } from './sharp-image-decoder.js';

const decoder = new SharpImageDecoder();
const limit = { maxPixels: 268_402_689 };

describe('the sharp image decoder', () => {
  it('decodes once to the displayed picture, shrunk to 320 on its long side', async () => {
    const outcome = await decoder.decode(await syntheticPhoto(1, 1600, 1200), limit);
    expect(outcome.status).toBe('decoded');
    if (outcome.status !== 'decoded') return;
    expect(outcome.image).toMatchObject({ width: 1600, height: 1200, format: 'jpeg' });
    expect(outcome.image.pixels).toMatchObject({ width: 320, height: 240, channels: 3 });
  });

  it('decodes a picture of at most 512 on its long side whole', async () => {
    const outcome = await decoder.decode(await syntheticPhoto(6, 512, 400), limit);
    expect(outcome.status === 'decoded' && outcome.image.pixels).toMatchObject({ width: 512, height: 400 });
  });

  it('never enlarges a small picture', async () => {
    const outcome = await decoder.decode(await syntheticPhoto(2, 200, 120, 'png'), limit);
    expect(outcome.status === 'decoded' && outcome.image.pixels).toMatchObject({ width: 200, height: 120 });
  });

  it.each([2, 3, 4, 5, 6, 7, 8])(
    'applies EXIF orientation %i as sharp’s own auto-orientation does',
    async (o) => {
      const photo = await sharp(await syntheticPhoto(3, 120, 80))
        .withMetadata({ orientation: o })
        .jpeg({ quality: 95 })
        .toBuffer();
      const outcome = await decoder.decode(photo, limit);
      if (outcome.status !== 'decoded') throw new Error(outcome.status);
      expect(outcome.image.orientation).toBe(o);
      expect(outcome.image).toMatchObject({ width: 120, height: 80 });
      const expected = await sharp(photo).autoOrient().raw().toBuffer({ resolveWithObject: true });
      expect(outcome.image.pixels.width).toBe(expected.info.width);
      expect(Buffer.from(outcome.image.pixels.data).equals(expected.data)).toBe(true);
    },
  );

  it('gives grey and transparent pictures as three channels', async () => {
    const grey = await sharp(Buffer.alloc(60 * 40, 90), { raw: { width: 60, height: 40, channels: 1 } })
      .png()
      .toBuffer();
    const rgba = await sharp({ create: { width: 30, height: 20, channels: 4, background: '#f008' } })
      .png()
      .toBuffer();
    for (const input of [grey, rgba]) {
      const outcome = await decoder.decode(input, limit);
      expect(outcome.status === 'decoded' && outcome.image.pixels.channels).toBe(3);
    }
  });

  it('reads a sixteen-bit PNG and a CMYK JPEG as 8-bit RGB', async () => {
    const deep = await sharp(await syntheticPhoto(4, 64, 48, 'png'))
      .toColourspace('rgb16')
      .png()
      .toBuffer();
    const cmyk = await sharp(await syntheticPhoto(5, 64, 48))
      .toColourspace('cmyk')
      .jpeg()
      .toBuffer();
    for (const input of [deep, cmyk]) {
      const outcome = await decoder.decode(input, limit);
      expect(outcome.status).toBe('decoded');
      if (outcome.status === 'decoded') {
        expect(outcome.image.pixels.data.length).toBe(64 * 48 * 3);
      }
    }
  });

  it('decodes from a stream as from a buffer', async () => {
    const photo = await syntheticPhoto(6, 700, 500);
    const fromBuffer = await decoder.decode(photo, limit);
    const fromStream = await decoder.decode(
      () => Readable.from([photo.subarray(0, 1000), photo.subarray(1000)]),
      limit,
    );
    if (fromBuffer.status !== 'decoded' || fromStream.status !== 'decoded') throw new Error('not decoded');
    expect(Buffer.from(fromStream.image.pixels.data).equals(Buffer.from(fromBuffer.image.pixels.data))).toBe(
      true,
    );
    expect({ ...fromStream.image, pixels: null }).toEqual({ ...fromBuffer.image, pixels: null });
  });

  it('reports a truncated JPEG as undecodable, with the decoder’s words and the size from its header', async () => {
    const photo = await syntheticPhoto(7, 400, 300);
    const outcome = await decoder.decode(photo.subarray(0, Math.floor(photo.length / 2)), limit);
    expect(outcome).toMatchObject({ status: 'undecodable', width: 400, height: 300, format: 'jpeg' });
    if (outcome.status === 'undecodable') expect(outcome.message).toMatch(/premature end|truncated/i);
  });

  it.each([
    ['random bytes', randomBytesOf(4096)],
    ['an empty buffer', Buffer.alloc(0)],
  ])('reports %s as undecodable', async (_what, input) => {
    const outcome = await decoder.decode(input, limit);
    expect(outcome.status).toBe('undecodable');
    if (outcome.status === 'undecodable') expect(outcome.message.length).toBeGreaterThan(0);
  });

  it('refuses a decompression bomb from its header, without decoding it', async () => {
    const outcome = await decoder.decode(decompressionBombPng(), limit);
    expect(outcome).toMatchObject({ status: 'pixel_limit', width: 50_000, height: 50_000, format: 'png' });
  });

  it('applies a lower pixel limit when asked', async () => {
    const outcome = await decoder.decode(await syntheticPhoto(8, 400, 300), { maxPixels: 100_000 });
    expect(outcome.status).toBe('pixel_limit');
  });

  it('encodes pixels as JPEG', async () => {
    const jpeg = await decoder.encodeJpeg(
      { data: new Uint8Array(16 * 8 * 3).fill(128), width: 16, height: 8, channels: 3 },
      80,
    );
    expect(await sharp(jpeg).metadata()).toMatchObject({ format: 'jpeg', width: 16, height: 8 });
  });
});
