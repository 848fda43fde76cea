import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { randomBytesOf, syntheticPhoto } from '../../test/evidence-files.js';
import { readJpegHeader } from './jpeg-header.js';

/** An APP1 segment holding a big-endian ("MM") TIFF whose IFD0 has one entry: orientation. */
function bigEndianExif(orientation: number): Buffer {
  const tiff = Buffer.from([
    ...[0x4d, 0x4d, 0x00, 0x2a, 0x00, 0x00, 0x00, 0x08], // "MM", 42, IFD0 at 8
    ...[0x00, 0x01], // one entry
    ...[0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, orientation, 0x00, 0x00], // orientation, SHORT, 1
    ...[0x00, 0x00, 0x00, 0x00], // no next IFD
  ]);
  const body = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const length = Buffer.alloc(2);
  length.writeUInt16BE(body.length + 2);
  return Buffer.concat([Buffer.from([0xff, 0xe1]), length, body]);
}

describe('the JPEG header reader', () => {
  it('reads the size libvips reads, for baseline and progressive JPEGs', async () => {
    const photo = await syntheticPhoto(11, 333, 201);
    const progressive = await sharp(photo).jpeg({ progressive: true }).toBuffer();
    for (const bytes of [photo, progressive]) {
      const meta = await sharp(bytes).metadata();
      expect(readJpegHeader(bytes)).toEqual({
        width: meta.width,
        height: meta.height,
        orientation: meta.orientation ?? null,
      });
    }
  });

  it.each([1, 2, 3, 4, 5, 6, 7, 8])('reads EXIF orientation %i as libvips does', async (o) => {
    const tagged = await sharp(await syntheticPhoto(12, 90, 60))
      .withMetadata({ orientation: o })
      .jpeg()
      .toBuffer();
    expect(readJpegHeader(tagged)?.orientation).toBe((await sharp(tagged).metadata()).orientation);
    expect(readJpegHeader(tagged)?.orientation).toBe(o);
  });

  it('reads orientation from big-endian EXIF too', async () => {
    const photo = await syntheticPhoto(13, 64, 48);
    const tagged = Buffer.concat([photo.subarray(0, 2), bigEndianExif(6), photo.subarray(2)]);
    expect(readJpegHeader(tagged)).toEqual({ width: 64, height: 48, orientation: 6 });
    expect((await sharp(tagged).metadata()).orientation).toBe(6);
  });

  it('gives nothing for what it cannot read whole, so the image library is asked', async () => {
    const photo = await syntheticPhoto(14, 64, 48);
    const sofAt = photo.indexOf(Buffer.from([0xff, 0xc0]));
    expect(sofAt).toBeGreaterThan(0);
    for (const bytes of [
      Buffer.alloc(0),
      randomBytesOf(2000, 5),
      await sharp(photo).png().toBuffer(),
      photo.subarray(0, sofAt + 3), // cut inside the frame header
      Buffer.concat([photo.subarray(0, 2), Buffer.from([0x12, 0x34]), photo.subarray(2)]), // not a marker
    ]) {
      expect(readJpegHeader(bytes)).toBeUndefined();
    }
  });

  it('keeps the header of a JPEG cut in its image data', async () => {
    const photo = await sharp(await syntheticPhoto(15, 200, 100))
      .jpeg()
      .toBuffer();
    expect(readJpegHeader(photo.subarray(0, photo.length >> 1))).toEqual({
      width: 200,
      height: 100,
      orientation: null,
    });
  });
});
