/**
 * PNG encoding of 8-bit pixels (pure: zlib does the compression). Used for the blurred view, which is small and
 * smooth: a PNG of it is a few kilobytes, and making it here spares a trip through the image library.
 */
import zlib from 'node:zlib';
import type { RawImage } from './image-decoder.js';

const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** PNG colour types by channel count: grey, grey + alpha, RGB, RGBA. */
const colourTypes: Record<number, number> = { 1: 0, 2: 4, 3: 2, 4: 6 };

export function encodePng(image: RawImage): Buffer {
  const { width, height, channels, data } = image;
  const colourType = colourTypes[channels];
  if (colourType === undefined) throw new Error(`cannot write ${channels} channels as PNG`);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = colourType;
  // Each row filtered by "Sub" (the difference from the pixel to its left): on a smooth picture the differences
  // are small, and compress to little.
  const stride = width * channels;
  const filtered = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * stride;
    const out = y * (stride + 1);
    filtered[out] = 1;
    for (let i = 0; i < stride; i++) {
      filtered[out + 1 + i] = (data[row + i]! - (i >= channels ? data[row + i - channels]! : 0)) & 0xff;
    }
  }
  return Buffer.concat([
    signature,
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(filtered)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(body.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(Buffer.concat([head.subarray(4), body])) >>> 0);
  return Buffer.concat([head, body, crc]);
}
