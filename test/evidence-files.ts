/**
 * Files for the evidence tests, made on the spot: synthetic photos (labelled synthetic in their EXIF) and a
 * corpus of broken inputs. Nothing here is real material.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import sharp from 'sharp';

/** A synthetic photo: gradients, a few shapes and texture, different for each seed; JPEG unless said. */
export async function syntheticPhoto(
  seed: number,
  width = 640,
  height = 480,
  format: 'jpeg' | 'png' = 'jpeg',
): Promise<Buffer> {
  let state = (seed * 2654435761 + 1) >>> 0;
  const random = () => {
    state = (state * 1103515245 + 12345) >>> 0;
    return state / 2 ** 32;
  };
  const raw = Buffer.alloc(width * height * 3);
  const phase = random() * 10;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 3;
      const texture = Math.sin(x / (9 + (seed % 7)) + phase) * Math.cos(y / (13 + (seed % 5))) * 50;
      raw[o] = clamp(80 + (x / width) * 120 + texture);
      raw[o + 1] = clamp(60 + (y / height) * 140 - texture);
      raw[o + 2] = clamp(120 + texture * 0.5 + ((x * y) % 31));
    }
  }
  const shapes = Array.from({ length: 6 }, () => {
    const cx = Math.round(random() * width);
    const cy = Math.round(random() * height);
    const r = Math.round(20 + random() * width * 0.2);
    const colour = `rgb(${Math.round(random() * 255)},${Math.round(random() * 255)},${Math.round(random() * 255)})`;
    return `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${colour}"/>`;
  });
  const svg = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${shapes.join('')}</svg>`,
  );
  const image = sharp(raw, { raw: { width, height, channels: 3 } })
    .composite([{ input: svg }])
    .withExif({ IFD0: { Make: 'athar-test', Model: 'synthetic', ImageDescription: 'synthetic test photo' } });
  return format === 'png' ? image.png().toBuffer() : image.jpeg({ quality: 90 }).toBuffer();
}

function clamp(v: number): number {
  return Math.max(0, Math.min(255, Math.round(v)));
}

/**
 * A PNG that declares 50,000 × 50,000 pixels (2.5 gigapixels) over a few kilobytes of deflated zeros: a
 * decompression bomb by its header.
 */
export function decompressionBombPng(side = 50_000): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body) >>> 0);
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(Buffer.alloc(4 * 1024 * 1024))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Random bytes (deterministic), e.g. to name .jpg. */
export function randomBytesOf(length: number, seed = 1): Buffer {
  let state = seed >>> 0 || 1;
  const out = Buffer.alloc(length);
  for (let i = 0; i < length; i++) {
    state = (state * 1664525 + 1013904223) >>> 0;
    out[i] = state >>> 24;
  }
  // Never accidentally start like a known format.
  out[0] = 0x00;
  out[1] = 0x13;
  return out;
}

/** Writes a file whose name is raw bytes (which need not be UTF-8); returns its path as bytes. */
export function writeFileNamed(folder: string, name: Buffer, content: Buffer): Buffer {
  const full = Buffer.concat([Buffer.from(folder), Buffer.from('/'), name]);
  fs.writeFileSync(full, content);
  return full;
}

export function mkdirs(...parts: string[]): string {
  const dir = path.join(...parts);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}
