import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { hammingDistance, hammingDistanceHex } from './hamming.js';
import { displayedSize } from './media.js';
import { jaroszWindow, lumaFromPixels, pdqFromHex, pdqFromLuma, pdqOfPicture, pdqToHex } from './pdq.js';
import { SharpImageDecoder } from './sharp-image-decoder.js';

/** The reference images: ATHAR_SHARED_DATA/pdq, else the nearest shared/data/pdq above this checkout. */
function referenceData(): string {
  if (process.env.ATHAR_SHARED_DATA) return path.join(process.env.ATHAR_SHARED_DATA, 'pdq');
  for (let dir = import.meta.dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'shared', 'data', 'pdq');
    if (fs.existsSync(path.join(candidate, 'expected.csv'))) return candidate;
  }
  throw new Error('PDQ reference data not found: set ATHAR_SHARED_DATA to the folder holding pdq/');
}
const dataDir = referenceData();
const expected = fs
  .readFileSync(path.join(dataDir, 'expected.csv'), 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => line.split(',') as [string, string]);

const decoder = new SharpImageDecoder();

async function hashOf(input: string | Buffer): Promise<{ hex: string; quality: number }> {
  const bytes = typeof input === 'string' ? fs.readFileSync(input) : input;
  const outcome = await decoder.decode(bytes, { maxPixels: 1e9 });
  if (outcome.status !== 'decoded') throw new Error(outcome.message);
  const { image } = outcome;
  const { data, width, height, channels } = image.pixels;
  const result = pdqOfPicture(
    data,
    width,
    height,
    channels,
    displayedSize(image.width, image.height, image.orientation),
  );
  return { hex: pdqToHex(result.hash), quality: result.quality };
}

describe('PDQ against the reference hashes', () => {
  it('lands within 8 bits of every expected hash, and exactly on most', async () => {
    const distances: Record<string, number> = {};
    for (const [file, want] of expected) {
      distances[file] = hammingDistanceHex((await hashOf(path.join(dataDir, file))).hex, want)!;
    }
    const values = Object.values(distances);
    expect(values).toHaveLength(15);
    for (const [file, d] of Object.entries(distances)) expect(d, file).toBeLessThanOrEqual(8);
    expect(values.filter((d) => d === 0).length).toBeGreaterThanOrEqual(8);
    expect(values.reduce((a, b) => a + b, 0) / values.length).toBeLessThan(2.5);
  });

  it('keeps every edit of the bridge photo within 31 bits of the original', async () => {
    const original = (await hashOf(path.join(dataDir, 'bridge-mods/aaa-orig.jpg'))).hex;
    for (const file of fs.readdirSync(path.join(dataDir, 'bridge-mods'))) {
      const d = hammingDistanceHex(original, (await hashOf(path.join(dataDir, 'bridge-mods', file))).hex)!;
      expect(d, file).toBeLessThanOrEqual(31);
    }
  });

  it('puts unrelated photos far apart', async () => {
    const bridge = (await hashOf(path.join(dataDir, 'bridge-mods/aaa-orig.jpg'))).hex;
    for (const file of ['misc-images/c.png', 'misc-images/wee.jpg']) {
      const d = hammingDistanceHex(bridge, (await hashOf(path.join(dataDir, file))).hex)!;
      expect(d, file).toBeGreaterThan(90);
    }
  });

  it('rates a textured photo 100 and a flat picture 0', async () => {
    expect((await hashOf(path.join(dataDir, 'bridge-mods/aaa-orig.jpg'))).quality).toBe(100);
    const flat = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#777' } })
      .png()
      .toBuffer();
    expect((await hashOf(flat)).quality).toBe(0);
  });

  it('hashes a picture alike whether its orientation is set by an EXIF tag or in its pixels', async () => {
    const upright = await sharp(path.join(dataDir, 'bridge-mods/aaa-orig.jpg')).png().toBuffer();
    const turned = await sharp(upright).rotate(-90).png().toBuffer();
    const tagged = await sharp(turned).withMetadata({ orientation: 6 }).jpeg({ quality: 95 }).toBuffer();
    const a = await hashOf(upright);
    expect(hammingDistanceHex(a.hex, (await hashOf(tagged)).hex)).toBeLessThanOrEqual(8);
    // The turned pixels without the tag are another picture to PDQ, as they are to a viewer.
    expect(hammingDistanceHex(a.hex, (await hashOf(turned)).hex)).toBeGreaterThan(64);
  });
});

describe('PDQ core', () => {
  it('gives the all-zero hash and quality 0 below 5 pixels a side', () => {
    const result = pdqFromLuma(new Float32Array(4 * 100).fill(128), 4, 100);
    expect(pdqToHex(result.hash)).toBe('0'.repeat(64));
    expect(result.quality).toBe(0);
  });

  it.each([
    [64, 1],
    [128, 1],
    [129, 2],
    [512, 4],
    [1024, 8],
    [1000, 8],
  ])('uses a Jarosz window of %i → 64 pixels of %i', (size, window) => {
    expect(jaroszWindow(size, 64)).toBe(window);
  });

  it('sets exactly half the bits when all coefficients differ', () => {
    const { data, width, height } = noise(200, 150, 7);
    const { hash } = pdqFromLuma(lumaFromPixels(data, width, height, 1), width, height);
    let ones = 0;
    for (const byte of hash) for (let b = 0; b < 8; b++) ones += (byte >> b) & 1;
    expect(ones).toBe(128);
  });

  it('filters only where the decimation samples, with the same result as filtering everywhere', () => {
    for (const [width, height] of [
      [512, 512],
      [512, 384],
      [300, 700],
      [97, 65],
    ] as const) {
      const { data } = noise(width, height, width + height);
      const luma = lumaFromPixels(data, width, height, 1);
      const fast = pdqFromLuma(luma, width, height);
      const slow = referencePdq(luma, width, height);
      expect(hammingDistance(fast.hash, slow.hash), `${width}x${height}`).toBe(0);
      expect(fast.quality).toBe(slow.quality);
    }
  });

  it('stretches a shrunk picture to the reference square only when the original exceeds 512', () => {
    const { data } = noise(512, 256, 3);
    const small = pdqOfPicture(data, 512, 256, 1, { width: 512, height: 256 });
    const direct = pdqFromLuma(lumaFromPixels(data, 512, 256, 1), 512, 256);
    expect(pdqToHex(small.hash)).toBe(pdqToHex(direct.hash));
    const large = pdqOfPicture(data, 512, 256, 1, { width: 2048, height: 1024 });
    // The same as stretching the picture to 512×512 bilinearly (pixel centres aligned) and hashing that.
    const square = new Float32Array(512 * 512);
    for (let y = 0; y < 512; y++) {
      const at = Math.min(255, Math.max(0, (y + 0.5) / 2 - 0.5));
      const lower = Math.floor(at);
      const upper = Math.min(255, lower + 1);
      for (let x = 0; x < 512; x++) {
        const a = data[lower * 512 + x]!;
        square[y * 512 + x] = a + (data[upper * 512 + x]! - a) * (at - lower);
      }
    }
    const explicit = pdqFromLuma(square, 512, 512);
    expect(pdqToHex(large.hash)).toBe(pdqToHex(explicit.hash));
    expect(large.quality).toBe(explicit.quality);
  });

  it('hashes RGB pixels exactly as their luma image (the luma is taken inside the filter)', () => {
    for (const [width, height, channels] of [
      [320, 240, 3],
      [97, 65, 4],
      [240, 320, 3],
    ] as const) {
      const label = `${width}x${height}x${channels}`;
      // Colour: the same hash and quality as the luma image, hashed at its size.
      const { data } = noise(width * channels, height, width + height);
      const fromPixels = pdqOfPicture(data, width, height, channels, { width, height });
      const fromLuma = pdqFromLuma(lumaFromPixels(data, width, height, channels), width, height);
      expect(pdqToHex(fromPixels.hash), label).toBe(pdqToHex(fromLuma.hash));
      expect(fromPixels.quality, label).toBe(fromLuma.quality);
      // Grey in every channel: the same as one channel, also when stretched to the reference square.
      const grey = noise(width, height, width * height).data;
      const spread = new Uint8Array(width * height * channels);
      for (let p = 0; p < width * height; p++) spread.fill(grey[p]!, p * channels, p * channels + 3);
      for (const original of [
        { width, height },
        { width: width * 5, height: height * 5 },
      ]) {
        const rgb = pdqOfPicture(spread, width, height, channels, original);
        const one = pdqOfPicture(grey, width, height, 1, original);
        expect(pdqToHex(rgb.hash), `${label} of ${original.width}`).toBe(pdqToHex(one.hash));
        expect(rgb.quality).toBe(one.quality);
      }
    }
  });

  it('round-trips the hex form and refuses anything else', () => {
    const hex = 'd8f8f0cee0f4a84f0637022a078f67f0b36e2ed596621e1d33e6339c4e9c9b22';
    expect(pdqToHex(pdqFromHex(hex)!)).toBe(hex);
    expect(pdqFromHex('xyz')).toBeUndefined();
    expect(pdqFromHex(hex.slice(1))).toBeUndefined();
  });
});

/** Deterministic grey noise with some structure (so the DCT has distinct coefficients). */
function noise(width: number, height: number, seed: number) {
  let state = seed >>> 0 || 1;
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      state = (state * 1664525 + 1013904223) >>> 0;
      data[y * width + x] = Math.round(
        127 + 60 * Math.sin(x / 17 + seed) * Math.cos(y / 23) + ((state >>> 24) - 128) / 4,
      );
    }
  }
  return { data, width, height };
}

/**
 * The reference's procedure written out plainly (full-image box passes with running sums, then decimation), to
 * check the sampled filter against.
 */
function referencePdq(luma: Float32Array, width: number, height: number) {
  const a = Float64Array.from(luma);
  const b = new Float64Array(a.length);
  const box = (
    input: Float64Array,
    output: Float64Array,
    n: number,
    stride: number,
    start: number,
    w: number,
  ) => {
    const half = Math.floor((w + 2) / 2);
    for (let i = 0; i < n; i++) {
      const from = Math.max(0, i - (w - half));
      const to = Math.min(n - 1, i + half - 1);
      let sum = 0;
      for (let k = from; k <= to; k++) sum += input[start + k * stride]!;
      output[start + i * stride] = sum / (to - from + 1);
    }
  };
  const wr = jaroszWindow(width, 64);
  const wc = jaroszWindow(height, 64);
  for (let pass = 0; pass < 2; pass++) {
    for (let y = 0; y < height; y++) box(a, b, width, 1, y * width, wr);
    for (let x = 0; x < width; x++) box(b, a, height, width, x, wc);
  }
  const small = new Float32Array(64 * 64);
  for (let i = 0; i < 64; i++) {
    for (let j = 0; j < 64; j++) {
      small[i * 64 + j] =
        a[Math.floor(((i + 0.5) * height) / 64) * width + Math.floor(((j + 0.5) * width) / 64)]!;
    }
  }
  return pdqFromLuma(small, 64, 64);
}
